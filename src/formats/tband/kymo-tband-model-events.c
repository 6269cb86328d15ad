/* kymo-tband-model-events.c: what each Tonbandgerät event does to the model
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-model-private.h"

/* Room for one more item in a stack of @size-byte items. */
static G_GNUC_NO_INLINE gpointer
stack_grow (gpointer  items,
            guint    *room,
            gsize     size)
{
  *room = MAX (*room * 2, 8);
  return g_realloc_n (items, *room, size);
}

/* Cores */

static Core *add_core (KymoTbandModel *self,
                       guint           id);

static inline Core *
get_core (KymoTbandModel *self,
          guint           id)
{
  Core *core;

  if (G_LIKELY (id < self->cores->len && (core = self->cores->pdata[id]) != NULL))
    return core;
  return add_core (self, id);
}

static Core *
add_core (KymoTbandModel *self,
          guint           id)
{
  Core *core;
  g_autofree char *name = NULL;

  core = g_new0 (Core, 1);
  core->id = id;
  name = g_strdup_printf ("Core %u", id);
  core->group = kymo_trace_add_track (self->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, name);
  {
    KymoTrack *group = kymo_trace_get_track (self->trace, core->group);

    kymo_track_set_group_kind (group, "core");
    kymo_track_set_sort_key (group, id);
    kymo_track_set_tag (group, id);
  }
  if (id >= self->cores->len)
    g_ptr_array_set_size (self->cores, id + 1);
  self->cores->pdata[id] = core;
  return core;
}

static G_GNUC_NO_INLINE void
core_add_child (KymoTbandModel  *self,
                Core            *core,
                Lane           **slot,
                KymoTrackKind    kind,
                const char      *name,
                gint64           sort_key)
{
  guint id = kymo_trace_add_track (self->trace, core->group, kind, name);

  *slot = _kymo_tband_lane_new (self, kymo_trace_get_track (self->trace, id));
  kymo_track_set_sort_key ((*slot)->track, sort_key);
  kymo_track_set_tag ((*slot)->track, core->id);
}

static inline Lane *
core_child (KymoTbandModel  *self,
            Core            *core,
            Lane           **slot,
            KymoTrackKind    kind,
            const char      *name,
            gint64           sort_key)
{
  if (G_UNLIKELY (*slot == NULL))
    core_add_child (self, core, slot, kind, name, sort_key);
  return *slot;
}

static Lane *
core_warn_track (KymoTbandModel *self,
                 Core           *core)
{
  return core_child (self, core, &core->warn, KYMO_TRACK_INSTANT, "Warnings", 2);
}

/* Tasks */

static G_GNUC_NO_INLINE Task *
find_task (KymoTbandModel *self,
           guint32         id)
{
  Task *task;

  id = _kymo_tband_idmap_limit (&self->tasks, id);
  task = _kymo_tband_idmap_get (&self->tasks, id);

  if (task != NULL)
    return task;

  task = g_new0 (Task, 1);
  task->id = id;
  task->group = KYMO_NO_TRACK;
  task->state = STATE_NONE;
  task->out_state = STATE_READY;
  task->out_source = KYMO_NO_SOURCE;
  task->running_core = -1;
  task->cpu_name_stale = TRUE;
  _kymo_tband_idmap_init (&task->evtmarkers);
  _kymo_tband_idmap_init (&task->valmarkers);
  _kymo_tband_idmap_set (&self->tasks, id, task);
  g_ptr_array_add (self->task_list, task);
  return task;
}

/* An existing task: most events of a stream name one. */
static inline Task *
get_task (KymoTbandModel *self,
          guint32         id)
{
  Task *task;

  if (G_LIKELY (id < self->tasks.dense->len && (task = self->tasks.dense->pdata[id]) != NULL))
    return task;
  return find_task (self, id);
}

static G_GNUC_NO_INLINE void
task_add_group (KymoTbandModel *self,
                Task           *task)
{
  g_autofree char *name = g_strdup_printf ("Task #%u", task->id);
  KymoTrack *group;

  task->group = kymo_trace_add_track (self->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, name);
  group = kymo_trace_get_track (self->trace, task->group);
  kymo_track_set_group_kind (group, "task");
  kymo_track_set_tag (group, task->id);
  task->state_track = _kymo_tband_lane_new (self, kymo_trace_get_track (self->trace,
                                            kymo_trace_add_track (self->trace, task->group,
                                            KYMO_TRACK_THREAD, "State")));
  kymo_track_set_sort_key (task->state_track->track, 0);
  kymo_track_set_tag (task->state_track->track, task->id);
}

static inline guint
task_group (KymoTbandModel *self,
            Task           *task)
{
  if (G_UNLIKELY (task->group == KYMO_NO_TRACK))
    task_add_group (self, task);
  return task->group;
}

