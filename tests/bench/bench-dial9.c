/* bench-dial9.c: load throughput of a generated ≥ 200 MB dial9 trace, beside cksum
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include "kymo-analysis.h"
#include "kymo-bench.h"
#include "../dial9/dial9-builder.h"

#define TARGET_BYTES (210u * 1024 * 1024)
#define N_WORKERS    4
#define N_TASKS      5000

/* A runtime as dial9-tokio-telemetry writes it: polls, parks, wakes, CPU
 * samples, queue samples, tracing spans; a new segment every
 * @segment_limit bytes or so (real files hold batches of 0.1–4 MB, each
 * a segment of its own). */
static guint64
generate (const char *path,
          guint64     segment_limit)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *park[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "tid:13", NULL };
  const char *unpark[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "sched_wait_ns:9", "tid:13", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *queue[] = { "global_queue:11", NULL };
  const char *cpu[] = { "worker_id:9", "tid:13", "source:11", "thread_name:135", "callchain:6", "cpu:137", NULL };
  const char *enter[] = { "worker_id:9", "span_id:9", "parent_span_id:137", "span_name:7", NULL };
  const char *exit_[] = { "worker_id:9", "span_id:9", "span_name:7", NULL };
  g_autoptr(GByteArray) b = g_byte_array_sized_new (1 << 20);
  FILE *f = fopen (path, "wb");
  guint64 written = 0, events = 0, ts = 1000000000, base = 0, segment_bytes = 0;
  guint32 rng = 12345;
  const guint64 frames[] = { 0x55550000, 0x55551000, 0x55552000, 0x55553000 };

  g_assert (f != NULL);
  while (written < TARGET_BYTES)
    {
      if (segment_bytes == 0)
        {
          d9b_header (b);
          d9b_schema (b, 0, "PollStartEvent", TRUE, poll_start);
          d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
          d9b_schema (b, 2, "WorkerParkEvent", TRUE, park);
          d9b_schema (b, 3, "WorkerUnparkEvent", TRUE, unpark);
          d9b_schema (b, 4, "WakeEventEvent", TRUE, wake);
          d9b_schema (b, 5, "QueueSampleEvent", TRUE, queue);
          d9b_schema (b, 6, "CpuSampleEvent", TRUE, cpu);
          d9b_schema (b, 7, "SpanEnter:app::handler:src/main.rs:10", TRUE, enter);
          d9b_schema (b, 8, "SpanExit:app::handler:src/main.rs:10", TRUE, exit_);
          for (guint i = 0; i < 16; i++)
            {
              g_autofree char *loc = g_strdup_printf ("src/service/module_%u.rs:%u:9", i, 10 + i);
              d9b_pool (b, i, loc);
            }
          d9b_pool (b, 100, "handler");
          d9b_stack_pool (b, 200, frames, 4);
          base = 0;
        }

      for (guint round = 0; round < 1000; round++)
        {
          guint w = round % N_WORKERS;
          guint task = (rng = rng * 1103515245 + 12345) >> 8;
          guint64 t;

          task %= N_TASKS;
#define STEP(dt)                                   \
          do {                                     \
            ts += (dt);                            \
            t = ts - base;                         \
            if (t > 0xFFFFFF)                      \
              {                                    \
                d9b_reset (b, ts);                 \
                base = ts;                         \
                t = 0;                             \
              }                                    \
            base = ts;                             \
          } while (0)

          STEP (700);
          d9b_event (b, 0, (gint32) t); d9b_varint (b, w); d9b_u8 (b, task % 4); d9b_varint (b, task + 1);
          d9b_u32 (b, task % 16);
          STEP (300);
          d9b_event (b, 4, (gint32) t); d9b_varint (b, task + 1); d9b_varint (b, (task * 7) % N_TASKS + 1); d9b_u8 (b, 255);
          if (round % 4 == 0)
            {
              STEP (200);
              d9b_event (b, 7, (gint32) t); d9b_varint (b, w); d9b_varint (b, round + 1); d9b_u8 (b, 0); d9b_u32 (b, 100);
              STEP (900);
              d9b_event (b, 8, (gint32) t); d9b_varint (b, w); d9b_varint (b, round + 1); d9b_u32 (b, 100);
              events += 2;
            }
          STEP (1500);
          d9b_event (b, 1, (gint32) t); d9b_varint (b, w);
          events += 3;
          if (round % 8 == 0)
            {
              STEP (400);
              d9b_event (b, 2, (gint32) t); d9b_varint (b, w); d9b_u8 (b, 0); d9b_varint (b, ts / 3); d9b_u32 (b, 4000 + w);
              STEP (20000);
              d9b_event (b, 3, (gint32) t); d9b_varint (b, w); d9b_u8 (b, 1); d9b_varint (b, ts / 3); d9b_varint (b, 1500);
              d9b_u32 (b, 4000 + w);
              events += 2;
            }
          if (round % 50 == 0)
            {
              STEP (100);
              d9b_event (b, 6, (gint32) t); d9b_varint (b, w); d9b_u32 (b, 4000 + w); d9b_u8 (b, 0); d9b_u8 (b, 0);
              d9b_u32 (b, 200); d9b_u8 (b, 1); d9b_varint (b, w);
              events++;
            }
          if (round % 100 == 0)
            {
              STEP (50);
              d9b_event (b, 5, (gint32) t); d9b_u8 (b, round % 7);
              events++;
            }
#undef STEP
        }
      g_assert (fwrite (b->data, 1, b->len, f) == b->len);
      written += b->len;
      segment_bytes += b->len;
      if (segment_bytes >= segment_limit)
        segment_bytes = 0;
      g_byte_array_set_size (b, 0);
    }
  fclose (f);
  return events;
}

