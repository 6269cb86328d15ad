/* kymo-pivot.h: a key about halfway through many, from a few read evenly spaced
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A split of many keys in two, to sort or merge each half on its own
 * thread, is right wherever it falls and only pays when it about halves
 * them: the middle of this many keys read at evenly spaced positions is
 * close enough, at the cost of a few pages read. Odd, so that one key is
 * the middle. */
#define KYMO_PIVOT_PROBES 1023

/* Copies the key at @position into @key (aligned as g_malloc() aligns).
 * The positions never go down, so a reader over an array kept in pieces
 * can walk the pieces instead of searching them. */
typedef void (*KymoPivotReadFunc) (gsize    position,
                                   gpointer key,
                                   gpointer user_data);

/* Reads KYMO_PIVOT_PROBES of @n keys of @key_size bytes, probe k at
 * position k * @n / KYMO_PIVOT_PROBES (each key at least once when there
 * are fewer), and copies the middle one in @compare's order to @pivot.
 * FALSE when there are no keys: @pivot is left as it was. */
gboolean kymo_pivot_from_probes (gsize             n,
                                 gsize             key_size,
                                 GCompareFunc      compare,
                                 KymoPivotReadFunc read,
                                 gpointer          user_data,
                                 gpointer          pivot);

G_END_DECLS
