/* kymo-find-item.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-find"

#include "config.h"

#include "kymo-find-item.h"

struct _KymoFindItem
{
  GObject           parent_instance;

  KymoSearchResult *result;
  guint             position;
};

G_DEFINE_FINAL_TYPE (KymoFindItem, kymo_find_item, G_TYPE_OBJECT)

static void
kymo_find_item_finalize (GObject *object)
{
  KymoFindItem *self = (KymoFindItem *) object;

  g_clear_pointer (&self->result, kymo_search_result_unref);
  G_OBJECT_CLASS (kymo_find_item_parent_class)->finalize (object);
}

static void
kymo_find_item_class_init (KymoFindItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kymo_find_item_finalize;
}

static void
kymo_find_item_init (KymoFindItem *self)
{
}

KymoFindItem *
kymo_find_item_new (KymoSearchResult *result,
                    guint             position)
{
  KymoFindItem *self;

  g_return_val_if_fail (result != NULL, NULL);
  g_return_val_if_fail (position < kymo_search_result_get_n_hits (result), NULL);

  self = g_object_new (KYMO_TYPE_FIND_ITEM, NULL);
  self->result = kymo_search_result_ref (result);
  self->position = position;
  return self;
}

static const KymoSearchHit *
get_hit (KymoFindItem *self)
{
  gsize n;

  return &kymo_search_result_get_hits (self->result, &n)[self->position];
}

guint
kymo_find_item_get_position (KymoFindItem *self)
{
  g_return_val_if_fail (KYMO_IS_FIND_ITEM (self), 0);

  return self->position;
}

const char *
kymo_find_item_get_name (KymoFindItem *self)
{
  KymoTrace *trace;

  g_return_val_if_fail (KYMO_IS_FIND_ITEM (self), NULL);

  trace = kymo_search_result_get_trace (self->result);
  return kymo_trace_get_name (trace, kymo_search_hit_get_name (trace, get_hit (self)));
}

const char *
kymo_find_item_get_track (KymoFindItem *self)
{
  KymoTrace *trace;

  g_return_val_if_fail (KYMO_IS_FIND_ITEM (self), NULL);

  trace = kymo_search_result_get_trace (self->result);
  return kymo_track_get_name (kymo_trace_get_track (trace, get_hit (self)->track));
}

gint64
kymo_find_item_get_start (KymoFindItem *self)
{
  KymoTrace *trace;
  KymoTime start, end, origin;

  g_return_val_if_fail (KYMO_IS_FIND_ITEM (self), 0);

  trace = kymo_search_result_get_trace (self->result);
  kymo_search_hit_get_times (trace, get_hit (self), &start, &end);
  kymo_trace_get_time_range (trace, &origin, NULL);
  return origin == KYMO_TIME_NONE ? start : start - origin;
}

gint64
kymo_find_item_get_duration (KymoFindItem *self)
{
  KymoTime start, end;

  g_return_val_if_fail (KYMO_IS_FIND_ITEM (self), 0);

  kymo_search_hit_get_times (kymo_search_result_get_trace (self->result), get_hit (self), &start, &end);
  return end - start;
}
