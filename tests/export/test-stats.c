/* test-stats.c: per-name span statistics against a brute-force computation
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"

typedef struct {
  guint    track;
  guint    depth;
  gint64   start;
  gint64   end;
  guint32  name;
} Ref;

static int
compare_i64 (gconstpointer a,
             gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* Fills [lo, hi] with up to three disjoint children, recursively. */
static void
generate (KymoTrace *trace,
          guint      track_id,
          GArray    *refs,
          gint64     lo,
          gint64     hi,
          guint      depth,
          guint32   *names,
          guint      n_names)
{
  guint n_children = depth >= 5 ? 0 : (guint) g_test_rand_int_range (0, 4);
  gint64 points[6];

  for (guint i = 0; i < 2 * n_children; i++)
    points[i] = g_test_rand_int_range (lo, hi + 1);
  qsort (points, 2 * n_children, sizeof (gint64), compare_i64);

  for (guint i = 0; i < n_children; i++)
    {
      Ref ref = { track_id, depth, points[2 * i], points[2 * i + 1],
                  names[g_test_rand_int_range (0, n_names)] };

      g_array_append_val (refs, ref);
      kymo_track_add_span (kymo_trace_get_track (trace, track_id), ref.start, ref.end, ref.name,
                           depth, 0, refs->len - 1);
      generate (trace, track_id, refs, ref.start, ref.end, depth + 1, names, n_names);
    }
}

static KymoTrace *
random_trace (GArray *refs)
{
  KymoTrace *trace = kymo_trace_new ();
  guint32 names[6];

  names[0] = kymo_trace_intern (trace, "alpha");
  names[1] = kymo_trace_intern (trace, "beta");
  names[2] = kymo_trace_intern (trace, "gamma");
  names[3] = kymo_trace_intern (trace, "delta, with comma");
  names[4] = kymo_trace_intern (trace, "");
  names[5] = kymo_trace_intern (trace, "zeta");

  for (guint t = 0; t < 3; t++)
    {
      guint track_id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "thread");

      /* roots: disjoint, like one thread's top-level calls */
      for (guint r = 0; r < 30; r++)
        {
          gint64 lo = r * 100000 + g_test_rand_int_range (0, 20000);
          gint64 hi = lo + g_test_rand_int_range (0, 80000);
          Ref ref = { track_id, 0, lo, hi, names[g_test_rand_int_range (0, 6)] };

          g_array_append_val (refs, ref);
          kymo_track_add_span (kymo_trace_get_track (trace, track_id), lo, hi, ref.name, 0, 0, refs->len - 1);
          generate (trace, track_id, refs, lo, hi, 1, names, 6);
        }
    }
  /* a counter and an instant track hold no spans and must not matter */
  kymo_track_add_sample (kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK,
                                                                            KYMO_TRACK_COUNTER, "c")), 5, 1.0);
  kymo_trace_seal (trace);
  return trace;
}

/* The definition, spelt out as plainly as possible. */
static void
brute_force (GArray   *refs,
             guint32   name,
             gint64    from,
             gint64    to,
             KymoNameStats *out)
{
  g_autoptr(GArray) durations = g_array_new (FALSE, FALSE, sizeof (gint64));
  gint64 total = 0, self = 0;
  guint n;

  memset (out, 0, sizeof *out);
  for (guint i = 0; i < refs->len; i++)
    {
      const Ref *p = &g_array_index (refs, Ref, i);
      gint64 covered = 0, d;

      if (p->name != name || p->start < from || p->start > to)
        continue;
      d = p->end - p->start;
      g_array_append_val (durations, d);
      total += d;
      for (guint j = 0; j < refs->len; j++)
        {
          const Ref *c = &g_array_index (refs, Ref, j);

          if (c->track == p->track && c->depth == p->depth + 1 && c->start >= p->start && c->end <= p->end)
            covered += c->end - c->start;
        }
      self += d - covered;
    }
  n = durations->len;
  out->count = n;
  if (n == 0)
    return;
  g_array_sort (durations, compare_i64);
  out->total = total;
  out->self = self;
  out->min = g_array_index (durations, gint64, 0);
  out->max = g_array_index (durations, gint64, n - 1);
  out->mean = (gint64) ((double) total / n + 0.5);
  /* smallest value with at least p % of the values at or below it */
  for (guint k = 0; k < 3; k++)
    {
      static const guint ps[] = { 50, 90, 99 };
      gint64 *slot = k == 0 ? &out->p50 : k == 1 ? &out->p90 : &out->p99;

      for (guint i = 0; i < n; i++)
        if ((guint64) (i + 1) * 100 >= (guint64) ps[k] * n)
          {
            *slot = g_array_index (durations, gint64, i);
            break;
          }
    }
}

