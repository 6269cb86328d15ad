/* kymo-cli-flamegraph.c: `kymo-cli flamegraph`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "kymo-cli-private.h"

#ifdef KYMO_HAVE_RENDER
#include "kymo-flame-graph-renderer.h"
#endif

#define SVG_WIDTH 1200

int
kymo_cli_flamegraph (const KymoCliOptions  *options,
                     char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoCallTree) tree = NULL;
  g_autoptr(GError) error = NULL;
  KymoTime from = KYMO_TIME_NONE, to = KYMO_TIME_NONE;
  int status;

  if ((options->from != NULL && !kymo_cli_parse_time (options->from, &from)) ||
      (options->to != NULL && !kymo_cli_parse_time (options->to, &to)))
    return KYMO_CLI_USAGE;
  if (from != KYMO_TIME_NONE && to != KYMO_TIME_NONE && from > to)
    {
      fprintf (stderr, "kymo-cli: flamegraph: --from %" G_GINT64_FORMAT " is after --to %" G_GINT64_FORMAT "\n",
               from, to);
      return KYMO_CLI_USAGE;
    }
#ifndef KYMO_HAVE_RENDER
  if (options->svg != NULL)
    return kymo_cli_run_renderer (options);
#endif

  trace = kymo_cli_load (options, paths, &status);
  if (trace == NULL)
    return status;

  tree = kymo_call_tree_build (trace, options->samples ? KYMO_CALL_TREE_SAMPLES : KYMO_CALL_TREE_SPANS,
                               from, to, NULL, 0, NULL, &error);
  if (tree == NULL)
    {
      kymo_cli_print_error (error);
      return KYMO_CLI_USAGE;
    }
  if (!kymo_call_tree_write_folded (tree, stdout))
    {
      int saved_errno = errno;

      fprintf (stderr, "kymo-cli: standard output: %s\n", g_strerror (saved_errno));
      return KYMO_CLI_USAGE;
    }

#ifdef KYMO_HAVE_RENDER
  if (options->svg != NULL &&
      !kymo_flame_render_export_svg (tree, KYMO_FLAME_GRAPH_FLAME, SVG_WIDTH, options->svg, &error))
    {
      kymo_cli_print_error (error);
      return KYMO_CLI_USAGE;
    }
#endif
  return status;
}
