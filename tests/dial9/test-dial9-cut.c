/* test-dial9-cut.c: a damaged file in a folder ends what it left open where it was cut
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "dial9-builder.h"
#include "dial9/kymo-dial9-pairing.h"

enum {
  EV_POLL_START,
  EV_POLL_END,
  EV_WAKE,
  EV_ENTER,
  EV_EXIT,
};

static GByteArray *
begin_file (void)
{
  GByteArray *b = g_byte_array_new ();
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *enter[] = { "worker_id:9", "span_id:9", "parent_span_id:137", "span_name:7", "user:135", NULL };
  const char *exit_[] = { "worker_id:9", "span_id:9", "span_name:7", NULL };

  d9b_header (b);
  d9b_schema (b, EV_POLL_START, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, EV_POLL_END, "PollEndEvent", TRUE, poll_end);
  d9b_schema (b, EV_WAKE, "WakeEventEvent", TRUE, wake);
  d9b_schema (b, EV_ENTER, "SpanEnter:app::handle:src/a.rs:1", TRUE, enter);
  d9b_schema (b, EV_EXIT, "SpanExit:app::handle:src/a.rs:1", TRUE, exit_);
  d9b_pool (b, 1, "src/task.rs:1:1");
  d9b_pool (b, 2, "handle");
  return b;
}

static void
poll_start (GByteArray *b, gint32 delta, guint worker, guint task)
{
  d9b_event (b, EV_POLL_START, delta);
  d9b_varint (b, worker); d9b_u8 (b, 0); d9b_varint (b, task); d9b_u32 (b, 1);
}

static void
poll_end (GByteArray *b, gint32 delta, guint worker)
{
  d9b_event (b, EV_POLL_END, delta);
  d9b_varint (b, worker);
}

/* trace.0: task 7 polled on worker 0 at [1.00, 1.05] ms.
 * trace.1: task 7 polled on worker 0 from 2 ms, a span entered in it at
 * 2.0001 ms, a wake of task 8 by task 7 at 2.0003 ms; unless @wake_last,
 * task 9 polled on worker 1 at [2.00015, 2.0005] ms; then worker 0's poll
 * end, cut off in the middle.
 * trace.2: from 3 ms, the end of a poll whose start was lost, the exit of
 * the span, task 8 polled at [3.0001, 3.0002] ms and task 7 at [3.0003,
 * 3.0004] ms, all on worker 0. */
static char *
write_folder (gboolean wake_last)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("kymo-dial9-cut-XXXXXX", &error);
  g_autoptr(GByteArray) f0 = begin_file ();
  g_autoptr(GByteArray) f1 = begin_file ();
  g_autoptr(GByteArray) f2 = begin_file ();
  g_autofree char *p0 = g_build_filename (dir, "trace.0.bin", NULL);
  g_autofree char *p1 = g_build_filename (dir, "trace.1.bin", NULL);
  g_autofree char *p2 = g_build_filename (dir, "trace.2.bin", NULL);

  g_assert_no_error (error);
  d9b_reset (f0, 1000000);
  poll_start (f0, 0, 0, 7);
  poll_end (f0, 50, 0);

  d9b_reset (f1, 2000000);
  poll_start (f1, 0, 0, 7);
  d9b_event (f1, EV_ENTER, 100);
  d9b_varint (f1, 0); d9b_varint (f1, 5); d9b_u8 (f1, 0); d9b_u32 (f1, 2); d9b_u8 (f1, 0);
  if (!wake_last)
    poll_start (f1, 50, 1, 9);
  d9b_event (f1, EV_WAKE, wake_last ? 200 : 150);
  d9b_varint (f1, 7); d9b_varint (f1, 8); d9b_u8 (f1, 0);
  if (!wake_last)
    poll_end (f1, 200, 1);
  poll_end (f1, 100, 0);
  /* The worker id of the last event is lost: the file ends inside it */
  g_byte_array_set_size (f1, f1->len - 1);

  d9b_reset (f2, 3000000);
  poll_end (f2, 0, 0);
  poll_start (f2, 100, 0, 8);
  poll_end (f2, 100, 0);
  d9b_event (f2, EV_EXIT, 50);
  d9b_varint (f2, 0); d9b_varint (f2, 5); d9b_u32 (f2, 2);
  poll_start (f2, 50, 0, 7);
  poll_end (f2, 100, 0);

  g_file_set_contents (p0, (const char *) f0->data, f0->len, &error);
  g_assert_no_error (error);
  g_file_set_contents (p1, (const char *) f1->data, f1->len, &error);
  g_assert_no_error (error);
  g_file_set_contents (p2, (const char *) f2->data, f2->len, &error);
  g_assert_no_error (error);
  return dir;
}

