/* kymo-range-summary.h: per-name statistics of the selected time range
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_RANGE_SUMMARY (kymo_range_summary_get_type ())

G_DECLARE_FINAL_TYPE (KymoRangeSummary, kymo_range_summary, KYMO, RANGE_SUMMARY, GtkWidget)

GtkWidget  *kymo_range_summary_new      (KymoSession      *session);
/* The rows as shown (sorted): KymoStatsItems. */
GListModel *kymo_range_summary_get_model (KymoRangeSummary *self);
/* TRUE from a range change until its statistics are shown ("busy"). */
gboolean    kymo_range_summary_get_busy (KymoRangeSummary *self);
/* Recomputes now, even while hidden (it otherwise waits until shown). */
void        kymo_range_summary_refresh  (KymoRangeSummary *self);
/* The shown statistics as CSV (kymo_stats_append_csv), as "Copy as CSV"
 * puts on the clipboard; NULL while none are shown. */
char       *kymo_range_summary_dup_csv  (KymoRangeSummary *self);

G_END_DECLS