static Lane *
task_child (KymoTbandModel *self,
            Task           *task,
            KymoTrackKind   kind,
            const char     *name)
{
  KymoTrack *track;

  track = kymo_trace_get_track (self->trace,
                                kymo_trace_add_track (self->trace, task_group (self, task), kind, name));
  kymo_track_set_sort_key (track, 1 + task->n_children++);
  kymo_track_set_tag (track, task->id);
  return _kymo_tband_lane_new (self, track);
}

const char *
_kymo_tband_task_display_name (Task *task,
                               char  buf[32])
{
  if (task->name != NULL && task->name[0] != '\0')
    return task->name;
  g_snprintf (buf, 32, "Task #%u", task->id);
  return buf;
}

void
_kymo_tband_task_intern_names (KymoTbandModel *self,
                               Task           *task)
{
  g_autofree char *taken = NULL;
  char buf[32];

  task->cpu_name = kymo_trace_intern (self->trace, _kymo_tband_task_display_name (task, buf));
  taken = g_strdup_printf ("taken by %s", _kymo_tband_task_display_name (task, buf));
  task->taken_name = kymo_trace_intern (self->trace, taken);
  task->cpu_name_stale = FALSE;
}


static guint32
task_taken_name (KymoTbandModel *self,
                 Task           *task)
{
  if (task->cpu_name_stale)
    _kymo_tband_task_intern_names (self, task);
  return task->taken_name;
}

static inline void
task_set_state (KymoTbandModel *self,
                Task           *task,
                KymoTime        ts,
                TaskState       state,
                guint32         source)
{
  task_group (self, task);
  if (task->state != STATE_NONE && task->state != STATE_DELETED && ts > task->state_start)
    _kymo_tband_lane_add_span (self, task->state_track, task->state_start, ts,
                               self->name_running[task->state], 0, KYMO_EVENT_STATE,
                               task->state_source);
  task->state = state;
  task->state_start = ts;
  task->state_source = source;
}

static gboolean
task_is_running (Task *task)
{
  return task->running_core >= 0;
}


static Task *
current_task (KymoTbandModel       *self,
              Core                 *core,
              const KymoTbandEvent *event,
              KymoTime              ts,
              guint64               offset)
{
  if (core->current == NULL)
    {
      const KymoTbandEventInfo *info = kymo_tband_event_info (event->id);

      _kymo_tband_model_warn_at (self, offset, ts, "%s on core %u while no task is known to run there",
                                 info->name, core->id);
      if (self->name_no_task == 0)
        self->name_no_task = kymo_trace_intern (self->trace, "no current task");
      _kymo_tband_lane_add_instant (self, core_warn_track (self, core), ts, self->name_no_task,
                                    KYMO_EVENT_WARNING, KYMO_NO_SOURCE);
    }
  return core->current;
}

/* Queues */

const char *
_kymo_tband_queue_kind_name (int kind)
{
  switch (kind)
    {
    case 0: return "queue";
    case 1: return "counting semaphore";
    case 2: return "binary semaphore";
    case 3: return "mutex";
    case 4: return "recursive mutex";
    case 5: return "queue set";
    default: return NULL;
    }
}

static gboolean
queue_is_mutex (Queue *queue)
{
  return queue->kind == 3 || queue->kind == 4;
}

static G_GNUC_NO_INLINE Queue *
find_queue (KymoTbandModel *self,
            guint32         id)
{
  Queue *queue;

  id = _kymo_tband_idmap_limit (&self->queues, id);
  queue = _kymo_tband_idmap_get (&self->queues, id);

  if (queue != NULL)
    return queue;
  queue = g_new0 (Queue, 1);
  queue->id = id;
  queue->kind = 0;
  queue->group = KYMO_NO_TRACK;
  _kymo_tband_idmap_set (&self->queues, id, queue);
  g_ptr_array_add (self->queue_list, queue);
  return queue;
}

static inline Queue *
get_queue (KymoTbandModel *self,
           guint32         id)
{
  Queue *queue;

  if (G_LIKELY (id < self->queues.dense->len && (queue = self->queues.dense->pdata[id]) != NULL))
    return queue;
  return find_queue (self, id);
}

static G_GNUC_NO_INLINE void
queue_add_tracks (KymoTbandModel *self,
                  Queue          *queue)
{
  KymoTrack *group;

  queue->group = kymo_trace_add_track (self->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "Queue");
  group = kymo_trace_get_track (self->trace, queue->group);
  kymo_track_set_group_kind (group, "queue");
  kymo_track_set_tag (group, queue->id);
  kymo_track_set_sort_key (group, SORT_QUEUES + queue->id);
  queue->length = _kymo_tband_lane_new (self, kymo_trace_get_track (self->trace,
                                        kymo_trace_add_track (self->trace, queue->group,
                                        KYMO_TRACK_COUNTER, "Length")));
  kymo_track_set_sort_key (queue->length->track, 1);
  queue->ops = _kymo_tband_lane_new (self, kymo_trace_get_track (self->trace,
                                     kymo_trace_add_track (self->trace, queue->group,
                                     KYMO_TRACK_INSTANT, "Operations")));
  kymo_track_set_sort_key (queue->ops->track, 2);
}

