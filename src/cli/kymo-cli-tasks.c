/* kymo-cli-tasks.c: `kymo-cli tasks` (dial9)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

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

/* A time as the --clock option asks: wall clock through the trace's clock
 * sync, else nanoseconds from the trace start. */
static char *
format_time (KymoTrace *trace,
             KymoClock  clock,
             KymoTime   ts)
{
  KymoTime start;
  char *abs;

  if (ts == KYMO_TIME_NONE)
    return g_strdup ("-");
  abs = kymo_clock_format_absolute (trace, clock, ts);
  if (abs != NULL)
    return abs;
  kymo_trace_get_time_range (trace, &start, NULL);
  return g_strdup_printf ("+%" G_GINT64_FORMAT, ts - (start == KYMO_TIME_NONE ? 0 : start));
}

static void
print_table (KymoDial9Tasks *tasks,
             KymoClock       clock)
{
  KymoTrace *trace = kymo_dial9_tasks_get_trace (tasks);
  const char *note = kymo_clock_fallback_note (trace, clock);
  const KymoDial9Task *rows;
  int width = (int) strlen ("terminated");
  gsize n;

  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  /* A wall-clock time is longer than a relative one, and a zone's name
   * varies: the columns take the longest time they show. */
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *spawned = format_time (trace, clock, rows[i].spawned);
      g_autofree char *terminated = format_time (trace, clock, rows[i].terminated);

      width = MAX (width, (int) MAX (strlen (spawned), strlen (terminated)));
    }
  printf ("%-12s %8s %14s %12s %8s  %-*s  %-*s  %s\n", "task", "polls", "poll total", "poll max", "wakes",
          width, "spawned", width, "terminated", "spawned at");
  for (gsize i = 0; i < n; i++)
    {
      const KymoDial9Task *t = &rows[i];
      g_autofree char *loc = g_utf8_make_valid (kymo_dial9_tasks_get_spawn_loc (tasks, i), -1);
      g_autofree char *spawned = format_time (trace, clock, t->spawned);
      g_autofree char *terminated = format_time (trace, clock, t->terminated);

      printf ("%-12" G_GUINT64_FORMAT " %8" G_GUINT64_FORMAT " %14" G_GINT64_FORMAT " %12" G_GINT64_FORMAT
              " %8" G_GUINT64_FORMAT "  %-*s  %-*s  %s\n",
              t->task_id, t->polls, t->poll_total, t->poll_max, t->wakes, width, spawned, width, terminated,
              *loc ? loc : "(unknown)");
    }
  printf ("%" G_GSIZE_FORMAT " tasks (durations in ns%s)\n", n,
          clock == KYMO_CLOCK_RELATIVE || note != NULL ? "; spawned, terminated: ns from the trace start" : "");
  if (note != NULL)
    fprintf (stderr, "kymo-cli: note: %s\n", note);
}

int
kymo_cli_tasks (const KymoCliOptions  *options,
                char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  KymoClock clock = KYMO_CLOCK_RELATIVE;
  int status;

  if (options->clock != NULL && !kymo_clock_from_string (options->clock, &clock))
    {
      fprintf (stderr, "kymo-cli: --clock takes relative, local or utc, not %s\n", options->clock);
      return KYMO_CLI_USAGE;
    }
  trace = kymo_cli_load (options, paths, &status);
  if (trace == NULL)
    return status;
  if (g_strcmp0 (kymo_trace_get_format (trace)->name, "dial9") != 0)
    {
      fprintf (stderr, "kymo-cli: tasks: %s is a %s trace; tasks are a dial9 (Tokio) notion\n",
               paths[0], kymo_trace_get_format (trace)->name);
      return KYMO_CLI_USAGE;
    }

  /* No thresholds: the table needs no points of interest. */
  tasks = kymo_dial9_tasks_new (trace, NULL);
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
    print_table (tasks, clock);
  return status;
}
