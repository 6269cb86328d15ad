/* kymo-tband-model-queues.c: the Tonbandgerät queues and mutexes, and their tracks
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-model-private.h"

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

G_GNUC_NO_INLINE Queue *
_kymo_tband_find_queue (KymoTbandModel *self,
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

G_GNUC_NO_INLINE void
_kymo_tband_queue_add_tracks (KymoTbandModel *self,
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
G_GNUC_NO_INLINE void
_kymo_tband_mutex_take_or_give (KymoTbandModel *self,
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
    queue->taken_name = _kymo_tband_task_taken_name (self, queue->holder);
  else
    queue->taken_name = kymo_trace_intern (self->trace, from_isr ? "taken by an ISR" : "taken");
}
