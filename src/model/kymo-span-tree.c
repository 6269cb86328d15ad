/* kymo-span-tree.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-span-tree"

#include "config.h"

#include "kymo-span-tree.h"

static inline KymoTime
span_length (const KymoSpan *span)
{
  return span->end - span->start;
}

static inline gboolean
is_leaf (gsize lo,
         gsize hi)
{
  return hi - lo <= KYMO_SPAN_TREE_LEAF;
}

static guint
count_levels (gsize n)
{
  guint levels = 0;

  while (n > KYMO_SPAN_TREE_LEAF)
    {
      n = n - n / 2;   /* the larger half */
      levels++;
    }
  return levels;
}

/* The order the tree needs: by start, and longer first so that an
 * enclosing span precedes what starts with it. */
static inline gboolean
in_order (const KymoSpan *a,
          const KymoSpan *b)
{
  return a->start < b->start || (a->start == b->start && a->end >= b->end);
}

static void
build (KymoSpanTree *tree,
       guint         node,
       gsize         lo,
       gsize         hi,
       gboolean     *ordered)
{
  gsize mid = lo + (hi - lo) / 2;
  KymoTime max_end = G_MININT64;
  guint32 longest = G_MAXUINT32;

  g_assert (!is_leaf (lo, hi));

  for (guint side = 0; side < 2; side++)
    {
      gsize clo = side ? mid : lo;
      gsize chi = side ? hi : mid;
      KymoTime cmax;
      guint32 clong;

      if (is_leaf (clo, chi))
        {
          cmax = G_MININT64;
          clong = G_MAXUINT32;
          for (gsize i = clo; i < chi; i++)
            {
              /* Checking the order here, while the leaf is in cache, spares
               * sealing a pass over every span. */
              if (G_UNLIKELY (tree->spans[i].end < tree->spans[i].start))
                ((KymoSpan *) tree->spans)[i].end = tree->spans[i].start;
              if (i > 0 && !in_order (&tree->spans[i - 1], &tree->spans[i]))
                *ordered = FALSE;
              if (tree->spans[i].end > cmax)
                cmax = tree->spans[i].end;
              if (clong == G_MAXUINT32 || span_length (&tree->spans[i]) > span_length (&tree->spans[clong]))
                clong = i;
            }
        }
      else
        {
          guint child = node * 2 + side;
          build (tree, child, clo, chi, ordered);
          cmax = tree->max_end[child];
          clong = tree->longest[child];
        }

      if (cmax > max_end)
        max_end = cmax;
      if (clong != G_MAXUINT32 &&
          (longest == G_MAXUINT32 || span_length (&tree->spans[clong]) > span_length (&tree->spans[longest])))
        longest = clong;
    }

  tree->max_end[node] = max_end;
  tree->longest[node] = longest;
}

gboolean
kymo_span_tree_init (KymoSpanTree *tree,
                     KymoSpan     *spans,
                     gsize         n_spans)
{
  gboolean ordered = TRUE;
  guint levels;

  memset (tree, 0, sizeof *tree);
  tree->spans = spans;
  tree->n_spans = n_spans;

  if (is_leaf (0, n_spans))
    {
      for (gsize i = 0; i < n_spans; i++)
        {
          if (spans[i].end < spans[i].start)
            spans[i].end = spans[i].start;
          if (i > 0 && !in_order (&spans[i - 1], &spans[i]))
            ordered = FALSE;
        }
      return ordered;
    }

  levels = count_levels (n_spans);
  tree->n_nodes = 1u << levels;
  tree->max_end = g_new (KymoTime, tree->n_nodes);
  tree->longest = g_new (guint32, tree->n_nodes);
  build (tree, 1, 0, n_spans, &ordered);
  return ordered;
}

void
kymo_span_tree_clear (KymoSpanTree *tree)
{
  g_clear_pointer (&tree->max_end, g_free);
  g_clear_pointer (&tree->longest, g_free);
  tree->n_nodes = 0;
}

static void
query (const KymoSpanTree *tree,
       guint               node,
       gsize               lo,
       gsize               hi,
       KymoTime            t0,
       KymoTime            t1,
       guint32             base,
       GArray             *out)
{
  /* Sorted by start: nothing here starts before t1 if the first does not. */
  if (tree->spans[lo].start > t1)
    return;

  if (is_leaf (lo, hi))
    {
      for (gsize i = lo; i < hi && tree->spans[i].start <= t1; i++)
        if (tree->spans[i].end >= t0)
          {
            guint32 idx = base + (guint32) i;
            g_array_append_val (out, idx);
          }
      return;
    }

  if (tree->max_end[node] < t0)
    return;

  {
    gsize mid = lo + (hi - lo) / 2;
    query (tree, node * 2, lo, mid, t0, t1, base, out);
    query (tree, node * 2 + 1, mid, hi, t0, t1, base, out);
  }
}

gsize
kymo_span_tree_query (const KymoSpanTree *tree,
                      KymoTime            t0,
                      KymoTime            t1,
                      guint32             base,
                      GArray             *out)
{
  guint before = out->len;

  if (tree->n_spans == 0 || t1 < t0)
    return 0;
  query (tree, 1, 0, tree->n_spans, t0, t1, base, out);
  return out->len - before;
}

static guint32
pick_longer (const KymoSpanTree *tree,
             guint32             a,
             guint32             b)
{
  if (a == G_MAXUINT32)
    return b;
  if (b == G_MAXUINT32)
    return a;
  return span_length (&tree->spans[b]) > span_length (&tree->spans[a]) ? b : a;
}

static guint32
longest (const KymoSpanTree *tree,
         guint               node,
         gsize               lo,
         gsize               hi,
         gsize               qlo,
         gsize               qhi)
{
  guint32 best = G_MAXUINT32;

  if (qhi <= lo || qlo >= hi)
    return G_MAXUINT32;

  if (!is_leaf (lo, hi) && qlo <= lo && hi <= qhi)
    return tree->longest[node];

  if (is_leaf (lo, hi))
    {
      gsize a = MAX (lo, qlo), b = MIN (hi, qhi);
      for (gsize i = a; i < b; i++)
        best = pick_longer (tree, best, (guint32) i);
      return best;
    }

  {
    gsize mid = lo + (hi - lo) / 2;
    best = longest (tree, node * 2, lo, mid, qlo, qhi);
    return pick_longer (tree, best, longest (tree, node * 2 + 1, mid, hi, qlo, qhi));
  }
}

guint32
kymo_span_tree_longest (const KymoSpanTree *tree,
                        gsize               lo,
                        gsize               hi)
{
  hi = MIN (hi, tree->n_spans);
  if (lo >= hi)
    return G_MAXUINT32;
  return longest (tree, 1, 0, tree->n_spans, lo, hi);
}

gsize
kymo_span_tree_lower_bound (const KymoSpanTree *tree,
                            KymoTime            ts)
{
  gsize lo = 0, hi = tree->n_spans;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (tree->spans[mid].start < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

KymoTime
kymo_span_tree_max_end (const KymoSpanTree *tree)
{
  KymoTime max_end = G_MININT64;

  if (tree->n_nodes > 0)
    return tree->max_end[1];
  for (gsize i = 0; i < tree->n_spans; i++)
    max_end = MAX (max_end, tree->spans[i].end);
  return max_end;
}

gsize
kymo_span_tree_memory (const KymoSpanTree *tree)
{
  return (gsize) tree->n_nodes * (sizeof (KymoTime) + sizeof (guint32));
}
