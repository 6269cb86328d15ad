/* bench-atf.c: load a 10M-event ATF session against cksum of the same files
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-bench.h"
#include "atf/kymo-atf-builder.h"

#define N_THREADS   8
#define N_EVENTS    10000000u
#define N_SYMBOLS   64
#define MODULE_ID   G_GUINT64_CONSTANT (0x5EED0001)
#define RUNS        3

/* A random walk of calls and returns, at most 12 deep, balanced at the end. */
static void
write_thread (const char *pid_dir,
              guint       thread,
              guint       n_events)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (thread + 1);
  KymoAtfThreadBuilder b;
  guint64 stack[16];
  guint depth = 0;
  guint64 ts = G_GUINT64_CONSTANT (1000000000) + thread * 17;

  kymo_atf_builder_init (&b, thread, KYMO_ATF_ARCH_ARM64);
  for (guint i = 0; i < n_events; i++)
    {
      guint left = n_events - i;
      gboolean call = depth == 0 || (depth < 12 && left > depth && g_rand_int_range (rand, 0, 100) < 52);

      ts += 20 + g_rand_int_range (rand, 0, 200);
      if (call)
        {
          guint64 f = (MODULE_ID << 32) | (guint64) g_rand_int_range (rand, 1, N_SYMBOLS + 1);

          stack[depth++] = f;
          kymo_atf_builder_add_index (&b, ts, f, KYMO_ATF_CALL, depth, KYMO_ATF_NO_DETAIL);
        }
      else
        {
          kymo_atf_builder_add_index (&b, ts, stack[depth - 1], KYMO_ATF_RETURN, depth, KYMO_ATF_NO_DETAIL);
          depth--;
        }
    }
  if (!kymo_atf_builder_write (&b, pid_dir, TRUE, NULL))
    g_error ("cannot write the session");
  kymo_atf_builder_clear (&b);
}

static void
write_manifest (const char *pid_dir)
{
  g_autoptr(GString) s = g_string_new ("{\"threads\":[],\"time_start_ns\":0,\"time_end_ns\":0,\"clock_type\":1,"
                                       "\"modules\":[{\"module_id\":1592590337,\"path\":\"/bench\"}],\"symbols\":[");
  g_autofree char *path = g_build_filename (pid_dir, "manifest.json", NULL);

  for (guint i = 1; i <= N_SYMBOLS; i++)
    g_string_append_printf (s, "%s{\"function_id\":\"0x%016" G_GINT64_MODIFIER "x\",\"module_id\":1592590337,"
                            "\"symbol_index\":%u,\"name\":\"bench_function_%u\"}",
                            i > 1 ? "," : "", (MODULE_ID << 32) | i, i, i);
  g_string_append (s, "],\"format_version\":\"2.1\"}");
  g_file_set_contents (path, s->str, s->len, NULL);
}

int
main (void)
{
  /* KYMO_BENCH_DIR keeps the generated session there and reuses it;
   * KYMO_BENCH_RUNS sets the number of loads (for profiling). */
  const char *keep = g_getenv ("KYMO_BENCH_DIR");
  g_autofree char *scratch = keep ? g_strdup (keep) : kymo_bench_scratch_dir ();
  g_autofree char *pid_dir = g_build_filename (scratch, "pid_1", NULL);
  g_autofree char *manifest_path = g_build_filename (pid_dir, "manifest.json", NULL);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  guint runs = g_getenv ("KYMO_BENCH_RUNS") ? MAX (1, atoi (g_getenv ("KYMO_BENCH_RUNS"))) : RUNS;
  g_autofree double *load_times = g_new (double, runs);
  gboolean reuse = keep && g_file_test (manifest_path, G_FILE_TEST_EXISTS);
  double cksum_s, load_s;
  guint64 bytes = 0, spans = 0;
  gsize heap_before, heap_after = 0;

  g_mkdir_with_parents (pid_dir, 0755);
  if (!reuse)
    write_manifest (pid_dir);
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_autofree char *name = g_strdup_printf ("thread_%u", t);
      char *path = g_build_filename (pid_dir, name, "index.atf", NULL);
      GStatBuf st;

      if (!reuse)
        write_thread (pid_dir, t, N_EVENTS / N_THREADS);
      g_stat (path, &st);
      bytes += st.st_size;
      g_ptr_array_add (paths, path);
    }

  cksum_s = kymo_bench_cksum_seconds ((const char * const *) paths->pdata, paths->len, RUNS);

  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(KymoInput) input = kymo_input_new_for_path (pid_dir, NULL);
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(GError) error = NULL;
      gint64 t0;

      heap_before = kymo_bench_heap_bytes ();
      t0 = g_get_monotonic_time ();
      trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
      load_times[r] = (g_get_monotonic_time () - t0) / 1e6;
      if (trace == NULL)
        g_error ("load failed: %s", error->message);
      heap_after = kymo_bench_heap_bytes () - heap_before;
      kymo_trace_count_events (trace, &spans, NULL, NULL, NULL);
    }
  load_s = kymo_bench_median (load_times, runs);

  printf ("atf: %u events in %u threads, %.1f MB\n", N_EVENTS, N_THREADS, bytes / 1e6);
  printf ("  cksum:  %.3f s (%.2f GB/s)\n", cksum_s, bytes / cksum_s / 1e9);
  printf ("  load:   %.3f s (%.2f GB/s) = %.2f× cksum (target ≤ 3×)\n",
          load_s, bytes / load_s / 1e9, load_s / cksum_s);
  printf ("  spans:  %" G_GUINT64_FORMAT ", %.1f bytes per span beyond the mapped files (target ≤ 32)\n",
          spans, (double) heap_after / MAX (spans, 1));

  if (keep)
    return 0;
  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *dir = g_path_get_dirname (g_ptr_array_index (paths, i));
      g_remove (g_ptr_array_index (paths, i));
      g_remove (dir);
    }
  {
    g_autofree char *manifest = g_build_filename (pid_dir, "manifest.json", NULL);
    g_remove (manifest);
  }
  g_remove (pid_dir);
  g_remove (scratch);
  return 0;
}
