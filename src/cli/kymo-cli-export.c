/* kymo-cli-export.c: `kymo-cli export`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <glib/gstdio.h>

#include "kymo-cli-private.h"

int
kymo_cli_export (const KymoCliOptions  *options,
                 char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  gboolean to_stdout;
  FILE *out;
  int status;

  if (!options->chrome)
    {
      fprintf (stderr, "kymo-cli: export: choose the output format (--chrome)\n"
                       "Usage: kymo-cli export --chrome TRACE [-o OUT]\n");
      return KYMO_CLI_USAGE;
    }

  /* Load first: a trace that cannot be read must not clobber OUT. */
  trace = kymo_cli_load (options, paths, &status);
  if (trace == NULL)
    return status;

  to_stdout = options->output == NULL || g_str_equal (options->output, "-");
  if (to_stdout)
    out = stdout;
  else
    {
      out = g_fopen (options->output, "wb");
      if (out == NULL)
        {
          int saved_errno = errno;

          fprintf (stderr, "kymo-cli: %s: %s\n", options->output, g_strerror (saved_errno));
          return KYMO_CLI_USAGE;
        }
    }

  if (!kymo_export_chrome (trace, out, NULL, &error))
    {
      fprintf (stderr, "kymo-cli: %s: %s\n", to_stdout ? "standard output" : options->output,
               error->message);
      if (!to_stdout)
        {
          fclose (out);
          /* Half a JSON document is of no use to anyone. */
          g_unlink (options->output);
        }
      return KYMO_CLI_USAGE;
    }

  if (!to_stdout && fclose (out) != 0)
    {
      int saved_errno = errno;

      fprintf (stderr, "kymo-cli: %s: %s\n", options->output, g_strerror (saved_errno));
      g_unlink (options->output);
      return KYMO_CLI_USAGE;
    }
  return status;
}
