/* test-trace.c: building the model
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo.h"
#include "kymo-trace-private.h"
#include "kymo-track-private.h"

static void
test_intern (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint32 a = kymo_trace_intern (trace, "poll");
  guint32 b = kymo_trace_intern (trace, "park");
  guint32 c = kymo_trace_intern_len (trace, "polling", 4);

  g_assert_cmpuint (kymo_trace_intern (trace, ""), ==, 0);
  g_assert_cmpuint (a, !=, b);
  g_assert_cmpuint (a, ==, c);
  g_assert_cmpstr (kymo_trace_get_name (trace, a), ==, "poll");
  g_assert_cmpstr (kymo_trace_get_name (trace, b), ==, "park");
  g_assert_cmpstr (kymo_trace_get_name (trace, 9999), ==, "");
  g_assert_cmpuint (kymo_trace_get_n_names (trace), ==, 3);
}

static void
test_track_tree (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint p2 = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "Process 2");
  guint p1 = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "Process 1");
  guint t_low = kymo_trace_add_track (trace, p1, KYMO_TRACK_THREAD, "low");
  guint t_high = kymo_trace_add_track (trace, p1, KYMO_TRACK_THREAD, "high");
  const guint *roots, *children;
  guint n;

  kymo_track_set_group_kind (kymo_trace_get_track (trace, p1), "process");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, p1), -1);
  kymo_track_set_sort_key (kymo_trace_get_track (trace, t_low), 10);
  kymo_track_set_sort_key (kymo_trace_get_track (trace, t_high), 1);
  kymo_trace_seal (trace);

  roots = kymo_trace_get_root_tracks (trace, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (roots[0], ==, p1);
  g_assert_cmpuint (roots[1], ==, p2);
  children = kymo_track_get_children (kymo_trace_get_track (trace, p1), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (children[0], ==, t_high);
  g_assert_cmpuint (children[1], ==, t_low);
  g_assert_cmpuint (kymo_track_get_parent (kymo_trace_get_track (trace, t_low)), ==, p1);
  g_assert_cmpstr (kymo_track_get_group_kind (kymo_trace_get_track (trace, p1)), ==, "process");
}

static void
test_events_sorted_and_range (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoTrack *thread = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t"));
  KymoTrack *counter = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_COUNTER, "c"));
  KymoTrack *marks = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_MARKER, "m"));
  const KymoInstant *instants;
  const KymoSample *samples;
  const KymoAnnotation *annotations;
  guint64 spans, n_instants, n_samples, n_annotations;
  KymoTime start, end;
  gsize n;

  kymo_track_add_instant (thread, 500, kymo_trace_intern (trace, "b"), 0, 2);
  kymo_track_add_instant (thread, 100, kymo_trace_intern (trace, "a"), 0, 1);
  kymo_track_add_span (thread, 50, 40, kymo_trace_intern (trace, "backwards"), 0, 0, 0);
  kymo_track_add_sample (counter, 30, 1.5);
  kymo_track_add_sample (counter, 10, -2.0);
  kymo_track_add_annotation (marks, 900, 1200, kymo_trace_intern (trace, "range"), "a long note", 0);
  kymo_track_add_annotation (marks, 20, 20, 0, NULL, 0);
  kymo_trace_add_warning (trace, 42, 60, "offset %d: bad", 42);
  kymo_trace_seal (trace);

  instants = kymo_track_get_instants (thread, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (instants[0].ts, ==, 100);
  g_assert_cmpint (instants[0].source, ==, 1);
  g_assert_cmpuint (kymo_track_lower_bound_instant (thread, 101), ==, 1);
  samples = kymo_track_get_samples (counter, &n);
  g_assert_cmpint (samples[0].ts, ==, 10);
  g_assert_cmpfloat (samples[1].value, ==, 1.5);
  annotations = kymo_track_get_annotations (marks, &n);
  g_assert_cmpint (annotations[0].start, ==, 20);
  g_assert_null (annotations[0].text);
  g_assert_cmpstr (annotations[1].text, ==, "a long note");
  /* an end before its start is clamped, not dropped */
  g_assert_cmpint (kymo_track_get_spans (thread, &n)[0].end, ==, 50);

  kymo_trace_get_time_range (trace, &start, &end);
  g_assert_cmpint (start, ==, 10);
  g_assert_cmpint (end, ==, 1200);
  kymo_trace_count_events (trace, &spans, &n_instants, &n_samples, &n_annotations);
  g_assert_cmpuint (spans, ==, 1);
  g_assert_cmpuint (n_instants, ==, 2);
  g_assert_cmpuint (n_samples, ==, 2);
  g_assert_cmpuint (n_annotations, ==, 2);
  g_assert_cmpstr (kymo_trace_get_warnings (trace, &n)[0].message, ==, "offset 42: bad");
}

