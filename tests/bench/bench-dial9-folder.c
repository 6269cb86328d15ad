/* bench-dial9-folder.c: a folder of rotated gzip dial9 segments, beside zcat
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "kymo-analysis.h"
#include "kymo-bench.h"
#include "../dial9/dial9-builder.h"

#define N_WORKERS 4
#define N_TASKS   2000

typedef struct {
  GByteArray *b;
  guint64     base;
} Out;

static void
at (Out     *o,
    guint16  type,
    guint64  ts)
{
  if (ts < o->base || ts - o->base > 0xFFFFFF)
    {
      d9b_reset (o->b, ts);
      o->base = ts;
    }
  d9b_event (o->b, type, (gint32) (ts - o->base));
  o->base = ts;
}

static void
schemas (Out *o)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *park[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "tid:13", NULL };
  const char *unpark[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "sched_wait_ns:9", "tid:13", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *cpu[] = { "worker_id:9", "tid:13", "source:11", "thread_name:135", "callchain:6", "cpu:137", NULL };
  const char *spawn[] = { "task_id:9", "spawn_loc:7", "instrumented:3", NULL };

  d9b_header (o->b);
  o->base = 0;
  d9b_schema (o->b, 0, "PollStartEvent", TRUE, poll_start);
  d9b_schema (o->b, 1, "PollEndEvent", TRUE, poll_end);
  d9b_schema (o->b, 2, "WorkerParkEvent", TRUE, park);
  d9b_schema (o->b, 3, "WorkerUnparkEvent", TRUE, unpark);
  d9b_schema (o->b, 4, "WakeEventEvent", TRUE, wake);
  d9b_schema (o->b, 5, "CpuSampleEvent", TRUE, cpu);
  d9b_schema (o->b, 6, "TaskSpawnEvent", TRUE, spawn);
  for (guint i = 0; i < 16; i++)
    {
      g_autofree char *loc = g_strdup_printf ("/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
                                              "app-0.1.0/src/service/module_%u.rs:%u:9", i, 10 + i);
      d9b_pool (o->b, i, loc);
    }
  for (guint s = 0; s < 8; s++)
    {
      guint64 frames[12];

      for (guint k = 0; k < G_N_ELEMENTS (frames); k++)
        frames[k] = 0x555500000000 + (guint64) ((s * 7 + k * 13) % 64) * 0x100 + k;
      d9b_stack_pool (o->b, 200 + s, frames, G_N_ELEMENTS (frames));
    }
}

/* One file: a batch per worker thread, each a segment of its own covering
 * the same stretch of time (so the file is not in time order, as real
 * ones are not), then the symbolizer's table. About @raw bytes. */
static GByteArray *
segment_file (guint   index,
              gsize   raw,
              guint32 *rng)
{
  const char *sym[] = { "addr:9", "size:9", "symbol_name:7", "inline_depth:9", "source_file:7", "source_line:9", NULL };
  Out o = { g_byte_array_sized_new (raw + 4096), 0 };
  guint64 window = 2000000000, start = 1000000000 + (guint64) index * window;

  for (guint w = 0; w < N_WORKERS; w++)
    {
      guint64 ts = start + w * 37;
      guint task = ((*rng = *rng * 1103515245 + 12345) >> 8) % N_TASKS, prev = task;

      schemas (&o);
      while (ts < start + window && o.b->len < raw * (w + 1) / N_WORKERS)
        {
          /* The task polled last wakes the next one a little before its
           * poll, as a request handed from task to task does. */
          at (&o, 4, ts); d9b_varint (o.b, prev + 1); d9b_varint (o.b, task + 1); d9b_u8 (o.b, 255);
          ts += 200 + *rng % 3000;
          at (&o, 0, ts); d9b_varint (o.b, w); d9b_u8 (o.b, task % 5); d9b_varint (o.b, task + 1); d9b_u32 (o.b, task % 16);
          if (task % 9 == 0)
            {
              at (&o, 5, ts + 300); d9b_varint (o.b, w); d9b_u32 (o.b, 4000 + w); d9b_u8 (o.b, task % 2); d9b_u8 (o.b, 0);
              d9b_u32 (o.b, 200 + task % 8); d9b_u8 (o.b, 1); d9b_varint (o.b, w);
            }
          ts += 500 + (task % 97 == 0 ? 1500000 : *rng % 4000);
          at (&o, 1, ts); d9b_varint (o.b, w);
          if (task % 11 == 0)
            {
              at (&o, 2, ts + 100); d9b_varint (o.b, w); d9b_u8 (o.b, 0); d9b_varint (o.b, ts / 3); d9b_u32 (o.b, 4000 + w);
              ts += 20000;
              at (&o, 3, ts); d9b_varint (o.b, w); d9b_u8 (o.b, 1); d9b_varint (o.b, ts / 3);
              d9b_varint (o.b, *rng % 200000); d9b_u32 (o.b, 4000 + w);
            }
          if (task % 50 == 0)
            {
              at (&o, 6, ts + 10); d9b_varint (o.b, task + 1); d9b_u32 (o.b, task % 16); d9b_u8 (o.b, 1);
            }
          ts += 100;
          prev = task;
          task = ((*rng = *rng * 1103515245 + 12345) >> 8) % N_TASKS;
        }
    }
  /* The symbolizer's segment, timestamp 0 */
  d9b_header (o.b);
  o.base = 0;
  d9b_schema (o.b, 0, "SymbolTableEntry", TRUE, sym);
  d9b_pool (o.b, 1, "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/app-0.1.0/src/lib.rs");
  for (guint a = 0; a < 64; a++)
    {
      g_autofree char *name = g_strdup_printf ("app::module_%u::function_%u", a % 16, a);

      d9b_pool (o.b, 10 + a, name);
      d9b_event (o.b, 0, 0); d9b_varint (o.b, 0x555500000000 + (guint64) a * 0x100); d9b_varint (o.b, 0x100);
      d9b_u32 (o.b, 10 + a); d9b_varint (o.b, 0); d9b_u32 (o.b, 1); d9b_varint (o.b, 10 + a);
    }
  return o.b;
}

