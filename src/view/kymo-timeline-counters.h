/* kymo-timeline-counters.h: counter tracks drawn as step lines
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-trace.h"

G_BEGIN_DECLS

/* Per counter track, its value range and min/max per block of samples,
 * built on first draw and kept for the renderer's life. */
typedef struct _KymoTimelineCounters KymoTimelineCounters;

KymoTimelineCounters *kymo_timeline_counters_new  (void);
void                  kymo_timeline_counters_free (KymoTimelineCounters *self);
/* @track's samples in [@t0, @t1] as a step line in @colour, scaled to the
 * track's range inside [@top, @top + @height]; clipped to @bounds. One
 * line per pixel column (min to max) when there are more samples than
 * columns, so a one-sample spike survives. */
void                  kymo_timeline_counters_draw (KymoTimelineCounters  *self,
                                                   GtkSnapshot           *snapshot,
                                                   KymoTrack             *track,
                                                   const GdkRGBA         *colour,
                                                   KymoTime               t0,
                                                   KymoTime               t1,
                                                   double                 px_per_ns,
                                                   int                    width,
                                                   const graphene_rect_t *bounds,
                                                   float                  top,
                                                   float                  height);

G_END_DECLS
