/* kymo-track-list-model.h: every track of a trace as a GListModel
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "kymo-session.h"
#include "kymo-track-row.h"

G_BEGIN_DECLS

#define KYMO_TYPE_TRACK_LIST_MODEL (kymo_track_list_model_get_type ())

G_DECLARE_FINAL_TYPE (KymoTrackListModel, kymo_track_list_model, KYMO, TRACK_LIST_MODEL, GObject)

/* Tracks in tree order, pinned ones first, narrowed by the session's filter.
 * A KymoTrackRow is made only when asked for. */
KymoTrackListModel *kymo_track_list_model_new       (KymoSession        *session);
guint               kymo_track_list_model_get_track (KymoTrackListModel *self,
                                                     guint               position);

G_END_DECLS
