/* kymo-timeline-ruler.h: the time ruler above the timeline, and its grid
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"
#include "kymo-timeline-renderer.h"

G_BEGIN_DECLS

/* The ruler strip [0, @width] × [0, KYMO_TIMELINE_RULER_HEIGHT] for the
 * window [@t0, @t1] (x = (t − @t0) · @px_per_ns): ticks on round steps from
 * the trace start, or on the wall clock when the session asks for it.
 * @layout is the renderer's one text layout. */
void kymo_timeline_ruler_draw      (GtkSnapshot             *snapshot,
                                    PangoLayout             *layout,
                                    const KymoTimelineTheme *theme,
                                    KymoSession             *session,
                                    KymoTime                 t0,
                                    KymoTime                 t1,
                                    double                   px_per_ns,
                                    int                      width);
/* Faint lines under the rows at the ruler's major ticks, in [@top, @bottom]. */
void kymo_timeline_ruler_draw_grid (GtkSnapshot             *snapshot,
                                    const KymoTimelineTheme *theme,
                                    KymoSession             *session,
                                    KymoTime                 t0,
                                    KymoTime                 t1,
                                    double                   px_per_ns,
                                    float                    top,
                                    float                    bottom);

G_END_DECLS
