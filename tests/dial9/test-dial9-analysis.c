/* test-dial9-analysis.c: tasks and points of interest of generated dial9 traces
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "kymo-analysis.h"
#include "kymo-dial9-poi-private.h"
#include "kymo-test-utils.h"
#include "dial9-builder.h"

/* Writes events at absolute times, with resets where the format needs them. */
typedef struct {
  GByteArray *b;
  guint64     base;
} Writer;

enum {
  T_POLL_START, T_POLL_END, T_PARK, T_UNPARK, T_SPAWN, T_TERMINATE, T_WAKE, T_CPU,
};

static void
at (Writer  *w,
    guint16  type,
    guint64  ts)
{
  if (ts < w->base || ts - w->base > 0xFFFFFF)
    {
      d9b_reset (w->b, ts);
      w->base = ts;
    }
  d9b_event (w->b, type, (gint32) (ts - w->base));
  w->base = ts;
}

static void
schemas (Writer *w)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *park[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "tid:13", NULL };
  const char *unpark[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "sched_wait_ns:9", "tid:13", NULL };
  const char *spawn[] = { "task_id:9", "spawn_loc:7", "instrumented:3", NULL };
  const char *terminate[] = { "task_id:9", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *cpu[] = { "worker_id:9", "tid:13", "source:11", "thread_name:135", "callchain:6", "cpu:137", NULL };

  d9b_header (w->b);
  d9b_schema (w->b, T_POLL_START, "PollStartEvent", TRUE, poll_start);
  d9b_schema (w->b, T_POLL_END, "PollEndEvent", TRUE, poll_end);
  d9b_schema (w->b, T_PARK, "WorkerParkEvent", TRUE, park);
  d9b_schema (w->b, T_UNPARK, "WorkerUnparkEvent", TRUE, unpark);
  d9b_schema (w->b, T_SPAWN, "TaskSpawnEvent", TRUE, spawn);
  d9b_schema (w->b, T_TERMINATE, "TaskTerminateEvent", TRUE, terminate);
  d9b_schema (w->b, T_WAKE, "WakeEventEvent", TRUE, wake);
  d9b_schema (w->b, T_CPU, "CpuSampleEvent", TRUE, cpu);
  d9b_pool (w->b, 1, "src/a.rs:1:1");
  d9b_pool (w->b, 2, "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/tokio-1.52.2/src/b.rs:2:2");
  w->base = 0;
}

static void
poll (Writer *w, guint64 worker, guint64 task, guint32 loc, guint64 start, guint64 end)
{
  at (w, T_POLL_START, start); d9b_varint (w->b, worker); d9b_u8 (w->b, 0); d9b_varint (w->b, task); d9b_u32 (w->b, loc);
  at (w, T_POLL_END, end); d9b_varint (w->b, worker);
}

static void
wake (Writer *w, guint64 waker, guint64 woken, guint64 ts)
{
  at (w, T_WAKE, ts); d9b_varint (w->b, waker); d9b_varint (w->b, woken); d9b_u8 (w->b, 255);
}

/* Task 1 (instrumented) is polled twice on worker 0: 2.5 ms with a CPU
 * sample in it, then 100 ns. Task 2 (not instrumented) is woken by task 1
 * 2.648 ms before its one 500 ns poll on worker 1, which waited 300 µs for
 * the kernel when it unparked; task 2 wakes task 1 and is woken once more
 * by no task. */
static GByteArray *
scenario (void)
{
  Writer w = { g_byte_array_new (), 0 };

  schemas (&w);
  at (&w, T_SPAWN, 1000000); d9b_varint (w.b, 1); d9b_u32 (w.b, 1); d9b_u8 (w.b, 1);
  at (&w, T_SPAWN, 1000100); d9b_varint (w.b, 2); d9b_u32 (w.b, 2); d9b_u8 (w.b, 0);
  at (&w, T_PARK, 1000500); d9b_varint (w.b, 1); d9b_u8 (w.b, 0); d9b_varint (w.b, 0); d9b_u32 (w.b, 11);
  at (&w, T_POLL_START, 1001000); d9b_varint (w.b, 0); d9b_u8 (w.b, 0); d9b_varint (w.b, 1); d9b_u32 (w.b, 1);
  wake (&w, 1, 2, 1002000);
  at (&w, T_UNPARK, 1002100); d9b_varint (w.b, 1); d9b_u8 (w.b, 0); d9b_varint (w.b, 0); d9b_varint (w.b, 300000); d9b_u32 (w.b, 11);
  at (&w, T_CPU, 1002500); d9b_varint (w.b, 0); d9b_u32 (w.b, 10); d9b_u8 (w.b, 0); d9b_u8 (w.b, 0); d9b_u32 (w.b, 77); d9b_u8 (w.b, 0);
  at (&w, T_POLL_END, 3501000); d9b_varint (w.b, 0);
  at (&w, T_POLL_START, 3650000); d9b_varint (w.b, 1); d9b_u8 (w.b, 0); d9b_varint (w.b, 2); d9b_u32 (w.b, 2);
  wake (&w, 2, 1, 3650200);
  at (&w, T_POLL_END, 3650500); d9b_varint (w.b, 1);
  poll (&w, 0, 1, 1, 3650600, 3650700);
  wake (&w, 0, 2, 3660000);
  at (&w, T_TERMINATE, 3700000); d9b_varint (w.b, 2);
  return w.b;
}

