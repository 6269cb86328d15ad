/* kymo-tband-model-events.c: what each Tonbandgerät event does to the model
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-model-private.h"

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
        EvtMarker *marker = _kymo_tband_get_evtmarker (&self->evtmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->marker_list, marker);
        name_replace (&marker->name, event->str, event->str_len);
        marker->name_id = 0;
      }
      break;

    case KYMO_TBAND_VALMARKER_NAME:
      {
        ValMarker *marker = _kymo_tband_get_valmarker (&self->valmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->valmarker_list, marker);
        name_replace (&marker->name, event->str, event->str_len);
      }
      break;

    case KYMO_TBAND_TASK_NAME:
      {
        Task *task = _kymo_tband_get_task (self, event->v[0].u);

        name_replace (&task->name, event->str, event->str_len);
        task->cpu_name_stale = TRUE;
      }
      break;

    case KYMO_TBAND_TASK_IS_IDLE_TASK:
      {
        Task *task = _kymo_tband_get_task (self, event->v[0].u);

        task->kind = 1;
        task->idle_core = event->v[1].u;
      }
      break;

    case KYMO_TBAND_TASK_IS_TIMER_TASK:
      _kymo_tband_get_task (self, event->v[0].u)->kind = 2;
      break;

    case KYMO_TBAND_QUEUE_NAME:
      name_replace (&_kymo_tband_get_queue (self, event->v[0].u)->name, event->str, event->str_len);
      break;

    case KYMO_TBAND_QUEUE_KIND:
      _kymo_tband_get_queue (self, event->v[0].u)->kind = (int) event->v[1].u;
      break;

    case KYMO_TBAND_TASK_EVTMARKER_NAME:
      {
        Task *task = _kymo_tband_get_task (self, event->v[1].u);
        EvtMarker *marker = _kymo_tband_get_evtmarker (&task->evtmarkers, event->v[0].u, &created);

        name_replace (&marker->name, event->str, event->str_len);
        marker->name_id = 0;
      }
      break;

    case KYMO_TBAND_TASK_VALMARKER_NAME:
      {
        Task *task = _kymo_tband_get_task (self, event->v[1].u);
        ValMarker *marker = _kymo_tband_get_valmarker (&task->valmarkers, event->v[0].u, &created);

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

  _kymo_tband_core_child (self, core, &core->isr, KYMO_TRACK_THREAD, "ISRs", 0);
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
    core->isr_stack.items = _kymo_tband_stack_grow (core->isr_stack.items, &core->isr_stack.room, sizeof (OpenIsr));
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
  Task *task = _kymo_tband_current_task (self, core, event, ts, offset);
  gboolean created;

  if (task == NULL)
    return;

  if (event->id == KYMO_TBAND_TASK_VALMARKER)
    {
      ValMarker *marker = _kymo_tband_get_valmarker (&task->valmarkers, event->v[0].u, &created);

      if (marker->track == NULL)
        marker->track = _kymo_tband_task_child (self, task, KYMO_TRACK_COUNTER, "Value marker");
      _kymo_tband_lane_add_sample (self, marker->track, ts, (double) event->v[1].s);
    }
  else
    {
      EvtMarker *marker = _kymo_tband_get_evtmarker (&task->evtmarkers, event->v[0].u, &created);

      if (marker->track == NULL)
        marker->track = _kymo_tband_task_child (self, task, KYMO_TRACK_THREAD, "Marker");
      _kymo_tband_evtmarker_event (self, marker, event,
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
      task = _kymo_tband_get_task (self, event->v[0].u);
      _kymo_tband_core_child (self, core, &core->cpu, KYMO_TRACK_THREAD, "CPU", 1);
      if (core->current != NULL)
        {
          Task *previous = core->current;

          _kymo_tband_core_switch_out (self, core, ts, 0);
          _kymo_tband_task_set_state (self, previous, ts, previous->out_state, previous->out_source);
        }
      /* On SMP a task can move cores: it left the other one. */
      if (_kymo_tband_task_is_running (task))
        {
          Core *other = _kymo_tband_get_core (self, task->running_core);

          _kymo_tband_core_switch_out (self, other, ts, 0);
        }
      task->out_state = STATE_READY;
      task->out_source = source;
      _kymo_tband_task_set_state (self, task, ts, STATE_RUNNING, source);
      task->running_core = core->id;
      core->current = task;
      core->run_start = ts;
      core->run_source = source;
      break;

    case KYMO_TBAND_TASK_TO_RDY_STATE:
    case KYMO_TBAND_TASK_RESUMED:
    case KYMO_TBAND_TASK_RESUMED_FROM_ISR:
      task = _kymo_tband_get_task (self, event->v[0].u);
      if (!_kymo_tband_task_is_running (task))
        _kymo_tband_task_set_state (self, task, ts, STATE_READY, source);
      break;

    case KYMO_TBAND_TASK_SUSPENDED:
    case KYMO_TBAND_TASK_DELETED:
      {
        TaskState state = event->id == KYMO_TBAND_TASK_SUSPENDED ? STATE_SUSPENDED : STATE_DELETED;

        task = _kymo_tband_get_task (self, event->v[0].u);
        if (_kymo_tband_task_is_running (task))
          {
            task->out_state = state;
            task->out_source = source;
          }
        else
          _kymo_tband_task_set_state (self, task, ts, state, source);
      }
      break;

    case KYMO_TBAND_CURTASK_DELAY:
    case KYMO_TBAND_CURTASK_DELAY_UNTIL:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_SEND:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_RECEIVE:
      task = _kymo_tband_current_task (self, core, event, ts, offset);
      if (task != NULL)
        {
          task->out_state = event->id <= KYMO_TBAND_CURTASK_DELAY_UNTIL ? STATE_DELAYED : STATE_BLOCKED;
          task->out_source = source;
        }
      if (event->id >= KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK)
        _kymo_tband_queue_op (self, _kymo_tband_get_queue (self, event->v[0].u), ts,
                  OP_BLOCK_PEEK + (event->id - KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK), source);
      break;

    case KYMO_TBAND_TASK_PRIORITY_SET:
    case KYMO_TBAND_TASK_PRIORITY_INHERIT:
    case KYMO_TBAND_TASK_PRIORITY_DISINHERIT:
      task = _kymo_tband_get_task (self, event->v[0].u);
      if (task->prio_track == NULL)
        {
          task->prio_track = _kymo_tband_task_child (self, task, KYMO_TRACK_COUNTER, "Priority");
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
      _kymo_tband_task_group (self, _kymo_tband_get_task (self, event->v[0].u));
      break;

    case KYMO_TBAND_QUEUE_CREATED:
      _kymo_tband_queue_length (self, _kymo_tband_get_queue (self, event->v[0].u), ts, 0);
      _kymo_tband_queue_op (self, _kymo_tband_get_queue (self, event->v[0].u), ts, OP_CREATED, source);
      break;

    case KYMO_TBAND_QUEUE_RESET:
      queue = _kymo_tband_get_queue (self, event->v[0].u);
      _kymo_tband_queue_length (self, queue, ts, 0);
      _kymo_tband_queue_op (self, queue, ts, OP_RESET, source);
      break;

    case KYMO_TBAND_QUEUE_SEND:
    case KYMO_TBAND_QUEUE_SEND_FROM_ISR:
    case KYMO_TBAND_QUEUE_OVERWRITE:
    case KYMO_TBAND_QUEUE_OVERWRITE_FROM_ISR:
    case KYMO_TBAND_QUEUE_RECEIVE:
    case KYMO_TBAND_QUEUE_RECEIVE_FROM_ISR:
      {
        gboolean from_isr = (event->id - KYMO_TBAND_QUEUE_SEND) & 1;

        queue = _kymo_tband_get_queue (self, event->v[0].u);
        _kymo_tband_queue_length (self, queue, ts, event->v[1].u);
        _kymo_tband_queue_op (self, queue, ts, OP_SEND + (event->id - KYMO_TBAND_QUEUE_SEND), source);
        _kymo_tband_mutex_update (self, queue, core, from_isr, ts, event->v[1].u, source);
      }
      break;

    case KYMO_TBAND_QUEUE_CUR_LENGTH:
      queue = _kymo_tband_get_queue (self, event->v[0].u);
      _kymo_tband_queue_length (self, queue, ts, event->v[1].u);
      _kymo_tband_mutex_update (self, queue, core, FALSE, ts, event->v[1].u, source);
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
  _kymo_tband_lane_add_instant (self, _kymo_tband_core_warn_track (self, core), ts,
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

            _kymo_tband_lane_add_instant (self, _kymo_tband_core_warn_track (self, core), ts,
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
        EvtMarker *marker = _kymo_tband_get_evtmarker (&self->evtmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->marker_list, marker);
        if (marker->track == NULL)
          marker->track = _kymo_tband_global_marker_track (self, KYMO_TRACK_THREAD, marker->id);
        _kymo_tband_evtmarker_event (self, marker, event, event->id - KYMO_TBAND_EVTMARKER, ts, source, offset);
      }
      break;

    case KYMO_TBAND_VALMARKER:
      {
        ValMarker *marker = _kymo_tband_get_valmarker (&self->valmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->valmarker_list, marker);
        if (marker->track == NULL)
          marker->track = _kymo_tband_global_marker_track (self, KYMO_TRACK_COUNTER, marker->id);
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
  timed_event (self, _kymo_tband_get_core (self, core_id), event, source, offset);
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
  core = _kymo_tband_get_core (self, run->core);
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
      _kymo_tband_lane_add_instant (self, _kymo_tband_core_warn_track (self, core), ts, self->name_dropped_frame,
                                    KYMO_EVENT_WARNING, KYMO_NO_SOURCE);
    }
}