static inline void
queue_tracks (KymoTbandModel *self,
              Queue          *queue)
{
  if (G_UNLIKELY (queue->group == KYMO_NO_TRACK))
    queue_add_tracks (self, queue);
}

static inline void
queue_op (KymoTbandModel *self,
          Queue          *queue,
          KymoTime        ts,
          QueueOp         op,
          guint32         source)
{
  queue_tracks (self, queue);
  _kymo_tband_lane_add_instant (self, queue->ops, ts, self->name_ops[op], 0, source);
}

static inline void
queue_length (KymoTbandModel *self,
              Queue          *queue,
              KymoTime        ts,
              guint32         length)
{
  queue_tracks (self, queue);
  _kymo_tband_lane_add_sample (self, queue->length, ts, length);
}

void
_kymo_tband_mutex_release (KymoTbandModel *self,
                           Queue          *queue,
                           KymoTime        ts,
                           guint           flags)
{
  if (!queue->taken)
    return;
  _kymo_tband_lane_add_span (self, queue->owner, queue->taken_at, ts, queue->taken_name, 0, flags,
                             queue->taken_source);
  queue->taken = FALSE;
  queue->holder = NULL;
}

/* A mutex is a queue of length one: a receive that empties it is a take,
 * a send that fills it a give. */
static G_GNUC_NO_INLINE void
mutex_take_or_give (KymoTbandModel *self,
                    Queue          *queue,
                    Core           *core,
                    gboolean        from_isr,
                    KymoTime        ts,
                    guint32         length,
                    guint32         source)
{
  if (length > 0)
    {
      _kymo_tband_mutex_release (self, queue, ts, 0);
      return;
    }
  if (queue->taken)
    return;
  if (queue->owner == NULL)
    {
      queue->owner = _kymo_tband_lane_new (self, kymo_trace_get_track (self->trace,
                                           kymo_trace_add_track (self->trace, queue->group,
                                           KYMO_TRACK_THREAD, "Owner")));
      kymo_track_set_sort_key (queue->owner->track, 0);
    }
  queue->taken = TRUE;
  queue->taken_at = ts;
  queue->taken_source = source;
  queue->holder = from_isr ? NULL : core->current;
  if (queue->holder != NULL)
    queue->taken_name = task_taken_name (self, queue->holder);
  else
    queue->taken_name = kymo_trace_intern (self->trace, from_isr ? "taken by an ISR" : "taken");
}

static inline void
mutex_update (KymoTbandModel *self,
              Queue          *queue,
              Core           *core,
              gboolean        from_isr,
              KymoTime        ts,
              guint32         length,
              guint32         source)
{
  if (queue_is_mutex (queue))
    mutex_take_or_give (self, queue, core, from_isr, ts, length, source);
}

/* Markers */

static EvtMarker *
evtmarker_new (guint32 id)
{
  EvtMarker *marker = g_new0 (EvtMarker, 1);

  marker->id = id;
  return marker;
}

static EvtMarker *
get_evtmarker (IdMap    *map,
               guint32   id,
               gboolean *created)
{
  EvtMarker *marker;

  id = _kymo_tband_idmap_limit (map, id);
  marker = _kymo_tband_idmap_get (map, id);

  *created = marker == NULL;
  if (marker == NULL)
    {
      marker = evtmarker_new (id);
      _kymo_tband_idmap_set (map, id, marker);
    }
  return marker;
}

static ValMarker *
get_valmarker (IdMap    *map,
               guint32   id,
               gboolean *created)
{
  ValMarker *marker;

  id = _kymo_tband_idmap_limit (map, id);
  marker = _kymo_tband_idmap_get (map, id);

  *created = marker == NULL;
  if (marker == NULL)
    {
      marker = g_new0 (ValMarker, 1);
      marker->id = id;
      _kymo_tband_idmap_set (map, id, marker);
    }
  return marker;
}

static Lane *
global_marker_track (KymoTbandModel *self,
                     KymoTrackKind   kind,
                     guint32         id)
{
  KymoTrack *track;

  track = kymo_trace_get_track (self->trace,
                                kymo_trace_add_track (self->trace, KYMO_NO_TRACK, kind, "Marker"));
  kymo_track_set_sort_key (track, SORT_MARKERS + (kind == KYMO_TRACK_COUNTER ? (1 << 30) : 0) + id);
  kymo_track_set_tag (track, id);
  return _kymo_tband_lane_new (self, track);
}