int
main (void)
{
  /* KYMO_BENCH_DIR keeps the generated file there and reuses it;
   * KYMO_BENCH_RUNS sets the number of loads (for profiling);
   * KYMO_BENCH_DIAL9_SEGMENT_MB the segment size (4 MiB: the largest seen
   * in real files; a decoder can only start a thread at a segment). */
  const char *keep = g_getenv ("KYMO_BENCH_DIR");
  const char *segment_env = g_getenv ("KYMO_BENCH_DIAL9_SEGMENT_MB");
  guint segment_mb = segment_env != NULL ? CLAMP (atoi (segment_env), 1, 1024) : 4;
  g_autofree char *dir = keep ? g_strdup (keep) : kymo_bench_scratch_dir ();
  g_autofree char *name = g_strdup_printf ("bench-seg%u.bin", segment_mb);
  g_autofree char *count_name = g_strdup_printf ("bench-seg%u.events", segment_mb);
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *count_path = g_build_filename (dir, count_name, NULL);
  const char *paths[] = { path };
  g_autoptr(GError) error = NULL;
  guint runs = g_getenv ("KYMO_BENCH_RUNS") ? MAX (1, atoi (g_getenv ("KYMO_BENCH_RUNS"))) : 3;
  g_autofree double *times = g_new (double, runs);
  double load_s, cksum_s, size_mb;
  guint64 events = 0, spans, instants, samples;
  gsize heap_per_event = 0, size = 0;
  g_autofree char *count_text = NULL;
  double cpu_s = 0;
  g_autofree double *fold_times = g_new (double, runs);
  gint64 folded = 0;

  if (keep)
    g_mkdir_with_parents (dir, 0755);
  if (keep && g_file_test (path, G_FILE_TEST_EXISTS) &&
      g_file_get_contents (count_path, &count_text, NULL, NULL))
    events = g_ascii_strtoull (count_text, NULL, 10);
  else
    {
      events = generate (path, (guint64) segment_mb << 20);
      if (keep)
        {
          g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, events);
          g_file_set_contents (count_path, text, -1, NULL);
        }
    }
  {
    g_autoptr(GMappedFile) mf = g_mapped_file_new (path, FALSE, NULL);
    size = g_mapped_file_get_length (mf);
  }
  size_mb = size / 1e6;

  for (guint r = 0; r < runs; r++)
    {
      gsize heap0 = kymo_bench_heap_bytes ();
      g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);
      g_autoptr(KymoTrace) trace = NULL;
      struct rusage u0, u1;
      gint64 t0;

      g_assert_no_error (error);
      getrusage (RUSAGE_SELF, &u0);
      t0 = g_get_monotonic_time ();
      trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
      times[r] = (g_get_monotonic_time () - t0) / 1e6;
      getrusage (RUSAGE_SELF, &u1);
      /* User + system time of all the load's threads. */
      cpu_s += (u1.ru_utime.tv_sec - u0.ru_utime.tv_sec) + (u1.ru_utime.tv_usec - u0.ru_utime.tv_usec) / 1e6 +
               (u1.ru_stime.tv_sec - u0.ru_stime.tv_sec) + (u1.ru_stime.tv_usec - u0.ru_stime.tv_usec) / 1e6;
      g_assert_no_error (error);
      g_assert_null (kymo_trace_get_stop_error (trace));
      heap_per_event = (kymo_bench_heap_bytes () - heap0) / MAX (events, 1);
      kymo_trace_count_events (trace, &spans, &instants, &samples, NULL);
      {
        /* the flame graph's sample fold (kymo-cli flamegraph --samples) */
        gint64 f0 = g_get_monotonic_time ();
        g_autoptr(KymoCallTree) tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SAMPLES, KYMO_TIME_NONE,
                                                             KYMO_TIME_NONE, NULL, 0, NULL, NULL);

        fold_times[r] = (g_get_monotonic_time () - f0) / 1e6;
        folded = kymo_call_tree_get_nodes (tree, NULL)[0].total;
      }
    }
  load_s = kymo_bench_median (times, runs);
  cksum_s = kymo_bench_cksum_seconds (paths, 1, 3);

  printf ("dial9: %.1f MB in segments of %u MiB, %" G_GUINT64_FORMAT " events (%" G_GUINT64_FORMAT " spans, %"
          G_GUINT64_FORMAT " instants, %" G_GUINT64_FORMAT " samples)\n", size_mb, segment_mb, events, spans, instants,
          samples);
  printf ("dial9 load:  %.3f s  %.0f MB/s\n", load_s, size_mb / load_s);
  printf ("load CPU:    %.3f s per load (user + system, all threads, mean)\n", cpu_s / runs);
  printf ("cksum:       %.3f s  %.0f MB/s\n", cksum_s, size_mb / cksum_s);
  printf ("fold samples: %.4f s for %" G_GINT64_FORMAT " samples = %.2f %% of load (target ≤ 10 %%)\n",
          kymo_bench_median (fold_times, runs), folded, 100 * kymo_bench_median (fold_times, runs) / load_s);
  printf ("heap:        %" G_GSIZE_FORMAT " bytes per event (trace held, input mapped)\n", heap_per_event);

  if (!keep)
    {
      g_unlink (path);
      g_rmdir (dir);
    }
  return 0;
}
