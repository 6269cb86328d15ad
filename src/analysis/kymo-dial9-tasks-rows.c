/* kymo-dial9-tasks-rows.c: the table: a row per task and runtime, and its order
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-tasks"

#include "config.h"

#include <string.h>

#include "kymo-dial9-tasks-private.h"

static guint
row_key_hash (gconstpointer data)
{
  const RowKey *k = data;
  return (guint) (k->id ^ (k->id >> 32)) * 31 + k->runtime;
}

static gboolean
row_key_equal (gconstpointer a,
               gconstpointer b)
{
  const RowKey *x = a, *y = b;
  return x->id == y->id && x->runtime == y->runtime;
}

static void
set_first_row (Builder *b,
               guint64  id,
               guint32  row)
{
  if (id >= b->n_first_row && id < b->max_first_row)
    {
      gsize n = MIN (MAX (id + 1, b->n_first_row * 2), b->max_first_row);

      b->first_row = g_renew (guint32, b->first_row, n);
      memset (b->first_row + b->n_first_row, 0, (n - b->n_first_row) * sizeof (guint32));
      b->n_first_row = n;
    }
  if (id < b->n_first_row)
    b->first_row[id] = row + 1;
  else
    {
      if (b->far_rows == NULL)
        b->far_rows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      g_hash_table_insert (b->far_rows, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (row + 1));
    }
}

static guint32
new_row (Builder *b,
         guint64  id,
         guint32  runtime)
{
  KymoDial9Task row = { 0 };

  row.task_id = id;
  row.runtime = runtime;
  row.spawned = row.terminated = KYMO_TIME_NONE;
  row.instrumented = TRUE;
  g_array_append_val (b->rows, row);
  return b->rows->len - 1;
}

guint32
_kymo_dial9_tasks_row_for (Builder *b,
                           guint64  id,
                           guint32  runtime)
{
  guint32 first = first_row (b, id), row;
  RowKey probe = { id, runtime };
  gpointer v;

  if (first == PENDING)
    {
      row = new_row (b, id, runtime);
      set_first_row (b, id, row);
      return row;
    }
  if (row_at (b, first)->runtime == runtime)
    return first;
  /* The same id in another runtime: a task of its own. */
  if (b->other_rows == NULL)
    b->other_rows = g_hash_table_new_full (row_key_hash, row_key_equal, g_free, NULL);
  v = g_hash_table_lookup (b->other_rows, &probe);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  row = new_row (b, id, runtime);
  g_hash_table_insert (b->other_rows, g_memdup2 (&probe, sizeof probe), GUINT_TO_POINTER (row + 1));
  return row;
}

/* Spawns, terminations and wakes name a task, not a runtime: the row of
 * its first poll, else one in the trace's only runtime. */
static guint32
any_row_for (Builder *b,
             guint64  id)
{
  guint32 row = first_row (b, id);

  return row != PENDING ? row : _kymo_dial9_tasks_row_for (b, id, b->default_runtime);
}

/* The one runtime group, when there is exactly one. */
guint32
_kymo_dial9_tasks_only_runtime (KymoTrace *trace)
{
  guint32 found = KYMO_NO_TRACK;
  guint n = 0;

  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    {
      KymoTrack *t = kymo_trace_get_track (trace, i);

      if (kymo_track_get_kind (t) == KYMO_TRACK_GROUP &&
          g_strcmp0 (kymo_track_get_group_kind (t), "runtime") == 0 &&
          g_strcmp0 (kymo_track_get_name (t), "other workers") != 0)
        {
          found = i;
          n++;
        }
    }
  return n == 1 ? found : KYMO_NO_TRACK;
}

/* What needed every poll seen: spawns and terminations (in file order, the
 * last spawn wins), and the wakes. */
void
_kymo_dial9_tasks_settle_rows (Builder *b)
{
  guint32 kind_spawn = kymo_trace_lookup_name (b->trace, "spawn");
  guint32 name_poll = kymo_trace_lookup_name (b->trace, "poll");

  /* Spans of polls without a location are named "poll". */
  for (guint i = 0; i < b->rows->len; i++)
    if (row_at (b, i)->spawn_loc == name_poll)
      row_at (b, i)->spawn_loc = 0;

  for (guint i = 0; i < b->later->len; i++)
    {
      const KymoRecord *r = &b->records[g_array_index (b->later, guint32, i)];
      KymoDial9Task *row = row_at (b, any_row_for (b, r->key));

      if (r->kind == kind_spawn)
        {
          row->spawned = r->ts;
          row->instrumented = r->value != 0;
          if (r->name != 0)
            row->spawn_loc = r->name;
        }
      else
        row->terminated = r->ts;
    }

  /* A task's wakes go to its first row, made here if it has none. */
  for (gsize id = 0; id < b->wake_counts.n_of_id; id++)
    if (b->wake_counts.of_id[id] != 0)
      row_at (b, any_row_for (b, id))->wakes += b->wake_counts.of_id[id];
  if (b->wake_counts.of_far != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, b->wake_counts.of_far);
      while (g_hash_table_iter_next (&iter, &key, &value))
        row_at (b, any_row_for (b, *(guint64 *) key))->wakes += GPOINTER_TO_UINT (value);
    }
}

const char *
_kymo_dial9_tasks_runtime_name (KymoTrace *trace,
                                guint      track)
{
  if (track == KYMO_NO_TRACK || track >= kymo_trace_get_n_tracks (trace))
    return "";
  return kymo_track_get_name (kymo_trace_get_track (trace, track));
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  Builder *builder = data;
  guint32 i = *(const guint32 *) a, j = *(const guint32 *) b;
  const KymoDial9Task *x = row_at (builder, i), *y = row_at (builder, j);
  int c;

  if (x->task_id != y->task_id)
    return x->task_id < y->task_id ? -1 : 1;
  c = g_strcmp0 (_kymo_dial9_tasks_runtime_name (builder->trace, x->runtime), _kymo_dial9_tasks_runtime_name (builder->trace, y->runtime));
  return c != 0 ? c : (i < j ? -1 : i > j);
}

/* Rows by task id then runtime; @rank gets each made row's new number. */
void
_kymo_dial9_tasks_sort_rows (Builder *b,
                             guint32 *rank)
{
  KymoDial9Tasks *self = b->self;
  guint32 n = b->rows->len;
  g_autofree guint32 *order = g_new (guint32, n + 1);

  for (guint32 i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint32), compare_rows, b);
  self->n_rows = n;
  self->rows = g_new (KymoDial9Task, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      rank[order[i]] = i;
      self->rows[i] = *row_at (b, order[i]);
    }
}

/* Offsets of each row's slice from its count. */
guint32 *
_kymo_dial9_tasks_slices (const KymoDial9Task *rows,
                          guint32              n_rows,
                          gboolean             polls)
{
  guint32 *first = g_new (guint32, n_rows + 1);

  first[0] = 0;
  for (guint32 r = 0; r < n_rows; r++)
    first[r + 1] = first[r] + (guint32) (polls ? rows[r].polls : rows[r].wakes);
  return first;
}
