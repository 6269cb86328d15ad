/* kymo-timeline-renderer.h: draws the timeline into a GtkSnapshot
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-analysis.h"
#include "kymo-session.h"
#include "kymo-timeline-layout.h"

G_BEGIN_DECLS

/* Looked up when the style changes, never per frame. */
typedef struct {
  GdkRGBA  background;
  GdkRGBA  foreground;
  GdkRGBA  dim;
  GdkRGBA  grid;
  GdkRGBA  ruler;
  GdkRGBA  header;
  GdkRGBA  accent;
  GdkRGBA  selection;
  GdkRGBA  warning;
  gboolean dark;
} KymoTimelineTheme;

/* What one frame shows: the whole drawing area, ruler included. */
typedef struct {
  int    width;
  int    height;
  double scroll_y;   /* offset of the rows under the ruler */
} KymoTimelineViewport;

typedef struct {
  guint64 spans_touched;   /* span records read for this frame */
  guint64 spans_drawn;     /* boxes drawn for single spans */
  guint64 merged_boxes;    /* "N spans" boxes */
  guint64 rows_drawn;
} KymoTimelineStats;

typedef struct _KymoTimelineRenderer KymoTimelineRenderer;

void                  kymo_timeline_theme_init_default       (KymoTimelineTheme          *theme,
                                                              gboolean                    dark);

/* @context gives the fonts (the widget's, or a pangocairo one offscreen);
 * @font_family is set explicitly so every output looks the same. */
KymoTimelineRenderer *kymo_timeline_renderer_new             (KymoTrace                  *trace,
                                                              PangoContext               *context,
                                                              const char                 *font_family);
void                  kymo_timeline_renderer_free            (KymoTimelineRenderer       *self);
void                  kymo_timeline_renderer_set_theme       (KymoTimelineRenderer       *self,
                                                              const KymoTimelineTheme    *theme);
const KymoTimelineTheme *kymo_timeline_renderer_get_theme    (KymoTimelineRenderer       *self);

/* dial9: the workers' on-CPU shares and CPU samples (NULL: none yet), and
 * the wakes of the selected task (copied). The caller redraws the base. */
void                  kymo_timeline_renderer_set_lanes       (KymoTimelineRenderer       *self,
                                                              KymoDial9Lanes             *lanes);
void                  kymo_timeline_renderer_set_wake_marks  (KymoTimelineRenderer       *self,
                                                              const KymoWakeMark         *marks,
                                                              gsize                       n_marks);

/* What does not change with hover or selection: cache it as a node. */
void                  kymo_timeline_renderer_snapshot_base   (KymoTimelineRenderer       *self,
                                                              GtkSnapshot                *snapshot,
                                                              KymoSession                *session,
                                                              const KymoTimelineLayout   *layout,
                                                              const KymoTimelineViewport *viewport);
/* Hover, selected event and selected time range, on top of the base. */
void                  kymo_timeline_renderer_snapshot_overlay (KymoTimelineRenderer      *self,
                                                              GtkSnapshot                *snapshot,
                                                              KymoSession                *session,
                                                              const KymoTimelineLayout   *layout,
                                                              const KymoTimelineViewport *viewport);
/* Both of the above. */
void                  kymo_timeline_renderer_snapshot        (KymoTimelineRenderer       *self,
                                                              GtkSnapshot                *snapshot,
                                                              KymoSession                *session,
                                                              const KymoTimelineLayout   *layout,
                                                              const KymoTimelineViewport *viewport);
/* Counters of the last snapshot_base (debugging, tests, benchmark). */
const KymoTimelineStats *kymo_timeline_renderer_get_stats    (KymoTimelineRenderer       *self);

/* Whether (@x, @y), in viewport coordinates, is on the legends the last
 * overlay drew; while faded, they let what is under them show. */
gboolean              kymo_timeline_renderer_legend_contains (KymoTimelineRenderer       *self,
                                                              double                      x,
                                                              double                      y);
/* TRUE when that changed what the overlay draws. */
gboolean              kymo_timeline_renderer_set_legend_faded (KymoTimelineRenderer      *self,
                                                              gboolean                    faded);

/* The event drawn at (@x, @y) in viewport coordinates. */
gboolean              kymo_timeline_renderer_pick            (KymoTimelineRenderer       *self,
                                                              KymoSession                *session,
                                                              const KymoTimelineLayout   *layout,
                                                              const KymoTimelineViewport *viewport,
                                                              double                      x,
                                                              double                      y,
                                                              KymoEventRef               *ref);
/* Where @ref is drawn, in viewport coordinates; FALSE when not shown. */
gboolean              kymo_timeline_renderer_get_event_rect  (KymoTimelineRenderer       *self,
                                                              KymoSession                *session,
                                                              const KymoTimelineLayout   *layout,
                                                              const KymoTimelineViewport *viewport,
                                                              const KymoEventRef         *ref,
                                                              graphene_rect_t            *rect);

/* "process", "thread"…: a group kind or kymo_track_kind_to_string(), translated. */
const char           *kymo_timeline_kind_label               (const char                 *kind);
/* "1.5 ms", "12 ns", "1 h 02 min": for tooltips and the range length. */
char                 *kymo_timeline_format_duration          (KymoTime                    duration);

G_END_DECLS
