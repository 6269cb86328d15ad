/* kymo-dial9-vec.c: a part's arrays in mappings of their own, moved into
 * place page by page when the parts are joined
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "kymo-format-dial9"
#include "config.h"

#include "kymo-dial9-loader.h"
#include "kymo-mapped.h"

/* Moving fewer pages than this is not worth splitting mappings for (each
 * move costs the process a mapping or two of its limited number). */
#define MOVE_MIN_BYTES ((gsize) 1 << 20)
/* Where a part's array moves into a mapping of its own: the copy that
 * takes is small. */
#define MAP_FROM_BYTES ((gsize) 64 << 10)

/* See d9_vec_set_move_min_for_testing(): -1 when not set. */
static gint move_min_for_testing = -1;

void
d9_vec_set_move_min_for_testing (gint move_min)
{
  g_atomic_int_set (&move_min_for_testing, move_min);
}

void
d9_vec_move_limits (gsize *move_min,
                    gsize *map_from)
{
  gint forced = g_atomic_int_get (&move_min_for_testing);
  gboolean can_move = kymo_mapped_can_move ();

  *move_min = MOVE_MIN_BYTES;
  *map_from = can_move ? MAP_FROM_BYTES : 0;
  if (can_move && forced >= 0)
    {
      *move_min = (gsize) forced;
      *map_from = 1;
    }
}

void
d9_vec_clear (D9Vec *v)
{
  kymo_mapped_free (v->data, v->map_bytes);
  v->data = NULL;
  v->len = v->cap = v->map_bytes = 0;
}

/* Grows @v to @v->cap elements of @size in a mapping of its own, whose
 * pages kymo_mapped_move_pages() can then move. */
void
d9_vec_grow_mapped (D9Vec *v,
                    gsize  size)
{
  v->data = kymo_mapped_grow (v->data, &v->map_bytes, v->len * size, v->cap * size);
}
