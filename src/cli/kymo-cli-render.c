/* kymo-cli-render.c: `kymo-cli render`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <stdio.h>

#include "kymo-cli-private.h"

int
kymo_cli_render (const KymoCliOptions  *options,
                 char                 **paths)
{
#ifdef KYMO_HAVE_RENDER
  fprintf (stderr, "kymo-cli: render is not available yet\n");
#else
  fprintf (stderr, "kymo-cli: this build has no renderer (built with -Dui=false)\n");
#endif
  return KYMO_CLI_USAGE;
}
