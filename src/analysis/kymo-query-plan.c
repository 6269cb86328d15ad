/* kymo-query-plan.c: query plans: which constraints narrow a table's scan (xBestIndex), and applying them (xFilter)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-query"

#include "config.h"

#include "kymo-query-tables-private.h"

#include <math.h>

/* Which slot a constraint fills, or -1. */
static int
constraint_slot (KymoQueryTableKind kind,
                 int                column,
                 int                op,
                 gboolean           low)
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
table_rows (KymoQueryTable *table)
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

int
_kymo_query_table_best_index (sqlite3_vtab       *vtab,
                              sqlite3_index_info *info)
{
  KymoQueryTable *table = (KymoQueryTable *) vtab;
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

int
_kymo_query_cursor_filter (sqlite3_vtab_cursor  *base,
                           int                   plan,
                           const char           *plan_str,
                           int                   argc,
                           sqlite3_value       **argv)
{
  KymoQueryCursor *cursor = (KymoQueryCursor *) base;
  KymoQueryCatalog *cat = cursor->cat;
  KymoQueryTableKind kind = cursor->table->kind;
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
  _kymo_query_cursor_reset_args (cursor);
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
        _kymo_query_cursor_lookup_names (cursor, (const char *) sqlite3_value_text (slots[SLOT_NAME]));
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
      return _kymo_query_cursor_settle_args (cursor);
    case TABLE_SPANS:
      if (cursor->by_name)
        {
          if (!_kymo_query_build_name_order (cat))
            return g_cancellable_is_cancelled (cat->cancellable) ? SQLITE_INTERRUPT : SQLITE_NOMEM;
          cursor->order_pos = 0;
          cursor->p = 0;
          cursor->depth_end = 0;
          return _kymo_query_cursor_settle_by_name (cursor);
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
      _kymo_query_cursor_enter_track (cursor);
      return _kymo_query_cursor_settle (cursor);
    }
}
