/* bench-find.c: finding a name among 10 million spans, in a fresh
 * `kymo-cli find` beside `kymo-cli info` of the same file (the load) and
 * `cksum` of it; then in process: the search alone, and the full zoom-out
 * frame with the matches highlighted
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-analysis.h"
#include "kymo-bench.h"
#include "../wtf/wtf-writer.h"

#ifdef KYMO_BENCH_VIEW
#include "kymo-session.h"
#include "kymo-timeline-export.h"
#include "kymo-timeline-layout.h"
#include "kymo-timeline-renderer.h"
#endif

#define N_SPANS   10000000u
#define N_NAMES   2000u
#define N_THREADS 4
#define RUNS      7
#define QUERY     "fn_0042"

enum { W_ZONE_CREATE = 2, W_ZONE_SET, W_LEAVE, W_ENTER };

/* Four threads of nested calls (three deep) named from a pool of 2000
 * functions, in ~1 MiB chunks whose string tables hold the names. */
static GBytes *
generate (void)
{
  WwWriter *w = ww_new (WW_CHUNKED, "{\"contextType\":\"script\",\"title\":\"find bench\"}", "{}", 0);
  guint32 time[N_THREADS] = { 0 };
  char names[N_NAMES][16];
  guint64 spans = 0;
  guint next = 0;

  for (guint i = 0; i < N_NAMES; i++)
    g_snprintf (names[i], sizeof names[i], "fn_%04u", i);
  ww_define (w, 0, W_ZONE_CREATE, 0, 0x28, "wtf.zone#create",
             "uint16 zoneId, ascii name, ascii type, ascii location");
  ww_define (w, 0, W_ZONE_SET, 0, 0x28, "wtf.zone#set", "uint16 zoneId");
  ww_define (w, 0, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  ww_define (w, 0, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
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
            /* one call holding two, the second holding one */
            ww_event (w, W_ENTER, time[t]++);
            ww_string (w, WW_ASCII, names[next++ % N_NAMES]);
            ww_event (w, W_ENTER, time[t]++);
            ww_string (w, WW_ASCII, names[next++ % N_NAMES]);
            ww_event (w, W_LEAVE, time[t]++);
            ww_event (w, W_ENTER, time[t]++);
            ww_string (w, WW_ASCII, names[next++ % N_NAMES]);
            ww_event (w, W_ENTER, time[t]++);
            ww_string (w, WW_ASCII, names[(next++ * 7) % N_NAMES]);
            ww_event (w, W_LEAVE, time[t]++);
            ww_event (w, W_LEAVE, time[t]++);
            ww_event (w, W_LEAVE, time[t]++);
            spans += 4;
          }
        ww_flush_chunk (w, FALSE);
      }
  return ww_finish (w);
}

static double
children_cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_CHILDREN, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

/* Median wall time; *cpu gets the median CPU time (user + system) of the
 * child, steadier than wall time on a shared machine. */
static double
time_command (const char * const *argv,
              double             *cpu)
{
  double times[RUNS], cpus[RUNS];

  for (guint r = 0; r < RUNS; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      double c0 = children_cpu_seconds ();
      int status = 0;

      g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL);
      times[r] = (g_get_monotonic_time () - t0) / 1e6;
      cpus[r] = children_cpu_seconds () - c0;
      if (!g_spawn_check_wait_status (status, NULL))
        {
          fprintf (stderr, "bench-find: %s %s failed\n", argv[0], argv[1]);
          return -1;
        }
    }
  *cpu = kymo_bench_median (cpus, RUNS);
  return kymo_bench_median (times, RUNS);
}

/* The floor: one pass reading every span's name (what any name scan reads). */
static double
plain_pass_ms (KymoTrace *trace)
{
  double times[RUNS];
  volatile guint64 sink = 0;

  for (guint r = 0; r < RUNS; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      guint64 sum = 0;

      for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
        {
          gsize n;
          const KymoSpan *spans = kymo_track_get_spans (kymo_trace_get_track (trace, t), &n);

          for (gsize i = 0; i < n; i++)
            sum += spans[i].name_flags & KYMO_NAME_MAX;
        }
      sink += sum;
      times[r] = (g_get_monotonic_time () - t0) / 1e3;
    }
  (void) sink;
  return kymo_bench_median (times, RUNS);
}

/* `bench-find --write FILE` only writes the trace, for timing kymo-cli from
 * outside. */
