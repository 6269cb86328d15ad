/* kymo-fuzz-replay.c: runs a fuzz target over a corpus folder, as a plain test
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib.h>

#include "kymo-fuzz.h"

int
main (int   argc,
      char *argv[])
{
  guint n = 0;

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GDir) dir = g_dir_open (argv[i], 0, NULL);
      const char *name;

      if (dir == NULL)
        continue;
      while ((name = g_dir_read_name (dir)))
        {
          g_autofree char *path = g_build_filename (argv[i], name, NULL);
          g_autofree char *data = NULL;
          gsize len;

          if (!g_file_get_contents (path, &data, &len, NULL))
            continue;
          LLVMFuzzerTestOneInput ((const uint8_t *) data, len);
          n++;
        }
    }
  printf ("replayed %u inputs\n", n);
  return 0;
}
