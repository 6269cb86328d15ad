/* kymo-search-hits.c: hits in the order the user reads them: by start in
 * the timeline's track order, or the longest first
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-search"

#include "config.h"

#include "kymo-search-private.h"

static void
heap_sift_down (Candidate *heap,
                guint      n,
                guint      i)
{
  for (;;)
    {
      guint worst = i, l = 2 * i + 1, r = l + 1;
      Candidate tmp;

      if (l < n && candidate_better (&heap[worst], &heap[l]))
        worst = l;
      if (r < n && candidate_better (&heap[worst], &heap[r]))
        worst = r;
      if (worst == i)
        return;
      tmp = heap[i];
      heap[i] = heap[worst];
      heap[worst] = tmp;
      i = worst;
    }
}

/* A bounded heap: the N longest so far with the least of them on top, so a
 * trace of ten million spans is never sorted for "the ten longest". */
void
_kymo_search_offer_longest (Scan            *scan,
               const Candidate *c)
{
  Candidate *heap = (Candidate *) (gpointer) scan->heap->data;
  guint n = scan->heap->len;

  if (n < scan->search->longest)
    {
      guint i = n;

      g_array_append_val (scan->heap, *c);
      heap = (Candidate *) (gpointer) scan->heap->data;
      while (i > 0)
        {
          guint parent = (i - 1) / 2;
          Candidate tmp;

          if (!candidate_better (&heap[parent], &heap[i]))
            break;
          tmp = heap[i];
          heap[i] = heap[parent];
          heap[parent] = tmp;
          i = parent;
        }
      return;
    }
  if (n == 0 || !candidate_better (c, &heap[0]))
    return;
  heap[0] = *c;
  heap_sift_down (heap, n, 0);
}

static void
append_display_order (KymoTrace *trace,
                      guint      track_id,
                      GArray    *order,
                      guint8    *seen)
{
  const guint *children;
  guint n_children;

  if (seen[track_id])
    return;
  seen[track_id] = TRUE;
  g_array_append_val (order, track_id);
  children = kymo_track_get_children (kymo_trace_get_track (trace, track_id), &n_children);
  for (guint i = 0; i < n_children; i++)
    if (children[i] < kymo_trace_get_n_tracks (trace))
      append_display_order (trace, children[i], order, seen);
}

/* Tracks as the timeline lists them: roots in order, each followed by its
 * children; then any track no root reaches. */
GArray *
_kymo_search_tracks_in_display_order (KymoTrace *trace)
{
  guint n_tracks = kymo_trace_get_n_tracks (trace);
  g_autofree guint8 *seen = g_new0 (guint8, MAX (n_tracks, 1));
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_tracks);
  const guint *roots;
  guint n_roots;

  roots = kymo_trace_get_root_tracks (trace, &n_roots);
  for (guint i = 0; i < n_roots; i++)
    if (roots[i] < n_tracks)
      append_display_order (trace, roots[i], order, seen);
  for (guint i = 0; i < n_tracks; i++)
    if (!seen[i])
      g_array_append_val (order, i);
  return order;
}

static KymoTime
run_start (const Run *run)
{
  guint32 index = g_array_index (run->indexes, guint32, run->pos);

  return run->instants != NULL ? run->instants[index].ts : run->spans[index].start;
}

static gboolean
run_before (const Run *runs,
            guint      a,
            guint      b)
{
  KymoTime sa = run_start (&runs[a]);
  KymoTime sb = run_start (&runs[b]);

  return sa < sb || (sa == sb && a < b);
}

static void
merge_sift_down (const Run *runs,
                 guint     *heap,
                 guint      n,
                 guint      i)
{
  for (;;)
    {
      guint least = i, l = 2 * i + 1, r = l + 1;
      guint tmp;

      if (l < n && run_before (runs, heap[l], heap[least]))
        least = l;
      if (r < n && run_before (runs, heap[r], heap[least]))
        least = r;
      if (least == i)
        return;
      tmp = heap[i];
      heap[i] = heap[least];
      heap[least] = tmp;
      i = least;
    }
}

/* k-way merge of the start-ordered runs: O(n log k) with k the runs that
 * hold a match, never a sort of every match. */
GArray *
_kymo_search_merge_runs (GArray *runs_array)
{
  Run *runs = (Run *) (gpointer) runs_array->data;
  g_autofree guint *heap = g_new (guint, MAX (runs_array->len, 1));
  guint n_heap = 0;
  gsize total = 0;
  GArray *hits;

  for (guint i = 0; i < runs_array->len; i++)
    if (runs[i].indexes != NULL && runs[i].indexes->len > 0)
      {
        heap[n_heap++] = i;
        total += runs[i].indexes->len;
      }
  hits = g_array_sized_new (FALSE, FALSE, sizeof (KymoSearchHit), total);
  for (guint i = n_heap; i-- > 0;)
    merge_sift_down (runs, heap, n_heap, i);

  while (n_heap > 0)
    {
      Run *run = &runs[heap[0]];
      KymoSearchHit hit = { run->track, g_array_index (run->indexes, guint32, run->pos), run->depth };

      g_array_append_val (hits, hit);
      if (++run->pos == run->indexes->len)
        heap[0] = heap[--n_heap];
      merge_sift_down (runs, heap, n_heap, 0);
    }
  return hits;
}

static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  return candidate_better (a, b) ? -1 : candidate_better (b, a) ? 1 : 0;
}

GArray *
_kymo_search_longest_hits (Scan *scan)
{
  GArray *hits = g_array_sized_new (FALSE, FALSE, sizeof (KymoSearchHit), scan->heap->len);

  /* N entries only */
  g_array_sort (scan->heap, compare_candidates);
  for (guint i = 0; i < scan->heap->len; i++)
    {
      const Candidate *c = &g_array_index (scan->heap, Candidate, i);
      const Run *run = &g_array_index (scan->runs, Run, c->run);
      KymoSearchHit hit = { run->track, c->index, run->depth };

      g_array_append_val (hits, hit);
    }
  return hits;
}

int
_kymo_search_compare_counts (gconstpointer a,
                gconstpointer b)
{
  const KymoSearchNameCount *ca = a, *cb = b;

  if (ca->count != cb->count)
    return ca->count > cb->count ? -1 : 1;
  return ca->name_id < cb->name_id ? -1 : ca->name_id > cb->name_id;
}
