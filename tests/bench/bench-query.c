/* bench-query.c: SQL over 10 million spans, beside loading them and `cksum`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gstdio.h>

#include "kymo-analysis.h"
#include "kymo-bench.h"
#include "../wtf/wtf-writer.h"

#define N_SPANS      10000000
#define N_THREADS    4
#define RUNS         3
#define WINDOW_SPANS 1000
#define WINDOW_RUNS  21

enum { W_ZONE_CREATE = 2, W_ZONE_SET, W_LEAVE, W_ENTER, W_FRAME };

/* Frames holding four named scopes each, on four threads: 5 spans a frame. */
static GBytes *
generate (void)
{
  WwWriter *w = ww_new (WW_CHUNKED, "{\"contextType\":\"script\",\"title\":\"bench\"}", "{}", 0);
  static const char *names[] = { "parse", "layout", "paint", "composite" };
  guint32 time[N_THREADS] = { 0 };
  guint64 spans = 0;
  guint frame = 0;

  ww_define (w, 0, W_ZONE_CREATE, 0, 0x28, "wtf.zone#create",
             "uint16 zoneId, ascii name, ascii type, ascii location");
  ww_define (w, 0, W_ZONE_SET, 0, 0x28, "wtf.zone#set", "uint16 zoneId");
  ww_define (w, 0, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  ww_define (w, 0, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
  ww_define (w, 0, W_FRAME, 1, 0, "Example#Frame", "uint32 n");
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_autofree char *name = g_strdup_printf ("%u:Worker%c", t, 'A' + t);
      ww_event (w, W_ZONE_CREATE, 0);
      ww_int (w, WW_UINT16, t + 1);
      ww_string (w, WW_ASCII, name);
      ww_string (w, WW_ASCII, NULL);
      ww_string (w, WW_ASCII, "bench.cc");
    }
  ww_flush_chunk (w, FALSE);

  while (spans < N_SPANS)
    for (guint t = 0; t < N_THREADS && spans < N_SPANS; t++)
      {
        ww_event (w, W_ZONE_SET, time[t]);
        ww_int (w, WW_UINT16, t + 1);
        while (w->events->len < 1024 * 1024 && spans < N_SPANS)
          {
            ww_event (w, W_FRAME, time[t]++);
            ww_int (w, WW_UINT32, frame++);
            for (guint i = 0; i < 4; i++)
              {
                ww_event (w, W_ENTER, time[t]++);
                ww_string (w, WW_ASCII, names[(frame + i) % 4]);
                time[t] += 1 + (frame * 7 + i) % 5;
                ww_event (w, W_LEAVE, time[t]++);
              }
            ww_event (w, W_LEAVE, time[t]++);
            spans += 5;
          }
        ww_flush_chunk (w, FALSE);
      }
  return ww_finish (w);
}

/* Seconds a fresh kymo-cli takes for @args (median of RUNS). */
static double
cli_seconds (const char * const *args)
{
  double times[RUNS];
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) KYMO_CLI_PATH);
  for (guint i = 0; args[i]; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  for (guint r = 0; r < RUNS; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      int status = 0;

      g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_STDOUT_TO_DEV_NULL,
                    NULL, NULL, NULL, NULL, &status, NULL);
      times[r] = (g_get_monotonic_time () - t0) / 1e6;
      if (status != 0)
        fprintf (stderr, "bench-query: kymo-cli %s exited with %d\n", args[0], status);
    }
  return kymo_bench_median (times, RUNS);
}

static gboolean
count_rows (KymoQuery            *query,
            const KymoQueryValue *values,
            gpointer              user_data)
{
  (*(guint64 *) user_data)++;
  return TRUE;
}

static gboolean
first_integer (KymoQuery            *query,
               const KymoQueryValue *values,
               gpointer              user_data)
{
  *(gint64 *) user_data = values[0].integer;
  return FALSE;
}

