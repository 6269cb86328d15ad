/* kymo-tband-model.c: Tonbandgerät events as core, task, ISR and marker lanes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout follows what SEGGER SystemView users expect:
 *   Core N     ISRs (nested isr_enter/isr_exit spans), CPU (the running
 *              task), Warnings (dropped events, bad frames)
 *   <task>     State (running/ready/blocked/delayed/suspended), Priority,
 *              the task's own markers; ordered by priority
 *   <marker>   global event markers (instants and spans) and value markers
 *   <queue>    Length, Operations, and for mutexes the owner
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "kymo-tband-model-private.h"

static const char * const state_names[N_STATES] = {
  "running", "ready", "blocked", "delayed", "suspended", "deleted",
};

static const char * const op_names[N_OPS] = {
  "send", "send from ISR", "overwrite", "overwrite from ISR", "receive", "receive from ISR",
  "created", "reset", "blocked on peek", "blocked on send", "blocked on receive",
};

/* IdMap */

void
_kymo_tband_idmap_init (IdMap *map)
{
  map->dense = g_ptr_array_new ();
  map->sparse = NULL;
  map->count = 0;
}

static void
idmap_clear (IdMap          *map,
             GDestroyNotify  free_func)
{
  if (map->dense == NULL)
    return;
  for (guint i = 0; i < map->dense->len; i++)
    if (map->dense->pdata[i] && free_func)
      free_func (map->dense->pdata[i]);
  g_clear_pointer (&map->dense, g_ptr_array_unref);
  if (map->sparse)
    {
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, map->sparse);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        if (free_func)
          free_func (value);
      g_clear_pointer (&map->sparse, g_hash_table_unref);
    }
}


void
_kymo_tband_idmap_set (IdMap    *map,
                       guint32   id,
                       gpointer  value)
{
  map->count++;
  if (id < DENSE_IDS)
    {
      if (id >= map->dense->len)
        g_ptr_array_set_size (map->dense, id + 1);
      map->dense->pdata[id] = value;
      return;
    }
  if (map->sparse == NULL)
    map->sparse = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (map->sparse, GUINT_TO_POINTER (id), value);
}

/* Lanes */

Lane *
_kymo_tband_lane_new (KymoTbandModel *self,
                      KymoTrack      *track)
{
  Lane *lane = g_new0 (Lane, 1);

  lane->track = track;
  g_ptr_array_add (self->lanes, lane);
  return lane;
}

static void
lane_free (gpointer data)
{
  Lane *lane = data;

  g_free (lane->spans.data);
  for (guint d = 0; d < lane->n_deeper; d++)
    g_free (lane->deeper[d].data);
  g_free (lane->deeper);
  g_free (lane->instants.data);
  g_free (lane->samples.data);
  g_free (lane);
}

/* How many records a lane holding @n now should have room for: what the
 * rate so far predicts for the whole input, but never a wild guess from
 * the first few percent. */
static gsize
lane_room (KymoTbandModel *self,
           gsize           n)
{
  gsize room = n * 2;

  if (n < LANE_RESERVE_FROM)
    return MAX (room, 64);
  if (self->done > 0 && self->total > self->done)
    {
      double ahead = (double) n * ((double) self->total / (double) self->done) * LANE_RESERVE_MARGIN;
      gsize step = LANE_RESERVE_STEP;

      if (n >= LANE_RESERVE_BIG && self->reserved / LANE_RESERVE_BUDGET < self->total)
        step = LANE_RESERVE_BIG_STEP;

      room = ahead < (double) n * step ? (gsize) ahead : n * step;
      room = MAX (room, n + n / 4);
    }
  return room + 1024;
}

