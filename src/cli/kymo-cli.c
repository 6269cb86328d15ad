/* kymo-cli.c: the command-line companion
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <glib/gi18n.h>

#include "kymo-cli-private.h"

typedef int (*CommandFunc) (const KymoCliOptions *options, char **paths);

static const struct {
  const char  *name;
  CommandFunc  func;
  const char  *usage;
} commands[] = {
  { "info",   kymo_cli_info,   "info [--json] TRACE" },
  { "dump",   kymo_cli_dump,   "dump TRACE" },
  { "export", kymo_cli_export, "export --chrome TRACE [-o OUT]" },
  { "stats",  kymo_cli_stats,  "stats [--csv] TRACE [--from NS --to NS]" },
  { "query",  kymo_cli_query,  "query [--json|--csv] SQL TRACE" },
  { "render", kymo_cli_render, "render TRACE -o OUT.png|.svg [--from NS --to NS] [--width PX]" },
  { "find",   kymo_cli_find,   "find [--json] [--args] [--longest N] [--from NS --to NS] PATTERN TRACE" },
  { "flamegraph", kymo_cli_flamegraph, "flamegraph [--samples] [--from NS --to NS] [--svg OUT] TRACE" },
  { "tasks",  kymo_cli_tasks,  "tasks [--json] TRACE" },
};

static void
print_usage (FILE *out)
{
  fprintf (out, "Usage:\n");
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (out, "  kymo-cli %s\n", commands[i].usage);
  fprintf (out, "\nEvery command takes --format=dial9|rtc|atf|wtf|tband and --tband-mode=freertos|bare-metal,\n"
                "and --threads N (default: all cores; 1: sequential).\n"
                "TRACE is a file, a folder (an ATF session, or dial9 files) or - for standard input.\n");
}

void
kymo_cli_print_error (const GError *error)
{
  fprintf (stderr, "kymo-cli: %s\n", error->message);
}

gboolean
kymo_cli_parse_time (const char *text,
                     KymoTime   *out)
{
  gint64 value;

  if (!g_ascii_string_to_signed (text, 10, G_MININT64 + 1, G_MAXINT64, &value, NULL))
    {
      fprintf (stderr, "kymo-cli: “%s” is not a time in nanoseconds\n", text);
      return FALSE;
    }
  *out = value;
  return TRUE;
}

KymoInput *
kymo_cli_open_input (char **paths,
                     int   *status)
{
  g_autoptr(GError) error = NULL;
  KymoInput *input;

  input = kymo_input_new_for_paths ((const char * const *) paths, g_strv_length (paths), &error);
  if (input == NULL)
    {
      kymo_cli_print_error (error);
      *status = KYMO_CLI_USAGE;
    }
  return input;
}

KymoTrace *
kymo_cli_load (const KymoCliOptions  *options,
               char                 **paths,
               int                   *status)
{
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(GError) error = NULL;
  KymoLoadOptions load_options = { 0 };
  KymoTrace *trace;

  *status = KYMO_CLI_OK;
  input = kymo_cli_open_input (paths, status);
  if (input == NULL)
    return NULL;

  load_options.format = options->format;
  load_options.tband_mode = options->tband_mode;
  load_options.threads = (guint) MAX (options->threads, 0);
  trace = kymo_load_sync (input, &load_options, NULL, NULL, NULL, &error);
  if (trace == NULL)
    {
      kymo_cli_print_error (error);
      if (g_error_matches (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT) ||
          g_error_matches (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_TRUNCATED))
        *status = KYMO_CLI_DAMAGED;
      else
        *status = KYMO_CLI_USAGE;
      return NULL;
    }

  if (kymo_trace_get_stop_error (trace) != NULL)
    {
      kymo_cli_print_error (kymo_trace_get_stop_error (trace));
      *status = KYMO_CLI_DAMAGED;
    }
  /* What the load left out (a folder's file skipped, unreadable or cut
   * short) changes every answer: said on standard error, as dump does.
   * info lists the warnings itself. */
  if (options->argv == NULL || g_strcmp0 (options->argv[1], "info") != 0)
    {
      gsize n_warnings;
      const KymoWarning *warnings = kymo_trace_get_warnings (trace, &n_warnings);

      for (gsize i = 0; i < n_warnings; i++)
        g_printerr ("kymo-cli: %s\n", warnings[i].message);
    }
  return trace;
}

