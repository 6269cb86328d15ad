/* kymo-tband-model-finish.c: the end of a Tonbandgerät load: what is still
 * open is closed at the last time seen, the tracks get their names, and the
 * lanes hand their events over
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-model-private.h"

static void
set_track_name (KymoTrace  *trace,
                Lane       *lane,
                const char *name,
                const char *fallback,
                guint32     id)
{
  if (lane == NULL)
    return;
  if (name != NULL && name[0] != '\0')
    kymo_track_set_name (lane->track, name);
  else
    {
      g_autofree char *text = g_strdup_printf ("%s #%u", fallback, id);
      kymo_track_set_name (lane->track, text);
    }
}

/* The FreeRTOS port can name a task's markers before the task has its id
 * (the sample names them for task 0, which never runs). A marker left
 * without a name takes the one such a task holds for the same marker id. */
static const char *
orphan_marker_name (KymoTbandModel *self,
                    gboolean        value,
                    guint32         id)
{
  const char *found = NULL;

  for (guint i = 0; i < self->task_list->len; i++)
    {
      Task *task = self->task_list->pdata[i];
      const char *name = NULL;

      if (task->group != KYMO_NO_TRACK)
        continue;
      if (value)
        {
          ValMarker *marker = _kymo_tband_idmap_get (&task->valmarkers, id);
          name = marker ? marker->name : NULL;
        }
      else
        {
          EvtMarker *marker = _kymo_tband_idmap_get (&task->evtmarkers, id);
          name = marker ? marker->name : NULL;
        }
      if (name == NULL)
        continue;
      if (found != NULL && !g_str_equal (found, name))
        return NULL;
      found = name;
    }
  return found;
}

static void
name_task_marker (KymoTbandModel *self,
                  Lane           *track,
                  const char     *name,
                  gboolean        value,
                  guint32         id)
{
  if (track == NULL)
    return;
  if (name == NULL)
    name = orphan_marker_name (self, value, id);
  set_track_name (self->trace, track, name, value ? "Value marker" : "Marker", id);
}

static void
finish_task (KymoTbandModel *self,
             Task           *task,
             KymoTime        end)
{
  KymoTrack *group;
  g_autofree char *label = NULL;
  char buf[32];

  if (task->group == KYMO_NO_TRACK)
    return;

  if (task->state != STATE_NONE && task->state != STATE_DELETED)
    _kymo_tband_lane_add_span (self, task->state_track, task->state_start, MAX (end, task->state_start),
                               self->name_running[task->state], 0,
                               KYMO_EVENT_STATE | KYMO_EVENT_INCOMPLETE, task->state_source);

  group = kymo_trace_get_track (self->trace, task->group);
  if (task->kind == 1)
    label = g_strdup_printf ("%s (idle task, core %u)", _kymo_tband_task_display_name (task, buf), task->idle_core);
  else if (task->kind == 2)
    label = g_strdup_printf ("%s (timer task)", _kymo_tband_task_display_name (task, buf));
  else
    label = g_strdup (_kymo_tband_task_display_name (task, buf));
  kymo_track_set_name (group, label);
  /* Highest priority first, as in SystemView; unknown ones after, idle
   * tasks last. */
  if (task->kind == 1)
    kymo_track_set_sort_key (group, SORT_TASKS + ((gint64) 1 << 33));
  else if (task->has_priority)
    kymo_track_set_sort_key (group, SORT_TASKS + G_MAXUINT32 - (gint64) task->priority);
  else
    kymo_track_set_sort_key (group, SORT_TASKS + (gint64) G_MAXUINT32 + 1);

  for (guint i = 0; i < task->evtmarkers.dense->len; i++)
    {
      EvtMarker *marker = task->evtmarkers.dense->pdata[i];

      if (marker == NULL)
        continue;
      _kymo_tband_evtmarker_close (self, marker, end);
      name_task_marker (self, marker->track, marker->name, FALSE, marker->id);
    }
  for (guint i = 0; i < task->valmarkers.dense->len; i++)
    {
      ValMarker *marker = task->valmarkers.dense->pdata[i];

      if (marker != NULL)
        name_task_marker (self, marker->track, marker->name, TRUE, marker->id);
    }
  if (task->evtmarkers.sparse || task->valmarkers.sparse)
    {
      GHashTableIter iter;
      gpointer value;

      if (task->evtmarkers.sparse)
        {
          g_hash_table_iter_init (&iter, task->evtmarkers.sparse);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            {
              EvtMarker *marker = value;

              _kymo_tband_evtmarker_close (self, marker, end);
              name_task_marker (self, marker->track, marker->name, FALSE, marker->id);
            }
        }
      if (task->valmarkers.sparse)
        {
          g_hash_table_iter_init (&iter, task->valmarkers.sparse);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            {
              ValMarker *marker = value;

              name_task_marker (self, marker->track, marker->name, TRUE, marker->id);
            }
        }
    }
}

