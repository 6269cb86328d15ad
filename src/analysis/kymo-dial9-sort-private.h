/* kymo-dial9-sort-private.h: stable sorts of 64-bit keys for the dial9 analyses
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sorts @n keys by their bits [@lo_bit, @hi_bit), stably: keys whose
 * bits there are equal keep their order, so a position packed into the
 * bits below (increasing as given) breaks ties the way a stable sort
 * would, at no cost. One pass takes the counts of every digit, and a
 * digit every key shares costs nothing more; the range says which bits
 * can differ at all, and the fewer, the fewer passes and buckets. The
 * sorts here carry 8 bytes a key where a key and an index would take 16.
 * Returns whichever of @keys and @scratch (@n keys of room) holds the
 * result. */
guint64 *_kymo_dial9_sort_key_bits (guint64 *keys,
                                    guint64 *scratch,
                                    gsize    n,
                                    guint    lo_bit,
                                    guint    hi_bit);

/* A key with the index of what it sorts. */
typedef struct {
  guint64 key;
  guint32 index;
  guint32 pad;
} KymoDial9SortKey;

/* The same for keys with an index beside them, by all 64 bits of the key. */
KymoDial9SortKey *_kymo_dial9_sort_indexed (KymoDial9SortKey *keys,
                                            KymoDial9SortKey *scratch,
                                            gsize             n);

/* The bits a value up to @max takes (0 for 0). */
static inline guint
_kymo_dial9_bits_for (guint64 max)
{
  return max == 0 ? 0 : 64 - (guint) __builtin_clzll (max);
}

G_END_DECLS
