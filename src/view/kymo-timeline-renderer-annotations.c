/* kymo-timeline-renderer-annotations.c: annotation and log tracks: ranges, points and their text
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-renderer"

#include "config.h"

#include <math.h>

#include "kymo-timeline-renderer-private.h"

static KymoTime
annotation_max_len (KymoTimelineRenderer *self,
                    KymoTrack            *track)
{
  guint id = kymo_track_get_id (track);
  KymoTime *cached = g_hash_table_lookup (self->annotation_spans, GUINT_TO_POINTER (id));

  if (cached == NULL)
    {
      const KymoAnnotation *annotations;
      gsize n;

      cached = g_new0 (KymoTime, 1);
      annotations = kymo_track_get_annotations (track, &n);
      for (gsize i = 0; i < n; i++)
        *cached = MAX (*cached, annotations[i].end - annotations[i].start);
      g_hash_table_insert (self->annotation_spans, GUINT_TO_POINTER (id), cached);
    }
  return *cached;
}

void
_kymo_timeline_frame_draw_annotations (KymoTimelineFrame     *f,
                                       KymoTrack             *track,
                                       const KymoTimelineRow *row,
                                       float                  y)
{
  KymoTimelineRenderer *self = f->self;
  const KymoAnnotation *annotations;
  gsize n, lo, hi;
  double last_x = -G_MAXDOUBLE, text_end = -G_MAXDOUBLE;
  float top = y + KYMO_TIMELINE_ROW_PAD, h = row->height - 2 * KYMO_TIMELINE_ROW_PAD;
  KymoTime max_len;

  annotations = kymo_track_get_annotations (track, &n);
  if (n == 0)
    return;
  max_len = annotation_max_len (self, track);
  lo = kymo_track_lower_bound_annotation (track, f->t0 - MIN (max_len, f->t0 - G_MININT64 / 2));
  hi = kymo_track_lower_bound_annotation (track, f->t1 + 1);

  for (gsize i = lo; i < hi; i++)
    {
      const KymoAnnotation *a = &annotations[i];
      double x0 = time_to_x (f, a->start), x1 = time_to_x (f, a->end);
      const char *text = a->text && *a->text ? a->text : kymo_trace_get_name (self->trace, a->name);
      GdkRGBA colour = *_kymo_timeline_renderer_name_colour (self, a->name);

      if (x1 < 0)
        continue;
      /* Past the pixel budget, skip what lands on the column just drawn. */
      if (hi - lo > f->n_columns && floor (x0) == last_x && x1 - x0 < 1)
        continue;
      last_x = floor (x0);

      if (x1 - x0 >= 1)
        {
          double cx0 = MAX (x0, -1), cx1 = MIN (x1, f->viewport->width + 1);
          colour.alpha = 0.45f;
          gtk_snapshot_append_color (f->snapshot, &colour, &GRAPHENE_RECT_INIT (cx0, top, cx1 - cx0, h));
          gtk_snapshot_append_color (f->snapshot, &self->theme.dim, &GRAPHENE_RECT_INIT (floor (x0), top, 1, h));
          if (cx1 - cx0 > 20 && MAX (cx0, 0) + 3 > text_end)
            {
              gtk_snapshot_push_clip (f->snapshot, &GRAPHENE_RECT_INIT (cx0, top, cx1 - cx0, h));
              _kymo_timeline_frame_append_text (f, text, MAX (cx0, 0) + 3, top + (h - self->text_height) / 2,
                                                &self->theme.foreground);
              gtk_snapshot_pop (f->snapshot);
              text_end = MIN (cx1, MAX (cx0, 0) + 3 + _kymo_timeline_renderer_text_width (self, text));
            }
        }
      else
        {
          /* A label gets the room up to the next point, like a log line in
           * a terminal: dense log tracks stay readable instead of turning
           * into overprinted text on a solid band of ticks. */
          double next_x = i + 1 < hi ? time_to_x (f, annotations[i + 1].start) : G_MAXDOUBLE;
          double room = MIN (next_x, f->viewport->width + 1.0) - (x0 + 9) - 4;

          gtk_snapshot_append_color (f->snapshot, &self->theme.dim,
                                     &GRAPHENE_RECT_INIT (floor (x0), top, 1, h));
          gtk_snapshot_append_color (f->snapshot, &colour, &GRAPHENE_RECT_INIT (floor (x0) + 1, top, 6, 6));
          if (x0 + 3 > text_end && x0 < f->viewport->width && room >= 24)
            {
              double width = _kymo_timeline_renderer_text_width (self, text);

              gtk_snapshot_push_clip (f->snapshot, &GRAPHENE_RECT_INIT (x0 + 9, top, room, h));
              _kymo_timeline_frame_append_text (f, text, x0 + 9, top + (h - self->text_height) / 2,
                                                &self->theme.foreground);
              gtk_snapshot_pop (f->snapshot);
              text_end = x0 + 9 + MIN (width, room) + 4;
            }
        }
    }
}
