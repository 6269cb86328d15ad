/* kymo-cli-dump.c: `kymo-cli dump`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <stdio.h>

#include "kymo-cli-private.h"

int
kymo_cli_dump (const KymoCliOptions  *options,
               char                 **paths)
{
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(KymoJsonWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  KymoLoadOptions load_options = { 0 };
  gboolean ok;
  int status = KYMO_CLI_OK;

  input = kymo_cli_open_input (paths, &status);
  if (input == NULL)
    return status;

  load_options.format = options->format;
  load_options.tband_mode = options->tband_mode;
  load_options.threads = (guint) MAX (options->threads, 0);
  writer = kymo_json_writer_new (stdout);
  ok = kymo_dump_sync_full (input, &load_options, writer, &warnings, &error);
  kymo_json_writer_flush (writer);
  fflush (stdout);
  /* What did not stop the dump (files of a folder skipped, damage in a
   * later file) is said on standard error, as the library never prints. */
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    g_printerr ("kymo-cli: %s\n", (const char *) g_ptr_array_index (warnings, i));
  if (!ok)
    {
      kymo_cli_print_error (error);
      if (error->domain == KYMO_LOAD_ERROR &&
          (error->code == KYMO_LOAD_ERROR_CORRUPT || error->code == KYMO_LOAD_ERROR_TRUNCATED))
        return KYMO_CLI_DAMAGED;
      return KYMO_CLI_USAGE;
    }
  return KYMO_CLI_OK;
}
