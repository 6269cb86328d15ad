/* bench-flame.c: folding 10 million spans, and sampled stacks, into a call tree
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gstdio.h>

#include "kymo-analysis.h"
#include "kymo-bench.h"

#define N_SPANS    10000000
#define N_TRACKS   16
#define N_SAMPLES  2000000
#define N_STACKS   10000
#define N_FRAMES   500
#define N_WINDOWS  100
#define RUNS       3

/* Nested calls the way a function tracer's output looks: a depth-0 call
 * every 1.1 µs holding up to three nested levels. */
static void
fill_track (KymoTrace *trace,
            KymoTrack *track,
            guint      n)
{
  guint32 names[4] = {
    kymo_trace_intern (trace, "main"), kymo_trace_intern (trace, "parse"),
    kymo_trace_intern (trace, "layout"), kymo_trace_intern (trace, "paint"),
  };
  KymoTime t = 0;
  guint i = 0;

  while (i < n)
    {
      guint children = MIN (3, n - i - 1);

      kymo_track_add_span (track, t, t + 1000, names[0], 0, 0, i);
      for (guint c = 0; c < children; c++)
        kymo_track_add_span (track, t + 100 + c * 300, t + 350 + c * 300, names[1 + c], 1 + (c % 2), 0, i + 1 + c);
      i += children + 1;
      t += 1100;
    }
}

static KymoTrace *
build_spans (void)
{
  KymoTrace *trace = kymo_trace_new ();

  for (guint k = 0; k < N_TRACKS; k++)
    {
      g_autofree char *name = g_strdup_printf ("Thread %u", k);
      guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, name);

      fill_track (trace, kymo_trace_get_track (trace, id), N_SPANS / N_TRACKS);
    }
  kymo_trace_seal (trace);
  return trace;
}

/* Stacks 8 to 40 frames deep over a few hundred function names, shared by
 * many samples the way a CPU profile of a server is. */
static KymoTrace *
build_samples (void)
{
  KymoTrace *trace = kymo_trace_new ();
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autofree guint32 *ids = g_new (guint32, N_STACKS);
  guint32 names[N_FRAMES];
  guint32 cpu = kymo_trace_intern (trace, "cpu");

  for (guint k = 0; k < N_TRACKS; k++)
    {
      g_autofree char *name = g_strdup_printf ("worker-%u", k);

      kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, name);
    }
  for (guint f = 0; f < N_FRAMES; f++)
    {
      g_autofree char *name = g_strdup_printf ("crate_%u::module::function_%u", f % 40, f);

      names[f] = kymo_trace_intern (trace, name);
    }
  /* Each stack grows from a prefix of an earlier one, the way the stacks of
   * one program share their callers. */
  {
    g_autofree KymoFrame *all = g_new0 (KymoFrame, (gsize) N_STACKS * 40);
    g_autofree guint *depths = g_new0 (guint, N_STACKS);

    for (guint s = 0; s < N_STACKS; s++)
      {
        KymoFrame *frames = &all[(gsize) s * 40];
        guint keep = 0;

        if (s > 0)
          {
            guint from = g_rand_int_range (rand, 0, s);

            keep = MIN (depths[from], (guint) g_rand_int_range (rand, 4, 36));
            memcpy (frames, &all[(gsize) from * 40], keep * sizeof (KymoFrame));
          }
        depths[s] = MIN (40, keep + g_rand_int_range (rand, 1, 7));
        for (guint d = keep; d < depths[s]; d++)
          frames[d].name = names[g_rand_int_range (rand, 0, N_FRAMES)];
        ids[s] = kymo_stacks_add (stacks, frames, depths[s]);
      }
  }
  for (guint i = 0; i < N_SAMPLES; i++)
    kymo_stacks_add_sample (stacks, i % N_TRACKS, (KymoTime) i * 1000,
                            i % 97 == 0 ? KYMO_NO_STACK : ids[g_rand_int_range (rand, 0, N_STACKS)], cpu, i);
  kymo_trace_seal (trace);
  return trace;
}

static double
seconds_since (gint64 t0)
{
  return (g_get_monotonic_time () - t0) / 1e6;
}

static double
fold_seconds (KymoTrace          *trace,
              KymoCallTreeSource  source,
              KymoTime            from,
              KymoTime            to,
              guint64            *weight)
{
  gint64 t0 = g_get_monotonic_time ();
  g_autoptr(KymoCallTree) tree = kymo_call_tree_build (trace, source, from, to, NULL, 0, NULL, NULL);
  double s = seconds_since (t0);

  *weight = kymo_call_tree_get_nodes (tree, NULL)[0].total;
  return s;
}

