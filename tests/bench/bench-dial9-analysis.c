/* bench-dial9-analysis.c: dial9 tasks and points of interest as a share of the load
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <sys/resource.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "kymo-analysis.h"
#include "kymo-bench.h"

/* CPU time of the whole process (every thread), in seconds: on a shared
 * machine it moves less than the wall clock. */
static double
cpu_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Page faults of the process so far: memory a pass touches for the
 * first time costs the kernel more than the pass's own work. */
static glong
minor_faults (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

/* Loads @path @runs times; after each load, times the analysis the app
 * and `kymo-cli tasks` run on that trace, in the same process. */
static void
measure (const char *label,
         const char *path,
         guint       runs)
{
  g_autofree double *loads = g_new (double, runs);
  g_autofree double *apps = g_new (double, runs);
  g_autofree double *app_cpus = g_new (double, runs);
  g_autofree double *analyses = g_new (double, runs);
  g_autofree double *tables = g_new (double, runs);
  g_autofree double *faults = g_new (double, runs);
  g_autofree double *places = g_new (double, runs);
  KymoPoiThresholds t;
  gsize n_rows = 0, n_pois = 0, n_polls = 0;
  double load_s, app_s, app_cpu_s, analysis_s, table_s, place_s;
  guint profile_reps = g_getenv ("KYMO_BENCH_PROFILE_REPS") ? (guint) atoi (g_getenv ("KYMO_BENCH_PROFILE_REPS")) : 0;

  kymo_poi_thresholds_init_default (&t);

  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(KymoDial9Tasks) app = NULL;
      g_autoptr(KymoDial9Lanes) lanes = NULL;
      g_autoptr(KymoDial9Tasks) tasks = NULL;
      g_autoptr(KymoDial9Tasks) table = NULL;
      gint64 t0;
      double c0;
      glong f0;

      if (input == NULL)
        {
          printf ("  %-28s skipped: %s\n", label, error->message);
          return;
        }
      t0 = g_get_monotonic_time ();
      trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
      loads[r] = (g_get_monotonic_time () - t0) / 1e6;
      if (trace == NULL)
        {
          printf ("  %-28s skipped: %s\n", label, error->message);
          return;
        }

      /* What the app computes off the UI thread: tasks, points and the
       * workers' lanes. */
      t0 = g_get_monotonic_time ();
      c0 = cpu_now ();
      f0 = minor_faults ();
      app = kymo_dial9_tasks_new_with_lanes (trace, &t, &lanes);
      app_cpus[r] = cpu_now () - c0;
      faults[r] = minor_faults () - f0;
      apps[r] = (g_get_monotonic_time () - t0) / 1e6;
      /* Each task's polls and wakes: the app places them off the UI
       * thread once the table shows, before a selection wants them. */
      t0 = g_get_monotonic_time ();
      kymo_dial9_tasks_prepare_polls (app);
      places[r] = (g_get_monotonic_time () - t0) / 1e6;
      /* Tasks and points alone. */
      t0 = g_get_monotonic_time ();
      tasks = kymo_dial9_tasks_new (trace, &t);
      analyses[r] = (g_get_monotonic_time () - t0) / 1e6;
      /* What `kymo-cli tasks` computes: the table alone. */
      t0 = g_get_monotonic_time ();
      table = kymo_dial9_tasks_new (trace, NULL);
      tables[r] = (g_get_monotonic_time () - t0) / 1e6;
      kymo_dial9_tasks_get_rows (tasks, &n_rows);
      n_polls = kymo_dial9_tasks_get_n_polls (tasks);
      n_pois = kymo_dial9_tasks_get_n_pois (tasks);
      /* For a profiler: the app's analysis again and again on one load. */
      for (guint k = 0; r == 0 && k < profile_reps; k++)
        {
          g_autoptr(KymoDial9Lanes) again_lanes = NULL;
          g_autoptr(KymoDial9Tasks) again = kymo_dial9_tasks_new_with_lanes (trace, &t, &again_lanes);
        }
    }
  load_s = kymo_bench_median (loads, runs);
  app_s = kymo_bench_median (apps, runs);
  app_cpu_s = kymo_bench_median (app_cpus, runs);
  analysis_s = kymo_bench_median (analyses, runs);
  table_s = kymo_bench_median (tables, runs);
  place_s = kymo_bench_median (places, runs);
  printf ("  %-28s load %8.3f s   tasks + POIs + lanes %7.4f s = %5.1f%% of load (CPU %7.4f s, %.0f faults)   "
          "tasks + POIs %5.1f%%   tasks alone %5.1f%%   then polls placed %5.1f%%   "
          "(%" G_GSIZE_FORMAT " tasks, %" G_GSIZE_FORMAT " polls, %" G_GSIZE_FORMAT " POIs)\n",
          label, load_s, app_s, 100 * app_s / load_s, app_cpu_s, kymo_bench_median (faults, runs), 100 * analysis_s / load_s, 100 * table_s / load_s,
          100 * place_s / load_s, n_rows, n_polls, n_pois);
}

