/* kymo-track-row.h: one track as an item of the thread list
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_TRACK_ROW (kymo_track_row_get_type ())

G_DECLARE_FINAL_TYPE (KymoTrackRow, kymo_track_row, KYMO, TRACK_ROW, GObject)

/* Made only when the list shows the row; visible and pinned live in @session. */
KymoTrackRow *kymo_track_row_new          (KymoSession  *session,
                                           guint         track,
                                           guint         indent);
guint         kymo_track_row_get_track    (KymoTrackRow *self);
guint         kymo_track_row_get_indent   (KymoTrackRow *self);
const char   *kymo_track_row_get_name     (KymoTrackRow *self);
guint64       kymo_track_row_get_n_events (KymoTrackRow *self);
gboolean      kymo_track_row_get_visible  (KymoTrackRow *self);
void          kymo_track_row_set_visible  (KymoTrackRow *self,
                                           gboolean      visible);
gboolean      kymo_track_row_get_pinned   (KymoTrackRow *self);
void          kymo_track_row_set_pinned   (KymoTrackRow *self,
                                           gboolean      pinned);
/* The name, and for a Tokio worker its on-CPU share once known. */
char         *kymo_track_row_dup_tooltip   (KymoTrackRow *self);
gboolean      kymo_track_row_get_is_group  (KymoTrackRow *self);
gboolean      kymo_track_row_get_collapsed (KymoTrackRow *self);
void          kymo_track_row_set_collapsed (KymoTrackRow *self,
                                            gboolean      collapsed);
/* Re-reads the session's state and notifies what changed. */
void          kymo_track_row_sync         (KymoTrackRow *self);

G_END_DECLS
