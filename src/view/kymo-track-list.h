/* kymo-track-list.h: the thread list beside the timeline
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_TRACK_LIST (kymo_track_list_get_type ())

G_DECLARE_FINAL_TYPE (KymoTrackList, kymo_track_list, KYMO, TRACK_LIST, GtkWidget)

GtkWidget  *kymo_track_list_new        (KymoSession   *session);
GListModel *kymo_track_list_get_model  (KymoTrackList *self);
GtkEditable *kymo_track_list_get_search_entry (KymoTrackList *self);

G_END_DECLS
