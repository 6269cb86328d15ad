/* kymo-query-rows.c: walking the rows a plan keeps: per-track segments, the name filter, the by-name order, args
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-query"

#include "config.h"

#include "kymo-query-tables-private.h"

#include <string.h>

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

/* Every name id whose name as shown equals @text: names are interned, but
 * shown names (demangled) may differ from the interned ones. */
void
_kymo_query_cursor_lookup_names (KymoQueryCursor *cursor,
                                 const char      *text)
{
  KymoTrace *trace = cursor->cat->trace;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 id = kymo_trace_lookup_name (trace, text);
  guint n = kymo_trace_get_n_names (trace);

  if (id != G_MAXUINT32 && g_strcmp0 (kymo_trace_get_name (trace, id), text) == 0)
    g_array_append_val (ids, id);
  for (guint32 i = 0; i < n; i++)
    if (i != id && strcmp (kymo_trace_get_name (trace, i), text) == 0)
      g_array_append_val (ids, i);
  g_array_sort (ids, compare_u32);
  cursor->n_names = ids->len;
  cursor->names = (guint32 *) g_array_free (g_steal_pointer (&ids), FALSE);
}

static gboolean
name_kept (KymoQueryCursor *cursor,
           guint32          name)
{
  guint lo = 0, hi = cursor->n_names;

  if (cursor->names == NULL)
    return TRUE;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (cursor->names[mid] < name)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < cursor->n_names && cursor->names[lo] == name;
}

static void
push_segment (GArray  *segments,
              guint64  lo,
              guint64  hi)
{
  KymoQuerySegment *last;

  if (lo >= hi)
    return;
  if (segments->len > 0)
    {
      last = &g_array_index (segments, KymoQuerySegment, segments->len - 1);
      if (last->hi == lo)
        {
          last->hi = hi;
          return;
        }
    }
  g_array_append_vals (segments, &(KymoQuerySegment) { lo, hi }, 1);
}

/* The spans of the current track the plan may keep, as index ranges in id
 * order: a start range is a binary search per depth, an end bound an
 * interval-tree query. */
static void
span_segments (KymoQueryCursor *cursor)
{
  KymoQueryCatalog *cat = cursor->cat;
  KymoTrack *track = cursor_track (cursor);
  guint64 base = cat->span_base[cursor->p];
  guint64 id_lo = cursor->id_lo > base ? cursor->id_lo - base : 0;
  guint64 id_hi = cursor->id_hi - base;  /* exclusive below */

  if (cursor->id_hi < base)
    return;
  id_hi = cursor->id_hi == G_MAXUINT64 ? G_MAXUINT64 : id_hi + 1;

  for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
    {
      const KymoSpan *spans;
      gsize n, first, lo, hi;

      spans = kymo_track_get_depth_spans (track, d, &n, &first);
      lo = kymo_spans_lower_bound (spans, n, cursor->t_lo, FALSE);
      hi = cursor->t_hi == G_MAXINT64 ? n : kymo_spans_lower_bound (spans, n, cursor->t_hi, TRUE);
      if (lo >= hi || first + lo >= id_hi || first + hi <= id_lo)
        continue;

      if (cursor->has_end_lo && hi - lo > 64)
        {
          /* start <= t_hi and end >= end_lo: an overlap query; when end_lo
           * lies past the last start, the spans holding end_lo (the index
           * range below keeps their starts in bounds). */
          g_array_set_size (cursor->scratch, 0);
          kymo_track_query_spans (track, d, cursor->end_lo, MAX (spans[hi - 1].start, cursor->end_lo),
                                  cursor->scratch);
          for (guint i = 0; i < cursor->scratch->len; i++)
            {
              guint64 idx = g_array_index (cursor->scratch, guint32, i);

              if (idx >= first + lo && idx < first + hi && idx >= id_lo && idx < id_hi)
                push_segment (cursor->segments, idx, idx + 1);
            }
        }
      else
        push_segment (cursor->segments, MAX (first + lo, id_lo), MIN (first + hi, id_hi));
    }
}

static gsize
events_lower_bound_ts (const KymoTrack *track,
                       gboolean         annotations,
                       KymoTime         ts,
                       gboolean         strictly_after)
{
  if (strictly_after)
    {
      if (ts == G_MAXINT64)
        {
          gsize n;
          if (annotations)
            kymo_track_get_annotations (track, &n);
          else
            kymo_track_get_instants (track, &n);
          return n;
        }
      ts++;
    }
  return annotations ? kymo_track_lower_bound_annotation (track, ts) : kymo_track_lower_bound_instant (track, ts);
}

