/* kymo-timeline-lanes.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "kymo-timeline-lanes.h"
#include "kymo-timeline-heat.h"

#define TICK_HEIGHT  7

static void
mix (const GdkRGBA *a,
     const GdkRGBA *b,
     double         t,
     GdkRGBA       *out)
{
  out->red = (float) (a->red + (b->red - a->red) * t);
  out->green = (float) (a->green + (b->green - a->green) * t);
  out->blue = (float) (a->blue + (b->blue - a->blue) * t);
  out->alpha = 1;
}

void
kymo_timeline_cpu_init (KymoTimelineCpu *cpu,
                        gboolean         dark,
                        const GdkRGBA   *foreground,
                        const GdkRGBA   *accent)
{
  /* One hue, pale to deep, apart from the teal-to-red poll scale: a band
   * that reads "how busy" without competing with "how long". */
  GdkRGBA idle = dark ? (GdkRGBA) { 0.20f, 0.20f, 0.26f, 1 } : (GdkRGBA) { 0.92f, 0.91f, 0.97f, 1 };
  GdkRGBA busy = dark ? (GdkRGBA) { 0.70f, 0.56f, 1.00f, 1 } : (GdkRGBA) { 0.33f, 0.16f, 0.62f, 1 };

  for (guint i = 0; i < KYMO_CPU_STEPS; i++)
    mix (&idle, &busy, i / (double) (KYMO_CPU_STEPS - 1), &cpu->steps[i]);
  cpu->tick = *foreground;
  cpu->tick.alpha = 0.85f;
  cpu->wake = *accent;
}

const GdkRGBA *
kymo_timeline_cpu_colour (const KymoTimelineCpu *cpu,
                          double                 share)
{
  int step = (int) floor (CLAMP (share, 0, 1) * (KYMO_CPU_STEPS - 1) + 0.5);

  return &cpu->steps[step];
}

gboolean
kymo_timeline_cpu_band_applies (KymoTrace *trace,
                                KymoTrack *track)
{
  /* "park" is interned only by the "cpu" records of dial9 parks. */
  return kymo_track_get_kind (track) == KYMO_TRACK_THREAD && kymo_track_get_n_depths (track) > 0 &&
         kymo_timeline_heat_applies (trace) && kymo_trace_lookup_name (trace, "park") != G_MAXUINT32;
}

/* The first of the @n records of @size bytes at @base, from @lo on, whose
 * time (a KymoTime @offset bytes in) is at or after @ts; times ascend. */