/* The vector of @size-byte records is full, or at its next window. */
G_GNUC_NO_INLINE void
_kymo_tband_vec_more (KymoTbandModel *self,
                      Vec            *vec,
                      gsize           size)
{
  gsize window = POPULATE_WINDOW / size;

  if (vec->len == vec->room)
    {
      gsize room = lane_room (self, vec->len);
      gpointer data = g_try_realloc_n (vec->data, room, size);

      /* A generous guess the system will not grant falls back to a step
       * the input has already shown it needs. */
      if (data == NULL)
        {
          room = vec->len + vec->len / 4 + 1024;
          data = g_realloc_n (vec->data, room, size);
        }
      self->reserved += (room - vec->room) * size;
      vec->data = data;
      vec->room = room;
      /* Pages asked for at the old place may not have moved along. */
      vec->asked = vec->len;
    }
  vec->limit = vec->room;
  /* The window the model writes next it takes as it comes; the ones after
   * it are for the other thread to populate meanwhile. */
  if (self->populate != NULL && vec->room - vec->len > window)
    {
      gsize from = MAX (vec->asked, vec->len + window);
      gsize to = MIN (vec->len + POPULATE_AHEAD * window, vec->room);

      /* Room reserved with a margin may never be written: pages beyond
       * what the rate so far expects would be zeroed for nothing. */
      if (self->done > 0 && self->total > self->done)
        {
          double expect = (double) vec->len * ((double) self->total / (double) self->done) + window;

          if (expect < (double) to)
            to = (gsize) expect;
        }
      if (to > from)
        self->populate ((guint8 *) vec->data + from * size, (to - from) * size, self->populate_data);
      vec->asked = MAX (vec->asked, to);
      vec->limit = vec->len + window;
    }
}

G_GNUC_NO_INLINE Vec *
_kymo_tband_lane_deeper (Lane  *lane,
                         guint  depth)
{
  if (depth > lane->n_deeper)
    {
      lane->deeper = g_renew (Vec, lane->deeper, depth);
      memset (lane->deeper + lane->n_deeper, 0, (depth - lane->n_deeper) * sizeof (Vec));
      lane->n_deeper = depth;
    }
  return &lane->deeper[depth - 1];
}



/* Hands the lane's events to its track: depth by depth, as the track would
 * have ordered them. Room reserved beyond them is given back here for
 * instants and samples, and by the track's seal for spans. */
void
_kymo_tband_lane_flush (Lane *lane)
{
  kymo_track_take_spans (lane->track, 0, g_steal_pointer (&lane->spans.data), lane->spans.len);
  for (guint d = 0; d < lane->n_deeper; d++)
    kymo_track_take_spans (lane->track, d + 1, g_steal_pointer (&lane->deeper[d].data), lane->deeper[d].len);
  kymo_track_take_instants (lane->track, g_realloc_n (g_steal_pointer (&lane->instants.data), lane->instants.len,
                                                      sizeof (KymoInstant)),
                            lane->instants.len);
  kymo_track_take_samples (lane->track, g_realloc_n (g_steal_pointer (&lane->samples.data), lane->samples.len,
                                                     sizeof (KymoSample)),
                           lane->samples.len);
  g_clear_pointer (&lane->deeper, g_free);
  lane->n_deeper = 0;
  memset (&lane->spans, 0, sizeof lane->spans);
  memset (&lane->instants, 0, sizeof lane->instants);
  memset (&lane->samples, 0, sizeof lane->samples);
}

void
kymo_tband_model_set_populate (KymoTbandModel        *self,
                               KymoTbandPopulateFunc  func,
                               gpointer               user_data)
{
  self->populate = func;
  self->populate_data = user_data;
}

void
kymo_tband_model_set_progress (KymoTbandModel *self,
                               guint64         done,
                               guint64         total)
{
  self->done = done;
  self->total = total;
}

/* Freeing */

static void
evtmarker_free (gpointer data)
{
  EvtMarker *marker = data;

  g_free (marker->name);
  g_free (marker->open.items);
  g_free (marker);
}

static void
valmarker_free (gpointer data)
{
  ValMarker *marker = data;

  g_free (marker->name);
  g_free (marker);
}

static void
task_free (gpointer data)
{
  Task *task = data;

  g_free (task->name);
  idmap_clear (&task->evtmarkers, evtmarker_free);
  idmap_clear (&task->valmarkers, valmarker_free);
  g_free (task);
}

static void
queue_free (gpointer data)
{
  Queue *queue = data;

  g_free (queue->name);
  g_free (queue);
}

static void
isr_free (gpointer data)
{
  Isr *isr = data;

  g_free (isr->name);
  g_free (isr);
}

static void
core_free (gpointer data)
{
  Core *core = data;

  if (core == NULL)
    return;
  g_free (core->isr_stack.items);
  g_free (core);
}

