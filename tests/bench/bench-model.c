/* bench-model.c: a 10 million-span model: build time, bytes per span, query time
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include "kymo.h"
#include "kymo-bench.h"

#define N_SPANS  10000000
#define N_TRACKS 16
#define N_QUERIES 200

/* Nested calls: each track alternates a depth-0 span holding up to three
 * nested levels, 1 µs apart, the way a function tracer's output looks. */
static void
fill_track (KymoTrack *track,
            guint      n,
            guint32    name_base)
{
  KymoTime t = 0;
  guint i = 0;

  while (i < n)
    {
      KymoTime start = t;
      guint children = MIN (3, n - i - 1);

      for (guint c = 0; c < children; c++)
        kymo_track_add_span (track, start + 100 + c * 300, start + 350 + c * 300,
                             name_base + 1 + c, 1 + (c % 2), 0, i + 1 + c);
      kymo_track_add_span (track, start, start + 1000, name_base, 0, 0, i);
      i += children + 1;
      t += 1100;
    }
}

/* The baseline: the same spans written into a plain array of 24-byte records. */
static double
baseline_fill (void)
{
  gint64 t0 = g_get_monotonic_time ();
  KymoSpan *spans = g_new (KymoSpan, N_SPANS);
  volatile KymoTime sink = 0;

  for (guint i = 0; i < N_SPANS; i++)
    {
      spans[i].start = (KymoTime) i * 1100;
      spans[i].end = spans[i].start + 1000;
      spans[i].name_flags = i & 7;
      spans[i].source = i;
    }
  sink = spans[N_SPANS / 2].end;
  (void) sink;
  g_free (spans);
  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (void)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));
  double build_times[3], baseline_times[3], query_us[N_QUERIES], scan_us[N_QUERIES];
  gsize heap_before, heap_after;
  KymoTime start, end;
  guint64 found = 0, scanned = 0;

  for (guint r = 0; r < 3; r++)
    baseline_times[r] = baseline_fill ();

  for (guint r = 0; r < 3; r++)
    {
      gint64 t0;

      g_clear_object (&trace);
      heap_before = kymo_bench_heap_bytes ();
      t0 = g_get_monotonic_time ();
      trace = kymo_trace_new ();
      for (guint k = 0; k < N_TRACKS; k++)
        {
          g_autofree char *name = g_strdup_printf ("Thread %u", k);
          guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, name);
          guint32 base = kymo_trace_intern (trace, "main");

          kymo_trace_intern (trace, "parse");
          kymo_trace_intern (trace, "layout");
          kymo_trace_intern (trace, "paint");
          fill_track (kymo_trace_get_track (trace, id), N_SPANS / N_TRACKS, base);
        }
      kymo_trace_seal (trace);
      build_times[r] = (g_get_monotonic_time () - t0) / 1e6;
      heap_after = kymo_bench_heap_bytes ();
    }

  kymo_trace_get_time_range (trace, &start, &end);
  for (guint q = 0; q < N_QUERIES; q++)
    {
      KymoTime w = (end - start) / 1000;
      KymoTime t0 = start + (KymoTime) ((end - start - w) * ((double) q / N_QUERIES));
      KymoTrack *track = kymo_trace_get_track (trace, q % N_TRACKS);
      gint64 c0 = g_get_monotonic_time ();
      gsize n, first;
      const KymoSpan *run;

      for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
        {
          g_array_set_size (hits, 0);
          found += kymo_track_query_spans (track, d, t0, t0 + w, hits);
        }
      query_us[q] = (double) (g_get_monotonic_time () - c0);

      /* Baseline: a brute-force scan of the same track for the same window. */
      c0 = g_get_monotonic_time ();
      for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
        {
          run = kymo_track_get_depth_spans (track, d, &n, &first);
          for (gsize i = 0; i < n; i++)
            scanned += run[i].start <= t0 + w && run[i].end >= t0;
        }
      scan_us[q] = (double) (g_get_monotonic_time () - c0);
    }
  g_assert_cmpuint (found, ==, scanned);

  {
    double build = kymo_bench_median (build_times, 3);
    double base = kymo_bench_median (baseline_times, 3);
    double query = kymo_bench_median (query_us, N_QUERIES);
    double scan = kymo_bench_median (scan_us, N_QUERIES);
    double per_span = (double) (heap_after - heap_before) / N_SPANS;

    printf ("model: %d spans over %d tracks\n", N_SPANS, N_TRACKS);
    printf ("  build + seal:     %.3f s   (baseline: filling a plain 24-byte array %.3f s; ratio %.1fx)\n",
            build, base, build / base);
    printf ("  memory:           %.2f bytes per span (heap growth, names and tracks included; target <= 32)\n",
            per_span);
    printf ("  query 1/1000:     %.1f us median, %" G_GUINT64_FORMAT " hits per query "
            "(baseline brute-force scan %.1f us; %.0fx faster)\n",
            query, found / N_QUERIES, scan, scan / MAX (query, 0.1));
  }
  return 0;
}
