/* kymo-query-tables.c: the virtual tables of `query`, reading the model in place
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-query"

#include "config.h"

#include "kymo-query-private.h"

#include <math.h>
#include <string.h>

#define CHECK_EVERY 65536

typedef enum {
  TABLE_TRACKS,
  TABLE_SPANS,
  TABLE_INSTANTS,
  TABLE_COUNTERS,
  TABLE_ARGS,
} TableKind;

/* Columns, in the order the schemas below declare them. */
enum { TRACKS_ID, TRACKS_NAME, TRACKS_KIND };
enum { SPANS_ID, SPANS_TRACK, SPANS_NAME, SPANS_START, SPANS_END, SPANS_DUR, SPANS_DEPTH, SPANS_PARENT };
enum { INSTANTS_ID, INSTANTS_TRACK, INSTANTS_NAME, INSTANTS_TS };
enum { COUNTERS_TRACK, COUNTERS_TS, COUNTERS_VALUE };
enum { ARGS_EVENT, ARGS_KEY, ARGS_VALUE };

static const char * const schemas[] = {
  [TABLE_TRACKS] = "CREATE TABLE x(id INTEGER, name TEXT, kind TEXT)",
  [TABLE_SPANS] = "CREATE TABLE x(id INTEGER, track INTEGER, name TEXT, start INTEGER, \"end\" INTEGER, "
                  "dur INTEGER, depth INTEGER, parent INTEGER)",
  [TABLE_INSTANTS] = "CREATE TABLE x(id INTEGER, track INTEGER, name TEXT, ts INTEGER)",
  [TABLE_COUNTERS] = "CREATE TABLE x(track INTEGER, ts INTEGER, value REAL)",
  [TABLE_ARGS] = "CREATE TABLE x(event INTEGER, key TEXT, value)",
};

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
  sqlite3_vtab      base;
  KymoQueryCatalog *cat;
  TableKind         kind;
} Table;

typedef struct {
  guint64 lo;
  guint64 hi;  /* exclusive */
} Segment;

typedef struct {
  sqlite3_vtab_cursor  base;
  Table               *table;
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
  GArray              *segments;     /* Segment, of the current track */
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
} Cursor;