static guint32
marker_span_name (KymoTbandModel       *self,
                  EvtMarker            *marker,
                  const KymoTbandEvent *event)
{
  char buf[40];

  if (event->str_len > 0)
    return kymo_trace_intern_len (self->trace, (const char *) event->str, event->str_len);
  if (marker->name_id == 0)
    {
      if (marker->name != NULL && marker->name[0] != '\0')
        marker->name_id = kymo_trace_intern (self->trace, marker->name);
      else
        {
          g_snprintf (buf, sizeof buf, "Marker #%u", marker->id);
          marker->name_id = kymo_trace_intern (self->trace, buf);
        }
    }
  return marker->name_id;
}

static void
evtmarker_event (KymoTbandModel       *self,
                 EvtMarker            *marker,
                 const KymoTbandEvent *event,
                 guint                 what,   /* 0 instant, 1 begin, 2 end */
                 KymoTime              ts,
                 guint32               source,
                 guint64               offset)
{
  if (what == 0)
    {
      _kymo_tband_lane_add_instant (self, marker->track, ts, marker_span_name (self, marker, event), 0, source);
    }
  else if (what == 1)
    {
      OpenSpan open = { ts, marker_span_name (self, marker, event), source };

      if (marker->open.len >= MAX_NESTING)
        {
          _kymo_tband_model_warn_at (self, offset, ts, "event marker %u nested deeper than %u", marker->id, MAX_NESTING);
          return;
        }
      if (marker->open.len == marker->open.room)
        marker->open.items = stack_grow (marker->open.items, &marker->open.room, sizeof (OpenSpan));
      marker->open.items[marker->open.len++] = open;
    }
  else
    {
      OpenSpan *open;

      if (marker->open.len == 0)
        {
          _kymo_tband_model_warn_at (self, offset, ts, "end of event marker %u that was not begun", marker->id);
          return;
        }
      open = &marker->open.items[marker->open.len - 1];
      _kymo_tband_lane_add_span (self, marker->track, open->start, ts, open->name,
                                 marker->open.len - 1, 0, open->source);
      marker->open.len--;
    }
}

void
_kymo_tband_evtmarker_close (KymoTbandModel *self,
                             EvtMarker      *marker,
                             KymoTime        end)
{
  if (marker->track == NULL)
    return;
  for (guint i = 0; i < marker->open.len; i++)
    {
      OpenSpan *open = &marker->open.items[i];

      _kymo_tband_lane_add_span (self, marker->track, open->start, MAX (end, open->start), open->name, i,
                                 KYMO_EVENT_INCOMPLETE, open->source);
    }
  marker->open.len = 0;
}

/* Time */

static KymoTime
to_ns (KymoTbandModel *self,
       guint64         ticks,
       guint64         offset)
{
  if (G_LIKELY (ticks <= self->max_ticks))
    return (KymoTime) (ticks * self->resolution);
  if (!self->warned_clamp)
    {
      self->warned_clamp = TRUE;
      kymo_tband_model_warn (self, offset, "timestamp %" G_GUINT64_FORMAT " is too large: shown at the end of time",
                             ticks);
    }
  return MAX_TIME;
}

/* Events */

static void
name_replace (char         **slot,
              const guint8  *str,
              gsize          len)
{
  g_free (*slot);
  *slot = g_utf8_make_valid ((const char *) str, len);
}