static GByteArray *
gzip_bytes (const guint8 *data,
            gsize         len)
{
  GByteArray *out = g_byte_array_sized_new (len / 3);
  z_stream z = { 0 };
  guint8 buf[1 << 16];
  int ret;

  g_assert (deflateInit2 (&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK);
  z.next_in = (Bytef *) data;
  z.avail_in = (uInt) len;
  do
    {
      z.next_out = buf;
      z.avail_out = sizeof buf;
      ret = deflate (&z, Z_FINISH);
      g_byte_array_append (out, buf, sizeof buf - z.avail_out);
    }
  while (ret != Z_STREAM_END);
  deflateEnd (&z);
  return out;
}

static double
zcat_seconds (GPtrArray *paths,
              guint      runs)
{
  g_autofree double *times = g_new (double, runs);
  g_autoptr(GString) cmd = g_string_new ("zcat");

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *quoted = g_shell_quote (g_ptr_array_index (paths, i));
      g_string_append_printf (cmd, " %s", quoted);
    }
  g_string_append (cmd, " > /dev/null");
  for (guint r = 0; r < runs; r++)
    {
      const char *argv[] = { "sh", "-c", cmd->str, NULL };
      gint64 t0 = g_get_monotonic_time ();

      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
      times[r] = (g_get_monotonic_time () - t0) / 1e6;
    }
  return kymo_bench_median (times, runs);
}

