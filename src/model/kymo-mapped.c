/* kymo-mapped.c: big arrays in mappings of their own, grown and moved into
 * place by pages rather than copied
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-mapped"
/* mremap() */
#define _GNU_SOURCE

#include "config.h"

#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "kymo-mapped.h"
#include "kymo-page-queue.h"

#if defined(__linux__) && defined(MREMAP_MAYMOVE)
#define CAN_MAP 1
#else
#define CAN_MAP 0
#endif

#if CAN_MAP && defined(MREMAP_FIXED) && defined(MREMAP_DONTUNMAP)
#define CAN_MOVE_PAGES 1
#else
#define CAN_MOVE_PAGES 0
#endif

gpointer
kymo_mapped_grow (gpointer  data,
                  gsize    *map_bytes,
                  gsize     live,
                  gsize     want)
{
#if CAN_MAP
  gsize page = kymo_page_size ();
  gsize bytes = (want + page - 1) & ~(page - 1);
  void *p;

  g_assert (bytes >= want && live <= want);
  if (*map_bytes > 0)
    p = mremap (data, *map_bytes, bytes, MREMAP_MAYMOVE);
  else
    p = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    g_error ("failed to map %" G_GSIZE_FORMAT " bytes", bytes);
  if (*map_bytes == 0)
    {
      /* Populated in one call rather than faulted in page by page by the
       * copy. */
      kymo_mapped_populate (p, live);
      if (live > 0)
        memcpy (p, data, live);
      g_free (data);
    }
  *map_bytes = bytes;
  return p;
#else
  return g_realloc (data, want);
#endif
}

void
kymo_mapped_free (gpointer data,
                  gsize    map_bytes)
{
#if CAN_MAP
  /* Still one mapping, pages moved out of it or not: see
   * kymo_mapped_move_pages(). */
  if (map_bytes > 0)
    {
      munmap (data, map_bytes);
      return;
    }
#endif
  g_free (data);
}

void
kymo_mapped_populate (gpointer data,
                      gsize    len)
{
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  gsize page = kymo_page_size ();
  guintptr from = (guintptr) data & ~(guintptr) (page - 1);
  guintptr to = ((guintptr) data + len + page - 1) & ~(guintptr) (page - 1);

  if (len > 0)
    madvise ((void *) from, to - from, MADV_POPULATE_WRITE);
#endif
}

gboolean
kymo_mapped_can_move (void)
{
#if CAN_MOVE_PAGES
  static gsize answer = 0;

  /* Tried once on a mapping of our own. */
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
#else
  return FALSE;
#endif
}

gboolean
kymo_mapped_move_pages (guint8       *dst,
                        const guint8 *src,
                        gsize         len,
                        gsize         min_bytes,
                        KymoMoved    *moved)
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
  /* The old range stays mapped (now empty) until kymo_mapped_free()
   * unmaps the whole mapping. Were it left a hole, another thread's mmap
   * (a malloc of a large block, a new thread's stack) could land in it
   * before then, and that munmap would take the other mapping away from
   * under its owner. */
  if (mremap ((void *) a, b - a, b - a, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, (void *) to) == MAP_FAILED)
    {
      /* The kernel may have unmapped the destination before failing: make
       * it memory again (it held nothing yet) and copy instead. */
      if (mmap ((void *) to, b - a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                -1, 0) == MAP_FAILED)
        g_error ("failed to map %" G_GSIZE_FORMAT " bytes back", (gsize) (b - a));
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
