/* bench-render.c: time to build one timeline frame over 10 M spans
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <time.h>

#include "kymo-bench.h"
#include "kymo-session.h"
#include "kymo-timeline-export.h"
#include "kymo-timeline-layout.h"
#include "kymo-timeline-renderer.h"

#define N_TRACKS   16
#define N_DEPTHS   5
#define N_SPANS    10000000
#define PERIOD     8000      /* ns between top-level spans */
#define WIDTH      1600
#define HEIGHT     1000
#define RUNS       41

#define MS 1000000LL

static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint per_depth = N_SPANS / N_TRACKS / N_DEPTHS;
  guint32 names[64];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("function_%u", i);
      names[i] = kymo_trace_intern (trace, name);
    }
  for (guint t = 0; t < N_TRACKS; t++)
    {
      g_autofree char *name = g_strdup_printf ("thread %u", t);
      guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, name);
      KymoTrack *track = kymo_trace_get_track (trace, id);

      /* Nested calls: depth d sits inside depth d - 1, a little shorter. */
      for (guint k = 0; k < per_depth; k++)
        {
          KymoTime start = (KymoTime) k * PERIOD + (t * 37) % 1000;
          KymoTime end = start + PERIOD * 3 / 4 + (k * 7919) % (PERIOD / 5);
          for (guint d = 0; d < N_DEPTHS; d++)
            kymo_track_add_span (track, start + d * 300, end - d * 400,
                                 names[(k * 13 + d * 7 + t) % G_N_ELEMENTS (names)], d, 0, k);
        }
    }
  kymo_trace_seal (trace);
  return trace;
}

/* Median ms to build one frame (renderer → snapshot → node) for each window
 * that @next_window gives. */
typedef void (*NextWindow) (KymoSession *session,
                            guint        run);

static double
time_frames (KymoTimelineRenderer *renderer,
             KymoSession          *session,
             KymoTimelineLayout   *layout,
             NextWindow            next_window,
             guint64              *touched)
{
  KymoTimelineViewport viewport = { WIDTH, HEIGHT, 0 };
  double times[RUNS];

  for (guint r = 0; r < RUNS; r++)
    {
      GtkSnapshot *snapshot;
      GskRenderNode *node;
      gint64 t0;

      next_window (session, r);
      t0 = g_get_monotonic_time ();
      snapshot = gtk_snapshot_new ();
      kymo_timeline_renderer_snapshot (renderer, snapshot, session, layout, &viewport);
      node = gtk_snapshot_free_to_node (snapshot);
      times[r] = (g_get_monotonic_time () - t0) / 1e3;
      if (node)
        gsk_render_node_unref (node);
    }
  *touched = kymo_timeline_renderer_get_stats (renderer)->spans_touched;
  return kymo_bench_median (times, RUNS);
}

static void
window_full (KymoSession *session,
             guint        run)
{
  KymoTime start, end;

  kymo_session_get_full_range (session, &start, &end);
  kymo_session_set_visible_range (session, start, end);
}

static void
window_1ms (KymoSession *session,
            guint        run)
{
  kymo_session_set_visible_range (session, 500 * MS, 501 * MS);
}

static void
window_pan_1ms (KymoSession *session,
                guint        run)
{
  /* Ten pixels a frame, like a drag. */
  KymoTime start = 500 * MS + (KymoTime) run * (1 * MS / WIDTH) * 10;
  kymo_session_set_visible_range (session, start, start + 1 * MS);
}

static void
window_pan_100ms (KymoSession *session,
                  guint        run)
{
  KymoTime start = 300 * MS + (KymoTime) run * (100 * MS / WIDTH) * 10;
  kymo_session_set_visible_range (session, start, start + 100 * MS);
}

static void
window_pan_full (KymoSession *session,
                 guint        run)
{
  /* Zoomed out to 80 % and moving. */
  KymoTime start = (KymoTime) run * MS;
  kymo_session_set_visible_range (session, start, start + 800 * MS);
}

static double
thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One frame, timed once: the first after load pays for whatever the view
 * builds lazily, as a user meets it. Also its CPU time (@cpu_ms may be
 * NULL): on a shared machine a frame that lost the processor for a time
 * slice shows it in the wall time only. */
