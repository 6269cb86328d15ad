/* kymo-timeline-heat.h: Tokio worker lanes, polls coloured by how long they ran
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-trace.h"

G_BEGIN_DECLS

#define KYMO_HEAT_STEPS 32

/* A scale's box and its margin to the right edge, in pixels. */
#define KYMO_TIMELINE_SCALE_BAR_WIDTH 120
#define KYMO_TIMELINE_SCALE_WIDTH     (KYMO_TIMELINE_SCALE_BAR_WIDTH + 36 + 8)

/* A log scale from 1 µs (cool) to 10 ms and more (hot), and the colour of
 * a parked worker. Made when the theme changes. */
typedef struct {
  GdkRGBA steps[KYMO_HEAT_STEPS];
  GdkRGBA parked;
  GdkRGBA legend_bg;
} KymoTimelineHeat;

void           kymo_timeline_heat_init          (KymoTimelineHeat       *heat,
                                                 gboolean                dark);
/* Whether @trace's worker lanes are drawn this way (dial9). */
gboolean       kymo_timeline_heat_applies       (KymoTrace              *trace);
const GdkRGBA *kymo_timeline_heat_colour        (const KymoTimelineHeat *heat,
                                                 const KymoSpan         *span);
/* A legend: @title over a bar of @n_steps colours with @n_ticks labels
 * spread under it, right-aligned at @right with its bottom at @bottom;
 * returns its top, where another legend may go. */
float          kymo_timeline_append_scale       (GtkSnapshot            *snapshot,
                                                 PangoLayout            *layout,
                                                 const char             *title,
                                                 const GdkRGBA          *steps,
                                                 guint                   n_steps,
                                                 const char * const     *ticks,
                                                 guint                   n_ticks,
                                                 const GdkRGBA          *foreground,
                                                 const GdkRGBA          *background,
                                                 float                   right,
                                                 float                   bottom);
/* The poll scale, bottom right, inside [0, @right] × [0, @bottom]. */
float          kymo_timeline_heat_append_legend (const KymoTimelineHeat *heat,
                                                 GtkSnapshot            *snapshot,
                                                 PangoLayout            *layout,
                                                 const GdkRGBA          *foreground,
                                                 float                   right,
                                                 float                   bottom);

/* Kernel scheduling delays of each worker lane, in time order, built on
 * first use from the trace's records ("unpark": the wait before it). */
typedef struct _KymoTimelineSched KymoTimelineSched;

KymoTimelineSched *kymo_timeline_sched_new  (KymoTrace         *trace);
void               kymo_timeline_sched_free (KymoTimelineSched *self);
/* Marks [unpark − wait, unpark] along the bottom of the lane at @y, for
 * the part of @track's delays inside [@t0, @t1] (x = (t − @t0) · @px_per_ns). */
void               kymo_timeline_sched_draw (KymoTimelineSched *self,
                                             GtkSnapshot       *snapshot,
                                             guint              track,
                                             KymoTime           t0,
                                             KymoTime           t1,
                                             double             px_per_ns,
                                             float              y,
                                             float              lane_height);

G_END_DECLS
