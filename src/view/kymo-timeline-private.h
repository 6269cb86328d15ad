/* kymo-timeline-private.h: the timeline widget's state, shared by the files
 * of the widget (kymo-timeline.c: drawing and the session; -input.c:
 * pointer, touch and keys; -describe.c: what is under the pointer)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-timeline.h"
#include "kymo-timeline-lanes.h"
#include "dial9/kymo-dial9-analysis.h"

G_BEGIN_DECLS

struct _KymoTimeline
{
  GtkWidget             parent_instance;

  KymoSession          *session;
  GSignalGroup         *session_signals;
  KymoTimelineLayout   *layout;
  KymoTimelineRenderer *renderer;
  GtkAdjustment        *vadjustment;
  KymoDial9Analysis    *dial9;   /* owned by the session; NULL unless dial9 */

  /* The frame without hover and selection, and what it was drawn for. */
  GskRenderNode        *base;
  KymoTime              base_t0;
  KymoTime              base_t1;
  int                   base_width;
  int                   base_height;
  double                base_scroll;
  gboolean              base_valid;

  gint64                last_navigation;

  double                pointer_x;
  double                pointer_y;
  gboolean              has_pointer;

  /* drag: pan, or with Shift a time range */
  gboolean              drag_select;
  gboolean              drag_moved;
  double                drag_x;
  double                drag_y;
  KymoTime              drag_t0;
  KymoTime              drag_t1;
  double                drag_scroll;

  /* pinch */
  KymoTime              pinch_anchor;
  KymoTime              pinch_t0;
  KymoTime              pinch_t1;

  /* kinetic touchpad scrolling, in pixels per second */
  guint                 kinetic_id;
  double                kinetic_vx;
  double                kinetic_vy;
  gint64                kinetic_last;
};

void     _kymo_timeline_viewport_init    (KymoTimeline         *self,
                                          KymoTimelineViewport *viewport);
double   _kymo_timeline_px_per_ns        (KymoTimeline         *self);
KymoTime _kymo_timeline_time_at          (KymoTimeline         *self,
                                          double                x);

/* kymo-timeline-input.c */
void     _kymo_timeline_class_add_input  (GtkWidgetClass       *widget_class);
void     _kymo_timeline_add_input        (KymoTimeline         *self);
void     _kymo_timeline_stop_kinetic     (KymoTimeline         *self);

G_END_DECLS
