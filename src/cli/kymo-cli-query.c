/* kymo-cli-query.c: `kymo-cli query`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "kymo-cli-private.h"

typedef struct {
  const KymoCliOptions *options;
  KymoJsonWriter       *json;
  gboolean              header_done;
  /* The table form is aligned, so it holds every cell until the end. */
  GPtrArray            *cells;      /* char*, row-major */
  GArray               *numeric;    /* gboolean per column: right-aligned */
} Output;

static char *
format_real (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* %.17g round-trips; shorter forms are tried first for readability. */
  for (int precision = 15; precision <= 17; precision++)
    {
      g_ascii_formatd (buf, sizeof buf, precision == 15 ? "%.15g" : precision == 16 ? "%.16g" : "%.17g", value);
      if (g_ascii_strtod (buf, NULL) == value)
        break;
    }
  return g_strdup (buf);
}

static char *
cell_text (const KymoQueryValue *v)
{
  switch (v->type)
    {
    case KYMO_QUERY_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, v->integer);
    case KYMO_QUERY_REAL:
      return format_real (v->real);
    case KYMO_QUERY_TEXT:
      return g_strdup (v->text);
    case KYMO_QUERY_NULL:
    default:
      return g_strdup ("");
    }
}

static void
write_csv_field (const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      fputs (text, stdout);
      return;
    }
  putchar ('"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        putchar ('"');
      putchar (*p);
    }
  putchar ('"');
}

static gboolean
on_row (KymoQuery            *query,
        const KymoQueryValue *values,
        gpointer              user_data)
{
  Output *out = user_data;
  guint n = kymo_query_get_n_columns (query);

  if (out->options->json)
    {
      kymo_json_writer_begin_object (out->json);
      for (guint i = 0; i < n; i++)
        {
          kymo_json_writer_key (out->json, kymo_query_get_column_name (query, i));
          switch (values[i].type)
            {
            case KYMO_QUERY_INTEGER:
              kymo_json_writer_int (out->json, values[i].integer);
              break;
            case KYMO_QUERY_REAL:
              kymo_json_writer_double (out->json, values[i].real);
              break;
            case KYMO_QUERY_TEXT:
              kymo_json_writer_string (out->json, values[i].text, -1);
              break;
            case KYMO_QUERY_NULL:
            default:
              kymo_json_writer_null (out->json);
              break;
            }
        }
      kymo_json_writer_end_object (out->json);
      kymo_json_writer_end_line (out->json);
      return TRUE;
    }

  if (out->options->csv)
    {
      if (!out->header_done)
        {
          for (guint i = 0; i < n; i++)
            {
              if (i > 0)
                putchar (',');
              write_csv_field (kymo_query_get_column_name (query, i));
            }
          putchar ('\n');
          out->header_done = TRUE;
        }
      for (guint i = 0; i < n; i++)
        {
          g_autofree char *text = cell_text (&values[i]);

          if (i > 0)
            putchar (',');
          write_csv_field (text);
        }
      putchar ('\n');
      return !ferror (stdout);
    }

  if (out->numeric->len == 0)
    {
      g_array_set_size (out->numeric, n);
      for (guint i = 0; i < n; i++)
        g_array_index (out->numeric, gboolean, i) = TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      if (values[i].type == KYMO_QUERY_TEXT)
        g_array_index (out->numeric, gboolean, i) = FALSE;
      g_ptr_array_add (out->cells, cell_text (&values[i]));
    }
  return TRUE;
}

/* Display width of @text on a terminal: one cell per character (wide
 * characters and control characters are rare in traces). */
static int
text_width (const char *text)
{
  return (int) g_utf8_strlen (text, -1);
}

static void
print_table (KymoQuery *query,
             Output    *out)
{
  guint n = kymo_query_get_n_columns (query);
  g_autofree int *widths = g_new0 (int, MAX (n, 1));
  guint n_rows = n > 0 ? out->cells->len / n : 0;

  if (out->numeric->len < n)
    {
      g_array_set_size (out->numeric, n);
      for (guint i = 0; i < n; i++)
        g_array_index (out->numeric, gboolean, i) = FALSE;
    }
  for (guint c = 0; c < n; c++)
    widths[c] = text_width (kymo_query_get_column_name (query, c));
  for (guint i = 0; i < out->cells->len; i++)
    widths[i % n] = MAX (widths[i % n], text_width (g_ptr_array_index (out->cells, i)));

  for (guint r = 0; r <= n_rows; r++)
    {
      GString *line = g_string_new (NULL);

      for (guint c = 0; c < n; c++)
        {
          const char *text = r == 0 ? kymo_query_get_column_name (query, c)
                                    : g_ptr_array_index (out->cells, (r - 1) * n + c);
          int pad = widths[c] - text_width (text);
          gboolean right = g_array_index (out->numeric, gboolean, c);

          if (c > 0)
            g_string_append (line, "  ");
          if (right)
            g_string_append_printf (line, "%*s", pad, "");
          g_string_append (line, text);
          if (!right && c + 1 < n)
            g_string_append_printf (line, "%*s", pad, "");
        }
      /* No trailing blanks when the last column is left-aligned. */
      while (line->len > 0 && line->str[line->len - 1] == ' ')
        g_string_truncate (line, line->len - 1);
      puts (line->str);
      g_string_free (line, TRUE);
    }
}

int
kymo_cli_query (const KymoCliOptions  *options,
                char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) numeric = g_array_new (FALSE, TRUE, sizeof (gboolean));
  KymoQuery *query;
  Output out = { options, NULL, FALSE, cells, numeric };
  const char *sql = paths[0];
  int status, offset;

  if (paths[1] == NULL)
    {
      fprintf (stderr, "kymo-cli: query: no trace given\nUsage: kymo-cli query [--json|--csv] SQL TRACE\n");
      return KYMO_CLI_USAGE;
    }
  if (options->json && options->csv)
    {
      fprintf (stderr, "kymo-cli: query: --json and --csv exclude each other\n");
      return KYMO_CLI_USAGE;
    }

  trace = kymo_cli_load (options, paths + 1, &status);
  if (trace == NULL)
    return status;

  query = kymo_query_new (trace, &error);
  if (query == NULL)
    {
      kymo_cli_print_error (error);
      return KYMO_CLI_USAGE;
    }
  if (options->json)
    out.json = kymo_json_writer_new (stdout);

  if (!kymo_query_run (query, sql, on_row, &out, NULL, &offset, &error))
    {
      if (offset >= 0)
        fprintf (stderr, "kymo-cli: query: %s (at offset %d)\n", error->message, offset);
      else
        fprintf (stderr, "kymo-cli: query: %s\n", error->message);
      /* Refused and invalid statements are usage errors; a runtime failure
       * (out of memory) is one too: nothing is wrong with the trace. */
      status = KYMO_CLI_USAGE;
    }
  else if (options->csv && !out.header_done)
    {
      for (guint i = 0; i < kymo_query_get_n_columns (query); i++)
        {
          if (i > 0)
            putchar (',');
          write_csv_field (kymo_query_get_column_name (query, i));
        }
      putchar ('\n');
    }
  else if (!options->csv && !options->json)
    print_table (query, &out);

  g_clear_pointer (&out.json, kymo_json_writer_free);
  kymo_query_free (query);
  return status;
}
