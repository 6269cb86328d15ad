/* kymo-cli-stats.c: `kymo-cli stats`
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

#define N_COLUMNS 10
#define MAX_NAME_WIDTH 60

static const char *headers[N_COLUMNS] = {
  "name", "count", "total", "self", "min", "mean", "max", "p50", "p90", "p99",
};

/* A name as one line of valid UTF-8 for the terminal. */
static char *
printable_name (const char *name)
{
  char *text;

  if (name == NULL || name[0] == '\0')
    return g_strdup ("(no name)");
  text = g_utf8_make_valid (name, -1);
  for (char *p = text; *p; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = ' ';
  return text;
}

static void
row_cells (const KymoNameStats *row,
           char                 cells[N_COLUMNS - 1][24])
{
  const gint64 values[N_COLUMNS - 1] = {
    (gint64) row->count, row->total, row->self, row->min, row->mean,
    row->max, row->p50, row->p90, row->p99,
  };

  for (guint c = 0; c < N_COLUMNS - 1; c++)
    g_snprintf (cells[c], 24, "%" G_GINT64_FORMAT, values[c]);
}

static void
print_table (GArray *rows)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  int widths[N_COLUMNS];
  char cells[N_COLUMNS - 1][24];

  for (guint c = 0; c < N_COLUMNS; c++)
    widths[c] = strlen (headers[c]);
  for (guint i = 0; i < rows->len; i++)
    {
      const KymoNameStats *row = &g_array_index (rows, KymoNameStats, i);
      char *name = printable_name (row->name);

      g_ptr_array_add (names, name);
      widths[0] = MAX (widths[0], (int) MIN (g_utf8_strlen (name, -1), MAX_NAME_WIDTH));
      row_cells (row, cells);
      for (guint c = 1; c < N_COLUMNS; c++)
        widths[c] = MAX (widths[c], (int) strlen (cells[c - 1]));
    }

  printf ("%s%*s", headers[0], widths[0] - (int) strlen (headers[0]), "");
  for (guint c = 1; c < N_COLUMNS; c++)
    printf ("  %*s", widths[c], headers[c]);
  printf ("\n");

  for (guint i = 0; i < rows->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      int pad = widths[0] - (int) g_utf8_strlen (name, -1);

      row_cells (&g_array_index (rows, KymoNameStats, i), cells);
      /* Longer names overflow their column rather than lose their end. */
      printf ("%s%*s", name, MAX (pad, 0), "");
      for (guint c = 1; c < N_COLUMNS; c++)
        printf ("  %*s", widths[c], cells[c - 1]);
      printf ("\n");
    }
  printf ("(times in ns)\n");
}

int
kymo_cli_stats (const KymoCliOptions  *options,
                char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GError) error = NULL;
  KymoTime from = KYMO_TIME_NONE;
  KymoTime to = KYMO_TIME_NONE;
  int status;

  if (options->from != NULL && !kymo_cli_parse_time (options->from, &from))
    return KYMO_CLI_USAGE;
  if (options->to != NULL && !kymo_cli_parse_time (options->to, &to))
    return KYMO_CLI_USAGE;
  if (from != KYMO_TIME_NONE && to != KYMO_TIME_NONE && from > to)
    {
      fprintf (stderr, "kymo-cli: stats: --from %" G_GINT64_FORMAT " is after --to %" G_GINT64_FORMAT "\n",
               from, to);
      return KYMO_CLI_USAGE;
    }

  trace = kymo_cli_load (options, paths, &status);
  if (trace == NULL)
    return status;

  rows = kymo_stats_compute (trace, from, to, NULL, &error);
  if (rows == NULL)
    {
      kymo_cli_print_error (error);
      return KYMO_CLI_USAGE;
    }

  if (options->csv)
    {
      if (!kymo_stats_write_csv (rows, stdout))
        {
          int saved_errno = errno;

          fprintf (stderr, "kymo-cli: standard output: %s\n", g_strerror (saved_errno));
          return KYMO_CLI_USAGE;
        }
    }
  else
    print_table (rows);
  return status;
}
