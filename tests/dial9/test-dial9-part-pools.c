/* test-dial9-part-pools.c: pooled strings of segments decoded in parts
 * resolve as they do on one thread
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-test-utils.h"
#include "dial9-builder.h"
#include "dial9-parts.h"

/* Segments enough to be decoded in parts on several threads (past 4 MiB),
 * each defining the same pool ids with strings of its own: a part keeps
 * its pools for its segments, and describe and the poll names must still
 * find each segment's own string. */
#define N_SEGMENTS   64
#define POLLS        4000
#define POOL_ID      7
#define OTHER_ID     8

enum {
  EV_POLL_START,
  EV_POLL_END,
};

static GByteArray *
build_segments (gboolean overlapping)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  GByteArray *b = g_byte_array_new ();

  for (guint seg = 0; seg < N_SEGMENTS; seg++)
    {
      g_autofree char *loc = g_strdup_printf ("src/seg%u.rs:%u", seg, seg + 1);
      g_autofree char *other = g_strdup_printf ("src/other%u.rs:1", seg);
      /* Overlapping segments are out of time order: the merge path. */
      guint64 ts = overlapping ? (guint64) seg * POLLS * 10 - (seg > 0 ? 5000 : 0) : (guint64) seg * POLLS * 10;

      d9b_header (b);
      d9b_schema (b, EV_POLL_START, "PollStartEvent", TRUE, poll_start);
      d9b_schema (b, EV_POLL_END, "PollEndEvent", TRUE, poll_end);
      d9b_pool (b, POOL_ID, loc);
      d9b_pool (b, OTHER_ID, other);
      d9b_reset (b, 1000000 + ts);
      for (guint i = 0; i < POLLS; i++)
        {
          guint32 worker = i % 2;

          /* Times count from the previous event's. */
          d9b_event (b, EV_POLL_START, i == 0 ? 0 : 6);
          d9b_varint (b, worker); d9b_u8 (b, 1); d9b_varint (b, 1 + i % 40);
          d9b_u32 (b, i % 5 == 0 ? OTHER_ID : POOL_ID);
          d9b_event (b, EV_POLL_END, 4);
          d9b_varint (b, worker);
        }
    }
  return b;
}

/* The last polls of worker 0 are the last segment's. Every 97th poll
 * as describe reads its spawn location from the pool: the poll's name. */
static void
check_polls (KymoTrace *trace)
{
  KymoTrack *w0 = kymo_test_find_track (trace, "worker 0");
  const KymoSpan *spans;
  gsize n = 0;
  g_autofree char *last = g_strdup_printf ("src/seg%u.rs:%u", N_SEGMENTS - 1, N_SEGMENTS);

  g_assert_nonnull (w0);
  spans = kymo_track_get_spans (w0, &n);
  g_assert_cmpuint (n, ==, (gsize) N_SEGMENTS * POLLS / 2);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[n - 1])), ==, last);
  for (gsize i = 0; i < n; i += i + 97 < n ? 97 : MAX (n - i - 1, 1))
    {
      KymoEventRef ref = { kymo_track_get_id (w0), KYMO_EVENT_KIND_SPAN, i };
      g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);
      const char *name = kymo_trace_get_name (trace, kymo_span_name (&spans[i]));

      g_assert_nonnull (args);
      g_assert_true (g_str_has_prefix (name, "src/seg") || g_str_has_prefix (name, "src/other"));
      g_assert_cmpstr (json_object_get_string_member (args, "spawn_loc"), ==, name);
    }
}

static void
test_part_pools (void)
{
  const guint threads[] = { 2, 3, 7 };

  for (guint v = 0; v < 2; v++)
    {
      g_autoptr(GByteArray) b = build_segments (v == 1);
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) one = NULL;
      g_autofree char *want = NULL;

      g_assert_cmpuint (b->len, >, 4u << 20);
      kymo_test_set_threads (1);
      one = kymo_test_load_bytes (b->data, b->len, "dial9", &error);
      g_assert_no_error (error);
      check_polls (one);
      want = kymo_test_fingerprint (one, NULL);
      for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
        {
          g_autoptr(KymoTrace) many = NULL;
          g_autofree char *got = NULL;

          many = d9t_load_in_parts (b->data, b->len, threads[t]);
          check_polls (many);
          got = kymo_test_fingerprint (many, NULL);
          g_assert_cmpstr (got, ==, want);
        }
      kymo_test_set_threads (0);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dial9/part-pools", test_part_pools);
  return g_test_run ();
}
