/* kymo-mapped.h: big arrays in mappings of their own, grown and moved into
 * place by pages rather than copied
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Grows the array at @data to @want bytes (rounded up to pages) in a
 * mapping of its own: *@map_bytes is its mapping's size, 0 when @data came
 * from g_malloc() (its first @live bytes are then copied over and it is
 * freed). Growing a mapping moves pages, never bytes. Returns the array;
 * aborts when the system has no memory left, as g_malloc() does. Where
 * the system has no mremap(), a g_realloc(). */
gpointer kymo_mapped_grow (gpointer  data,
                           gsize    *map_bytes,
                           gsize     live,
                           gsize     want);
/* Frees an array of kymo_mapped_grow() (or of g_malloc() when @map_bytes
 * is 0), whatever pages were moved out of it. */
void     kymo_mapped_free (gpointer  data,
                           gsize     map_bytes);

/* Populates the pages that @len bytes at @data cover, as writing them
 * would, but in one call rather than a fault per page (a no-op where the
 * kernel cannot: the writes then fault them in). For memory about to be
 * written whole. */
void     kymo_mapped_populate (gpointer data,
                               gsize    len);

/* Whether this kernel can move pages out of a mapping and leave their old
 * range in place (Linux 5.7): kymo_mapped_move_pages() needs it. */
gboolean kymo_mapped_can_move (void);

/* A run whose whole pages were moved into place rather than copied: its
 * bytes [lo, hi) are now at at + lo, the rest still where they were. */
typedef struct {
  guint8 *at;
  gsize   lo;
  gsize   hi;
} KymoMoved;

/* Moves the whole pages of the run of @len bytes at @src (in a mapping of
 * kymo_mapped_grow()) to where they would be if the run started a little
 * after @dst, so that shifting it down to @dst touches no new memory:
 * only pages that land inside [@dst, @dst + @len) move, and that range
 * must hold nothing that is still needed. The old range stays mapped
 * (empty) until the mapping is freed. FALSE when nothing moved (shorter
 * than @min_bytes, or the kernel would not): then copy. */
gboolean kymo_mapped_move_pages (guint8       *dst,
                                 const guint8 *src,
                                 gsize         len,
                                 gsize         min_bytes,
                                 KymoMoved    *moved);

G_END_DECLS
