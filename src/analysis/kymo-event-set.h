/* kymo-event-set.h: a set of spans and instants of one trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "kymo-trace.h"

G_BEGIN_DECLS

/* What search results, a selected task, query results or a histogram range
 * mark on the timeline: per track, the sorted indexes of its spans (as
 * kymo_track_get_spans() numbers them) and of its instants. 4 bytes an event.
 * Built on one thread, then sealed; a sealed set is immutable and may be
 * shared between threads. */
typedef struct _KymoEventSet KymoEventSet;

#define KYMO_TYPE_EVENT_SET (kymo_event_set_get_type ())

GType          kymo_event_set_get_type        (void) G_GNUC_CONST;

KymoEventSet  *kymo_event_set_new             (KymoTrace          *trace);
KymoEventSet  *kymo_event_set_ref             (KymoEventSet       *self);
void           kymo_event_set_unref           (KymoEventSet       *self);

/* Building: any order, duplicates allowed; only before seal. */
void           kymo_event_set_add             (KymoEventSet       *self,
                                               const KymoEventRef *ref);
void           kymo_event_set_add_span        (KymoEventSet       *self,
                                               guint               track,
                                               guint32             index);
void           kymo_event_set_add_instant     (KymoEventSet       *self,
                                               guint               track,
                                               guint32             index);
/* Sorts and removes duplicates. */
void           kymo_event_set_seal            (KymoEventSet       *self);

KymoTrace     *kymo_event_set_get_trace       (KymoEventSet       *self);
gsize          kymo_event_set_get_n_events    (KymoEventSet       *self);
gboolean       kymo_event_set_contains        (KymoEventSet       *self,
                                               const KymoEventRef *ref);
gboolean       kymo_event_set_contains_span   (KymoEventSet       *self,
                                               guint               track,
                                               guint32             index);
gboolean       kymo_event_set_contains_instant (KymoEventSet      *self,
                                               guint               track,
                                               guint32             index);
/* Whether a span with index in [@lo, @hi) is in the set: spans of one depth
 * are contiguous and in start order, so this answers "does this folded
 * level-of-detail box hold a member" in O(log n). */
gboolean       kymo_event_set_any_span_in     (KymoEventSet       *self,
                                               guint               track,
                                               guint32             lo,
                                               guint32             hi);
gboolean       kymo_event_set_any_instant_in  (KymoEventSet       *self,
                                               guint               track,
                                               guint32             lo,
                                               guint32             hi);
/* Sorted indexes (NULL with *n_indexes 0 when the track has none). */
const guint32 *kymo_event_set_get_spans       (KymoEventSet       *self,
                                               guint               track,
                                               gsize              *n_indexes);
const guint32 *kymo_event_set_get_instants    (KymoEventSet       *self,
                                               guint               track,
                                               gsize              *n_indexes);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoEventSet, kymo_event_set_unref)

G_END_DECLS
