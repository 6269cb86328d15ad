/* kymo-trace-view.h: everything shown for one loaded trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo.h"
#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_TRACE_VIEW (kymo_trace_view_get_type ())

G_DECLARE_FINAL_TYPE (KymoTraceView, kymo_trace_view, KYMO, TRACE_VIEW, GtkWidget)

GtkWidget   *kymo_trace_view_new          (KymoTrace     *trace);
KymoTrace   *kymo_trace_view_get_trace    (KymoTraceView *self);
/* The view state every part of this view binds to. */
KymoSession *kymo_trace_view_get_session  (KymoTraceView *self);
GtkWidget   *kymo_trace_view_get_timeline (KymoTraceView *self);
GtkWidget   *kymo_trace_view_get_track_list (KymoTraceView *self);
/* The find bar over the timeline (Ctrl+F). */
GtkWidget   *kymo_trace_view_get_search_bar (KymoTraceView *self);
/* The pane under the timeline (the details pane); NULL removes it. */
void         kymo_trace_view_set_details  (KymoTraceView *self,
                                           GtkWidget     *details);
GtkWidget   *kymo_trace_view_get_details  (KymoTraceView *self);

/* The bottom area (details, zones, flame graph…): F9 toggles it. */
gboolean     kymo_trace_view_get_bottom_visible (KymoTraceView *self);
void         kymo_trace_view_set_bottom_visible (KymoTraceView *self,
                                                 gboolean       visible);

G_END_DECLS