static void
instant_segments (KymoQueryCursor *cursor)
{
  KymoQueryCatalog *cat = cursor->cat;
  KymoTrack *track = cursor_track (cursor);
  guint64 base = cat->instant_base[cursor->p];
  guint64 id_lo, id_hi;
  gsize n_instants, n_annotations;

  if (cursor->id_hi < base)
    return;
  id_lo = cursor->id_lo > base ? cursor->id_lo - base : 0;
  id_hi = cursor->id_hi == G_MAXUINT64 ? G_MAXUINT64 : cursor->id_hi - base + 1;
  kymo_track_get_instants (track, &n_instants);
  kymo_track_get_annotations (track, &n_annotations);

  push_segment (cursor->segments,
                MAX (events_lower_bound_ts (track, FALSE, cursor->t_lo, FALSE), id_lo),
                MIN (events_lower_bound_ts (track, FALSE, cursor->t_hi, TRUE), id_hi));
  push_segment (cursor->segments,
                MAX (n_instants + events_lower_bound_ts (track, TRUE, cursor->t_lo, FALSE), id_lo),
                MIN (n_instants + events_lower_bound_ts (track, TRUE, cursor->t_hi, TRUE), id_hi));
}

static void
sample_segments (KymoQueryCursor *cursor)
{
  KymoTrack *track = cursor_track (cursor);
  gsize n, lo, hi;

  kymo_track_get_samples (track, &n);
  lo = kymo_track_lower_bound_sample (track, cursor->t_lo);
  hi = cursor->t_hi == G_MAXINT64 ? n : kymo_track_lower_bound_sample (track, cursor->t_hi + 1);
  push_segment (cursor->segments, lo, hi);
}

static gboolean span_row_kept (KymoQueryCursor *cursor);

/* Whether the row under the cursor passes the plan's name filter. */
static gboolean
row_kept (KymoQueryCursor *cursor)
{
  KymoTrack *track;

  if (cursor->names == NULL)
    return TRUE;
  track = cursor_track (cursor);
  if (cursor->table->kind == TABLE_SPANS)
    return span_row_kept (cursor);
  if (cursor->table->kind == TABLE_INSTANTS)
    {
      gsize n_instants;
      const KymoInstant *instants = kymo_track_get_instants (track, &n_instants);

      if (cursor->index < n_instants)
        return name_kept (cursor, instants[cursor->index].name_flags & KYMO_NAME_MAX);
      return name_kept (cursor, kymo_track_get_annotations (track, &n_instants)
                                  [cursor->index - n_instants].name);
    }
  return TRUE;
}

static gboolean
span_row_kept (KymoQueryCursor *cursor)
{
  return cursor->names == NULL || name_kept (cursor, kymo_span_name (cursor_span (cursor)));
}

void
_kymo_query_cursor_enter_track (KymoQueryCursor *cursor)
{
  g_array_set_size (cursor->segments, 0);
  cursor->seg = 0;
  switch (cursor->table->kind)
    {
    case TABLE_SPANS:
      span_segments (cursor);
      break;
    case TABLE_INSTANTS:
      instant_segments (cursor);
      break;
    case TABLE_COUNTERS:
      sample_segments (cursor);
      break;
    default:
      break;
    }
  if (cursor->segments->len > 0)
    cursor->index = g_array_index (cursor->segments, KymoQuerySegment, 0).lo;
  cursor->depth_end = 0;
}

/* Settles on a row: the current one when it is kept, else the next. */
int
_kymo_query_cursor_settle (KymoQueryCursor *cursor)
{
  while (cursor->p < cursor->p_end)
    {
      while (cursor->seg < cursor->segments->len)
        {
          KymoQuerySegment *s = &g_array_index (cursor->segments, KymoQuerySegment, cursor->seg);

          for (; cursor->index < s->hi; cursor->index++)
            {
              if (++cursor->steps % CHECK_EVERY == 0 &&
                  g_cancellable_is_cancelled (cursor->cat->cancellable))
                return SQLITE_INTERRUPT;
              if (row_kept (cursor))
                return SQLITE_OK;
            }
          cursor->seg++;
          if (cursor->seg < cursor->segments->len)
            cursor->index = g_array_index (cursor->segments, KymoQuerySegment, cursor->seg).lo;
        }
      cursor->p++;
      if (cursor->p < cursor->p_end)
        _kymo_query_cursor_enter_track (cursor);
    }
  cursor->eof = TRUE;
  return SQLITE_OK;
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      trace)
{
  int cmp = strcmp (kymo_trace_get_name (trace, *(const guint32 *) a),
                    kymo_trace_get_name (trace, *(const guint32 *) b));

  /* Ties by id keep the sort stable, so equal names rank alike. */
  return cmp != 0 ? cmp : compare_u32 (a, b);
}

/* Span ids sorted by name (strcmp) then id: a rank per name, then a
 * counting sort of every span by rank. */
