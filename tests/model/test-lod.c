/* test-lod.c: the level of detail built at seal against a brute force
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A zoomed-out frame draws from the blocks the seal builds (in parallel,
 * per track and per depth): a wrong block draws a box where there is none
 * or hides a long span. Every block of every level of every depth of every
 * track must equal what a plain pass over its spans gives, for hand-made
 * traces and for every format's samples, and be the same whatever the
 * threads the load ran on.
 */
#include "config.h"

#include "kymo-test-utils.h"
#include "kymo-test-atf-session.h"
#include "kymo-trace-private.h"

static const guint thread_counts[] = { 1, 2, 7 };

static gsize
div_up (gsize a,
        gsize b)
{
  return (a + b - 1) / b;
}

/* Every level of @depth against the spans it stands for. */
static void
check_depth (KymoTrack *track,
             guint      depth)
{
  gsize n, first, n_blocks;
  const KymoSpan *run = kymo_track_get_depth_spans (track, depth, &n, &first);
  guint n_levels = kymo_track_get_lod_levels (track, depth);

  if (n <= KYMO_SPAN_TREE_LEAF)
    {
      /* Short runs are read whole. */
      g_assert_cmpuint (n_levels, ==, 0);
      return;
    }
  g_assert_cmpuint (n_levels, >=, 2);
  g_assert_cmpuint (n_levels, <=, KYMO_SPAN_TREE_MAX_LEVELS);

  for (guint level = 0; level < n_levels; level++)
    {
      gsize size = kymo_span_tree_block_spans (level);
      const KymoSpanBlock *blocks = kymo_track_get_lod (track, depth, level, &n_blocks);

      g_assert_cmpuint (n_blocks, ==, div_up (n, size));
      /* Up to one block at the top, and not one level more. */
      g_assert_cmpuint (n_blocks == 1, ==, level + 1 == n_levels);

      for (gsize b = 0; b < n_blocks; b++)
        {
          gsize lo = b * size, hi = MIN (n, lo + size), longest = lo;
          KymoTime max_end = run[lo].end;

          for (gsize i = lo + 1; i < hi; i++)
            {
              /* The first of the longest, as a frame walking left to right keeps it. */
              if (run[i].end - run[i].start > run[longest].end - run[longest].start)
                longest = i;
              max_end = MAX (max_end, run[i].end);
            }
          g_assert_cmpint (blocks[b].first_start, ==, run[lo].start);
          g_assert_cmpint (blocks[b].max_end, ==, max_end);
          g_assert_cmpuint (blocks[b].count, ==, hi - lo);
          g_assert_cmpuint (blocks[b].longest, ==, longest);
          g_assert_cmpint (blocks[b].longest_len, ==, run[longest].end - run[longest].start);
        }
    }
  g_assert_null (kymo_track_get_lod (track, depth, n_levels, &n_blocks));
  g_assert_cmpuint (n_blocks, ==, 0);
}

static void
check_trace (KymoTrace *trace)
{
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);

      for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
        check_depth (track, d);
      g_assert_cmpuint (kymo_track_get_lod_levels (track, kymo_track_get_n_depths (track)), ==, 0);
    }
}

/* Every block of every track, as one digest. */
static char *
lod_digest (KymoTrace *trace)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);

  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      gsize n_spans;
      const KymoSpan *spans = kymo_track_get_spans (track, &n_spans);

      g_checksum_update (sum, (const guchar *) spans, (gssize) (n_spans * sizeof (KymoSpan)));
      for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
        for (guint l = 0; l < kymo_track_get_lod_levels (track, d); l++)
          {
            gsize n_blocks;
            const KymoSpanBlock *blocks = kymo_track_get_lod (track, d, l, &n_blocks);

            g_checksum_update (sum, (const guchar *) blocks, (gssize) (n_blocks * sizeof (KymoSpanBlock)));
          }
    }
  return g_strdup (g_checksum_get_string (sum));
}

static KymoTrace *
load_input (KymoInput *input,
            guint      threads)
{
  KymoLoadOptions options = { .threads = threads };
  g_autoptr(GError) error = NULL;

  return kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
}

/* Checked at one thread, and the same blocks at every other count. */
static void
check_input (KymoInput  *input,
             const char *what)
{
  g_autofree char *one = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (thread_counts); i++)
    {
      g_autoptr(KymoTrace) trace = load_input (input, thread_counts[i]);
      g_autofree char *digest = NULL;

      if (trace == NULL)
        {
          /* Not a trace at all (a sample of refused input): nothing drawn. */
          g_assert_null (one);
          return;
        }
      if (i == 0)
        {
          check_trace (trace);
          one = lod_digest (trace);
          continue;
        }
      digest = lod_digest (trace);
      if (g_strcmp0 (one, digest) != 0)
        g_test_message ("%s: the level of detail differs at %u threads", what, thread_counts[i]);
      g_assert_cmpstr (one, ==, digest);
    }
}

/* Random spans over several tracks and depths: nested, overlapping, out of
 * order, ending before they start, and many of one length (ties). */
