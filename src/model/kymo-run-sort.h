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
 * The runs of one thread follow on from each other: each run is chained
 * after the chain whose last element it follows most closely, and the
 * chains (a few per thread) are merged in one pass through a tournament
 * (loser) tree, with the comparison inlined. When the runs make too many
 * chains they are merged two at a time instead, log2 (runs) passes.
 * Many threads' runs interleaved (stack samples of copies of a trace
 * that overlap in time) make hundreds of chains: a run finds its chain by
 * a binary search over the chains ordered by their last element. It is
 * stable, as g_qsort_with_data() is, so equal keys keep their order and
 * the result is the same.
 *
 * KYMO_DEFINE_RUN_SORT (name, Type, LESS) defines
 * `static void name (Type *a, gsize n)`, where LESS (x, y) says whether
 * *x sorts before *y. */
#define KYMO_RUN_SORT_MAX_CHAINS 4096

/* Whether leaf x's head goes before leaf y's (@cur: per leaf its next
 * element, its run's end, the run): a done leaf goes last, and equal heads
 * in the order they had (stable). */
#define KYMO_RUN_SORT_BEFORE(LESS, a, cur, x, y)                               \
  ((cur)[3 * (y)] >= (cur)[3 * (y) + 1]                                        \
   ? (cur)[3 * (x)] < (cur)[3 * (x) + 1] || (x) < (y)                          \
   : (cur)[3 * (x)] < (cur)[3 * (x) + 1] &&                                    \
     (LESS (&(a)[(cur)[3 * (x)]], &(a)[(cur)[3 * (y)]]) ||                     \
      (!LESS (&(a)[(cur)[3 * (y)]], &(a)[(cur)[3 * (x)]]) &&                   \
       (cur)[3 * (x)] < (cur)[3 * (y)])))

#define KYMO_DEFINE_RUN_SORT(name, Type, LESS)                                 \
/* Merges the runs of @a (starting at @starts, @n_runs + 1 entries) into   \
 * @buf by chains; FALSE (nothing written) when they make too many. */      \
static gboolean                                                                \
name##_chained (const Type  *a,                                                \
                gsize        n,                                                \
                const gsize *starts,                                           \
                gsize        n_runs,                                           \
                Type        *buf)                                              \
{                                                                              \
  g_autofree gsize *link = NULL;                                               \
  g_autofree gsize *cur = NULL; /* per leaf: next, end, run */                \
  g_autofree guint *tree = NULL;                                               \
  g_autofree guint *win = NULL;                                                \
  g_autofree gsize *tail = g_new (gsize, KYMO_RUN_SORT_MAX_CHAINS);            \
  g_autofree gsize *head = g_new (gsize, KYMO_RUN_SORT_MAX_CHAINS);            \
  /* The chains by their last element, so that finding the one a run       \
   * follows most closely is a binary search. */                              \
  g_autofree guint *by_last = g_new (guint, KYMO_RUN_SORT_MAX_CHAINS);         \
  guint n_chains = 0, size = 1;                                                \
                                                                               \
  link = g_new (gsize, n_runs);                                                \
  for (gsize r = 0; r < n_runs; r++)                                           \
    {                                                                          \
      const Type *first = &a[starts[r]], *last = &a[starts[r + 1] - 1];        \
      guint lo = 0, hi = n_chains, pos, c;                                     \
                                                                               \
      while (lo < hi)                                                          \
        {                                                                      \
          guint mid = lo + (hi - lo) / 2;                                      \
                                                                               \
          if (LESS (first, &a[starts[tail[by_last[mid]] + 1] - 1]))            \
            hi = mid;                                                          \
          else                                                                 \
            lo = mid + 1;                                                      \
        }                                                                      \
      link[r] = G_MAXSIZE;                                                     \
      if (lo > 0)                                                              \
        {                                                                      \
          pos = lo - 1;                                                        \
          c = by_last[pos];                                                    \
          link[tail[c]] = r;                                                   \
        }                                                                      \
      else if (n_chains == KYMO_RUN_SORT_MAX_CHAINS)                           \
        return FALSE;                                                          \
      else                                                                     \
        {                                                                      \
          pos = 0;                                                             \
          c = n_chains++;                                                      \
          memmove (by_last + 1, by_last, (n_chains - 1) * sizeof (guint));     \
          by_last[0] = c;                                                      \
          head[c] = r;                                                         \
        }                                                                      \
      tail[c] = r;                                                             \
      /* Its last element moved on: it moves up past those now before it. */  \
      while (pos + 1 < n_chains && LESS (&a[starts[tail[by_last[pos + 1]] + 1] - 1], last)) \
        {                                                                      \
          by_last[pos] = by_last[pos + 1];                                     \
          by_last[++pos] = c;                                                  \
        }                                                                      \
    }                                                                          \
                                                                               \
  while (size < n_chains)                                                      \
    size *= 2;                                                                 \
  cur = g_new (gsize, 3 * (gsize) size);                                       \
  for (guint c = 0; c < size; c++)                                             \
    {                                                                          \
      cur[3 * c] = c < n_chains ? starts[head[c]] : 0;                         \
      cur[3 * c + 1] = c < n_chains ? starts[head[c] + 1] : 0;                 \
      cur[3 * c + 2] = c < n_chains ? head[c] : 0;                             \
    }                                                                          \
                                                                               \
  tree = g_new (guint, size);                                                  \
  win = g_new (guint, 2 * (gsize) size);                                       \
  for (guint i = 0; i < size; i++)                                             \
    win[size + i] = i;                                                         \
  for (guint node = size; node-- > 1;)                                         \
    {                                                                          \
      guint x = win[2 * node], y = win[2 * node + 1];                          \
      gboolean x_first = KYMO_RUN_SORT_BEFORE (LESS, a, cur, x, y);                          \
                                                                               \
      win[node] = x_first ? x : y;                                             \
      tree[node] = x_first ? y : x;                                            \
    }                                                                          \
  tree[0] = size > 1 ? win[1] : 0;                                             \
                                                                               \
  for (gsize o = 0; o < n; o++)                                                \
    {                                                                          \
      guint top = tree[0], winner = top;                                       \
      gsize *leaf = &cur[3 * top];                                             \
                                                                               \
      /* Many chains are more streams than the hardware follows. */         \
      __builtin_prefetch (&a[leaf[0] + 16]);                                   \
      buf[o] = a[leaf[0]++];                                                   \
      if (leaf[0] == leaf[1] && link[leaf[2]] != G_MAXSIZE)                    \
        {                                                                      \
          leaf[2] = link[leaf[2]];                                             \
          leaf[0] = starts[leaf[2]];                                           \
          leaf[1] = starts[leaf[2] + 1];                                       \
        }                                                                      \
      for (guint node = (top + size) / 2; node > 0; node /= 2)                 \
        if (KYMO_RUN_SORT_BEFORE (LESS, a, cur, tree[node], winner))                         \
          {                                                                    \
            guint t = tree[node];                                              \
                                                                               \
            tree[node] = winner;                                               \
            winner = t;                                                        \
          }                                                                    \
      tree[0] = winner;                                                        \
    }                                                                          \
  return TRUE;                                                                 \
}                                                                              \
                                                                               \
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
  if (name##_chained (a, n, starts, n_runs, buf))                              \
    {                                                                          \
      memcpy (a, buf, n * sizeof (Type));                                      \
      return;                                                                  \
    }                                                                          \
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
