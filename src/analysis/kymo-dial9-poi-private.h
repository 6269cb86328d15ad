/* kymo-dial9-poi-private.h: ordering the points the tasks' pass found
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-poi.h"

G_BEGIN_DECLS

/* Fills @timed (@n) with the indexes of @pois (@n of them, as found) in
 * time order, and @worst (@n) with positions in @timed, worst first; on
 * the threads the load's default gives from @parallel_min points
 * (G_MAXSIZE: on this one). */
void _kymo_dial9_pois_order (const KymoPoi *pois,
                             guint32        n,
                             gsize          parallel_min,
                             guint32       *timed,
                             guint32       *worst);

G_END_DECLS
