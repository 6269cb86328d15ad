/* kymo-query-tables-private.h: what the files of the query's virtual tables share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-query-private.h"

G_BEGIN_DECLS

#define CHECK_EVERY 65536

typedef enum {
  TABLE_TRACKS,
  TABLE_SPANS,
  TABLE_INSTANTS,
  TABLE_COUNTERS,
  TABLE_ARGS,
} KymoQueryTableKind;

/* Columns, in the order the schemas (kymo-query-tables.c) declare them. */
enum { TRACKS_ID, TRACKS_NAME, TRACKS_KIND };
enum { SPANS_ID, SPANS_TRACK, SPANS_NAME, SPANS_START, SPANS_END, SPANS_DUR, SPANS_DEPTH, SPANS_PARENT };
enum { INSTANTS_ID, INSTANTS_TRACK, INSTANTS_NAME, INSTANTS_TS };
enum { COUNTERS_TRACK, COUNTERS_TS, COUNTERS_VALUE };
enum { ARGS_EVENT, ARGS_KEY, ARGS_VALUE };

/* What a plan narrows, one bit per argv slot; xFilter reads argv in this
 * order. A key (id, time) has a low and a high bound; `=` fills both. */
enum {
  SLOT_ID_LO,
  SLOT_ID_HI,
  SLOT_TRACK,
  SLOT_NAME,
  SLOT_TIME_LO,   /* start or ts */
  SLOT_TIME_HI,
  SLOT_END_LO,
  SLOT_END_HI,
  SLOT_PARENT,
  N_SLOTS,
};

/* Not a slot: rows come out ordered by name. */
#define PLAN_BY_NAME (1 << 16)

typedef struct {
  sqlite3_vtab        base;
  KymoQueryCatalog   *cat;
  KymoQueryTableKind  kind;
} KymoQueryTable;

typedef struct {
  guint64 lo;
  guint64 hi;  /* exclusive */
} KymoQuerySegment;

typedef struct {
  sqlite3_vtab_cursor  base;
  KymoQueryTable      *table;
  KymoQueryCatalog    *cat;

  /* Bounds of the plan (inclusive). */
  guint64              id_lo, id_hi;
  KymoTime             t_lo, t_hi;
  KymoTime             end_lo, end_hi;
  gboolean             has_end_lo;
  guint32             *names;        /* name ids to keep, sorted; NULL: all */
  guint                n_names;
  gboolean             by_name;

  /* Where the cursor is. */
  guint                p, p_end;     /* track positions [p, p_end) */
  GArray              *segments;     /* KymoQuerySegment, of the current track */
  guint                seg;
  guint64              index;        /* within the track's array */
  gsize                order_pos;    /* by_name */
  guint                depth;        /* of the current span */
  gsize                depth_first;  /* its depth run: [depth_first, depth_end) */
  gsize                depth_end;    /* 0: not known */
  gboolean             eof;
  guint64              steps;

  /* args */
  gint64               event;
  JsonObject          *object;
  GList               *keys, *key;

  GArray              *scratch;      /* guint32 */
  KymoTrack           *track;        /* at position track_p */
  guint                track_p;
  const KymoSpan      *spans;        /* of track */
} KymoQueryCursor;

/* The track at the cursor's position, looked up once per track: xColumn
 * asks for it several times a row. */
static inline KymoTrack *
cursor_track (KymoQueryCursor *cursor)
{
  if (cursor->track == NULL || cursor->track_p != cursor->p)
    {
      gsize n;

      cursor->track = kymo_trace_get_track (cursor->cat->trace, cursor->cat->order[cursor->p]);
      cursor->track_p = cursor->p;
      cursor->spans = kymo_track_get_spans (cursor->track, &n);
    }
  return cursor->track;
}

static inline const KymoSpan *
cursor_span (KymoQueryCursor *cursor)
{
  cursor_track (cursor);
  return &cursor->spans[cursor->index];
}

/* The parts of the one sqlite3_module that serves every table, by the files
 * that hold them. */

gboolean _kymo_query_build_name_order      (KymoQueryCatalog *cat);
int      _kymo_query_cursor_column         (sqlite3_vtab_cursor *base,
                                            sqlite3_context     *ctx,
                                            int                  column);
int      _kymo_query_cursor_filter         (sqlite3_vtab_cursor  *base,
                                            int                   plan,
                                            const char           *plan_str,
                                            int                   argc,
                                            sqlite3_value       **argv);
void     _kymo_query_cursor_reset_args     (KymoQueryCursor *cursor);
int      _kymo_query_cursor_rowid          (sqlite3_vtab_cursor *base,
                                            sqlite3_int64       *rowid);
void     _kymo_query_cursor_enter_track    (KymoQueryCursor *cursor);
void     _kymo_query_cursor_lookup_names   (KymoQueryCursor *cursor,
                                            const char      *text);
int      _kymo_query_cursor_settle         (KymoQueryCursor *cursor);
int      _kymo_query_cursor_settle_args    (KymoQueryCursor *cursor);
int      _kymo_query_cursor_settle_by_name (KymoQueryCursor *cursor);
int      _kymo_query_table_best_index      (sqlite3_vtab       *vtab,
                                            sqlite3_index_info *info);

G_END_DECLS
