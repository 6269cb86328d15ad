/* kymo-span-tree.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-span-tree"

#include "config.h"

#include <string.h>

#include "kymo-span-tree.h"

#define NONE G_MAXUINT32
/* Spans the level-0 pass reads ahead of the one it is at. */
#define PREFETCH_SPANS 96

static inline KymoTime
span_length (const KymoSpan *span)
{
  return span->end - span->start;
}

/* The order the tree needs: by start, and longer first so that an
 * enclosing span precedes what starts with it. */
static inline gboolean
in_order (const KymoSpan *a,
          const KymoSpan *b)
{
  return a->start < b->start || (a->start == b->start && a->end >= b->end);
}

/* Where each level starts in tree->blocks, and how many blocks it has. */
typedef struct {
  const KymoSpanBlock *blocks[KYMO_SPAN_TREE_MAX_LEVELS];
  gsize                n_blocks[KYMO_SPAN_TREE_MAX_LEVELS];
} Levels;

static guint
count_levels (gsize  n_spans,
              gsize *n_blocks,
              gsize *total)
{
  gsize n = (n_spans + KYMO_SPAN_TREE_LEAF - 1) / KYMO_SPAN_TREE_LEAF;
  guint levels = 0;

  *total = 0;
  if (n_spans <= KYMO_SPAN_TREE_LEAF)
    return 0;
  for (;;)
    {
      g_assert (levels < KYMO_SPAN_TREE_MAX_LEVELS);
      if (n_blocks != NULL)
        n_blocks[levels] = n;
      *total += n;
      levels++;
      if (n == 1)
        return levels;
      n = (n + KYMO_SPAN_TREE_FANOUT - 1) / KYMO_SPAN_TREE_FANOUT;
    }
}

static void
get_levels (const KymoSpanTree *tree,
            Levels             *levels)
{
  gsize total, offset = 0;

  count_levels (tree->n_spans, levels->n_blocks, &total);
  for (guint l = 0; l < tree->n_levels; l++)
    {
      levels->blocks[l] = tree->blocks + offset;
      offset += levels->n_blocks[l];
    }
}

/* @into is the block before @from in start order, or empty: on a tie the
 * earlier longest span stays. */
static inline void
merge_block (KymoSpanBlock       *into,
             const KymoSpanBlock *from)
{
  if (into->count == 0)
    {
      *into = *from;
      return;
    }
  if (from->longest_len > into->longest_len)
    {
      into->longest = from->longest;
      into->longest_len = from->longest_len;
    }
  into->max_end = MAX (into->max_end, from->max_end);
  into->count += from->count;
}

