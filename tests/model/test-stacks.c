/* test-stacks.c: sampled call stacks in the model
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo.h"
#include "kymo-mapped.h"

/* The same frames give the same id, so a flame graph folds identical
 * stacks without comparing them again. */
static void
test_stacks_shared (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  KymoFrame a[] = { { kymo_trace_intern (trace, "main"), 0 },
                    { kymo_trace_intern (trace, "poll"), kymo_trace_intern (trace, "src/x.rs:42") } };
  KymoFrame b[] = { { kymo_trace_intern (trace, "main"), 0 } };
  KymoFrame c[] = { a[0], a[1] };
  const KymoFrame *got;
  guint32 sa, sb, sc;
  gsize n;

  sa = kymo_stacks_add (stacks, a, G_N_ELEMENTS (a));
  sb = kymo_stacks_add (stacks, b, G_N_ELEMENTS (b));
  sc = kymo_stacks_add (stacks, c, G_N_ELEMENTS (c));
  g_assert_cmpuint (sa, !=, sb);
  g_assert_cmpuint (sa, ==, sc);
  g_assert_cmpuint (kymo_stacks_get_n_stacks (stacks), ==, 2);

  got = kymo_stacks_get (stacks, sa, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (kymo_trace_get_name (trace, got[0].name), ==, "main");
  g_assert_cmpstr (kymo_trace_get_name (trace, got[1].name), ==, "poll");
  g_assert_cmpstr (kymo_trace_get_name (trace, got[1].location), ==, "src/x.rs:42");
  g_assert_null (kymo_stacks_get (stacks, KYMO_NO_STACK, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (kymo_stacks_get (stacks, 77, &n));
}

/* Decoders add samples per thread batch; readers want them in time order. */
static void
test_samples_in_time_order (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  guint32 cpu = kymo_trace_intern (trace, "cpu");
  const KymoStackSample *samples;
  KymoTime batches[] = { 50, 60, 70, 10, 20, 30, 55 };
  gsize n;

  /* Room made for them first (as a decoder that knows how many does):
   * none is lost, none is added. */
  kymo_stacks_reserve_samples (stacks, G_N_ELEMENTS (batches));
  g_assert_cmpuint ((kymo_stacks_get_samples (stacks, &n), n), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (batches); i++)
    kymo_stacks_add_sample (stacks, i % 2, batches[i], KYMO_NO_STACK, cpu, i);
  kymo_trace_seal (trace);

  samples = kymo_stacks_get_samples (stacks, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (batches));
  for (gsize i = 1; i < n; i++)
    g_assert_cmpint (samples[i - 1].ts, <=, samples[i].ts);
  g_assert_cmpint (samples[0].ts, ==, 10);
  g_assert_cmpuint (samples[0].source, ==, 3);
  g_assert_cmpuint (samples[0].track, ==, 1);
  g_assert_cmpuint (kymo_stacks_lower_bound (stacks, 55), ==, 4);
  g_assert_cmpuint (kymo_stacks_lower_bound (stacks, 56), ==, 5);
  g_assert_cmpuint (kymo_stacks_lower_bound (stacks, 1000), ==, n);
}

/* A decoder that adds its samples on one of its threads orders them
 * there: they read in time order before the trace is sealed, and after.
 * Nothing may be added then. */
static void
test_finished_ahead (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  guint32 cpu = kymo_trace_intern (trace, "cpu");
  KymoFrame f[] = { { kymo_trace_intern (trace, "main"), 0 } };
  KymoTime batches[] = { 50, 60, 70, 10, 20, 30, 55, 20 };
  const KymoStackSample *samples;
  guint32 stack = kymo_stacks_add (stacks, f, 1);
  gsize n;

  for (guint i = 0; i < G_N_ELEMENTS (batches); i++)
    kymo_stacks_add_sample (stacks, 0, batches[i], stack, cpu, i);
  kymo_stacks_finish (stacks);
  samples = kymo_stacks_get_samples (stacks, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (batches));
  g_assert_cmpint (samples[0].ts, ==, 10);
  /* Ties keep the order they were added in. */
  g_assert_cmpuint (samples[1].source, ==, 4);
  g_assert_cmpuint (samples[2].source, ==, 7);

  g_test_expect_message ("kymo-stacks", G_LOG_LEVEL_CRITICAL, "*finished*");
  kymo_stacks_add_sample (stacks, 0, 5, stack, cpu, 99);
  g_test_assert_expected_messages ();
  kymo_trace_seal (trace);
  samples = kymo_stacks_get_samples (stacks, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (batches));
  for (gsize i = 1; i < n; i++)
    g_assert_cmpint (samples[i - 1].ts, <=, samples[i].ts);
  g_assert_cmpuint (kymo_stacks_get_n_stacks (stacks), ==, 1);
  g_assert_cmpuint (kymo_stacks_get (stacks, stack, &n)[0].name, ==, f[0].name);
}

/* Samples appended in bulk, unpopulated, after one added alone: each
 * thread fills its stretch and faults its pages in, and what was there
 * stays. */
static void
test_appended_unpopulated (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  guint32 cpu = kymo_trace_intern (trace, "cpu");
  const KymoStackSample *samples;
  KymoStackSample *out;
  const gsize n_bulk = 100000;
  gsize n;

  kymo_stacks_add_sample (stacks, 0, 5, KYMO_NO_STACK, cpu, 0);
  out = kymo_stacks_append_samples (stacks, n_bulk);
  g_assert_nonnull (out);
  for (gsize half = 0; half < 2; half++)
    {
      gsize from = half * n_bulk / 2, to = (half + 1) * n_bulk / 2;

      kymo_mapped_populate (out + from, (to - from) * sizeof (KymoStackSample));
      for (gsize i = from; i < to; i++)
        out[i] = (KymoStackSample) { (KymoTime) (n_bulk - i) * 10, 1, KYMO_NO_STACK, cpu, (guint32) i + 1 };
    }
  kymo_stacks_finish (stacks);
  samples = kymo_stacks_get_samples (stacks, &n);
  g_assert_cmpuint (n, ==, n_bulk + 1);
  g_assert_cmpint (samples[0].ts, ==, 5);
  g_assert_cmpuint (samples[0].source, ==, 0);
  g_assert_cmpint (samples[1].ts, ==, 10);
  g_assert_cmpuint (samples[1].source, ==, n_bulk);
  g_assert_cmpint (samples[n - 1].ts, ==, (KymoTime) n_bulk * 10);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stacks/shared", test_stacks_shared);
  g_test_add_func ("/stacks/samples-in-time-order", test_samples_in_time_order);
  g_test_add_func ("/stacks/finished-ahead", test_finished_ahead);
  g_test_add_func ("/stacks/appended-unpopulated", test_appended_unpopulated);
  return g_test_run ();
}
