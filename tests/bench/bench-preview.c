/* bench-preview.c: what previews cost the app's load, in fresh processes, beside cksum
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * bench-preview [--runs N] TRACE…  loads each TRACE as the app does
 * (KymoLoader on a main loop), with and without previews, alternating, each
 * load in a process of its own; prints medians of the time to the first
 * preview and to the trace, and of the CPU time, as ratios to cksum.
 * Without a TRACE it says so and stops: the inputs worth it are big.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "kymo-analysis.h"
#include "kymo-bench.h"

typedef struct {
  GMainLoop *loop;
  gint64     start, first_preview;
  guint      n_previews;
  KymoTrace *trace;
} Once;

static void
on_preview (KymoLoader *loader,
            KymoTrace  *trace,
            Once       *once)
{
  if (once->n_previews++ == 0)
    once->first_preview = g_get_monotonic_time ();
}

static void
loaded (GObject      *object,
        GAsyncResult *result,
        gpointer      data)
{
  Once *once = data;
  g_autoptr(GError) error = NULL;

  once->trace = kymo_loader_load_finish (KYMO_LOADER (object), result, &error);
  if (once->trace == NULL)
    g_printerr ("%s\n", error->message);
  g_main_loop_quit (once->loop);
}

/* The child: one load; prints "first-preview-s total-s n-previews". */
static int
run_once (const char *path,
          gboolean    preview)
{
  KymoLoadOptions options = { .preview = preview };
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(KymoLoader) loader = NULL;
  g_autoptr(GError) error = NULL;
  Once once = { 0 };
  gint64 end;

  once.start = g_get_monotonic_time ();
  input = kymo_input_new_for_path (path, &error);
  if (input == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  once.loop = g_main_loop_new (NULL, FALSE);
  loader = kymo_loader_new (input, &options);
  g_signal_connect (loader, "preview", G_CALLBACK (on_preview), &once);
  kymo_loader_load_async (loader, NULL, loaded, &once);
  g_main_loop_run (once.loop);
  end = g_get_monotonic_time ();
  printf ("%.4f %.4f %u\n",
          once.n_previews > 0 ? (once.first_preview - once.start) / 1e6 : -1.0,
          (end - once.start) / 1e6, once.n_previews);
  g_clear_object (&once.trace);
  g_main_loop_unref (once.loop);
  return 0;
}

/* Runs one child; returns its figures and its CPU time (user + sys). */
static gboolean
spawn_once (const char *self,
            const char *path,
            gboolean    preview,
            double     *first,
            double     *total,
            double     *cpu)
{
  const char *argv[] = { self, "--once", preview ? "on" : "off", path, NULL };
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  struct rusage before, after;
  int status;
  guint n;

  getrusage (RUSAGE_CHILDREN, &before);
  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, NULL) ||
      sscanf (out, "%lf %lf %u", first, total, &n) != 3)
    return FALSE;
  getrusage (RUSAGE_CHILDREN, &after);
  *cpu = (after.ru_utime.tv_sec - before.ru_utime.tv_sec) + (after.ru_utime.tv_usec - before.ru_utime.tv_usec) / 1e6 +
         (after.ru_stime.tv_sec - before.ru_stime.tv_sec) + (after.ru_stime.tv_usec - before.ru_stime.tv_usec) / 1e6;
  return TRUE;
}

/* The files cksum reads for @path (a folder: its files). */
static GPtrArray *
files_of (const char *path)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir == NULL)
    g_ptr_array_add (files, g_strdup (path));
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (files, g_build_filename (path, name, NULL));
  return files;
}

int
main (int   argc,
      char *argv[])
{
  guint runs = 5;
  int first_path = 1;

  if (argc == 4 && g_str_equal (argv[1], "--once"))
    return run_once (argv[3], g_str_equal (argv[2], "on"));
  if (argc >= 3 && g_str_equal (argv[1], "--runs"))
    {
      runs = CLAMP (atoi (argv[2]), 1, 99);
      first_path = 3;
    }
  if (first_path >= argc)
    {
      printf ("  skipped: give big traces (e.g. a 150 MB dial9 file, a folder of 100 gzip segments)\n");
      return 0;
    }

  for (int p = first_path; p < argc; p++)
    {
      g_autoptr(GPtrArray) files = files_of (argv[p]);
      double cksum = kymo_bench_cksum_seconds ((const char * const *) files->pdata, files->len, 3);
      double first[2][99], total[2][99], cpu[2][99];

      for (guint r = 0; r < runs; r++)
        for (int mode = 1; mode >= 0; mode--)
          if (!spawn_once (argv[0], argv[p], mode, &first[mode][r], &total[mode][r], &cpu[mode][r]))
            {
              g_printerr ("%s: the load failed\n", argv[p]);
              return 1;
            }
      printf ("  %s (median of %u, cksum %.3f s)\n", argv[p], runs, cksum);
      for (int mode = 1; mode >= 0; mode--)
        {
          double f = kymo_bench_median (first[mode], runs);
          double t = kymo_bench_median (total[mode], runs);
          double c = kymo_bench_median (cpu[mode], runs);

          printf ("    previews %-3s first preview %s%.3f s, trace %.3f s (%.1f× cksum), cpu %.3f s (%.1f× cksum)\n",
                  mode ? "on" : "off", f < 0 ? "none " : "", MAX (f, 0), t, t / cksum, c, c / cksum);
        }
    }
  return 0;
}