/* The samples' segments, decompressed and repeated, as one real-shaped
 * file: the shape `make bench` also loads whole. */
static gboolean
write_repeated (const char *samples,
                const char *out_path,
                guint       reps)
{
  static const char *names[] = { "2026-03-19-b65c163", "2026-04-15-65026ee", "head-6342350" };
  FILE *out = fopen (out_path, "wb");
  gboolean any = FALSE;

  if (out == NULL)
    return FALSE;
  for (guint r = 0; r < reps; r++)
    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        g_autofree char *path = g_build_filename (samples, "dial9", names[i], "demo-trace.bin", NULL);
        gzFile in = gzopen (path, "rb");
        char buf[1 << 16];
        int got;

        if (in == NULL)
          continue;
        while ((got = gzread (in, buf, sizeof buf)) > 0)
          fwrite (buf, 1, (size_t) got, out);
        gzclose (in);
        any = TRUE;
      }
  return fclose (out) == 0 && any;
}

int
main (int   argc,
      char *argv[])
{
  /* Arguments: traces to measure. Without: each sample under
   * KYMO_SAMPLES_DIR/dial9 and those samples repeated KYMO_BENCH_DIAL9_REPS
   * times (default 16) as one file. KYMO_BENCH_PROFILE_REPS: the app's
   * analysis that many times more on the first load, for perf record. */
  guint runs = g_getenv ("KYMO_BENCH_RUNS") ? MAX (1, atoi (g_getenv ("KYMO_BENCH_RUNS"))) : 3;
  const char *samples = g_getenv ("KYMO_SAMPLES_DIR");
  guint reps = g_getenv ("KYMO_BENCH_DIAL9_REPS") ? CLAMP (atoi (g_getenv ("KYMO_BENCH_DIAL9_REPS")), 1, 1000) : 16;

  printf ("dial9 tasks, points of interest and lanes against the load of the same trace (median of %u)\n", runs);
  if (argc > 1)
    {
      for (int i = 1; i < argc; i++)
        {
          g_autofree char *label = g_path_get_basename (argv[i]);
          measure (label, argv[i], runs);
        }
      return 0;
    }
  if (samples == NULL)
    samples = "../shared/samples";
  {
    g_autofree char *dir = g_build_filename (samples, "dial9", NULL);
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
    g_autofree char *scratch = NULL;
    g_autofree char *big = NULL;
    g_autofree char *big_label = NULL;
    const char *name;

    if (d == NULL)
      {
        printf ("  no samples in %s (set KYMO_SAMPLES_DIR)\n", dir);
        return 0;
      }
    while ((name = g_dir_read_name (d)) != NULL)
      g_ptr_array_add (names, g_strdup (name));
    g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
    for (guint i = 0; i < names->len; i++)
      {
        g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), "demo-trace.bin", NULL);
        measure (g_ptr_array_index (names, i), path, runs);
      }

    scratch = kymo_bench_scratch_dir ();
    big = g_build_filename (scratch, "dial9-real-shaped.bin", NULL);
    big_label = g_strdup_printf ("samples ×%u in one file", reps);
    if (write_repeated (samples, big, reps))
      measure (big_label, big, runs);
    g_unlink (big);
    g_rmdir (scratch);
  }
  return 0;
}