static void
metadata_event (KymoTbandModel       *self,
                const KymoTbandEvent *event,
                guint64               offset)
{
  gboolean created;

  switch (event->id)
    {
    case KYMO_TBAND_TS_RESOLUTION_NS:
      if (event->v[0].u == 0)
        {
          kymo_tband_model_warn (self, offset, "ts_resolution_ns of 0 ignored");
          break;
        }
      if (self->seen_timed && event->v[0].u != self->resolution)
        kymo_tband_model_warn (self, offset,
                               "ts_resolution_ns changes from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                               " after timed events: earlier times keep the old scale",
                               self->resolution, event->v[0].u);
      self->resolution = event->v[0].u;
      self->max_ticks = (guint64) MAX_TIME / self->resolution;
      self->has_resolution = TRUE;
      break;

    case KYMO_TBAND_ISR_NAME:
      {
        guint32 id = _kymo_tband_idmap_limit (&self->isrs, event->v[0].u);
        Isr *isr = _kymo_tband_idmap_get (&self->isrs, id);

        if (isr == NULL)
          {
            isr = g_new0 (Isr, 1);
            isr->id = id;
            _kymo_tband_idmap_set (&self->isrs, isr->id, isr);
          }
        name_replace (&isr->name, event->str, event->str_len);
        isr->name_id = 0;
      }
      break;

    case KYMO_TBAND_EVTMARKER_NAME:
      {
        EvtMarker *marker = get_evtmarker (&self->evtmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->marker_list, marker);
        name_replace (&marker->name, event->str, event->str_len);
        marker->name_id = 0;
      }
      break;

    case KYMO_TBAND_VALMARKER_NAME:
      {
        ValMarker *marker = get_valmarker (&self->valmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->valmarker_list, marker);
        name_replace (&marker->name, event->str, event->str_len);
      }
      break;

    case KYMO_TBAND_TASK_NAME:
      {
        Task *task = get_task (self, event->v[0].u);

        name_replace (&task->name, event->str, event->str_len);
        task->cpu_name_stale = TRUE;
      }
      break;

    case KYMO_TBAND_TASK_IS_IDLE_TASK:
      {
        Task *task = get_task (self, event->v[0].u);

        task->kind = 1;
        task->idle_core = event->v[1].u;
      }
      break;

    case KYMO_TBAND_TASK_IS_TIMER_TASK:
      get_task (self, event->v[0].u)->kind = 2;
      break;

    case KYMO_TBAND_QUEUE_NAME:
      name_replace (&get_queue (self, event->v[0].u)->name, event->str, event->str_len);
      break;

    case KYMO_TBAND_QUEUE_KIND:
      get_queue (self, event->v[0].u)->kind = (int) event->v[1].u;
      break;

    case KYMO_TBAND_TASK_EVTMARKER_NAME:
      {
        Task *task = get_task (self, event->v[1].u);
        EvtMarker *marker = get_evtmarker (&task->evtmarkers, event->v[0].u, &created);

        name_replace (&marker->name, event->str, event->str_len);
        marker->name_id = 0;
      }
      break;

    case KYMO_TBAND_TASK_VALMARKER_NAME:
      {
        Task *task = get_task (self, event->v[1].u);
        ValMarker *marker = get_valmarker (&task->valmarkers, event->v[0].u, &created);

        name_replace (&marker->name, event->str, event->str_len);
      }
      break;

    default:
      break;
    }
}

static void
isr_enter (KymoTbandModel       *self,
           Core                 *core,
           const KymoTbandEvent *event,
           KymoTime              ts,
           guint32               source,
           guint64               offset)
{
  guint32 id = event->v[0].u;
  Isr *isr = _kymo_tband_idmap_get (&self->isrs, id);
  OpenIsr open;

  core_child (self, core, &core->isr, KYMO_TRACK_THREAD, "ISRs", 0);
  if (core->isr_stack.len >= MAX_NESTING)
    {
      _kymo_tband_model_warn_at (self, offset, ts, "ISRs nested deeper than %u on core %u", MAX_NESTING, core->id);
      return;
    }
  if (isr != NULL && isr->name != NULL)
    {
      if (isr->name_id == 0)
        isr->name_id = kymo_trace_intern (self->trace, isr->name);
      open.name = isr->name_id;
    }
  else if (id < DENSE_IDS && self->isr_unnamed != NULL && self->isr_unnamed[id] != 0)
    open.name = self->isr_unnamed[id];
  else
    {
      char buf[32];

      g_snprintf (buf, sizeof buf, "ISR #%u", id);
      open.name = kymo_trace_intern (self->trace, buf);
      /* An ISR without a name may come back a thousand times a second. */
      if (id < DENSE_IDS)
        {
          if (self->isr_unnamed == NULL)
            self->isr_unnamed = g_new0 (guint32, DENSE_IDS);
          self->isr_unnamed[id] = open.name;
        }
    }
  open.isr = id;
  open.start = ts;
  open.source = source;
  if (core->isr_stack.len == core->isr_stack.room)
    core->isr_stack.items = stack_grow (core->isr_stack.items, &core->isr_stack.room, sizeof (OpenIsr));
  core->isr_stack.items[core->isr_stack.len++] = open;
}

static void
isr_exit (KymoTbandModel       *self,
          Core                 *core,
          const KymoTbandEvent *event,
          KymoTime              ts,
          guint64               offset)
{
  guint32 id = event->v[0].u;
  guint found;

  for (found = core->isr_stack.len; found > 0; found--)
    if (core->isr_stack.items[found - 1].isr == id)
      break;
  if (found == 0)
    {
      _kymo_tband_model_warn_at (self, offset, ts, "isr_exit of ISR %u on core %u without isr_enter", id, core->id);
      return;
    }

  /* ISRs entered after this one and never left are cut off here. */
  for (guint i = core->isr_stack.len; i >= found; i--)
    {
      OpenIsr *open = &core->isr_stack.items[i - 1];

      _kymo_tband_lane_add_span (self, core->isr, open->start, ts, open->name, i - 1,
                                 i == found ? 0 : KYMO_EVENT_INCOMPLETE, open->source);
    }
  core->isr_stack.len = found - 1;
}

