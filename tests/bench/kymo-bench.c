/* kymo-bench.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <malloc.h>
#include <stdlib.h>

#include "kymo-bench.h"

gsize
kymo_bench_heap_bytes (void)
{
  struct mallinfo2 info = mallinfo2 ();

  return info.uordblks + info.hblkhd;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

double
kymo_bench_median (double *values,
                   guint   n)
{
  qsort (values, n, sizeof (double), compare_double);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double
kymo_bench_cksum_seconds (const char * const *paths,
                          guint               n_paths,
                          guint               runs)
{
  g_autofree double *times = g_new (double, runs);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, (gpointer) "cksum");
  for (guint i = 0; i < n_paths; i++)
    g_ptr_array_add (argv, (gpointer) paths[i]);
  g_ptr_array_add (argv, NULL);

  for (guint r = 0; r < runs; r++)
    {
      gint64 t0 = g_get_monotonic_time ();
      g_spawn_sync (NULL, (char **) argv->pdata, NULL,
                    G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                    NULL, NULL, NULL, NULL, NULL, NULL);
      times[r] = (g_get_monotonic_time () - t0) / 1e6;
    }
  return kymo_bench_median (times, runs);
}

char *
kymo_bench_scratch_dir (void)
{
  return g_dir_make_tmp ("kymo-bench-XXXXXX", NULL);
}
