/* kymo-timeline-highlight.h: the session highlight on the timeline
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-analysis.h"
#include "kymo-timeline-renderer.h"

G_BEGIN_DECLS

/* The session highlight (search matches, a task's polls, query results, a
 * histogram range) while one frame is drawn: members get an accent outline,
 * everything else is veiled, at every zoom level. With @set NULL nothing
 * here draws. */
typedef struct {
  KymoEventSet   *set;
  guint           track;    /* the lane being drawn */
  const KymoSpan *all;      /* its track's spans (all depths) */
  const KymoSpan *lane;     /* its depth run */
  gsize           lane_n;
} KymoTimelineHighlight;

void _kymo_timeline_append_outline       (GtkSnapshot                 *snapshot,
                                          const graphene_rect_t       *rect,
                                          float                        width,
                                          const GdkRGBA               *colour);

void _kymo_timeline_highlight_begin_lane (KymoTimelineHighlight       *hl,
                                          KymoTrack                   *track,
                                          guint                        depth);
/* One span drawn as its own box. */
void _kymo_timeline_highlight_span       (const KymoTimelineHighlight *hl,
                                          GtkSnapshot                 *snapshot,
                                          const KymoTimelineTheme     *theme,
                                          const KymoSpan              *span,
                                          const graphene_rect_t       *box);
/* A folded "N spans" box holding the lane's spans [@lo, @hi): marked when
 * any of them is a member, so a match is never invisible zoomed out. */
void _kymo_timeline_highlight_run        (const KymoTimelineHighlight *hl,
                                          GtkSnapshot                 *snapshot,
                                          const KymoTimelineTheme     *theme,
                                          const graphene_rect_t       *box,
                                          gsize                        lo,
                                          gsize                        hi);
/* The instants of @track in [@t0, @t1] drawn in @strip. */
void _kymo_timeline_highlight_instants   (const KymoTimelineHighlight *hl,
                                          GtkSnapshot                 *snapshot,
                                          const KymoTimelineTheme     *theme,
                                          KymoTrack                   *track,
                                          KymoTime                     t0,
                                          KymoTime                     t1,
                                          double                       px_per_ns,
                                          const graphene_rect_t       *strip);

G_END_DECLS
