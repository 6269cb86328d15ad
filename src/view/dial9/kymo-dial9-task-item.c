/* kymo-dial9-task-item.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9"

#include "config.h"

#include "kymo-dial9-task-item.h"

/* A copy of the row: the item outlives a recomputed analysis. Its spawn
 * location is read from the trace when shown (or sorted on), not made for
 * every row up front. */
struct _KymoDial9TaskItem
{
  GObject        parent_instance;

  KymoTrace     *trace;
  KymoDial9Task  task;
  guint          row;
  char          *valid_loc; /* only for a location that is not UTF-8 */
};

G_DEFINE_FINAL_TYPE (KymoDial9TaskItem, kymo_dial9_task_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TASK_ID,
  PROP_SPAWN_LOC,
  PROP_POLLS,
  PROP_POLL_TOTAL,
  PROP_POLL_MAX,
  PROP_WAKES,
  PROP_SPAWNED,
  PROP_TERMINATED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

KymoDial9TaskItem *
kymo_dial9_task_item_new (KymoDial9Tasks *tasks,
                          guint           row)
{
  KymoDial9TaskItem *self;
  const KymoDial9Task *rows;
  gsize n;

  g_return_val_if_fail (tasks != NULL, NULL);
  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  g_return_val_if_fail (row < n, NULL);

  self = g_object_new (KYMO_TYPE_DIAL9_TASK_ITEM, NULL);
  self->trace = g_object_ref (kymo_dial9_tasks_get_trace (tasks));
  self->task = rows[row];
  self->row = row;
  return self;
}

guint
kymo_dial9_task_item_get_row (KymoDial9TaskItem *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_TASK_ITEM (self), 0);
  return self->row;
}

const KymoDial9Task *
kymo_dial9_task_item_get_task (KymoDial9TaskItem *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_TASK_ITEM (self), NULL);
  return &self->task;
}

const char *
kymo_dial9_task_item_get_spawn_loc (KymoDial9TaskItem *self)
{
  const char *loc;

  g_return_val_if_fail (KYMO_IS_DIAL9_TASK_ITEM (self), "");

  if (self->valid_loc != NULL)
    return self->valid_loc;
  loc = kymo_short_path (kymo_trace_get_name (self->trace, self->task.spawn_loc));
  if (g_utf8_validate (loc, -1, NULL))
    return loc;
  self->valid_loc = g_utf8_make_valid (loc, -1);
  return self->valid_loc;
}

static void
kymo_dial9_task_item_finalize (GObject *object)
{
  KymoDial9TaskItem *self = (KymoDial9TaskItem *) object;

  g_free (self->valid_loc);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (kymo_dial9_task_item_parent_class)->finalize (object);
}

static void
kymo_dial9_task_item_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  KymoDial9TaskItem *self = KYMO_DIAL9_TASK_ITEM (object);

  switch (prop_id)
    {
    case PROP_TASK_ID:
      g_value_set_uint64 (value, self->task.task_id);
      break;
    case PROP_SPAWN_LOC:
      g_value_set_string (value, kymo_dial9_task_item_get_spawn_loc (self));
      break;
    case PROP_POLLS:
      g_value_set_uint64 (value, self->task.polls);
      break;
    case PROP_POLL_TOTAL:
      g_value_set_int64 (value, self->task.poll_total);
      break;
    case PROP_POLL_MAX:
      g_value_set_int64 (value, self->task.poll_max);
      break;
    case PROP_WAKES:
      g_value_set_uint64 (value, self->task.wakes);
      break;
    case PROP_SPAWNED:
      g_value_set_int64 (value, self->task.spawned);
      break;
    case PROP_TERMINATED:
      g_value_set_int64 (value, self->task.terminated);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_dial9_task_item_class_init (KymoDial9TaskItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_dial9_task_item_finalize;
  object_class->get_property = kymo_dial9_task_item_get_property;

  properties[PROP_TASK_ID] =
    g_param_spec_uint64 ("task-id", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPAWN_LOC] =
    g_param_spec_string ("spawn-loc", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_POLLS] =
    g_param_spec_uint64 ("polls", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_POLL_TOTAL] =
    g_param_spec_int64 ("poll-total", NULL, NULL, G_MININT64, G_MAXINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_POLL_MAX] =
    g_param_spec_int64 ("poll-max", NULL, NULL, G_MININT64, G_MAXINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_WAKES] =
    g_param_spec_uint64 ("wakes", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SPAWNED] =
    g_param_spec_int64 ("spawned", NULL, NULL, G_MININT64, G_MAXINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TERMINATED] =
    g_param_spec_int64 ("terminated", NULL, NULL, G_MININT64, G_MAXINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_dial9_task_item_init (KymoDial9TaskItem *self)
{
}
