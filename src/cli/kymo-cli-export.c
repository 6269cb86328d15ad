/* kymo-cli-export.c: `kymo-cli export`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <stdio.h>

#include "kymo-cli-private.h"

int
kymo_cli_export (const KymoCliOptions  *options,
             char                 **paths)
{
  fprintf (stderr, "kymo-cli: export is not available yet\n");
  return KYMO_CLI_USAGE;
}
