/* kymo-dial9-chains.c: sorted runs chained, and merged through a tournament
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "kymo-dial9-chains.h"
#include "kymo-page-queue.h"

void
d9_tourney_init (D9Tourney *t,
                 guint      n)
{
  t->size = 1;
  while (t->size < n)
    t->size *= 2;
  t->keys = g_new (D9Key, t->size);
  t->tree = g_new (guint, t->size);
  for (guint i = 0; i < t->size; i++)
    t->keys[i] = D9_DONE;
}

void
d9_tourney_build (D9Tourney *t)
{
  g_autofree guint *win = g_new (guint, 2 * (gsize) t->size);

  for (guint i = 0; i < t->size; i++)
    win[t->size + i] = i;
  for (guint node = t->size; node-- > 1;)
    {
      guint a = win[2 * node], b = win[2 * node + 1];
      gboolean a_first = t->keys[a] < t->keys[b];

      win[node] = a_first ? a : b;
      t->tree[node] = a_first ? b : a;
    }
  t->tree[0] = t->size > 1 ? win[1] : 0;
}

void
d9_tourney_clear (D9Tourney *t)
{
  g_free (t->keys);
  g_free (t->tree);
}

gboolean
d9_chain_runs (const D9Stream *s,
               gsize           n,
               GArray         *segs,
               GArray         *heads)
{
  D9Key last[D9_MAX_CHAINS];
  guint32 tail[D9_MAX_CHAINS];
  guint n_chains = 0;
  gsize from = 0;
  D9Key first = 0, prev = 0;

  for (gsize i = 0; i <= n; i++)
    {
      D9Key key = i < n ? d9_stream_key (s, i) : 0;

      if (i == n || (i > from && key < prev))
        {
          D9Seg seg = { from, i, G_MAXUINT32 };
          guint32 index = segs->len;
          guint best = G_MAXUINT;

          if (i == from)
            break;
          for (guint c = 0; c < n_chains; c++)
            if (last[c] < first && (best == G_MAXUINT || last[c] > last[best]))
              best = c;
          if (best != G_MAXUINT)
            g_array_index (segs, D9Seg, tail[best]).next = index;
          else if (n_chains == D9_MAX_CHAINS)
            return FALSE;
          else
            {
              best = n_chains++;
              g_array_append_val (heads, index);
            }
          g_array_append_val (segs, seg);
          tail[best] = index;
          last[best] = prev;
          from = i;
          first = key;
        }
      else if (i == from)
        first = key;
      prev = key;
    }
  return TRUE;
}

D9Leaf *
d9_leaves_new (GArray    *segs,
               GArray    *heads,
               D9Tourney *t)
{
  D9Leaf *leaves;

  d9_tourney_init (t, heads->len);
  leaves = g_new0 (D9Leaf, t->size);
  for (guint c = 0; c < heads->len; c++)
    {
      guint32 head = g_array_index (heads, guint32, c);
      const D9Seg *seg = &g_array_index (segs, D9Seg, head);

      leaves[c] = (D9Leaf) { seg->from, seg->to, head, head, NULL };
    }
  return leaves;
}

const guint8 *
d9_release_pages (const guint8 *from,
                  const guint8 *to)
{
  gsize page = kymo_page_size ();
  const guint8 *a = (const guint8 *) (((guintptr) from + page - 1) & ~(guintptr) (page - 1));
  const guint8 *b = (const guint8 *) ((guintptr) to & ~(guintptr) (page - 1));

  if (b <= a)
    return from;
#if defined(__linux__) && defined(MADV_DONTNEED)
  madvise ((void *) a, b - a, MADV_DONTNEED);
#endif
  return b;
}

void
d9_release_leaf (const guint8 *data,
                 gsize         size,
                 GArray       *segs,
                 D9Leaf       *leaf)
{
  while (leaf->released_seg != leaf->seg)
    {
      const D9Seg *seg = &g_array_index (segs, D9Seg, leaf->released_seg);

      d9_release_pages (MAX (leaf->released, data + seg->from * size), data + seg->to * size);
      leaf->released_seg = seg->next;
      leaf->released = data + g_array_index (segs, D9Seg, leaf->released_seg).from * size;
    }
  leaf->released = d9_release_pages (leaf->released, data + leaf->next * size);
}
