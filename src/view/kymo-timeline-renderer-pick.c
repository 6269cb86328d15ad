/* kymo-timeline-renderer-pick.c: the event under a point of the timeline
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-renderer"

#include "config.h"

#include <math.h>

#include "kymo-timeline-renderer-private.h"

static gboolean
pick_nearest_time (gsize     lo,
                   gsize     n,
                   KymoTime  ts,
                   KymoTime  tolerance,
                   KymoTime (*time_of) (gconstpointer, gsize),
                   gconstpointer data,
                   guint    *index)
{
  KymoTime best = G_MAXINT64;
  gboolean found = FALSE;

  for (gsize i = lo > 0 ? lo - 1 : 0; i < MIN (n, lo + 1); i++)
    {
      KymoTime d = ABS (time_of (data, i) - ts);
      if (d <= tolerance && d < best)
        {
          best = d;
          *index = i;
          found = TRUE;
        }
    }
  return found;
}

static KymoTime
instant_time (gconstpointer data,
              gsize         i)
{
  return ((const KymoInstant *) data)[i].ts;
}

static KymoTime
annotation_time (gconstpointer data,
                 gsize         i)
{
  return ((const KymoAnnotation *) data)[i].start;
}

gboolean
kymo_timeline_renderer_pick (KymoTimelineRenderer       *self,
                             KymoSession                *session,
                             const KymoTimelineLayout   *layout,
                             const KymoTimelineViewport *viewport,
                             double                      x,
                             double                      y,
                             KymoEventRef               *ref)
{
  const KymoTimelineRow *row;
  KymoTrack *track;
  KymoTime ts, tolerance;
  double ry;
  guint r;
  KymoTimelineFrame f;
  gsize n;

  _kymo_timeline_frame_init (&f, self, NULL, session, layout, viewport);
  if (y < f.top || x < 0 || x >= viewport->width)
    return FALSE;
  r = kymo_timeline_layout_find_row (layout, (int) floor (y - f.top + viewport->scroll_y));
  if (r >= kymo_timeline_layout_get_n_rows (layout))
    return FALSE;
  row = kymo_timeline_layout_get_row (layout, r);
  ry = y - f.top + viewport->scroll_y - row->y;
  /* The title strip holds no events. */
  if (ry < row->title_height || row->kind == KYMO_TRACK_GROUP)
    return FALSE;
  track = kymo_trace_get_track (self->trace, row->track);
  ts = x_to_time (&f, x);
  tolerance = (KymoTime) ceil (3 / f.px_per_ns);
  ref->track = row->track;

  if (row->kind == KYMO_TRACK_COUNTER)
    {
      const KymoSample *samples = kymo_track_get_samples (track, &n);
      gsize i = kymo_track_lower_bound_sample (track, ts + 1);
      (void) samples;
      if (i == 0 || n == 0)
        return FALSE;
      ref->kind = KYMO_EVENT_KIND_SAMPLE;
      ref->index = i - 1;
      return TRUE;
    }

  if (row->kind == KYMO_TRACK_THREAD && ry >= row->lanes_y)
    {
      guint depth = (guint) ((ry - row->lanes_y) / KYMO_TIMELINE_LANE_HEIGHT);
      guint32 idx = kymo_track_find_span_at (track, depth, ts);

      if (idx == G_MAXUINT32)
        {
          /* Narrow spans: the longest one starting within a few pixels. */
          guint32 longest, count;
          kymo_track_query_lod (track, depth, ts - tolerance, ts + tolerance + 1, 1, &longest, &count);
          idx = longest;
        }
      if (idx == G_MAXUINT32)
        return FALSE;
      ref->kind = KYMO_EVENT_KIND_SPAN;
      ref->index = idx;
      return TRUE;
    }

  {
    const KymoInstant *instants = kymo_track_get_instants (track, &n);
    guint index;

    if (n > 0 && pick_nearest_time (kymo_track_lower_bound_instant (track, ts), n, ts, tolerance,
                                    instant_time, instants, &index))
      {
        ref->kind = KYMO_EVENT_KIND_INSTANT;
        ref->index = index;
        return TRUE;
      }
  }
  {
    const KymoAnnotation *annotations = kymo_track_get_annotations (track, &n);
    gsize i;
    guint index;

    if (n == 0)
      return FALSE;
    i = kymo_track_lower_bound_annotation (track, ts + 1);
    /* Inside a range, or near a point. */
    for (gsize k = i; k > 0 && k + 64 > i; k--)
      if (annotations[k - 1].start <= ts && annotations[k - 1].end >= ts && annotations[k - 1].end > annotations[k - 1].start)
        {
          ref->kind = KYMO_EVENT_KIND_ANNOTATION;
          ref->index = k - 1;
          return TRUE;
        }
    if (pick_nearest_time (kymo_track_lower_bound_annotation (track, ts), n, ts, tolerance,
                           annotation_time, annotations, &index))
      {
        ref->kind = KYMO_EVENT_KIND_ANNOTATION;
        ref->index = index;
        return TRUE;
      }
  }
  return FALSE;
}
