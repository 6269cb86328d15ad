/* kymo-pivot.c: a key about halfway through many, from a few read evenly spaced
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-pivot"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kymo-pivot.h"

gboolean
kymo_pivot_from_probes (gsize             n,
                        gsize             key_size,
                        GCompareFunc      compare,
                        KymoPivotReadFunc read,
                        gpointer          user_data,
                        gpointer          pivot)
{
  g_autofree guint8 *probes = NULL;

  g_return_val_if_fail (key_size > 0 && compare != NULL && read != NULL && pivot != NULL, FALSE);

  if (n == 0)
    return FALSE;
  probes = g_malloc_n (KYMO_PIVOT_PROBES, key_size);
  for (gsize k = 0; k < KYMO_PIVOT_PROBES; k++)
    read (k * n / KYMO_PIVOT_PROBES, probes + k * key_size, user_data);
  qsort (probes, KYMO_PIVOT_PROBES, key_size, compare);
  memcpy (pivot, probes + KYMO_PIVOT_PROBES / 2 * key_size, key_size);
  return TRUE;
}