/* cksum over the 24-byte records the spans are: the cost of touching them once. */
static double
cksum_of_records (gsize n_bytes)
{
  g_autofree char *dir = kymo_bench_scratch_dir ();
  g_autofree char *path = g_build_filename (dir, "records.bin", NULL);
  g_autofree guint8 *buffer = g_malloc0 (1 << 20);
  const char *paths[] = { path };
  FILE *out = fopen (path, "wb");
  double s;

  g_assert (out != NULL);
  for (gsize done = 0; done < n_bytes; done += 1 << 20)
    fwrite (buffer, 1, MIN ((gsize) 1 << 20, n_bytes - done), out);
  fclose (out);
  s = kymo_bench_cksum_seconds (paths, 1, RUNS);
  g_unlink (path);
  g_rmdir (dir);
  return s;
}

int
main (int   argc,
      char *argv[])
{
  double load[RUNS], fold[RUNS], window[N_WINDOWS], sload[RUNS], sfold[RUNS];
  double cksum_s, load_s, fold_s, window_s, sload_s, sfold_s;
  g_autoptr(KymoTrace) trace = NULL;
  guint64 weight = 0, window_weight = 0, samples = 0;
  KymoTime start, end;

  cksum_s = cksum_of_records ((gsize) N_SPANS * sizeof (KymoSpan));

  /* A fresh process: the first fold pays for the first touch, as a user's does. */
  for (guint r = 0; r < RUNS; r++)
    {
      gint64 t0 = g_get_monotonic_time ();

      g_clear_object (&trace);
      trace = build_spans ();
      load[r] = seconds_since (t0);
      fold[r] = fold_seconds (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE, &weight);
    }
  kymo_trace_get_time_range (trace, &start, &end);
  for (guint q = 0; q < N_WINDOWS; q++)
    {
      KymoTime w = (end - start) / 1000;
      KymoTime from = start + (KymoTime) ((end - start - w) * ((double) q / N_WINDOWS));

      window[q] = fold_seconds (trace, KYMO_CALL_TREE_SPANS, from, from + w, &window_weight);
    }
  g_clear_object (&trace);

  /* "bench-flame spans" leaves the samples out (for profiling) */
  for (guint r = 0; r < RUNS && !(argc > 1 && g_str_equal (argv[1], "spans")); r++)
    {
      gint64 t0 = g_get_monotonic_time ();

      trace = build_samples ();
      sload[r] = seconds_since (t0);
      sfold[r] = fold_seconds (trace, KYMO_CALL_TREE_SAMPLES, KYMO_TIME_NONE, KYMO_TIME_NONE, &samples);
      g_clear_object (&trace);
    }

  cksum_s = MAX (cksum_s, 1e-6);
  load_s = kymo_bench_median (load, RUNS);
  fold_s = kymo_bench_median (fold, RUNS);
  window_s = kymo_bench_median (window, N_WINDOWS);
  sload_s = argc > 1 ? 1 : kymo_bench_median (sload, RUNS);
  sfold_s = argc > 1 ? 0 : kymo_bench_median (sfold, RUNS);

  printf ("flame: %d spans over %d tracks (%.0f MB of span records)\n", N_SPANS, N_TRACKS,
          N_SPANS * sizeof (KymoSpan) / 1e6);
  printf ("  cksum of the records:   %.3f s\n", cksum_s);
  printf ("  build + seal (load):    %.3f s = %.1f× cksum\n", load_s, load_s / cksum_s);
  printf ("  fold all spans:         %.3f s = %.1f× cksum = %.2f× load; %.0f ms beyond load "
          "(target ≤ 300 ms, aim 100 ms)\n",
          fold_s, fold_s / cksum_s, fold_s / load_s, fold_s * 1e3);
  printf ("  fold 1/1000 of it:      %.3f ms median = %.5f× the full fold (root %" G_GUINT64_FORMAT " ns of %"
          G_GUINT64_FORMAT ")\n", window_s * 1e3, window_s / fold_s, window_weight, weight);
  if (argc > 1)
    return 0;
  printf ("samples: %d samples, %d stacks up to 40 deep sharing prefixes, 1 in 97 without a stack\n", N_SAMPLES, N_STACKS);
  printf ("  build + seal (load):    %.3f s\n", sload_s);
  printf ("  fold all samples:       %.3f s = %.1f %% of load (target ≤ 10 %%), %" G_GUINT64_FORMAT " folded\n",
          sfold_s, 100 * sfold_s / sload_s, samples);
  return 0;
}
