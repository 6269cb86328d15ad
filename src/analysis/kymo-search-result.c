/* kymo-search-result.c: a finished search's hits, name counts and event set
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-search"

#include "config.h"

#include "kymo-search-private.h"

G_DEFINE_BOXED_TYPE (KymoSearchResult, kymo_search_result, kymo_search_result_ref, kymo_search_result_unref)

KymoSearchResult *
kymo_search_result_ref (KymoSearchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
kymo_search_result_unref (KymoSearchResult *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_pointer (&self->event_set, kymo_event_set_unref);
  g_array_unref (self->hits);
  g_array_unref (self->name_counts);
  g_free (self->query);
  g_object_unref (self->trace);
  g_free (self);
}

KymoTrace *
kymo_search_result_get_trace (KymoSearchResult *self)
{
  return self->trace;
}

const char *
kymo_search_result_get_query (KymoSearchResult *self)
{
  return self->query;
}

const KymoSearchHit *
kymo_search_result_get_hits (KymoSearchResult *self,
                             gsize            *n_hits)
{
  *n_hits = self->hits->len;
  return (const KymoSearchHit *) (gpointer) self->hits->data;
}

gsize
kymo_search_result_get_n_hits (KymoSearchResult *self)
{
  return self->hits->len;
}

const KymoSearchNameCount *
kymo_search_result_get_name_counts (KymoSearchResult *self,
                                    gsize            *n_names)
{
  *n_names = self->name_counts->len;
  return (const KymoSearchNameCount *) (gpointer) self->name_counts->data;
}

KymoEventSet *
_kymo_search_build_event_set (KymoTrace *trace,
                 GArray    *hits)
{
  KymoEventSet *set = kymo_event_set_new (trace);

  for (guint i = 0; i < hits->len; i++)
    {
      const KymoSearchHit *hit = &g_array_index (hits, KymoSearchHit, i);

      if (hit->depth == KYMO_SEARCH_INSTANT)
        kymo_event_set_add_instant (set, hit->track, hit->index);
      else
        kymo_event_set_add_span (set, hit->track, hit->index);
    }
  kymo_event_set_seal (set);
  return set;
}

KymoEventSet *
kymo_search_result_get_event_set (KymoSearchResult *self)
{
  if (self->event_set == NULL)
    self->event_set = _kymo_search_build_event_set (self->trace, self->hits);
  return self->event_set;
}

void
kymo_search_hit_get_times (KymoTrace           *trace,
                           const KymoSearchHit *hit,
                           KymoTime            *start,
                           KymoTime            *end)
{
  KymoTrack *track = kymo_trace_get_track (trace, hit->track);
  gsize n;

  if (hit->depth == KYMO_SEARCH_INSTANT)
    {
      const KymoInstant *instants = kymo_track_get_instants (track, &n);

      *start = *end = instants[hit->index].ts;
    }
  else
    {
      const KymoSpan *spans = kymo_track_get_spans (track, &n);

      *start = spans[hit->index].start;
      *end = spans[hit->index].end;
    }
}

guint32
kymo_search_hit_get_name (KymoTrace           *trace,
                          const KymoSearchHit *hit)
{
  KymoTrack *track = kymo_trace_get_track (trace, hit->track);
  gsize n;

  if (hit->depth == KYMO_SEARCH_INSTANT)
    return kymo_track_get_instants (track, &n)[hit->index].name_flags & KYMO_NAME_MAX;
  return kymo_span_name (&kymo_track_get_spans (track, &n)[hit->index]);
}

void
kymo_search_hit_to_ref (const KymoSearchHit *hit,
                        KymoEventRef        *ref)
{
  ref->track = hit->track;
  ref->kind = hit->depth == KYMO_SEARCH_INSTANT ? KYMO_EVENT_KIND_INSTANT : KYMO_EVENT_KIND_SPAN;
  ref->index = hit->index;
}

gsize
kymo_search_result_lower_bound (KymoSearchResult *self,
                                KymoTime          ts)
{
  gsize lo = 0, hi = self->hits->len;

  g_return_val_if_fail (!self->longest, 0);

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      KymoTime start, end;

      kymo_search_hit_get_times (self->trace, &g_array_index (self->hits, KymoSearchHit, mid), &start, &end);
      if (start < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}