static KymoTrace *
load (GByteArray *b)
{
  g_autoptr(GError) error = NULL;
  KymoTrace *trace = kymo_test_load_bytes (b->data, b->len, "dial9", &error);

  g_assert_no_error (error);
  return trace;
}

static const KymoSpan *
span_of (KymoTrace              *trace,
         const KymoDial9PollRef *poll)
{
  gsize n;
  const KymoSpan *spans = kymo_track_get_spans (kymo_trace_get_track (trace, poll->track), &n);

  g_assert_cmpuint (poll->span, <, n);
  return &spans[poll->span];
}

static void
test_tasks (void)
{
  g_autoptr(GByteArray) b = scenario ();
  g_autoptr(KymoTrace) trace = load (b);
  g_autoptr(KymoDial9Tasks) tasks = kymo_dial9_tasks_new (trace, NULL);
  const KymoDial9Task *rows;
  const KymoDial9PollRef *polls;
  const KymoRecord *records;
  const guint32 *wakes;
  gsize n, n_records;

  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  g_assert_cmpuint (n, ==, 2);

  g_assert_cmpuint (rows[0].task_id, ==, 1);
  g_assert_cmpstr (kymo_dial9_tasks_get_runtime (tasks, 0), ==, "Tokio runtime");
  g_assert_cmpstr (kymo_dial9_tasks_get_spawn_loc (tasks, 0), ==, "src/a.rs:1:1");
  g_assert_cmpint (rows[0].spawned, ==, 1000000);
  g_assert_cmpint (rows[0].terminated, ==, KYMO_TIME_NONE);
  g_assert_cmpuint (rows[0].polls, ==, 2);
  g_assert_cmpint (rows[0].poll_total, ==, 2500100);
  g_assert_cmpint (rows[0].poll_max, ==, 2500000);
  g_assert_cmpuint (rows[0].wakes, ==, 1);
  g_assert_true (rows[0].instrumented);

  g_assert_cmpuint (rows[1].task_id, ==, 2);
  g_assert_cmpstr (kymo_dial9_tasks_get_spawn_loc (tasks, 1), ==, "tokio-1.52.2/src/b.rs:2:2");
  g_assert_cmpint (rows[1].spawned, ==, 1000100);
  g_assert_cmpint (rows[1].terminated, ==, 3700000);
  g_assert_cmpuint (rows[1].polls, ==, 1);
  g_assert_cmpint (rows[1].poll_total, ==, 500);
  g_assert_cmpint (rows[1].poll_max, ==, 500);
  g_assert_cmpuint (rows[1].wakes, ==, 2);
  g_assert_false (rows[1].instrumented);

  /* Its polls, for the highlight: spans of the worker, in start order */
  g_assert_cmpuint (kymo_dial9_tasks_get_n_polls (tasks), ==, 3);
  polls = kymo_dial9_tasks_get_polls_of (tasks, 0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (span_of (trace, &polls[0])->start, ==, 1001000);
  g_assert_cmpint (span_of (trace, &polls[0])->end, ==, 3501000);
  g_assert_cmpint (span_of (trace, &polls[1])->start, ==, 3650600);
  {
    g_autoptr(KymoEventSet) set = kymo_dial9_tasks_dup_polls_set (tasks, 0);

    g_assert_cmpuint (kymo_event_set_get_n_events (set), ==, 2);
    g_assert_true (kymo_event_set_contains_span (set, polls[0].track, polls[0].span));
    g_assert_true (kymo_event_set_contains_span (set, polls[1].track, polls[1].span));
  }
  g_assert_cmpuint (kymo_dial9_tasks_find_poll (tasks, polls[1].track, polls[1].span), ==, 0);
  polls = kymo_dial9_tasks_get_polls_of (tasks, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (span_of (trace, &polls[0])->start, ==, 3650000);
  g_assert_cmpuint (kymo_dial9_tasks_find_poll (tasks, polls[0].track, polls[0].span), ==, 1);
  /* worker 1's park (1000500–1002100) is no poll */
  g_assert_cmpuint (polls[0].span, >, 0);
  g_assert_cmpint (span_of (trace, &(KymoDial9PollRef) { polls[0].track, 0 })->start, ==, 1000500);
  g_assert_cmpuint (kymo_dial9_tasks_find_poll (tasks, polls[0].track, 0), ==, KYMO_DIAL9_NO_ROW);

  /* With its wakes: task 2 was woken twice, both wakes have an instant */
  {
    g_autoptr(KymoEventSet) set = kymo_dial9_tasks_dup_task_set (tasks, 1);
    g_assert_cmpuint (kymo_event_set_get_n_events (set), ==, 1 + 2);
  }
  /* Who woke it: task 1 before its first poll, then no task */
  records = kymo_records_get_all (kymo_trace_get_records (trace), &n_records);
  wakes = kymo_dial9_tasks_get_wakes_of (tasks, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (records[wakes[0]].ts, ==, 1002000);
  g_assert_cmpuint (records[wakes[0]].key, ==, 2);
  g_assert_cmpuint (records[wakes[0]].value, ==, 1);
  g_assert_cmpuint (kymo_dial9_tasks_find_task (tasks, records[wakes[0]].value), ==, 0);
  g_assert_cmpint (records[wakes[1]].ts, ==, 3660000);
  g_assert_cmpuint (records[wakes[1]].value, ==, 0);
  g_assert_cmpuint (kymo_dial9_tasks_find_task (tasks, 0), ==, KYMO_DIAL9_NO_ROW);
  wakes = kymo_dial9_tasks_get_wakes_of (tasks, 0, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (records[wakes[0]].ts, ==, 3650200);
  g_assert_cmpuint (records[wakes[0]].value, ==, 2);
}

/* Batches out of time order, as rotated files and per-thread flushes
 * give: each poll still meets its own span, and a task's polls come in
 * start order. Task 5 is polled at 10 and 12 ms (first batch), then at 1
 * and 3 ms on the same worker (second batch, with task 6 at 2 ms); a
 * third batch repeats the 1 ms poll's time exactly on worker 1. */
static void
test_tasks_out_of_order (void)
{
  Writer w = { g_byte_array_new (), 0 };
  g_autoptr(GByteArray) b = w.b;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  const KymoDial9Task *rows;
  const KymoDial9PollRef *polls;
  gsize n;

  schemas (&w);
  poll (&w, 0, 5, 1, 10000000, 10500000);
  poll (&w, 0, 5, 1, 12000000, 12000300);
  schemas (&w);
  poll (&w, 0, 5, 1, 1000000, 1000700);
  poll (&w, 0, 6, 2, 2000000, 2000010);
  poll (&w, 0, 5, 1, 3000000, 3000100);
  schemas (&w);
  poll (&w, 1, 5, 1, 1000000, 1000020);
  trace = load (b);
  tasks = kymo_dial9_tasks_new (trace, NULL);

  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (rows[0].task_id, ==, 5);
  g_assert_cmpuint (rows[0].polls, ==, 5);
  g_assert_cmpint (rows[0].poll_total, ==, 500000 + 300 + 700 + 100 + 20);
  g_assert_cmpint (rows[0].poll_max, ==, 500000);
  g_assert_cmpuint (rows[1].task_id, ==, 6);
  g_assert_cmpuint (rows[1].polls, ==, 1);
  g_assert_cmpint (rows[1].poll_total, ==, 10);

  polls = kymo_dial9_tasks_get_polls_of (tasks, 0, &n);
  g_assert_cmpuint (n, ==, 5);
  {
    /* by track, then start */
    static const KymoTime starts[] = { 1000000, 3000000, 10000000, 12000000, 1000000 };
    static const KymoTime ends[] = { 1000700, 3000100, 10500000, 12000300, 1000020 };

    for (gsize i = 0; i < n; i++)
      {
        g_assert_cmpint (span_of (trace, &polls[i])->start, ==, starts[i]);
        g_assert_cmpint (span_of (trace, &polls[i])->end, ==, ends[i]);
        g_assert_cmpuint (kymo_dial9_tasks_find_poll (tasks, polls[i].track, polls[i].span), ==, 0);
      }
    g_assert_cmpuint (polls[0].track, ==, polls[3].track);
    g_assert_cmpuint (polls[4].track, !=, polls[0].track);
  }
  polls = kymo_dial9_tasks_get_polls_of (tasks, 1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (span_of (trace, &polls[0])->start, ==, 2000000);
}

/* Parks and unparks with a CPU time give "cpu" records on the worker's
 * lane; the unpark's own record comes first. */
static void
test_cpu_records (void)
{
  g_autoptr(GByteArray) b = scenario ();
  g_autoptr(KymoTrace) trace = load (b);
  const KymoRecord *records = NULL, *unpark = NULL;
  const KymoRecord *cpu[4];
  guint32 kind_cpu = 0, kind_unpark = 0;
  guint n_cpu = 0;
  gsize n;

  for (guint i = 0; i < kymo_trace_get_n_names (trace); i++)
    {
      if (g_str_equal (kymo_trace_get_name (trace, i), "cpu"))
        kind_cpu = i;
      else if (g_str_equal (kymo_trace_get_name (trace, i), "unpark"))
        kind_unpark = i;
    }
  g_assert_cmpuint (kind_cpu, !=, 0);
  records = kymo_records_get_all (kymo_trace_get_records (trace), &n);
  for (gsize i = 0; i < n; i++)
    {
      if (records[i].kind == kind_unpark)
        {
          unpark = &records[i];
          g_assert_true (i + 1 < n && records[i + 1].kind == kind_cpu && records[i + 1].source == unpark->source);
        }
      if (records[i].kind == kind_cpu && n_cpu < G_N_ELEMENTS (cpu))
        cpu[n_cpu++] = &records[i];
    }
  g_assert_nonnull (unpark);
  g_assert_cmpuint (n_cpu, ==, 2);
  g_assert_cmpint (cpu[0]->ts, ==, 1000500);
  g_assert_cmpint (cpu[1]->ts, ==, 1002100);
  for (guint i = 0; i < n_cpu; i++)
    {
      g_assert_cmpuint (cpu[i]->key, ==, 1);
      g_assert_cmpuint (cpu[i]->value, ==, 0);
      g_assert_cmpuint (cpu[i]->track, ==, unpark->track);
    }
  g_assert_cmpuint (unpark->track, !=, KYMO_NO_TRACK);
}

static void
test_tasks_cli (void)
{
  g_autoptr(GByteArray) b = scenario ();
  g_autofree char *path = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("KYMO_CLI");
  int fd, status;

  if (cli == NULL)
    {
      g_test_skip ("KYMO_CLI is not set");
      return;
    }
  fd = g_file_open_tmp ("kymo-tasks-XXXXXX.bin", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));
  {
    const char *argv[] = { cli, "tasks", "--json", path, NULL };
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  }
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (out, ==,
                   "{\"runtime\":\"Tokio runtime\",\"task_id\":1,\"spawn_loc\":\"src/a.rs:1:1\",\"spawned\":1000000,"
                   "\"terminated\":null,\"polls\":2,\"poll_total\":2500100,\"poll_max\":2500000,\"wakes\":1}\n"
                   "{\"runtime\":\"Tokio runtime\",\"task_id\":2,\"spawn_loc\":\"tokio-1.52.2/src/b.rs:2:2\","
                   "\"spawned\":1000100,\"terminated\":3700000,\"polls\":1,\"poll_total\":500,\"poll_max\":500,"
                   "\"wakes\":2}\n");
  g_unlink (path);
}

typedef struct {
  KymoPoiKind kind;
  KymoTime    start;
  KymoTime    end;
  KymoTime    severity;
  KymoTime    span_start;
} WantPoi;

static void
check_pois (KymoDial9Tasks *tasks,
            KymoPoiOrder    order,
            const WantPoi  *want,
            gsize           n_want)
{
  KymoTrace *trace = kymo_dial9_tasks_get_trace (tasks);

  g_assert_cmpuint (kymo_dial9_tasks_get_n_pois (tasks), ==, n_want);
  for (gsize i = 0; i < n_want; i++)
    {
      const KymoPoi *poi = kymo_dial9_tasks_get_poi (tasks, order, i);
      const KymoSpan *span;
      gsize n_spans;

      g_assert_cmpint (poi->kind, ==, want[i].kind);
      g_assert_cmpint (poi->start, ==, want[i].start);
      g_assert_cmpint (poi->end, ==, want[i].end);
      g_assert_cmpint (poi->severity, ==, want[i].severity);
      /* the event it selects: the poll, or the park the delay ends */
      g_assert_cmpuint (poi->track, <, kymo_trace_get_n_tracks (trace));
      span = kymo_track_get_spans (kymo_trace_get_track (trace, poi->track), &n_spans);
      g_assert_cmpuint (poi->span, <, n_spans);
      g_assert_cmpint (span[poi->span].start, ==, want[i].span_start);
    }
}

static void
test_pois (void)
{
  g_autoptr(GByteArray) b = scenario ();
  g_autoptr(KymoTrace) trace = load (b);
  KymoPoiThresholds t;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  /* The wake's delay selects task 2's poll, the kernel's the park of
   * worker 1 it ended. */
  static const WantPoi worst[] = {
    { KYMO_POI_WAKE_DELAY, 1002000, 3650000, 2648000, 3650000 },
    { KYMO_POI_LONG_POLL, 1001000, 3501000, 2500000, 1001000 },
    { KYMO_POI_CPU_SAMPLES, 1001000, 3501000, 2500000, 1001000 },
    { KYMO_POI_SCHED_DELAY, 702100, 1002100, 300000, 1000500 },
    { KYMO_POI_UNINSTRUMENTED, 3650000, 3650500, 500, 3650000 },
  };
  static const WantPoi timed[] = {
    { KYMO_POI_SCHED_DELAY, 702100, 1002100, 300000, 1000500 },
    { KYMO_POI_LONG_POLL, 1001000, 3501000, 2500000, 1001000 },
    { KYMO_POI_CPU_SAMPLES, 1001000, 3501000, 2500000, 1001000 },
    { KYMO_POI_WAKE_DELAY, 1002000, 3650000, 2648000, 3650000 },
    { KYMO_POI_UNINSTRUMENTED, 3650000, 3650500, 500, 3650000 },
  };

  kymo_poi_thresholds_init_default (&t);
  tasks = kymo_dial9_tasks_new (trace, &t);
  check_pois (tasks, KYMO_POI_WORST_FIRST, worst, G_N_ELEMENTS (worst));
  g_assert_cmpuint (kymo_dial9_tasks_get_poi (tasks, KYMO_POI_WORST_FIRST, 2)->count, ==, 1);
  check_pois (tasks, KYMO_POI_TIME_ORDER, timed, G_N_ELEMENTS (timed));

  /* Without thresholds, no points (the tasks are the same) */
  {
    g_autoptr(KymoDial9Tasks) none = kymo_dial9_tasks_new (trace, NULL);
    gsize n_rows;

    g_assert_cmpuint (kymo_dial9_tasks_get_n_pois (none), ==, 0);
    kymo_dial9_tasks_get_rows (none, &n_rows);
    g_assert_cmpuint (n_rows, ==, 2);
  }

  /* Thresholds move what counts: nothing here is longer than 10 ms */
  {
    KymoPoiThresholds high = { 10000000, 10000000, 10000000 };
    g_autoptr(KymoDial9Tasks) few = kymo_dial9_tasks_new (trace, &high);

    g_assert_cmpuint (kymo_dial9_tasks_get_n_pois (few), ==, 2);
    g_assert_cmpint (kymo_dial9_tasks_get_poi (few, KYMO_POI_WORST_FIRST, 0)->kind, ==, KYMO_POI_CPU_SAMPLES);
    g_assert_cmpint (kymo_dial9_tasks_get_poi (few, KYMO_POI_WORST_FIRST, 1)->kind, ==, KYMO_POI_UNINSTRUMENTED);
  }
}

static void
cpu_sample (Writer *w, guint64 worker, guint64 ts)
{
  at (w, T_CPU, ts); d9b_varint (w->b, worker); d9b_u32 (w->b, 10); d9b_u8 (w->b, 0); d9b_u8 (w->b, 0);
  d9b_u32 (w->b, 77); d9b_u8 (w->b, 0);
}

/* Worker w polls task w + 1 for 50 µs, the workers' polls overlapping in
 * time, with w + 1 CPU samples in it (the first at its very start, the
 * last at its very end) and one more just after it. Each poll is a point
 * with its own samples only, however many workers there are: a few
 * workers' lanes meet the samples in the trace's array of all of them, a
 * lane per worker in a copy of them by track. */
static void
test_poi_samples (void)
{
  for (guint n_workers = 1; n_workers <= 6; n_workers++)
    {
      Writer w = { g_byte_array_new (), 0 };
      g_autoptr(GByteArray) b = w.b;
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(KymoDial9Tasks) tasks = NULL;
      KymoPoiThresholds t;

      schemas (&w);
      for (guint k = 0; k < n_workers; k++)
        {
          guint64 start = 1000000 + k * 1000, end = start + 50000;

          poll (&w, k, k + 1, 1, start, end);
          for (guint j = 0; j <= k; j++)
            cpu_sample (&w, k, j == k && k > 0 ? end : start + j * 100);
          cpu_sample (&w, k, end + 1);
        }
      trace = load (b);
      kymo_poi_thresholds_init_default (&t);
      tasks = kymo_dial9_tasks_new (trace, &t);
      g_assert_cmpuint (kymo_dial9_tasks_get_n_pois (tasks), ==, n_workers);
      for (guint k = 0; k < n_workers; k++)
        {
          const KymoPoi *poi = kymo_dial9_tasks_get_poi (tasks, KYMO_POI_TIME_ORDER, k);

          g_assert_cmpint (poi->kind, ==, KYMO_POI_CPU_SAMPLES);
          g_assert_cmpint (poi->start, ==, 1000000 + k * 1000);
          g_assert_cmpuint (poi->count, ==, k + 1);
        }
    }
}

/* Every prefix of the scenario (a file cut anywhere): whatever loads is
 * analysed without a crash, and never finds more than the whole file has. */
static void
test_truncated (void)
{
  g_autoptr(GByteArray) b = scenario ();
  KymoPoiThresholds t;

  kymo_poi_thresholds_init_default (&t);
  for (gsize len = 0; len <= b->len; len++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = kymo_test_load_bytes (b->data, len, "dial9", &error);
      g_autoptr(KymoDial9Tasks) tasks = NULL;
      const KymoDial9Task *rows;
      gsize n_rows;

      if (trace == NULL)
        continue;
      tasks = kymo_dial9_tasks_new (trace, &t);
      rows = kymo_dial9_tasks_get_rows (tasks, &n_rows);
      g_assert_cmpuint (n_rows, <=, 2);
      g_assert_cmpuint (kymo_dial9_tasks_get_n_polls (tasks), <=, 3);
      g_assert_cmpuint (kymo_dial9_tasks_get_n_pois (tasks), <=, 5);
      for (gsize r = 0; r < n_rows; r++)
        {
          gsize n;

          kymo_dial9_tasks_get_polls_of (tasks, r, &n);
          g_assert_cmpuint (n, ==, rows[r].polls);
          kymo_dial9_tasks_get_wakes_of (tasks, r, &n);
          g_assert_cmpuint (n, ==, rows[r].wakes);
        }
    }
}

/* A clock sync says trace time 1000 is 1700000000.123456789 s after the
 * epoch: a spawn 1000 ns later is 2023-11-14 22:13:20.123457789 UTC. */
static void
test_absolute_time (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const char *clock[] = { "realtime_ns:9", NULL };
  const char *spawn[] = { "task_id:9", "instrumented:3", NULL };
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoTrace) plain = NULL;
  g_autofree char *utc = NULL;
  g_autofree char *none = NULL;

  d9b_header (b);
  d9b_schema (b, 0, "ClockSyncEvent", TRUE, clock);
  d9b_schema (b, 1, "TaskSpawnEvent", TRUE, spawn);
  d9b_event (b, 0, 1000); d9b_varint (b, G_GUINT64_CONSTANT (1700000000123456789));
  d9b_event (b, 1, 1000); d9b_varint (b, 7); d9b_u8 (b, 1);
  trace = load (b);
  utc = kymo_clock_format_absolute (trace, KYMO_CLOCK_UTC, 2000);
  g_assert_cmpstr (utc, ==, "2023-11-14 22:13:20.123457789 UTC");
  g_assert_null (kymo_clock_fallback_note (trace, KYMO_CLOCK_UTC));
  g_assert_null (kymo_clock_format_absolute (trace, KYMO_CLOCK_RELATIVE, 2000));

  /* Without clock sync: relative, with a note, never a wrong date */
  {
    g_autoptr(GByteArray) p = g_byte_array_new ();

    d9b_header (p);
    d9b_schema (p, 1, "TaskSpawnEvent", TRUE, spawn);
    d9b_event (p, 1, 1000); d9b_varint (p, 7); d9b_u8 (p, 1);
    plain = load (p);
  }
  none = kymo_clock_format_absolute (plain, KYMO_CLOCK_UTC, 1000);
  g_assert_null (none);
  g_assert_nonnull (kymo_clock_fallback_note (plain, KYMO_CLOCK_LOCAL));
}

/* `tasks --clock=utc` prints when a task was spawned and terminated as
 * wall-clock instants, each under its own header: a UTC time is longer
 * than the relative ones the columns were sized for, and pushed the spawn
 * location out from under its header; the terminated time was missing. */
static void
test_tasks_cli_clock (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const char *clock[] = { "realtime_ns:9", NULL };
  const char *spawn[] = { "task_id:9", "instrumented:3", NULL };
  const char *terminate[] = { "task_id:9", NULL };
  const char *cli = g_getenv ("KYMO_CLI");
  g_autofree char *path = NULL, *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const char *spawned = "2023-11-14 22:13:20.123457789 UTC";
  const char *terminated = "2023-11-14 22:13:20.123460789 UTC";
  int fd, status;

  if (cli == NULL)
    {
      g_test_skip ("KYMO_CLI is not set");
      return;
    }
  d9b_header (b);
  d9b_schema (b, 0, "ClockSyncEvent", TRUE, clock);
  d9b_schema (b, 1, "TaskSpawnEvent", TRUE, spawn);
  d9b_schema (b, 2, "TaskTerminateEvent", TRUE, terminate);
  d9b_event (b, 0, 1000); d9b_varint (b, G_GUINT64_CONSTANT (1700000000123456789));
  d9b_event (b, 1, 1000); d9b_varint (b, 7); d9b_u8 (b, 1);
  d9b_event (b, 2, 3000); d9b_varint (b, 7);
  fd = g_file_open_tmp ("kymo-tasks-XXXXXX.bin", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));
  {
    const char *argv[] = { cli, "tasks", "--clock=utc", path, NULL };
    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error);
  }
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpstr (err, ==, "");
  lines = g_strsplit (out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 4);
  g_assert_true (g_str_has_prefix (lines[1], "7 "));
  g_assert_nonnull (strstr (lines[1], spawned));
  g_assert_nonnull (strstr (lines[1], terminated));
  /* each value starts where its header does */
  g_assert_cmpint (strstr (lines[1], spawned) - lines[1], ==, strstr (lines[0], "spawned") - lines[0]);
  g_assert_cmpint (strstr (lines[1], terminated) - lines[1], ==, strstr (lines[0], "terminated") - lines[0]);
  g_assert_cmpint (strstr (lines[1], "(unknown)") - lines[1], ==, strstr (lines[0], "spawned at") - lines[0]);
  g_unlink (path);
}

/* A trace past the size where the records are read in chunks on several
 * threads, with task ids small, beyond 2^32 and near the top of the range:
 * each task's polls, poll times and wakes equal a count made while writing
 * it, and every poll leads back to its own row. */
#define BIG_TASKS 1000
#define BIG_POLLS 600000

static guint64
big_task_id (guint k)
{
  if (k < 900)
    return k + 1;
  if (k < 950)
    return (G_GUINT64_CONSTANT (1) << 40) + k;
  return G_MAXUINT64 - k;
}

typedef struct {
  guint64  polls;
  KymoTime total;
  KymoTime max;
  guint64  wakes;
} BigExpected;

static int
compare_u64 (const void *a,
             const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static gpointer
prepare_polls_thread (gpointer data)
{
  kymo_dial9_tasks_prepare_polls (data);
  kymo_dial9_tasks_free (data);
  return NULL;
}

/* The app places each task's polls and wakes on a thread of its own once
 * the table shows, while a selection may already ask for them: asked
 * meanwhile, they are the same as when placed alone, and the reference
 * the thread holds keeps them. */
static void
check_placed_meanwhile (KymoTrace      *trace,
                        KymoDial9Tasks *placed)
{
  KymoDial9Tasks *tasks = kymo_dial9_tasks_new (trace, NULL);
  GThread *thread = g_thread_new ("prepare", prepare_polls_thread, kymo_dial9_tasks_ref (tasks));
  gsize n_rows;

  kymo_dial9_tasks_get_rows (tasks, &n_rows);
  for (guint r = n_rows; r-- > 0;)
    {
      const KymoDial9PollRef *polls, *expected_polls;
      const guint32 *wakes, *expected_wakes;
      gsize n, n_expected;

      polls = kymo_dial9_tasks_get_polls_of (tasks, r, &n);
      expected_polls = kymo_dial9_tasks_get_polls_of (placed, r, &n_expected);
      g_assert_cmpmem (polls, n * sizeof *polls, expected_polls, n_expected * sizeof *expected_polls);
      wakes = kymo_dial9_tasks_get_wakes_of (tasks, r, &n);
      expected_wakes = kymo_dial9_tasks_get_wakes_of (placed, r, &n_expected);
      g_assert_cmpmem (wakes, n * sizeof *wakes, expected_wakes, n_expected * sizeof *expected_wakes);
    }
  kymo_dial9_tasks_free (tasks);
  g_thread_join (thread);
}

static void
test_tasks_big (void)
{
  Writer w = { g_byte_array_new (), 0 };
  g_autoptr(GByteArray) b = w.b;
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  const KymoDial9Task *rows;
  guint64 ids[BIG_TASKS];
  guint64 t = 1000000, seed = 12345, n_polls = 0;
  gsize n_rows;

  for (guint k = 0; k < BIG_TASKS; k++)
    {
      gint64 *key = g_new (gint64, 1);

      *key = (gint64) big_task_id (k);
      g_hash_table_insert (expected, key, g_new0 (BigExpected, 1));
      ids[k] = big_task_id (k);
    }
  schemas (&w);
  for (guint i = 0; i < BIG_POLLS; i++)
    {
      guint64 task, woken;
      KymoTime dur;
      BigExpected *e;

      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      task = big_task_id ((guint) ((seed >> 33) % BIG_TASKS));
      woken = big_task_id ((guint) ((seed >> 13) % BIG_TASKS));
      dur = 100 + (KymoTime) ((seed >> 45) % 5000);
      poll (&w, i % 4, task, 1, t, t + (guint64) dur);
      e = g_hash_table_lookup (expected, &(gint64) { (gint64) task });
      e->polls++;
      e->total += dur;
      e->max = MAX (e->max, dur);
      t += (guint64) dur + 10;
      wake (&w, task, woken, t);
      e = g_hash_table_lookup (expected, &(gint64) { (gint64) woken });
      e->wakes++;
      t += 10;
    }

  trace = load (b);
  /* Enough records for the chunked, multi-threaded pass. */
  kymo_records_get_all (kymo_trace_get_records (trace), &n_rows);
  g_assert_cmpuint (n_rows, >=, 1000000);
  tasks = kymo_dial9_tasks_new (trace, NULL);
  rows = kymo_dial9_tasks_get_rows (tasks, &n_rows);
  qsort (ids, BIG_TASKS, sizeof ids[0], compare_u64);
  g_assert_cmpuint (n_rows, ==, BIG_TASKS);
  for (guint r = 0; r < n_rows; r++)
    {
      const BigExpected *e = g_hash_table_lookup (expected, &(gint64) { (gint64) rows[r].task_id });
      const KymoDial9PollRef *polls;
      gsize n;

      /* Rows by task id. */
      g_assert_cmpuint (rows[r].task_id, ==, ids[r]);
      g_assert_nonnull (e);
      g_assert_cmpuint (rows[r].polls, ==, e->polls);
      g_assert_cmpint (rows[r].poll_total, ==, e->total);
      g_assert_cmpint (rows[r].poll_max, ==, e->max);
      g_assert_cmpuint (rows[r].wakes, ==, e->wakes);
      g_assert_cmpuint (kymo_dial9_tasks_find_task (tasks, rows[r].task_id), ==, r);
      polls = kymo_dial9_tasks_get_polls_of (tasks, r, &n);
      g_assert_cmpuint (n, ==, e->polls);
      for (gsize i = 0; i < n; i++)
        {
          const KymoSpan *span = span_of (trace, &polls[i]);

          g_assert_cmpuint (kymo_dial9_tasks_find_poll (tasks, polls[i].track, polls[i].span), ==, r);
          g_assert_cmpint (span->end - span->start, <=, e->max);
        }
      kymo_dial9_tasks_get_wakes_of (tasks, r, &n);
      g_assert_cmpuint (n, ==, e->wakes);
      n_polls += e->polls;
    }
  g_assert_cmpuint (n_polls, ==, BIG_POLLS);
  g_assert_cmpuint (kymo_dial9_tasks_get_n_polls (tasks), ==, BIG_POLLS);
  check_placed_meanwhile (trace, tasks);
}

/* The order the points must come in, by a plain stable sort. */
static const KymoPoi *order_of;

static int
compare_time_order (gconstpointer a,
                    gconstpointer b)
{
  const KymoPoi *x = &order_of[*(const guint32 *) a], *y = &order_of[*(const guint32 *) b];

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->track != y->track)
    return x->track < y->track ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : *(const guint32 *) a > *(const guint32 *) b;
}

static int
compare_worst (gconstpointer a,
               gconstpointer b)
{
  const KymoPoi *x = &order_of[*(const guint32 *) a], *y = &order_of[*(const guint32 *) b];

  if (x->severity != y->severity)
    return x->severity > y->severity ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : *(const guint32 *) a > *(const guint32 *) b;
}

/* @pois as found, with @lane's points (if any) found after the first
 * @lanes_at of them. */
static void
check_poi_order (const KymoPoi          *pois,
                 guint32                 n,
                 guint32                 lanes_at,
                 const KymoDial9PoiLane *lane,
                 gsize                   parallel_min)
{
  guint32 n_all = n + (lane != NULL ? lane->n : 0), n_out = 0;
  g_autofree KymoPoi *all = g_new (KymoPoi, MAX (n_all, 1));
  g_autofree guint32 *by_time = g_new (guint32, MAX (n_all, 1));
  g_autofree guint32 *by_worst = g_new (guint32, MAX (n_all, 1));
  g_autofree guint32 *worst = NULL, *ids = NULL;
  g_autofree KymoPoi *timed = g_new (KymoPoi, MAX (n_all, 1));
  guint32 k = 0;

  for (guint32 i = 0; i < lanes_at; i++)
    all[k++] = pois[i];
  for (guint32 j = 0; lane != NULL && j < lane->n; j++)
    {
      const KymoSpan *span = &lane->spans[lane->index[j]];

      all[k++] = (KymoPoi) { span->start, span->end, span->end - span->start, KYMO_POI_UNINSTRUMENTED, lane->track,
                             (guint32) (lane->first + lane->index[j]), 0 };
    }
  for (guint32 i = lanes_at; i < n; i++)
    all[k++] = pois[i];
  for (guint32 i = 0; i < n_all; i++)
    by_time[i] = by_worst[i] = i;
  order_of = all;
  qsort (by_time, n_all, sizeof (guint32), compare_time_order);
  ids = _kymo_dial9_pois_order (pois, n, lanes_at, lane, lane != NULL ? 1 : 0, parallel_min, &n_out, &worst);
  g_assert_cmpuint (n_out, ==, n_all);
  for (guint32 i = 0; i < n_all; i++)
    {
      _kymo_dial9_poi_from_id (pois, n, lane, ids[i], &timed[i]);
      g_assert_cmpmem (&timed[i], sizeof (KymoPoi), &all[by_time[i]], sizeof (KymoPoi));
    }
  order_of = timed;
  qsort (by_worst, n_all, sizeof (guint32), compare_worst);
  for (guint32 i = 0; i < n_all; i++)
    g_assert_cmpuint (worst[i], ==, by_worst[i]);
}

/* Points come as the lanes find them: runs in time order (a lane's polls)
 * then delays in any order. Each shape takes a different way to the same
 * orders: a few runs and a short tail are merged, many runs are sorted,
 * severities days apart (or far negative) do not fit a short key; ties
 * keep the order the points were found in. */
static void
test_poi_order (void)
{
  guint64 seed = 99;
  guint32 n = 20000, n_spans = 12000;
  g_autofree KymoPoi *pois = g_new0 (KymoPoi, n);
  g_autofree KymoSpan *spans = g_new0 (KymoSpan, n_spans);
  g_autofree guint32 *index = g_new (guint32, n_spans);
  KymoDial9PoiLane lane = { spans, 100, 1, index, 0 };

  /* A lane's spans rising, some at one start, some taking no time; every
   * third span a poll of an uninstrumented task. */
  for (guint32 i = 0; i < n_spans; i++)
    {
      spans[i].start = 1000 + (KymoTime) i / 2 * 700;
      spans[i].end = spans[i].start + (i % 5 == 0 ? 300 : 0);
      if (i % 3 == 0)
        index[lane.n++] = i;
    }

  for (guint shape = 0; shape < 6; shape++)
    {
      guint32 run_len = shape == 1 ? 7 : 4000;

      for (guint32 i = 0; i < n; i++)
        {
          KymoPoi *p = &pois[i];

          seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
          if (i < n * 3 / 4)
            /* Runs: starts rising within each, often equal. */
            p->start = 1000 + (KymoTime) (i % run_len) / 3 * 1000;
          else
            p->start = (KymoTime) ((seed >> 20) % 2000000);
          p->kind = (KymoPoiKind) ((seed >> 40) % KYMO_POI_N_KINDS);
          /* Within a run, kind and track must not go back at one start. */
          if (i < n * 3 / 4)
            p->kind = (KymoPoiKind) ((i % run_len) % 3 == 0 ? 1 : 4);
          p->track = i < n * 3 / 4 ? (i / run_len) % 3 : (guint32) ((seed >> 50) % 5);
          p->severity = (KymoTime) ((seed >> 30) % 64) * 100;
          if (shape == 2 && i % 1000 == 0)
            p->severity = G_GINT64_CONSTANT (1) << 55; /* a year */
          /* A damaged clock: a few far-off severities, either side, some
           * equal, among the usual ones. */
          if (shape == 4 && i % 97 == 0)
            p->severity = (KymoTime) (seed & G_GUINT64_CONSTANT (0xf000000000000003));
          if (shape == 3)
            p->start -= G_GINT64_CONSTANT (1) << 62;
          /* Most points take no time (uninstrumented tasks' polls); the
           * others of every magnitude, some equal. */
          if (shape == 5)
            p->severity = i % 8 != 0 ? 0 : (KymoTime) ((seed >> 8) & ((G_GUINT64_CONSTANT (1) << ((seed >> 2) % 50)) - 1));
          p->span = i;
          p->end = p->start + p->severity;
        }
      /* On one thread, and merged in halves on the parts' threads; with
       * a lane's polls of uninstrumented tasks after the runs, before
       * the delays, as the lanes' pass finds them. */
      check_poi_order (pois, n, n, NULL, G_MAXSIZE);
      check_poi_order (pois, n, n, NULL, 0);
      check_poi_order (pois, n, n * 3 / 4, &lane, G_MAXSIZE);
      check_poi_order (pois, n, n * 3 / 4, &lane, 0);
    }
  check_poi_order (pois, 0, 0, NULL, 0);
  check_poi_order (pois, 1, 0, NULL, 0);
  check_poi_order (pois, 0, 0, &lane, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dial9-analysis/tasks", test_tasks);
  g_test_add_func ("/dial9-analysis/tasks-out-of-order", test_tasks_out_of_order);
  g_test_add_func ("/dial9-analysis/tasks-big", test_tasks_big);
  g_test_add_func ("/dial9-analysis/tasks-cli", test_tasks_cli);
  g_test_add_func ("/dial9-analysis/tasks-cli-clock", test_tasks_cli_clock);
  g_test_add_func ("/dial9-analysis/cpu-records", test_cpu_records);
  g_test_add_func ("/dial9-analysis/pois", test_pois);
  g_test_add_func ("/dial9-analysis/poi-samples", test_poi_samples);
  g_test_add_func ("/dial9-analysis/poi-order", test_poi_order);
  g_test_add_func ("/dial9-analysis/truncated", test_truncated);
  g_test_add_func ("/dial9-analysis/absolute-time", test_absolute_time);
  return g_test_run ();
}