static void
test_metadata_and_wallclock (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  const char *key, *value;
  gint64 offset;

  g_assert_false (kymo_trace_get_wallclock (trace, &offset));
  kymo_trace_set_metadata (trace, "service", "a");
  kymo_trace_set_metadata (trace, "host", "b");
  kymo_trace_set_metadata (trace, "service", "c");
  g_assert_cmpuint (kymo_trace_get_n_metadata (trace), ==, 2);
  kymo_trace_get_nth_metadata (trace, 0, &key, &value);
  g_assert_cmpstr (key, ==, "service");
  g_assert_cmpstr (value, ==, "c");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "host"), ==, "b");
  g_assert_null (kymo_trace_get_metadata (trace, "nope"));

  kymo_trace_set_wallclock (trace, 1000, 1700000000000000000);
  g_assert_true (kymo_trace_get_wallclock (trace, &offset));
  g_assert_cmpint (offset, ==, 1700000000000000000 - 1000);
}

/* Decoders that build arrays themselves hand them over; what they hand over
 * must read back exactly as if added one by one, in order after what is
 * already staged. */
static void
test_take_and_append (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoTrack *t = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t"));
  KymoTrack *c = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_COUNTER, "c"));
  KymoSpan *outer = g_new (KymoSpan, 2);
  KymoSpan *inner = g_new (KymoSpan, 1);
  KymoSpan *more;
  KymoInstant *marks = g_new (KymoInstant, 2);
  KymoSample *first = g_new (KymoSample, 1), *second = g_new (KymoSample, 2);
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));
  const KymoSpan *spans;
  const KymoSample *samples;
  gsize n;

  outer[0] = (KymoSpan) { 0, 100, 1, 7 };
  outer[1] = (KymoSpan) { 200, 150, 1, 8 };   /* ends before it starts */
  inner[0] = (KymoSpan) { 10, 20, 2, 9 };
  kymo_track_take_spans (t, 0, outer, 2);
  kymo_track_take_spans (t, 1, inner, 1);
  more = kymo_track_append_spans (t, 0, 1);
  more[0] = (KymoSpan) { 300, 400, 3, 10 };
  kymo_track_take_spans (t, 2, NULL, 0);
  marks[0] = (KymoInstant) { 50, 4, 11 };
  marks[1] = (KymoInstant) { 60, 4, 12 };
  kymo_track_take_instants (t, marks, 2);
  first[0] = (KymoSample) { 5, 1.0 };
  second[0] = (KymoSample) { 1, 2.0 };
  second[1] = (KymoSample) { 9, 3.0 };
  kymo_track_take_samples (c, first, 1);
  kymo_track_take_samples (c, second, 2);
  kymo_trace_seal (trace);

  g_assert_cmpuint (kymo_track_get_n_depths (t), ==, 2);
  spans = kymo_track_get_depth_spans (t, 0, &n, NULL);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (spans[1].start, ==, 200);
  g_assert_cmpint (spans[1].end, ==, 200);
  g_assert_cmpuint (spans[2].source, ==, 10);
  spans = kymo_track_get_depth_spans (t, 1, &n, NULL);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (spans[0].source, ==, 9);
  g_array_set_size (hits, 0);
  g_assert_cmpuint (kymo_track_query_spans (t, 1, 15, 25, hits), ==, 1);
  kymo_track_get_instants (t, &n);
  g_assert_cmpuint (n, ==, 2);
  samples = kymo_track_get_samples (c, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (samples[0].ts, ==, 1);
  g_assert_cmpint (samples[2].ts, ==, 9);
}

/* An array handed over with room after it takes the spans added next in
 * that room (the decoder may have built it where growing means copying);
 * flows handed over read back in order after those already added. */