static KymoTrace *
load_folder (const char *dir,
             guint       threads,
             gboolean    reference)
{
  g_autoptr(GError) error = NULL;
  KymoTrace *trace;
  const KymoWarning *warnings;
  gboolean named = FALSE;
  gsize n;

  kymo_test_set_threads (threads);
  d9_pair_set_reference_for_testing (reference);
  trace = kymo_test_load_path (dir, "dial9", &error);
  d9_pair_set_reference_for_testing (FALSE);
  kymo_test_set_threads (0);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  warnings = kymo_trace_get_warnings (trace, &n);
  for (gsize i = 0; i < n; i++)
    named |= strstr (warnings[i].message, "trace.1.bin: offset ") != NULL;
  g_assert_true (named);
  return trace;
}

static void
assert_span (const KymoSpan *span,
             KymoTime        start,
             KymoTime        end,
             gboolean        incomplete)
{
  g_assert_cmpint (span->start, ==, start);
  g_assert_cmpint (span->end, ==, end);
  g_assert_cmpint (!!(kymo_span_flags (span) & KYMO_EVENT_INCOMPLETE), ==, incomplete);
}

static void
check_trace (KymoTrace *trace,
             gboolean   wake_last)
{
  /* The last event of trace.1 is the wake when @wake_last: the cut goes
   * one nanosecond after it, never at the same place. */
  KymoTime cut = wake_last ? 2000301 : 2000300;
  KymoTrack *w0 = kymo_test_find_track (trace, "worker 0");
  g_autoptr(KymoDial9Tasks) tasks = kymo_dial9_tasks_new (trace, NULL);
  const KymoDial9Task *rows;
  const KymoSpan *spans;
  const KymoFlow *flows;
  gsize n, first;

  g_assert_nonnull (w0);
  spans = kymo_track_get_depth_spans (w0, 0, &n, &first);
  g_assert_cmpuint (n, ==, 4);
  assert_span (&spans[0], 1000000, 1000050, FALSE);
  /* The poll the cut left open ends at the cut, at the last time trace.1
   * shows worker 0 busy with it (its task's wake), not at the end of
   * a poll of trace.2 whose start was lost */
  assert_span (&spans[1], 2000000, cut, TRUE);
  assert_span (&spans[2], 3000100, 3000200, FALSE);
  assert_span (&spans[3], 3000300, 3000400, FALSE);
  /* The span entered in it ends there too; trace.2's exit ends nothing */
  spans = kymo_track_get_depth_spans (w0, 1, &n, &first);
  g_assert_cmpuint (n, ==, 1);
  assert_span (&spans[0], 2000100, cut, TRUE);

  if (!wake_last)
    {
      KymoTrack *w1 = kymo_test_find_track (trace, "worker 1");

      g_assert_nonnull (w1);
      spans = kymo_track_get_depth_spans (w1, 0, &n, &first);
      g_assert_cmpuint (n, ==, 1);
      assert_span (&spans[0], 2000150, 2000500, FALSE);
    }

  /* The wake came from worker 0, which was polling task 7, and schedules
   * task 8's poll in trace.2 */
  flows = kymo_trace_get_flows (trace, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (flows[0].from_ts, ==, 2000300);
  g_assert_cmpint (flows[0].to_ts, ==, 3000100);
  g_assert_cmpuint (flows[0].from_track, ==, flows[0].to_track);
  g_assert_cmpstr (kymo_track_get_name (kymo_trace_get_track (trace, flows[0].to_track)), ==, "worker 0");

  /* Task 7's longest poll is the cut one, not the gap to trace.2 */
  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  g_assert_cmpuint (n, ==, wake_last ? 2 : 3);
  {
    const KymoDial9Task *t7 = &rows[kymo_dial9_tasks_find_task (tasks, 7)];
    const KymoDial9Task *t8 = &rows[kymo_dial9_tasks_find_task (tasks, 8)];

    g_assert_cmpuint (t7->polls, ==, 3);
    g_assert_cmpint (t7->poll_max, ==, cut - 2000000);
    g_assert_cmpint (t7->poll_total, ==, 50 + cut - 2000000 + 100);
    g_assert_cmpuint (t8->polls, ==, 1);
    g_assert_cmpint (t8->poll_max, ==, 100);
    g_assert_cmpuint (t8->wakes, ==, 1);
  }
}

static void
test_cut (gconstpointer data)
{
  gboolean wake_last = GPOINTER_TO_INT (data);
  g_autofree char *dir = write_folder (wake_last);
  g_autofree char *want = NULL;
  g_autoptr(KymoTrace) reference = load_folder (dir, 1, TRUE);

  check_trace (reference, wake_last);
  want = kymo_test_fingerprint (reference, NULL);
  /* The same on every number of threads, and as the reference pairs it */
  for (guint threads = 1; threads <= 7; threads += threads == 1 ? 1 : 5)
    {
      g_autoptr(KymoTrace) trace = load_folder (dir, threads, FALSE);
      g_autofree char *print = kymo_test_fingerprint (trace, NULL);

      check_trace (trace, wake_last);
      g_assert_cmpstr (print, ==, want);
    }
  kymo_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_data_func ("/dial9-cut/open-poll", GINT_TO_POINTER (FALSE), test_cut);
  g_test_add_data_func ("/dial9-cut/wake-last", GINT_TO_POINTER (TRUE), test_cut);
  return g_test_run ();
}
