/* kymo-track.h: one row of the timeline and the events it holds
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-span-tree.h"
#include "kymo-types.h"

G_BEGIN_DECLS

typedef struct _KymoTrack KymoTrack;

guint                 kymo_track_get_id              (const KymoTrack *self);
guint                 kymo_track_get_parent          (const KymoTrack *self);
KymoTrackKind         kymo_track_get_kind            (const KymoTrack *self);
const char           *kymo_track_get_name            (const KymoTrack *self);
void                  kymo_track_set_name            (KymoTrack       *self,
                                                      const char      *name);
/* "process", "zone", "core", "runtime", … for groups; NULL otherwise */
const char           *kymo_track_get_group_kind      (const KymoTrack *self);
void                  kymo_track_set_group_kind      (KymoTrack       *self,
                                                      const char      *group_kind);
const char           *kymo_track_get_unit            (const KymoTrack *self);
void                  kymo_track_set_unit            (KymoTrack       *self,
                                                      const char      *unit);
/* Children are shown in ascending sort key, then in creation order. */
gint64                kymo_track_get_sort_key        (const KymoTrack *self);
void                  kymo_track_set_sort_key        (KymoTrack       *self,
                                                      gint64           sort_key);
/* A value of the format's own (thread id, core, worker id…). */
guint64               kymo_track_get_tag             (const KymoTrack *self);
void                  kymo_track_set_tag             (KymoTrack       *self,
                                                      guint64          tag);
const guint          *kymo_track_get_children        (const KymoTrack *self,
                                                      guint           *n_children);

/* Building: only before kymo_trace_seal(). Depth 0 is the outermost span.
 * Spans added in (depth, start) order are sealed without sorting or copying. */
void                  kymo_track_reserve_spans       (KymoTrack       *self,
                                                      gsize            n_spans);
void                  kymo_track_reserve_instants    (KymoTrack       *self,
                                                      gsize            n_instants);
void                  kymo_track_reserve_samples     (KymoTrack       *self,
                                                      gsize            n_samples);
/* Appends @n_spans spans at @depth (name_flags already packed): the bulk
 * form of kymo_track_add_span(). */
void                  kymo_track_add_spans           (KymoTrack       *self,
                                                      guint            depth,
                                                      const KymoSpan  *spans,
                                                      gsize            n_spans);
/* Appends @n_spans uninitialised spans at @depth and returns them for the
 * caller to fill before the next call on @self (an end before its start is
 * clamped at seal). Saves decoders a staging copy. */
KymoSpan             *kymo_track_append_spans        (KymoTrack       *self,
                                                      guint            depth,
                                                      gsize            n_spans);
/* Hand over g_malloc()ed arrays the track then owns and frees: when nothing
 * of that kind is staged yet the array is adopted as it is, without a copy. */
void                  kymo_track_take_spans          (KymoTrack       *self,
                                                      guint            depth,
                                                      KymoSpan        *spans,
                                                      gsize            n_spans);
void                  kymo_track_take_spans_with_room (KymoTrack      *self,
                                                      guint            depth,
                                                      KymoSpan        *spans,
                                                      gsize            n_spans,
                                                      gsize            n_alloc);
void                  kymo_track_take_instants       (KymoTrack       *self,
                                                      KymoInstant     *instants,
                                                      gsize            n_instants);
void                  kymo_track_take_samples        (KymoTrack       *self,
                                                      KymoSample      *samples,
                                                      gsize            n_samples);
void                  kymo_track_add_span            (KymoTrack       *self,
                                                      KymoTime         start,
                                                      KymoTime         end,
                                                      guint32          name,
                                                      guint            depth,
                                                      guint            flags,
                                                      guint32          source);
/* Before the trace is sealed: every span and instant named @first + i (i
 * < @n_map) is named @map[i] instead. For a decoder that names events on
 * a worker thread before their names can be interned. */
void                  kymo_track_rename              (KymoTrack       *self,
                                                      guint32          first,
                                                      const guint32   *map,
                                                      guint32          n_map);
