/* kymo-query-private.h: what the query engine and its tables share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "kymo-query.h"

G_BEGIN_DECLS

/* How the ids of the spec map onto the model: O(tracks) to build, so one
 * per connection. */
typedef struct {
  KymoTrace    *trace;
  guint         n_tracks;
  guint        *order;         /* position → model track */
  guint        *position;      /* model track → position */
  guint64      *span_base;     /* [n_tracks + 1]: first span id of each position */
  guint64      *instant_base;  /* [n_tracks + 1]: first instant id (after every span) */
  guint64      *sample_base;   /* [n_tracks + 1]: rowids of counters */
  GCancellable *cancellable;   /* of the statement running */

  /* Span ids sorted by name (strcmp order), built on the first ORDER BY or
   * GROUP BY name: 4 bytes a span. */
  guint32      *name_order;
  gsize         n_name_order;
} KymoQueryCatalog;

/* Registers the eponymous virtual tables on @db. */
int      _kymo_query_register_tables (sqlite3            *db,
                                      KymoQueryCatalog   *catalog);

/* The position holding global @id in @base ([n + 1] prefix sums), or n. */
guint    _kymo_query_find_base       (const guint64      *base,
                                      guint               n,
                                      guint64             id);
/* The span of @track at depth - 1 that encloses span @index, or G_MAXUINT32. */
guint32  _kymo_query_span_parent     (const KymoTrack    *track,
                                      gsize               index,
                                      guint               depth,
                                      GArray             *scratch);

G_END_DECLS
