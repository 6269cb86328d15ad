/* kymo-query.c: one read-only SQLite connection over a sealed trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-query"

#include "config.h"

#include "kymo-query.h"
#include "kymo-query-private.h"

#include <string.h>

/* SQLite calls the progress handler every this many virtual machine steps:
 * often enough that Cancel answers at once, rare enough to cost nothing. */
#define PROGRESS_STEPS 4096

#define DEFAULT_MEMORY_LIMIT ((gint64) 1 << 30)

struct _KymoQuery
{
  KymoQueryCatalog  catalog;
  sqlite3          *db;
  char             *refusal;     /* why the authorizer refused, for the error */
  gboolean          authorizing; /* FALSE while setting up the connection */
  GPtrArray        *columns;     /* char* */
  KymoQueryValue   *values;
  int               id_column;   /* -1 when absent */
  int               track_column;
  int               start_column;
  int               end_column;
  int               ts_column;
};

G_DEFINE_QUARK (kymo-query-error-quark, kymo_query_error)

static gint64 memory_limit = DEFAULT_MEMORY_LIMIT;

void
kymo_query_set_memory_limit (gint64 bytes)
{
  g_return_if_fail (bytes > 0);

  memory_limit = bytes;
  sqlite3_hard_heap_limit64 (bytes);
}

/* Reading pragmas only: the rest change the connection's state. */
static const char * const read_pragmas[] = {
  "table_info", "table_xinfo", "table_list", "function_list", "module_list",
  "pragma_list", "collation_list", "compile_options", "database_list",
};

static int
refuse (KymoQuery  *self,
        const char *what)
{
  if (self->refusal == NULL)
    {
      g_free (self->refusal);
      self->refusal = g_strdup_printf ("read-only: %s is not allowed", what);
    }
  return SQLITE_DENY;
}

/* SQLite asks about the row a CREATE or DROP writes to the schema before
 * it asks about the CREATE or DROP itself: name the statement. */
static int
refuse_write (KymoQuery  *self,
              int         action,
              const char *table)
{
  if (g_strcmp0 (table, "sqlite_master") == 0 || g_strcmp0 (table, "sqlite_temp_master") == 0)
    return refuse (self, action == SQLITE_INSERT ? "CREATE" : action == SQLITE_DELETE ? "DROP" : "ALTER");
  return refuse (self, "writing");
}

static int
authorize (void       *data,
           int         action,
           const char *arg1,
           const char *arg2,
           const char *db_name,
           const char *trigger)
{
  KymoQuery *self = data;

  if (!self->authorizing)
    return SQLITE_OK;

  switch (action)
    {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_FUNCTION:
      if (arg2 != NULL && g_ascii_strcasecmp (arg2, "load_extension") == 0)
        return refuse (self, "load_extension");
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      /* A pragma with a value sets it; a bare one of the list only reads. */
      for (guint i = 0; i < G_N_ELEMENTS (read_pragmas); i++)
        if (arg1 != NULL && g_ascii_strcasecmp (arg1, read_pragmas[i]) == 0)
          return SQLITE_OK;
      return refuse (self, "PRAGMA");
    case SQLITE_ATTACH:
      return refuse (self, "ATTACH");
    case SQLITE_DETACH:
      return refuse (self, "DETACH");
    case SQLITE_UPDATE:
      /* Preparing a statement that reads a virtual table asks this of the
       * schema (SQLite's own check); nothing writes it, and a statement that
       * would write is refused after preparing anyway. */
      if (g_strcmp0 (arg1, "sqlite_master") == 0 && trigger == NULL)
        return SQLITE_OK;
      return refuse_write (self, action, arg1);
    case SQLITE_INSERT:
    case SQLITE_DELETE:
      return refuse_write (self, action, arg1);
    case SQLITE_CREATE_INDEX:
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TEMP_INDEX:
    case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_TEMP_TRIGGER:
    case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_TRIGGER:
    case SQLITE_CREATE_VIEW:
    case SQLITE_CREATE_VTABLE:
      return refuse (self, "CREATE");
    case SQLITE_DROP_INDEX:
    case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_INDEX:
    case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_TEMP_TRIGGER:
    case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_VIEW:
    case SQLITE_DROP_VTABLE:
      return refuse (self, "DROP");
    case SQLITE_ALTER_TABLE:
      return refuse (self, "ALTER TABLE");
    case SQLITE_REINDEX:
      return refuse (self, "REINDEX");
    case SQLITE_ANALYZE:
      return refuse (self, "ANALYZE");
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
      return refuse (self, "a transaction");
    default:
      return refuse (self, "this statement");
    }
}

