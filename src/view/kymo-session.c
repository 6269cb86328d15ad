/* kymo-session.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-session"

#include "config.h"

#include "kymo-session-private.h"

#define HISTORY_MAX 100

typedef struct {
  KymoTime start;
  KymoTime end;
} Range;

G_DEFINE_FINAL_TYPE (KymoSession, kymo_session, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (KymoEventRef, kymo_event_ref, kymo_event_ref_copy, kymo_event_ref_free)

enum {
  TRACKS_CHANGED,
  REVEAL_TRACK,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

KymoEventRef *
kymo_event_ref_copy (const KymoEventRef *ref)
{
  return g_memdup2 (ref, sizeof *ref);
}

void
kymo_event_ref_free (KymoEventRef *ref)
{
  g_free (ref);
}

void
_kymo_session_notify (KymoSession *self,
                      guint        prop)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

void
_kymo_session_tracks_changed (KymoSession *self)
{
  self->tracks_serial++;
  g_signal_emit (self, signals[TRACKS_CHANGED], 0);
}

void
_kymo_session_emit_reveal_track (KymoSession *self,
                                 guint        track)
{
  g_signal_emit (self, signals[REVEAL_TRACK], 0, track);
}

static void
kymo_session_finalize (GObject *object)
{
  KymoSession *self = (KymoSession *) object;

  g_clear_pointer (&self->highlight, kymo_event_set_unref);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->back, g_array_unref);
  g_clear_pointer (&self->forward, g_array_unref);
  g_clear_pointer (&self->pinned, g_array_unref);
  g_free (self->hidden);
  g_free (self->collapsed);
  g_free (self->filter_text);
  g_free (self->filter_folded);
  g_free (self->search_text);
  G_OBJECT_CLASS (kymo_session_parent_class)->finalize (object);
}

static void
kymo_session_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  KymoSession *self = KYMO_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    case PROP_VISIBLE_START:
      g_value_set_int64 (value, self->start);
      break;
    case PROP_VISIBLE_END:
      g_value_set_int64 (value, self->end);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, kymo_session_get_can_go_back (self));
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, kymo_session_get_can_go_forward (self));
      break;
    case PROP_SELECTED_EVENT:
      g_value_set_boxed (value, kymo_session_get_selected_event (self));
      break;
    case PROP_HOVERED_EVENT:
      g_value_set_boxed (value, kymo_session_get_hovered_event (self));
      break;
    case PROP_SELECTION_START:
      g_value_set_int64 (value, self->range_start);
      break;
    case PROP_SELECTION_END:
      g_value_set_int64 (value, self->range_end);
      break;
    case PROP_HIGHLIGHTED_NAME:
      g_value_set_uint (value, self->highlighted_name);
      break;
    case PROP_HIGHLIGHT:
      g_value_set_boxed (value, self->highlight);
      break;
    case PROP_WALLCLOCK:
      g_value_set_boolean (value, self->wallclock);
      break;
    case PROP_UTC:
      g_value_set_boolean (value, self->utc);
      break;
    case PROP_FILTER_TEXT:
      g_value_set_string (value, self->filter_text);
      break;
    case PROP_SEARCH_TEXT:
      g_value_set_string (value, self->search_text);
      break;
    case PROP_SEARCH_MATCH:
      g_value_set_int (value, self->search_match);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_session_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  KymoSession *self = KYMO_SESSION (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      self->trace = g_value_dup_object (value);
      break;
    case PROP_VISIBLE_START:
      kymo_session_set_visible_range (self, g_value_get_int64 (value), self->end);
      break;
    case PROP_VISIBLE_END:
      kymo_session_set_visible_range (self, self->start, g_value_get_int64 (value));
      break;
    case PROP_SELECTED_EVENT:
      kymo_session_select_event (self, g_value_get_boxed (value));
      break;
    case PROP_HOVERED_EVENT:
      kymo_session_set_hovered_event (self, g_value_get_boxed (value));
      break;
    case PROP_SELECTION_START:
      kymo_session_set_selected_range (self, g_value_get_int64 (value), self->range_end);
      break;
    case PROP_SELECTION_END:
      kymo_session_set_selected_range (self, self->range_start, g_value_get_int64 (value));
      break;
    case PROP_HIGHLIGHTED_NAME:
      kymo_session_set_highlighted_name (self, g_value_get_uint (value));
      break;
    case PROP_HIGHLIGHT:
      kymo_session_set_highlight (self, g_value_get_boxed (value));
      break;
    case PROP_WALLCLOCK:
      kymo_session_set_wallclock (self, g_value_get_boolean (value));
      break;
    case PROP_UTC:
      kymo_session_set_utc (self, g_value_get_boolean (value));
      break;
    case PROP_FILTER_TEXT:
      kymo_session_set_filter_text (self, g_value_get_string (value));
      break;
    case PROP_SEARCH_TEXT:
      kymo_session_set_search_text (self, g_value_get_string (value));
      break;
    case PROP_SEARCH_MATCH:
      kymo_session_set_search_match (self, g_value_get_int (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_session_constructed (GObject *object)
{
  KymoSession *self = (KymoSession *) object;
  guint n_tracks;

  G_OBJECT_CLASS (kymo_session_parent_class)->constructed (object);

  if (self->trace == NULL)
    self->trace = kymo_trace_new ();
  n_tracks = kymo_trace_get_n_tracks (self->trace);
  self->hidden = g_new0 (guint8, MAX (n_tracks, 1));
  self->collapsed = g_new0 (guint8, MAX (n_tracks, 1));

  kymo_trace_get_time_range (self->trace, &self->full_start, &self->full_end);
  if (self->full_start == KYMO_TIME_NONE || self->full_end == KYMO_TIME_NONE ||
      self->full_end < self->full_start)
    {
      self->full_start = 0;
      self->full_end = 1000000000;
    }
  else
    {
      KymoTime margin = (self->full_end - self->full_start) / 50;
      margin = MAX (margin, 1000);
      self->full_start -= margin;
      self->full_end += margin;
    }
  self->start = self->full_start;
  self->end = self->full_end;
}

static void
kymo_session_class_init (KymoSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_session_finalize;
  object_class->get_property = kymo_session_get_property;
  object_class->set_property = kymo_session_set_property;
  object_class->constructed = kymo_session_constructed;

  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, KYMO_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_START] =
    g_param_spec_int64 ("visible-start", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE_END] =
    g_param_spec_int64 ("visible-end", NULL, NULL, G_MININT64, G_MAXINT64, 0,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_EVENT] =
    g_param_spec_boxed ("selected-event", NULL, NULL, KYMO_TYPE_EVENT_REF,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HOVERED_EVENT] =
    g_param_spec_boxed ("hovered-event", NULL, NULL, KYMO_TYPE_EVENT_REF,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTION_START] =
    g_param_spec_int64 ("selection-start", NULL, NULL, G_MININT64, G_MAXINT64, KYMO_TIME_NONE,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTION_END] =
    g_param_spec_int64 ("selection-end", NULL, NULL, G_MININT64, G_MAXINT64, KYMO_TIME_NONE,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIGHLIGHTED_NAME] =
    g_param_spec_uint ("highlighted-name", NULL, NULL, 0, G_MAXUINT32, KYMO_SESSION_NO_NAME,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HIGHLIGHT] =
    g_param_spec_boxed ("highlight", NULL, NULL, KYMO_TYPE_EVENT_SET,
                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WALLCLOCK] =
    g_param_spec_boolean ("wallclock", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UTC] =
    g_param_spec_boolean ("utc", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FILTER_TEXT] =
    g_param_spec_string ("filter-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* What the find bar searches, and which of its matches is current (-1: none). */
  properties[PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH_MATCH] =
    g_param_spec_int ("search-match", NULL, NULL, -1, G_MAXINT, -1,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Visibility, pins, collapsed groups or the filter changed. */
  signals[TRACKS_CHANGED] =
    g_signal_new ("tracks-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* A view showing tracks should scroll @track into view. */
  signals[REVEAL_TRACK] =
    g_signal_new ("reveal-track", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
}

static void
kymo_session_init (KymoSession *self)
{
  self->back = g_array_new (FALSE, FALSE, sizeof (Range));
  self->forward = g_array_new (FALSE, FALSE, sizeof (Range));
  self->pinned = g_array_new (FALSE, FALSE, sizeof (guint));
  self->range_start = KYMO_TIME_NONE;
  self->range_end = KYMO_TIME_NONE;
  self->highlighted_name = KYMO_SESSION_NO_NAME;
  self->search_match = -1;
}

KymoSession *
kymo_session_new (KymoTrace *trace)
{
  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  return g_object_new (KYMO_TYPE_SESSION, "trace", trace, NULL);
}

KymoTrace *
kymo_session_get_trace (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), NULL);

  return self->trace;
}

