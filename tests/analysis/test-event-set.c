/* test-event-set.c: the events a view marks
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-analysis.h"

static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint t0 = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "main");
  guint32 name = kymo_trace_intern (trace, "f");

  for (guint i = 0; i < 100; i++)
    kymo_track_add_span (kymo_trace_get_track (trace, t0), i * 10, i * 10 + 5, name, 0, 0, i);
  kymo_track_add_instant (kymo_trace_get_track (trace, t0), 3, name, 0, 0);
  kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "other");
  kymo_trace_seal (trace);
  return trace;
}

static void
test_membership (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoEventSet) set = kymo_event_set_new (trace);
  KymoEventRef ref = { 0, KYMO_EVENT_KIND_SPAN, 40 };
  KymoEventRef instant = { 0, KYMO_EVENT_KIND_INSTANT, 0 };
  const guint32 *spans;
  gsize n;

  /* Out of order and twice: sealing sorts and drops the duplicate. */
  kymo_event_set_add_span (set, 0, 70);
  kymo_event_set_add (set, &ref);
  kymo_event_set_add_span (set, 0, 10);
  kymo_event_set_add_span (set, 0, 40);
  kymo_event_set_add (set, &instant);
  kymo_event_set_seal (set);

  g_assert_cmpuint (kymo_event_set_get_n_events (set), ==, 4);
  spans = kymo_event_set_get_spans (set, 0, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (spans[0], ==, 10);
  g_assert_cmpuint (spans[1], ==, 40);
  g_assert_cmpuint (spans[2], ==, 70);
  g_assert_true (kymo_event_set_contains (set, &ref));
  g_assert_true (kymo_event_set_contains (set, &instant));
  g_assert_false (kymo_event_set_contains_span (set, 0, 41));
  g_assert_false (kymo_event_set_contains_span (set, 1, 40));
  g_assert_false (kymo_event_set_contains_span (set, 99, 40));
  g_assert_null (kymo_event_set_get_spans (set, 1, &n));
  g_assert_cmpuint (n, ==, 0);
}

/* A folded box of the timeline covers a run of span indexes: it is marked
 * when any member falls inside, however many spans it folds. */
static void
test_any_in_range (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoEventSet) set = kymo_event_set_new (trace);

  kymo_event_set_add_span (set, 0, 57);
  kymo_event_set_seal (set);

  g_assert_true (kymo_event_set_any_span_in (set, 0, 0, 100));
  g_assert_true (kymo_event_set_any_span_in (set, 0, 57, 58));
  g_assert_true (kymo_event_set_any_span_in (set, 0, 50, 58));
  g_assert_false (kymo_event_set_any_span_in (set, 0, 58, 100));
  g_assert_false (kymo_event_set_any_span_in (set, 0, 0, 57));
  g_assert_false (kymo_event_set_any_span_in (set, 0, 57, 57));
  g_assert_false (kymo_event_set_any_instant_in (set, 0, 0, 100));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/event-set/membership", test_membership);
  g_test_add_func ("/event-set/any-in-range", test_any_in_range);
  return g_test_run ();
}
