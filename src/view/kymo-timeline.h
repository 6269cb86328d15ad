/* kymo-timeline.h: the time ruler and the tracks, sharing one time axis
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"
#include "kymo-timeline-renderer.h"

G_BEGIN_DECLS

#define KYMO_TYPE_TIMELINE (kymo_timeline_get_type ())

G_DECLARE_FINAL_TYPE (KymoTimeline, kymo_timeline, KYMO, TIMELINE, GtkWidget)

GtkWidget            *kymo_timeline_new              (KymoSession  *session);
KymoSession          *kymo_timeline_get_session      (KymoTimeline *self);
/* Vertical scrolling through the rows (pair it with a GtkScrollbar). */
GtkAdjustment        *kymo_timeline_get_vadjustment  (KymoTimeline *self);
/* Counters of the last frame drawn. */
const KymoTimelineStats *kymo_timeline_get_stats     (KymoTimeline *self);
/* Tooltip text for the event under (@x, @y), or NULL. */
char                 *kymo_timeline_describe_at      (KymoTimeline *self,
                                                      double        x,
                                                      double        y);

G_END_DECLS
