/* kymo-session-carry.c: what a user did in one view, carried to the view of a trace it grew into
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-session-carry"

#include "config.h"

#include "kymo-session-carry.h"

/* A key naming @track by its kind and the names from the root down: track
 * ids differ between a preview and its trace (tracks come as they are met). */
static char *
track_key (KymoTrace *trace,
           guint      track)
{
  GString *key = g_string_new (NULL);

  while (track != KYMO_NO_TRACK)
    {
      KymoTrack *t = kymo_trace_get_track (trace, track);
      const char *name = kymo_track_get_name (t);

      g_string_prepend_c (key, '\x1f');
      g_string_prepend (key, name != NULL ? name : "");
      g_string_prepend_c (key, (char) ('0' + kymo_track_get_kind (t)));
      track = kymo_track_get_parent (t);
    }
  return g_string_free (key, FALSE);
}

/* For every track of @from's trace, the track of @to's of the same key, or
 * KYMO_NO_TRACK. */
static guint *
map_tracks (KymoTrace *to,
            KymoTrace *from)
{
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  guint n_from = kymo_trace_get_n_tracks (from);
  guint *map = g_new (guint, MAX (n_from, 1));

  for (guint i = 0; i < kymo_trace_get_n_tracks (to); i++)
    {
      char *key = track_key (to, i);

      /* Two tracks of one name under one parent: the first one wins. */
      if (!g_hash_table_contains (ids, key))
        g_hash_table_insert (ids, key, GUINT_TO_POINTER (i + 1));
      else
        g_free (key);
    }
  for (guint i = 0; i < n_from; i++)
    {
      g_autofree char *key = track_key (from, i);

      map[i] = GPOINTER_TO_UINT (g_hash_table_lookup (ids, key)) - 1;
    }
  return map;
}

static gboolean
same_name (KymoTrace *to,
           guint32    to_name,
           KymoTrace *from,
           guint32    from_name)
{
  return g_strcmp0 (kymo_trace_get_name (to, to_name), kymo_trace_get_name (from, from_name)) == 0;
}

/* The event of @to_track that is @ref of @from: same time, same name. */
static gboolean
map_event (KymoTrace          *to,
           guint               to_track,
           KymoTrace          *from,
           const KymoEventRef *ref,
           KymoEventRef       *out)
{
  KymoTrack *src = kymo_trace_get_track (from, ref->track);
  KymoTrack *dst = kymo_trace_get_track (to, to_track);
  gsize n_src, n_dst;

  out->track = to_track;
  out->kind = ref->kind;
  switch (ref->kind)
    {
    case KYMO_EVENT_KIND_SPAN:
      {
        const KymoSpan *a = kymo_track_get_spans (src, &n_src);
        const KymoSpan *b = kymo_track_get_spans (dst, &n_dst);
        g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));

        if (ref->index >= n_src)
          return FALSE;
        /* Spans side by side share a boundary: look at all of those there.
         * The end may differ: a span the preview cut ended where it did. */
        kymo_track_query_spans (dst, kymo_track_get_span_depth (src, ref->index),
                                a[ref->index].start, a[ref->index].start, hits);
        for (guint h = 0; h < hits->len; h++)
          {
            guint32 i = g_array_index (hits, guint32, h);

            if (b[i].start == a[ref->index].start &&
                same_name (to, kymo_span_name (&b[i]), from, kymo_span_name (&a[ref->index])))
              {
                out->index = i;
                return TRUE;
              }
          }
        return FALSE;
      }
    case KYMO_EVENT_KIND_INSTANT:
      {
        const KymoInstant *a = kymo_track_get_instants (src, &n_src);
        const KymoInstant *b = kymo_track_get_instants (dst, &n_dst);

        if (ref->index >= n_src)
          return FALSE;
        for (gsize i = kymo_track_lower_bound_instant (dst, a[ref->index].ts);
             i < n_dst && b[i].ts == a[ref->index].ts; i++)
          if (same_name (to, b[i].name_flags & KYMO_NAME_MAX, from, a[ref->index].name_flags & KYMO_NAME_MAX))
            {
              out->index = i;
              return TRUE;
            }
        return FALSE;
      }
    case KYMO_EVENT_KIND_SAMPLE:
      {
        const KymoSample *a = kymo_track_get_samples (src, &n_src);
        const KymoSample *b = kymo_track_get_samples (dst, &n_dst);
        gsize i;

        if (ref->index >= n_src)
          return FALSE;
        i = kymo_track_lower_bound_sample (dst, a[ref->index].ts);
        if (i >= n_dst || b[i].ts != a[ref->index].ts)
          return FALSE;
        out->index = i;
        return TRUE;
      }
    case KYMO_EVENT_KIND_ANNOTATION:
      {
        const KymoAnnotation *a = kymo_track_get_annotations (src, &n_src);
        const KymoAnnotation *b = kymo_track_get_annotations (dst, &n_dst);
        gsize i;

        if (ref->index >= n_src)
          return FALSE;
        i = kymo_track_lower_bound_annotation (dst, a[ref->index].start);
        if (i >= n_dst || b[i].start != a[ref->index].start)
          return FALSE;
        out->index = i;
        return TRUE;
      }
    case KYMO_EVENT_KIND_NONE:
    default:
      return FALSE;
    }
}

