/* kymo-dial9-callchains.h: the distinct inline call chains of CPU samples
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Older files repeat a sample's call chain inline in every sample (a u32
 * count, then count u64 addresses). A part finds each sample's chain among
 * the distinct ones it met while the bytes are in cache, so that the end
 * maps each sample to its stack by index, without reading the chains of a
 * few hundred megabytes of data again. Chains are told apart by their
 * bytes, never by where they are. */
#define D9_RECENT_CHAINS 1024

typedef struct {
  const guint8 *data;   /* the stream the chains are in */
  guint64      *at;     /* where each distinct chain is, in the order first met */
  guint32       n;
  guint32       mask;   /* slots - 1 */
  guint64      *slots;  /* hash << 32 | (index + 1), 0 when free */
  /* By a few of its words: the index + 1 of the last chain met (0: none). */
  guint32       recent[D9_RECENT_CHAINS];
} D9Callchains;

D9Callchains *d9_callchains_new   (const guint8 *data);
void          d9_callchains_free  (D9Callchains *set);
/* The index of the chain at @at in @set's data: that of the first added
 * with the same bytes, or a new one; G_MAXUINT32 past 2^30 distinct ones.
 * The chain must be whole in the data (the decoder checked its count
 * against it). */
guint32       d9_callchains_add   (D9Callchains *set,
                                   guint64       at);

G_END_DECLS
