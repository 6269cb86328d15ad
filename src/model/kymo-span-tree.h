/* kymo-span-tree.h: implicit augmented interval tree over one depth run
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-types.h"

G_BEGIN_DECLS

/* A segment tree laid out in heap order over spans sorted by start. Ranges of
 * at most KYMO_SPAN_TREE_LEAF spans are scanned, so only inner nodes are
 * stored: about 1.5 bytes per span for the largest end and the longest span
 * below each node. */
#define KYMO_SPAN_TREE_LEAF 16

typedef struct {
  const KymoSpan *spans;
  gsize           n_spans;
  guint           n_nodes;   /* inner nodes, heap order from 1 */
  KymoTime       *max_end;   /* [n_nodes] */
  guint32        *longest;   /* [n_nodes]: index in spans of the longest span */
} KymoSpanTree;

/* Clamps the end of a span that ends before it starts to its start, on the
 * way (decoders hand over arrays without a pass of their own). Returns FALSE
 * when @spans are not sorted by start (longer first on a tie): the tree is
 * then meaningless until they are sorted and it is built again. */
gboolean kymo_span_tree_init   (KymoSpanTree   *tree,
                                KymoSpan       *spans,
                                gsize           n_spans);
void    kymo_span_tree_clear   (KymoSpanTree   *tree);
/* Appends base + i for every span i overlapping [t0, t1], in start order. */
gsize   kymo_span_tree_query   (const KymoSpanTree *tree,
                                KymoTime        t0,
                                KymoTime        t1,
                                guint32         base,
                                GArray         *out);
/* The longest span among spans[lo, hi), or G_MAXUINT32 when lo >= hi. */
guint32 kymo_span_tree_longest (const KymoSpanTree *tree,
                                gsize           lo,
                                gsize           hi);
/* First span with start >= ts. */
gsize   kymo_span_tree_lower_bound (const KymoSpanTree *tree,
                                    KymoTime        ts);
/* The latest end of any span (G_MININT64 when empty). */
KymoTime kymo_span_tree_max_end (const KymoSpanTree *tree);
gsize   kymo_span_tree_memory  (const KymoSpanTree *tree);

G_END_DECLS
