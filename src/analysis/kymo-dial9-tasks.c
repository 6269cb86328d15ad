/* kymo-dial9-tasks.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-tasks"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kymo-dial9-tasks.h"
#include "kymo-run-sort.h"
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
  /* Task ids are dense in practice: id → first row + 1, in front of the
   * hash tables (which have them all). */
  guint32        *direct;
  gsize           n_direct;
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
  gpointer v;
  KymoDial9Task row = { 0 };
  RowKey *key;
  guint32 index;

  if (id < b->n_direct && b->direct[id] != 0 &&
      g_array_index (b->self->rows, KymoDial9Task, b->direct[id] - 1).runtime == runtime)
    return b->direct[id] - 1;
  v = g_hash_table_lookup (b->rows, &probe);
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
    {
      g_hash_table_insert (b->first_row, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (index + 1));
      if (id < b->n_direct)
        b->direct[id] = index + 1;
    }
  return index;
}

/* Spawns, terminations and wakes name a task, not a runtime: its first row. */
static guint32
any_row_for (Builder *b,
             guint64  id)
{
  gpointer v;

  if (id < b->n_direct && b->direct[id] != 0)
    return b->direct[id] - 1;
  v = g_hash_table_lookup (b->first_row, &id);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  return row_for (b, id, b->default_runtime);
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

typedef struct {
  guint32 source;
  guint32 span;
} SpanAt;

#define SPAN_AT_BEFORE(a, b) ((a)->source < (b)->source)
KYMO_DEFINE_RUN_SORT (sort_span_at, SpanAt, SPAN_AT_BEFORE)

/* Each poll record meets its span by source: per track, the records (in
 * source order already) and the depth-0 spans sorted by source, walked
 * together. */
static void
add_polls (Builder          *b,
           const KymoRecord *records,
           gsize             n_records,
           guint32           kind_poll)
{
  KymoDial9Tasks *self = b->self;
  KymoTrace *trace = self->trace;
  guint n_tracks = kymo_trace_get_n_tracks (trace);
  g_autofree guint32 *first = g_new0 (guint32, n_tracks + 2);
  g_autofree guint32 *by_track = NULL;
  g_autoptr(GArray) at = g_array_new (FALSE, FALSE, sizeof (SpanAt));
  gsize n_polls = 0;

  for (gsize i = 0; i < n_records; i++)
    if (records[i].kind == kind_poll && records[i].track < n_tracks)
      {
        first[records[i].track + 1]++;
        n_polls++;
      }
  for (guint t = 0; t < n_tracks; t++)
    first[t + 1] += first[t];
  by_track = g_new (guint32, MAX (n_polls, 1));
  {
    g_autofree guint32 *fill = g_memdup2 (first, sizeof (guint32) * (n_tracks + 1));

    for (gsize i = 0; i < n_records; i++)
      if (records[i].kind == kind_poll && records[i].track < n_tracks)
        by_track[fill[records[i].track]++] = (guint32) i;
  }
  g_array_unref (self->polls);
  self->polls = g_array_sized_new (FALSE, FALSE, sizeof (KymoDial9Poll), (guint) MIN (n_polls, G_MAXUINT));

  /* Tracks in id order, so that rows are made in the same order each time. */
  for (guint track = 0; track < n_tracks; track++)
    {
      KymoTrack *t;
      guint32 runtime;
      gsize n, first_span, k = first[track];
      const KymoSpan *spans;

      if (first[track] == first[track + 1])
        continue;
      t = kymo_trace_get_track (trace, track);
      runtime = track_runtime (trace, track);
      spans = kymo_track_get_depth_spans (t, 0, &n, &first_span);
      g_array_set_size (at, n);
      for (gsize i = 0; i < n; i++)
        {
          SpanAt *a = &g_array_index (at, SpanAt, i);
          a->source = spans[i].source;
          a->span = (guint32) i;
        }
      sort_span_at ((SpanAt *) (gpointer) at->data, n);

      for (gsize i = 0; i < n && k < first[track + 1]; i++)
        {
          const SpanAt *a = &g_array_index (at, SpanAt, i);
          const KymoSpan *span = &spans[a->span];
          const KymoRecord *r;
          KymoDial9Poll poll;
          KymoDial9Task *row;
          KymoTime dur;

          while (k < first[track + 1] && records[by_track[k]].source < a->source)
            k++;
          if (k >= first[track + 1] || records[by_track[k]].source != a->source)
            continue;
          r = &records[by_track[k]];
          poll.start = span->start;
          poll.end = span->end;
          poll.track = track;
          poll.span = (guint32) (first_span + a->span);
          poll.task = row_for (b, r->key, runtime);
          poll.source = span->source;
          g_array_append_val (self->polls, poll);

          row = &g_array_index (self->rows, KymoDial9Task, poll.task);
          dur = poll.end - poll.start;
          row->polls++;
          row->poll_total += dur;
          row->poll_max = MAX (row->poll_max, dur);
          if (row->spawn_loc == 0 && kymo_span_name (span) != 0)
            row->spawn_loc = kymo_span_name (span);
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

/* Stable counting sort of @n indexes 0…n-1 by @key (< @n_keys) into
 * @out; @first gets n_keys + 1 offsets. */
static void
counting_sort (const guint32 *keys,
               guint32        n,
               guint32        n_keys,
               guint32       *out,
               guint32       *first)
{
  memset (first, 0, sizeof (guint32) * (n_keys + 1));
  for (guint32 i = 0; i < n; i++)
    first[keys[i] + 1]++;
  for (guint32 k = 0; k < n_keys; k++)
    first[k + 1] += first[k];
  {
    g_autofree guint32 *at = g_memdup2 (first, sizeof (guint32) * (n_keys + 1));

    for (guint32 i = 0; i < n; i++)
      out[at[keys[i]]++] = i;
  }
}

#define POLL_BEFORE(a, b) ((a)->start < (b)->start || ((a)->start == (b)->start && \
                           ((a)->track < (b)->track || ((a)->track == (b)->track && (a)->span < (b)->span))))
KYMO_DEFINE_RUN_SORT (sort_polls, KymoDial9Poll, POLL_BEFORE)

static void
build_indexes (KymoDial9Tasks *self)
{
  guint32 n_rows = self->rows->len, n_polls = self->polls->len, n_wakes = self->wakes->len;
  guint32 n_tracks = kymo_trace_get_n_tracks (self->trace);
  const KymoDial9Poll *polls;
  g_autofree guint32 *keys = NULL;
  g_autofree guint32 *track_first = NULL;

  /* Each track's polls are one run in start order: a merge of runs. */
  sort_polls ((KymoDial9Poll *) (gpointer) self->polls->data, n_polls);
  polls = (const KymoDial9Poll *) (gpointer) self->polls->data;
  g_array_set_size (self->by_row, n_polls);
  g_array_set_size (self->by_track, n_polls);
  g_array_set_size (self->row_first, n_rows + 1);
  keys = g_new (guint32, MAX (MAX (n_polls, n_wakes), 1));
  for (guint32 i = 0; i < n_polls; i++)
    keys[i] = polls[i].task;
  counting_sort (keys, n_polls, n_rows, (guint32 *) (gpointer) self->by_row->data,
                 (guint32 *) (gpointer) self->row_first->data);
  /* On a track, start order is span order. */
  track_first = g_new (guint32, n_tracks + 1);
  for (guint32 i = 0; i < n_polls; i++)
    keys[i] = polls[i].track;
  counting_sort (keys, n_polls, n_tracks, (guint32 *) (gpointer) self->by_track->data, track_first);

  /* Wakes by the task woken, each task's in file order (the page only
   * counts them by waker: a time sort per task would cost more than the
   * rest). */
  {
    GArray *sorted = g_array_sized_new (FALSE, FALSE, sizeof (KymoDial9Wake), n_wakes);
    g_autofree guint32 *order = g_new (guint32, MAX (n_wakes, 1));
    const KymoDial9Wake *wakes = (const KymoDial9Wake *) (gpointer) self->wakes->data;

    for (guint32 i = 0; i < n_wakes; i++)
      keys[i] = wakes[i].woken;
    g_array_set_size (self->wake_first, n_rows + 1);
    counting_sort (keys, n_wakes, n_rows, order, (guint32 *) (gpointer) self->wake_first->data);
    for (guint32 i = 0; i < n_wakes; i++)
      g_array_append_val (sorted, wakes[order[i]]);
    g_array_unref (self->wakes);
    self->wakes = sorted;
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
  {
    guint64 max_id = 0;

    for (gsize i = 0; i < n_records; i++)
      max_id = MAX (max_id, records[i].key);
    b.n_direct = (gsize) MIN (max_id + 1, (guint64) n_records * 4 + 65536);
    b.direct = g_new0 (guint32, b.n_direct);
  }

  if (kind_poll != G_MAXUINT32)
    add_polls (&b, records, n_records, kind_poll);
  add_others (&b, records, n_records);
  g_hash_table_unref (b.rows);
  g_hash_table_unref (b.first_row);
  g_free (b.direct);

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

/* A wake's instant: on the worker that ran the waking task, or on the
 * "wakes" track; found by time, then by source. */
static gboolean
find_wake_instant (KymoTrace           *trace,
                   const KymoDial9Wake *wake,
                   guint               *track_out,
                   guint32             *index_out)
{
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      const KymoInstant *instants;
      gsize n, i;

      if (kymo_track_get_kind (track) != KYMO_TRACK_THREAD && kymo_track_get_kind (track) != KYMO_TRACK_INSTANT)
        continue;
      instants = kymo_track_get_instants (track, &n);
      for (i = kymo_track_lower_bound_instant (track, wake->ts); i < n && instants[i].ts == wake->ts; i++)
        if (instants[i].source == wake->source)
          {
            *track_out = t;
            *index_out = (guint32) i;
            return TRUE;
          }
    }
  return FALSE;
}

KymoEventSet *
kymo_dial9_tasks_dup_task_set (KymoDial9Tasks *self,
                               guint           row)
{
  KymoEventSet *set;
  const guint32 *polls;
  const KymoDial9Wake *wakes;
  gsize n;

  g_return_val_if_fail (self != NULL, NULL);
  set = kymo_event_set_new (self->trace);
  polls = kymo_dial9_tasks_get_polls_of (self, row, &n);
  for (gsize i = 0; i < n; i++)
    {
      const KymoDial9Poll *p = &g_array_index (self->polls, KymoDial9Poll, polls[i]);
      kymo_event_set_add_span (set, p->track, p->span);
    }
  wakes = kymo_dial9_tasks_get_wakes_of (self, row, &n);
  for (gsize i = 0; i < n; i++)
    {
      guint track;
      guint32 index;

      if (find_wake_instant (self->trace, &wakes[i], &track, &index))
        kymo_event_set_add_instant (set, track, index);
    }
  kymo_event_set_seal (set);
  return set;
}
