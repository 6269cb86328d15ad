/* kymo-instant-list-model.h: the instants of one track as a lazy GListModel
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "kymo.h"

G_BEGIN_DECLS

#define KYMO_TYPE_INSTANT_LIST_MODEL (kymo_instant_list_model_get_type ())

G_DECLARE_FINAL_TYPE (KymoInstantListModel, kymo_instant_list_model, KYMO, INSTANT_LIST_MODEL, GObject)

/* Items are KymoEventItems made when a view asks for them, in time order;
 * position i is the instant of index i (KymoEventRef.index). */
KymoInstantListModel *kymo_instant_list_model_new       (KymoTrace            *trace,
                                                         guint                 track);
guint                 kymo_instant_list_model_get_track (KymoInstantListModel *self);

G_END_DECLS
