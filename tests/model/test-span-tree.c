/* test-span-tree.c: the interval tree against a brute-force scan
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo.h"

/* Random nested and overlapping spans over several depths. */
static KymoTrace *
random_trace (guint n_spans,
              guint max_depth,
              gboolean overlapping)
{
  KymoTrace *trace = kymo_trace_new ();
  guint track = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *t = kymo_trace_get_track (trace, track);
  guint32 names[8];

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);
      names[i] = kymo_trace_intern (trace, name);
    }

  for (guint i = 0; i < n_spans; i++)
    {
      guint depth = g_test_rand_int_range (0, max_depth);
      KymoTime start = g_test_rand_int_range (0, 1000000000);
      KymoTime len;

      /* Mostly short, a few very long: the tree must still find them. */
      if (g_test_rand_int_range (0, 1000) == 0)
        len = g_test_rand_int_range (0, 500000000);
      else if (overlapping)
        len = g_test_rand_int_range (0, 200000);
      else
        len = g_test_rand_int_range (0, 2000);
      kymo_track_add_span (t, start, start + len, names[i % 8], depth, 0, i);
    }
  kymo_trace_seal (trace);
  return trace;
}

static void
check_queries (KymoTrace *trace,
               guint      n_queries)
{
  KymoTrack *t = kymo_trace_get_track (trace, 0);
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize n;
  const KymoSpan *spans = kymo_track_get_spans (t, &n);

  for (guint q = 0; q < n_queries; q++)
    {
      KymoTime t0 = g_test_rand_int_range (-1000, 1000001000);
      KymoTime t1 = t0 + (q % 3 == 0 ? 0 : g_test_rand_int_range (0, q % 7 == 0 ? 100000000 : 100000));
      guint depth = g_test_rand_int_range (0, kymo_track_get_n_depths (t) + 1);
      gsize first, count, expected = 0;
      const KymoSpan *run = kymo_track_get_depth_spans (t, depth, &count, &first);

      g_array_set_size (hits, 0);
      kymo_track_query_spans (t, depth, t0, t1, hits);

      for (gsize i = 0; i < count; i++)
        if (run[i].start <= t1 && run[i].end >= t0)
          expected++;
      g_assert_cmpuint (hits->len, ==, expected);

      for (guint h = 0; h < hits->len; h++)
        {
          guint32 idx = g_array_index (hits, guint32, h);
          g_assert_cmpuint (idx, >=, first);
          g_assert_cmpuint (idx, <, first + count);
          g_assert_cmpint (spans[idx].start, <=, t1);
          g_assert_cmpint (spans[idx].end, >=, t0);
          /* in start order, each once */
          if (h > 0)
            g_assert_cmpuint (idx, >, g_array_index (hits, guint32, h - 1));
        }
    }
}

static void
test_query_brute_force_million (void)
{
  g_autoptr(KymoTrace) trace = random_trace (1000000, 6, TRUE);
  check_queries (trace, g_test_slow () ? 2000 : 300);
}

static void
test_query_small_sizes (void)
{
  /* Every size around the leaf size and powers of two. */
  for (guint n = 0; n < 300; n += (n < 70 ? 1 : 37))
    {
      g_autoptr(KymoTrace) trace = random_trace (n, 2, n % 2);
      check_queries (trace, 50);
    }
}

static void
test_lod_longest (void)
{
  g_autoptr(KymoTrace) trace = random_trace (200000, 3, FALSE);
  KymoTrack *t = kymo_trace_get_track (trace, 0);
  guint buckets = 97;
  g_autofree guint32 *longest = g_new (guint32, buckets);
  g_autofree guint32 *counts = g_new (guint32, buckets);
  gsize n;
  const KymoSpan *spans = kymo_track_get_spans (t, &n);

  for (guint round = 0; round < 20; round++)
    {
      KymoTime t0 = g_test_rand_int_range (0, 900000000);
      KymoTime t1 = t0 + g_test_rand_int_range (1000, 100000000);
      guint depth = round % 3;
      gsize first, count;
      const KymoSpan *run = kymo_track_get_depth_spans (t, depth, &count, &first);
      double width = (double) (t1 - t0) / buckets;

      kymo_track_query_lod (t, depth, t0, t1, buckets, longest, counts);

      for (guint b = 0; b < buckets; b++)
        {
          KymoTime bs = b == 0 ? t0 : t0 + (KymoTime) (width * b);
          KymoTime be = b + 1 == buckets ? t1 : t0 + (KymoTime) (width * (b + 1));
          guint32 expected_count = 0;
          KymoTime best_len = -1;

          for (gsize i = 0; i < count; i++)
            if (run[i].start >= bs && run[i].start < be)
              {
                expected_count++;
                best_len = MAX (best_len, run[i].end - run[i].start);
              }
          g_assert_cmpuint (counts[b], ==, expected_count);
          if (expected_count == 0)
            g_assert_cmpuint (longest[b], ==, G_MAXUINT32);
          else
            g_assert_cmpint (spans[longest[b]].end - spans[longest[b]].start, ==, best_len);
        }
    }
}

