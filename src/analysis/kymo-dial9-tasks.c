/* kymo-dial9-tasks.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-tasks"

#include "config.h"

#include "kymo-dial9-tasks.h"
#include "kymo-dial9-lanes.h"
#include "kymo-dial9-tasks-private.h"
#include "kymo-short-path.h"

/* What placing the polls and wakes does not need goes at once. */
static void
builder_trim (Builder *b)
{
  for (guint t = 0; b->lanes != NULL && t < b->self->n_tracks; t++)
    {
      g_clear_pointer (&b->lanes[t].reach, g_free);
      g_clear_pointer (&b->lanes[t].slots, g_free);
      g_clear_pointer (&b->lanes[t].of_id, g_free);
    }
  g_clear_pointer (&b->words, g_free);
  g_clear_pointer (&b->rows, g_array_unref);
  g_clear_pointer (&b->far_polls, g_hash_table_unref);
  for (guint k = 0; k < b->n_chunks; k++)
    g_clear_pointer (&b->chunks[k].poll_tasks, g_free);
  for (guint k = 0; b->cpu != NULL && k < b->n_chunks; k++)
    _kymo_cpu_readings_clear (&b->cpu[k]);
  g_clear_pointer (&b->cpu, g_free);
  g_clear_pointer (&b->later, g_array_unref);
  g_clear_pointer (&b->unparks, g_array_unref);
  g_clear_pointer (&b->pois, g_array_unref);
  g_clear_pointer (&b->plain_lanes, g_free);
  g_clear_pointer (&b->late_flows, g_array_unref);
  g_clear_pointer (&b->late_spans, g_free);
  g_clear_pointer (&b->late_first, g_free);
  g_clear_pointer (&b->late_order, g_free);
  g_clear_pointer (&b->plain_ids, g_free);
  g_clear_pointer (&b->sample_first, g_free);
  g_clear_pointer (&b->sample_ts, g_free);
}

/* What the table's passes leave for placing the polls and wakes. */
static void
builder_free (Builder *b)
{
  builder_trim (b);
  for (guint t = 0; b->lanes != NULL && t < b->self->n_tracks; t++)
    {
      g_free (b->lanes[t].row_of);
      g_free (b->lanes[t].row_of_task);
      g_free (b->lanes[t].tasks);
      g_free (b->lanes[t].plain);
    }
  g_free (b->lanes);
  g_free (b->first_row);
  g_clear_pointer (&b->far_rows, g_hash_table_unref);
  g_clear_pointer (&b->other_rows, g_hash_table_unref);
  _kymo_dial9_tasks_wake_counts_clear (&b->wake_counts);
  for (guint k = 0; k < b->n_chunks; k++)
    _kymo_dial9_tasks_wake_counts_clear (&b->chunks[k].counts);
  g_free (b->chunks);
  g_free (b);
}

/* Each row's polls and wakes, from what the table's passes left. */
static void
place (KymoDial9Tasks *self)
{
  Builder *b = self->pending;

  self->poll_first = _kymo_dial9_tasks_slices (self->rows, self->n_rows, TRUE);
  self->polls = g_new (KymoDial9PollRef, MAX (self->poll_first[self->n_rows], 1));
  _kymo_dial9_tasks_place_polls (b, self->rank);
  self->wake_first = _kymo_dial9_tasks_slices (self->rows, self->n_rows, FALSE);
  self->wakes = g_new (guint32, MAX (self->wake_first[self->n_rows], 1));
  _kymo_dial9_tasks_place_wakes (b, self->rank);
  g_clear_pointer (&self->pending, builder_free);
  g_clear_pointer (&self->rank, g_free);
}

static void
ensure_placed (KymoDial9Tasks *self)
{
  if (g_atomic_int_get (&self->placed))
    return;
  g_mutex_lock (&self->placing);
  if (!self->placed)
    {
      place (self);
      g_atomic_int_set (&self->placed, TRUE);
    }
  g_mutex_unlock (&self->placing);
}

