/* kymo-dial9-cut.c: what a damaged file among several left open ends where it was cut
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>

#include "kymo-dial9-loader.h"

/* The first of @n elements of @size bytes, in file order, whose source
 * (at @source_at) is @source or more. */
static gsize
first_from (const guint8 *data,
            gsize         n,
            gsize         size,
            gsize         source_at,
            guint64       source)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      guint32 s;

      memcpy (&s, data + mid * size + source_at, sizeof s);
      if (s < source)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gsize
edge_from (const GArray *edges,
           guint64       source)
{
  return first_from ((const guint8 *) edges->data, edges->len, sizeof (D9Edge), G_STRUCT_OFFSET (D9Edge, source),
                     source);
}

/* The time of the edge or wake that event @source made, if any (*@worker:
 * its worker's index, G_MAXUINT for a wake). */
static gboolean
made_by (D9Loader *l,
         guint32   source,
         KymoTime *ts,
         guint    *worker)
{
  gsize at = first_from ((const guint8 *) l->wakes->data, l->wakes->len, sizeof (D9Wake),
                         G_STRUCT_OFFSET (D9Wake, source), source);

  if (at < l->wakes->len && g_array_index (l->wakes, D9Wake, at).source == source)
    {
      *ts = g_array_index (l->wakes, D9Wake, at).ts;
      *worker = G_MAXUINT;
      return TRUE;
    }
  for (guint i = 0; i < l->workers->len; i++)
    {
      GArray *edges = ((D9Worker *) g_ptr_array_index (l->workers, i))->edges;

      at = edge_from (edges, source);
      if (at < edges->len && g_array_index (edges, D9Edge, at).source == source)
        {
          *ts = g_array_index (edges, D9Edge, at).ts;
          *worker = i;
          return TRUE;
        }
    }
  return FALSE;
}

/* Each worker's time of the cut: its own last time in the file, or the
 * last wake in the file by the task it was left polling (the poll lasts
 * that long at least). Not the file's end: batches of other threads in
 * the file may run later than this one's, and then so may the next
 * file's first edges of this worker, which would sort before a cut at
 * the file's end and close what the cut is for. G_MININT64: no edge of
 * the worker in the file. */
static void
cut_times (D9Loader *l,
           guint64   first,
           guint64   end,
           KymoTime *times)
{
  g_autoptr(GHashTable) polling = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree guint32 *since = g_new (guint32, l->workers->len);
  gsize from, to;

  for (guint i = 0; i < l->workers->len; i++)
    {
      GArray *edges = ((D9Worker *) g_ptr_array_index (l->workers, i))->edges;
      gboolean last_seen = FALSE;

      times[i] = G_MININT64;
      for (gsize k = edge_from (edges, end), stop = edge_from (edges, first); k-- > stop;)
        {
          const D9Edge *e = &g_array_index (edges, D9Edge, k);
          guint kind = e->name_kind >> 24;

          times[i] = MAX (times[i], e->ts);
          if (last_seen || kind < D9_EDGE_POLL_START || kind > D9_EDGE_UNPARK)
            continue;
          last_seen = TRUE;
          if (kind == D9_EDGE_POLL_START && (guint32) e->aux != G_MAXUINT32)
            {
              D9Task *t = &g_array_index (l->d->tasks, D9Task, (guint32) e->aux);

              g_hash_table_insert (polling, &t->id, GUINT_TO_POINTER (i + 1));
              since[i] = e->source;
            }
        }
    }
  if (g_hash_table_size (polling) == 0)
    return;
  from = first_from ((const guint8 *) l->wakes->data, l->wakes->len, sizeof (D9Wake),
                     G_STRUCT_OFFSET (D9Wake, source), first);
  to = first_from ((const guint8 *) l->wakes->data, l->wakes->len, sizeof (D9Wake),
                   G_STRUCT_OFFSET (D9Wake, source), end);
  for (gsize k = from; k < to; k++)
    {
      const D9Wake *wake = &g_array_index (l->wakes, D9Wake, k);
      /* Waker 0: none (as d9_pair_wake() reads it). */
      guint i = wake->waker != 0 ? GPOINTER_TO_UINT (g_hash_table_lookup (polling, &wake->waker)) : 0;

      if (i-- > 0 && wake->source > since[i])
        times[i] = MAX (times[i], wake->ts);
    }
}

/* The cut's source is the file's last event, so it sorts after every
 * edge and wake of the file at its time and before every one of the
 * files after. */
void
d9_loader_cut (D9Loader    *l,
               const D9Cut *cuts,
               guint        n_cuts)
{
  g_autofree KymoTime *times = g_new (KymoTime, l->workers->len + 1);

  g_return_if_fail (!l->streaming && l->spec == NULL);

  for (guint c = 0; c < n_cuts; c++)
    {
      guint64 first = cuts[c].first, end = cuts[c].end;
      KymoTime last_ts = 0;
      guint last_worker = G_MAXUINT;
      gboolean has_last;

      /* Sources past 32 bits are all one: nothing to sort a cut by. */
      if (end <= first || end - 1 >= KYMO_NO_SOURCE)
        continue;
      has_last = made_by (l, (guint32) (end - 1), &last_ts, &last_worker);
      cut_times (l, first, end, times);
      for (guint i = 0; i < l->workers->len; i++)
        {
          D9Worker *w = g_ptr_array_index (l->workers, i);
          D9Edge cut = { times[i], 0, (guint32) (end - 1), (guint32) D9_EDGE_CUT << 24 };

          if (times[i] == G_MININT64)
            continue;
          /* The file's last event made a wake or another worker's edge at
           * the same time: with the same key the cut and it would go in
           * an order the pairings do not agree on, so the cut goes just
           * after it. (Its own edge there is before it in its array,
           * which orders equal keys.) */
          if (has_last && last_worker != i && last_ts == cut.ts && cut.ts < G_MAXINT64)
            {
              cut.ts++;
              l->max_ts = MAX (l->max_ts, cut.ts);
            }
          g_array_insert_val (w->edges, edge_from (w->edges, end), cut);
        }
    }
}
