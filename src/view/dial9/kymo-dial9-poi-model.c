/* kymo-dial9-poi-model.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-dial9-poi-model.h"
#include "details/kymo-details-private.h"

struct _KymoDial9PoiModel
{
  GObject            parent_instance;

  KymoDial9Analysis *analysis;
  KymoPoiOrder       order;
  guint              n_items;  /* as last announced */
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KymoDial9PoiModel, kymo_dial9_poi_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static guint
count_pois (KymoDial9PoiModel *self)
{
  KymoDial9Tasks *tasks = kymo_dial9_analysis_get_tasks (self->analysis);

  return tasks != NULL ? (guint) MIN (kymo_dial9_tasks_get_n_pois (tasks), G_MAXUINT) : 0;
}

static GType
kymo_dial9_poi_model_get_item_type (GListModel *model)
{
  return GTK_TYPE_STRING_OBJECT;
}

static guint
kymo_dial9_poi_model_get_n_items (GListModel *model)
{
  return KYMO_DIAL9_POI_MODEL (model)->n_items;
}

/* "task 12 (src/main.rs:40:5)": the task whose poll the point frames,
 * once the polls are placed (the line is made again then); NULL for a
 * park or before. */
static char *
poll_task (KymoDial9PoiModel *self,
           const KymoPoi     *poi)
{
  KymoDial9Tasks *tasks = kymo_dial9_analysis_get_tasks (self->analysis);
  const KymoDial9Task *rows;
  g_autofree char *id = NULL;
  const char *loc;
  gsize n_rows;
  guint32 row;

  if (tasks == NULL || poi->span == G_MAXUINT32 || !kymo_dial9_analysis_get_polls_ready (self->analysis))
    return NULL;
  row = kymo_dial9_tasks_find_poll (tasks, poi->track, poi->span);
  if (row == KYMO_DIAL9_NO_ROW)
    return NULL;
  rows = kymo_dial9_tasks_get_rows (tasks, &n_rows);
  loc = kymo_dial9_tasks_get_spawn_loc (tasks, row);
  id = g_strdup_printf ("%" G_GUINT64_FORMAT, rows[row].task_id);
  /* Translators: a Tokio task, by its id and where it was spawned */
  return *loc != '\0' ? g_strdup_printf (_("task %s (%s)"), id, loc)
                      /* Translators: a Tokio task, by its id */
                      : g_strdup_printf (_("task %s"), id);
}

static gpointer
kymo_dial9_poi_model_get_item (GListModel *model,
                               guint       position)
{
  KymoDial9PoiModel *self = KYMO_DIAL9_POI_MODEL (model);
  KymoSession *session = kymo_dial9_analysis_get_session (self->analysis);
  KymoTrace *trace = kymo_session_get_trace (session);
  const KymoPoi *poi = kymo_dial9_poi_model_get_poi (self, position);
  g_autofree char *severity = NULL;
  g_autofree char *at = NULL;
  g_autofree char *line = NULL;
  g_autofree char *task = NULL;
  const char *where = "";

  if (poi == NULL)
    return NULL;
  severity = _kymo_details_format_duration (poi->severity);
  at = _kymo_details_format_time (session, poi->start);
  if (poi->track < kymo_trace_get_n_tracks (trace))
    where = kymo_track_get_name (kymo_trace_get_track (trace, poi->track));
  task = poll_task (self, poi);
  if (task != NULL)
    line = g_strdup_printf ("%s · %s · %s · %s · %s", kymo_poi_kind_to_string (poi->kind), severity, where, task, at);
  else
    line = g_strdup_printf ("%s · %s · %s · %s", kymo_poi_kind_to_string (poi->kind), severity, where, at);
  return gtk_string_object_new (line);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = kymo_dial9_poi_model_get_item_type;
  iface->get_n_items = kymo_dial9_poi_model_get_n_items;
  iface->get_item = kymo_dial9_poi_model_get_item;
}

KymoDial9PoiModel *
kymo_dial9_poi_model_new (KymoDial9Analysis *analysis)
{
  KymoDial9PoiModel *self;

  g_return_val_if_fail (KYMO_IS_DIAL9_ANALYSIS (analysis), NULL);

  self = g_object_new (KYMO_TYPE_DIAL9_POI_MODEL, NULL);
  self->analysis = g_object_ref (analysis);
  self->n_items = count_pois (self);
  return self;
}

const KymoPoi *
kymo_dial9_poi_model_get_poi (KymoDial9PoiModel *self,
                              guint              position)
{
  KymoDial9Tasks *tasks;

  g_return_val_if_fail (KYMO_IS_DIAL9_POI_MODEL (self), NULL);

  tasks = kymo_dial9_analysis_get_tasks (self->analysis);
  if (tasks == NULL || position >= self->n_items || position >= kymo_dial9_tasks_get_n_pois (tasks))
    return NULL;
  return kymo_dial9_tasks_get_poi (tasks, self->order, position);
}

KymoPoiOrder
kymo_dial9_poi_model_get_order (KymoDial9PoiModel *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_POI_MODEL (self), KYMO_POI_WORST_FIRST);
  return self->order;
}

void
kymo_dial9_poi_model_set_order (KymoDial9PoiModel *self,
                                KymoPoiOrder       order)
{
  g_return_if_fail (KYMO_IS_DIAL9_POI_MODEL (self));

  if (self->order == order)
    return;
  self->order = order;
  if (self->n_items > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, self->n_items, self->n_items);
}

void
kymo_dial9_poi_model_refresh (KymoDial9PoiModel *self)
{
  guint removed;

  g_return_if_fail (KYMO_IS_DIAL9_POI_MODEL (self));

  removed = self->n_items;
  self->n_items = count_pois (self);
  if (removed > 0 || self->n_items > 0)
    g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, self->n_items);
}

static void
kymo_dial9_poi_model_finalize (GObject *object)
{
  KymoDial9PoiModel *self = (KymoDial9PoiModel *) object;

  g_clear_object (&self->analysis);
  G_OBJECT_CLASS (kymo_dial9_poi_model_parent_class)->finalize (object);
}

static void
kymo_dial9_poi_model_class_init (KymoDial9PoiModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kymo_dial9_poi_model_finalize;
}

static void
kymo_dial9_poi_model_init (KymoDial9PoiModel *self)
{
  self->order = KYMO_POI_WORST_FIRST;
}
