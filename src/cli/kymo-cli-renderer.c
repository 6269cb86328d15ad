/* kymo-cli-renderer.c: the commands that draw, run in kymo-cli-render
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "kymo-cli-private.h"

#define RENDERER "kymo-cli-render"

/* Beside this executable first (the build tree, or both copied together),
 * then where it is installed. */
static char *
find_renderer (void)
{
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);
  char *path;

  if (self != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (self);

      path = g_build_filename (dir, RENDERER, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
        return path;
      g_free (path);
    }
#ifdef KYMO_RENDERER_DIR
  path = g_build_filename (KYMO_RENDERER_DIR, RENDERER, NULL);
  if (g_file_test (path, G_FILE_TEST_IS_EXECUTABLE))
    return path;
  g_free (path);
#endif
  return NULL;
}

int
kymo_cli_run_renderer (const KymoCliOptions *options)
{
  g_autofree char *path = find_renderer ();

  if (path == NULL)
    {
      fprintf (stderr, "kymo-cli: this build has no renderer (%s is not installed)\n", RENDERER);
      return KYMO_CLI_USAGE;
    }
  fflush (stdout);
  execv (path, options->argv);
  fprintf (stderr, "kymo-cli: %s: %s\n", path, g_strerror (errno));
  return KYMO_CLI_USAGE;
}
