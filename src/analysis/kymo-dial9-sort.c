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
/* Below this many keys, moving each into place beats counting digits. */
#define INSERTION_MAX 48

/* One stable LSD radix sort for both shapes of key: @KEY reads the 64-bit
 * key of an element, sorted by its bits [@lo_bit, @hi_bit) in digits of
 * equal width, at most DIGIT_BITS each: the fewer buckets, the fewer
 * places a pass writes to at once. */
#define DEFINE_SORT(name, Type, KEY)                                          \
static Type *                                                                 \
name (Type  *keys,                                                            \
      Type  *scratch,                                                         \
      gsize  n,                                                               \
      guint  lo_bit,                                                          \
      guint  hi_bit)                                                          \
{                                                                             \
  guint n_bits = hi_bit > lo_bit ? hi_bit - lo_bit : 0;                       \
  guint n_digits = (n_bits + DIGIT_BITS - 1) / DIGIT_BITS;                    \
  guint width = n_digits > 0 ? (n_bits + n_digits - 1) / n_digits : 0;        \
  guint64 mask = n_bits >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << n_bits) - 1; \
  gsize radix = (gsize) 1 << width;                                           \
  g_autofree guint32 *count = NULL;                                           \
  Type *src = keys, *dst = scratch;                                           \
                                                                              \
  if (n < 2 || n_digits == 0)                                                 \
    return keys;                                                              \
  if (n <= INSERTION_MAX)                                                     \
    {                                                                         \
      for (gsize i = 1; i < n; i++)                                           \
        {                                                                     \
          Type x = keys[i];                                                   \
          guint64 k = (KEY (x) >> lo_bit) & mask;                             \
          gsize j = i;                                                        \
                                                                              \
          for (; j > 0 && ((KEY (keys[j - 1]) >> lo_bit) & mask) > k; j--)    \
            keys[j] = keys[j - 1];                                            \
          keys[j] = x;                                                        \
        }                                                                     \
      return keys;                                                            \
    }                                                                         \
  count = g_new0 (guint32, n_digits * radix);                                 \
  for (gsize i = 0; i < n; i++)                                               \
    {                                                                         \
      guint64 k = KEY (keys[i]) >> lo_bit;                                    \
                                                                              \
      for (guint d = 0; d < n_digits; d++)                                    \
        count[d * radix + ((k >> (d * width)) & (radix - 1))]++;              \
    }                                                                         \
  for (guint d = 0; d < n_digits; d++)                                        \
    {                                                                         \
      guint32 *c = count + d * radix;                                         \
      guint shift = lo_bit + d * width;                                       \
      guint32 sum = 0;                                                        \
      Type *t;                                                                \
                                                                              \
      /* Every key has this digit: the order stands. */                       \
      if (c[(KEY (src[0]) >> shift) & (radix - 1)] == n)                      \
        continue;                                                             \
      for (gsize k = 0; k < radix; k++)                                       \
        {                                                                     \
          guint32 here = c[k];                                                \
                                                                              \
          c[k] = sum;                                                         \
          sum += here;                                                        \
        }                                                                     \
      for (gsize i = 0; i < n; i++)                                           \
        dst[c[(KEY (src[i]) >> shift) & (radix - 1)]++] = src[i];             \
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
_kymo_dial9_sort_key_bits (guint64 *keys,
                           guint64 *scratch,
                           gsize    n,
                           guint    lo_bit,
                           guint    hi_bit)
{
  g_return_val_if_fail (n <= G_MAXUINT32 && lo_bit <= hi_bit && hi_bit <= 64, keys);
  return sort_plain (keys, scratch, n, lo_bit, hi_bit);
}

KymoDial9SortKey *
_kymo_dial9_sort_indexed (KymoDial9SortKey *keys,
                          KymoDial9SortKey *scratch,
                          gsize             n)
{
  g_return_val_if_fail (n <= G_MAXUINT32, keys);
  return sort_indexed (keys, scratch, n, 0, 64);
}