/* Milliseconds for @sql in this process (median), and its row count. */
static double
query_ms (KymoQuery  *query,
          const char *sql,
          guint64    *n_rows)
{
  double times[WINDOW_RUNS];

  for (guint r = 0; r < WINDOW_RUNS; r++)
    {
      g_autoptr(GError) error = NULL;
      gint64 t0 = g_get_monotonic_time ();

      *n_rows = 0;
      if (!kymo_query_run (query, sql, count_rows, n_rows, NULL, NULL, &error))
        fprintf (stderr, "bench-query: %s\n", error->message);
      times[r] = (g_get_monotonic_time () - t0) / 1e3;
    }
  return kymo_bench_median (times, WINDOW_RUNS);
}

int
main (void)
{
  g_autofree char *dir = kymo_bench_scratch_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(GError) error = NULL;
  const char *group = "SELECT name, count(*), sum(dur) FROM spans GROUP BY name";
  double cksum_s, load_s, group_s, window_ms, scan_ms, mb;
  guint64 spans, instants, samples, annotations, n_window = 0, n_scan = 0;
  gint64 a = 0, b = 0;
  KymoQuery *query;

  if (dir == NULL)
    {
      fprintf (stderr, "bench-query: no scratch folder\n");
      return 1;
    }
  path = g_build_filename (dir, "query.wtf-trace", NULL);
  bytes = generate ();
  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL))
    {
      fprintf (stderr, "bench-query: cannot write %s\n", path);
      return 1;
    }
  mb = g_bytes_get_size (bytes) / 1e6;
  g_clear_pointer (&bytes, g_bytes_unref);

  {
    const char *paths[] = { path };
    const char *info[] = { "info", path, NULL };
    const char *sql[] = { "query", group, path, NULL };

    cksum_s = kymo_bench_cksum_seconds (paths, 1, RUNS);
    load_s = cli_seconds (info);
    group_s = cli_seconds (sql);
  }

  /* The window: 1,000 spans out of 10 M, found through the index. */
  input = kymo_input_new_for_path (path, &error);
  if (input != NULL)
    trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      fprintf (stderr, "bench-query: %s\n", error->message);
      return 1;
    }
  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  query = kymo_query_new (trace, &error);
  kymo_query_run (query, "SELECT start FROM spans WHERE track = 1 AND depth = 0 LIMIT 1 OFFSET 100000",
                  first_integer, &a, NULL, NULL, NULL);
  b = a;
  /* Widen until the window holds about WINDOW_SPANS spans. */
  for (gint64 width = 1000; n_window < WINDOW_SPANS; width += width / 8 + 1)
    {
      g_autofree char *count = g_strdup_printf ("SELECT count(*) FROM spans WHERE start BETWEEN %" G_GINT64_FORMAT
                                                " AND %" G_GINT64_FORMAT, a, a + width);
      gint64 n = 0;

      kymo_query_run (query, count, first_integer, &n, NULL, NULL, NULL);
      n_window = (guint64) n;
      b = a + width;
    }
  {
    g_autofree char *window = g_strdup_printf ("SELECT * FROM spans WHERE start BETWEEN %" G_GINT64_FORMAT
                                               " AND %" G_GINT64_FORMAT, a, b);
    g_autofree char *scan = g_strdup_printf ("SELECT * FROM spans WHERE start + 0 BETWEEN %" G_GINT64_FORMAT
                                             " AND %" G_GINT64_FORMAT, a, b);

    window_ms = query_ms (query, window, &n_window);
    scan_ms = query_ms (query, scan, &n_scan);
  }
  kymo_query_free (query);

  printf ("trace: wtf chunked, %.1f MB, %" G_GUINT64_FORMAT " spans\n", mb, spans);
  printf ("cksum: %.3f s; kymo-cli info (load): %.3f s = %.2f × cksum\n", cksum_s, load_s, load_s / cksum_s);
  printf ("kymo-cli query \"%s\": %.3f s = %.2f × cksum; beyond load: %.3f s\n",
          group, group_s, group_s / cksum_s, group_s - load_s);
  printf ("start BETWEEN window of %" G_GUINT64_FORMAT " spans: %.3f ms (index); "
          "the same as a scan: %.1f ms (%" G_GUINT64_FORMAT " rows)\n",
          n_window, window_ms, scan_ms, n_scan);

  if (g_getenv ("KYMO_BENCH_KEEP") == NULL)
    {
      g_unlink (path);
      g_rmdir (dir);
    }
  else
    printf ("kept %s\n", path);
  return 0;
}
