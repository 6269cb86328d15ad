/* kymo-instant-list-model.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include "kymo-instant-list-model.h"
#include "kymo-event-item.h"

struct _KymoInstantListModel
{
  GObject    parent_instance;

  KymoTrace *trace;
  guint      track;
};

static GType
kymo_instant_list_model_get_item_type (GListModel *model)
{
  return KYMO_TYPE_EVENT_ITEM;
}

static guint
kymo_instant_list_model_get_n_items (GListModel *model)
{
  KymoInstantListModel *self = KYMO_INSTANT_LIST_MODEL (model);
  gsize n;

  kymo_track_get_instants (kymo_trace_get_track (self->trace, self->track), &n);
  return (guint) MIN (n, G_MAXUINT);
}

static gpointer
kymo_instant_list_model_get_item (GListModel *model,
                                  guint       position)
{
  KymoInstantListModel *self = KYMO_INSTANT_LIST_MODEL (model);
  const KymoInstant *instants;
  KymoEventRef ref;
  gsize n;

  instants = kymo_track_get_instants (kymo_trace_get_track (self->trace, self->track), &n);
  if (position >= n)
    return NULL;
  ref.track = self->track;
  ref.kind = KYMO_EVENT_KIND_INSTANT;
  ref.index = position;
  return kymo_event_item_new (&ref, instants[position].ts, instants[position].ts,
                              kymo_trace_get_name (self->trace, instants[position].name_flags & KYMO_NAME_MAX),
                              instants[position].name_flags >> 24);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = kymo_instant_list_model_get_item_type;
  iface->get_n_items = kymo_instant_list_model_get_n_items;
  iface->get_item = kymo_instant_list_model_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (KymoInstantListModel, kymo_instant_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static void
kymo_instant_list_model_finalize (GObject *object)
{
  KymoInstantListModel *self = (KymoInstantListModel *) object;

  g_clear_object (&self->trace);
  G_OBJECT_CLASS (kymo_instant_list_model_parent_class)->finalize (object);
}

static void
kymo_instant_list_model_class_init (KymoInstantListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kymo_instant_list_model_finalize;
}

static void
kymo_instant_list_model_init (KymoInstantListModel *self)
{
}

KymoInstantListModel *
kymo_instant_list_model_new (KymoTrace *trace,
                             guint      track)
{
  KymoInstantListModel *self;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (kymo_trace_is_sealed (trace), NULL);
  g_return_val_if_fail (track < kymo_trace_get_n_tracks (trace), NULL);

  self = g_object_new (KYMO_TYPE_INSTANT_LIST_MODEL, NULL);
  self->trace = g_object_ref (trace);
  self->track = track;
  return self;
}

guint
kymo_instant_list_model_get_track (KymoInstantListModel *self)
{
  g_return_val_if_fail (KYMO_IS_INSTANT_LIST_MODEL (self), KYMO_NO_TRACK);

  return self->track;
}
