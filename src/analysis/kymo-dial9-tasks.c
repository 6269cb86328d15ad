/* kymo-dial9-tasks.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-tasks"

#include "config.h"

#include <stdlib.h>

#include "kymo-dial9-tasks.h"
#include "kymo-short-path.h"

struct _KymoDial9Tasks
{
  KymoTrace *trace;
  GArray    *rows;       /* KymoDial9Task */
  GArray    *polls;      /* KymoDial9Poll, in start order */
  GArray    *by_row;     /* guint32 poll indexes, by row then start */
  GArray    *row_first;  /* guint32 [n_rows + 1] into by_row */
  GArray    *by_track;   /* guint32 poll indexes, by track then span */
  GArray    *wakes;      /* KymoDial9Wake, by woken row then time */
  GArray    *wake_first; /* guint32 [n_rows + 1] into wakes */
};

typedef struct {
  guint64 id;
  guint32 runtime;
} RowKey;

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

typedef struct {
  KymoDial9Tasks *self;
  GHashTable     *rows;      /* RowKey* → row + 1 */
  GHashTable     *first_row; /* task id (guint64*) → row + 1 */
  guint32         default_runtime;
} Builder;

static guint32
track_runtime (KymoTrace *trace,
               guint      track)
{
  return kymo_track_get_parent (kymo_trace_get_track (trace, track));
}

static guint32
row_for (Builder *b,
         guint64  id,
         guint32  runtime)
{
  RowKey probe = { id, runtime };
  gpointer v = g_hash_table_lookup (b->rows, &probe);
  KymoDial9Task row = { 0 };
  RowKey *key;
  guint32 index;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  row.task_id = id;
  row.runtime = runtime;
  row.spawned = row.terminated = KYMO_TIME_NONE;
  row.instrumented = TRUE;
  index = b->self->rows->len;
  g_array_append_val (b->self->rows, row);
  key = g_memdup2 (&probe, sizeof probe);
  g_hash_table_insert (b->rows, key, GUINT_TO_POINTER (index + 1));
  if (!g_hash_table_contains (b->first_row, &id))
    g_hash_table_insert (b->first_row, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (index + 1));
  return index;
}

/* Spawns, terminations and wakes name a task, not a runtime: its first row. */
static guint32
any_row_for (Builder *b,
             guint64  id)
{
  gpointer v = g_hash_table_lookup (b->first_row, &id);

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  return row_for (b, id, b->default_runtime);
}

static int
compare_uints (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;
  return x < y ? -1 : x > y;
}

static int
compare_polls (gconstpointer a,
               gconstpointer b)
{
  const KymoDial9Poll *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->track != y->track)
    return x->track < y->track ? -1 : 1;
  return x->span < y->span ? -1 : x->span > y->span;
}

static int
compare_wakes (gconstpointer a,
               gconstpointer b)
{
  const KymoDial9Wake *x = a, *y = b;

  if (x->woken != y->woken)
    return x->woken < y->woken ? -1 : 1;
  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->source < y->source ? -1 : x->source > y->source;
}

/* The one runtime group, when there is exactly one. */
static guint32
only_runtime (KymoTrace *trace)
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

static void
add_polls (Builder          *b,
           const KymoRecord *records,
           gsize             n_records,
           guint32           kind_poll)
{
  KymoDial9Tasks *self = b->self;
  KymoTrace *trace = self->trace;
  KymoRecords *all = kymo_trace_get_records (trace);
  g_autoptr(GHashTable) tracks = g_hash_table_new (NULL, NULL);
  GHashTableIter iter;
  gpointer key;
  g_autoptr(GArray) ordered = g_array_new (FALSE, FALSE, sizeof (guint));

  for (gsize i = 0; i < n_records; i++)
    if (records[i].kind == kind_poll && records[i].track != KYMO_NO_TRACK &&
        records[i].track < kymo_trace_get_n_tracks (trace))
      g_hash_table_add (tracks, GUINT_TO_POINTER (records[i].track + 1));

  /* Tracks in id order, so that rows are made in the same order each time. */
  g_hash_table_iter_init (&iter, tracks);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      guint t = GPOINTER_TO_UINT (key) - 1;
      g_array_append_val (ordered, t);
    }
  g_array_sort (ordered, compare_uints);

  for (guint k = 0; k < ordered->len; k++)
    {
      guint track = g_array_index (ordered, guint, k);
      KymoTrack *t = kymo_trace_get_track (trace, track);
      guint32 runtime = track_runtime (trace, track);
      gsize n, first;
      const KymoSpan *spans = kymo_track_get_depth_spans (t, 0, &n, &first);

      for (gsize i = 0; i < n; i++)
        {
          const KymoRecord *r = kymo_records_find (all, spans[i].source);
          KymoDial9Poll poll;
          KymoDial9Task *row;
          KymoTime dur;

          if (r == NULL || r->kind != kind_poll || r->track != track)
            continue;
          poll.start = spans[i].start;
          poll.end = spans[i].end;
          poll.track = track;
          poll.span = (guint32) (first + i);
          poll.task = row_for (b, r->key, runtime);
          poll.source = spans[i].source;
          g_array_append_val (self->polls, poll);

          row = &g_array_index (self->rows, KymoDial9Task, poll.task);
          dur = poll.end - poll.start;
          row->polls++;
          row->poll_total += dur;
          row->poll_max = MAX (row->poll_max, dur);
          if (row->spawn_loc == 0 && kymo_span_name (&spans[i]) != 0)
            row->spawn_loc = kymo_span_name (&spans[i]);
        }
    }
}

