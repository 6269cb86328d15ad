/* kymo-timeline-layout.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-layout"

#include "config.h"

#include "kymo-timeline-layout.h"
#include "kymo-timeline-lanes.h"

struct _KymoTimelineLayout
{
  KymoSession *session;
  KymoTrace   *trace;
  GArray      *rows;        /* KymoTimelineRow */
  int         *track_rows;  /* [n_tracks]: row index or -1 */
  guint8      *shown;       /* [n_tracks]: scratch for the filter */
  guint        serial;
  gboolean     built;
  int          height;
};

/* The height of what a track shows under its title strip. */
static int
content_height (KymoTrace *trace,
                KymoTrack *track,
                int       *lanes_y)
{
  gsize n_instants;

  *lanes_y = KYMO_TIMELINE_ROW_PAD;
  switch (kymo_track_get_kind (track))
    {
    case KYMO_TRACK_GROUP:
      return 0;
    case KYMO_TRACK_THREAD:
      kymo_track_get_instants (track, &n_instants);
      if (n_instants > 0)
        *lanes_y += KYMO_TIMELINE_INSTANT_STRIP;
      if (kymo_timeline_cpu_band_applies (trace, track))
        *lanes_y += KYMO_TIMELINE_CPU_BAND;
      return *lanes_y + MAX (kymo_track_get_n_depths (track), 1) * KYMO_TIMELINE_LANE_HEIGHT
             + KYMO_TIMELINE_ROW_PAD;
    case KYMO_TRACK_COUNTER:
      return 48;
    case KYMO_TRACK_MARKER:
    case KYMO_TRACK_ANNOTATION:
      return 26;
    case KYMO_TRACK_INSTANT:
    case KYMO_TRACK_LOG:
    default:
      return 22;
    }
}

/* A track is shown when it, one of its groups or one of its tracks matches. */
static gboolean
mark_matches (KymoTimelineLayout *self,
              guint               id,
              gboolean            ancestor_matches)
{
  KymoTrack *track = kymo_trace_get_track (self->trace, id);
  gboolean matches = ancestor_matches || kymo_session_track_matches_filter (self->session, id);
  gboolean any = matches;
  const guint *children;
  guint n_children;

  children = kymo_track_get_children (track, &n_children);
  for (guint i = 0; i < n_children; i++)
    any |= mark_matches (self, children[i], matches);
  self->shown[id] = any;
  return any;
}

static void
append_row (KymoTimelineLayout *self,
            guint               id,
            guint               indent,
            gboolean            pinned)
{
  KymoTrack *track = kymo_trace_get_track (self->trace, id);
  KymoTimelineRow row = { 0 };

  row.track = id;
  row.kind = kymo_track_get_kind (track);
  row.indent = indent;
  row.pinned = pinned;
  row.collapsed = row.kind == KYMO_TRACK_GROUP && kymo_session_get_group_collapsed (self->session, id);
  row.y = self->height;
  if (row.kind == KYMO_TRACK_GROUP)
    row.height = KYMO_TIMELINE_GROUP_HEIGHT;
  else
    {
      row.title_height = KYMO_TIMELINE_TITLE_HEIGHT;
      row.height = row.title_height + content_height (self->trace, track, &row.lanes_y);
      row.lanes_y += row.title_height;
    }
  self->height += row.height;
  self->track_rows[id] = self->rows->len;
  g_array_append_val (self->rows, row);
}

static void
append_subtree (KymoTimelineLayout *self,
                guint               id,
                guint               indent)
{
  KymoTrack *track = kymo_trace_get_track (self->trace, id);
  const guint *children;
  guint n_children;

  if (!self->shown[id] || !kymo_session_get_track_visible (self->session, id) ||
      self->track_rows[id] >= 0)
    return;
  append_row (self, id, indent, FALSE);
  if (kymo_track_get_kind (track) == KYMO_TRACK_GROUP &&
      kymo_session_get_group_collapsed (self->session, id))
    return;
  children = kymo_track_get_children (track, &n_children);
  for (guint i = 0; i < n_children; i++)
    append_subtree (self, children[i], indent + 1);
}

static void
rebuild (KymoTimelineLayout *self)
{
  guint n_tracks = kymo_trace_get_n_tracks (self->trace);
  const guint *roots, *pinned;
  guint n_roots, n_pinned;

  g_array_set_size (self->rows, 0);
  self->height = 0;
  for (guint i = 0; i < n_tracks; i++)
    self->track_rows[i] = -1;

  roots = kymo_trace_get_root_tracks (self->trace, &n_roots);
  for (guint i = 0; i < n_roots; i++)
    mark_matches (self, roots[i], FALSE);

  /* Pinned tracks come first, and only there. */
  pinned = kymo_session_get_pinned_tracks (self->session, &n_pinned);
  for (guint i = 0; i < n_pinned; i++)
    if (kymo_session_get_track_visible (self->session, pinned[i]) && self->track_rows[pinned[i]] < 0)
      append_row (self, pinned[i], 0, TRUE);

  for (guint i = 0; i < n_roots; i++)
    append_subtree (self, roots[i], 0);
}

KymoTimelineLayout *
kymo_timeline_layout_new (KymoSession *session)
{
  KymoTimelineLayout *self = g_new0 (KymoTimelineLayout, 1);
  guint n_tracks;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self->session = g_object_ref (session);
  self->trace = kymo_session_get_trace (session);
  n_tracks = kymo_trace_get_n_tracks (self->trace);
  self->rows = g_array_new (FALSE, FALSE, sizeof (KymoTimelineRow));
  self->track_rows = g_new (int, MAX (n_tracks, 1));
  self->shown = g_new0 (guint8, MAX (n_tracks, 1));
  kymo_timeline_layout_update (self);
  return self;
}

void
kymo_timeline_layout_free (KymoTimelineLayout *self)
{
  g_clear_object (&self->session);
  g_array_unref (self->rows);
  g_free (self->track_rows);
  g_free (self->shown);
  g_free (self);
}

gboolean
kymo_timeline_layout_update (KymoTimelineLayout *self)
{
  guint serial = kymo_session_get_tracks_serial (self->session);

  if (self->built && serial == self->serial)
    return FALSE;
  self->built = TRUE;
  self->serial = serial;
  rebuild (self);
  return TRUE;
}

guint
kymo_timeline_layout_get_n_rows (const KymoTimelineLayout *self)
{
  return self->rows->len;
}

const KymoTimelineRow *
kymo_timeline_layout_get_row (const KymoTimelineLayout *self,
                              guint                     i)
{
  g_return_val_if_fail (i < self->rows->len, NULL);

  return &g_array_index (self->rows, KymoTimelineRow, i);
}

int
kymo_timeline_layout_get_height (const KymoTimelineLayout *self)
{
  return self->height;
}

guint
kymo_timeline_layout_find_row (const KymoTimelineLayout *self,
                               int                       y)
{
  guint lo = 0, hi = self->rows->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const KymoTimelineRow *row = &g_array_index (self->rows, KymoTimelineRow, mid);

      if (row->y + row->height <= y)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

int
kymo_timeline_layout_find_track (const KymoTimelineLayout *self,
                                 guint                     track)
{
  if (track >= kymo_trace_get_n_tracks (self->trace))
    return -1;
  return self->track_rows[track];
}
