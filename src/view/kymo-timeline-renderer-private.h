/* kymo-timeline-renderer-private.h: what the timeline renderer's files share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <math.h>

#include "kymo-timeline-renderer.h"
#include "kymo-timeline-highlight.h"
#include "kymo-timeline-heat.h"
#include "kymo-timeline-lanes.h"
#include "kymo-timeline-counters.h"
#include "kymo-timeline-ruler.h"

G_BEGIN_DECLS

#define N_HUES         64
#define HATCH_SIZE     6

struct _KymoTimelineRenderer
{
  KymoTrace         *trace;
  PangoContext      *context;
  PangoLayout       *layout;       /* the one layout every text uses */
  int                text_height;
  KymoTimelineTheme  theme;
  GdkRGBA            hues[N_HUES];
  GdkRGBA            lines[N_HUES];  /* same hues, with contrast for thin lines */
  GdkRGBA            label_colour;
  GskRenderNode     *hatch;

  guint16           *name_hues;    /* [n_names] */
  guint              n_names;
  GHashTable        *labels;       /* name id → GskRenderNode (text at 0,0) */
  gint16            *label_widths; /* [n_names], -1 unknown */

  KymoTimelineCounters *counters;  /* counter tracks' value ranges */
  GHashTable        *annotation_spans; /* track id → longest annotation (ns) */
  guint32           *flow_order;   /* flows sorted by their first time */
  gsize              n_flows;
  KymoTime           flow_max_len;
  gboolean           flows_indexed;

  KymoTimelineStats  stats;
  KymoTimelineHeat   heat;
  gboolean           heat_on;      /* dial9: worker lanes by poll length */
  KymoTimelineSched *sched;        /* dial9: kernel scheduling delays */
  KymoTimelineCpu    cpu;          /* dial9: on-CPU band, samples, wakes */
  KymoDial9Lanes    *lanes;
  KymoTimelineWakes  wakes;        /* the selected task's */
  graphene_rect_t    legend_rect;  /* where the last overlay drew the legends, or empty */
  gboolean           legend_faded;
};

/* How much of the legends shows while the pointer is over them. */
#define LEGEND_FADED_OPACITY 0.12

/* Shared per frame: where the window is and how to map time to x. */
typedef struct {
  KymoTimelineRenderer       *self;
  GtkSnapshot                *snapshot;
  KymoSession                *session;
  const KymoTimelineLayout   *layout;
  const KymoTimelineViewport *viewport;
  KymoTime                    t0;
  KymoTime                    t1;
  double                      px_per_ns;
  guint                       n_columns;
  guint32                     highlighted;
  KymoTimelineHighlight       hl;         /* the session highlight and the lane drawn */
  float                       top;       /* first y of the track area */
  float                       bottom;
  gboolean                    heat_lane; /* the lane drawn is a worker's polls */
} KymoTimelineFrame;

static inline double
time_to_x (const KymoTimelineFrame *f,
           KymoTime                 t)
{
  return (double) (t - f->t0) * f->px_per_ns;
}

static inline KymoTime
x_to_time (const KymoTimelineFrame *f,
           double                   x)
{
  return f->t0 + (KymoTime) floor (x / f->px_per_ns);
}

/* The renderer's own drawing, one file per kind of thing drawn; each takes
 * the frame being drawn. */
const GdkRGBA *_kymo_timeline_renderer_name_colour     (KymoTimelineRenderer *self,
                                                        guint32               name);
guint          _kymo_timeline_hue_for_string           (const char *text);
void           _kymo_timeline_frame_append_text        (KymoTimelineFrame *f,
                                                        const char        *text,
                                                        float              x,
                                                        float              y,
                                                        const GdkRGBA     *colour);
int            _kymo_timeline_renderer_text_width      (KymoTimelineRenderer *self,
                                                        const char           *text);
void           _kymo_timeline_frame_draw_depth         (KymoTimelineFrame *f,
                                                        KymoTrack         *track,
                                                        guint              depth,
                                                        float              y);
void           _kymo_timeline_frame_draw_instants      (KymoTimelineFrame *f,
                                                        KymoTrack         *track,
                                                        float              y,
                                                        float              h);
void           _kymo_timeline_frame_highlight_instants (KymoTimelineFrame *f,
                                                        KymoTrack         *track,
                                                        float              y,
                                                        float              h);
void           _kymo_timeline_frame_draw_annotations   (KymoTimelineFrame     *f,
                                                        KymoTrack             *track,
                                                        const KymoTimelineRow *row,
                                                        float                  y);
void           _kymo_timeline_frame_draw_flows         (KymoTimelineFrame *f);
void           _kymo_timeline_frame_draw_row           (KymoTimelineFrame     *f,
                                                        const KymoTimelineRow *row,
                                                        float                  y);
void           _kymo_timeline_content_row              (const KymoTimelineRow *row,
                                                        float                  y,
                                                        KymoTimelineRow       *content,
                                                        float                 *content_y);
void           _kymo_timeline_frame_init               (KymoTimelineFrame          *f,
                                                        KymoTimelineRenderer       *self,
                                                        GtkSnapshot                *snapshot,
                                                        KymoSession                *session,
                                                        const KymoTimelineLayout   *layout,
                                                        const KymoTimelineViewport *viewport);

G_END_DECLS