void
kymo_tband_model_finish (KymoTbandModel *self)
{
  KymoTime end = self->has_end ? self->end : 0;

  for (guint i = 0; i < self->cores->len; i++)
    {
      Core *core = self->cores->pdata[i];

      if (core == NULL)
        continue;
      if (core->current != NULL)
        _kymo_tband_core_switch_out (self, core, MAX (end, core->run_start), KYMO_EVENT_INCOMPLETE);
      for (guint d = 0; d < core->isr_stack.len; d++)
        {
          OpenIsr *open = &core->isr_stack.items[d];

          _kymo_tband_lane_add_span (self, core->isr, open->start, MAX (end, open->start), open->name, d,
                                     KYMO_EVENT_INCOMPLETE, open->source);
        }
      core->isr_stack.len = 0;
    }

  for (guint i = 0; i < self->task_list->len; i++)
    finish_task (self, self->task_list->pdata[i], end);

  for (guint i = 0; i < self->queue_list->len; i++)
    {
      Queue *queue = self->queue_list->pdata[i];
      const char *kind = _kymo_tband_queue_kind_name (queue->kind);
      g_autofree char *label = NULL;

      if (queue->group == KYMO_NO_TRACK)
        continue;
      if (queue->taken)
        _kymo_tband_mutex_release (self, queue, MAX (end, queue->taken_at), KYMO_EVENT_INCOMPLETE);
      if (queue->name != NULL && queue->name[0] != '\0')
        label = kind ? g_strdup_printf ("%s (%s)", queue->name, kind) : g_strdup (queue->name);
      else
        label = g_strdup_printf ("%s #%u", kind ? kind : "queue", queue->id);
      kymo_track_set_name (kymo_trace_get_track (self->trace, queue->group), label);
    }

  for (guint i = 0; i < self->marker_list->len; i++)
    {
      EvtMarker *marker = self->marker_list->pdata[i];

      _kymo_tband_evtmarker_close (self, marker, end);
      set_track_name (self->trace, marker->track, marker->name, "Marker", marker->id);
    }
  for (guint i = 0; i < self->valmarker_list->len; i++)
    {
      ValMarker *marker = self->valmarker_list->pdata[i];

      set_track_name (self->trace, marker->track, marker->name, "Value marker", marker->id);
    }

  /* Everything is added: hand over what the lanes hold. */
  for (guint i = 0; i < self->lanes->len; i++)
    _kymo_tband_lane_flush (self->lanes->pdata[i]);

  if (self->seen_timed && !self->has_resolution)
    kymo_tband_model_warn (self, KYMO_NO_OFFSET, "no ts_resolution_ns event: one tick is taken as 1 ns");
  if (self->n_dropped_warnings > 0)
    kymo_trace_add_warning (self->trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                            "%u more warnings not listed", self->n_dropped_warnings);
}
