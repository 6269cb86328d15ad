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
#include "kymo-page-queue.h"

#include <string.h>

/* Moving fewer pages than this is not worth splitting mappings for (each
 * move costs the process a mapping or two of its limited number, and a
 * TLB flush on every core). A copy instead faults in as many new pages,
 * some 1 µs each: already at 256 KiB that costs more than the move, and
 * a folder of files has many runs of a few hundred KiB. */
#define MOVE_MIN_BYTES ((gsize) 256 << 10)
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

/* Pages populated at a time ahead of a mapped vector's writes: one call
 * rather than a fault per page. A quarter of what the vector holds, within
 * these bounds: what is populated and never written is lost when a part
 * ends, and a part's vectors are many and mostly small. */
#define POPULATE_BYTES     ((gsize) 256 << 10)
#define POPULATE_MIN_BYTES ((gsize) 64 << 10)

gboolean
d9_vec_populate (D9Vec *v,
                 gsize  size)
{
  gsize have = v->cap * size, page = kymo_page_size (), from, to;

  if (have + size > v->map_bytes)
    return FALSE;
  to = MIN (v->map_bytes, (have + CLAMP (have / 4, POPULATE_MIN_BYTES, POPULATE_BYTES)) & ~(page - 1));
  from = (have + page - 1) & ~(page - 1);
  if (to > from)
    kymo_mapped_populate (v->data + from, to - from);
  v->cap = to / size;
  return TRUE;
}

/* A full mapping grows to this many times its size, by at most
 * MAPPED_GROWTH_MAX bytes (never less than twice): room not populated
 * costs nothing but address space, and each growth is a mremap() that
 * stops the other threads' page faults meanwhile. */
#define MAPPED_GROWTH     8
#define MAPPED_GROWTH_MAX ((gsize) 1 << 30)

/* Grows @v to @v->cap elements of @size in a mapping of its own, whose
 * pages kymo_mapped_move_pages() can then move. */
void
d9_vec_grow_mapped (D9Vec *v,
                    gsize  size)
{
  gsize want = v->cap * size;

  if (v->map_bytes > 0)
    want = MAX (want, v->map_bytes + MIN (v->map_bytes * (MAPPED_GROWTH - 1), MAPPED_GROWTH_MAX));
  v->data = kymo_mapped_grow (v->data, &v->map_bytes, v->len * size, want);
  /* Only as much room as is populated: see d9_vec_populate(). */
  v->cap = v->len;
  if (!d9_vec_populate (v, size))
    v->cap = v->map_bytes / size;
}

void
d9_place_run (const guint8  *in,
              gsize          n,
              gboolean       mapped,
              gsize          size,
              gsize          move_min,
              gint          *moves_left,
              D9MapRun       map,
              gconstpointer  map_data,
              guint8        *out)
{
  KymoMoved mv;

  if (mapped && n * size >= move_min && g_atomic_int_add (moves_left, -1) > 0 &&
      kymo_mapped_move_pages (out, in, n * size, move_min, &mv))
    {
      gsize head = mv.lo / size, first = head, last = mv.hi / size;
      guint8 tmp[D9_PLACE_MAX_SIZE];

      g_assert (size <= sizeof tmp);
      map (map_data, out, in, head);
      if (head * size < mv.lo)
        {
          /* Straddles the first moved page: its bytes from both places. */
          memcpy (tmp, in + head * size, mv.lo - head * size);
          memcpy (tmp + (mv.lo - head * size), mv.at + mv.lo, (head + 1) * size - mv.lo);
          map (map_data, out + head * size, tmp, 1);
          first = head + 1;
        }
      if (last > first)
        map (map_data, out + first * size, mv.at + first * size, last - first);
      if (last < n && last * size < mv.hi)
        {
          memcpy (tmp, mv.at + last * size, mv.hi - last * size);
          memcpy (tmp + (mv.hi - last * size), in + mv.hi, (last + 1) * size - mv.hi);
          map (map_data, out + last * size, tmp, 1);
          last++;
        }
      if (n > last)
        map (map_data, out + last * size, in + last * size, n - last);
    }
  else if (n > 0)
    map (map_data, out, in, n);
}

void
d9_vec_place (D9Vec         *v,
              gsize          size,
              gsize          move_min,
              gint          *moves_left,
              D9MapRun       map,
              gconstpointer  map_data,
              guint8        *out)
{
  d9_place_run (v->data, v->len, v->map_bytes > 0, size, move_min, moves_left, map, map_data, out);
  d9_vec_clear (v);
}