static int
progress (void *data)
{
  KymoQuery *self = data;

  return g_cancellable_is_cancelled (self->catalog.cancellable) ? 1 : 0;
}

/* Depth first in display order, the way `info` and the track list show them. */
static void
collect_tracks (KymoTrace   *trace,
                const guint *ids,
                guint        n_ids,
                GArray      *out)
{
  for (guint i = 0; i < n_ids; i++)
    {
      const guint *children;
      guint n_children;

      g_array_append_val (out, ids[i]);
      children = kymo_track_get_children (kymo_trace_get_track (trace, ids[i]), &n_children);
      collect_tracks (trace, children, n_children, out);
    }
}

static void
catalog_init (KymoQueryCatalog *cat,
              KymoTrace        *trace)
{
  g_autoptr(GArray) order = g_array_new (FALSE, FALSE, sizeof (guint));
  const guint *roots;
  guint n_roots, n;

  cat->trace = g_object_ref (trace);
  roots = kymo_trace_get_root_tracks (trace, &n_roots);
  collect_tracks (trace, roots, n_roots, order);
  n = kymo_trace_get_n_tracks (trace);
  /* A track no root reaches (none should) still gets an id, after the rest. */
  if (order->len < n)
    {
      g_autofree gboolean *seen = g_new0 (gboolean, n);

      for (guint i = 0; i < order->len; i++)
        seen[g_array_index (order, guint, i)] = TRUE;
      for (guint i = 0; i < n; i++)
        if (!seen[i])
          g_array_append_val (order, i);
    }

  cat->n_tracks = order->len;
  cat->order = (guint *) g_array_free (g_steal_pointer (&order), FALSE);
  cat->position = g_new (guint, n);
  cat->span_base = g_new (guint64, cat->n_tracks + 1);
  cat->instant_base = g_new (guint64, cat->n_tracks + 1);
  cat->sample_base = g_new (guint64, cat->n_tracks + 1);
  cat->span_base[0] = 0;
  cat->sample_base[0] = 0;
  for (guint p = 0; p < cat->n_tracks; p++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, cat->order[p]);
      gsize n_spans, n_samples;

      cat->position[cat->order[p]] = p;
      kymo_track_get_spans (track, &n_spans);
      kymo_track_get_samples (track, &n_samples);
      cat->span_base[p + 1] = cat->span_base[p] + n_spans;
      cat->sample_base[p + 1] = cat->sample_base[p] + n_samples;
    }
  cat->instant_base[0] = cat->span_base[cat->n_tracks];
  for (guint p = 0; p < cat->n_tracks; p++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, cat->order[p]);
      gsize n_instants, n_annotations;

      kymo_track_get_instants (track, &n_instants);
      kymo_track_get_annotations (track, &n_annotations);
      cat->instant_base[p + 1] = cat->instant_base[p] + n_instants + n_annotations;
    }
}

static void
catalog_clear (KymoQueryCatalog *cat)
{
  g_clear_object (&cat->trace);
  g_clear_pointer (&cat->order, g_free);
  g_clear_pointer (&cat->position, g_free);
  g_clear_pointer (&cat->span_base, g_free);
  g_clear_pointer (&cat->instant_base, g_free);
  g_clear_pointer (&cat->sample_base, g_free);
  g_clear_pointer (&cat->name_order, g_free);
}