void
kymo_dial9_tasks_prepare_polls (KymoDial9Tasks *self)
{
  g_return_if_fail (self != NULL);
  ensure_placed (self);
}

/* Once every lane is read: the rows in order, and the points of
 * interest (on the loading thread). */
static void
finish_table (gpointer user_data)
{
  Builder *b = user_data;
  KymoDial9Tasks *self = b->self;

  _kymo_dial9_tasks_settle_rows (b);
  self->rank = g_new (guint32, b->rows->len + 1);
  _kymo_dial9_tasks_sort_rows (b, self->rank);
  for (guint32 r = 0; r < self->n_rows; r++)
    self->n_polls += self->rows[r].polls;
  if (b->thresholds != NULL)
    {
      _kymo_dial9_tasks_add_uninstrumented (b, self->rank);
      _kymo_dial9_tasks_finish_pois (b);
    }
}

static KymoDial9Tasks *
tasks_new (KymoTrace               *trace,
           const KymoPoiThresholds *thresholds,
           KymoDial9Lanes         **lanes)
{
  KymoDial9Tasks *self;
  g_autoptr(KymoParts) parts = NULL;
  Builder *b = g_new0 (Builder, 1);

  self = g_new0 (KymoDial9Tasks, 1);
  g_atomic_ref_count_init (&self->ref_count);
  g_mutex_init (&self->placing);
  g_mutex_init (&self->making);
  self->trace = g_object_ref (trace);
  self->n_tracks = kymo_trace_get_n_tracks (trace);
  self->row_of = g_new0 (guint32 *, self->n_tracks + 1);
  self->pending = b;

  b->self = self;
  b->trace = trace;
  b->thresholds = thresholds;
  b->records = kymo_records_get_all (kymo_trace_get_records (trace), &b->n_records);
  b->rows = g_array_new (FALSE, FALSE, sizeof (KymoDial9Task));
  /* Ids past this are rare enough for a hash table (and a damaged id must
   * not make a table of gigabytes). */
  b->max_first_row = (gsize) MIN ((guint64) b->n_records * 4 + 65536, G_MAXUINT32);
  b->default_runtime = _kymo_dial9_tasks_only_runtime (trace);
  b->lanes = g_new0 (Lane, self->n_tracks + 1);
  b->later = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->unparks = g_array_new (FALSE, FALSE, sizeof (guint32));
  b->pois = g_array_new (FALSE, FALSE, sizeof (KymoPoi));
  b->late_flows = g_array_new (FALSE, FALSE, sizeof (guint32));

  b->kind_cpu = lanes != NULL ? kymo_trace_lookup_name (trace, "cpu") : G_MAXUINT32;
  _kymo_dial9_tasks_prepare_records (b);
  _kymo_dial9_tasks_make_chunks (b, b->n_records >= PARALLEL_MIN ? N_CHUNKS : 1);
  /* The samples and the late flows, for the lanes' points, come first:
   * one thread copies the samples by track (a million in a large trace;
   * see _kymo_dial9_tasks_scan_samples()) while the others start on the
   * chunks, which then even out the end. */
  b->n_extra = thresholds != NULL ? 2 : 0;
  b->scan_samples = thresholds != NULL && _kymo_dial9_tasks_scan_samples (trace);
  parts = kymo_parts_new (NULL, b->n_records, PARALLEL_MIN, b->n_extra + b->n_chunks, 0,
                          _kymo_dial9_tasks_read_part, b);
  kymo_parts_set_help (parts, TRUE);
  for (guint k = 0; k < b->n_extra + b->n_chunks; k++)
    {
      kymo_parts_wait (parts, k);
      if (k >= b->n_extra)
        _kymo_dial9_tasks_join_chunk (b, &b->chunks[k - b->n_extra]);
    }
  _kymo_dial9_tasks_count_polls (b);
  _kymo_dial9_tasks_read_polls (b);
  /* What is left of the table and the points is one thread's work: the
   * other threads make the lanes' periods meanwhile. */
  if (lanes != NULL)
    {
      /* Beside the lanes' threads, more would only share the cores. */
      b->pois_parallel_min = G_MAXSIZE;
      *lanes = _kymo_dial9_lanes_new_from_readings (trace, b->cpu, b->cpu != NULL ? b->n_chunks : 0,
                                                    finish_table, b);
    }
  else
    {
      b->pois_parallel_min = POIS_PARALLEL_MIN;
      finish_table (b);
    }
  /* Placing reads the trace and what the passes left, not these. */
  b->thresholds = NULL;
  builder_trim (b);
  return self;
}

