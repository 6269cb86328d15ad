/* kymo-session-private.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-session.h"

G_BEGIN_DECLS

/* Below this a window cannot be told apart from its neighbours in ns. */
#define KYMO_SESSION_MIN_WINDOW 10

struct _KymoSession
{
  GObject       parent_instance;

  KymoTrace    *trace;
  KymoTime      full_start;
  KymoTime      full_end;
  KymoTime      start;
  KymoTime      end;

  GArray       *back;     /* Range */
  GArray       *forward;  /* Range */

  KymoEventRef  selected;
  KymoEventRef  hovered;
  KymoTime      range_start;
  KymoTime      range_end;
  guint32       highlighted_name;
  KymoEventSet *highlight;
  char         *search_text;
  int           search_match;
  gboolean      wallclock;
  gboolean      utc;          /* wall clock in UTC rather than local time */

  char         *filter_text;
  char         *filter_folded;
  guint8       *hidden;     /* [n_tracks] */
  guint8       *collapsed;  /* [n_tracks] */
  GArray       *pinned;     /* guint */
  guint         tracks_serial;
};

enum {
  PROP_0,
  PROP_TRACE,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_SELECTED_EVENT,
  PROP_HOVERED_EVENT,
  PROP_SELECTION_START,
  PROP_SELECTION_END,
  PROP_HIGHLIGHTED_NAME,
  PROP_HIGHLIGHT,
  PROP_WALLCLOCK,
  PROP_UTC,
  PROP_FILTER_TEXT,
  PROP_SEARCH_TEXT,
  PROP_SEARCH_MATCH,
  N_PROPS
};

void _kymo_session_notify              (KymoSession *self,
                                        guint        prop);
/* Tracks were shown, hidden, pinned, collapsed or filtered. */
void _kymo_session_tracks_changed      (KymoSession *self);
void _kymo_session_emit_reveal_track   (KymoSession *self,
                                        guint        track);

static inline gboolean
_kymo_event_ref_is_set (const KymoEventRef *ref)
{
  return ref->kind != KYMO_EVENT_KIND_NONE;
}

static inline gboolean
_kymo_event_ref_equal (const KymoEventRef *a,
                       const KymoEventRef *b)
{
  return a->kind == b->kind && a->track == b->track && a->index == b->index;
}

G_END_DECLS