gboolean
kymo_span_tree_init (KymoSpanTree *tree,
                     KymoSpan     *spans,
                     gsize         n_spans)
{
  gboolean ordered = TRUE;
  gsize n_blocks[KYMO_SPAN_TREE_MAX_LEVELS], total;
  KymoSpanBlock *level, *above;

  memset (tree, 0, sizeof *tree);
  tree->spans = spans;
  tree->n_spans = n_spans;
  tree->n_levels = count_levels (n_spans, n_blocks, &total);

  if (tree->n_levels == 0)
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

  tree->blocks = g_new (KymoSpanBlock, total);

  /* Level 0 in the one pass over the spans: clamping and checking the
   * order here, while the leaf is in cache, spares sealing a pass. The
   * block is summed up in locals, without a branch on a span's length
   * (every few spans of a leaf is its longest so far, as good as at
   * random): span stores could alias it. */
  level = tree->blocks;
  {
    KymoTime prev_start = spans[0].start, prev_end = G_MAXINT64;
    gboolean disorder = FALSE;

    for (gsize b = 0; b < n_blocks[0]; b++)
      {
        KymoSpanBlock *block = &level[b];
        gsize lo = b * KYMO_SPAN_TREE_LEAF, hi = MIN (n_spans, lo + KYMO_SPAN_TREE_LEAF);
        KymoTime max_end = G_MININT64, longest_len = -1;
        guint32 longest = NONE;

        for (gsize i = lo; i < hi; i++)
          {
            KymoTime start, end, len;
            gboolean longer;

            /* The hardware's prefetch stops at the end of a page. */
            if (G_LIKELY (i + PREFETCH_SPANS < n_spans))
              __builtin_prefetch (&spans[i + PREFETCH_SPANS]);
            start = spans[i].start;
            end = spans[i].end;

            if (G_UNLIKELY (end < start))
              {
                end = start;
                spans[i].end = end;
              }
            /* !in_order (previous, this) */
            disorder |= (start < prev_start) | ((start == prev_start) & (end > prev_end));
            len = end - start;
            longer = len > longest_len;
            longest_len = longer ? len : longest_len;
            longest = longer ? (guint32) i : longest;
            max_end = MAX (max_end, end);
            prev_start = start;
            prev_end = end;
          }
        block->first_start = spans[lo].start;
        block->max_end = max_end;
        block->longest_len = longest_len;
        block->longest = longest;
        block->count = (guint32) (hi - lo);
      }
    ordered = !disorder;
  }
  if (!ordered)
    {
      /* Left safe to read (as a plain scan) until it is built again. */
      kymo_span_tree_clear (tree);
      return FALSE;
    }

  for (guint l = 1; l < tree->n_levels; l++)
    {
      above = level + n_blocks[l - 1];
      memset (above, 0, n_blocks[l] * sizeof (KymoSpanBlock));
      for (gsize b = 0; b < n_blocks[l - 1]; b++)
        merge_block (&above[b / KYMO_SPAN_TREE_FANOUT], &level[b]);
      level = above;
    }
  return TRUE;
}

void
kymo_span_tree_clear (KymoSpanTree *tree)
{
  g_clear_pointer (&tree->blocks, g_free);
  tree->n_levels = 0;
}

const KymoSpanBlock *
kymo_span_tree_get_level (const KymoSpanTree *tree,
                          guint               level,
                          gsize              *n_blocks)
{
  Levels levels;

  if (level >= tree->n_levels)
    {
      *n_blocks = 0;
      return NULL;
    }
  get_levels (tree, &levels);
  *n_blocks = levels.n_blocks[level];
  return levels.blocks[level];
}

/* FALSE once a span starting after t1 is met: everything after it does too. */
static gboolean
query (const KymoSpanTree *tree,
       const Levels       *levels,
       guint               level,
       gsize               b_lo,
       gsize               b_hi,
       KymoTime            t0,
       KymoTime            t1,
       guint32             base,
       GArray             *out)
{
  for (gsize b = b_lo; b < b_hi; b++)
    {
      const KymoSpanBlock *block = &levels->blocks[level][b];

      if (block->first_start > t1)
        return FALSE;
      if (block->max_end < t0)
        continue;

      if (level == 0)
        {
          gsize lo = b * KYMO_SPAN_TREE_LEAF, hi = MIN (tree->n_spans, lo + KYMO_SPAN_TREE_LEAF);

          for (gsize i = lo; i < hi; i++)
            {
              guint32 idx;

              if (tree->spans[i].start > t1)
                return FALSE;
              if (tree->spans[i].end < t0)
                continue;
              idx = base + (guint32) i;
              g_array_append_val (out, idx);
            }
        }
      else
        {
          gsize c = b * KYMO_SPAN_TREE_FANOUT;

          if (!query (tree, levels, level - 1, c,
                      MIN (c + KYMO_SPAN_TREE_FANOUT, levels->n_blocks[level - 1]), t0, t1, base, out))
            return FALSE;
        }
    }
  return TRUE;
}

