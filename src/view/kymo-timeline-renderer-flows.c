/* kymo-timeline-renderer-flows.c: flow arrows between tracks
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-renderer"

#include "config.h"

#include <math.h>

#include "kymo-timeline-renderer-private.h"

/* More arrows than this on screen is a tangle, not information: the
 * level of detail drops them until the user zooms in. */
#define MAX_FLOWS      256

static int
compare_flows (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const KymoFlow *flows = user_data;
  const KymoFlow *fa = &flows[*(const guint32 *) a], *fb = &flows[*(const guint32 *) b];
  KymoTime ta = MIN (fa->from_ts, fa->to_ts), tb = MIN (fb->from_ts, fb->to_ts);

  return ta < tb ? -1 : ta > tb;
}

static void
index_flows (KymoTimelineRenderer *self)
{
  const KymoFlow *flows;
  gsize n;

  if (self->flows_indexed)
    return;
  self->flows_indexed = TRUE;
  flows = kymo_trace_get_flows (self->trace, &n);
  self->n_flows = n;
  self->flow_order = g_new (guint32, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      self->flow_order[i] = i;
      self->flow_max_len = MAX (self->flow_max_len, ABS (flows[i].to_ts - flows[i].from_ts));
    }
  g_qsort_with_data (self->flow_order, n, sizeof (guint32), compare_flows, (gpointer) flows);
}

static gboolean
flow_point (KymoTimelineFrame *f,
            guint              track,
            KymoTime           ts,
            double            *x,
            double            *y)
{
  int r = kymo_timeline_layout_find_track (f->layout, track);
  const KymoTimelineRow *row;

  if (r < 0)
    return FALSE;
  row = kymo_timeline_layout_get_row (f->layout, r);
  *x = time_to_x (f, ts);
  /* The top edge of the outermost spans, so arrows do not cross labels. */
  *y = f->top + row->y - f->viewport->scroll_y + row->lanes_y + 1;
  return TRUE;
}

void
_kymo_timeline_frame_draw_flows (KymoTimelineFrame *f)
{
  KymoTimelineRenderer *self = f->self;
  const KymoFlow *flows;
  gsize n, lo = 0, hi;
  cairo_t *cr = NULL;
  guint32 visible[MAX_FLOWS];
  guint n_visible = 0;
  KymoTime from;

  index_flows (self);
  if (self->n_flows == 0)
    return;
  flows = kymo_trace_get_flows (self->trace, &n);
  from = f->t0 - self->flow_max_len;
  hi = self->n_flows;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      const KymoFlow *flow = &flows[self->flow_order[mid]];
      if (MIN (flow->from_ts, flow->to_ts) < from)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (gsize i = lo; i < self->n_flows; i++)
    {
      const KymoFlow *flow = &flows[self->flow_order[i]];
      double x0, y0, x1, y1;

      if (MIN (flow->from_ts, flow->to_ts) > f->t1)
        break;
      if (MAX (flow->from_ts, flow->to_ts) < f->t0)
        continue;
      if (!flow_point (f, flow->from_track, flow->from_ts, &x0, &y0) ||
          !flow_point (f, flow->to_track, flow->to_ts, &x1, &y1))
        continue;
      if ((y0 < f->top && y1 < f->top) || (y0 > f->bottom && y1 > f->bottom))
        continue;
      if (n_visible == MAX_FLOWS)
        return;
      visible[n_visible++] = self->flow_order[i];
    }

  for (guint k = 0; k < n_visible; k++)
    {
      const KymoFlow *flow = &flows[visible[k]];
      double x0 = 0, y0 = 0, x1 = 0, y1 = 0, angle;
      GdkRGBA colour = self->theme.foreground;

      flow_point (f, flow->from_track, flow->from_ts, &x0, &y0);
      flow_point (f, flow->to_track, flow->to_ts, &x1, &y1);
      if (cr == NULL)
        {
          cr = gtk_snapshot_append_cairo (f->snapshot,
                                          &GRAPHENE_RECT_INIT (0, f->top, f->viewport->width, f->bottom - f->top));
          colour.alpha *= 0.7f;
          gdk_cairo_set_source_rgba (cr, &colour);
          cairo_set_line_width (cr, 1);
        }
      cairo_move_to (cr, x0, y0);
      if (fabs (y1 - y0) < 1)
        /* Within one track: arc over the row. */
        cairo_curve_to (cr, x0 + 10, y0 - 12, x1 - 10, y1 - 12, x1, y1);
      else
        cairo_curve_to (cr, x0 + 20, y0, x1 - 20, y1, x1, y1);
      cairo_stroke (cr);
      angle = atan2 (y1 - y0, x1 - x0 + 1e-9);
      angle = fabs (y1 - y0) < 1 ? G_PI / 2 - (x1 >= x0 ? 0.5 : -0.5) : (x1 >= x0 ? 0 : angle);
      cairo_move_to (cr, x1, y1);
      cairo_line_to (cr, x1 - 6 * cos (angle - 0.4), y1 - 6 * sin (angle - 0.4));
      cairo_line_to (cr, x1 - 6 * cos (angle + 0.4), y1 - 6 * sin (angle + 0.4));
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  if (cr)
    cairo_destroy (cr);
}
