/* kymo-query.h: read-only SQL over a loaded trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "kymo-event-set.h"
#include "kymo-trace.h"

G_BEGIN_DECLS

/* The tables of ../shared/specs/CLI.md (`query`), as SQLite virtual tables
 * that read the sealed model in place:
 *   tracks(id, name, kind)
 *   spans(id, track, name, start, end, dur, depth, parent)
 *   instants(id, track, name, ts)      instants, then annotations, per track
 *   counters(track, ts, value)
 *   args(event, key, value)
 * Track ids are positions in display order (depth first, as `info` lists
 * them); span ids run over the tracks in that order, each track's spans in
 * kymo_track_get_spans() order; instant ids follow the last span id. */

#define KYMO_QUERY_ERROR (kymo_query_error_quark ())

typedef enum {
  KYMO_QUERY_ERROR_INVALID,    /* syntax error, unknown table or column: SQLite's message */
  KYMO_QUERY_ERROR_REFUSED,    /* would write, attach, load an extension or change a setting */
  KYMO_QUERY_ERROR_MEMORY,     /* needed more than the memory a query may use */
  KYMO_QUERY_ERROR_NOT_LOADED, /* the trace is not sealed yet */
  KYMO_QUERY_ERROR_FAILED,     /* any other runtime error */
} KymoQueryError;

typedef enum {
  KYMO_QUERY_NULL,
  KYMO_QUERY_INTEGER,
  KYMO_QUERY_REAL,
  KYMO_QUERY_TEXT,
} KymoQueryType;

/* One cell; @text is valid during the row callback only. */
typedef struct {
  KymoQueryType type;
  gint64        integer;
  double        real;
  const char   *text;
} KymoQueryValue;

/* One connection over one trace. Used by one thread at a time; open one per
 * thread to query in parallel. */
typedef struct _KymoQuery KymoQuery;

typedef gboolean (*KymoQueryRowFunc) (KymoQuery            *query,
                                      const KymoQueryValue *values,
                                      gpointer              user_data);

GQuark      kymo_query_error_quark       (void);

/* Every query of the process shares this bound on SQLite's heap (SQLite's
 * limit is process-wide); 1 GiB unless set. */
void        kymo_query_set_memory_limit  (gint64            bytes);

/* NULL with KYMO_QUERY_ERROR_NOT_LOADED when @trace is not sealed. */
KymoQuery  *kymo_query_new               (KymoTrace        *trace,
                                          GError          **error);
void        kymo_query_free              (KymoQuery        *self);
KymoTrace  *kymo_query_get_trace         (KymoQuery        *self);

/* Runs one statement, calling @row_func for every row until it returns
 * FALSE. @error_offset (may be NULL) receives the byte offset in @sql that
 * an invalid statement's error points at, or -1. Cancelling @cancellable
 * from any thread interrupts the statement (G_IO_ERROR_CANCELLED). */
gboolean    kymo_query_run               (KymoQuery        *self,
                                          const char       *sql,
                                          KymoQueryRowFunc  row_func,
                                          gpointer          user_data,
                                          GCancellable     *cancellable,
                                          int              *error_offset,
                                          GError          **error);
/* The columns of the statement being run or last run. */
guint       kymo_query_get_n_columns     (KymoQuery        *self);
const char *kymo_query_get_column_name   (KymoQuery        *self,
                                          guint             column);

/* The event a span or instant id names. */
gboolean    kymo_query_lookup_event      (KymoQuery        *self,
                                          gint64            id,
                                          KymoEventRef     *ref);
/* The id of a span or instant, or -1. */
gint64      kymo_query_event_id          (KymoQuery        *self,
                                          const KymoEventRef *ref);
/* The model track of a `tracks.id` and back (KYMO_NO_TRACK / -1 when none). */
guint       kymo_query_lookup_track      (KymoQuery        *self,
                                          gint64            id);
gint64      kymo_query_track_id          (KymoQuery        *self,
                                          guint             track);
/* The event a result row names: its `id` (or `event`) column, else its
 * `track` with `start` (and `end`) or `ts`. */
gboolean    kymo_query_row_event         (KymoQuery            *self,
                                          const KymoQueryValue *values,
                                          KymoEventRef         *ref);

G_END_DECLS
