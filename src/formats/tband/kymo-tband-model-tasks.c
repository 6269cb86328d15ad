/* kymo-tband-model-tasks.c: the Tonbandgerät cores and tasks as events find them, and their tracks
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-model-private.h"

/* Room for one more item in a stack of @size-byte items. */
G_GNUC_NO_INLINE gpointer
_kymo_tband_stack_grow (gpointer  items,
                        guint    *room,
                        gsize     size)
{
  *room = MAX (*room * 2, 8);
  return g_realloc_n (items, *room, size);
}

/* Cores */

Core *
_kymo_tband_add_core (KymoTbandModel *self,
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

G_GNUC_NO_INLINE void
_kymo_tband_core_add_child (KymoTbandModel  *self,
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

Lane *
_kymo_tband_core_warn_track (KymoTbandModel *self,
                             Core           *core)
{
  return _kymo_tband_core_child (self, core, &core->warn, KYMO_TRACK_INSTANT, "Warnings", 2);
}

/* Tasks */

G_GNUC_NO_INLINE Task *
_kymo_tband_find_task (KymoTbandModel *self,
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

G_GNUC_NO_INLINE void
_kymo_tband_task_add_group (KymoTbandModel *self,
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

Lane *
_kymo_tband_task_child (KymoTbandModel *self,
                        Task           *task,
                        KymoTrackKind   kind,
                        const char     *name)
{
  KymoTrack *track;

  track = kymo_trace_get_track (self->trace,
                                kymo_trace_add_track (self->trace, _kymo_tband_task_group (self, task), kind, name));
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


guint32
_kymo_tband_task_taken_name (KymoTbandModel *self,
                             Task           *task)
{
  if (task->cpu_name_stale)
    _kymo_tband_task_intern_names (self, task);
  return task->taken_name;
}


Task *
_kymo_tband_current_task (KymoTbandModel       *self,
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
      _kymo_tband_lane_add_instant (self, _kymo_tband_core_warn_track (self, core), ts, self->name_no_task,
                                    KYMO_EVENT_WARNING, KYMO_NO_SOURCE);
    }
  return core->current;
}
