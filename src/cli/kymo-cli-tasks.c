/* kymo-cli-tasks.c: `kymo-cli tasks` (dial9)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "kymo-cli-private.h"

static void
write_time_or_null (KymoJsonWriter *out,
                    KymoTime        ts)
{
  if (ts == KYMO_TIME_NONE)
    kymo_json_writer_null (out);
  else
    kymo_json_writer_int (out, ts);
}

static gboolean
print_json (KymoDial9Tasks *tasks)
{
  g_autoptr(KymoJsonWriter) out = kymo_json_writer_new (stdout);
  const KymoDial9Task *rows;
  gsize n;

  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  for (gsize i = 0; i < n; i++)
    {
      const KymoDial9Task *t = &rows[i];

      kymo_json_writer_begin_object (out);
      kymo_json_writer_key (out, "runtime");
      kymo_json_writer_string (out, kymo_dial9_tasks_get_runtime (tasks, i), -1);
      kymo_json_writer_key (out, "task_id");
      kymo_json_writer_uint (out, t->task_id);
      kymo_json_writer_key (out, "spawn_loc");
      kymo_json_writer_string (out, kymo_dial9_tasks_get_spawn_loc (tasks, i), -1);
      kymo_json_writer_key (out, "spawned");
      write_time_or_null (out, t->spawned);
      kymo_json_writer_key (out, "terminated");
      write_time_or_null (out, t->terminated);
      kymo_json_writer_key (out, "polls");
      kymo_json_writer_uint (out, t->polls);
      kymo_json_writer_key (out, "poll_total");
      kymo_json_writer_int (out, t->poll_total);
      kymo_json_writer_key (out, "poll_max");
      kymo_json_writer_int (out, t->poll_max);
      kymo_json_writer_key (out, "wakes");
      kymo_json_writer_uint (out, t->wakes);
      kymo_json_writer_end_object (out);
      kymo_json_writer_end_line (out);
    }
  return kymo_json_writer_flush (out);
}

static void
print_table (KymoDial9Tasks *tasks)
{
  const KymoDial9Task *rows;
  gsize n;

  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  printf ("%-12s %8s %14s %12s %8s  %s\n", "task", "polls", "poll total", "poll max", "wakes", "spawned at");
  for (gsize i = 0; i < n; i++)
    {
      const KymoDial9Task *t = &rows[i];
      g_autofree char *loc = g_utf8_make_valid (kymo_dial9_tasks_get_spawn_loc (tasks, i), -1);

      printf ("%-12" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %14" G_GINT64_FORMAT " %12" G_GINT64_FORMAT
              " %8" G_GUINT64_FORMAT "  %s\n",
              t->task_id, t->polls, t->poll_total, t->poll_max, t->wakes, *loc ? loc : "(unknown)");
    }
  printf ("%" G_GSIZE_FORMAT " tasks (times in ns)\n", n);
}

int
kymo_cli_tasks (const KymoCliOptions  *options,
                char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  int status;

  trace = kymo_cli_load (options, paths, &status);
  if (trace == NULL)
    return status;
  if (g_strcmp0 (kymo_trace_get_format (trace)->name, "dial9") != 0)
    {
      fprintf (stderr, "kymo-cli: tasks: %s is a %s trace; tasks are a dial9 (Tokio) notion\n",
               paths[0], kymo_trace_get_format (trace)->name);
      return KYMO_CLI_USAGE;
    }

  tasks = kymo_dial9_tasks_new (trace);
  if (options->json)
    {
      if (!print_json (tasks))
        {
          int saved_errno = errno;

          fprintf (stderr, "kymo-cli: standard output: %s\n", g_strerror (saved_errno));
          return KYMO_CLI_USAGE;
        }
    }
  else
    print_table (tasks);
  return status;
}