static int
table_connect (sqlite3            *db,
               void               *aux,
               int                 argc,
               const char * const *argv,
               sqlite3_vtab      **out,
               char              **err)
{
  KymoQueryCatalog *cat = aux;
  Table *table;
  TableKind kind;
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
  table = sqlite3_malloc (sizeof (Table));
  if (table == NULL)
    return SQLITE_NOMEM;
  memset (table, 0, sizeof (Table));
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

/* Which slot a constraint fills, or -1. */
static int
constraint_slot (TableKind kind,
                 int       column,
                 int       op,
                 gboolean  low)
{
  gboolean eq = op == SQLITE_INDEX_CONSTRAINT_EQ || op == SQLITE_INDEX_CONSTRAINT_IS;
  gboolean lower = op == SQLITE_INDEX_CONSTRAINT_GT || op == SQLITE_INDEX_CONSTRAINT_GE;
  gboolean upper = op == SQLITE_INDEX_CONSTRAINT_LT || op == SQLITE_INDEX_CONSTRAINT_LE;
  int key_lo = -1;

  if (!eq && !lower && !upper)
    return -1;

  switch (kind)
    {
    case TABLE_TRACKS:
      if (column == TRACKS_ID) key_lo = SLOT_ID_LO;
      break;
    case TABLE_SPANS:
      if (column == SPANS_ID) key_lo = SLOT_ID_LO;
      else if (column == SPANS_START) key_lo = SLOT_TIME_LO;
      else if (column == SPANS_END) key_lo = SLOT_END_LO;
      else if (eq && column == SPANS_TRACK) return SLOT_TRACK;
      else if (eq && column == SPANS_NAME) return SLOT_NAME;
      else if (op == SQLITE_INDEX_CONSTRAINT_EQ && column == SPANS_PARENT) return SLOT_PARENT;
      break;
    case TABLE_INSTANTS:
      if (column == INSTANTS_ID) key_lo = SLOT_ID_LO;
      else if (column == INSTANTS_TS) key_lo = SLOT_TIME_LO;
      else if (eq && column == INSTANTS_TRACK) return SLOT_TRACK;
      else if (eq && column == INSTANTS_NAME) return SLOT_NAME;
      break;
    case TABLE_COUNTERS:
      if (column == COUNTERS_TS) key_lo = SLOT_TIME_LO;
      else if (eq && column == COUNTERS_TRACK) return SLOT_TRACK;
      break;
    case TABLE_ARGS:
      if (eq && column == ARGS_EVENT) return SLOT_ID_LO;
      break;
    }
  if (key_lo < 0)
    return -1;
  if (eq)
    return low ? key_lo : key_lo + 1;
  return lower ? key_lo : key_lo + 1;
}

static double
table_rows (Table *table)
{
  KymoQueryCatalog *cat = table->cat;

  switch (table->kind)
    {
    case TABLE_TRACKS: return cat->n_tracks;
    case TABLE_SPANS: return cat->span_base[cat->n_tracks];
    case TABLE_INSTANTS: return cat->instant_base[cat->n_tracks] - cat->instant_base[0];
    case TABLE_COUNTERS: return cat->sample_base[cat->n_tracks];
    case TABLE_ARGS: return 8.0 * (cat->instant_base[cat->n_tracks]);
    }
  return 0;
}

static int
table_best_index (sqlite3_vtab       *vtab,
                  sqlite3_index_info *info)
{
  Table *table = (Table *) vtab;
  int slot_of[N_SLOTS];
  int plan = 0, argv_index = 0;
  double rows = MAX (table_rows (table), 1.0);

  for (int s = 0; s < N_SLOTS; s++)
    slot_of[s] = -1;

  for (int i = 0; i < info->nConstraint; i++)
    {
      const struct sqlite3_index_constraint *c = &info->aConstraint[i];
      int lo, hi;

      if (!c->usable)
        continue;
      lo = constraint_slot (table->kind, c->iColumn, c->op, TRUE);
      hi = constraint_slot (table->kind, c->iColumn, c->op, FALSE);
      if (lo < 0)
        continue;
      /* `=` on a key is both bounds: it takes the low slot and marks the
       * high one taken, xFilter copies it over. */
      if (lo != hi && slot_of[lo] < 0 && slot_of[hi] < 0)
        {
          slot_of[lo] = i;
          slot_of[hi] = i;
        }
      else if (lo == hi && slot_of[lo] < 0)
        slot_of[lo] = i;
    }

  /* idxStr tells xFilter, per argv entry, which slot it fills and how:
   * '=' both bounds, '>' / 'g' a low bound (strict / not), '<' / 'l' a high
   * one. */
  {
    GString *how = g_string_new (NULL);

    for (int s = 0; s < N_SLOTS; s++)
      {
        int i = slot_of[s];
        int op;

        if (i < 0)
          continue;
        plan |= 1 << s;
        if ((s == SLOT_ID_HI || s == SLOT_TIME_HI || s == SLOT_END_HI) && slot_of[s - 1] == i)
          continue;
        info->aConstraintUsage[i].argvIndex = ++argv_index;
        /* Never omitted: SQLite checks every constraint again, so a plan
         * only has to return a superset of the rows and stays simple. */
        info->aConstraintUsage[i].omit = 0;
        op = info->aConstraint[i].op;
        g_string_append_c (how, 'a' + s);
        g_string_append_c (how, op == SQLITE_INDEX_CONSTRAINT_GT ? '>' :
                                op == SQLITE_INDEX_CONSTRAINT_GE ? 'g' :
                                op == SQLITE_INDEX_CONSTRAINT_LT ? '<' :
                                op == SQLITE_INDEX_CONSTRAINT_LE ? 'l' : '=');
      }
    info->idxStr = sqlite3_mprintf ("%s", how->str);
    info->needToFreeIdxStr = 1;
    g_string_free (how, TRUE);
  }

  /* Guess how much each plan leaves, for the planner to pick joins by. */
  if (plan & (1 << SLOT_ID_LO) && plan & (1 << SLOT_ID_HI) &&
      slot_of[SLOT_ID_LO] == slot_of[SLOT_ID_HI])
    rows = table->kind == TABLE_ARGS ? 8 : 1;
  else
    {
      if (plan & (1 << SLOT_PARENT))
        rows = MIN (rows, 10);
      if (plan & (1 << SLOT_ID_LO))
        rows /= 4;
      if (plan & (1 << SLOT_ID_HI))
        rows /= 4;
      if (plan & (1 << SLOT_TRACK))
        rows /= MAX (table->cat->n_tracks, 1);
      if (plan & (1 << SLOT_TIME_LO) && plan & (1 << SLOT_TIME_HI) &&
          slot_of[SLOT_TIME_LO] == slot_of[SLOT_TIME_HI])
        rows = MIN (rows, 2);
      else
        {
          if (plan & (1 << SLOT_TIME_LO))
            rows /= 4;
          if (plan & (1 << SLOT_TIME_HI))
            rows /= 4;
        }
      if (plan & (1 << SLOT_END_LO))
        rows /= 4;
      if (plan & (1 << SLOT_END_HI))
        rows /= 2;
      if (plan & (1 << SLOT_NAME))
        rows /= 16;
    }
  rows = MAX (rows, 1.0);

  /* Spans by name: ordered (or grouped) without SQLite's sorter. SQLite
   * hands over no ORDER BY term whose collation differs from the column's
   * (BINARY, the strcmp() order the name index has). */
  if (table->kind == TABLE_SPANS && info->nOrderBy == 1 &&
      info->aOrderBy[0].iColumn == SPANS_NAME && !info->aOrderBy[0].desc &&
      (plan & ~(1 << SLOT_NAME)) == 0 &&
      table->cat->span_base[table->cat->n_tracks] < G_MAXUINT32)
    {
      plan |= PLAN_BY_NAME;
      info->orderByConsumed = 1;
    }

  info->idxNum = plan;
  info->estimatedRows = (sqlite3_int64) rows;
  info->estimatedCost = rows + (plan & PLAN_BY_NAME ? rows / 8 : 0) + 10;
  if (plan & (1 << SLOT_ID_LO) && plan & (1 << SLOT_ID_HI) &&
      slot_of[SLOT_ID_LO] == slot_of[SLOT_ID_HI] && table->kind != TABLE_ARGS)
    info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
  return SQLITE_OK;
}

static int
cursor_open (sqlite3_vtab         *vtab,
             sqlite3_vtab_cursor **out)
{
  Cursor *cursor = sqlite3_malloc (sizeof (Cursor));

  if (cursor == NULL)
    return SQLITE_NOMEM;
  memset (cursor, 0, sizeof (Cursor));
  cursor->table = (Table *) vtab;
  cursor->cat = cursor->table->cat;
  cursor->segments = g_array_new (FALSE, FALSE, sizeof (Segment));
  cursor->scratch = g_array_new (FALSE, FALSE, sizeof (guint32));
  *out = &cursor->base;
  return SQLITE_OK;
}

static void
cursor_reset_args (Cursor *cursor)
{
  g_clear_pointer (&cursor->keys, g_list_free);
  cursor->key = NULL;
  g_clear_pointer (&cursor->object, json_object_unref);
}

static int
cursor_close (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;

  cursor_reset_args (cursor);
  g_array_unref (cursor->segments);
  g_array_unref (cursor->scratch);
  g_free (cursor->names);
  sqlite3_free (cursor);
  return SQLITE_OK;
}

/* A bound as an integer: a real is rounded outwards, anything else does not
 * narrow the plan (SQLite compares it again anyway). */
static gboolean
value_bound (sqlite3_value *value,
             gboolean       lower,
             gint64        *out)
{
  double d;

  switch (sqlite3_value_numeric_type (value))
    {
    case SQLITE_INTEGER:
      *out = sqlite3_value_int64 (value);
      return TRUE;
    case SQLITE_FLOAT:
      d = sqlite3_value_double (value);
      if (isnan (d))
        return FALSE;
      d = lower ? floor (d) : ceil (d);
      if (d <= -9.2e18)
        *out = G_MININT64;
      else if (d >= 9.2e18)
        *out = G_MAXINT64;
      else
        *out = (gint64) d;
      return TRUE;
    default:
      return FALSE;
    }
}

static int
compare_u32 (gconstpointer a,
             gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return (x > y) - (x < y);
}

/* Every name id whose name as shown equals @text: names are interned, but
 * shown names (demangled) may differ from the interned ones. */
static void
lookup_names (Cursor     *cursor,
              const char *text)
{
  KymoTrace *trace = cursor->cat->trace;
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 id = kymo_trace_lookup_name (trace, text);
  guint n = kymo_trace_get_n_names (trace);

  if (id != G_MAXUINT32 && g_strcmp0 (kymo_trace_get_name (trace, id), text) == 0)
    g_array_append_val (ids, id);
  for (guint32 i = 0; i < n; i++)
    if (i != id && strcmp (kymo_trace_get_name (trace, i), text) == 0)
      g_array_append_val (ids, i);
  g_array_sort (ids, compare_u32);
  cursor->n_names = ids->len;
  cursor->names = (guint32 *) g_array_free (g_steal_pointer (&ids), FALSE);
}

static gboolean
name_kept (Cursor  *cursor,
           guint32  name)
{
  guint lo = 0, hi = cursor->n_names;

  if (cursor->names == NULL)
    return TRUE;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;

      if (cursor->names[mid] < name)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < cursor->n_names && cursor->names[lo] == name;
}

/* The track at the cursor's position, looked up once per track: xColumn
 * asks for it several times a row. */
static KymoTrack *
cursor_track (Cursor *cursor)
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

static const KymoSpan *
cursor_span (Cursor *cursor)
{
  cursor_track (cursor);
  return &cursor->spans[cursor->index];
}

static void
push_segment (GArray  *segments,
              guint64  lo,
              guint64  hi)
{
  Segment *last;

  if (lo >= hi)
    return;
  if (segments->len > 0)
    {
      last = &g_array_index (segments, Segment, segments->len - 1);
      if (last->hi == lo)
        {
          last->hi = hi;
          return;
        }
    }
  g_array_append_vals (segments, &(Segment) { lo, hi }, 1);
}

/* First span of @spans[0, n) starting at or after @ts / after @ts. */
static gsize
spans_lower_bound (const KymoSpan *spans,
                   gsize           n,
                   KymoTime        ts,
                   gboolean        strictly_after)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (spans[mid].start < ts || (strictly_after && spans[mid].start == ts))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The spans of the current track the plan may keep, as index ranges in id
 * order: a start range is a binary search per depth, an end bound an
 * interval-tree query. */
static void
span_segments (Cursor *cursor)
{
  KymoQueryCatalog *cat = cursor->cat;
  KymoTrack *track = cursor_track (cursor);
  guint64 base = cat->span_base[cursor->p];
  guint64 id_lo = cursor->id_lo > base ? cursor->id_lo - base : 0;
  guint64 id_hi = cursor->id_hi - base;  /* exclusive below */

  if (cursor->id_hi < base)
    return;
  id_hi = cursor->id_hi == G_MAXUINT64 ? G_MAXUINT64 : id_hi + 1;

  for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
    {
      const KymoSpan *spans;
      gsize n, first, lo, hi;

      spans = kymo_track_get_depth_spans (track, d, &n, &first);
      lo = spans_lower_bound (spans, n, cursor->t_lo, FALSE);
      hi = cursor->t_hi == G_MAXINT64 ? n : spans_lower_bound (spans, n, cursor->t_hi, TRUE);
      if (lo >= hi || first + lo >= id_hi || first + hi <= id_lo)
        continue;

      if (cursor->has_end_lo && hi - lo > 64)
        {
          /* start <= t_hi and end >= end_lo: an overlap query; when end_lo
           * lies past the last start, the spans holding end_lo (the index
           * range below keeps their starts in bounds). */
          g_array_set_size (cursor->scratch, 0);
          kymo_track_query_spans (track, d, cursor->end_lo, MAX (spans[hi - 1].start, cursor->end_lo),
                                  cursor->scratch);
          for (guint i = 0; i < cursor->scratch->len; i++)
            {
              guint64 idx = g_array_index (cursor->scratch, guint32, i);

              if (idx >= first + lo && idx < first + hi && idx >= id_lo && idx < id_hi)
                push_segment (cursor->segments, idx, idx + 1);
            }
        }
      else
        push_segment (cursor->segments, MAX (first + lo, id_lo), MIN (first + hi, id_hi));
    }
}

static gsize
events_lower_bound_ts (const KymoTrack *track,
                       gboolean         annotations,
                       KymoTime         ts,
                       gboolean         strictly_after)
{
  if (strictly_after)
    {
      if (ts == G_MAXINT64)
        {
          gsize n;
          if (annotations)
            kymo_track_get_annotations (track, &n);
          else
            kymo_track_get_instants (track, &n);
          return n;
        }
      ts++;
    }
  return annotations ? kymo_track_lower_bound_annotation (track, ts) : kymo_track_lower_bound_instant (track, ts);
}

static void
instant_segments (Cursor *cursor)
{
  KymoQueryCatalog *cat = cursor->cat;
  KymoTrack *track = cursor_track (cursor);
  guint64 base = cat->instant_base[cursor->p];
  guint64 id_lo, id_hi;
  gsize n_instants, n_annotations;

  if (cursor->id_hi < base)
    return;
  id_lo = cursor->id_lo > base ? cursor->id_lo - base : 0;
  id_hi = cursor->id_hi == G_MAXUINT64 ? G_MAXUINT64 : cursor->id_hi - base + 1;
  kymo_track_get_instants (track, &n_instants);
  kymo_track_get_annotations (track, &n_annotations);

  push_segment (cursor->segments,
                MAX (events_lower_bound_ts (track, FALSE, cursor->t_lo, FALSE), id_lo),
                MIN (events_lower_bound_ts (track, FALSE, cursor->t_hi, TRUE), id_hi));
  push_segment (cursor->segments,
                MAX (n_instants + events_lower_bound_ts (track, TRUE, cursor->t_lo, FALSE), id_lo),
                MIN (n_instants + events_lower_bound_ts (track, TRUE, cursor->t_hi, TRUE), id_hi));
}

static void
sample_segments (Cursor *cursor)
{
  KymoTrack *track = cursor_track (cursor);
  gsize n, lo, hi;

  kymo_track_get_samples (track, &n);
  lo = kymo_track_lower_bound_sample (track, cursor->t_lo);
  hi = cursor->t_hi == G_MAXINT64 ? n : kymo_track_lower_bound_sample (track, cursor->t_hi + 1);
  push_segment (cursor->segments, lo, hi);
}

static gboolean span_row_kept (Cursor *cursor);

/* Whether the row under the cursor passes the plan's name filter. */
static gboolean
row_kept (Cursor *cursor)
{
  KymoTrack *track;

  if (cursor->names == NULL)
    return TRUE;
  track = cursor_track (cursor);
  if (cursor->table->kind == TABLE_SPANS)
    return span_row_kept (cursor);
  if (cursor->table->kind == TABLE_INSTANTS)
    {
      gsize n_instants;
      const KymoInstant *instants = kymo_track_get_instants (track, &n_instants);

      if (cursor->index < n_instants)
        return name_kept (cursor, instants[cursor->index].name_flags & KYMO_NAME_MAX);
      return name_kept (cursor, kymo_track_get_annotations (track, &n_instants)
                                  [cursor->index - n_instants].name);
    }
  return TRUE;
}

static gboolean
span_row_kept (Cursor *cursor)
{
  return cursor->names == NULL || name_kept (cursor, kymo_span_name (cursor_span (cursor)));
}

static void
enter_track (Cursor *cursor)
{
  g_array_set_size (cursor->segments, 0);
  cursor->seg = 0;
  switch (cursor->table->kind)
    {
    case TABLE_SPANS:
      span_segments (cursor);
      break;
    case TABLE_INSTANTS:
      instant_segments (cursor);
      break;
    case TABLE_COUNTERS:
      sample_segments (cursor);
      break;
    default:
      break;
    }
  if (cursor->segments->len > 0)
    cursor->index = g_array_index (cursor->segments, Segment, 0).lo;
  cursor->depth_end = 0;
}

/* Settles on a row: the current one when it is kept, else the next. */
static int
settle (Cursor *cursor)
{
  while (cursor->p < cursor->p_end)
    {
      while (cursor->seg < cursor->segments->len)
        {
          Segment *s = &g_array_index (cursor->segments, Segment, cursor->seg);

          for (; cursor->index < s->hi; cursor->index++)
            {
              if (++cursor->steps % CHECK_EVERY == 0 &&
                  g_cancellable_is_cancelled (cursor->cat->cancellable))
                return SQLITE_INTERRUPT;
              if (row_kept (cursor))
                return SQLITE_OK;
            }
          cursor->seg++;
          if (cursor->seg < cursor->segments->len)
            cursor->index = g_array_index (cursor->segments, Segment, cursor->seg).lo;
        }
      cursor->p++;
      if (cursor->p < cursor->p_end)
        enter_track (cursor);
    }
  cursor->eof = TRUE;
  return SQLITE_OK;
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      trace)
{
  int cmp = strcmp (kymo_trace_get_name (trace, *(const guint32 *) a),
                    kymo_trace_get_name (trace, *(const guint32 *) b));

  /* Ties by id keep the sort stable, so equal names rank alike. */
  return cmp != 0 ? cmp : compare_u32 (a, b);
}

/* Span ids sorted by name (strcmp) then id: a rank per name, then a
 * counting sort of every span by rank. */
static gboolean
build_name_order (KymoQueryCatalog *cat)
{
  KymoTrace *trace = cat->trace;
  guint n_names = kymo_trace_get_n_names (trace);
  g_autofree guint32 *sorted = g_new (guint32, MAX (n_names, 1));
  g_autofree guint32 *rank = g_new (guint32, MAX (n_names, 1));
  g_autofree guint64 *next = NULL;
  guint n_ranks = 0;
  gsize total = cat->span_base[cat->n_tracks];
  guint32 *order;

  if (cat->name_order != NULL)
    return TRUE;

  for (guint32 i = 0; i < n_names; i++)
    sorted[i] = i;
  g_qsort_with_data (sorted, n_names, sizeof (guint32), compare_names, trace);
  for (guint i = 0; i < n_names; i++)
    {
      if (i > 0 && strcmp (kymo_trace_get_name (trace, sorted[i]),
                           kymo_trace_get_name (trace, sorted[i - 1])) != 0)
        n_ranks++;
      rank[sorted[i]] = n_ranks;
    }
  n_ranks++;

  next = g_new0 (guint64, n_ranks + 1);
  for (guint p = 0; p < cat->n_tracks; p++)
    {
      const KymoSpan *spans;
      gsize n;

      spans = kymo_track_get_spans (kymo_trace_get_track (trace, cat->order[p]), &n);
      for (gsize i = 0; i < n; i++)
        next[rank[kymo_span_name (&spans[i])] + 1]++;
      if (g_cancellable_is_cancelled (cat->cancellable))
        return FALSE;
    }
  for (guint r = 0; r < n_ranks; r++)
    next[r + 1] += next[r];

  order = g_try_new (guint32, MAX (total, 1));
  if (order == NULL)
    return FALSE;
  for (guint p = 0; p < cat->n_tracks; p++)
    {
      const KymoSpan *spans;
      gsize n;
      guint32 base = (guint32) cat->span_base[p];

      spans = kymo_track_get_spans (kymo_trace_get_track (trace, cat->order[p]), &n);
      for (gsize i = 0; i < n; i++)
        order[next[rank[kymo_span_name (&spans[i])]]++] = base + (guint32) i;
      if (g_cancellable_is_cancelled (cat->cancellable))
        {
          g_free (order);
          return FALSE;
        }
    }
  cat->name_order = order;
  cat->n_name_order = total;
  return TRUE;
}

/* In the by-name order: sets p and index from the span id at order_pos. */
static int
settle_by_name (Cursor *cursor)
{
  KymoQueryCatalog *cat = cursor->cat;

  for (; cursor->order_pos < cat->n_name_order; cursor->order_pos++)
    {
      guint64 id = cat->name_order[cursor->order_pos];

      if (++cursor->steps % CHECK_EVERY == 0 && g_cancellable_is_cancelled (cat->cancellable))
        return SQLITE_INTERRUPT;
      /* Ids of one name ascend: the track changes rarely. */
      if (id < cat->span_base[cursor->p] || id >= cat->span_base[cursor->p + 1])
        {
          cursor->p = _kymo_query_find_base (cat->span_base, cat->n_tracks, id);
          cursor->depth_end = 0;
        }
      cursor->index = id - cat->span_base[cursor->p];
      if (span_row_kept (cursor))
        return SQLITE_OK;
    }
  cursor->eof = TRUE;
  return SQLITE_OK;
}

/* args: the next event (in the plan's id range) with at least one argument. */
static int
settle_args (Cursor *cursor)
{
  KymoQueryCatalog *cat = cursor->cat;
  guint64 total = cat->instant_base[cat->n_tracks];

  while (cursor->key == NULL || cursor->key->next == NULL)
    {
      KymoEventRef ref;
      guint p;

      if (cursor->key != NULL || cursor->object != NULL)
        {
          cursor_reset_args (cursor);
          cursor->event++;
        }
      if (cursor->event < 0 || (guint64) cursor->event > cursor->id_hi || (guint64) cursor->event >= total)
        {
          cursor->eof = TRUE;
          return SQLITE_OK;
        }
      if (++cursor->steps % 256 == 0 && g_cancellable_is_cancelled (cat->cancellable))
        return SQLITE_INTERRUPT;

      p = _kymo_query_find_base (cat->span_base, cat->n_tracks, cursor->event);
      if (p < cat->n_tracks)
        {
          ref.track = cat->order[p];
          ref.kind = KYMO_EVENT_KIND_SPAN;
          ref.index = (guint) (cursor->event - cat->span_base[p]);
        }
      else
        {
          gsize n_instants;
          guint64 i;

          p = _kymo_query_find_base (cat->instant_base, cat->n_tracks, cursor->event);
          if (p >= cat->n_tracks)
            {
              cursor->eof = TRUE;
              return SQLITE_OK;
            }
          i = cursor->event - cat->instant_base[p];
          kymo_track_get_instants (kymo_trace_get_track (cat->trace, cat->order[p]), &n_instants);
          ref.track = cat->order[p];
          ref.kind = i < n_instants ? KYMO_EVENT_KIND_INSTANT : KYMO_EVENT_KIND_ANNOTATION;
          ref.index = (guint) (i < n_instants ? i : i - n_instants);
        }
      cursor->object = kymo_trace_describe_event (cat->trace, &ref);
      if (cursor->object != NULL)
        cursor->keys = json_object_get_members (cursor->object);
      if (cursor->keys != NULL)
        {
          cursor->key = cursor->keys;
          return SQLITE_OK;
        }
      /* Nothing to show: mark the event visited and move on. */
      if (cursor->object == NULL)
        cursor->object = json_object_new ();
    }
  cursor->key = cursor->key->next;
  return SQLITE_OK;
}

static int
cursor_filter (sqlite3_vtab_cursor  *base,
               int                   plan,
               const char           *plan_str,
               int                   argc,
               sqlite3_value       **argv)
{
  Cursor *cursor = (Cursor *) base;
  KymoQueryCatalog *cat = cursor->cat;
  TableKind kind = cursor->table->kind;
  guint64 id_base = kind == TABLE_INSTANTS ? cat->instant_base[0] : 0;
  guint64 id_total = kind == TABLE_INSTANTS ? cat->instant_base[cat->n_tracks]
                   : kind == TABLE_SPANS ? cat->span_base[cat->n_tracks]
                   : kind == TABLE_ARGS ? cat->instant_base[cat->n_tracks]
                   : cat->n_tracks;
  gint64 v, v_hi;
  gint64 lo[N_SLOTS] = { 0 }, hi[N_SLOTS] = { 0 };
  gboolean has_lo[N_SLOTS] = { FALSE }, has_hi[N_SLOTS] = { FALSE };
  sqlite3_value *slots[N_SLOTS] = { NULL };

  g_clear_pointer (&cursor->names, g_free);
  cursor_reset_args (cursor);
  cursor->eof = FALSE;
  cursor->id_lo = id_base;
  cursor->id_hi = id_total > 0 ? id_total - 1 : 0;
  cursor->t_lo = G_MININT64;
  cursor->t_hi = G_MAXINT64;
  cursor->end_lo = G_MININT64;
  cursor->end_hi = G_MAXINT64;
  cursor->has_end_lo = FALSE;
  cursor->by_name = (plan & PLAN_BY_NAME) != 0;
  cursor->p = 0;
  cursor->p_end = cat->n_tracks;
  cursor->steps = 0;

  for (int a = 0; plan_str != NULL && plan_str[2 * a] && plan_str[2 * a + 1] && a < argc; a++)
    {
      int s = plan_str[2 * a] - 'a';
      char op = plan_str[2 * a + 1];
      gboolean is_key = s == SLOT_ID_LO || s == SLOT_TIME_LO || s == SLOT_END_LO ||
                        s == SLOT_ID_HI || s == SLOT_TIME_HI || s == SLOT_END_HI;

      if (s < 0 || s >= N_SLOTS)
        continue;
      /* No column a plan narrows is ever NULL (parent IS NULL is not
       * planned): comparing with NULL keeps nothing. */
      if (sqlite3_value_type (argv[a]) == SQLITE_NULL)
        cursor->eof = TRUE;
      slots[s] = argv[a];
      if (!is_key)
        continue;
      if (op == '=')
        {
          slots[s + 1] = argv[a];
          if (value_bound (argv[a], TRUE, &v) && value_bound (argv[a], FALSE, &v_hi))
            {
              lo[s] = v;
              has_lo[s] = TRUE;
              hi[s + 1] = v_hi;
              has_hi[s + 1] = TRUE;
            }
        }
      else if ((op == '>' || op == 'g') && value_bound (argv[a], TRUE, &v))
        {
          if (op == '>' && sqlite3_value_numeric_type (argv[a]) == SQLITE_INTEGER)
            v = v == G_MAXINT64 ? v : v + 1;
          lo[s] = v;
          has_lo[s] = TRUE;
        }
      else if ((op == '<' || op == 'l') && value_bound (argv[a], FALSE, &v))
        {
          if (op == '<' && sqlite3_value_numeric_type (argv[a]) == SQLITE_INTEGER)
            v = v == G_MININT64 ? v : v - 1;
          hi[s] = v;
          has_hi[s] = TRUE;
        }
    }

  if (has_lo[SLOT_ID_LO] && lo[SLOT_ID_LO] > (gint64) cursor->id_lo)
    cursor->id_lo = (guint64) lo[SLOT_ID_LO];
  if (has_hi[SLOT_ID_HI])
    {
      if (hi[SLOT_ID_HI] < 0 || (guint64) hi[SLOT_ID_HI] < id_base)
        cursor->eof = TRUE;
      else if ((guint64) hi[SLOT_ID_HI] < cursor->id_hi)
        cursor->id_hi = (guint64) hi[SLOT_ID_HI];
    }
  if (id_total == id_base || cursor->id_lo > cursor->id_hi)
    cursor->eof = TRUE;

  if (has_lo[SLOT_TIME_LO])
    cursor->t_lo = lo[SLOT_TIME_LO];
  if (has_hi[SLOT_TIME_HI])
    cursor->t_hi = hi[SLOT_TIME_HI];
  if (has_lo[SLOT_END_LO])
    {
      cursor->end_lo = lo[SLOT_END_LO];
      cursor->has_end_lo = TRUE;
    }
  if (has_hi[SLOT_END_HI])
    {
      /* end <= x implies start <= x */
      cursor->end_hi = hi[SLOT_END_HI];
      cursor->t_hi = MIN (cursor->t_hi, cursor->end_hi);
    }
  if (cursor->t_lo > cursor->t_hi)
    cursor->eof = TRUE;

  if (slots[SLOT_TRACK])
    {
      if (sqlite3_value_numeric_type (slots[SLOT_TRACK]) == SQLITE_INTEGER &&
          sqlite3_value_int64 (slots[SLOT_TRACK]) >= 0 &&
          sqlite3_value_int64 (slots[SLOT_TRACK]) < cat->n_tracks)
        {
          cursor->p = (guint) sqlite3_value_int64 (slots[SLOT_TRACK]);
          cursor->p_end = cursor->p + 1;
        }
      else if (sqlite3_value_numeric_type (slots[SLOT_TRACK]) != SQLITE_FLOAT)
        cursor->eof = TRUE;
    }
  if (slots[SLOT_NAME])
    {
      if (sqlite3_value_type (slots[SLOT_NAME]) == SQLITE_NULL)
        cursor->eof = TRUE;
      else
        lookup_names (cursor, (const char *) sqlite3_value_text (slots[SLOT_NAME]));
    }
  if (slots[SLOT_PARENT])
    {
      KymoEventRef ref;
      gint64 parent;

      if (sqlite3_value_numeric_type (slots[SLOT_PARENT]) != SQLITE_INTEGER ||
          (parent = sqlite3_value_int64 (slots[SLOT_PARENT])) < 0 ||
          (guint64) parent >= cat->span_base[cat->n_tracks])
        cursor->eof = TRUE;
      else
        {
          const KymoSpan *spans;
          KymoTrack *track;
          gsize n, first;
          guint p = _kymo_query_find_base (cat->span_base, cat->n_tracks, parent);
          guint depth;

          ref.index = (guint) (parent - cat->span_base[p]);
          track = kymo_trace_get_track (cat->trace, cat->order[p]);
          spans = kymo_track_get_spans (track, &n);
          depth = kymo_track_get_span_depth (track, ref.index);
          /* Children start inside their parent, one depth down. */
          cursor->p = MAX (cursor->p, p);
          cursor->p_end = MIN (cursor->p_end, p + 1);
          cursor->t_lo = MAX (cursor->t_lo, spans[ref.index].start);
          cursor->t_hi = MIN (cursor->t_hi, spans[ref.index].end);
          kymo_track_get_depth_spans (track, depth + 1, &n, &first);
          cursor->id_lo = MAX (cursor->id_lo, cat->span_base[p] + first);
          if (n == 0 || cat->span_base[p] + first + n - 1 < cursor->id_hi)
            cursor->id_hi = cat->span_base[p] + first + n - 1;
          if (n == 0 || cursor->id_lo > cursor->id_hi || cursor->t_lo > cursor->t_hi)
            cursor->eof = TRUE;
        }
    }
  if (cursor->eof)
    return SQLITE_OK;

  switch (kind)
    {
    case TABLE_TRACKS:
      cursor->index = cursor->id_lo;
      return SQLITE_OK;
    case TABLE_ARGS:
      cursor->event = (gint64) cursor->id_lo;
      return settle_args (cursor);
    case TABLE_SPANS:
      if (cursor->by_name)
        {
          if (!build_name_order (cat))
            return g_cancellable_is_cancelled (cat->cancellable) ? SQLITE_INTERRUPT : SQLITE_NOMEM;
          cursor->order_pos = 0;
          cursor->p = 0;
          cursor->depth_end = 0;
          return settle_by_name (cursor);
        }
      G_GNUC_FALLTHROUGH;
    default:
      /* Only the tracks the id range touches. */
      if (kind != TABLE_COUNTERS)
        {
          const guint64 *b = kind == TABLE_SPANS ? cat->span_base : cat->instant_base;
          guint first = _kymo_query_find_base (b, cat->n_tracks, cursor->id_lo);
          guint last = _kymo_query_find_base (b, cat->n_tracks, cursor->id_hi);

          if (first < cat->n_tracks)
            cursor->p = MAX (cursor->p, first);
          if (last < cat->n_tracks)
            cursor->p_end = MIN (cursor->p_end, last + 1);
        }
      if (cursor->p >= cursor->p_end)
        {
          cursor->eof = TRUE;
          return SQLITE_OK;
        }
      enter_track (cursor);
      return settle (cursor);
    }
}

static int
cursor_next (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;

  switch (cursor->table->kind)
    {
    case TABLE_TRACKS:
      cursor->index++;
      return SQLITE_OK;
    case TABLE_ARGS:
      return settle_args (cursor);
    default:
      if (cursor->by_name)
        {
          cursor->order_pos++;
          return settle_by_name (cursor);
        }
      cursor->index++;
      return settle (cursor);
    }
}

static int
cursor_eof (sqlite3_vtab_cursor *base)
{
  Cursor *cursor = (Cursor *) base;

  if (cursor->table->kind == TABLE_TRACKS)
    return cursor->eof || cursor->index > cursor->id_hi || cursor->index >= cursor->cat->n_tracks;
  return cursor->eof;
}

static guint
span_depth (Cursor *cursor)
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

static int
cursor_column (sqlite3_vtab_cursor *base,
               sqlite3_context     *ctx,
               int                  column)
{
  Cursor *cursor = (Cursor *) base;
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

static int
cursor_rowid (sqlite3_vtab_cursor *base,
              sqlite3_int64       *rowid)
{
  Cursor *cursor = (Cursor *) base;
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

static const sqlite3_module module = {
  .iVersion = 0,
  .xCreate = NULL,  /* eponymous only: the tables exist without CREATE */
  .xConnect = table_connect,
  .xBestIndex = table_best_index,
  .xDisconnect = table_disconnect,
  .xDestroy = table_disconnect,
  .xOpen = cursor_open,
  .xClose = cursor_close,
  .xFilter = cursor_filter,
  .xNext = cursor_next,
  .xEof = cursor_eof,
  .xColumn = cursor_column,
  .xRowid = cursor_rowid,
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
