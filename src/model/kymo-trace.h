/* kymo-trace.h: the one model every format loads into
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "kymo-records.h"
#include "kymo-stacks.h"
#include "kymo-track.h"

G_BEGIN_DECLS

typedef struct _KymoFormat KymoFormat;
typedef struct _KymoInput KymoInput;

#define KYMO_TYPE_TRACE (kymo_trace_get_type ())

G_DECLARE_FINAL_TYPE (KymoTrace, kymo_trace, KYMO, TRACE, GObject)

KymoTrace          *kymo_trace_new                (void);

const char         *kymo_trace_get_title          (KymoTrace          *self);
void                kymo_trace_set_title          (KymoTrace          *self,
                                                   const char         *title);
const KymoFormat   *kymo_trace_get_format         (KymoTrace          *self);
void                kymo_trace_set_format         (KymoTrace          *self,
                                                   const KymoFormat   *format);
const char         *kymo_trace_get_variant        (KymoTrace          *self);
void                kymo_trace_set_variant        (KymoTrace          *self,
                                                   const char         *variant);
/* The input the trace was read from: kept so arguments decode on demand. */
KymoInput          *kymo_trace_get_input          (KymoTrace          *self);
void                kymo_trace_set_input          (KymoTrace          *self,
                                                   KymoInput          *input);
gpointer            kymo_trace_get_format_data    (KymoTrace          *self);
void                kymo_trace_set_format_data    (KymoTrace          *self,
                                                   gpointer            data,
                                                   GDestroyNotify      destroy);

/* Names are interned once; ids are dense from 0 ("" is id 0). */
guint32             kymo_trace_intern             (KymoTrace          *self,
                                                   const char         *name);
guint32             kymo_trace_intern_len         (KymoTrace          *self,
                                                   const char         *name,
                                                   gssize              len);
/* The id of @name if it is interned already, else G_MAXUINT32; never
 * interns, so threads may call it while nobody interns. */
guint32             kymo_trace_lookup_name        (KymoTrace          *self,
                                                   const char         *name);
/* The name as the app shows it: after seal, C++ and Rust symbols are
 * demangled and invalid UTF-8 is replaced (U+FFFD). */
const char         *kymo_trace_get_name           (KymoTrace          *self,
                                                   guint32             name_id);
/* The name as the file spells it (what kymo_trace_intern() was given). */
const char         *kymo_trace_get_raw_name       (KymoTrace          *self,
                                                   guint32             name_id);
guint               kymo_trace_get_n_names        (KymoTrace          *self);
/* Stores @text for the trace's lifetime (not interned). */
const char         *kymo_trace_store_text         (KymoTrace          *self,
                                                   const char         *text);

/* @parent is KYMO_NO_TRACK for a top-level track. Returns the new track's id. */
guint               kymo_trace_add_track          (KymoTrace          *self,
                                                   guint               parent,
                                                   KymoTrackKind       kind,
                                                   const char         *name);
guint               kymo_trace_get_n_tracks       (KymoTrace          *self);
KymoTrack          *kymo_trace_get_track          (KymoTrace          *self,
                                                   guint               id);
/* Top-level tracks in display order (after seal: sorted by sort key). */
const guint        *kymo_trace_get_root_tracks    (KymoTrace          *self,
                                                   guint              *n_roots);

void                kymo_trace_add_flow           (KymoTrace          *self,
                                                   guint               from_track,
                                                   KymoTime            from_ts,
                                                   guint               to_track,
                                                   KymoTime            to_ts,
                                                   guint32             name,
                                                   guint32             source);
void                kymo_trace_take_flows         (KymoTrace          *self,
                                                   KymoFlow           *flows,
                                                   gsize               n_flows);
const KymoFlow     *kymo_trace_get_flows          (KymoTrace          *self,
                                                   gsize              *n_flows);

/* Sampled call stacks (never NULL; empty when the trace has none). */
KymoStacks         *kymo_trace_get_stacks         (KymoTrace          *self);
/* Numbers formats read from records for analyses (never NULL). */
KymoRecords        *kymo_trace_get_records        (KymoTrace          *self);

void                kymo_trace_add_warning        (KymoTrace          *self,
                                                   guint64             offset,
                                                   KymoTime            ts,
                                                   const char         *format,
                                                   ...) G_GNUC_PRINTF (4, 5);
const KymoWarning  *kymo_trace_get_warnings       (KymoTrace          *self,
                                                   gsize              *n_warnings);

/* Ordered key/value pairs describing the trace (setting a key again replaces it). */
void                kymo_trace_set_metadata       (KymoTrace          *self,
                                                   const char         *key,
                                                   const char         *value);
const char         *kymo_trace_get_metadata       (KymoTrace          *self,
                                                   const char         *key);
guint               kymo_trace_get_n_metadata     (KymoTrace          *self);
void                kymo_trace_get_nth_metadata   (KymoTrace          *self,
                                                   guint               n,
                                                   const char        **key,
                                                   const char        **value);

/* Trace time @ts corresponds to @epoch_ns nanoseconds since the Unix epoch. */
void                kymo_trace_set_wallclock      (KymoTrace          *self,
                                                   KymoTime            ts,
                                                   gint64              epoch_ns);
gboolean            kymo_trace_get_wallclock      (KymoTrace          *self,
                                                   gint64             *offset_ns);

/* Sorts every track and builds the interval trees, which are the level of
 * detail frames read too, on the threads of the load option `threads` (a
 * trace built by hand: every core once it is large). After this the trace
 * is read-only and may be shared with other threads. */
void                kymo_trace_seal               (KymoTrace          *self);
gboolean            kymo_trace_is_sealed          (KymoTrace          *self);
/* KYMO_TIME_NONE for both when the trace holds no event. */
void                kymo_trace_get_time_range     (KymoTrace          *self,
                                                   KymoTime           *start,
                                                   KymoTime           *end);
/* Overrides the range computed from the events (e.g. a header's range). */
void                kymo_trace_set_time_range     (KymoTrace          *self,
                                                   KymoTime            start,
                                                   KymoTime            end);
void                kymo_trace_count_events       (KymoTrace          *self,
                                                   guint64            *spans,
                                                   guint64            *instants,
                                                   guint64            *samples,
                                                   guint64            *annotations);

/* Decoding stopped at damage: what was read before it is in the trace. */
const GError       *kymo_trace_get_stop_error     (KymoTrace          *self);
void                kymo_trace_set_stop_error     (KymoTrace          *self,
                                                   const GError       *error);

/* Arguments of one event, decoded on demand from the input by its format:
 * a JSON object (field name → value), or NULL when there is nothing to show. */
JsonObject         *kymo_trace_describe_event     (KymoTrace          *self,
                                                   const KymoEventRef *ref);
/* The record linked to @from (ATF index ↔ detail), in O(1). */
gboolean            kymo_trace_follow_link        (KymoTrace          *self,
                                                   const KymoEventRef *from,
                                                   KymoEventRef       *to);

G_END_DECLS
