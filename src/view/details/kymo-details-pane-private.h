/* kymo-details-pane-private.h: what the details pane's files share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-details-pane.h"
#include "kymo-details-private.h"

G_BEGIN_DECLS

#define INDENT 14

struct _KymoDetailsPane
{
  GtkWidget           parent_instance;

  KymoSession        *session;
  GSignalGroup       *session_signals;

  GtkWidget          *header;
  GtkWidget          *title;
  GtkWidget          *subtitle;
  GtkWidget          *link_button;
  GtkWidget          *copy_button;
  GtkWidget          *split;       /* fields over detail records */
  GtkWidget          *stack;
  GtkWidget          *scroller;
  GtkWidget          *content;

  GtkWidget          *records_box;
  GtkWidget          *records_title;
  GtkWidget          *records_view;
  GtkSingleSelection *records_selection;
  guint               records_track;
  gboolean            syncing;

  gboolean            has_current;
  KymoEventRef        current;
  JsonObject         *args;
};

static inline KymoTrace *
get_trace (KymoDetailsPane *self)
{
  return kymo_session_get_trace (self->session);
}

static inline gboolean
ref_equal (const KymoEventRef *a,
           const KymoEventRef *b)
{
  return a->kind == b->kind && a->track == b->track && a->index == b->index;
}

/* The pane's parts, by the files that hold them: the sections under an
 * event (-sections.c), its grid of fields (-grid.c), its thread's detail
 * records (-records.c). */
void       _kymo_details_pane_add_arguments      (KymoDetailsPane *self);
void       _kymo_details_pane_add_point_parents  (KymoDetailsPane *self,
                                                  const KymoTrack *track,
                                                  KymoTime         ts);
void       _kymo_details_pane_add_registers      (KymoDetailsPane *self,
                                                  const char      *key,
                                                  const char      *title);
void       _kymo_details_pane_add_span           (KymoDetailsPane *self,
                                                  GtkWidget       *grid,
                                                  int             *row,
                                                  const KymoTrack *track);
void       _kymo_details_pane_add_stack          (KymoDetailsPane *self,
                                                  const char      *key,
                                                  const char      *title);
void       _kymo_details_pane_add_node           (GtkWidget  *grid,
                                                  int        *row,
                                                  const char *key,
                                                  JsonNode   *node,
                                                  int         indent);
char      *_kymo_details_pane_flags_to_string    (guint flags);
void       _kymo_details_pane_grid_add           (GtkWidget  *grid,
                                                  int        *row,
                                                  const char *key,
                                                  const char *value,
                                                  int         indent,
                                                  gboolean    monospace);
gboolean   _kymo_details_pane_is_detail_track    (KymoTrace *trace,
                                                  guint      track);
GtkWidget *_kymo_details_pane_new_grid           (void);
char      *_kymo_details_pane_node_to_text       (JsonNode *node);
void       _kymo_details_pane_on_record_selected (GtkSingleSelection *selection,
                                                  guint               position,
                                                  guint               n_items,
                                                  KymoDetailsPane    *self);
void       _kymo_details_pane_records_bind       (GtkSignalListItemFactory *factory,
                                                  GtkListItem              *list_item,
                                                  KymoDetailsPane          *self);
void       _kymo_details_pane_records_setup      (GtkSignalListItemFactory *factory,
                                                  GtkListItem              *list_item,
                                                  gpointer                  user_data);
void       _kymo_details_pane_sync_records       (KymoDetailsPane *self);
GtkWidget *_kymo_details_pane_value_label        (const char *text,
                                                  gboolean    monospace);

G_END_DECLS