static void
test_take_with_room_and_flows (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint a = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "a");
  guint b = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "b");
  KymoTrack *t = kymo_trace_get_track (trace, a);
  KymoSpan *spans = g_new (KymoSpan, 8);
  const KymoSpan *kept;
  KymoFlow *flows = g_new (KymoFlow, 2), *more = g_new (KymoFlow, 1);
  const KymoSpan *depth1;
  const KymoFlow *got;
  gsize n;

  spans[0] = (KymoSpan) { 0, 100, 1, 1 };
  spans[1] = (KymoSpan) { 200, 300, 1, 2 };
  kymo_track_take_spans_with_room (t, 0, spans, 2, 8);
  kymo_track_add_span (t, 10, 20, 2, 1, 0, 3);
  kymo_track_add_span (t, 210, 220, 2, 1, 0, 4);
  /* Still the array handed over: no reallocation while there was room. */
  g_assert_true (t->staged.data == (gpointer) spans);

  kymo_trace_add_flow (trace, a, 5, b, 6, 1, 100);
  flows[0] = (KymoFlow) { a, b, 10, 20, 1, 101 };
  flows[1] = (KymoFlow) { b, a, 12, 22, 1, 103 };
  kymo_trace_take_flows (trace, flows, 2);
  more[0] = (KymoFlow) { b, b, 30, 40, 1, 104 };
  kymo_trace_take_flows (trace, more, 1);
  kymo_trace_seal (trace);

  kept = kymo_track_get_depth_spans (t, 0, &n, NULL);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (kept[1].source, ==, 2);
  depth1 = kymo_track_get_depth_spans (t, 1, &n, NULL);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (depth1[0].source, ==, 3);
  g_assert_cmpuint (depth1[1].source, ==, 4);
  got = kymo_trace_get_flows (trace, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (got[0].source, ==, 100);
  g_assert_cmpuint (got[1].source, ==, 101);
  g_assert_cmpuint (got[2].source, ==, 103);
  g_assert_cmpuint (got[3].source, ==, 104);
}

static void
test_memory_per_span (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoTrack *t = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t"));
  guint n = 100000;
  gsize bytes;

  for (guint i = 0; i < n; i++)
    kymo_track_add_span (t, i * 10, i * 10 + 5, 1, i % 4, 0, i);
  kymo_trace_seal (trace);
  bytes = _kymo_trace_event_memory (trace);
  g_test_message ("%.2f bytes per span", (double) bytes / n);
  g_assert_cmpuint (bytes / n, <=, 32);
}

/* One track's events, added the same way to every trace of the test:
 * depths out of order, a depth out of start order, an end before its
 * start. */
static KymoTrack *
add_mixed_track (KymoTrace *trace)
{
  KymoTrack *t = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t"));

  for (guint i = 0; i < 3000; i++)
    kymo_track_add_span (t, (KymoTime) (i * 7919 % 3000) * 10, (KymoTime) (i * 7919 % 3000) * 10 + 25, 1, 0, 0, i);
  kymo_track_add_span (t, 500, 400, 2, 2, 0, 5000);
  for (guint i = 0; i < 1000; i++)
    kymo_track_add_span (t, i * 30 + 1, i * 30 + 9, 3, 1, 0, 6000 + i);
  return t;
}

/* A decoder may seal a track's spans as soon as it has them, on its own
 * thread: the sealed trace is the one sealing it all at once gives, and
 * instants may still come. Spans may not. */