static double
time_one_frame (KymoTimelineRenderer *renderer,
                KymoSession          *session,
                KymoTimelineLayout   *layout,
                double               *cpu_ms)
{
  KymoTimelineViewport viewport = { WIDTH, HEIGHT, 0 };
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  double cpu0 = thread_cpu_ms ();
  gint64 t0 = g_get_monotonic_time ();

  snapshot = gtk_snapshot_new ();
  kymo_timeline_renderer_snapshot (renderer, snapshot, session, layout, &viewport);
  node = gtk_snapshot_free_to_node (snapshot);
  if (node)
    gsk_render_node_unref (node);
  if (cpu_ms != NULL)
    *cpu_ms = thread_cpu_ms () - cpu0;
  return (g_get_monotonic_time () - t0) / 1e3;
}

/* Baseline: reading the spans a naive renderer would walk for the window. */
static double
time_plain_pass (KymoTrace *trace,
                 KymoTime   t0,
                 KymoTime   t1,
                 guint64   *n_read)
{
  double times[RUNS];
  volatile KymoTime sink = 0;

  for (guint r = 0; r < RUNS; r++)
    {
      gint64 start = g_get_monotonic_time ();
      KymoTime sum = 0;
      guint64 n = 0;

      for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
        {
          KymoTrack *track = kymo_trace_get_track (trace, t);
          gsize n_spans;
          const KymoSpan *spans = kymo_track_get_spans (track, &n_spans);

          for (gsize i = 0; i < n_spans; i++)
            if (spans[i].end >= t0 && spans[i].start <= t1)
              {
                sum += spans[i].start;
                n++;
              }
        }
      sink += sum;
      *n_read = n;
      times[r] = (g_get_monotonic_time () - start) / 1e3;
    }
  (void) sink;
  return kymo_bench_median (times, RUNS);
}

static double
time_empty_snapshot (void)
{
  double times[RUNS];

  for (guint r = 0; r < RUNS; r++)
    {
      gint64 start = g_get_monotonic_time ();
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      GskRenderNode *node;

      gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 }, &GRAPHENE_RECT_INIT (0, 0, WIDTH, HEIGHT));
      node = gtk_snapshot_free_to_node (snapshot);
      times[r] = (g_get_monotonic_time () - start) / 1e3;
      gsk_render_node_unref (node);
    }
  return kymo_bench_median (times, RUNS);
}

/* Not part of the frame budget (the GPU renderer does this in the app), but
 * what kymo-cli render pays. */
static double
time_raster (KymoTimelineRenderer *renderer,
             KymoSession          *session,
             KymoTimelineLayout   *layout)
{
  KymoTimelineViewport viewport = { WIDTH, HEIGHT, 0 };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GskRenderNode *node;
  double times[9];

  kymo_timeline_renderer_snapshot (renderer, snapshot, session, layout, &viewport);
  node = gtk_snapshot_free_to_node (snapshot);
  for (guint r = 0; r < G_N_ELEMENTS (times); r++)
    {
      gint64 start = g_get_monotonic_time ();
      cairo_t *cr = cairo_create (surface);
      gsk_render_node_draw (node, cr);
      cairo_destroy (cr);
      times[r] = (g_get_monotonic_time () - start) / 1e3;
    }
  gsk_render_node_unref (node);
  cairo_surface_destroy (surface);
  return kymo_bench_median (times, G_N_ELEMENTS (times));
}

