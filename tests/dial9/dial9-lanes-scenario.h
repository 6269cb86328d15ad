/* dial9-lanes-scenario.h: a two-runtime dial9 trace with known CPU clocks, samples and wakes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dial9-builder.h"
#include "kymo-trace.h"

G_BEGIN_DECLS

/* Runtime "alpha" runs workers 0 and 1, runtime "beta" worker 2.
 * Worker 0 is active 1–2 ms (250 µs on CPU: 25 %) and 3–4 ms (750 µs:
 * 75 %), polls task 1 at 1.1–1.6 ms (a CPU sample at 1.2 ms, a scheduler
 * sample at 1.3 ms) and 3.1–3.2 ms. Worker 1 is active 1–3 ms, all of it
 * on CPU (100 %), and polls task 2 at 2.4–2.6 ms, which wakes task 1 at
 * 2.5 ms. Worker 2 parks at 0.5 ms (no period: nothing before it), then is
 * active 1–2 ms without using the CPU (0 %), polling task 3 at 1.5–1.7 ms. */
#define D9L_US 1000

enum {
  D9L_META, D9L_POLL_START, D9L_POLL_END, D9L_PARK, D9L_UNPARK, D9L_SPAWN, D9L_WAKE, D9L_CPU,
};

typedef struct {
  GByteArray *b;
  guint64     base;
} D9LWriter;

static inline void
d9l_at (D9LWriter *w,
        guint16    type,
        guint64    ts)
{
  if (ts < w->base || ts - w->base > 0xFFFFFF)
    {
      d9b_reset (w->b, ts);
      w->base = ts;
    }
  d9b_event (w->b, type, (gint32) (ts - w->base));
  w->base = ts;
}

static inline void
d9l_park (D9LWriter *w, gboolean unpark, guint64 worker, guint64 ts, guint64 cpu)
{
  d9l_at (w, unpark ? D9L_UNPARK : D9L_PARK, ts);
  d9b_varint (w->b, worker); d9b_u8 (w->b, 0); d9b_varint (w->b, cpu);
  if (unpark)
    d9b_varint (w->b, 0);
  d9b_u32 (w->b, (guint32) (100 + worker));
}

static inline void
d9l_poll (D9LWriter *w, gboolean start, guint64 worker, guint64 task, guint64 ts)
{
  d9l_at (w, start ? D9L_POLL_START : D9L_POLL_END, ts);
  d9b_varint (w->b, worker);
  if (start)
    {
      d9b_u8 (w->b, 0); d9b_varint (w->b, task); d9b_u32 (w->b, 1);
    }
}

static inline void
d9l_sample (D9LWriter *w, guint64 worker, guint8 source, guint64 ts)
{
  d9l_at (w, D9L_CPU, ts);
  d9b_varint (w->b, worker); d9b_u32 (w->b, (guint32) (100 + worker)); d9b_u8 (w->b, source);
  d9b_u8 (w->b, 0); d9b_u32 (w->b, 77); d9b_u8 (w->b, 0);
}

static inline GByteArray *
d9l_scenario (void)
{
  const char *meta[] = { "entries:10", NULL };
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *park[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "tid:13", NULL };
  const char *unpark[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "sched_wait_ns:9", "tid:13", NULL };
  const char *spawn[] = { "task_id:9", "spawn_loc:7", "instrumented:3", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *cpu[] = { "worker_id:9", "tid:13", "source:11", "thread_name:135", "callchain:6", "cpu:137", NULL };
  D9LWriter w = { g_byte_array_new (), 0 };
  const guint64 us = D9L_US;

  d9b_header (w.b);
  d9b_schema (w.b, D9L_META, "SegmentMetadataEvent", TRUE, meta);
  d9b_schema (w.b, D9L_POLL_START, "PollStartEvent", TRUE, poll_start);
  d9b_schema (w.b, D9L_POLL_END, "PollEndEvent", TRUE, poll_end);
  d9b_schema (w.b, D9L_PARK, "WorkerParkEvent", TRUE, park);
  d9b_schema (w.b, D9L_UNPARK, "WorkerUnparkEvent", TRUE, unpark);
  d9b_schema (w.b, D9L_SPAWN, "TaskSpawnEvent", TRUE, spawn);
  d9b_schema (w.b, D9L_WAKE, "WakeEventEvent", TRUE, wake);
  d9b_schema (w.b, D9L_CPU, "CpuSampleEvent", TRUE, cpu);
  d9b_pool (w.b, 1, "src/main.rs:1:1");

  d9l_park (&w, FALSE, 2, 500 * us, 7);
  for (guint64 task = 1; task <= 3; task++)
    {
      d9l_at (&w, D9L_SPAWN, 900 * us);
      d9b_varint (w.b, task); d9b_u32 (w.b, 1); d9b_u8 (w.b, 1);
    }
  d9l_at (&w, D9L_META, 1000 * us);
  d9b_u32 (w.b, 2);
  d9b_str32 (w.b, "runtime.alpha"); d9b_str32 (w.b, "0,1");
  d9b_str32 (w.b, "runtime.beta"); d9b_str32 (w.b, "2");
  d9l_park (&w, TRUE, 0, 1000 * us, 5000000);
  d9l_park (&w, TRUE, 1, 1000 * us, 100);
  d9l_park (&w, TRUE, 2, 1000 * us, 10);
  d9l_poll (&w, TRUE, 0, 1, 1100 * us);
  d9l_sample (&w, 0, 0, 1200 * us);
  d9l_sample (&w, 0, 1, 1300 * us);
  d9l_poll (&w, TRUE, 2, 3, 1500 * us);
  d9l_poll (&w, FALSE, 0, 1, 1600 * us);
  d9l_poll (&w, FALSE, 2, 3, 1700 * us);
  d9l_park (&w, FALSE, 0, 2000 * us, 5250000);
  d9l_park (&w, FALSE, 2, 2000 * us, 10);
  d9l_poll (&w, TRUE, 1, 2, 2400 * us);
  d9l_at (&w, D9L_WAKE, 2500 * us);
  d9b_varint (w.b, 2); d9b_varint (w.b, 1); d9b_u8 (w.b, 255);
  d9l_poll (&w, FALSE, 1, 2, 2600 * us);
  d9l_park (&w, FALSE, 1, 3000 * us, 2000100);
  d9l_park (&w, TRUE, 0, 3000 * us, 5250000);
  d9l_poll (&w, TRUE, 0, 1, 3100 * us);
  d9l_poll (&w, FALSE, 0, 1, 3200 * us);
  d9l_park (&w, FALSE, 0, 4000 * us, 6000000);
  return w.b;
}

/* The track called @name (the scenario's names are unique). */
static inline guint
d9l_find_track (KymoTrace  *trace,
                const char *name)
{
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    if (g_strcmp0 (kymo_track_get_name (kymo_trace_get_track (trace, i)), name) == 0)
      return i;
  g_assert_not_reached ();
  return KYMO_NO_TRACK;
}

G_END_DECLS