static void
task_marker_event (KymoTbandModel       *self,
                   Core                 *core,
                   const KymoTbandEvent *event,
                   KymoTime              ts,
                   guint32               source,
                   guint64               offset)
{
  Task *task = current_task (self, core, event, ts, offset);
  gboolean created;

  if (task == NULL)
    return;

  if (event->id == KYMO_TBAND_TASK_VALMARKER)
    {
      ValMarker *marker = get_valmarker (&task->valmarkers, event->v[0].u, &created);

      if (marker->track == NULL)
        marker->track = task_child (self, task, KYMO_TRACK_COUNTER, "Value marker");
      _kymo_tband_lane_add_sample (self, marker->track, ts, (double) event->v[1].s);
    }
  else
    {
      EvtMarker *marker = get_evtmarker (&task->evtmarkers, event->v[0].u, &created);

      if (marker->track == NULL)
        marker->track = task_child (self, task, KYMO_TRACK_THREAD, "Marker");
      evtmarker_event (self, marker, event,
                       event->id == KYMO_TBAND_TASK_EVTMARKER ? 0 :
                       event->id == KYMO_TBAND_TASK_EVTMARKER_BEGIN ? 1 : 2,
                       ts, source, offset);
    }
}

/* In line in timed_event(): it is most of a stream. */
static inline __attribute__ ((always_inline)) void
freertos_event (KymoTbandModel       *self,
                Core                 *core,
                const KymoTbandEvent *event,
                KymoTime              ts,
                guint32               source,
                guint64               offset)
{
  Task *task;
  Queue *queue;

  switch (event->id)
    {
    case KYMO_TBAND_TASK_SWITCHED_IN:
      task = get_task (self, event->v[0].u);
      core_child (self, core, &core->cpu, KYMO_TRACK_THREAD, "CPU", 1);
      if (core->current != NULL)
        {
          Task *previous = core->current;

          _kymo_tband_core_switch_out (self, core, ts, 0);
          task_set_state (self, previous, ts, previous->out_state, previous->out_source);
        }
      /* On SMP a task can move cores: it left the other one. */
      if (task_is_running (task))
        {
          Core *other = get_core (self, task->running_core);

          _kymo_tband_core_switch_out (self, other, ts, 0);
        }
      task->out_state = STATE_READY;
      task->out_source = source;
      task_set_state (self, task, ts, STATE_RUNNING, source);
      task->running_core = core->id;
      core->current = task;
      core->run_start = ts;
      core->run_source = source;
      break;

    case KYMO_TBAND_TASK_TO_RDY_STATE:
    case KYMO_TBAND_TASK_RESUMED:
    case KYMO_TBAND_TASK_RESUMED_FROM_ISR:
      task = get_task (self, event->v[0].u);
      if (!task_is_running (task))
        task_set_state (self, task, ts, STATE_READY, source);
      break;

    case KYMO_TBAND_TASK_SUSPENDED:
    case KYMO_TBAND_TASK_DELETED:
      {
        TaskState state = event->id == KYMO_TBAND_TASK_SUSPENDED ? STATE_SUSPENDED : STATE_DELETED;

        task = get_task (self, event->v[0].u);
        if (task_is_running (task))
          {
            task->out_state = state;
            task->out_source = source;
          }
        else
          task_set_state (self, task, ts, state, source);
      }
      break;

    case KYMO_TBAND_CURTASK_DELAY:
    case KYMO_TBAND_CURTASK_DELAY_UNTIL:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_SEND:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_RECEIVE:
      task = current_task (self, core, event, ts, offset);
      if (task != NULL)
        {
          task->out_state = event->id <= KYMO_TBAND_CURTASK_DELAY_UNTIL ? STATE_DELAYED : STATE_BLOCKED;
          task->out_source = source;
        }
      if (event->id >= KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK)
        queue_op (self, get_queue (self, event->v[0].u), ts,
                  OP_BLOCK_PEEK + (event->id - KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK), source);
      break;

    case KYMO_TBAND_TASK_PRIORITY_SET:
    case KYMO_TBAND_TASK_PRIORITY_INHERIT:
    case KYMO_TBAND_TASK_PRIORITY_DISINHERIT:
      task = get_task (self, event->v[0].u);
      if (task->prio_track == NULL)
        {
          task->prio_track = task_child (self, task, KYMO_TRACK_COUNTER, "Priority");
          kymo_track_set_sort_key (task->prio_track->track, 0);
        }
      _kymo_tband_lane_add_sample (self, task->prio_track, ts, event->v[1].u);
      /* Inherited priorities are temporary: order tasks by their own. */
      if (event->id == KYMO_TBAND_TASK_PRIORITY_SET || !task->has_priority)
        {
          task->priority = event->v[1].u;
          task->has_priority = TRUE;
        }
      break;

    case KYMO_TBAND_TASK_CREATED:
      task_group (self, get_task (self, event->v[0].u));
      break;

    case KYMO_TBAND_QUEUE_CREATED:
      queue_length (self, get_queue (self, event->v[0].u), ts, 0);
      queue_op (self, get_queue (self, event->v[0].u), ts, OP_CREATED, source);
      break;

    case KYMO_TBAND_QUEUE_RESET:
      queue = get_queue (self, event->v[0].u);
      queue_length (self, queue, ts, 0);
      queue_op (self, queue, ts, OP_RESET, source);
      break;

    case KYMO_TBAND_QUEUE_SEND:
    case KYMO_TBAND_QUEUE_SEND_FROM_ISR:
    case KYMO_TBAND_QUEUE_OVERWRITE:
    case KYMO_TBAND_QUEUE_OVERWRITE_FROM_ISR:
    case KYMO_TBAND_QUEUE_RECEIVE:
    case KYMO_TBAND_QUEUE_RECEIVE_FROM_ISR:
      {
        gboolean from_isr = (event->id - KYMO_TBAND_QUEUE_SEND) & 1;

        queue = get_queue (self, event->v[0].u);
        queue_length (self, queue, ts, event->v[1].u);
        queue_op (self, queue, ts, OP_SEND + (event->id - KYMO_TBAND_QUEUE_SEND), source);
        mutex_update (self, queue, core, from_isr, ts, event->v[1].u, source);
      }
      break;

    case KYMO_TBAND_QUEUE_CUR_LENGTH:
      queue = get_queue (self, event->v[0].u);
      queue_length (self, queue, ts, event->v[1].u);
      mutex_update (self, queue, core, FALSE, ts, event->v[1].u, source);
      break;

    case KYMO_TBAND_TASK_EVTMARKER:
    case KYMO_TBAND_TASK_EVTMARKER_BEGIN:
    case KYMO_TBAND_TASK_EVTMARKER_END:
    case KYMO_TBAND_TASK_VALMARKER:
      task_marker_event (self, core, event, ts, source, offset);
      break;

    default:
      break;
    }
}

