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

/* One stable LSD radix sort for both shapes of key: @KEY reads the 64-bit
 * key of an element. */
#define DEFINE_SORT(name, Type, KEY)                                          \
static Type *                                                                 \
name (Type  *keys,                                                            \
      Type  *scratch,                                                         \
      gsize  n,                                                               \
      guint  lo_bit)                                                          \
{                                                                             \
  guint n_digits = lo_bit >= 64 ? 0 : (64 - lo_bit + DIGIT_BITS - 1) / DIGIT_BITS; \
  g_autofree guint32 *count = NULL;                                           \
  Type *src = keys, *dst = scratch;                                           \
                                                                              \
  if (n < 2 || n_digits == 0)                                                 \
    return keys;                                                              \
  count = g_new0 (guint32, (gsize) n_digits * RADIX);                         \
  for (gsize i = 0; i < n; i++)                                               \
    {                                                                         \
      guint64 k = KEY (keys[i]) >> lo_bit;                                    \
                                                                              \
      for (guint d = 0; d < n_digits; d++)                                    \
        count[d * RADIX + ((k >> (d * DIGIT_BITS)) & (RADIX - 1))]++;         \
    }                                                                         \
  for (guint d = 0; d < n_digits; d++)                                        \
    {                                                                         \
      guint32 *c = count + d * RADIX;                                         \
      guint shift = lo_bit + d * DIGIT_BITS;                                  \
      guint32 sum = 0;                                                        \
      Type *t;                                                                \
                                                                              \
      /* Every key has this digit: the order stands. */                       \
      if (c[(KEY (src[0]) >> shift) & (RADIX - 1)] == n)                      \
        continue;                                                             \
      for (guint k = 0; k < RADIX; k++)                                       \
        {                                                                     \
          guint32 here = c[k];                                                \
                                                                              \
          c[k] = sum;                                                         \
          sum += here;                                                        \
        }                                                                     \
      for (gsize i = 0; i < n; i++)                                           \
        dst[c[(KEY (src[i]) >> shift) & (RADIX - 1)]++] = src[i];             \
      t = src;                                                                \
      src = dst;                                                              \
      dst = t;                                                                \
    }                                                                         \
  return src;                                                                 \
}

#define PLAIN_KEY(x)   (x)
#define INDEXED_KEY(x) ((x).key)
DEFINE_SORT (sort_plain, guint64, PLAIN_KEY)
DEFINE_SORT (sort_indexed, KymoDial9SortKey, INDEXED_KEY)

guint64 *
_kymo_dial9_sort_keys (guint64 *keys,
                       guint64 *scratch,
                       gsize    n,
                       guint    lo_bit)
{
  g_return_val_if_fail (n <= G_MAXUINT32, keys);
  return sort_plain (keys, scratch, n, lo_bit);
}

KymoDial9SortKey *
_kymo_dial9_sort_indexed (KymoDial9SortKey *keys,
                          KymoDial9SortKey *scratch,
                          gsize             n)
{
  g_return_val_if_fail (n <= G_MAXUINT32, keys);
  return sort_indexed (keys, scratch, n, 0);
}
