/* kymo-fuzz-analyses.c: every analysis over a trace a fuzz input made
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include "kymo-analysis.h"
#include "kymo-fuzz.h"

/* A few of everything the app and kymo-cli read back: the fuzzer looks
 * for the crash, not for coverage of every row. */
#define READ_MAX 64

static void
read_tasks (KymoTrace *trace)
{
  KymoPoiThresholds thresholds;
  g_autoptr(KymoDial9Lanes) lanes = NULL;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  gsize n_rows, n_pois;

  /* Thresholds of zero make every poll and flow a point. */
  thresholds = (KymoPoiThresholds) { 0, 0, 0 };
  tasks = kymo_dial9_tasks_new_with_lanes (trace, &thresholds, &lanes);
  kymo_dial9_tasks_get_rows (tasks, &n_rows);
  for (guint row = 0; row < MIN (n_rows, READ_MAX); row++)
    {
      g_autoptr(KymoEventSet) set = kymo_dial9_tasks_dup_task_set (tasks, row);
      g_autofree KymoWakeMark *marks = NULL;
      gsize n;

      kymo_dial9_tasks_get_spawn_loc (tasks, row);
      kymo_dial9_tasks_get_runtime (tasks, row);
      marks = kymo_dial9_tasks_dup_wake_marks (tasks, row, &n);
    }
  n_pois = kymo_dial9_tasks_get_n_pois (tasks);
  for (gsize i = 0; i < MIN (n_pois, READ_MAX); i++)
    {
      const KymoPoi *worst = kymo_dial9_tasks_get_poi (tasks, KYMO_POI_WORST_FIRST, i);
      const KymoPoi *timed = kymo_dial9_tasks_get_poi (tasks, KYMO_POI_TIME_ORDER, n_pois - 1 - i);

      kymo_dial9_tasks_find_poll (tasks, worst->track, worst->span);
      kymo_dial9_tasks_find_poll (tasks, timed->track, timed->span);
    }
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTime cpu, active;

      kymo_dial9_lanes_get_cpu_total (lanes, t, &cpu, &active);
    }
}

static gboolean
count_row (KymoQuery            *query,
           const KymoQueryValue *values,
           gpointer              user_data)
{
  return ++*(guint *) user_data < READ_MAX;
}

void
kymo_fuzz_analyse (KymoTrace *trace)
{
  g_autoptr(GArray) stats = kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, NULL);
  g_autoptr(KymoSearch) search = kymo_search_new (trace, "a");
  g_autoptr(KymoSearchResult) found = NULL;
  KymoQuery *query;
  FILE *out;

  read_tasks (trace);
  for (KymoCallTreeSource source = KYMO_CALL_TREE_SPANS; source <= KYMO_CALL_TREE_SAMPLES; source++)
    {
      KymoCallTree *tree = kymo_call_tree_build (trace, source, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, 0, NULL, NULL);

      if (tree != NULL)
        {
          KymoCallTree *inverted = kymo_call_tree_invert (tree);

          kymo_call_tree_unref (inverted);
          kymo_call_tree_unref (tree);
        }
    }
  kymo_search_set_args (search, TRUE);
  found = kymo_search_run (search, NULL, NULL);
  query = kymo_query_new (trace, NULL);
  if (query != NULL)
    {
      guint rows = 0;

      kymo_query_run (query, "SELECT * FROM spans JOIN args ON args.event = spans.id", count_row, &rows, NULL, NULL,
                      NULL);
      kymo_query_free (query);
    }
  out = fopen ("/dev/null", "w");
  if (out != NULL)
    {
      kymo_export_chrome (trace, out, NULL, NULL);
      fclose (out);
    }
}
