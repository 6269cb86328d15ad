/* kymo-search-private.h: what the search's scan, its ordering of hits, its
 * name and argument matching and its result share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-search.h"

G_BEGIN_DECLS

struct _KymoSearchResult
{
  gatomicrefcount      ref_count;
  KymoTrace           *trace;
  char                *query;
  GArray              *hits;         /* KymoSearchHit */
  GArray              *name_counts;  /* KymoSearchNameCount */
  KymoEventSet        *event_set;
  gboolean             longest;
};

struct _KymoSearch
{
  GObject        parent_instance;

  KymoTrace     *trace;
  char          *query;
  char          *needle;        /* casefolded query */
  KymoTime       from;
  KymoTime       to;
  guint          longest;
  gboolean       args;

  /* progress, written by the worker, read on the caller's context */
  gint           permille;      /* atomic */
  gint           notify_queued; /* atomic */
  GMainContext  *context;
};

/* The matches of one depth of one track (or of its instants), in start
 * order; runs are kept in tie order, so merging them by start alone gives
 * "start, then track order, then depth". */
typedef struct {
  guint32  track;
  guint32  depth;      /* KYMO_SEARCH_INSTANT for the instants */
  GArray  *indexes;    /* guint32 */
  const KymoSpan    *spans;
  const KymoInstant *instants;
  guint    pos;        /* merge cursor */
} Run;

typedef struct {
  KymoTime dur;
  KymoTime start;
  guint    run;
  guint32  index;
} Candidate;

typedef struct {
  KymoSearch   *search;
  GCancellable *cancellable;
  guint8       *name_matches;
  guint64      *counts;     /* per name id */
  GArray       *runs;       /* Run */
  GArray       *heap;       /* Candidate, the worst on top */
  guint64       done;
  guint64       total;
} Scan;

/* Whether @a should come before @b in "longest first". */
static inline gboolean
candidate_better (const Candidate *a,
                  const Candidate *b)
{
  if (a->dur != b->dur)
    return a->dur > b->dur;
  if (a->start != b->start)
    return a->start < b->start;
  if (a->run != b->run)
    return a->run < b->run;
  return a->index < b->index;
}

/* kymo-search.c: the search's fraction, published on its context */
void              _kymo_search_report_progress (KymoSearch       *self,
                                                guint64           done,
                                                guint64           total);

/* kymo-search-match.c */
guint8           *_kymo_search_match_names   (KymoTrace          *trace,
                                              const char         *needle);
gboolean          _kymo_search_args_match    (KymoTrace          *trace,
                                              const KymoEventRef *ref,
                                              const char         *needle);

/* kymo-search-result.c */
KymoEventSet     *_kymo_search_build_event_set (KymoTrace        *trace,
                                                GArray           *hits);

/* kymo-search-hits.c */
void              _kymo_search_offer_longest (Scan               *scan,
                                              const Candidate    *c);
GArray           *_kymo_search_tracks_in_display_order (KymoTrace *trace);
GArray           *_kymo_search_merge_runs    (GArray             *runs);
GArray           *_kymo_search_longest_hits  (Scan               *scan);
int               _kymo_search_compare_counts (gconstpointer      a,
                                               gconstpointer      b);

/* kymo-search-scan.c */
KymoSearchResult *_kymo_search_scan          (KymoSearch         *self,
                                              GCancellable       *cancellable,
                                              gboolean            with_event_set,
                                              GError            **error);

G_END_DECLS