KymoDial9Tasks *
kymo_dial9_tasks_new (KymoTrace               *trace,
                      const KymoPoiThresholds *thresholds)
{
  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);
  return tasks_new (trace, thresholds, NULL);
}

KymoDial9Tasks *
kymo_dial9_tasks_new_with_lanes (KymoTrace               *trace,
                                 const KymoPoiThresholds *thresholds,
                                 KymoDial9Lanes         **lanes)
{
  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (lanes != NULL, NULL);
  return tasks_new (trace, thresholds, lanes);
}

KymoDial9Tasks *
kymo_dial9_tasks_ref (KymoDial9Tasks *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
kymo_dial9_tasks_free (KymoDial9Tasks *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_pointer (&self->pending, builder_free);
  g_free (self->rank);
  g_mutex_clear (&self->placing);
  g_object_unref (self->trace);
  g_free (self->rows);
  g_free (self->polls);
  g_free (self->poll_first);
  g_free (self->wakes);
  g_free (self->wake_first);
  for (guint t = 0; t < self->n_tracks; t++)
    g_free (self->row_of[t]);
  g_free (self->row_of);
  g_free (self->pois);
  g_free (self->timed);
  g_free (self->made);
  g_mutex_clear (&self->making);
  g_free (self->found);
  for (guint t = 0; self->plain_lanes != NULL && t < self->n_tracks; t++)
    g_free ((gpointer) self->plain_lanes[t].index);
  g_free (self->plain_lanes);
  g_free (self->worst);
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
  *n_rows = self->n_rows;
  return self->rows;
}

const char *
kymo_dial9_tasks_get_runtime (KymoDial9Tasks *self,
                              guint           row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, "");
  return _kymo_dial9_tasks_runtime_name (self->trace, self->rows[row].runtime);
}

const char *
kymo_dial9_tasks_get_spawn_loc (KymoDial9Tasks *self,
                                guint           row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, "");
  return kymo_short_path (kymo_trace_get_name (self->trace, self->rows[row].spawn_loc));
}