int
main (void)
{
  /* KYMO_BENCH_DIAL9_FILES / _FILE_MB: how many files and their size
   * before gzip (defaults: 100 files of 4 MiB, as the demo's segments). */
  const char *n_env = g_getenv ("KYMO_BENCH_DIAL9_FILES");
  const char *mb_env = g_getenv ("KYMO_BENCH_DIAL9_FILE_MB");
  guint n_files = n_env ? CLAMP (atoi (n_env), 1, 10000) : 100;
  gsize raw = (gsize) (mb_env ? CLAMP (atoi (mb_env), 1, 256) : 4) << 20;
  guint runs = g_getenv ("KYMO_BENCH_RUNS") ? MAX (1, atoi (g_getenv ("KYMO_BENCH_RUNS"))) : 3;
  /* KYMO_BENCH_DIR keeps the generated folder there (and reuses it). */
  const char *keep = g_getenv ("KYMO_BENCH_DIR");
  g_autofree char *dir = keep ? g_strdup (keep) : kymo_bench_scratch_dir ();
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  g_autofree double *loads = g_new (double, runs);
  g_autofree double *analyses = g_new (double, runs);
  g_autofree double *task_parts = g_new (double, runs);
  g_autofree double *lanes_parts = g_new (double, runs);
  guint64 gz_bytes = 0, raw_bytes = 0;
  guint32 rng = 12345;
  double load_s, analysis_s, zcat_s, cksum_s;
  gsize n_rows = 0, n_pois = 0;

  if (keep)
    g_mkdir_with_parents (dir, 0755);
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *kept_name = g_strdup_printf ("trace.%u.bin.gz", i);
      g_autofree char *kept = g_build_filename (dir, kept_name, NULL);
      gchar *old = NULL;
      gsize old_len;

      if (keep && g_file_get_contents (kept, &old, &old_len, NULL))
        {
          /* The decompressed size is in gzip's trailer. */
          raw_bytes += old_len >= 4 ? (guint32) ((guint8) old[old_len - 4] | (guint8) old[old_len - 3] << 8 |
                                                 (guint8) old[old_len - 2] << 16 | (guint32) (guint8) old[old_len - 1] << 24) : 0;
          gz_bytes += old_len;
          g_ptr_array_add (paths, g_steal_pointer (&kept));
          g_free (old);
          continue;
        }
    }
  for (guint i = paths->len; i < n_files; i++)
    {
      g_autoptr(GByteArray) file = segment_file (i, raw, &rng);
      g_autoptr(GByteArray) gz = gzip_bytes (file->data, file->len);
      g_autofree char *name = g_strdup_printf ("trace.%u.bin.gz", i);
      char *path = g_build_filename (dir, name, NULL);

      g_assert (g_file_set_contents (path, (const char *) gz->data, gz->len, NULL));
      g_ptr_array_add (paths, path);
      gz_bytes += gz->len;
      raw_bytes += file->len;
    }

  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoInput) input = kymo_input_new_for_path (dir, &error);
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(KymoDial9Tasks) tasks = NULL;
      g_autoptr(KymoDial9Tasks) table = NULL;
      KymoPoiThresholds t;
      gint64 t0;

      g_assert_no_error (error);
      t0 = g_get_monotonic_time ();
      trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
      loads[r] = (g_get_monotonic_time () - t0) / 1e6;
      g_assert_no_error (error);
      g_assert_null (kymo_trace_get_stop_error (trace));

      /* The app's pass (tasks and points), then the table's alone, as
       * `kymo-cli tasks` makes it. */
      kymo_poi_thresholds_init_default (&t);
      t0 = g_get_monotonic_time ();
      tasks = kymo_dial9_tasks_new (trace, &t);
      analyses[r] = (g_get_monotonic_time () - t0) / 1e6;
      t0 = g_get_monotonic_time ();
      table = kymo_dial9_tasks_new (trace, NULL);
      task_parts[r] = (g_get_monotonic_time () - t0) / 1e6;
      kymo_dial9_tasks_get_rows (tasks, &n_rows);
      n_pois = kymo_dial9_tasks_get_n_pois (tasks);

      /* The workers' lanes (on-CPU shares, CPU samples), on the same thread. */
      t0 = g_get_monotonic_time ();
      kymo_dial9_lanes_unref (kymo_dial9_lanes_new (trace));
      lanes_parts[r] = (g_get_monotonic_time () - t0) / 1e6;
    }
  load_s = kymo_bench_median (loads, runs);
  analysis_s = kymo_bench_median (analyses, runs);
  zcat_s = zcat_seconds (paths, 3);
  cksum_s = kymo_bench_cksum_seconds ((const char * const *) paths->pdata, paths->len, 3);

  printf ("dial9 folder: %u gzip files, %.1f MB gzip, %.1f MB decompressed; %" G_GSIZE_FORMAT " tasks, %"
          G_GSIZE_FORMAT " points of interest\n", n_files, gz_bytes / 1e6, raw_bytes / 1e6, n_rows, n_pois);
  printf ("load:            %.3f s  %.0f MB/s decompressed  (%.2f× zcat, %.1f× cksum)\n", load_s,
          raw_bytes / 1e6 / load_s, load_s / zcat_s, load_s / cksum_s);
  printf ("zcat > /dev/null: %.3f s\n", zcat_s);
  printf ("cksum (gzip):    %.3f s\n", cksum_s);
  printf ("tasks + POIs:    %.3f s  (%.1f%% of load; the tasks table alone %.1f%%)\n", analysis_s, 100 * analysis_s / load_s,
          100 * kymo_bench_median (task_parts, runs) / load_s);
  printf ("worker lanes:    %.3f s  (%.1f%% of load)\n", kymo_bench_median (lanes_parts, runs),
          100 * kymo_bench_median (lanes_parts, runs) / load_s);

  if (!keep)
    {
      for (guint i = 0; i < paths->len; i++)
        g_unlink (g_ptr_array_index (paths, i));
      g_rmdir (dir);
    }
  return 0;
}