void
kymo_session_carry_state (KymoSession *to,
                          KymoSession *from)
{
  KymoTrace *to_trace, *from_trace;
  g_autofree guint *map = NULL;
  const KymoEventRef *selected;
  const guint *pinned;
  guint n_pinned;
  KymoTime start, end, full_start, full_end, to_start, to_end;

  g_return_if_fail (KYMO_IS_SESSION (to));
  g_return_if_fail (KYMO_IS_SESSION (from));

  to_trace = kymo_session_get_trace (to);
  from_trace = kymo_session_get_trace (from);
  map = map_tracks (to_trace, from_trace);
  kymo_session_get_visible_range (to, &to_start, &to_end);

  /* First: selecting reveals the event (shows its track, zooms to it),
   * which what the user set below takes back. */
  selected = kymo_session_get_selected_event (from);
  if (selected != NULL && selected->track < kymo_trace_get_n_tracks (from_trace) &&
      map[selected->track] != KYMO_NO_TRACK)
    {
      KymoEventRef ref;

      if (map_event (to_trace, map[selected->track], from_trace, selected, &ref))
        kymo_session_select_event (to, &ref);
    }

  for (guint i = 0; i < kymo_trace_get_n_tracks (from_trace); i++)
    {
      if (map[i] == KYMO_NO_TRACK)
        continue;
      if (!kymo_session_get_track_visible (from, i))
        kymo_session_set_track_visible (to, map[i], FALSE);
      if (kymo_session_get_group_collapsed (from, i))
        kymo_session_set_group_collapsed (to, map[i], TRUE);
    }
  pinned = kymo_session_get_pinned_tracks (from, &n_pinned);
  for (guint i = 0; i < n_pinned; i++)
    if (map[pinned[i]] != KYMO_NO_TRACK)
      kymo_session_set_track_pinned (to, map[pinned[i]], TRUE);
  kymo_session_set_filter_text (to, kymo_session_get_filter_text (from));

  kymo_session_get_visible_range (from, &start, &end);
  kymo_session_get_full_range (from, &full_start, &full_end);
  if (start != full_start || end != full_end)
    kymo_session_set_visible_range (to, start, end);
  else
    kymo_session_set_visible_range (to, to_start, to_end);

  kymo_session_get_selected_range (from, &start, &end);
  if (start != KYMO_TIME_NONE || end != KYMO_TIME_NONE)
    kymo_session_set_selected_range (to, start, end);

  kymo_session_set_search_text (to, kymo_session_get_search_text (from));
  kymo_session_set_wallclock (to, kymo_session_get_wallclock (from));
  kymo_session_set_utc (to, kymo_session_get_utc (from));
}