static void
add_others (Builder          *b,
            const KymoRecord *records,
            gsize             n_records)
{
  KymoDial9Tasks *self = b->self;
  KymoTrace *trace = self->trace;
  guint32 kind_spawn = kymo_trace_lookup_name (trace, "spawn");
  guint32 kind_term = kymo_trace_lookup_name (trace, "terminate");
  guint32 kind_wake = kymo_trace_lookup_name (trace, "wake");
  guint32 name_poll = kymo_trace_lookup_name (trace, "poll");

  /* Poll spans are named after the spawn location, or "poll" without one. */
  for (guint i = 0; i < self->rows->len; i++)
    {
      KymoDial9Task *row = &g_array_index (self->rows, KymoDial9Task, i);
      if (row->spawn_loc == name_poll)
        row->spawn_loc = 0;
    }

  for (gsize i = 0; i < n_records; i++)
    {
      const KymoRecord *r = &records[i];
      KymoDial9Task *row;

      if (r->kind == G_MAXUINT32)
        continue;
      if (r->kind == kind_spawn)
        {
          row = &g_array_index (self->rows, KymoDial9Task, any_row_for (b, r->key));
          row->spawned = r->ts;
          row->instrumented = r->value != 0;
          if (r->name != 0)
            row->spawn_loc = r->name;
        }
      else if (r->kind == kind_term)
        {
          row = &g_array_index (self->rows, KymoDial9Task, any_row_for (b, r->key));
          row->terminated = r->ts;
        }
      else if (r->kind == kind_wake)
        {
          KymoDial9Wake wake = { r->ts, r->value, G_MAXUINT32, 0, r->source, 0 };
          gpointer v;

          wake.woken = any_row_for (b, r->key);
          if (r->value != 0 && (v = g_hash_table_lookup (b->first_row, &r->value)) != NULL)
            wake.waker = GPOINTER_TO_UINT (v) - 1;
          g_array_index (self->rows, KymoDial9Task, wake.woken).wakes++;
          g_array_append_val (self->wakes, wake);
        }
    }
}

static const char *
runtime_name (KymoTrace *trace,
              guint      track)
{
  if (track == KYMO_NO_TRACK || track >= kymo_trace_get_n_tracks (trace))
    return "";
  return kymo_track_get_name (kymo_trace_get_track (trace, track));
}

static int
compare_row_indexes (gconstpointer a,
                     gconstpointer b,
                     gpointer      data)
{
  KymoDial9Tasks *self = data;
  guint32 i = *(const guint32 *) a, j = *(const guint32 *) b;
  const KymoDial9Task *x = &g_array_index (self->rows, KymoDial9Task, i);
  const KymoDial9Task *y = &g_array_index (self->rows, KymoDial9Task, j);
  int c;

  if (x->task_id != y->task_id)
    return x->task_id < y->task_id ? -1 : 1;
  c = g_strcmp0 (runtime_name (self->trace, x->runtime), runtime_name (self->trace, y->runtime));
  return c != 0 ? c : (i < j ? -1 : i > j);
}

