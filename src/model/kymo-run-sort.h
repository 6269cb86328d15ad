/* kymo-run-sort.h: stable sorts for arrays made of sorted runs
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/* What decoders emit out of order is mostly runs that are each in order
 * (a dial9 file is concatenated per-thread batches, whose times overlap).
 * A merge of those runs, two at a time, costs log2 (runs) passes instead
 * of log2 (n) for a general sort, with the comparison inlined. It is
 * stable, as g_qsort_with_data() is, so equal keys keep their order and
 * the result is the same.
 *
 * KYMO_DEFINE_RUN_SORT (name, Type, LESS) defines
 * `static void name (Type *a, gsize n)`, where LESS (x, y) says whether
 * *x sorts before *y. */
#define KYMO_DEFINE_RUN_SORT(name, Type, LESS)                                 \
static void                                                                    \
name (Type  *a,                                                                \
      gsize  n)                                                                \
{                                                                              \
  g_autofree gsize *starts = NULL;                                             \
  g_autofree Type *buf = NULL;                                                 \
  Type *src = a, *dst;                                                         \
  gsize n_runs = 1;                                                            \
                                                                               \
  gssize budget = (gssize) (n / 16) + 64;                                      \
  gsize i;                                                                     \
                                                                               \
  /* A few elements out of place (ties the wrong way round, a late event)   \
   * are moved back one by one while that stays cheap. */                     \
  for (i = 1; i < n && budget > 0; i++)                                        \
    if (LESS (&a[i], &a[i - 1]))                                               \
      {                                                                        \
        Type t = a[i];                                                         \
        gsize j = i;                                                           \
                                                                               \
        do                                                                     \
          {                                                                    \
            a[j] = a[j - 1];                                                   \
            j--;                                                               \
            budget--;                                                          \
          }                                                                    \
        while (j > 0 && LESS (&t, &a[j - 1]));                                 \
        a[j] = t;                                                              \
      }                                                                        \
  if (i >= n)                                                                  \
    return;                                                                    \
                                                                               \
  for (i = 1; i < n; i++)                                                      \
    if (LESS (&a[i], &a[i - 1]))                                               \
      n_runs++;                                                                \
  if (n_runs == 1)                                                             \
    return;                                                                    \
  starts = g_new (gsize, n_runs + 1);                                          \
  starts[0] = 0;                                                               \
  n_runs = 1;                                                                  \
  for (i = 1; i < n; i++)                                                      \
    if (LESS (&a[i], &a[i - 1]))                                               \
      starts[n_runs++] = i;                                                    \
  starts[n_runs] = n;                                                          \
                                                                               \
  buf = g_new (Type, n);                                                       \
  dst = buf;                                                                   \
  while (n_runs > 1)                                                           \
    {                                                                          \
      gsize merged = 0;                                                        \
                                                                               \
      for (gsize r = 0; r < n_runs; r += 2)                                    \
        {                                                                      \
          gsize lo = starts[r], mid = starts[r + 1];                           \
          gsize hi = r + 2 <= n_runs ? starts[r + 2] : mid;                    \
          gsize x = lo, y = mid, o = lo;                                       \
                                                                               \
          /* Ties take the left run: stable. */                                \
          while (x < mid && y < hi)                                            \
            dst[o++] = LESS (&src[y], &src[x]) ? src[y++] : src[x++];          \
          if (x < mid)                                                         \
            memcpy (dst + o, src + x, (mid - x) * sizeof (Type));              \
          else if (y < hi)                                                     \
            memcpy (dst + o, src + y, (hi - y) * sizeof (Type));               \
          starts[merged++] = lo;                                               \
        }                                                                      \
      starts[merged] = n;                                                      \
      n_runs = merged;                                                         \
      dst = src;                                                               \
      src = src == a ? buf : a;                                                \
    }                                                                          \
  if (src != a)                                                                \
    memcpy (a, src, n * sizeof (Type));                                        \
}

G_END_DECLS
