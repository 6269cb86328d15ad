/* kymo-timeline-layout.h: which tracks the timeline shows, and where
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TIMELINE_RULER_HEIGHT 26
#define KYMO_TIMELINE_LANE_HEIGHT  18
#define KYMO_TIMELINE_ROW_PAD      3
#define KYMO_TIMELINE_INSTANT_STRIP 10
/* Every track but a group starts with a strip holding its name, so that the
 * name never covers an event. */
#define KYMO_TIMELINE_TITLE_HEIGHT 18
#define KYMO_TIMELINE_GROUP_HEIGHT 24

typedef struct {
  guint         track;
  KymoTrackKind kind;
  guint         indent;
  guint         pinned : 1;
  guint         collapsed : 1;
  int           y;          /* from the top of the track area */
  int           height;     /* title strip included */
  int           title_height;
  int           lanes_y;    /* offset of depth 0 inside the row (below the title) */
} KymoTimelineRow;

typedef struct _KymoTimelineLayout KymoTimelineLayout;

KymoTimelineLayout    *kymo_timeline_layout_new          (KymoSession              *session);
void                   kymo_timeline_layout_free         (KymoTimelineLayout       *self);
/* Rebuilds the rows when the session's track state changed; TRUE if it did. */
gboolean               kymo_timeline_layout_update       (KymoTimelineLayout       *self);
guint                  kymo_timeline_layout_get_n_rows   (const KymoTimelineLayout *self);
const KymoTimelineRow *kymo_timeline_layout_get_row      (const KymoTimelineLayout *self,
                                                          guint                     i);
/* Height of all rows (not counting the ruler). */
int                    kymo_timeline_layout_get_height   (const KymoTimelineLayout *self);
/* The first row whose bottom is below @y, or n_rows. O(log n). */
guint                  kymo_timeline_layout_find_row     (const KymoTimelineLayout *self,
                                                          int                       y);
/* The row showing @track, or -1 when it is not shown. */
int                    kymo_timeline_layout_find_track   (const KymoTimelineLayout *self,
                                                          guint                     track);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoTimelineLayout, kymo_timeline_layout_free)

G_END_DECLS