static void
options_clear (KymoCliOptions *options)
{
  g_clear_pointer (&options->format, g_free);
  g_clear_pointer (&options->tband_mode, g_free);
  g_clear_pointer (&options->output, g_free);
  g_clear_pointer (&options->from, g_free);
  g_clear_pointer (&options->to, g_free);
  g_clear_pointer (&options->svg, g_free);
  g_clear_pointer (&options->clock, g_free);
  g_clear_pointer (&options->argv, g_strfreev);
}

/* Freed on every return so that LeakSanitizer runs of kymo-cli stay clean. */
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (KymoCliOptions, options_clear)

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) paths = NULL;
  g_auto(KymoCliOptions) options = { 0 };
  const char *command;
  int status;
  GOptionEntry entries[] = {
    { "format", 0, 0, G_OPTION_ARG_STRING, &options.format, "Skip detection", "dial9|rtc|atf|wtf|tband" },
    { "tband-mode", 0, 0, G_OPTION_ARG_STRING, &options.tband_mode, "Tonbandgerät trace mode", "freertos|bare-metal" },
    { "threads", 0, 0, G_OPTION_ARG_INT, &options.threads, "Threads a load may use (default: all cores; 1: sequential)", "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &options.json, "info: print JSON", NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &options.csv, "stats: print CSV", NULL },
    { "chrome", 0, 0, G_OPTION_ARG_NONE, &options.chrome, "export: Chrome Trace Event JSON", NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &options.output, "Write to FILE (- for standard output)", "FILE" },
    { "from", 0, 0, G_OPTION_ARG_STRING, &options.from, "Start of the time window (ns)", "NS" },
    { "to", 0, 0, G_OPTION_ARG_STRING, &options.to, "End of the time window (ns)", "NS" },
    { "width", 0, 0, G_OPTION_ARG_INT, &options.width, "render: image width", "PX" },
    { "height", 0, 0, G_OPTION_ARG_INT, &options.height, "render: image height", "PX" },
    { "args", 0, 0, G_OPTION_ARG_NONE, &options.args, "find: match argument values too", NULL },
    { "longest", 0, 0, G_OPTION_ARG_INT, &options.longest, "find: keep the N longest spans", "N" },
    { "samples", 0, 0, G_OPTION_ARG_NONE, &options.samples, "flamegraph: sampled call stacks", NULL },
    { "svg", 0, 0, G_OPTION_ARG_FILENAME, &options.svg, "flamegraph: also draw it to an SVG file", "OUT" },
    { "clock", 0, 0, G_OPTION_ARG_STRING, &options.clock, "Times in tables: relative, or wall clock", "relative|local|utc" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &paths, NULL, NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");

  if (argc < 2 || g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h"))
    {
      print_usage (argc < 2 ? stderr : stdout);
      return argc < 2 ? KYMO_CLI_USAGE : KYMO_CLI_OK;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      printf ("kymo-cli %s\n", PACKAGE_VERSION);
      return KYMO_CLI_OK;
    }

  command = argv[1];
  /* Parsing takes the options out of argv. */
  options.argv = g_strdupv (argv);
  {
    const char *usage = "COMMAND TRACE";

    /* `kymo-cli COMMAND --help` shows the command's own usage. */
    for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
      if (g_str_equal (command, commands[i].name))
        usage = commands[i].usage;
    context = g_option_context_new (usage);
  }
  g_option_context_add_main_entries (context, entries, NULL);
  {
    /* argv[1] is the command: parse what follows it */
    int sub_argc = argc - 1;
    char **sub_argv = argv + 1;

    sub_argv[0] = argv[0];
    if (!g_option_context_parse (context, &sub_argc, &sub_argv, &error))
      {
        fprintf (stderr, "kymo-cli: %s\n", error->message);
        return KYMO_CLI_USAGE;
      }
  }

  if (options.threads < 0)
    {
      fprintf (stderr, "kymo-cli: --threads takes a number of threads (0: all cores)\n");
      return KYMO_CLI_USAGE;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (command, commands[i].name))
      {
        if (paths == NULL || paths[0] == NULL)
          {
            fprintf (stderr, "kymo-cli: %s: no trace given\nUsage: kymo-cli %s\n", command, commands[i].usage);
            return KYMO_CLI_USAGE;
          }
        status = commands[i].func (&options, paths);
        fflush (stdout);
        return status;
      }

  fprintf (stderr, "kymo-cli: unknown command “%s”\n", command);
  print_usage (stderr);
  return KYMO_CLI_USAGE;
}
