/* kymo-cli-find.c: `kymo-cli find`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "kymo-cli-private.h"

#define N_COLUMNS 6
#define MAX_TRACK_WIDTH 32

static const char *headers[N_COLUMNS] = {
  "start", "dur", "depth", "kind", "track", "name",
};

/* One line of valid UTF-8 for the terminal. */
static char *
printable (const char *text)
{
  char *line;

  if (text == NULL || text[0] == '\0')
    return g_strdup ("(no name)");
  line = g_utf8_make_valid (text, -1);
  for (char *p = line; *p; p++)
    if ((guchar) *p < 0x20 || *p == 0x7f)
      *p = ' ';
  return line;
}

static void
print_json (KymoTrace           *trace,
            const KymoSearchHit *hits,
            gsize                n_hits)
{
  g_autoptr(KymoJsonWriter) w = kymo_json_writer_new (stdout);

  for (gsize i = 0; i < n_hits; i++)
    {
      const KymoSearchHit *hit = &hits[i];
      gboolean instant = hit->depth == KYMO_SEARCH_INSTANT;
      KymoTime start, end;

      kymo_search_hit_get_times (trace, hit, &start, &end);
      kymo_json_writer_begin_object (w);
      kymo_json_writer_key (w, "kind");
      kymo_json_writer_string (w, instant ? "instant" : "span", -1);
      kymo_json_writer_key (w, "track");
      kymo_json_writer_string (w, kymo_track_get_name (kymo_trace_get_track (trace, hit->track)), -1);
      kymo_json_writer_key (w, "name");
      kymo_json_writer_string (w, kymo_trace_get_name (trace, kymo_search_hit_get_name (trace, hit)), -1);
      kymo_json_writer_key (w, "start");
      kymo_json_writer_int (w, start);
      kymo_json_writer_key (w, "end");
      kymo_json_writer_int (w, end);
      kymo_json_writer_key (w, "dur");
      kymo_json_writer_int (w, instant ? 0 : end - start);
      if (!instant)
        {
          kymo_json_writer_key (w, "depth");
          kymo_json_writer_uint (w, hit->depth);
        }
      kymo_json_writer_end_object (w);
      kymo_json_writer_end_line (w);
      if (i % 4096 == 4095)
        kymo_json_writer_flush (w);
    }
  kymo_json_writer_flush (w);
}

static void
hit_cells (KymoTrace           *trace,
           const KymoSearchHit *hit,
           char                 cells[N_COLUMNS][24])
{
  gboolean instant = hit->depth == KYMO_SEARCH_INSTANT;
  KymoTime start, end;

  kymo_search_hit_get_times (trace, hit, &start, &end);
  g_snprintf (cells[0], 24, "%" G_GINT64_FORMAT, start);
  g_snprintf (cells[1], 24, "%" G_GINT64_FORMAT, instant ? 0 : end - start);
  if (instant)
    g_strlcpy (cells[2], "-", 24);
  else
    g_snprintf (cells[2], 24, "%u", hit->depth);
  g_strlcpy (cells[3], instant ? "instant" : "span", 24);
}

/* Numbers right-aligned, then the track (capped so names line up) and the
 * name in full: columns two spaces apart, times as integer nanoseconds. */
static void
print_table (KymoTrace           *trace,
             const KymoSearchHit *hits,
             gsize                n_hits)
{
  g_autoptr(GHashTable) track_names = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  int widths[N_COLUMNS];
  char cells[N_COLUMNS][24];

  for (guint c = 0; c < N_COLUMNS; c++)
    widths[c] = strlen (headers[c]);
  for (gsize i = 0; i < n_hits; i++)
    {
      const char *track_name;

      hit_cells (trace, &hits[i], cells);
      for (guint c = 0; c < 4; c++)
        widths[c] = MAX (widths[c], (int) strlen (cells[c]));
      track_name = g_hash_table_lookup (track_names, GUINT_TO_POINTER (hits[i].track));
      if (track_name == NULL)
        {
          char *text = printable (kymo_track_get_name (kymo_trace_get_track (trace, hits[i].track)));

          g_hash_table_insert (track_names, GUINT_TO_POINTER (hits[i].track), text);
          widths[4] = MAX (widths[4], (int) MIN (g_utf8_strlen (text, -1), MAX_TRACK_WIDTH));
        }
    }

  if (n_hits > 0)
    {
      for (guint c = 0; c < 3; c++)
        printf ("%*s  ", widths[c], headers[c]);
      printf ("%-*s  %s%*s  %s\n", widths[3], headers[3], headers[4],
              widths[4] - (int) strlen (headers[4]), "", headers[5]);
    }
  for (gsize i = 0; i < n_hits; i++)
    {
      const char *track_name = g_hash_table_lookup (track_names, GUINT_TO_POINTER (hits[i].track));
      g_autofree char *name = printable (kymo_trace_get_name (trace, kymo_search_hit_get_name (trace, &hits[i])));
      int pad = widths[4] - (int) g_utf8_strlen (track_name, -1);

      hit_cells (trace, &hits[i], cells);
      for (guint c = 0; c < 3; c++)
        printf ("%*s  ", widths[c], cells[c]);
      printf ("%-*s  %s%*s  %s\n", widths[3], cells[3], track_name, MAX (pad, 0), "", name);
    }
  printf ("%" G_GSIZE_FORMAT " matches\n", n_hits);
}

int
kymo_cli_find (const KymoCliOptions  *options,
               char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoSearch) search = NULL;
  g_autoptr(KymoSearchResult) result = NULL;
  g_autoptr(GError) error = NULL;
  KymoTime from = KYMO_TIME_NONE, to = KYMO_TIME_NONE;
  const KymoSearchHit *hits;
  gsize n_hits;
  int status;

  /* PATTERN TRACE: the pattern is the first remaining argument */
  if (paths[1] == NULL)
    {
      fprintf (stderr, "kymo-cli: find: give a PATTERN and a TRACE\n");
      return KYMO_CLI_USAGE;
    }
  if ((options->from && !kymo_cli_parse_time (options->from, &from)) ||
      (options->to && !kymo_cli_parse_time (options->to, &to)))
    return KYMO_CLI_USAGE;
  if (from != KYMO_TIME_NONE && to != KYMO_TIME_NONE && from > to)
    {
      fprintf (stderr, "kymo-cli: find: --from %" G_GINT64_FORMAT " is after --to %" G_GINT64_FORMAT "\n",
               from, to);
      return KYMO_CLI_USAGE;
    }
  if (options->longest < 0)
    {
      fprintf (stderr, "kymo-cli: find: --longest takes a count of at least 1\n");
      return KYMO_CLI_USAGE;
    }

  trace = kymo_cli_load (options, paths + 1, &status);
  if (trace == NULL)
    return status;

  search = kymo_search_new (trace, paths[0]);
  kymo_search_set_args (search, options->args);
  kymo_search_set_window (search, from, to);
  kymo_search_set_longest (search, (guint) options->longest);
  result = kymo_search_run (search, NULL, &error);
  if (result == NULL)
    {
      kymo_cli_print_error (error);
      return KYMO_CLI_USAGE;
    }

  hits = kymo_search_result_get_hits (result, &n_hits);
  if (options->json)
    print_json (trace, hits, n_hits);
  else
    print_table (trace, hits, n_hits);
  return status;
}
