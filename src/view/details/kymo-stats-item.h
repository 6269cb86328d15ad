/* kymo-stats-item.h: one row of the range summary (one span name)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "kymo-analysis.h"

G_BEGIN_DECLS

#define KYMO_TYPE_STATS_ITEM (kymo_stats_item_get_type ())

G_DECLARE_FINAL_TYPE (KymoStatsItem, kymo_stats_item, KYMO, STATS_ITEM, GObject)

/* Properties for sorters: "name" (string), "name-id" (uint), "count"
 * (uint64), "total", "self", "min", "mean", "max" (int64 nanoseconds). */
KymoStatsItem       *kymo_stats_item_new       (const KymoNameStats *stats);
const KymoNameStats *kymo_stats_item_get_stats (KymoStatsItem       *self);

G_END_DECLS
