/* kymo-bench-gen.c: writes the inputs run-bench.sh times kymo-cli on
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   kymo-bench-gen atf PID_DIR THREADS EVENTS_PER_THREAD SYMBOLS(0|1) MAX_DEPTH [EXCEPTION_EVERY]
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "kymo-test-atf-session.h"

int
main (int   argc,
      char *argv[])
{
  if (argc >= 7 && g_str_equal (argv[1], "atf"))
    {
      KymoTestAtfShape shape = {
        .n_threads = (guint) atoi (argv[3]),
        .events_per_thread = (guint) atoi (argv[4]),
        .symbols = atoi (argv[5]) != 0,
        .max_depth = (guint) atoi (argv[6]),
        .n_functions = 2000,
        .exception_every = argc >= 8 ? (guint) atoi (argv[7]) : 0,
      };

      kymo_test_write_atf_session (argv[2], &shape);
      return 0;
    }
  fprintf (stderr, "usage: kymo-bench-gen atf PID_DIR THREADS EVENTS_PER_THREAD SYMBOLS MAX_DEPTH [EXCEPTION_EVERY]\n");
  return 2;
}