/* Rows by task id then runtime; the polls and wakes follow the new numbers. */
static void
sort_rows (KymoDial9Tasks *self)
{
  guint n = self->rows->len;
  g_autofree guint32 *order = g_new (guint32, n + 1);
  g_autofree guint32 *rank = g_new (guint32, n + 1);
  GArray *sorted = g_array_sized_new (FALSE, FALSE, sizeof (KymoDial9Task), n);

  for (guint i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint32), compare_row_indexes, self);
  for (guint i = 0; i < n; i++)
    {
      rank[order[i]] = i;
      g_array_append_val (sorted, g_array_index (self->rows, KymoDial9Task, order[i]));
    }
  g_array_unref (self->rows);
  self->rows = sorted;
  for (guint i = 0; i < self->polls->len; i++)
    {
      KymoDial9Poll *p = &g_array_index (self->polls, KymoDial9Poll, i);
      p->task = rank[p->task];
    }
  for (guint i = 0; i < self->wakes->len; i++)
    {
      KymoDial9Wake *w = &g_array_index (self->wakes, KymoDial9Wake, i);
      w->woken = rank[w->woken];
      if (w->waker != G_MAXUINT32)
        w->waker = rank[w->waker];
    }
}

static int
compare_by_row (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  const KymoDial9Poll *polls = data;
  guint32 i = *(const guint32 *) a, j = *(const guint32 *) b;

  if (polls[i].task != polls[j].task)
    return polls[i].task < polls[j].task ? -1 : 1;
  return i < j ? -1 : i > j;
}

static int
compare_by_track (gconstpointer a,
                  gconstpointer b,
                  gpointer      data)
{
  const KymoDial9Poll *polls = data;
  guint32 i = *(const guint32 *) a, j = *(const guint32 *) b;

  if (polls[i].track != polls[j].track)
    return polls[i].track < polls[j].track ? -1 : 1;
  return polls[i].span < polls[j].span ? -1 : polls[i].span > polls[j].span;
}

static void
build_indexes (KymoDial9Tasks *self)
{
  guint n_rows = self->rows->len;
  const KymoDial9Poll *polls;
  guint32 pos = 0;

  g_array_sort (self->polls, compare_polls);
  polls = (const KymoDial9Poll *) (gpointer) self->polls->data;
  g_array_set_size (self->by_row, self->polls->len);
  g_array_set_size (self->by_track, self->polls->len);
  for (guint32 i = 0; i < self->polls->len; i++)
    g_array_index (self->by_row, guint32, i) = g_array_index (self->by_track, guint32, i) = i;
  g_qsort_with_data (self->by_row->data, self->by_row->len, sizeof (guint32), compare_by_row, (gpointer) polls);
  g_qsort_with_data (self->by_track->data, self->by_track->len, sizeof (guint32), compare_by_track, (gpointer) polls);

  g_array_set_size (self->row_first, n_rows + 1);
  for (guint r = 0; r <= n_rows; r++)
    {
      while (pos < self->by_row->len && polls[g_array_index (self->by_row, guint32, pos)].task < r)
        pos++;
      g_array_index (self->row_first, guint32, r) = pos;
    }

  g_array_sort (self->wakes, compare_wakes);
  g_array_set_size (self->wake_first, n_rows + 1);
  pos = 0;
  for (guint r = 0; r <= n_rows; r++)
    {
      while (pos < self->wakes->len && g_array_index (self->wakes, KymoDial9Wake, pos).woken < r)
        pos++;
      g_array_index (self->wake_first, guint32, r) = pos;
    }
}

KymoDial9Tasks *
kymo_dial9_tasks_new (KymoTrace *trace)
{
  KymoDial9Tasks *self;
  KymoRecords *all;
  const KymoRecord *records;
  gsize n_records;
  guint32 kind_poll;
  Builder b;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  self = g_new0 (KymoDial9Tasks, 1);
  self->trace = g_object_ref (trace);
  self->rows = g_array_new (FALSE, FALSE, sizeof (KymoDial9Task));
  self->polls = g_array_new (FALSE, FALSE, sizeof (KymoDial9Poll));
  self->by_row = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->row_first = g_array_new (FALSE, TRUE, sizeof (guint32));
  self->by_track = g_array_new (FALSE, FALSE, sizeof (guint32));
  self->wakes = g_array_new (FALSE, FALSE, sizeof (KymoDial9Wake));
  self->wake_first = g_array_new (FALSE, TRUE, sizeof (guint32));

  all = kymo_trace_get_records (trace);
  records = kymo_records_get_all (all, &n_records);
  kind_poll = kymo_trace_lookup_name (trace, "poll");

  b.self = self;
  b.rows = g_hash_table_new_full (row_key_hash, row_key_equal, g_free, NULL);
  b.first_row = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  b.default_runtime = only_runtime (trace);

  if (kind_poll != G_MAXUINT32)
    add_polls (&b, records, n_records, kind_poll);
  add_others (&b, records, n_records);
  g_hash_table_unref (b.rows);
  g_hash_table_unref (b.first_row);

  sort_rows (self);
  build_indexes (self);
  return self;
}