void
kymo_session_get_full_range (KymoSession *self,
                             KymoTime    *start,
                             KymoTime    *end)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  if (start)
    *start = self->full_start;
  if (end)
    *end = self->full_end;
}

void
kymo_session_get_visible_range (KymoSession *self,
                                KymoTime    *start,
                                KymoTime    *end)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  if (start)
    *start = self->start;
  if (end)
    *end = self->end;
}

void
kymo_session_set_visible_range (KymoSession *self,
                                KymoTime     start,
                                KymoTime     end)
{
  KymoTime full = self->full_end - self->full_start;
  KymoTime width;

  g_return_if_fail (KYMO_IS_SESSION (self));

  if (end < start)
    {
      KymoTime tmp = start;
      start = end;
      end = tmp;
    }
  /* Keep the window inside the trace and neither empty nor wider than it. */
  width = CLAMP (end - start, KYMO_SESSION_MIN_WINDOW, MAX (full, KYMO_SESSION_MIN_WINDOW));
  if (end - start != width)
    {
      KymoTime center = start + (end - start) / 2;
      start = center - width / 2;
    }
  start = CLAMP (start, self->full_start, self->full_end - width);
  end = start + width;

  if (start == self->start && end == self->end)
    return;

  g_object_freeze_notify (G_OBJECT (self));
  if (start != self->start)
    {
      self->start = start;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_START]);
    }
  if (end != self->end)
    {
      self->end = end;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE_END]);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

