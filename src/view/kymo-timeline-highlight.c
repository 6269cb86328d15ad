/* kymo-timeline-highlight.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <math.h>

#include "kymo-timeline-highlight.h"

void
_kymo_timeline_highlight_begin_lane (KymoTimelineHighlight *hl,
                                     KymoTrack             *track,
                                     guint                  depth)
{
  gsize n_all, first;

  if (hl->set == NULL)
    return;
  hl->track = kymo_track_get_id (track);
  hl->all = kymo_track_get_spans (track, &n_all);
  hl->lane = kymo_track_get_depth_spans (track, depth, &hl->lane_n, &first);
}

static void
veil (GtkSnapshot             *snapshot,
      const KymoTimelineTheme *theme,
      const graphene_rect_t   *box)
{
  GdkRGBA colour = theme->background;

  colour.alpha = 0.72f;
  gtk_snapshot_append_color (snapshot, &colour, box);
}

static void
paint (GtkSnapshot             *snapshot,
       const KymoTimelineTheme *theme,
       const graphene_rect_t   *box,
       gboolean                 member)
{
  if (member)
    {
      graphene_rect_t outer = GRAPHENE_RECT_INIT (box->origin.x - 1, box->origin.y - 1,
                                                  MAX (box->size.width, 1) + 2, box->size.height + 2);
      _kymo_timeline_append_outline (snapshot, &outer, 2, &theme->accent);
    }
  else
    veil (snapshot, theme, box);
}

void
_kymo_timeline_highlight_span (const KymoTimelineHighlight *hl,
                               GtkSnapshot                 *snapshot,
                               const KymoTimelineTheme     *theme,
                               const KymoSpan              *span,
                               const graphene_rect_t       *box)
{
  if (hl->set == NULL)
    return;
  paint (snapshot, theme, box, kymo_event_set_contains_span (hl->set, hl->track, (guint32) (span - hl->all)));
}

void
_kymo_timeline_highlight_run (const KymoTimelineHighlight *hl,
                              GtkSnapshot                 *snapshot,
                              const KymoTimelineTheme     *theme,
                              const graphene_rect_t       *box,
                              gsize                        lo,
                              gsize                        hi)
{
  gsize base;

  if (hl->set == NULL)
    return;
  base = hl->lane - hl->all;
  paint (snapshot, theme, box,
         kymo_event_set_any_span_in (hl->set, hl->track, (guint32) (base + lo), (guint32) (base + hi)));
}

/* The strip is veiled, then each member in the window is drawn on top in
 * the accent colour, one per pixel column, found from the set's own sorted
 * indexes rather than by testing every instant. */
void
_kymo_timeline_highlight_instants (const KymoTimelineHighlight *hl,
                                   GtkSnapshot                 *snapshot,
                                   const KymoTimelineTheme     *theme,
                                   KymoTrack                   *track,
                                   KymoTime                     t0,
                                   KymoTime                     t1,
                                   double                       px_per_ns,
                                   const graphene_rect_t       *strip)
{
  const KymoInstant *instants;
  const guint32 *members;
  gsize n, n_members, lo, hi, m_lo, m_hi;
  double last_x = -G_MAXDOUBLE;

  if (hl->set == NULL)
    return;
  instants = kymo_track_get_instants (track, &n);
  lo = kymo_track_lower_bound_instant (track, t0);
  hi = kymo_track_lower_bound_instant (track, t1 + 1);
  if (hi <= lo)
    return;
  veil (snapshot, theme, strip);

  members = kymo_event_set_get_instants (hl->set, kymo_track_get_id (track), &n_members);
  for (m_lo = 0, m_hi = n_members; m_lo < m_hi;)
    {
      gsize mid = m_lo + (m_hi - m_lo) / 2;

      if (members[mid] < lo)
        m_lo = mid + 1;
      else
        m_hi = mid;
    }
  for (gsize m = m_lo; m < n_members && members[m] < hi; m++)
    {
      double x = floor ((double) (instants[members[m]].ts - t0) * px_per_ns);

      if (x == last_x)
        continue;
      last_x = x;
      gtk_snapshot_append_color (snapshot, &theme->accent,
                                 &GRAPHENE_RECT_INIT (x - 1, strip->origin.y, 3, strip->size.height));
    }
}