gboolean
_kymo_query_build_name_order (KymoQueryCatalog *cat)
{
  KymoTrace *trace = cat->trace;
  guint n_names = kymo_trace_get_n_names (trace);
  g_autofree guint32 *sorted = g_new (guint32, MAX (n_names, 1));
  g_autofree guint32 *rank = g_new (guint32, MAX (n_names, 1));
  g_autofree guint64 *next = NULL;
  guint n_ranks = 0;
  gsize total = cat->span_base[cat->n_tracks];
  guint32 *order;

  if (cat->name_order != NULL)
    return TRUE;

  for (guint32 i = 0; i < n_names; i++)
    sorted[i] = i;
  g_qsort_with_data (sorted, n_names, sizeof (guint32), compare_names, trace);
  for (guint i = 0; i < n_names; i++)
    {
      if (i > 0 && strcmp (kymo_trace_get_name (trace, sorted[i]),
                           kymo_trace_get_name (trace, sorted[i - 1])) != 0)
        n_ranks++;
      rank[sorted[i]] = n_ranks;
    }
  n_ranks++;

  next = g_new0 (guint64, n_ranks + 1);
  for (guint p = 0; p < cat->n_tracks; p++)
    {
      const KymoSpan *spans;
      gsize n;

      spans = kymo_track_get_spans (kymo_trace_get_track (trace, cat->order[p]), &n);
      for (gsize i = 0; i < n; i++)
        next[rank[kymo_span_name (&spans[i])] + 1]++;
      if (g_cancellable_is_cancelled (cat->cancellable))
        return FALSE;
    }
  for (guint r = 0; r < n_ranks; r++)
    next[r + 1] += next[r];

  order = g_try_new (guint32, MAX (total, 1));
  if (order == NULL)
    return FALSE;
  for (guint p = 0; p < cat->n_tracks; p++)
    {
      const KymoSpan *spans;
      gsize n;
      guint32 base = (guint32) cat->span_base[p];

      spans = kymo_track_get_spans (kymo_trace_get_track (trace, cat->order[p]), &n);
      for (gsize i = 0; i < n; i++)
        order[next[rank[kymo_span_name (&spans[i])]]++] = base + (guint32) i;
      if (g_cancellable_is_cancelled (cat->cancellable))
        {
          g_free (order);
          return FALSE;
        }
    }
  cat->name_order = order;
  cat->n_name_order = total;
  return TRUE;
}

/* In the by-name order: sets p and index from the span id at order_pos. */
int
_kymo_query_cursor_settle_by_name (KymoQueryCursor *cursor)
{
  KymoQueryCatalog *cat = cursor->cat;

  for (; cursor->order_pos < cat->n_name_order; cursor->order_pos++)
    {
      guint64 id = cat->name_order[cursor->order_pos];

      if (++cursor->steps % CHECK_EVERY == 0 && g_cancellable_is_cancelled (cat->cancellable))
        return SQLITE_INTERRUPT;
      /* Ids of one name ascend: the track changes rarely. */
      if (id < cat->span_base[cursor->p] || id >= cat->span_base[cursor->p + 1])
        {
          cursor->p = _kymo_query_find_base (cat->span_base, cat->n_tracks, id);
          cursor->depth_end = 0;
        }
      cursor->index = id - cat->span_base[cursor->p];
      if (span_row_kept (cursor))
        return SQLITE_OK;
    }
  cursor->eof = TRUE;
  return SQLITE_OK;
}

/* args: the next event (in the plan's id range) with at least one argument. */
int
_kymo_query_cursor_settle_args (KymoQueryCursor *cursor)
{
  KymoQueryCatalog *cat = cursor->cat;
  guint64 total = cat->instant_base[cat->n_tracks];

  while (cursor->key == NULL || cursor->key->next == NULL)
    {
      KymoEventRef ref;
      guint p;

      if (cursor->key != NULL || cursor->object != NULL)
        {
          _kymo_query_cursor_reset_args (cursor);
          cursor->event++;
        }
      if (cursor->event < 0 || (guint64) cursor->event > cursor->id_hi || (guint64) cursor->event >= total)
        {
          cursor->eof = TRUE;
          return SQLITE_OK;
        }
      if (++cursor->steps % 256 == 0 && g_cancellable_is_cancelled (cat->cancellable))
        return SQLITE_INTERRUPT;

      p = _kymo_query_find_base (cat->span_base, cat->n_tracks, cursor->event);
      if (p < cat->n_tracks)
        {
          ref.track = cat->order[p];
          ref.kind = KYMO_EVENT_KIND_SPAN;
          ref.index = (guint) (cursor->event - cat->span_base[p]);
        }
      else
        {
          gsize n_instants;
          guint64 i;

          p = _kymo_query_find_base (cat->instant_base, cat->n_tracks, cursor->event);
          if (p >= cat->n_tracks)
            {
              cursor->eof = TRUE;
              return SQLITE_OK;
            }
          i = cursor->event - cat->instant_base[p];
          kymo_track_get_instants (kymo_trace_get_track (cat->trace, cat->order[p]), &n_instants);
          ref.track = cat->order[p];
          ref.kind = i < n_instants ? KYMO_EVENT_KIND_INSTANT : KYMO_EVENT_KIND_ANNOTATION;
          ref.index = (guint) (i < n_instants ? i : i - n_instants);
        }
      cursor->object = kymo_trace_describe_event (cat->trace, &ref);
      if (cursor->object != NULL)
        cursor->keys = json_object_get_members (cursor->object);
      if (cursor->keys != NULL)
        {
          cursor->key = cursor->keys;
          return SQLITE_OK;
        }
      /* Nothing to show: mark the event visited and move on. */
      if (cursor->object == NULL)
        cursor->object = json_object_new ();
    }
  cursor->key = cursor->key->next;
  return SQLITE_OK;
}