static void
check_against_brute_force (KymoTrace *trace,
                           GArray    *refs,
                           gint64     from,
                           gint64     to)
{
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  gint64 bf_from = from == KYMO_TIME_NONE ? G_MININT64 : from;
  gint64 bf_to = to == KYMO_TIME_NONE ? G_MAXINT64 : to;
  guint n_expected = 0;

  rows = kymo_stats_compute (trace, from, to, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (rows);

  for (guint32 name = 0; name < kymo_trace_get_n_names (trace); name++)
    {
      KymoNameStats want;
      const KymoNameStats *got = NULL;

      brute_force (refs, name, bf_from, bf_to, &want);
      for (guint i = 0; i < rows->len; i++)
        if (g_array_index (rows, KymoNameStats, i).name_id == name)
          got = &g_array_index (rows, KymoNameStats, i);
      if (want.count == 0)
        {
          g_assert_null (got);
          continue;
        }
      n_expected++;
      g_assert_nonnull (got);
      g_assert_cmpstr (got->name, ==, kymo_trace_get_name (trace, name));
      g_assert_cmpuint (got->count, ==, want.count);
      g_assert_cmpint (got->total, ==, want.total);
      g_assert_cmpint (got->self, ==, want.self);
      g_assert_cmpint (got->min, ==, want.min);
      g_assert_cmpint (got->max, ==, want.max);
      g_assert_cmpint (got->mean, ==, want.mean);
      g_assert_cmpint (got->p50, ==, want.p50);
      g_assert_cmpint (got->p90, ==, want.p90);
      g_assert_cmpint (got->p99, ==, want.p99);
    }
  g_assert_cmpuint (rows->len, ==, n_expected);

  for (guint i = 1; i < rows->len; i++)
    g_assert_cmpint (g_array_index (rows, KymoNameStats, i - 1).total, >=,
                     g_array_index (rows, KymoNameStats, i).total);
}

static void
test_stats_random (void)
{
  for (guint round = 0; round < 10; round++)
    {
      g_autoptr(GArray) refs = g_array_new (FALSE, FALSE, sizeof (Ref));
      g_autoptr(KymoTrace) trace = random_trace (refs);

      check_against_brute_force (trace, refs, KYMO_TIME_NONE, KYMO_TIME_NONE);
      for (guint w = 0; w < 5; w++)
        {
          gint64 a = g_test_rand_int_range (-1000, 3100000);
          gint64 b = g_test_rand_int_range (-1000, 3100000);

          check_against_brute_force (trace, refs, MIN (a, b), MAX (a, b));
        }
      check_against_brute_force (trace, refs, 1500000, KYMO_TIME_NONE);
      check_against_brute_force (trace, refs, KYMO_TIME_NONE, 1500000);
    }
}

/* Spans whose start lies in [from, to] count, whole; both ends inclusive. */
static void
test_stats_window (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GArray) rows = NULL;
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  guint32 a = kymo_trace_intern (trace, "a");
  const KymoNameStats *row;

  kymo_track_add_span (track, 0, 100, a, 0, 0, 0);
  kymo_track_add_span (track, 100, 400, a, 0, 0, 0);
  kymo_track_add_span (track, 400, 1000, a, 0, 0, 0);
  kymo_trace_seal (trace);

  rows = kymo_stats_compute (trace, 100, 400, NULL, NULL);
  g_assert_cmpuint (rows->len, ==, 1);
  row = &g_array_index (rows, KymoNameStats, 0);
  g_assert_cmpuint (row->count, ==, 2);
  g_assert_cmpint (row->total, ==, 900);
  g_clear_pointer (&rows, g_array_unref);

  /* overlapping the window is not enough: the start must lie inside */
  rows = kymo_stats_compute (trace, 50, 99, NULL, NULL);
  g_assert_cmpuint (rows->len, ==, 0);
  g_clear_pointer (&rows, g_array_unref);

  rows = kymo_stats_compute (trace, 500, 100, NULL, NULL);
  g_assert_cmpuint (rows->len, ==, 0);
}

