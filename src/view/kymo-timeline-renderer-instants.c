/* kymo-timeline-renderer-instants.c: instant markers, at most one per pixel column
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-renderer"

#include "config.h"

#include <math.h>

#include "kymo-timeline-renderer-private.h"

void
_kymo_timeline_frame_highlight_instants (KymoTimelineFrame *f,
                                         KymoTrack         *track,
                                         float              y,
                                         float              h)
{
  if (f->hl.set != NULL)
    _kymo_timeline_highlight_instants (&f->hl, f->snapshot, &f->self->theme, track, f->t0, f->t1,
                                       f->px_per_ns, &GRAPHENE_RECT_INIT (0, y, f->viewport->width, h));
}

/* ---------------------------------------------------------------- instants */

static void
draw_instant_marker (KymoTimelineFrame *f,
                     guint32            name_flags,
                     double             x,
                     float              y,
                     float              h)
{
  KymoTimelineRenderer *self = f->self;
  guint32 name = name_flags & KYMO_NAME_MAX;
  const GdkRGBA *colour = ((name_flags >> 24) & KYMO_EVENT_WARNING) ? &self->theme.warning : &self->theme.dim;

  gtk_snapshot_append_color (f->snapshot, colour, &GRAPHENE_RECT_INIT (floor (x), y, 1, h));
  gtk_snapshot_append_color (f->snapshot, _kymo_timeline_renderer_name_colour (self, name),
                             &GRAPHENE_RECT_INIT (floor (x) - 2, y, 5, MIN (h, 5)));
}

/* At most one marker per pixel column, found by binary search when the
 * window holds more instants than columns. */
void
_kymo_timeline_frame_draw_instants (KymoTimelineFrame *f,
                                    KymoTrack         *track,
                                    float              y,
                                    float              h)
{
  const KymoInstant *instants;
  gsize n, lo, hi;
  double last_x = -G_MAXDOUBLE;

  instants = kymo_track_get_instants (track, &n);
  if (n == 0)
    return;
  lo = kymo_track_lower_bound_instant (track, f->t0);
  hi = kymo_track_lower_bound_instant (track, f->t1 + 1);
  if (hi - lo <= f->n_columns)
    {
      for (gsize i = lo; i < hi; i++)
        {
          double x = time_to_x (f, instants[i].ts);
          if (floor (x) == last_x)
            continue;
          last_x = floor (x);
          draw_instant_marker (f, instants[i].name_flags, x, y, h);
        }
      return;
    }
  for (guint c = 0; c < f->n_columns; c++)
    {
      KymoTime col_start = x_to_time (f, c);
      gsize i = kymo_track_lower_bound_instant (track, MAX (col_start, f->t0));
      if (i < n && time_to_x (f, instants[i].ts) < c + 1)
        draw_instant_marker (f, instants[i].name_flags, time_to_x (f, instants[i].ts), y, h);
    }
}
