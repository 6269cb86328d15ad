/* kymo-query-tables.c: the virtual tables of `query`, reading the model in place
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-query"

#include "config.h"

#include "kymo-query-private.h"
#include "kymo-query-tables-private.h"

static const char * const schemas[] = {
  [TABLE_TRACKS] = "CREATE TABLE x(id INTEGER, name TEXT, kind TEXT)",
  [TABLE_SPANS] = "CREATE TABLE x(id INTEGER, track INTEGER, name TEXT, start INTEGER, \"end\" INTEGER, "
                  "dur INTEGER, depth INTEGER, parent INTEGER)",
  [TABLE_INSTANTS] = "CREATE TABLE x(id INTEGER, track INTEGER, name TEXT, ts INTEGER)",
  [TABLE_COUNTERS] = "CREATE TABLE x(track INTEGER, ts INTEGER, value REAL)",
  [TABLE_ARGS] = "CREATE TABLE x(event INTEGER, key TEXT, value)",
};

static int
table_connect (sqlite3            *db,
               void               *aux,
               int                 argc,
               const char * const *argv,
               sqlite3_vtab      **out,
               char              **err)
{
  KymoQueryCatalog *cat = aux;
  KymoQueryTable *table;
  KymoQueryTableKind kind;
  int rc;

  if (g_str_equal (argv[0], "tracks"))
    kind = TABLE_TRACKS;
  else if (g_str_equal (argv[0], "spans"))
    kind = TABLE_SPANS;
  else if (g_str_equal (argv[0], "instants"))
    kind = TABLE_INSTANTS;
  else if (g_str_equal (argv[0], "counters"))
    kind = TABLE_COUNTERS;
  else
    kind = TABLE_ARGS;

  rc = sqlite3_declare_vtab (db, schemas[kind]);
  if (rc != SQLITE_OK)
    return rc;
  sqlite3_vtab_config (db, SQLITE_VTAB_INNOCUOUS);
  table = sqlite3_malloc (sizeof (KymoQueryTable));
  if (table == NULL)
    return SQLITE_NOMEM;
  memset (table, 0, sizeof (KymoQueryTable));
  table->cat = cat;
  table->kind = kind;
  *out = &table->base;
  return SQLITE_OK;
}

static int
table_disconnect (sqlite3_vtab *vtab)
{
  sqlite3_free (vtab);
  return SQLITE_OK;
}
static int
cursor_open (sqlite3_vtab         *vtab,
             sqlite3_vtab_cursor **out)
{
  KymoQueryCursor *cursor = sqlite3_malloc (sizeof (KymoQueryCursor));

  if (cursor == NULL)
    return SQLITE_NOMEM;
  memset (cursor, 0, sizeof (KymoQueryCursor));
  cursor->table = (KymoQueryTable *) vtab;
  cursor->cat = cursor->table->cat;
  cursor->segments = g_array_new (FALSE, FALSE, sizeof (KymoQuerySegment));
  cursor->scratch = g_array_new (FALSE, FALSE, sizeof (guint32));
  *out = &cursor->base;
  return SQLITE_OK;
}

void
_kymo_query_cursor_reset_args (KymoQueryCursor *cursor)
{
  g_clear_pointer (&cursor->keys, g_list_free);
  cursor->key = NULL;
  g_clear_pointer (&cursor->object, json_object_unref);
}

static int
cursor_close (sqlite3_vtab_cursor *base)
{
  KymoQueryCursor *cursor = (KymoQueryCursor *) base;

  _kymo_query_cursor_reset_args (cursor);
  g_array_unref (cursor->segments);
  g_array_unref (cursor->scratch);
  g_free (cursor->names);
  sqlite3_free (cursor);
  return SQLITE_OK;
}

static int
cursor_next (sqlite3_vtab_cursor *base)
{
  KymoQueryCursor *cursor = (KymoQueryCursor *) base;

  switch (cursor->table->kind)
    {
    case TABLE_TRACKS:
      cursor->index++;
      return SQLITE_OK;
    case TABLE_ARGS:
      return _kymo_query_cursor_settle_args (cursor);
    default:
      if (cursor->by_name)
        {
          cursor->order_pos++;
          return _kymo_query_cursor_settle_by_name (cursor);
        }
      cursor->index++;
      return _kymo_query_cursor_settle (cursor);
    }
}

static int
cursor_eof (sqlite3_vtab_cursor *base)
{
  KymoQueryCursor *cursor = (KymoQueryCursor *) base;

  if (cursor->table->kind == TABLE_TRACKS)
    return cursor->eof || cursor->index > cursor->id_hi || cursor->index >= cursor->cat->n_tracks;
  return cursor->eof;
}
static const sqlite3_module module = {
  .iVersion = 0,
  .xCreate = NULL,  /* eponymous only: the tables exist without CREATE */
  .xConnect = table_connect,
  .xBestIndex = _kymo_query_table_best_index,
  .xDisconnect = table_disconnect,
  .xDestroy = table_disconnect,
  .xOpen = cursor_open,
  .xClose = cursor_close,
  .xFilter = _kymo_query_cursor_filter,
  .xNext = cursor_next,
  .xEof = cursor_eof,
  .xColumn = _kymo_query_cursor_column,
  .xRowid = _kymo_query_cursor_rowid,
};

int
_kymo_query_register_tables (sqlite3          *db,
                             KymoQueryCatalog *catalog)
{
  static const char * const names[] = { "tracks", "spans", "instants", "counters", "args" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      int rc = sqlite3_create_module (db, names[i], &module, catalog);

      if (rc != SQLITE_OK)
        return rc;
    }
  return SQLITE_OK;
}