/* Children that overlap each other or stick out of the parent: only the part
 * inside the parent counts, and only once. */
static void
test_stats_self_overlap (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GArray) rows = NULL;
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  guint32 parent = kymo_trace_intern (trace, "parent");
  guint32 child = kymo_trace_intern (trace, "child");
  guint32 grandchild = kymo_trace_intern (trace, "grandchild");

  kymo_track_add_span (track, 0, 100, parent, 0, 0, 0);
  kymo_track_add_span (track, -10, 5, child, 1, 0, 0);
  kymo_track_add_span (track, 10, 50, child, 1, 0, 0);
  kymo_track_add_span (track, 30, 60, child, 1, 0, 0);
  kymo_track_add_span (track, 90, 120, child, 1, 0, 0);
  /* depth 2 is not a direct child of the parent */
  kymo_track_add_span (track, 20, 40, grandchild, 2, 0, 0);
  kymo_trace_seal (trace);

  rows = kymo_stats_compute (trace, 0, 100, NULL, NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      const KymoNameStats *row = &g_array_index (rows, KymoNameStats, i);

      if (row->name_id == parent)
        {
          /* covered: [0,5] + [10,60] + [90,100] = 65 */
          g_assert_cmpint (row->total, ==, 100);
          g_assert_cmpint (row->self, ==, 35);
        }
      else if (row->name_id == child)
        {
          /* [-10,5] starts before the window */
          g_assert_cmpuint (row->count, ==, 3);
          g_assert_cmpint (row->total, ==, 40 + 30 + 30);
          /* [10,50] loses [20,40], [30,60] loses [30,40] */
          g_assert_cmpint (row->self, ==, 100 - 20 - 10);
        }
      else
        {
          g_assert_cmpuint (row->name_id, ==, grandchild);
          g_assert_cmpint (row->self, ==, 20);
        }
    }
  g_assert_cmpuint (rows->len, ==, 3);
}