void                  kymo_track_add_instant         (KymoTrack       *self,
                                                      KymoTime         ts,
                                                      guint32          name,
                                                      guint            flags,
                                                      guint32          source);
void                  kymo_track_add_sample          (KymoTrack       *self,
                                                      KymoTime         ts,
                                                      double           value);
/* @text is copied into the trace; @end == @start for a point. */
void                  kymo_track_add_annotation      (KymoTrack       *self,
                                                      KymoTime         start,
                                                      KymoTime         end,
                                                      guint32          name,
                                                      const char      *text,
                                                      guint32          source);

/* The track's spans are all added (instants, samples and annotations may
 * still come): orders them and builds their trees now, on the calling
 * thread, rather than in kymo_trace_seal(). For a decoder that finishes
 * tracks on its own threads while it still builds others. */
void                  kymo_track_seal_spans          (KymoTrack       *self);

/* Reading: only after kymo_trace_seal(). */
gsize                 kymo_track_get_n_events        (const KymoTrack *self);
KymoTime              kymo_track_get_start           (const KymoTrack *self);
KymoTime              kymo_track_get_end             (const KymoTrack *self);

/* All spans, ordered by depth, then by start. */
const KymoSpan       *kymo_track_get_spans           (const KymoTrack *self,
                                                      gsize           *n_spans);
guint                 kymo_track_get_n_depths        (const KymoTrack *self);
/* The spans at @depth: a slice of kymo_track_get_spans() starting at *first. */
const KymoSpan       *kymo_track_get_depth_spans     (const KymoTrack *self,
                                                      guint            depth,
                                                      gsize           *n_spans,
                                                      gsize           *first);
guint                 kymo_track_get_span_depth      (const KymoTrack *self,
                                                      gsize            index);
/* Appends (guint32) indexes of the spans at @depth overlapping [t0, t1], in
 * start order. O(log n + k). Returns the number appended. */
gsize                 kymo_track_query_spans         (const KymoTrack *self,
                                                      guint            depth,
                                                      KymoTime         t0,
                                                      KymoTime         t1,
                                                      GArray          *indexes);
/* Level of detail: splits [t0, t1) into @n_buckets equal buckets; for each,
 * the index of the longest span at @depth starting in it (G_MAXUINT32 for
 * none) and how many spans start in it. O(n_buckets · log n). */
void                  kymo_track_query_lod           (const KymoTrack *self,
                                                      guint            depth,
                                                      KymoTime         t0,
                                                      KymoTime         t1,
                                                      guint            n_buckets,
                                                      guint32         *longest,
                                                      guint32         *counts);
/* The level of detail of the spans at @depth, built at seal: @level 0 has a
 * block per KYMO_SPAN_TREE_LEAF spans in start order, each level above a
 * block per KYMO_SPAN_TREE_FANOUT blocks below; indexes are in the depth
 * run. No levels for a run short enough to read whole. */
guint                 kymo_track_get_lod_levels      (const KymoTrack *self,
                                                      guint            depth);
const KymoSpanBlock  *kymo_track_get_lod             (const KymoTrack *self,
                                                      guint            depth,
                                                      guint            level,
                                                      gsize           *n_blocks);
/* Index of the span at @depth containing @ts, or G_MAXUINT32. */
guint32               kymo_track_find_span_at        (const KymoTrack *self,
                                                      guint            depth,
                                                      KymoTime         ts);

const KymoInstant    *kymo_track_get_instants        (const KymoTrack *self,
                                                      gsize           *n_instants);
const KymoSample     *kymo_track_get_samples         (const KymoTrack *self,
                                                      gsize           *n_samples);
const KymoAnnotation *kymo_track_get_annotations     (const KymoTrack *self,
                                                      gsize           *n_annotations);
/* First instant / sample / annotation (by start) at or after @ts. */
gsize                 kymo_track_lower_bound_instant (const KymoTrack *self,
                                                      KymoTime         ts);
gsize                 kymo_track_lower_bound_sample  (const KymoTrack *self,
                                                      KymoTime         ts);
gsize                 kymo_track_lower_bound_annotation (const KymoTrack *self,
                                                         KymoTime         ts);

G_END_DECLS
