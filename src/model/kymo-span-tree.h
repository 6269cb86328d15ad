/* kymo-span-tree.h: one depth run's interval tree, which is also its level of detail
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-types.h"

G_BEGIN_DECLS

/* A pyramid of blocks over spans sorted by start: level 0 has a block per
 * KYMO_SPAN_TREE_LEAF spans, each level above a block per
 * KYMO_SPAN_TREE_FANOUT blocks of the level below, up to a single block.
 * Queries prune on it as on an augmented interval tree, and a zoomed-out
 * frame reads the level whose blocks are about a pixel wide, so its cost
 * follows the width, not the number of spans. Built at seal, on the load's
 * threads: about 2.7 bytes a span. */
#define KYMO_SPAN_TREE_LEAF       16
#define KYMO_SPAN_TREE_FANOUT     4
/* 16 · 4^14 = 2^32 spans in the top block: more than a depth run holds. */
#define KYMO_SPAN_TREE_MAX_LEVELS 15

/* The block covers [first_start, max_end]. Its longest span's length is
 * kept so that a frame compares blocks without touching the spans. */
typedef struct {
  KymoTime first_start;
  KymoTime max_end;
  KymoTime longest_len;
  guint32  longest;      /* index in the run of the first of the longest spans */
  guint32  count;        /* spans in the block */
} KymoSpanBlock;

typedef struct {
  const KymoSpan *spans;
  gsize           n_spans;
  guint           n_levels;  /* 0 for runs of at most one leaf: they are scanned */
  KymoSpanBlock  *blocks;    /* level 0, then level 1, … */
} KymoSpanTree;

/* Spans a block of @level stands for (the last block of a level may hold
 * fewer). */
static inline gsize
kymo_span_tree_block_spans (guint level)
{
  return (gsize) KYMO_SPAN_TREE_LEAF << (2 * level);
}

/* Clamps the end of a span that ends before it starts to its start, on the
 * way (decoders hand over arrays without a pass of their own). Returns FALSE
 * when @spans are not sorted by start (longer first on a tie): the tree is
 * then meaningless until they are sorted and it is built again. */
gboolean kymo_span_tree_init   (KymoSpanTree   *tree,
                                KymoSpan       *spans,
                                gsize           n_spans);
void    kymo_span_tree_clear   (KymoSpanTree   *tree);
/* The blocks of @level, in start order (NULL and 0 past the top). */
const KymoSpanBlock *kymo_span_tree_get_level (const KymoSpanTree *tree,
                                               guint               level,
                                               gsize              *n_blocks);
/* Appends base + i for every span i overlapping [t0, t1], in start order. */
gsize   kymo_span_tree_query   (const KymoSpanTree *tree,
                                KymoTime        t0,
                                KymoTime        t1,
                                guint32         base,
                                GArray         *out);
/* The first of the longest spans among spans[lo, hi), or G_MAXUINT32 when
 * lo >= hi. */
guint32 kymo_span_tree_longest (const KymoSpanTree *tree,
                                gsize           lo,
                                gsize           hi);
/* First span with start >= ts. */
gsize   kymo_span_tree_lower_bound (const KymoSpanTree *tree,
                                    KymoTime        ts);
/* First of @spans[0, @n) (sorted by start, as a depth run is) with start
 * >= @ts, or > @ts when @after: [lower_bound (t0, FALSE), lower_bound (t1,
 * TRUE)) are the spans starting in [t0, t1]. */
gsize   kymo_spans_lower_bound     (const KymoSpan *spans,
                                    gsize           n,
                                    KymoTime        ts,
                                    gboolean        after);
/* The latest end of any span (G_MININT64 when empty). */
KymoTime kymo_span_tree_max_end (const KymoSpanTree *tree);
gsize   kymo_span_tree_memory  (const KymoSpanTree *tree);

G_END_DECLS