int
main (int   argc,
      char *argv[])
{
  g_autofree char *dir = kymo_bench_scratch_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoInput) input = NULL;
  double info_s, find_s, none_s, info_cpu, find_cpu, none_cpu, cksum_s, search_ms[RUNS], set_ms[RUNS], mb;
  guint64 spans = 0, instants, samples, annotations;
  gsize n_hits = 0;

  if (dir == NULL)
    return 1;
  path = g_build_filename (dir, "find.wtf-trace", NULL);
  bytes = generate ();
  if (argc == 3 && g_str_equal (argv[1], "--write"))
    {
      g_rmdir (dir);
      return g_file_set_contents (argv[2], g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL) ? 0 : 1;
    }
  mb = g_bytes_get_size (bytes) / 1e6;
  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL))
    return 1;
  g_clear_pointer (&bytes, g_bytes_unref);

  {
    const char *info[] = { KYMO_CLI_PATH, "info", path, NULL };
    const char *find[] = { KYMO_CLI_PATH, "find", QUERY, path, NULL };
    /* the same process, load and output path, but no name matches: no scan */
    const char *none[] = { KYMO_CLI_PATH, "find", "no such name", path, NULL };
    const char *paths[] = { path };

    info_s = time_command (info, &info_cpu);
    none_s = time_command (none, &none_cpu);
    find_s = time_command (find, &find_cpu);
    cksum_s = kymo_bench_cksum_seconds (paths, 1, RUNS);
  }

  input = kymo_input_new_for_path (path, &error);
  trace = input ? kymo_load_sync (input, NULL, NULL, NULL, NULL, &error) : NULL;
  if (trace == NULL)
    {
      fprintf (stderr, "bench-find: %s\n", error->message);
      return 1;
    }
  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  for (guint r = 0; r < RUNS; r++)
    {
      g_autoptr(KymoSearch) search = kymo_search_new (trace, QUERY);
      g_autoptr(KymoSearchResult) result = NULL;
      gint64 t0 = g_get_monotonic_time ();

      result = kymo_search_run (search, NULL, NULL);
      search_ms[r] = (g_get_monotonic_time () - t0) / 1e3;
      /* what the app publishes: the event set too */
      t0 = g_get_monotonic_time ();
      kymo_search_result_get_event_set (result);
      set_ms[r] = (g_get_monotonic_time () - t0) / 1e3;
      n_hits = kymo_search_result_get_n_hits (result);
    }

  printf ("find: %.1f MB chunked WTF, %" G_GUINT64_FORMAT " spans, %u names; \"%s\" matches %" G_GSIZE_FORMAT "\n",
          mb, spans, N_NAMES, QUERY, n_hits);
  printf ("  kymo-cli info (load): %.3f s; kymo-cli find: %.3f s; beyond load %.0f ms wall (target <= 100, aim 30)\n",
          info_s, find_s, (find_s - info_s) * 1e3);
  printf ("  kymo-cli find of a name no event has (load, no scan): %.3f s; beyond it %.0f ms wall\n",
          none_s, (find_s - none_s) * 1e3);
  printf ("  CPU time: info %.3f s, find (no match) %.3f s, find %.3f s; beyond load %.0f ms CPU\n",
          info_cpu, none_cpu, find_cpu, (find_cpu - none_cpu) * 1e3);
  printf ("  cksum: %.3f s; find / cksum %.2f; info / cksum %.2f\n", cksum_s, find_s / cksum_s, info_s / cksum_s);
  printf ("  in process: name search %.1f ms median (%.3f of the load), its event set %.2f ms; "
          "one plain pass over every span's name %.1f ms\n",
          kymo_bench_median (search_ms, RUNS), kymo_bench_median (search_ms, RUNS) / 1e3 / info_s,
          kymo_bench_median (set_ms, RUNS), plain_pass_ms (trace));

#ifdef KYMO_BENCH_VIEW
  {
    g_autoptr(KymoSession) session = kymo_session_new (trace);
    g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
    KymoTimelineRenderer *renderer = kymo_timeline_export_renderer_new (trace, FALSE);
    g_autoptr(KymoSearch) search = kymo_search_new (trace, QUERY);
    g_autoptr(KymoSearchResult) result = kymo_search_run (search, NULL, NULL);
    KymoTimelineViewport viewport = { 1600, 900, 0 };
    double plain[RUNS], marked[RUNS];

    g_type_ensure (GSK_TYPE_COLOR_NODE);
    kymo_session_fit_all (session);
    for (guint pass = 0; pass < 2; pass++)
      {
        kymo_session_set_highlight (session, pass ? kymo_search_result_get_event_set (result) : NULL);
        for (guint r = 0; r < RUNS + 1; r++)
          {
            GtkSnapshot *snapshot = gtk_snapshot_new ();
            gint64 t0 = g_get_monotonic_time ();
            GskRenderNode *node;

            kymo_timeline_renderer_snapshot (renderer, snapshot, session, layout, &viewport);
            node = gtk_snapshot_free_to_node (snapshot);
            /* the first frame builds the level-of-detail summaries */
            if (r > 0)
              (pass ? marked : plain)[r - 1] = (g_get_monotonic_time () - t0) / 1e3;
            g_clear_pointer (&node, gsk_render_node_unref);
          }
      }
    printf ("  full zoom-out frame (1600 px): %.2f ms plain, %.2f ms with the matches highlighted (target 16)\n",
            kymo_bench_median (plain, RUNS), kymo_bench_median (marked, RUNS));
    kymo_timeline_renderer_free (renderer);
  }
#endif

  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
