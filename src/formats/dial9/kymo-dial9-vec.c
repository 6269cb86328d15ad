/* kymo-dial9-vec.c: a part's arrays in mappings of their own, moved into
 * place page by page when the parts are joined
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "kymo-format-dial9"
/* mremap() */
#define _GNU_SOURCE

#include "config.h"

#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "kymo-dial9-loader.h"
#include "kymo-page-queue.h"

/* Moving fewer pages than this is not worth splitting mappings for (each
 * move costs the process a mapping or two of its limited number). */
#define MOVE_MIN_BYTES ((gsize) 1 << 20)
/* Where a part's array moves into a mapping of its own: the copy that
 * takes is small. */
#define MAP_FROM_BYTES ((gsize) 64 << 10)

#if defined(__linux__) && defined(MREMAP_MAYMOVE) && defined(MREMAP_FIXED) && defined(MREMAP_DONTUNMAP)
#define CAN_MOVE_PAGES 1
#else
#define CAN_MOVE_PAGES 0
#endif

/* See d9_vec_set_move_min_for_testing(): -1 when not set. */
static gint move_min_for_testing = -1;

void
d9_vec_set_move_min_for_testing (gint move_min)
{
  g_atomic_int_set (&move_min_for_testing, move_min);
}

#if CAN_MOVE_PAGES
/* Whether the kernel moves pages and leaves their old range mapped
 * (MREMAP_DONTUNMAP: Linux 5.7): tried once on a mapping of our own. */
static gboolean
kernel_keeps_moved_range (void)
{
  static gsize answer = 0;

  if (g_once_init_enter (&answer))
    {
      gsize page = kymo_page_size ();
      guint8 *p = mmap (NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      gboolean ok = FALSE;

      if (p != MAP_FAILED)
        {
          ok = mremap (p, page, page, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, p + page) != MAP_FAILED;
          munmap (p, 2 * page);
        }
      g_once_init_leave (&answer, ok ? 2 : 1);
    }
  return answer == 2;
}
#endif

void
d9_vec_move_limits (gsize *move_min,
                    gsize *map_from)
{
  gint forced = g_atomic_int_get (&move_min_for_testing);
  gboolean can_move = FALSE;

#if CAN_MOVE_PAGES
  can_move = kernel_keeps_moved_range ();
#endif
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
#if CAN_MOVE_PAGES
  /* Still one mapping, pages moved out of it or not: see
   * d9_vec_move_pages(). */
  if (v->map_bytes > 0)
    munmap (v->data, v->map_bytes);
  else
#endif
    g_free (v->data);
  v->data = NULL;
  v->len = v->cap = v->map_bytes = 0;
}

/* Grows @v to @v->cap elements of @size in a mapping of its own, whose
 * pages d9_vec_move_pages() can then move. */
void
d9_vec_grow_mapped (D9Vec *v,
                    gsize  size)
{
#if CAN_MOVE_PAGES
  gsize page = kymo_page_size ();
  gsize bytes = (v->cap * size + page - 1) & ~(page - 1);
  void *p;

  if (v->map_bytes > 0)
    p = mremap (v->data, v->map_bytes, bytes, MREMAP_MAYMOVE);
  else
    p = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    g_error ("dial9: failed to map %" G_GSIZE_FORMAT " bytes", bytes);
  if (v->map_bytes == 0)
    {
      if (v->len > 0)
        memcpy (p, v->data, v->len * size);
      g_free (v->data);
    }
  v->data = p;
  v->map_bytes = bytes;
#else
  v->data = g_realloc_n (v->data, v->cap, size);
#endif
}

/* Moves the whole pages of the run of @len bytes at @src (in a mapping of
 * d9_vec_grow_mapped()) to where they would be if the run started a
 * little after @dst, so that shifting it down to @dst touches no new
 * memory: only pages that land inside [@dst, @dst + @len) move, and that
 * range must hold nothing that is still needed. FALSE when nothing moved
 * (too short, or the kernel would not): then copy. */
gboolean
d9_vec_move_pages (guint8       *dst,
                   const guint8 *src,
                   gsize         len,
                   gsize         min_bytes,
                   D9Moved      *moved)
{
#if CAN_MOVE_PAGES
  gsize page = kymo_page_size ();
  guintptr s = (guintptr) src, d = (guintptr) dst;
  guintptr at = d + ((s - d) & (page - 1));   /* at >= d, at = s (mod page) */
  guintptr a, b, to;

  if (len < min_bytes + 2 * page)
    return FALSE;
  a = (s + page - 1) & ~(guintptr) (page - 1);
  b = (s + len - (at - d)) & ~(guintptr) (page - 1);
  if (b <= a || b - a < MAX (min_bytes, page))
    return FALSE;
  to = a - s + at;
  /* The old range stays mapped (now empty) until d9_vec_clear() unmaps
   * the whole mapping. Were it left a hole, another thread's mmap (a
   * malloc of a large block, a new thread's stack) could land in it
   * before then, and that munmap would take the other mapping away from
   * under its owner. */
  if (mremap ((void *) a, b - a, b - a, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, (void *) to) == MAP_FAILED)
    {
      /* The kernel may have unmapped the destination before failing: make
       * it memory again (it held nothing yet) and copy instead. */
      if (mmap ((void *) to, b - a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                -1, 0) == MAP_FAILED)
        g_error ("dial9: failed to map %" G_GSIZE_FORMAT " bytes back", (gsize) (b - a));
      return FALSE;
    }
  moved->at = (guint8 *) at;
  moved->lo = a - s;
  moved->hi = b - s;
  return TRUE;
#else
  return FALSE;
#endif
}
