/* kymo-cli-private.h: what the subcommands of kymo-cli share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-analysis.h"

G_BEGIN_DECLS

/* Exit statuses of ../shared/specs/CLI.md */
enum {
  KYMO_CLI_OK = 0,
  KYMO_CLI_DAMAGED = 1,
  KYMO_CLI_USAGE = 2,
};

typedef struct {
  char    *format;
  char    *tband_mode;
  gboolean json;
  gboolean csv;
  char    *output;
  gboolean chrome;
  char    *from;
  char    *to;
  int      width;
  int      height;
  gboolean args;
  int      longest;
  gboolean samples;
  char    *svg;
  char    *clock;
  int      threads;
  char   **argv;      /* as given, for the drawing process (kymo_cli_run_renderer()) */
} KymoCliOptions;

/* Opens and loads the trace named by @paths; prints the error and sets
 * *status when it cannot. A trace that stopped at damage sets *status to 1. */
KymoTrace *kymo_cli_load        (const KymoCliOptions *options,
                                 char                **paths,
                                 int                  *status);
KymoInput *kymo_cli_open_input  (char                **paths,
                                 int                  *status);
void       kymo_cli_print_error (const GError         *error);
/* kymo-cli links no GTK, whose libraries take a fresh process longer to
 * start than most commands take to run: what draws (render, flamegraph
 * --svg) runs in kymo-cli-render, which this replaces the process with,
 * given the same arguments. Returns only when it cannot, with the status. */
int        kymo_cli_run_renderer (const KymoCliOptions *options);
/* Parses "--from/--to" values (ns); returns FALSE with a message on bad input. */
gboolean   kymo_cli_parse_time  (const char           *text,
                                 KymoTime             *out);

int kymo_cli_info   (const KymoCliOptions *options, char **paths);
int kymo_cli_dump   (const KymoCliOptions *options, char **paths);
int kymo_cli_export (const KymoCliOptions *options, char **paths);
int kymo_cli_stats  (const KymoCliOptions *options, char **paths);
int kymo_cli_render (const KymoCliOptions *options, char **paths);
int kymo_cli_find   (const KymoCliOptions *options, char **paths);
int kymo_cli_flamegraph (const KymoCliOptions *options, char **paths);
int kymo_cli_query  (const KymoCliOptions *options, char **paths);
int kymo_cli_tasks  (const KymoCliOptions *options, char **paths);

G_END_DECLS