static void
notify_history (KymoSession *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

void
kymo_session_push_history (KymoSession *self)
{
  Range current = { self->start, self->end };

  g_return_if_fail (KYMO_IS_SESSION (self));

  if (self->back->len > 0)
    {
      const Range *last = &g_array_index (self->back, Range, self->back->len - 1);
      if (last->start == current.start && last->end == current.end)
        return;
    }
  if (self->back->len >= HISTORY_MAX)
    g_array_remove_index (self->back, 0);
  g_array_append_val (self->back, current);
  g_array_set_size (self->forward, 0);
  notify_history (self);
}

void
kymo_session_zoom_to (KymoSession *self,
                      KymoTime     start,
                      KymoTime     end)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  kymo_session_push_history (self);
  kymo_session_set_visible_range (self, start, end);
}

void
kymo_session_zoom_at (KymoSession *self,
                      KymoTime     anchor,
                      double       factor)
{
  double start, end;

  g_return_if_fail (KYMO_IS_SESSION (self));
  g_return_if_fail (factor > 0);

  start = anchor - (anchor - (double) self->start) * factor;
  end = anchor + ((double) self->end - anchor) * factor;
  /* Zooming in must not stall on windows a few ns wide because of rounding. */
  if (factor < 1 && (KymoTime) end - (KymoTime) start == self->end - self->start && self->end - self->start > KYMO_SESSION_MIN_WINDOW)
    end -= 1;
  kymo_session_set_visible_range (self, (KymoTime) start, (KymoTime) end);
}

void
kymo_session_pan (KymoSession *self,
                  KymoTime     delta)
{
  KymoTime width = self->end - self->start;
  KymoTime start;

  g_return_if_fail (KYMO_IS_SESSION (self));

  start = CLAMP (self->start + delta, self->full_start, self->full_end - width);
  kymo_session_set_visible_range (self, start, start + width);
}

void
kymo_session_fit_all (KymoSession *self)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  kymo_session_zoom_to (self, self->full_start, self->full_end);
}

gboolean
kymo_session_fit_selection (KymoSession *self)
{
  KymoTime start, end;

  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);

  if (self->range_start != KYMO_TIME_NONE && self->range_end > self->range_start)
    {
      start = self->range_start;
      end = self->range_end;
    }
  else if (!kymo_session_get_event_extent (self, &self->selected, &start, &end))
    return FALSE;

  /* A little room on both sides so the edges stay visible. */
  {
    KymoTime margin = MAX ((end - start) / 20, KYMO_SESSION_MIN_WINDOW);
    kymo_session_zoom_to (self, start - margin, end + margin);
  }
  return TRUE;
}

static gboolean
history_step (KymoSession *self,
              GArray      *from,
              GArray      *to)
{
  Range current = { self->start, self->end };
  Range target;

  if (from->len == 0)
    return FALSE;
  target = g_array_index (from, Range, from->len - 1);
  g_array_set_size (from, from->len - 1);
  g_array_append_val (to, current);
  kymo_session_set_visible_range (self, target.start, target.end);
  notify_history (self);
  return TRUE;
}

gboolean
kymo_session_go_back (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);

  return history_step (self, self->back, self->forward);
}

gboolean
kymo_session_go_forward (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);

  return history_step (self, self->forward, self->back);
}

gboolean
kymo_session_get_can_go_back (KymoSession *self)
{
  return self->back->len > 0;
}

gboolean
kymo_session_get_can_go_forward (KymoSession *self)
{
  return self->forward->len > 0;
}

gboolean
kymo_session_get_wallclock (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);

  return self->wallclock;
}

void
kymo_session_set_wallclock (KymoSession *self,
                            gboolean     wallclock)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  wallclock = !!wallclock;
  if (wallclock == self->wallclock)
    return;
  self->wallclock = wallclock;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_WALLCLOCK]);
}

gboolean
kymo_session_get_utc (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);

  return self->utc;
}

void
kymo_session_set_utc (KymoSession *self,
                      gboolean     utc)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  utc = !!utc;
  if (utc == self->utc)
    return;
  self->utc = utc;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UTC]);
}