static void
test_depth_runs_sorted (void)
{
  g_autoptr(KymoTrace) trace = random_trace (50000, 5, TRUE);
  KymoTrack *t = kymo_trace_get_track (trace, 0);
  gsize total = 0;

  for (guint d = 0; d < kymo_track_get_n_depths (t); d++)
    {
      gsize first, count;
      const KymoSpan *run = kymo_track_get_depth_spans (t, d, &count, &first);

      g_assert_cmpuint (first, ==, total);
      for (gsize i = 1; i < count; i++)
        g_assert_cmpint (run[i - 1].start, <=, run[i].start);
      for (gsize i = 0; i < count; i++)
        g_assert_cmpuint (kymo_track_get_span_depth (t, first + i), ==, d);
      total += count;
    }
  g_assert_cmpuint (total, ==, 50000);
}

static void
test_find_span_at (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoTrack *t = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t"));
  gsize n;
  const KymoSpan *spans;
  guint32 idx;

  kymo_track_add_span (t, 100, 200, kymo_trace_intern (trace, "inner"), 1, 0, 7);
  kymo_track_add_span (t, 0, 1000, kymo_trace_intern (trace, "outer"), 0, KYMO_EVENT_INCOMPLETE, 3);
  kymo_trace_seal (trace);
  spans = kymo_track_get_spans (t, &n);

  g_assert_cmpuint (n, ==, 2);
  idx = kymo_track_find_span_at (t, 1, 150);
  g_assert_cmpuint (idx, !=, G_MAXUINT32);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[idx])), ==, "inner");
  g_assert_cmpuint (spans[idx].source, ==, 7);
  g_assert_cmpuint (kymo_track_find_span_at (t, 1, 250), ==, G_MAXUINT32);
  idx = kymo_track_find_span_at (t, 0, 999);
  g_assert_cmpuint (kymo_span_flags (&spans[idx]), ==, KYMO_EVENT_INCOMPLETE);
}

/* The window [t0, t1] of a depth run is [lower_bound (t0, FALSE),
 * lower_bound (t1, TRUE)): spans starting exactly on either edge are in it,
 * however many share that start. */
static void
test_spans_lower_bound (void)
{
  static const KymoTime starts[] = { 10, 20, 20, 20, 30, 40 };
  KymoSpan spans[G_N_ELEMENTS (starts)] = { 0 };
  gsize n = G_N_ELEMENTS (starts);

  for (gsize i = 0; i < n; i++)
    {
      spans[i].start = starts[i];
      spans[i].end = starts[i] + 5;
    }
  g_assert_cmpuint (kymo_spans_lower_bound (spans, 0, 20, FALSE), ==, 0);
  g_assert_cmpuint (kymo_spans_lower_bound (spans, n, 5, FALSE), ==, 0);
  g_assert_cmpuint (kymo_spans_lower_bound (spans, n, 20, FALSE), ==, 1);
  g_assert_cmpuint (kymo_spans_lower_bound (spans, n, 20, TRUE), ==, 4);
  g_assert_cmpuint (kymo_spans_lower_bound (spans, n, 25, FALSE), ==, 4);
  g_assert_cmpuint (kymo_spans_lower_bound (spans, n, 25, TRUE), ==, 4);
  g_assert_cmpuint (kymo_spans_lower_bound (spans, n, 40, TRUE), ==, n);
  g_assert_cmpuint (kymo_spans_lower_bound (spans, n, G_MAXINT64, FALSE), ==, n);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/span-tree/query-brute-force-million", test_query_brute_force_million);
  g_test_add_func ("/span-tree/query-small-sizes", test_query_small_sizes);
  g_test_add_func ("/span-tree/lod-longest", test_lod_longest);
  g_test_add_func ("/span-tree/depth-runs-sorted", test_depth_runs_sorted);
  g_test_add_func ("/span-tree/find-span-at", test_find_span_at);
  g_test_add_func ("/span-tree/spans-lower-bound", test_spans_lower_bound);
  return g_test_run ();
}
