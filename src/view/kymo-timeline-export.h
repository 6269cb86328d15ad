/* kymo-timeline-export.h: the timeline drawn offscreen, without a display
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"
#include "kymo-timeline-renderer.h"

G_BEGIN_DECLS

#define KYMO_TIMELINE_EXPORT_FONT       "Cantarell, DejaVu Sans, Sans"
#define KYMO_TIMELINE_EXPORT_MAX_HEIGHT 4000

/* Font set-up (fontconfig's configuration, the font files, shaping and
 * the glyphs' bitmaps) is a fixed cost of every export, about as long as
 * drawing the frame. A caller with other work to do first (a load) starts
 * it on a thread with _prepare(), and _install() hands the ready font map
 * to the calling thread, whose exports then draw with it. */
typedef struct _KymoTimelineExportFonts KymoTimelineExportFonts;

/* For an export to @path (its suffix says which format). */
KymoTimelineExportFonts *kymo_timeline_export_fonts_prepare (const char *path);
/* Waits for the thread and frees @fonts. */
void           kymo_timeline_export_fonts_install  (KymoTimelineExportFonts *fonts);

/* The height that shows every row of @session (ruler included), capped. */
int            kymo_timeline_export_natural_height (KymoSession        *session);
/* A renderer that needs no display: fonts from pangocairo at 96 dpi. */
KymoTimelineRenderer *kymo_timeline_export_renderer_new (KymoTrace     *trace,
                                                         gboolean       dark);
/* The same frame the widget draws, as a render node. @stats may be NULL. */
GskRenderNode *kymo_timeline_export_to_node        (KymoSession        *session,
                                                    int                 width,
                                                    int                 height,
                                                    gboolean            dark,
                                                    KymoTimelineStats  *stats);
typedef enum {
  KYMO_TIMELINE_EXPORT_PNG,
  KYMO_TIMELINE_EXPORT_SVG,
} KymoTimelineExportFormat;

/* Writes the frame @viewport shows (its rows scrolled by scroll_y) of the
 * time range [@start, @end) — the session's visible range when both are
 * KYMO_TIME_NONE — without hover or selection marks. */
gboolean       kymo_timeline_export_view_to_file   (KymoSession                *session,
                                                    const KymoTimelineViewport *viewport,
                                                    KymoTime                    start,
                                                    KymoTime                    end,
                                                    gboolean                    dark,
                                                    KymoTimelineExportFormat    format,
                                                    const char                 *path,
                                                    GError                    **error);
/* Writes @node, a @width × @height frame from _to_node(), as a PNG or,
 * when @path ends in ".svg", an SVG. The node needs nothing of the trace:
 * the trace may be gone meanwhile. */
gboolean       kymo_timeline_export_node_to_file   (GskRenderNode      *node,
                                                    int                 width,
                                                    int                 height,
                                                    const char         *path,
                                                    GError            **error);
/* Writes a PNG or, when @path ends in ".svg", an SVG. */
gboolean       kymo_timeline_export_to_file        (KymoSession        *session,
                                                    int                 width,
                                                    int                 height,
                                                    gboolean            dark,
                                                    const char         *path,
                                                    GError            **error);

G_END_DECLS
