/* kymo-search.h: find events by name (and argument)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "kymo-event-set.h"
#include "kymo-trace.h"

G_BEGIN_DECLS

/* One match: 12 bytes, times are read from the track when needed. */
#define KYMO_SEARCH_INSTANT G_MAXUINT32

typedef struct {
  guint32 track;
  guint32 index;  /* as kymo_track_get_spans() / _get_instants() number them */
  guint32 depth;  /* the span's depth, or KYMO_SEARCH_INSTANT */
} KymoSearchHit;

typedef struct {
  guint32 name_id;
  guint64 count;
} KymoSearchNameCount;

typedef struct _KymoSearchResult KymoSearchResult;

#define KYMO_TYPE_SEARCH_RESULT (kymo_search_result_get_type ())

GType                      kymo_search_result_get_type        (void) G_GNUC_CONST;
KymoSearchResult          *kymo_search_result_ref             (KymoSearchResult  *self);
void                       kymo_search_result_unref           (KymoSearchResult  *self);
KymoTrace                 *kymo_search_result_get_trace       (KymoSearchResult  *self);
const char                *kymo_search_result_get_query       (KymoSearchResult  *self);
/* In start order (ties: track display order, then depth, instants after
 * spans), or longest first with kymo_search_set_longest(). */
const KymoSearchHit       *kymo_search_result_get_hits        (KymoSearchResult  *self,
                                                               gsize             *n_hits);
gsize                      kymo_search_result_get_n_hits      (KymoSearchResult  *self);
/* Matches per name, most first (then by name id). */
const KymoSearchNameCount *kymo_search_result_get_name_counts (KymoSearchResult  *self,
                                                               gsize             *n_names);
/* The hits as a set for the timeline: built by the search's thread when the
 * search ran asynchronously, else on the first call (one thread only). */
KymoEventSet              *kymo_search_result_get_event_set   (KymoSearchResult  *self);
/* Position of the first hit starting at or after @ts (n_hits when none);
 * start-ordered results only. */
gsize                      kymo_search_result_lower_bound     (KymoSearchResult  *self,
                                                               KymoTime           ts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoSearchResult, kymo_search_result_unref)

/* Times of @hit: an instant has @end == @start. */
void                       kymo_search_hit_get_times          (KymoTrace           *trace,
                                                               const KymoSearchHit *hit,
                                                               KymoTime            *start,
                                                               KymoTime            *end);
guint32                    kymo_search_hit_get_name           (KymoTrace           *trace,
                                                               const KymoSearchHit *hit);
void                       kymo_search_hit_to_ref             (const KymoSearchHit *hit,
                                                               KymoEventRef        *ref);

/* Case-insensitive substring of the name as shown (demangled, U+FFFD for bad
 * bytes) or as the file spells it. An empty needle matches nothing. */
gboolean                   kymo_search_name_matches           (const char          *folded_needle,
                                                               const char          *name);
/* The needle kymo_search_name_matches() takes. */
char                      *kymo_search_fold                   (const char          *query);

#define KYMO_TYPE_SEARCH (kymo_search_get_type ())

G_DECLARE_FINAL_TYPE (KymoSearch, kymo_search, KYMO, SEARCH, GObject)

/* A query over a sealed trace: a case-insensitive substring, every
 * character literal. Spans and instants of every track; not samples. */
KymoSearch       *kymo_search_new          (KymoTrace            *trace,
                                            const char           *query);
/* Also match a substring of any argument value as the details pane shows
 * it (integers in decimal, strings as they are): decodes every event's
 * arguments, so it runs in a thread with progress. */
void              kymo_search_set_args     (KymoSearch           *self,
                                            gboolean              args);
/* Keep events overlapping [@from, @to] (KYMO_TIME_NONE: open end). */
void              kymo_search_set_window   (KymoSearch           *self,
                                            KymoTime              from,
                                            KymoTime              to);
/* Keep only the @n longest spans, longest first (ties: earlier start, then
 * track order, then depth); 0 keeps every match in start order. */
void              kymo_search_set_longest  (KymoSearch           *self,
                                            guint                 n);
/* 0 … 1 while running; the "fraction" property is notified on the thread
 * default main context of kymo_search_run_async()'s caller, coalesced. */
double            kymo_search_get_fraction (KymoSearch           *self);

KymoSearchResult *kymo_search_run          (KymoSearch           *self,
                                            GCancellable         *cancellable,
                                            GError              **error);
void              kymo_search_run_async    (KymoSearch           *self,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
KymoSearchResult *kymo_search_run_finish   (KymoSearch           *self,
                                            GAsyncResult         *result,
                                            GError              **error);

G_END_DECLS