guint
_kymo_query_find_base (const guint64 *base,
                       guint          n,
                       guint64        id)
{
  guint lo = 0, hi = n;

  if (n == 0 || id < base[0] || id >= base[n])
    return n;
  /* Last position whose base is <= id (empty tracks share a base). */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (base[mid] <= id)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

guint32
_kymo_query_span_parent (const KymoTrack *track,
                         gsize            index,
                         guint            depth,
                         GArray          *scratch)
{
  const KymoSpan *spans, *parents, *child;
  gsize n_spans, n_parents, first, lo = 0, hi;
  guint32 best = G_MAXUINT32;

  if (depth == 0)
    return G_MAXUINT32;
  spans = kymo_track_get_spans (track, &n_spans);
  child = &spans[index];
  parents = kymo_track_get_depth_spans (track, depth - 1, &n_parents, &first);

  /* Well-formed depths do not overlap: the last parent starting at or
   * before the child is the one, unless it ended before the child did. */
  hi = n_parents;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (parents[mid].start <= child->start)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo > 0 && parents[lo - 1].end >= child->end &&
      (lo < 2 || parents[lo - 2].end < child->start))
    return (guint32) (first + lo - 1);

  /* Overlaps (damaged traces, zero-length neighbours): of the parents
   * holding the child's start, the latest that encloses it whole, else the
   * latest. */
  g_array_set_size (scratch, 0);
  kymo_track_query_spans (track, depth - 1, child->start, child->start, scratch);
  for (guint i = 0; i < scratch->len; i++)
    {
      guint32 p = g_array_index (scratch, guint32, i);

      if (spans[p].start > child->start)
        continue;
      if (best == G_MAXUINT32 || spans[p].end >= child->end || spans[best].end < child->end)
        best = p;
    }
  return best;
}

KymoQuery *
kymo_query_new (KymoTrace  *trace,
                GError    **error)
{
  static gsize limit_set = 0;
  KymoQuery *self;
  int rc;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  if (!kymo_trace_is_sealed (trace))
    {
      g_set_error_literal (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_NOT_LOADED,
                           "the trace is still loading");
      return NULL;
    }
  if (g_once_init_enter (&limit_set))
    {
      sqlite3_hard_heap_limit64 (memory_limit);
      g_once_init_leave (&limit_set, 1);
    }

  self = g_new0 (KymoQuery, 1);
  self->columns = g_ptr_array_new_with_free_func (g_free);
  catalog_init (&self->catalog, trace);

  /* In memory, never on disk: no file name, no temp files, no extension. */
  rc = sqlite3_open_v2 (":memory:", &self->db,
                        SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_db_config (self->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
      sqlite3_db_config (self->db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
      sqlite3_db_config (self->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
      sqlite3_limit (self->db, SQLITE_LIMIT_ATTACHED, 0);
      rc = sqlite3_exec (self->db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL);
    }
  if (rc == SQLITE_OK)
    rc = _kymo_query_register_tables (self->db, &self->catalog);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_FAILED,
                   "cannot open the query engine: %s",
                   self->db ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc));
      kymo_query_free (self);
      return NULL;
    }
  sqlite3_set_authorizer (self->db, authorize, self);
  sqlite3_progress_handler (self->db, PROGRESS_STEPS, progress, self);
  self->authorizing = TRUE;
  return self;
}

void
kymo_query_free (KymoQuery *self)
{
  if (self == NULL)
    return;
  if (self->db != NULL)
    sqlite3_close_v2 (self->db);
  catalog_clear (&self->catalog);
  g_ptr_array_unref (self->columns);
  g_free (self->values);
  g_free (self->refusal);
  g_free (self);
}

KymoTrace *
kymo_query_get_trace (KymoQuery *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->catalog.trace;
}

guint
kymo_query_get_n_columns (KymoQuery *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->columns->len;
}

const char *
kymo_query_get_column_name (KymoQuery *self,
                            guint      column)
{
  g_return_val_if_fail (self != NULL && column < self->columns->len, NULL);

  return g_ptr_array_index (self->columns, column);
}

static int
find_column (KymoQuery  *self,
             const char *name)
{
  for (guint i = 0; i < self->columns->len; i++)
    if (g_ascii_strcasecmp (g_ptr_array_index (self->columns, i), name) == 0)
      return (int) i;
  return -1;
}