/* Out of line: only a damaged stream has its clock go back. */
static G_GNUC_NO_INLINE void
time_goes_back (KymoTbandModel *self,
                Core           *core,
                guint64         ticks,
                guint64         last_ticks,
                KymoTime        ts,
                guint32         source,
                guint64         offset)
{
  _kymo_tband_model_warn_at (self, offset, ts, "timestamp goes back on core %u: %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT,
                             core->id, ticks, last_ticks);
  _kymo_tband_lane_add_instant (self, core_warn_track (self, core), ts,
                                kymo_trace_intern (self->trace, "timestamp goes back"),
                                KYMO_EVENT_WARNING, source);
}

/* What an event with a timestamp does, after the time bookkeeping. */
static inline __attribute__ ((always_inline)) void
timed_dispatch (KymoTbandModel       *self,
                Core                 *core,
                const KymoTbandEvent *event,
                KymoTime              ts,
                guint32               source,
                guint64               offset)
{
  gboolean created;

  if (event->id >= KYMO_TBAND_FIRST_FREERTOS_ID)
    {
      freertos_event (self, core, event, ts, source, offset);
      return;
    }

  switch (event->id)
    {
    case KYMO_TBAND_CORE_ID:
      break;

    case KYMO_TBAND_DROPPED_EVT_CNT:
      {
        guint32 count = event->v[0].u;
        guint32 before = core->has_dropped ? core->dropped : 0;

        if (count > before)
          {
            g_autofree char *name = g_strdup_printf ("%u events dropped", count - before);

            _kymo_tband_lane_add_instant (self, core_warn_track (self, core), ts,
                                          kymo_trace_intern (self->trace, name),
                                          KYMO_EVENT_WARNING, source);
            _kymo_tband_model_warn_at (self, offset, ts, "core %u: %s", core->id, name);
          }
        core->has_dropped = TRUE;
        core->dropped = count;
      }
      break;

    case KYMO_TBAND_ISR_ENTER:
      isr_enter (self, core, event, ts, source, offset);
      break;

    case KYMO_TBAND_ISR_EXIT:
      isr_exit (self, core, event, ts, offset);
      break;

    case KYMO_TBAND_EVTMARKER:
    case KYMO_TBAND_EVTMARKER_BEGIN:
    case KYMO_TBAND_EVTMARKER_END:
      {
        EvtMarker *marker = get_evtmarker (&self->evtmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->marker_list, marker);
        if (marker->track == NULL)
          marker->track = global_marker_track (self, KYMO_TRACK_THREAD, marker->id);
        evtmarker_event (self, marker, event, event->id - KYMO_TBAND_EVTMARKER, ts, source, offset);
      }
      break;

    case KYMO_TBAND_VALMARKER:
      {
        ValMarker *marker = get_valmarker (&self->valmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->valmarker_list, marker);
        if (marker->track == NULL)
          marker->track = global_marker_track (self, KYMO_TRACK_COUNTER, marker->id);
        _kymo_tband_lane_add_sample (self, marker->track, ts, (double) event->v[1].s);
      }
      break;

    default:
      break;
    }
}

