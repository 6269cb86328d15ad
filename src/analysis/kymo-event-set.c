/* kymo-event-set.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-event-set"

#include "config.h"

#include "kymo-event-set.h"

#include <stdlib.h>

typedef struct {
  GArray *spans;     /* guint32, sorted once sealed */
  GArray *instants;  /* guint32 */
} TrackMembers;

struct _KymoEventSet
{
  gatomicrefcount  ref_count;
  KymoTrace       *trace;
  TrackMembers    *tracks;   /* one per track of the trace */
  guint            n_tracks;
  gsize            n_events;
  gboolean         sealed;
};

G_DEFINE_BOXED_TYPE (KymoEventSet, kymo_event_set, kymo_event_set_ref, kymo_event_set_unref)

KymoEventSet *
kymo_event_set_new (KymoTrace *trace)
{
  KymoEventSet *self;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  self = g_new0 (KymoEventSet, 1);
  g_atomic_ref_count_init (&self->ref_count);
  self->trace = g_object_ref (trace);
  self->n_tracks = kymo_trace_get_n_tracks (trace);
  self->tracks = g_new0 (TrackMembers, self->n_tracks);
  return self;
}

KymoEventSet *
kymo_event_set_ref (KymoEventSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
kymo_event_set_unref (KymoEventSet *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  for (guint i = 0; i < self->n_tracks; i++)
    {
      g_clear_pointer (&self->tracks[i].spans, g_array_unref);
      g_clear_pointer (&self->tracks[i].instants, g_array_unref);
    }
  g_free (self->tracks);
  g_object_unref (self->trace);
  g_free (self);
}

static void
push (GArray  **members,
      guint32   index)
{
  if (*members == NULL)
    *members = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_val (*members, index);
}

void
kymo_event_set_add_span (KymoEventSet *self,
                         guint         track,
                         guint32       index)
{
  g_return_if_fail (self != NULL && !self->sealed);
  g_return_if_fail (track < self->n_tracks);

  push (&self->tracks[track].spans, index);
}

void
kymo_event_set_add_instant (KymoEventSet *self,
                            guint         track,
                            guint32       index)
{
  g_return_if_fail (self != NULL && !self->sealed);
  g_return_if_fail (track < self->n_tracks);

  push (&self->tracks[track].instants, index);
}

void
kymo_event_set_add (KymoEventSet       *self,
                    const KymoEventRef *ref)
{
  g_return_if_fail (ref != NULL);

  if (ref->kind == KYMO_EVENT_KIND_SPAN)
    kymo_event_set_add_span (self, ref->track, ref->index);
  else if (ref->kind == KYMO_EVENT_KIND_INSTANT)
    kymo_event_set_add_instant (self, ref->track, ref->index);
}

static int
compare_u32 (const void *a,
             const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

static gsize
sort_unique (GArray *members)
{
  guint32 *v;
  gsize n = 0;

  if (members == NULL || members->len == 0)
    return 0;
  v = (guint32 *) members->data;
  /* Producers mostly add in order: skip the sort when they did. */
  for (guint i = 1; i < members->len; i++)
    if (v[i] < v[i - 1])
      {
        qsort (v, members->len, sizeof (guint32), compare_u32);
        break;
      }
  for (guint i = 0; i < members->len; i++)
    if (n == 0 || v[i] != v[n - 1])
      v[n++] = v[i];
  g_array_set_size (members, n);
  return n;
}

void
kymo_event_set_seal (KymoEventSet *self)
{
  g_return_if_fail (self != NULL);

  if (self->sealed)
    return;
  self->n_events = 0;
  for (guint i = 0; i < self->n_tracks; i++)
    self->n_events += sort_unique (self->tracks[i].spans) + sort_unique (self->tracks[i].instants);
  self->sealed = TRUE;
}

KymoTrace *
kymo_event_set_get_trace (KymoEventSet *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->trace;
}

gsize
kymo_event_set_get_n_events (KymoEventSet *self)
{
  g_return_val_if_fail (self != NULL && self->sealed, 0);

  return self->n_events;
}

/* First position whose value is >= @key. */
static gsize
lower_bound (GArray  *members,
             guint32  key)
{
  const guint32 *v = (const guint32 *) members->data;
  gsize lo = 0, hi = members->len;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (v[mid] < key)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
any_in (GArray  *members,
        guint32  lo,
        guint32  hi)
{
  gsize at;

  if (members == NULL || lo >= hi)
    return FALSE;
  at = lower_bound (members, lo);
  return at < members->len && g_array_index (members, guint32, at) < hi;
}

gboolean
kymo_event_set_any_span_in (KymoEventSet *self,
                            guint         track,
                            guint32       lo,
                            guint32       hi)
{
  g_return_val_if_fail (self != NULL && self->sealed, FALSE);

  return track < self->n_tracks && any_in (self->tracks[track].spans, lo, hi);
}

gboolean
kymo_event_set_any_instant_in (KymoEventSet *self,
                               guint         track,
                               guint32       lo,
                               guint32       hi)
{
  g_return_val_if_fail (self != NULL && self->sealed, FALSE);

  return track < self->n_tracks && any_in (self->tracks[track].instants, lo, hi);
}

gboolean
kymo_event_set_contains_span (KymoEventSet *self,
                              guint         track,
                              guint32       index)
{
  return index < G_MAXUINT32 && kymo_event_set_any_span_in (self, track, index, index + 1);
}

gboolean
kymo_event_set_contains_instant (KymoEventSet *self,
                                 guint         track,
                                 guint32       index)
{
  return index < G_MAXUINT32 && kymo_event_set_any_instant_in (self, track, index, index + 1);
}

gboolean
kymo_event_set_contains (KymoEventSet       *self,
                         const KymoEventRef *ref)
{
  g_return_val_if_fail (ref != NULL, FALSE);

  if (ref->kind == KYMO_EVENT_KIND_SPAN)
    return kymo_event_set_contains_span (self, ref->track, ref->index);
  if (ref->kind == KYMO_EVENT_KIND_INSTANT)
    return kymo_event_set_contains_instant (self, ref->track, ref->index);
  return FALSE;
}

static const guint32 *
members_of (GArray *members,
            gsize  *n_indexes)
{
  *n_indexes = members != NULL ? members->len : 0;
  return *n_indexes > 0 ? (const guint32 *) members->data : NULL;
}

const guint32 *
kymo_event_set_get_spans (KymoEventSet *self,
                          guint         track,
                          gsize        *n_indexes)
{
  g_return_val_if_fail (self != NULL && self->sealed && n_indexes != NULL, NULL);

  *n_indexes = 0;
  return track < self->n_tracks ? members_of (self->tracks[track].spans, n_indexes) : NULL;
}

const guint32 *
kymo_event_set_get_instants (KymoEventSet *self,
                             guint         track,
                             gsize        *n_indexes)
{
  g_return_val_if_fail (self != NULL && self->sealed && n_indexes != NULL, NULL);

  *n_indexes = 0;
  return track < self->n_tracks ? members_of (self->tracks[track].instants, n_indexes) : NULL;
}
