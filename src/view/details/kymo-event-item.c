/* kymo-event-item.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include "kymo-event-item.h"

struct _KymoEventItem
{
  GObject       parent_instance;

  KymoEventRef  ref;
  KymoTime      start;
  KymoTime      end;
  char         *name;
  guint         flags;
};

G_DEFINE_FINAL_TYPE (KymoEventItem, kymo_event_item, G_TYPE_OBJECT)

static void
kymo_event_item_finalize (GObject *object)
{
  KymoEventItem *self = (KymoEventItem *) object;

  g_free (self->name);
  G_OBJECT_CLASS (kymo_event_item_parent_class)->finalize (object);
}

static void
kymo_event_item_class_init (KymoEventItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kymo_event_item_finalize;
}

static void
kymo_event_item_init (KymoEventItem *self)
{
}

KymoEventItem *
kymo_event_item_new (const KymoEventRef *ref,
                     KymoTime            start,
                     KymoTime            end,
                     const char         *name,
                     guint               flags)
{
  KymoEventItem *self;

  g_return_val_if_fail (ref != NULL, NULL);

  self = g_object_new (KYMO_TYPE_EVENT_ITEM, NULL);
  self->ref = *ref;
  self->start = start;
  self->end = end;
  self->name = g_strdup (name);
  self->flags = flags;
  return self;
}

const KymoEventRef *
kymo_event_item_get_ref (KymoEventItem *self)
{
  g_return_val_if_fail (KYMO_IS_EVENT_ITEM (self), NULL);

  return &self->ref;
}

KymoTime
kymo_event_item_get_start (KymoEventItem *self)
{
  g_return_val_if_fail (KYMO_IS_EVENT_ITEM (self), KYMO_TIME_NONE);

  return self->start;
}

KymoTime
kymo_event_item_get_end (KymoEventItem *self)
{
  g_return_val_if_fail (KYMO_IS_EVENT_ITEM (self), KYMO_TIME_NONE);

  return self->end;
}

const char *
kymo_event_item_get_name (KymoEventItem *self)
{
  g_return_val_if_fail (KYMO_IS_EVENT_ITEM (self), NULL);

  return self->name;
}

guint
kymo_event_item_get_flags (KymoEventItem *self)
{
  g_return_val_if_fail (KYMO_IS_EVENT_ITEM (self), 0);

  return self->flags;
}