int
main (void)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoSession) session = NULL;
  g_autoptr(KymoTimelineLayout) layout = NULL;
  KymoTimelineRenderer *renderer;
  KymoTime full0, full1;
  guint64 touched, n_read;
  gint64 t0;
  double ms, base;

  t0 = g_get_monotonic_time ();
  trace = make_trace ();
  printf ("bench-render: %d spans over %d tracks built and sealed in %.1f s\n",
          N_SPANS, N_TRACKS, (g_get_monotonic_time () - t0) / 1e6);

  session = kymo_session_new (trace);
  layout = kymo_timeline_layout_new (session);
  renderer = kymo_timeline_export_renderer_new (trace, FALSE);
  kymo_session_get_full_range (session, &full0, &full1);

  /* As a user meets it: the first frame after load, then ten steps of
   * zooming in by half around the middle, each frame timed once. */
  kymo_session_set_visible_range (session, full0, full1);
  {
    double cpu;

    ms = time_one_frame (renderer, session, layout, &cpu);
    printf ("first frame after load, full zoom-out       %8.3f ms  (%.3f ms CPU; one frame; target ≤ 16 ms)\n",
            ms, cpu);
  }
  {
    KymoTime mid = full0 + (full1 - full0) / 2, half = (full1 - full0) / 2;
    double worst = 0, total = 0, worst_cpu = 0;
    GString *steps = g_string_new (NULL);

    for (guint step = 0; step < 10; step++)
      {
        double one, cpu;

        half = MAX (half / 2, 1);
        kymo_session_set_visible_range (session, mid - half, mid + half);
        one = time_one_frame (renderer, session, layout, &cpu);
        g_string_append_printf (steps, " %.1f (%.1f)", one, cpu);
        worst = MAX (worst, one);
        worst_cpu = MAX (worst_cpu, cpu);
        total += one;
      }
    printf ("10-step zoom-in after it                   %8.3f ms worst (%.3f ms CPU), %.3f ms in all\n",
            worst, worst_cpu, total);
    printf ("  each step, ms (CPU):%s\n", steps->str);
    g_string_free (steps, TRUE);
  }
  printf ("frame %d×%d, median of %d frames (renderer → snapshot → node); target ≤ 8 ms\n",
          WIDTH, HEIGHT, RUNS);

  base = time_empty_snapshot ();
  printf ("  baseline: empty snapshot                 %8.3f ms\n", base);

  ms = time_frames (renderer, session, layout, window_full, &touched);
  printf ("  full zoom-out                            %8.3f ms  (%" G_GUINT64_FORMAT " spans read)\n", ms, touched);
  base = time_plain_pass (trace, full0, full1, &n_read);
  printf ("    baseline: plain pass over visible spans %8.3f ms  (%" G_GUINT64_FORMAT " spans)\n", base, n_read);

  ms = time_frames (renderer, session, layout, window_1ms, &touched);
  printf ("  1 ms window                              %8.3f ms  (%" G_GUINT64_FORMAT " spans read)\n", ms, touched);
  base = time_plain_pass (trace, 500 * MS, 501 * MS, &n_read);
  printf ("    baseline: plain pass over visible spans %8.3f ms  (%" G_GUINT64_FORMAT " spans; a full scan to find them)\n", base, n_read);

  ms = time_frames (renderer, session, layout, window_pan_1ms, &touched);
  printf ("  panning, 1 ms window                     %8.3f ms\n", ms);
  ms = time_frames (renderer, session, layout, window_pan_100ms, &touched);
  printf ("  panning, 100 ms window                   %8.3f ms  (%" G_GUINT64_FORMAT " spans read)\n", ms, touched);
  ms = time_frames (renderer, session, layout, window_pan_full, &touched);
  printf ("  panning, 800 ms window                    %8.3f ms  (%" G_GUINT64_FORMAT " spans read)\n", ms, touched);

  window_full (session, 0);
  /* KYMO_BENCH_PNG=PREFIX writes PREFIX-full.png, -100ms.png and -1ms.png to look at. */
  if (g_getenv ("KYMO_BENCH_PNG"))
    {
      const char *prefix = g_getenv ("KYMO_BENCH_PNG");
      g_autofree char *full = g_strdup_printf ("%s-full.png", prefix);
      g_autofree char *wide = g_strdup_printf ("%s-100ms.png", prefix);
      g_autofree char *narrow = g_strdup_printf ("%s-1ms.png", prefix);

      kymo_timeline_export_to_file (session, WIDTH, HEIGHT, FALSE, full, NULL);
      window_pan_100ms (session, 0);
      kymo_timeline_export_to_file (session, WIDTH, HEIGHT, FALSE, wide, NULL);
      window_1ms (session, 0);
      kymo_timeline_export_to_file (session, WIDTH, HEIGHT, TRUE, narrow, NULL);
      window_full (session, 0);
    }
  printf ("  (rasterising the full view with cairo    %8.3f ms, not part of the frame)\n",
          time_raster (renderer, session, layout));

  kymo_timeline_renderer_free (renderer);
  return 0;
}