static gsize
lower_bound (gconstpointer base,
             gsize         size,
             gsize         offset,
             gsize         lo,
             gsize         n,
             KymoTime      ts)
{
  gsize hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      KymoTime t;

      memcpy (&t, (const guint8 *) base + mid * size + offset, sizeof t);
      if (t < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

#define PERIODS_FROM(p, lo, n, field, ts) \
  lower_bound ((p), sizeof (KymoCpuPeriod), G_STRUCT_OFFSET (KymoCpuPeriod, field), (lo), (n), (ts))

void
kymo_timeline_cpu_draw_band (const KymoTimelineCpu *cpu,
                             KymoDial9Lanes        *lanes,
                             GtkSnapshot           *snapshot,
                             guint                  track,
                             KymoTime               t0,
                             KymoTime               t1,
                             double                 px_per_ns,
                             float                  y,
                             float                  h)
{
  const KymoCpuPeriod *p;
  gsize n;
  double covered = -G_MAXDOUBLE;

  if (lanes == NULL)
    return;
  p = kymo_dial9_lanes_get_periods (lanes, track, &n);
  /* Periods of a worker do not overlap: from the first ending in the window. */
  for (gsize i = PERIODS_FROM (p, 0, n, end, t0); i < n && p[i].start <= t1;)
    {
      double x0 = (p[i].start - t0) * px_per_ns, x1 = (p[i].end - t0) * px_per_ns;
      gsize j = i + 1;
      KymoTime cpu_ns, wall;

      /* Zoomed out, the periods starting in the column where this one ends
       * are drawn with it, shaded by their pooled share: found by binary
       * search and summed in O(1), so a frame costs its width, not the
       * number of periods. */
      for (;;)
        {
          KymoTime column_end = t0 + (KymoTime) ceil ((floor (x1) + 1) / px_per_ns);
          gsize k = PERIODS_FROM (p, j, n, start, MIN (column_end, t1 + 1));

          if (k == j)
            break;
          j = k;
          x1 = (p[j - 1].end - t0) * px_per_ns;
        }
      kymo_dial9_lanes_sum_periods (lanes, track, i, j, &cpu_ns, &wall);
      x0 = MAX (MAX (x0, covered), -2);
      if (x1 - x0 < 1)
        x1 = x0 + 1;
      covered = x1;
      gtk_snapshot_append_color (snapshot,
                                 kymo_timeline_cpu_colour (cpu, wall > 0 ? (double) cpu_ns / wall : 0),
                                 &GRAPHENE_RECT_INIT (x0, y, x1 - x0, h));
      i = j;
    }
}

void
kymo_timeline_cpu_draw_ticks (const KymoTimelineCpu *cpu,
                              KymoDial9Lanes        *lanes,
                              GtkSnapshot           *snapshot,
                              guint                  track,
                              KymoTime               t0,
                              KymoTime               t1,
                              double                 px_per_ns,
                              float                  y)
{
  const KymoTime *ts;
  gsize n;
  double last = -G_MAXDOUBLE;


  if (lanes == NULL)
    return;
  ts = kymo_dial9_lanes_get_cpu_samples (lanes, track, &n);
  for (gsize i = lower_bound (ts, sizeof *ts, 0, 0, n, t0); i < n && ts[i] <= t1; i++)
    {
      double x = floor ((ts[i] - t0) * px_per_ns);

      if (x == last)
        {
          /* The rest of this column: skip it by binary search, so dense
           * samples cost the window's width. */
          KymoTime next = t0 + (KymoTime) ceil ((x + 1) / px_per_ns);

          i = MAX (lower_bound (ts, sizeof *ts, 0, i, n, next), i + 1) - 1;
          continue;
        }
      last = x;
      /* A nail driven into the poll: the head shows over any colour. */
      gtk_snapshot_append_color (snapshot, &cpu->tick, &GRAPHENE_RECT_INIT (x - 1, y + 1, 3, 2));
      gtk_snapshot_append_color (snapshot, &cpu->tick, &GRAPHENE_RECT_INIT (x, y + 3, 1, TICK_HEIGHT - 2));
    }
}

static int
compare_wakes (gconstpointer a,
               gconstpointer b)
{
  const KymoWakeMark *x = a, *y = b;

  return x->ts < y->ts ? -1 : x->ts > y->ts;
}

void
kymo_timeline_wakes_set (KymoTimelineWakes  *wakes,
                         const KymoWakeMark *marks,
                         gsize               n_marks)
{
  g_clear_pointer (&wakes->marks, g_free);
  wakes->n_marks = n_marks;
  wakes->reach = 0;
  if (n_marks == 0)
    return;
  wakes->marks = g_memdup2 (marks, n_marks * sizeof *marks);
  qsort (wakes->marks, n_marks, sizeof *marks, compare_wakes);
  for (gsize i = 0; i < n_marks; i++)
    if (marks[i].poll_start != KYMO_TIME_NONE)
      wakes->reach = MAX (wakes->reach, marks[i].poll_start - marks[i].ts);
}

void
kymo_timeline_cpu_draw_wakes (const KymoTimelineCpu   *cpu,
                              const KymoTimelineWakes *wakes,
                              GtkSnapshot             *snapshot,
                              guint                    track,
                              KymoTime                 t0,
                              KymoTime                 t1,
                              double                   px_per_ns,
                              int                      width,
                              float                    y,
                              float                    h)
{
  const KymoWakeMark *marks = wakes->marks;
  gsize n_marks = wakes->n_marks;
  cairo_t *cr = NULL;
  /* A marker per column and side: a task woken a million times costs the
   * width of the window, not a million triangles. */
  double last_woken = -G_MAXDOUBLE, last_waker = -G_MAXDOUBLE;

  for (gsize i = lower_bound (marks, sizeof *marks, G_STRUCT_OFFSET (KymoWakeMark, ts), 0, n_marks,
                              t0 - wakes->reach);
       i < n_marks && marks[i].ts <= t1; i++)
    {
      const KymoWakeMark *m = &marks[i];
      double x = floor ((m->ts - t0) * px_per_ns) + 0.5;

      if (m->track != track && m->waker_track != track)
        continue;
      if (cr == NULL)
        {
          cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (-8, y - 1, width + 16, h + 2));
          gdk_cairo_set_source_rgba (cr, &cpu->wake);
          cairo_set_line_width (cr, 1);
        }
      if (m->track == track && x != last_woken)
        {
          last_woken = x;
          /* Woken here: a triangle pointing down at the wake, and the wait
           * until the poll it led to. */
          if (m->poll_start != KYMO_TIME_NONE && (m->poll_start - m->ts) * px_per_ns >= 2)
            {
              double px = floor ((MIN (m->poll_start, t1 + 1) - t0) * px_per_ns) + 0.5;

              cairo_move_to (cr, x, y + 2.5);
              cairo_line_to (cr, px, y + 2.5);
              cairo_move_to (cr, px, y + 1);
              cairo_line_to (cr, px, y + h / 2);
              cairo_stroke (cr);
            }
          cairo_move_to (cr, x - 4, y);
          cairo_line_to (cr, x + 4, y);
          cairo_line_to (cr, x, y + 7);
          cairo_close_path (cr);
          cairo_fill (cr);
        }
      if (m->waker_track == track && m->waker_track != m->track && x != last_waker)
        {
          last_waker = x;
          /* The waker's side: a triangle pointing up from the bottom. */
          cairo_move_to (cr, x - 4, y + h);
          cairo_line_to (cr, x + 4, y + h);
          cairo_line_to (cr, x, y + h - 7);
          cairo_close_path (cr);
          cairo_fill (cr);
        }
    }
  if (cr != NULL)
    cairo_destroy (cr);
}

float
kymo_timeline_cpu_append_legend (const KymoTimelineCpu *cpu,
                                 GtkSnapshot           *snapshot,
                                 PangoLayout           *layout,
                                 const GdkRGBA         *foreground,
                                 const GdkRGBA         *background,
                                 float                  right,
                                 float                  bottom)
{
  static const char * const ticks[] = { "0 %", "50 %", "100 %" };

  return kymo_timeline_append_scale (snapshot, layout, _("On CPU while active"), cpu->steps, KYMO_CPU_STEPS,
                                     ticks, G_N_ELEMENTS (ticks), foreground, background, right, bottom);
}
