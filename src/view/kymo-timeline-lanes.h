/* kymo-timeline-lanes.h: on-CPU share, CPU-sample ticks and wake markers on Tokio worker lanes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-analysis.h"

G_BEGIN_DECLS

/* The band above a worker's polls, shaded by the on-CPU share of each
 * active period, and the gap between it and the polls. */
#define KYMO_TIMELINE_CPU_BAND 6
#define KYMO_CPU_STEPS 11

typedef struct {
  GdkRGBA steps[KYMO_CPU_STEPS];  /* 0 %, 10 %, … 100 % */
  GdkRGBA tick;                   /* CPU samples */
  GdkRGBA wake;                   /* wake markers of the selected task */
} KymoTimelineCpu;

void           kymo_timeline_cpu_init          (KymoTimelineCpu       *cpu,
                                                gboolean               dark,
                                                const GdkRGBA         *foreground,
                                                const GdkRGBA         *accent);
const GdkRGBA *kymo_timeline_cpu_colour        (const KymoTimelineCpu *cpu,
                                                double                 share);
/* Whether @track gets a band (a dial9 trace with CPU clocks: a lane with
 * polls). Known at load, before the shares are computed, so that rows do
 * not jump when they arrive. */
gboolean       kymo_timeline_cpu_band_applies  (KymoTrace             *trace,
                                                KymoTrack             *track);

/* The band of @track's active periods inside [@t0, @t1] at [@y, @y + @h]
 * (x = (t − @t0) · @px_per_ns). */
void           kymo_timeline_cpu_draw_band     (const KymoTimelineCpu *cpu,
                                                KymoDial9Lanes        *lanes,
                                                GtkSnapshot           *snapshot,
                                                guint                  track,
                                                KymoTime               t0,
                                                KymoTime               t1,
                                                double                 px_per_ns,
                                                float                  y,
                                                float                  h);
/* A tick at the top of the lane at @y for each CPU sample, one per column. */
void           kymo_timeline_cpu_draw_ticks    (const KymoTimelineCpu *cpu,
                                                KymoDial9Lanes        *lanes,
                                                GtkSnapshot           *snapshot,
                                                guint                  track,
                                                KymoTime               t0,
                                                KymoTime               t1,
                                                double                 px_per_ns,
                                                float                  y);
/* The selected task's wakes, by time, and the longest wake → poll wait. */
typedef struct {
  KymoWakeMark *marks;
  gsize         n_marks;
  KymoTime      reach;
} KymoTimelineWakes;

/* Copies @marks (NULL, 0: frees what @wakes holds). */
void           kymo_timeline_wakes_set         (KymoTimelineWakes     *wakes,
                                                const KymoWakeMark    *marks,
                                                gsize                  n_marks);
/* The wake markers that land on @track: on the woken lane a triangle at
 * the wake and a line to the poll it led to; on the waker's lane a
 * triangle at its bottom. */
void           kymo_timeline_cpu_draw_wakes    (const KymoTimelineCpu   *cpu,
                                                const KymoTimelineWakes *wakes,
                                                GtkSnapshot             *snapshot,
                                                guint                    track,
                                                KymoTime                 t0,
                                                KymoTime                 t1,
                                                double                   px_per_ns,
                                                int                      width,
                                                float                    y,
                                                float                    h);
/* The "On CPU" scale, right-aligned at @right, its bottom at @bottom;
 * returns its top. */
float          kymo_timeline_cpu_append_legend (const KymoTimelineCpu *cpu,
                                                GtkSnapshot           *snapshot,
                                                PangoLayout           *layout,
                                                const GdkRGBA         *foreground,
                                                const GdkRGBA         *background,
                                                float                  right,
                                                float                  bottom);

G_END_DECLS