static void
test_spans_sealed_ahead (void)
{
  g_autoptr(KymoTrace) whole = kymo_trace_new ();
  g_autoptr(KymoTrace) ahead = kymo_trace_new ();
  KymoTrack *a = add_mixed_track (whole), *b = add_mixed_track (ahead);
  guint32 longest_a[64], counts_a[64], longest_b[64], counts_b[64];
  g_autoptr(GArray) hits_a = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) hits_b = g_array_new (FALSE, FALSE, sizeof (guint32));
  const KymoSpan *sa, *sb;
  guint64 spans;
  gsize na, nb;

  kymo_track_seal_spans (b);
  kymo_trace_count_events (ahead, &spans, NULL, NULL, NULL);
  g_assert_cmpuint (spans, ==, 4001);
  g_test_expect_message ("kymo-track", G_LOG_LEVEL_CRITICAL, "*spans_done*");
  kymo_track_add_span (b, 0, 1, 1, 0, 0, 9999);
  g_test_assert_expected_messages ();

  kymo_track_add_instant (a, 42, 4, 0, 7000);
  kymo_track_add_instant (b, 42, 4, 0, 7000);
  kymo_trace_seal (whole);
  kymo_trace_seal (ahead);

  sa = kymo_track_get_spans (a, &na);
  sb = kymo_track_get_spans (b, &nb);
  g_assert_cmpuint (na, ==, 4001);
  g_assert_cmpuint (nb, ==, na);
  g_assert_cmpmem (sa, na * sizeof (KymoSpan), sb, nb * sizeof (KymoSpan));
  g_assert_cmpuint (kymo_track_get_n_depths (b), ==, 3);
  g_assert_cmpint (kymo_track_get_start (b), ==, kymo_track_get_start (a));
  g_assert_cmpint (kymo_track_get_end (b), ==, kymo_track_get_end (a));
  for (guint d = 0; d < 3; d++)
    {
      kymo_track_query_lod (a, d, 0, 30000, 64, longest_a, counts_a);
      kymo_track_query_lod (b, d, 0, 30000, 64, longest_b, counts_b);
      g_assert_cmpmem (longest_a, sizeof longest_a, longest_b, sizeof longest_b);
      g_assert_cmpmem (counts_a, sizeof counts_a, counts_b, sizeof counts_b);
      g_array_set_size (hits_a, 0);
      g_array_set_size (hits_b, 0);
      kymo_track_query_spans (a, d, 1000, 2000, hits_a);
      kymo_track_query_spans (b, d, 1000, 2000, hits_b);
      g_assert_cmpuint (hits_b->len, ==, hits_a->len);
      g_assert_cmpmem (hits_a->data, hits_a->len * 4, hits_b->data, hits_b->len * 4);
    }
  g_assert_cmpuint ((kymo_track_get_instants (b, &nb), nb), ==, 1);
}

static KymoRecord *
records_with_sources (const guint32 *sources,
                      gsize          n)
{
  KymoRecord *records = g_new0 (KymoRecord, n);

  for (gsize i = 0; i < n; i++)
    {
      records[i].source = sources[i];
      records[i].key = i;
    }
  return records;
}

/* Analyses find records by source: whatever way they were handed over,
 * a sealed trace has them in source order, ties in the order given. */
static void
test_records_in_source_order (void)
{
  static const guint32 sorted[] = { 1, 4, 4, 9 }, unsorted[] = { 7, 2, 5 };
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(KymoTrace) mixed = kymo_trace_new ();
  KymoRecords *records = kymo_trace_get_records (trace);
  const KymoRecord *all;
  gsize n;

  kymo_records_take_sorted (records, records_with_sources (sorted, 4), 4);
  kymo_trace_seal (trace);
  all = kymo_records_get_all (records, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (all[1].key, ==, 1);
  g_assert_cmpuint (all[2].key, ==, 2);
  g_assert_nonnull (kymo_records_find (records, 9));

  /* Sorted in parts is not sorted as a whole: more records after them
   * are sorted at seal. */
  records = kymo_trace_get_records (mixed);
  kymo_records_take_sorted (records, records_with_sources (sorted, 4), 4);
  kymo_records_take (records, records_with_sources (unsorted, 3), 3);
  kymo_trace_seal (mixed);
  all = kymo_records_get_all (records, &n);
  g_assert_cmpuint (n, ==, 7);
  for (gsize i = 1; i < n; i++)
    g_assert_cmpuint (all[i - 1].source, <=, all[i].source);
  g_assert_cmpuint (kymo_records_find (records, 5)->key, ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/intern", test_intern);
  g_test_add_func ("/trace/track-tree", test_track_tree);
  g_test_add_func ("/trace/events-sorted-and-range", test_events_sorted_and_range);
  g_test_add_func ("/trace/metadata-and-wallclock", test_metadata_and_wallclock);
  g_test_add_func ("/trace/memory-per-span", test_memory_per_span);
  g_test_add_func ("/trace/take-and-append", test_take_and_append);
  g_test_add_func ("/trace/take-with-room-and-flows", test_take_with_room_and_flows);
  g_test_add_func ("/trace/records-in-source-order", test_records_in_source_order);
  g_test_add_func ("/trace/spans-sealed-ahead", test_spans_sealed_ahead);
  return g_test_run ();
}