guint32
kymo_dial9_tasks_find_task (KymoDial9Tasks *self,
                            guint64         task_id)
{
  guint32 lo = 0, hi;

  g_return_val_if_fail (self != NULL, KYMO_DIAL9_NO_ROW);
  hi = self->n_rows;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (self->rows[mid].task_id < task_id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->n_rows && self->rows[lo].task_id == task_id ? lo : KYMO_DIAL9_NO_ROW;
}

gsize
kymo_dial9_tasks_get_n_polls (KymoDial9Tasks *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_polls;
}

const KymoDial9PollRef *
kymo_dial9_tasks_get_polls_of (KymoDial9Tasks *self,
                               guint           row,
                               gsize          *n_polls)
{
  g_return_val_if_fail (self != NULL && n_polls != NULL, NULL);
  *n_polls = 0;
  if (row >= self->n_rows)
    return NULL;
  ensure_placed (self);
  *n_polls = self->poll_first[row + 1] - self->poll_first[row];
  return *n_polls > 0 ? &self->polls[self->poll_first[row]] : NULL;
}

guint32
kymo_dial9_tasks_find_poll (KymoDial9Tasks *self,
                            guint           track,
                            guint32         span)
{
  KymoTrack *t;
  gsize n, first;

  g_return_val_if_fail (self != NULL, KYMO_DIAL9_NO_ROW);
  ensure_placed (self);
  if (track >= self->n_tracks || self->row_of[track] == NULL)
    return KYMO_DIAL9_NO_ROW;
  t = kymo_trace_get_track (self->trace, track);
  kymo_track_get_depth_spans (t, 0, &n, &first);
  if (span < first || span - first >= n || self->row_of[track][span - first] == 0)
    return KYMO_DIAL9_NO_ROW;
  return self->row_of[track][span - first] - 1;
}

const guint32 *
kymo_dial9_tasks_get_wakes_of (KymoDial9Tasks *self,
                               guint           row,
                               gsize          *n_wakes)
{
  g_return_val_if_fail (self != NULL && n_wakes != NULL, NULL);
  *n_wakes = 0;
  if (row >= self->n_rows)
    return NULL;
  ensure_placed (self);
  *n_wakes = self->wake_first[row + 1] - self->wake_first[row];
  return *n_wakes > 0 ? &self->wakes[self->wake_first[row]] : NULL;
}

static void
add_polls_to (KymoDial9Tasks *self,
              guint           row,
              KymoEventSet   *set)
{
  const KymoDial9PollRef *polls;
  gsize n;

  polls = kymo_dial9_tasks_get_polls_of (self, row, &n);
  for (gsize i = 0; i < n; i++)
    kymo_event_set_add_span (set, polls[i].track, polls[i].span);
}

KymoEventSet *
kymo_dial9_tasks_dup_polls_set (KymoDial9Tasks *self,
                                guint           row)
{
  KymoEventSet *set;

  g_return_val_if_fail (self != NULL, NULL);
  set = kymo_event_set_new (self->trace);
  add_polls_to (self, row, set);
  kymo_event_set_seal (set);
  return set;
}

/* A wake's instant: on the worker that ran the waking task, or on the
 * "wakes" track; found by time, then by source. */
static gboolean
find_wake_instant (KymoTrace        *trace,
                   const KymoRecord *wake,
                   guint            *track_out,
                   guint32          *index_out)
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
  const KymoRecord *records;
  const guint32 *wakes;
  gsize n, n_records;

  g_return_val_if_fail (self != NULL, NULL);
  set = kymo_event_set_new (self->trace);
  add_polls_to (self, row, set);
  records = kymo_records_get_all (kymo_trace_get_records (self->trace), &n_records);
  wakes = kymo_dial9_tasks_get_wakes_of (self, row, &n);
  for (gsize i = 0; i < n; i++)
    {
      guint track;
      guint32 index;

      if (find_wake_instant (self->trace, &records[wakes[i]], &track, &index))
        kymo_event_set_add_instant (set, track, index);
    }
  kymo_event_set_seal (set);
  return set;
}

/* The points of block @block in the time order, made once. */
static void
ensure_made (KymoDial9Tasks *self,
             gsize           block)
{
  if (g_atomic_int_get (&self->made[block]))
    return;
  g_mutex_lock (&self->making);
  if (!self->made[block])
    {
      gsize end = MIN ((block + 1) * POI_BLOCK, self->n_pois);

      for (gsize i = block * POI_BLOCK; i < end; i++)
        _kymo_dial9_poi_from_id (self->found, self->n_found, self->plain_lanes, self->timed[i], &self->pois[i]);
      g_atomic_int_set (&self->made[block], TRUE);
    }
  g_mutex_unlock (&self->making);
}

gsize
kymo_dial9_tasks_get_n_pois (KymoDial9Tasks *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_pois;
}

const KymoPoi *
kymo_dial9_tasks_get_poi (KymoDial9Tasks *self,
                          KymoPoiOrder    order,
                          gsize           position)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (position < self->n_pois, NULL);
  if (order == KYMO_POI_WORST_FIRST)
    position = self->worst[position];
  ensure_made (self, position / POI_BLOCK);
  return &self->pois[position];
}
