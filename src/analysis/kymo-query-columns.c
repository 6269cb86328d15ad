/* kymo-query-columns.c: the values of the row under a cursor (xColumn, xRowid)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-query"

#include "config.h"

#include "kymo-query-tables-private.h"

static guint
span_depth (KymoQueryCursor *cursor)
{
  /* Rows mostly come in index order: the depth only changes when the index
   * leaves the current depth run. */
  if (cursor->depth_end == 0 || cursor->index < cursor->depth_first || cursor->index >= cursor->depth_end)
    {
      KymoTrack *track = cursor_track (cursor);
      gsize n, first;

      cursor->depth = kymo_track_get_span_depth (track, cursor->index);
      kymo_track_get_depth_spans (track, cursor->depth, &n, &first);
      cursor->depth_first = first;
      cursor->depth_end = first + n;
    }
  return cursor->depth;
}

static void
result_name (sqlite3_context *ctx,
             KymoTrace       *trace,
             guint32          name)
{
  sqlite3_result_text (ctx, kymo_trace_get_name (trace, name), -1, SQLITE_STATIC);
}

static void
result_json (sqlite3_context *ctx,
             JsonNode        *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      sqlite3_result_null (ctx);
      return;
    }
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType type = json_node_get_value_type (node);

      if (type == G_TYPE_INT64)
        sqlite3_result_int64 (ctx, json_node_get_int (node));
      else if (type == G_TYPE_DOUBLE)
        sqlite3_result_double (ctx, json_node_get_double (node));
      else if (type == G_TYPE_BOOLEAN)
        sqlite3_result_text (ctx, json_node_get_boolean (node) ? "true" : "false", -1, SQLITE_STATIC);
      else
        sqlite3_result_text (ctx, json_node_get_string (node), -1, SQLITE_TRANSIENT);
      return;
    }
  {
    g_autofree char *text = json_to_string (node, FALSE);

    sqlite3_result_text (ctx, text, -1, SQLITE_TRANSIENT);
  }
}

int
_kymo_query_cursor_column (sqlite3_vtab_cursor *base,
                           sqlite3_context     *ctx,
                           int                  column)
{
  KymoQueryCursor *cursor = (KymoQueryCursor *) base;
  KymoQueryCatalog *cat = cursor->cat;
  KymoTrace *trace = cat->trace;

  switch (cursor->table->kind)
    {
    case TABLE_TRACKS:
      {
        KymoTrack *track = kymo_trace_get_track (trace, cat->order[cursor->index]);

        if (column == TRACKS_ID)
          sqlite3_result_int64 (ctx, (gint64) cursor->index);
        else if (column == TRACKS_NAME)
          sqlite3_result_text (ctx, kymo_track_get_name (track), -1, SQLITE_STATIC);
        else
          sqlite3_result_text (ctx, kymo_track_kind_to_string (kymo_track_get_kind (track)), -1, SQLITE_STATIC);
        return SQLITE_OK;
      }
    case TABLE_SPANS:
      {
        KymoTrack *track = cursor_track (cursor);
        const KymoSpan *span = cursor_span (cursor);
        guint32 parent;

        switch (column)
          {
          case SPANS_ID:
            sqlite3_result_int64 (ctx, (gint64) (cat->span_base[cursor->p] + cursor->index));
            break;
          case SPANS_TRACK:
            sqlite3_result_int64 (ctx, cursor->p);
            break;
          case SPANS_NAME:
            result_name (ctx, trace, kymo_span_name (span));
            break;
          case SPANS_START:
            sqlite3_result_int64 (ctx, span->start);
            break;
          case SPANS_END:
            sqlite3_result_int64 (ctx, span->end);
            break;
          case SPANS_DUR:
            {
              KymoTime dur;

              if (__builtin_sub_overflow (span->end, span->start, &dur))
                dur = G_MAXINT64;
              sqlite3_result_int64 (ctx, dur);
            }
            break;
          case SPANS_DEPTH:
            sqlite3_result_int64 (ctx, span_depth (cursor));
            break;
          case SPANS_PARENT:
            parent = _kymo_query_span_parent (track, cursor->index, span_depth (cursor), cursor->scratch);
            if (parent == G_MAXUINT32)
              sqlite3_result_null (ctx);
            else
              sqlite3_result_int64 (ctx, (gint64) (cat->span_base[cursor->p] + parent));
            break;
          default:
            break;
          }
        return SQLITE_OK;
      }
    case TABLE_INSTANTS:
      {
        KymoTrack *track = cursor_track (cursor);
        const KymoInstant *instants;
        gsize n_instants;
        guint32 name;
        KymoTime ts;

        instants = kymo_track_get_instants (track, &n_instants);
        if (cursor->index < n_instants)
          {
            name = instants[cursor->index].name_flags & KYMO_NAME_MAX;
            ts = instants[cursor->index].ts;
          }
        else
          {
            gsize n;
            const KymoAnnotation *a = &kymo_track_get_annotations (track, &n)[cursor->index - n_instants];

            name = a->name;
            ts = a->start;
          }
        if (column == INSTANTS_ID)
          sqlite3_result_int64 (ctx, (gint64) (cat->instant_base[cursor->p] + cursor->index));
        else if (column == INSTANTS_TRACK)
          sqlite3_result_int64 (ctx, cursor->p);
        else if (column == INSTANTS_NAME)
          result_name (ctx, trace, name);
        else
          sqlite3_result_int64 (ctx, ts);
        return SQLITE_OK;
      }
    case TABLE_COUNTERS:
      {
        gsize n;
        const KymoSample *sample = &kymo_track_get_samples (cursor_track (cursor), &n)[cursor->index];

        if (column == COUNTERS_TRACK)
          sqlite3_result_int64 (ctx, cursor->p);
        else if (column == COUNTERS_TS)
          sqlite3_result_int64 (ctx, sample->ts);
        else
          sqlite3_result_double (ctx, sample->value);
        return SQLITE_OK;
      }
    case TABLE_ARGS:
      if (column == ARGS_EVENT)
        sqlite3_result_int64 (ctx, cursor->event);
      else if (column == ARGS_KEY)
        sqlite3_result_text (ctx, cursor->key->data, -1, SQLITE_TRANSIENT);
      else
        result_json (ctx, json_object_get_member (cursor->object, cursor->key->data));
      return SQLITE_OK;
    }
  return SQLITE_OK;
}

int
_kymo_query_cursor_rowid (sqlite3_vtab_cursor *base,
                          sqlite3_int64       *rowid)
{
  KymoQueryCursor *cursor = (KymoQueryCursor *) base;
  KymoQueryCatalog *cat = cursor->cat;

  switch (cursor->table->kind)
    {
    case TABLE_TRACKS:
      *rowid = (sqlite3_int64) cursor->index;
      break;
    case TABLE_SPANS:
      *rowid = (sqlite3_int64) (cat->span_base[cursor->p] + cursor->index);
      break;
    case TABLE_INSTANTS:
      *rowid = (sqlite3_int64) (cat->instant_base[cursor->p] + cursor->index);
      break;
    case TABLE_COUNTERS:
      *rowid = (sqlite3_int64) (cat->sample_base[cursor->p] + cursor->index);
      break;
    case TABLE_ARGS:
      *rowid = (sqlite3_int64) cursor->steps;
      break;
    }
  return SQLITE_OK;
}