static void
set_columns (KymoQuery    *self,
             sqlite3_stmt *stmt)
{
  int n = sqlite3_column_count (stmt);

  g_ptr_array_set_size (self->columns, 0);
  for (int i = 0; i < n; i++)
    g_ptr_array_add (self->columns, g_strdup (sqlite3_column_name (stmt, i)));
  g_free (self->values);
  self->values = g_new0 (KymoQueryValue, MAX (n, 1));

  self->id_column = find_column (self, "id");
  if (self->id_column < 0)
    self->id_column = find_column (self, "event");
  self->track_column = find_column (self, "track");
  self->start_column = find_column (self, "start");
  self->end_column = find_column (self, "end");
  self->ts_column = find_column (self, "ts");
}

static void
set_sqlite_error (KymoQuery  *self,
                  int         rc,
                  gboolean    preparing,
                  GError    **error)
{
  int code = preparing ? KYMO_QUERY_ERROR_INVALID : KYMO_QUERY_ERROR_FAILED;

  if (self->refusal != NULL)
    {
      g_set_error_literal (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_REFUSED, self->refusal);
      return;
    }
  switch (rc & 0xff)
    {
    case SQLITE_INTERRUPT:
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the query was cancelled");
      return;
    case SQLITE_NOMEM:
      g_set_error (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_MEMORY,
                   "the query needs more than %" G_GINT64_FORMAT " MiB of memory "
                   "(a join without a condition?)", memory_limit >> 20);
      return;
    case SQLITE_AUTH:
      code = KYMO_QUERY_ERROR_REFUSED;
      break;
    default:
      /* A write to a virtual table fails before the authorizer is asked. */
      if (g_str_has_suffix (sqlite3_errmsg (self->db), "may not be modified"))
        {
          g_set_error (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_REFUSED,
                       "read-only: writing is not allowed (%s)", sqlite3_errmsg (self->db));
          return;
        }
      break;
    }
  g_set_error_literal (error, KYMO_QUERY_ERROR, code, sqlite3_errmsg (self->db));
}

static gboolean
is_blank (const char *sql)
{
  /* What follows the statement may be spaces, `;` and comments only. */
  while (*sql)
    {
      if (g_ascii_isspace (*sql) || *sql == ';')
        sql++;
      else if (sql[0] == '-' && sql[1] == '-')
        sql += strcspn (sql, "\n");
      else if (sql[0] == '/' && sql[1] == '*')
        {
          const char *end = strstr (sql + 2, "*/");
          sql = end ? end + 2 : sql + strlen (sql);
        }
      else
        return FALSE;
    }
  return TRUE;
}