void
kymo_dial9_tasks_free (KymoDial9Tasks *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->trace);
  g_array_unref (self->rows);
  g_array_unref (self->polls);
  g_array_unref (self->by_row);
  g_array_unref (self->row_first);
  g_array_unref (self->by_track);
  g_array_unref (self->wakes);
  g_array_unref (self->wake_first);
  g_free (self);
}

KymoTrace *
kymo_dial9_tasks_get_trace (KymoDial9Tasks *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->trace;
}

const KymoDial9Task *
kymo_dial9_tasks_get_rows (KymoDial9Tasks *self,
                           gsize          *n_rows)
{
  g_return_val_if_fail (self != NULL && n_rows != NULL, NULL);
  *n_rows = self->rows->len;
  return (const KymoDial9Task *) (gpointer) self->rows->data;
}

const char *
kymo_dial9_tasks_get_runtime (KymoDial9Tasks *self,
                              guint           row)
{
  g_return_val_if_fail (self != NULL && row < self->rows->len, "");
  return runtime_name (self->trace, g_array_index (self->rows, KymoDial9Task, row).runtime);
}

const char *
kymo_dial9_tasks_get_spawn_loc (KymoDial9Tasks *self,
                                guint           row)
{
  g_return_val_if_fail (self != NULL && row < self->rows->len, "");
  return kymo_short_path (kymo_trace_get_name (self->trace, g_array_index (self->rows, KymoDial9Task, row).spawn_loc));
}

const KymoDial9Poll *
kymo_dial9_tasks_get_polls (KymoDial9Tasks *self,
                            gsize          *n_polls)
{
  g_return_val_if_fail (self != NULL && n_polls != NULL, NULL);
  *n_polls = self->polls->len;
  return (const KymoDial9Poll *) (gpointer) self->polls->data;
}

const guint32 *
kymo_dial9_tasks_get_polls_of (KymoDial9Tasks *self,
                               guint           row,
                               gsize          *n_polls)
{
  guint32 first, end;

  g_return_val_if_fail (self != NULL && n_polls != NULL, NULL);
  *n_polls = 0;
  if (row >= self->rows->len)
    return NULL;
  first = g_array_index (self->row_first, guint32, row);
  end = g_array_index (self->row_first, guint32, row + 1);
  *n_polls = end - first;
  return end > first ? &g_array_index (self->by_row, guint32, first) : NULL;
}

const KymoDial9Wake *
kymo_dial9_tasks_get_wakes_of (KymoDial9Tasks *self,
                               guint           row,
                               gsize          *n_wakes)
{
  guint32 first, end;

  g_return_val_if_fail (self != NULL && n_wakes != NULL, NULL);
  *n_wakes = 0;
  if (row >= self->rows->len)
    return NULL;
  first = g_array_index (self->wake_first, guint32, row);
  end = g_array_index (self->wake_first, guint32, row + 1);
  *n_wakes = end - first;
  return end > first ? &g_array_index (self->wakes, KymoDial9Wake, first) : NULL;
}

const KymoDial9Poll *
kymo_dial9_tasks_find_poll (KymoDial9Tasks *self,
                            guint           track,
                            guint32         span)
{
  const KymoDial9Poll *polls;
  gsize lo = 0, hi;

  g_return_val_if_fail (self != NULL, NULL);
  polls = (const KymoDial9Poll *) (gpointer) self->polls->data;
  hi = self->by_track->len;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      const KymoDial9Poll *p = &polls[g_array_index (self->by_track, guint32, mid)];

      if (p->track < track || (p->track == track && p->span < span))
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo < self->by_track->len)
    {
      const KymoDial9Poll *p = &polls[g_array_index (self->by_track, guint32, lo)];
      if (p->track == track && p->span == span)
        return p;
    }
  return NULL;
}

KymoEventSet *
kymo_dial9_tasks_dup_polls_set (KymoDial9Tasks *self,
                                guint           row)
{
  KymoEventSet *set;
  const guint32 *polls;
  gsize n;

  g_return_val_if_fail (self != NULL, NULL);
  set = kymo_event_set_new (self->trace);
  polls = kymo_dial9_tasks_get_polls_of (self, row, &n);
  for (gsize i = 0; i < n; i++)
    {
      const KymoDial9Poll *p = &g_array_index (self->polls, KymoDial9Poll, polls[i]);
      kymo_event_set_add_span (set, p->track, p->span);
    }
  kymo_event_set_seal (set);
  return set;
}