static void
test_stats_percentiles (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GArray) rows = NULL;
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  guint32 hundred = kymo_trace_intern (trace, "hundred");
  guint32 four = kymo_trace_intern (trace, "four");
  guint32 one = kymo_trace_intern (trace, "one");

  /* shuffled so that sorting is needed */
  for (guint i = 0; i < 100; i++)
    {
      gint64 d = (i * 37) % 100 + 1;
      kymo_track_add_span (track, i * 1000, i * 1000 + d, hundred, 0, 0, 0);
    }
  for (guint i = 0; i < 4; i++)
    kymo_track_add_span (track, 200000 + i * 10, 200000 + i * 10 + (4 - i), four, 0, 0, 0);
  kymo_track_add_span (track, 300000, 300007, one, 0, 0, 0);
  kymo_trace_seal (trace);

  rows = kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, NULL);
  g_assert_cmpuint (rows->len, ==, 3);
  for (guint i = 0; i < rows->len; i++)
    {
      const KymoNameStats *row = &g_array_index (rows, KymoNameStats, i);

      if (row->name_id == hundred)
        {
          g_assert_cmpuint (i, ==, 0);
          g_assert_cmpint (row->total, ==, 5050);
          g_assert_cmpint (row->min, ==, 1);
          g_assert_cmpint (row->max, ==, 100);
          g_assert_cmpint (row->mean, ==, 51);  /* 50.5 rounds up */
          g_assert_cmpint (row->p50, ==, 50);
          g_assert_cmpint (row->p90, ==, 90);
          g_assert_cmpint (row->p99, ==, 99);
        }
      else if (row->name_id == four)
        {
          g_assert_cmpint (row->mean, ==, 3);   /* 2.5 rounds up */
          g_assert_cmpint (row->p50, ==, 2);
          g_assert_cmpint (row->p90, ==, 4);
          g_assert_cmpint (row->p99, ==, 4);
        }
      else
        {
          g_assert_cmpuint (row->name_id, ==, one);
          g_assert_cmpint (row->min, ==, 7);
          g_assert_cmpint (row->p50, ==, 7);
          g_assert_cmpint (row->p99, ==, 7);
          g_assert_cmpint (row->self, ==, 7);
        }
    }
}

static void
test_stats_csv (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GString) csv = g_string_new (NULL);
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);

  kymo_track_add_span (track, 0, 1000, kymo_trace_intern (trace, "plain"), 0, 0, 0);
  kymo_track_add_span (track, 100, 300, kymo_trace_intern (trace, "say \"hi\", then\nleave"), 1, 0, 0);
  /* equal totals: ordered by name */
  kymo_track_add_span (track, 2000, 2200, kymo_trace_intern (trace, "b"), 0, 0, 0);
  kymo_trace_seal (trace);

  rows = kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, NULL);
  kymo_stats_append_csv (rows, csv);
  g_assert_cmpstr (csv->str, ==,
                   "name,count,total,self,min,mean,max,p50,p90,p99\n"
                   "plain,1,1000,800,1000,1000,1000,1000,1000,1000\n"
                   "b,1,200,200,200,200,200,200,200,200\n"
                   "\"say \"\"hi\"\", then\nleave\",1,200,200,200,200,200,200,200,200\n");

  /* the FILE writer prints the same */
  {
    g_autofree char *path = NULL;
    g_autofree char *text = NULL;
    FILE *out;
    int fd;

    fd = g_file_open_tmp ("kymo-stats-XXXXXX.csv", &path, NULL);
    g_assert_cmpint (fd, >=, 0);
    out = fdopen (fd, "wb");
    g_assert_true (kymo_stats_write_csv (rows, out));
    fclose (out);
    g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
    g_assert_cmpstr (text, ==, csv->str);
    g_remove (path);
  }
}

static void
test_stats_empty (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GString) csv = g_string_new (NULL);

  kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  kymo_trace_seal (trace);
  rows = kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, NULL);
  g_assert_cmpuint (rows->len, ==, 0);
  kymo_stats_append_csv (rows, csv);
  g_assert_cmpstr (csv->str, ==, KYMO_STATS_CSV_HEADER "\n");
}

static void
test_stats_cancel (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  guint32 name = kymo_trace_intern (trace, "s");

  for (guint i = 0; i < 200000; i++)
    kymo_track_add_span (track, i * 10, i * 10 + 5, name, 0, 0, 0);
  kymo_trace_seal (trace);
  g_cancellable_cancel (cancellable);
  g_assert_null (kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/stats/random", test_stats_random);
  g_test_add_func ("/export/stats/window", test_stats_window);
  g_test_add_func ("/export/stats/self-overlap", test_stats_self_overlap);
  g_test_add_func ("/export/stats/percentiles", test_stats_percentiles);
  g_test_add_func ("/export/stats/csv", test_stats_csv);
  g_test_add_func ("/export/stats/empty", test_stats_empty);
  g_test_add_func ("/export/stats/cancel", test_stats_cancel);

  return g_test_run ();
}