gboolean
kymo_query_run (KymoQuery         *self,
                const char        *sql,
                KymoQueryRowFunc   row_func,
                gpointer           user_data,
                GCancellable      *cancellable,
                int               *error_offset,
                GError           **error)
{
  sqlite3_stmt *stmt = NULL;
  const char *tail = NULL;
  gboolean ok = TRUE;
  int rc;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (sql != NULL, FALSE);

  if (error_offset)
    *error_offset = -1;
  g_clear_pointer (&self->refusal, g_free);
  g_ptr_array_set_size (self->columns, 0);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;
  self->catalog.cancellable = cancellable;

  rc = sqlite3_prepare_v3 (self->db, sql, -1, 0, &stmt, &tail);
  if (rc != SQLITE_OK)
    {
      if (error_offset)
        *error_offset = sqlite3_error_offset (self->db);
      set_sqlite_error (self, rc, TRUE, error);
      ok = FALSE;
      goto out;
    }
  if (stmt == NULL)
    {
      g_set_error_literal (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_INVALID, "the query is empty");
      ok = FALSE;
      goto out;
    }
  if (tail != NULL && !is_blank (tail))
    {
      if (error_offset)
        *error_offset = (int) (tail - sql);
      g_set_error_literal (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_INVALID,
                           "one statement at a time: remove what follows the first “;”");
      ok = FALSE;
      goto out;
    }
  /* The authorizer has seen every step; this catches what it cannot name. */
  if (!sqlite3_stmt_readonly (stmt))
    {
      g_set_error_literal (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_REFUSED,
                           "read-only: this statement would write");
      ok = FALSE;
      goto out;
    }

  set_columns (self, stmt);
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      guint n = self->columns->len;

      for (guint i = 0; i < n; i++)
        {
          KymoQueryValue *v = &self->values[i];

          v->text = NULL;
          switch (sqlite3_column_type (stmt, i))
            {
            case SQLITE_INTEGER:
              v->type = KYMO_QUERY_INTEGER;
              v->integer = sqlite3_column_int64 (stmt, i);
              break;
            case SQLITE_FLOAT:
              v->type = KYMO_QUERY_REAL;
              v->real = sqlite3_column_double (stmt, i);
              break;
            case SQLITE_NULL:
              v->type = KYMO_QUERY_NULL;
              break;
            default:
              /* BLOBs only come from functions such as zeroblob(): text will do */
              v->type = KYMO_QUERY_TEXT;
              v->text = (const char *) sqlite3_column_text (stmt, i);
              if (v->text == NULL)
                v->type = KYMO_QUERY_NULL;
              break;
            }
        }
      if (row_func != NULL && !row_func (self, self->values, user_data))
        break;
    }
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      set_sqlite_error (self, rc, FALSE, error);
      ok = FALSE;
    }

out:
  sqlite3_finalize (stmt);
  self->catalog.cancellable = NULL;
  if (!ok && g_cancellable_is_cancelled (cancellable) && error && *error &&
      !g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (error);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "the query was cancelled");
    }
  return ok;
}

gboolean
kymo_query_lookup_event (KymoQuery    *self,
                         gint64        id,
                         KymoEventRef *ref)
{
  const KymoQueryCatalog *cat;
  guint p;

  g_return_val_if_fail (self != NULL && ref != NULL, FALSE);

  cat = &self->catalog;
  if (id < 0)
    return FALSE;
  p = _kymo_query_find_base (cat->span_base, cat->n_tracks, id);
  if (p < cat->n_tracks)
    {
      ref->track = cat->order[p];
      ref->kind = KYMO_EVENT_KIND_SPAN;
      ref->index = (guint) (id - cat->span_base[p]);
      return TRUE;
    }
  p = _kymo_query_find_base (cat->instant_base, cat->n_tracks, id);
  if (p < cat->n_tracks)
    {
      gsize n_instants;
      guint64 i = id - cat->instant_base[p];

      kymo_track_get_instants (kymo_trace_get_track (cat->trace, cat->order[p]), &n_instants);
      ref->track = cat->order[p];
      ref->kind = i < n_instants ? KYMO_EVENT_KIND_INSTANT : KYMO_EVENT_KIND_ANNOTATION;
      ref->index = (guint) (i < n_instants ? i : i - n_instants);
      return TRUE;
    }
  return FALSE;
}

gint64
kymo_query_event_id (KymoQuery          *self,
                     const KymoEventRef *ref)
{
  const KymoQueryCatalog *cat;
  guint p;
  gsize n_instants;

  g_return_val_if_fail (self != NULL && ref != NULL, -1);

  cat = &self->catalog;
  if (ref->track >= kymo_trace_get_n_tracks (cat->trace))
    return -1;
  p = cat->position[ref->track];
  switch (ref->kind)
    {
    case KYMO_EVENT_KIND_SPAN:
      return ref->index < cat->span_base[p + 1] - cat->span_base[p] ? (gint64) (cat->span_base[p] + ref->index) : -1;
    case KYMO_EVENT_KIND_INSTANT:
    case KYMO_EVENT_KIND_ANNOTATION:
      kymo_track_get_instants (kymo_trace_get_track (cat->trace, ref->track), &n_instants);
      {
        guint64 i = ref->kind == KYMO_EVENT_KIND_INSTANT ? ref->index : n_instants + ref->index;

        if ((ref->kind == KYMO_EVENT_KIND_INSTANT && ref->index >= n_instants) ||
            i >= cat->instant_base[p + 1] - cat->instant_base[p])
          return -1;
        return (gint64) (cat->instant_base[p] + i);
      }
    default:
      return -1;
    }
}