/* An event with a timestamp. */
static inline __attribute__ ((always_inline)) void
timed_event (KymoTbandModel       *self,
             Core                 *core,
             const KymoTbandEvent *event,
             guint32               source,
             guint64               offset)
{
  KymoTime ts;

  if (event->id >= KYMO_TBAND_FIRST_FREERTOS_ID)
    self->freertos = TRUE;

  ts = to_ns (self, event->ts, offset);
  self->seen_timed = TRUE;

  if (core->has_ts && event->ts < core->last_ticks)
    time_goes_back (self, core, event->ts, core->last_ticks, ts, source, offset);
  core->has_ts = TRUE;
  core->last_ticks = event->ts;
  core->last_ns = ts;
  if (!self->has_end || ts > self->end)
    {
      self->end = ts;
      self->has_end = TRUE;
    }
  timed_dispatch (self, core, event, ts, source, offset);
}

void
kymo_tband_model_event (KymoTbandModel       *self,
                        guint                 core_id,
                        const KymoTbandEvent *event,
                        guint32               source,
                        guint64               offset)
{
  if (!event->has_ts)
    {
      if (event->id >= KYMO_TBAND_FIRST_FREERTOS_ID)
        self->freertos = TRUE;
      metadata_event (self, event, offset);
      return;
    }
  g_assert (core_id < KYMO_TBAND_MAX_CORES);
  timed_event (self, get_core (self, core_id), event, source, offset);
}

guint
kymo_tband_model_records (KymoTbandModel        *self,
                          const KymoTbandRecord *records,
                          guint                  n,
                          const KymoTbandRun    *run)
{
  KymoTbandEvent event = { 0 };
  guint i;
  Core *core;
  /* What timed_event() keeps up to date for every event is kept here for
   * the run and stored once at its end: nothing the events do in between
   * reads it. */
  guint64 max_ticks = self->max_ticks;
  guint64 resolution = self->resolution;
  guint64 last_ticks, offset_base = run->offset_base;
  guint64 source_base = run->source_base + run->offset_base;
  gboolean has_ts;
  KymoTime last_ns;
  KymoTime end = self->has_end ? self->end : 0;
  guint max_id = 0;

  if (n == 0 || records[0].kind != KYMO_TBAND_RECORD_EVENT)
    return 0;
  g_assert (run->core < KYMO_TBAND_MAX_CORES);
  core = get_core (self, run->core);
  has_ts = core->has_ts;
  last_ticks = core->last_ticks;
  last_ns = core->last_ns;

  /* Most of a stream: one call for a run of them rather than one each. */
  event.has_ts = TRUE;
  for (i = 0; i < n && records[i].kind == KYMO_TBAND_RECORD_EVENT; i++)
    {
      const KymoTbandRecord *r = &records[i];
      guint64 source = source_base + r->at;
      guint32 source32 = source < G_MAXUINT32 ? (guint32) source : KYMO_NO_SOURCE;
      KymoTime ts;

      max_id = MAX (max_id, r->id);
      ts = G_LIKELY (r->ts <= max_ticks) ? (KymoTime) (r->ts * resolution) : to_ns (self, r->ts, offset_base + r->at);
      if (G_UNLIKELY (has_ts && r->ts < last_ticks))
        time_goes_back (self, core, r->ts, last_ticks, ts, source32, offset_base + r->at);
      has_ts = TRUE;
      last_ticks = r->ts;
      last_ns = ts;
      end = MAX (end, ts);

      event.id = r->id;
      event.ts = r->ts;
      event.v[0].u = r->v0;
      event.v[1].u = r->v1;
      timed_dispatch (self, core, &event, ts, source32, offset_base + r->at);
    }
  core->has_ts = has_ts;
  core->last_ticks = last_ticks;
  core->last_ns = last_ns;
  self->seen_timed = TRUE;
  self->end = end;
  self->has_end = TRUE;
  if (max_id >= KYMO_TBAND_FIRST_FREERTOS_ID)
    self->freertos = TRUE;
  return i;
}

void
kymo_tband_model_invalid (KymoTbandModel *self,
                          guint           core_id,
                          guint64         offset,
                          const char     *reason)
{
  Core *core = core_id < self->cores->len ? self->cores->pdata[core_id] : NULL;
  KymoTime ts = core != NULL && core->has_ts ? core->last_ns : KYMO_TIME_NONE;

  _kymo_tband_model_warn_at (self, offset, ts, "invalid frame: %s", reason);
  /* Shown where the stream was when it broke; before any time there is no
   * place on the timeline for it. */
  if (ts != KYMO_TIME_NONE)
    {
      if (self->name_dropped_frame == 0)
        self->name_dropped_frame = kymo_trace_intern (self->trace, "invalid frame");
      _kymo_tband_lane_add_instant (self, core_warn_track (self, core), ts, self->name_dropped_frame,
                                    KYMO_EVENT_WARNING, KYMO_NO_SOURCE);
    }
}