KymoTbandModel *
kymo_tband_model_new (KymoTrace *trace)
{
  KymoTbandModel *self = g_new0 (KymoTbandModel, 1);

  self->trace = trace;
  self->cores = g_ptr_array_new_with_free_func (core_free);
  _kymo_tband_idmap_init (&self->tasks);
  _kymo_tband_idmap_init (&self->queues);
  _kymo_tband_idmap_init (&self->isrs);
  _kymo_tband_idmap_init (&self->evtmarkers);
  _kymo_tband_idmap_init (&self->valmarkers);
  self->task_list = g_ptr_array_new ();
  self->queue_list = g_ptr_array_new ();
  self->marker_list = g_ptr_array_new ();
  self->valmarker_list = g_ptr_array_new ();
  self->lanes = g_ptr_array_new_with_free_func (lane_free);
  self->resolution = 1;
  self->max_ticks = MAX_TIME;
  for (guint i = 0; i < N_STATES; i++)
    self->name_running[i] = kymo_trace_intern (trace, state_names[i]);
  for (guint i = 0; i < N_OPS; i++)
    self->name_ops[i] = kymo_trace_intern (trace, op_names[i]);
  return self;
}

void
kymo_tband_model_free (KymoTbandModel *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->cores);
  idmap_clear (&self->tasks, task_free);
  idmap_clear (&self->queues, queue_free);
  idmap_clear (&self->isrs, isr_free);
  g_free (self->isr_unnamed);
  idmap_clear (&self->evtmarkers, evtmarker_free);
  idmap_clear (&self->valmarkers, valmarker_free);
  g_ptr_array_unref (self->task_list);
  g_ptr_array_unref (self->queue_list);
  g_ptr_array_unref (self->marker_list);
  g_ptr_array_unref (self->valmarker_list);
  g_ptr_array_unref (self->lanes);
  g_free (self);
}

/* Warnings */

static void model_warn_valist (KymoTbandModel *self,
                               guint64         offset,
                               KymoTime        ts,
                               const char     *format,
                               va_list         args) G_GNUC_PRINTF (4, 0);

static void
model_warn_valist (KymoTbandModel *self,
                   guint64         offset,
                   KymoTime        ts,
                   const char     *format,
                   va_list         args)
{
  g_autofree char *message = NULL;

  /* A hostile file can hold millions of bad frames: keep the first few. */
  if (self->n_warnings >= MAX_WARNINGS)
    {
      self->n_dropped_warnings++;
      return;
    }
  self->n_warnings++;
  message = g_strdup_vprintf (format, args);
  kymo_trace_add_warning (self->trace, offset, ts, "%s", message);
}

void
kymo_tband_model_warn (KymoTbandModel *self,
                       guint64         offset,
                       const char     *format,
                       ...)
{
  va_list args;

  va_start (args, format);
  model_warn_valist (self, offset, KYMO_TIME_NONE, format, args);
  va_end (args);
}

void G_GNUC_PRINTF (4, 5)
_kymo_tband_model_warn_at (KymoTbandModel *self,
                           guint64         offset,
                           KymoTime        ts,
                           const char     *format,
                           ...)
{
  va_list args;

  va_start (args, format);
  model_warn_valist (self, offset, ts, format, args);
  va_end (args);
}

gboolean
kymo_tband_model_is_freertos (KymoTbandModel *self)
{
  return self->freertos;
}

guint
kymo_tband_model_n_cores (KymoTbandModel *self)
{
  guint n = 0;

  for (guint i = 0; i < self->cores->len; i++)
    if (self->cores->pdata[i] != NULL)
      n = i + 1;
  return n;
}

guint64
kymo_tband_model_resolution (KymoTbandModel *self)
{
  return self->resolution;
}

const char *
kymo_tband_model_task_name (KymoTbandModel *self,
                            guint32         task_id)
{
  Task *task = _kymo_tband_idmap_get (&self->tasks, task_id);

  return task ? task->name : NULL;
}

const char *
kymo_tband_model_queue_name (KymoTbandModel *self,
                             guint32         queue_id)
{
  Queue *queue = _kymo_tband_idmap_get (&self->queues, queue_id);

  return queue ? queue->name : NULL;
}

const char *
kymo_tband_model_isr_name (KymoTbandModel *self,
                           guint32         isr_id)
{
  Isr *isr = _kymo_tband_idmap_get (&self->isrs, isr_id);

  return isr ? isr->name : NULL;
}
