/* kymo-dial9-sort.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9"

#include "config.h"

#include "kymo-dial9-sort-private.h"

#define DIGIT_BITS 11
#define RADIX      (1 << DIGIT_BITS)
#define MAX_DIGITS ((64 + DIGIT_BITS - 1) / DIGIT_BITS)

guint64 *
_kymo_dial9_sort_keys (guint64 *keys,
                       guint64 *scratch,
                       gsize    n,
                       guint    lo_bit)
{
  guint n_digits = lo_bit >= 64 ? 0 : (64 - lo_bit + DIGIT_BITS - 1) / DIGIT_BITS;
  g_autofree guint32 *count = NULL;
  guint64 *src = keys, *dst = scratch;

  if (n < 2 || n_digits == 0)
    return keys;
  g_return_val_if_fail (n <= G_MAXUINT32, keys);

  count = g_new0 (guint32, (gsize) n_digits * RADIX);
  for (gsize i = 0; i < n; i++)
    {
      guint64 k = keys[i] >> lo_bit;

      for (guint d = 0; d < n_digits; d++)
        count[d * RADIX + ((k >> (d * DIGIT_BITS)) & (RADIX - 1))]++;
    }
  for (guint d = 0; d < n_digits; d++)
    {
      guint32 *c = count + d * RADIX;
      guint shift = lo_bit + d * DIGIT_BITS;
      guint32 sum = 0;

      /* Every key has this digit: the order stands. */
      if (c[(src[0] >> shift) & (RADIX - 1)] == n)
        continue;
      for (guint k = 0; k < RADIX; k++)
        {
          guint32 here = c[k];

          c[k] = sum;
          sum += here;
        }
      for (gsize i = 0; i < n; i++)
        dst[c[(src[i] >> shift) & (RADIX - 1)]++] = src[i];
      {
        guint64 *t = src;

        src = dst;
        dst = t;
      }
    }
  return src;
}
