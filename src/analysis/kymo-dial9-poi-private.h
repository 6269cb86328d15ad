/* kymo-dial9-poi-private.h: ordering the points the tasks' pass found
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-poi.h"

G_BEGIN_DECLS

/* A lane's polls of uninstrumented tasks: the points they make, in span
 * order (@index: positions in @spans, rising). */
typedef struct {
  const KymoSpan *spans;
  gsize           first;   /* @spans' first index in its track */
  guint32         track;
  const guint32  *index;
  guint32         n;
} KymoDial9PoiLane;

/* The points in time order as ids (returned, *@n_out of them): @found's
 * (@n_found, as found) with @lanes' points found after the first
 * @lanes_at of them; and *@worst (as many) positions in it, worst first.
 * An id is an index in @found, or @n_found + a position among the lanes'
 * points, lane by lane. On the threads the load's default gives from
 * @parallel_min points (G_MAXSIZE: on this one). */
guint32 *_kymo_dial9_pois_order  (const KymoPoi          *found,
                                  guint32                 n_found,
                                  guint32                 lanes_at,
                                  const KymoDial9PoiLane *lanes,
                                  guint                   n_lanes,
                                  gsize                   parallel_min,
                                  guint32                *n_out,
                                  guint32               **worst);
/* The point of id @id (as _kymo_dial9_pois_order() gave it). */
void     _kymo_dial9_poi_from_id (const KymoPoi          *found,
                                  guint32                 n_found,
                                  const KymoDial9PoiLane *lanes,
                                  guint32                 id,
                                  KymoPoi                *poi);

G_END_DECLS