gsize
kymo_span_tree_query (const KymoSpanTree *tree,
                      KymoTime            t0,
                      KymoTime            t1,
                      guint32             base,
                      GArray             *out)
{
  guint before = out->len;
  Levels levels;

  if (tree->n_spans == 0 || t1 < t0)
    return 0;

  if (tree->n_levels == 0)
    {
      for (gsize i = 0; i < tree->n_spans && tree->spans[i].start <= t1; i++)
        if (tree->spans[i].end >= t0)
          {
            guint32 idx = base + (guint32) i;
            g_array_append_val (out, idx);
          }
      return out->len - before;
    }

  get_levels (tree, &levels);
  query (tree, &levels, tree->n_levels - 1, 0, levels.n_blocks[tree->n_levels - 1], t0, t1, base, out);
  return out->len - before;
}

/* @a precedes @b: on a tie the earlier stays. */
static inline guint32
pick_longer (const KymoSpanTree *tree,
             guint32             a,
             guint32             b)
{
  if (a == NONE)
    return b;
  if (b == NONE)
    return a;
  return span_length (&tree->spans[b]) > span_length (&tree->spans[a]) ? b : a;
}

static guint32
longest (const KymoSpanTree *tree,
         const Levels       *levels,
         guint               level,
         gsize               b,
         gsize               qlo,
         gsize               qhi)
{
  gsize size = kymo_span_tree_block_spans (level);
  gsize lo = b * size, hi = MIN (tree->n_spans, lo + size);
  guint32 best = NONE;

  if (qhi <= lo || qlo >= hi)
    return NONE;
  if (qlo <= lo && hi <= qhi)
    return levels->blocks[level][b].longest;

  if (level == 0)
    {
      for (gsize i = MAX (lo, qlo); i < MIN (hi, qhi); i++)
        best = pick_longer (tree, best, (guint32) i);
      return best;
    }
  for (gsize c = b * KYMO_SPAN_TREE_FANOUT;
       c < MIN ((b + 1) * KYMO_SPAN_TREE_FANOUT, levels->n_blocks[level - 1]); c++)
    best = pick_longer (tree, best, longest (tree, levels, level - 1, c, qlo, qhi));
  return best;
}

guint32
kymo_span_tree_longest (const KymoSpanTree *tree,
                        gsize               lo,
                        gsize               hi)
{
  guint32 best = NONE;
  Levels levels;
  guint top;

  hi = MIN (hi, tree->n_spans);
  if (lo >= hi)
    return NONE;

  if (tree->n_levels == 0)
    {
      for (gsize i = lo; i < hi; i++)
        best = pick_longer (tree, best, (guint32) i);
      return best;
    }
  get_levels (tree, &levels);
  top = tree->n_levels - 1;
  for (gsize b = 0; b < levels.n_blocks[top]; b++)
    best = pick_longer (tree, best, longest (tree, &levels, top, b, lo, hi));
  return best;
}

gsize
kymo_span_tree_lower_bound (const KymoSpanTree *tree,
                            KymoTime            ts)
{
  return kymo_spans_lower_bound (tree->spans, tree->n_spans, ts, FALSE);
}

gsize
kymo_spans_lower_bound (const KymoSpan *spans,
                        gsize           n,
                        KymoTime        ts,
                        gboolean        after)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (spans[mid].start < ts || (after && spans[mid].start == ts))
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

  if (tree->n_levels > 0)
    {
      gsize n;
      const KymoSpanBlock *top = kymo_span_tree_get_level (tree, tree->n_levels - 1, &n);

      for (gsize b = 0; b < n; b++)
        max_end = MAX (max_end, top[b].max_end);
      return max_end;
    }
  for (gsize i = 0; i < tree->n_spans; i++)
    max_end = MAX (max_end, tree->spans[i].end);
  return max_end;
}

gsize
kymo_span_tree_memory (const KymoSpanTree *tree)
{
  gsize total;

  count_levels (tree->n_spans, NULL, &total);
  return tree->n_levels > 0 ? total * sizeof (KymoSpanBlock) : 0;
}