static KymoTrace *
random_trace (guint    n_tracks,
              guint    n_spans,
              guint    max_depth,
              guint    threads,
              gboolean ordered)
{
  KymoTrace *trace = kymo_trace_new ();
  guint32 name = kymo_trace_intern (trace, "f");

  _kymo_trace_set_load_threads (trace, threads);
  for (guint t = 0; t < n_tracks; t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK,
                                                                            KYMO_TRACK_THREAD, "t"));
      /* Track t has t²-ish spans more than the one before: uneven parts. */
      guint count = n_spans / n_tracks + t * t * 97;

      for (guint i = 0; i < count; i++)
        {
          KymoTime start = ordered ? (KymoTime) i * 1000 + g_test_rand_int_range (0, 500)
                                   : g_test_rand_int_range (0, 100000000);
          KymoTime len;

          switch (g_test_rand_int_range (0, 4))
            {
            case 0: len = 250; break;   /* ties */
            case 1: len = -g_test_rand_int_range (1, 100); break;   /* clamped to 0 */
            case 2: len = g_test_rand_int_range (0, g_test_rand_int_range (0, 1000) == 0 ? 50000000 : 5000); break;
            default: len = g_test_rand_int_range (0, 300); break;
            }
          kymo_track_add_span (track, start, start + len, name,
                               g_test_rand_int_range (0, max_depth), 0, i);
        }
    }
  kymo_trace_seal (trace);
  return trace;
}

static void
test_random (void)
{
  /* Sealed on each thread count: the parallel seal must build what the
   * sequential one does (the blocks of equal spans are compared in
   * test_threads_same()). */
  for (guint round = 0; round < 4; round++)
    for (guint i = 0; i < G_N_ELEMENTS (thread_counts); i++)
      {
        g_autoptr(KymoTrace) trace = random_trace (1 + round * 3, 200000, 1 + round * 4,
                                                   thread_counts[i], round % 2 == 0);
        check_trace (trace);
      }
}

static void
test_sizes (void)
{
  /* Every size around the leaf, a level's fan-out and their powers. */
  for (guint n = 0; n < 1200; n += (n < 80 ? 1 : n < 300 ? 7 : 61))
    {
      g_autoptr(KymoTrace) trace = kymo_trace_new ();
      KymoTrack *track = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK,
                                                                            KYMO_TRACK_THREAD, "t"));

      for (guint i = 0; i < n; i++)
        kymo_track_add_span (track, i * 10, i * 10 + (i * 7919) % 23, 0, 0, 0, i);
      kymo_trace_seal (trace);
      check_trace (trace);
    }
}

/* A hand-made trace sealed at 1, 2 and 7 threads gives the same blocks. */
static void
test_threads_same (void)
{
  g_autofree char *one = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (thread_counts); i++)
    {
      g_autoptr(KymoTrace) trace = kymo_trace_new ();
      g_autofree char *digest = NULL;
      GRand *rand = g_rand_new_with_seed (42);

      _kymo_trace_set_load_threads (trace, thread_counts[i]);
      for (guint t = 0; t < 5; t++)
        {
          KymoTrack *track = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK,
                                                                                KYMO_TRACK_THREAD, "t"));
          for (guint k = 0; k < 20000 * (t + 1); k++)
            {
              KymoTime start = g_rand_int_range (rand, 0, 100000000);

              kymo_track_add_span (track, start, start + g_rand_int_range (rand, 0, 2000), 0,
                                   g_rand_int_range (rand, 0, 6), 0, k);
            }
        }
      g_rand_free (rand);
      kymo_trace_seal (trace);
      check_trace (trace);
      digest = lod_digest (trace);
      if (i == 0)
        one = g_steal_pointer (&digest);
      else
        g_assert_cmpstr (one, ==, digest);
    }
}

static void
test_samples (void)
{
  kymo_test_for_each_sample (check_input);
}

/* Sessions large enough to take the parallel seal unasked: one thread
 * (its depths side by side), many threads, deep with exceptions. */
static void
test_atf (gconstpointer data)
{
  const KymoTestAtfShape *shape = data;
  g_autofree char *dir = g_dir_make_tmp ("kymo-lod-XXXXXX", NULL);
  g_autofree char *pid = g_build_filename (dir, "pid_1", NULL);
  g_autoptr(KymoInput) input = NULL;

  kymo_test_write_atf_session (pid, shape);
  input = kymo_input_new_for_path (dir, NULL);
  g_assert_nonnull (input);
  check_input (input, "ATF session");
  kymo_test_remove_tree (dir);
}

static const KymoTestAtfShape atf_shapes[] = {
  { .n_threads = 1, .events_per_thread = 600000, .max_depth = 12, .n_functions = 200 },
  { .n_threads = 6, .events_per_thread = 100000, .max_depth = 12, .n_functions = 500, .symbols = TRUE },
  { .n_threads = 3, .events_per_thread = 50000, .max_depth = 40, .n_functions = 300, .exception_every = 97 },
};

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/lod/sizes", test_sizes);
  g_test_add_func ("/lod/random", test_random);
  g_test_add_func ("/lod/threads-same", test_threads_same);
  g_test_add_func ("/lod/samples", test_samples);
  for (guint i = 0; i < G_N_ELEMENTS (atf_shapes); i++)
    {
      g_autofree char *name = g_strdup_printf ("/lod/atf/%u", i);
      g_test_add_data_func (name, &atf_shapes[i], test_atf);
    }
  return g_test_run ();
}