guint
kymo_query_lookup_track (KymoQuery *self,
                         gint64     id)
{
  g_return_val_if_fail (self != NULL, KYMO_NO_TRACK);

  if (id < 0 || id >= self->catalog.n_tracks)
    return KYMO_NO_TRACK;
  return self->catalog.order[id];
}

gint64
kymo_query_track_id (KymoQuery *self,
                     guint      track)
{
  g_return_val_if_fail (self != NULL, -1);

  if (track >= kymo_trace_get_n_tracks (self->catalog.trace))
    return -1;
  return self->catalog.position[track];
}

static gboolean
value_time (const KymoQueryValue *v,
            KymoTime             *out)
{
  if (v->type == KYMO_QUERY_INTEGER)
    *out = v->integer;
  else if (v->type == KYMO_QUERY_REAL && v->real >= -9.2e18 && v->real <= 9.2e18)
    *out = (KymoTime) v->real;
  else
    return FALSE;
  return TRUE;
}

/* The span of @track starting at @start (and ending at @end when given),
 * outermost first. */
static gboolean
find_span (KymoTrack    *track,
           KymoTime      start,
           gboolean      has_end,
           KymoTime      end,
           KymoEventRef *ref)
{
  const KymoSpan *spans;
  gsize n;

  for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
    {
      gsize first, lo = 0, hi;

      spans = kymo_track_get_depth_spans (track, d, &n, &first);
      hi = n;
      while (lo < hi)
        {
          gsize mid = lo + (hi - lo) / 2;
          if (spans[mid].start < start)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (; lo < n && spans[lo].start == start; lo++)
        if (!has_end || spans[lo].end == end)
          {
            ref->kind = KYMO_EVENT_KIND_SPAN;
            ref->index = (guint) (first + lo);
            return TRUE;
          }
    }
  return FALSE;
}

gboolean
kymo_query_row_event (KymoQuery            *self,
                      const KymoQueryValue *values,
                      KymoEventRef         *ref)
{
  KymoTime ts, end = 0;
  KymoTrack *track;
  guint t;
  gboolean has_end;

  g_return_val_if_fail (self != NULL && values != NULL && ref != NULL, FALSE);

  if (self->id_column >= 0 && values[self->id_column].type == KYMO_QUERY_INTEGER)
    return kymo_query_lookup_event (self, values[self->id_column].integer, ref);
  if (self->track_column < 0 || values[self->track_column].type != KYMO_QUERY_INTEGER)
    return FALSE;
  t = kymo_query_lookup_track (self, values[self->track_column].integer);
  if (t == KYMO_NO_TRACK)
    return FALSE;
  track = kymo_trace_get_track (self->catalog.trace, t);
  ref->track = t;

  if (self->start_column >= 0 && value_time (&values[self->start_column], &ts))
    {
      has_end = self->end_column >= 0 && value_time (&values[self->end_column], &end);
      return find_span (track, ts, has_end, end, ref);
    }
  if (self->ts_column >= 0 && value_time (&values[self->ts_column], &ts))
    {
      const KymoInstant *instants;
      const KymoAnnotation *annotations;
      gsize n, i;

      instants = kymo_track_get_instants (track, &n);
      i = kymo_track_lower_bound_instant (track, ts);
      if (i < n && instants[i].ts == ts)
        {
          ref->kind = KYMO_EVENT_KIND_INSTANT;
          ref->index = (guint) i;
          return TRUE;
        }
      annotations = kymo_track_get_annotations (track, &n);
      i = kymo_track_lower_bound_annotation (track, ts);
      if (i < n && annotations[i].start == ts)
        {
          ref->kind = KYMO_EVENT_KIND_ANNOTATION;
          ref->index = (guint) i;
          return TRUE;
        }
      /* A counter sample, or a span's start picked as `ts`. */
      return find_span (track, ts, FALSE, 0, ref);
    }
  return FALSE;
}
