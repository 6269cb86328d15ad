/* kymo-duration-histogram.h: how long the spans of one name last (Tracy's
 * Find Zone): a log-time histogram whose bins select events
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-find-model.h"

G_BEGIN_DECLS

#define KYMO_DURATION_HISTOGRAM_BINS 48

#define KYMO_TYPE_DURATION_HISTOGRAM (kymo_duration_histogram_get_type ())

G_DECLARE_FINAL_TYPE (KymoDurationHistogram, kymo_duration_histogram, KYMO, DURATION_HISTOGRAM, GtkWidget)

GtkWidget *kymo_duration_histogram_new            (KymoFindModel         *model);
/* The name whose spans are shown; KYMO_SESSION_NO_NAME follows the name with
 * the most matching spans. Recomputed off the UI thread. */
void       kymo_duration_histogram_set_name       (KymoDurationHistogram *self,
                                                   guint32                name);
guint32    kymo_duration_histogram_get_name       (KymoDurationHistogram *self);
/* FALSE until the histogram of the current result is ready. */
gboolean   kymo_duration_histogram_is_ready       (KymoDurationHistogram *self);
/* Spans in @bin, and the durations it covers [*lo, *hi] (ns). */
guint64    kymo_duration_histogram_get_bin        (KymoDurationHistogram *self,
                                                   guint                  bin,
                                                   gint64                *lo,
                                                   gint64                *hi);
/* What a drag across bins @first … @last does: the session highlight becomes
 * exactly the spans in them. */
void       kymo_duration_histogram_select_bins    (KymoDurationHistogram *self,
                                                   guint                  first,
                                                   guint                  last);
/* Back to every match of the search. */
void       kymo_duration_histogram_clear_selection (KymoDurationHistogram *self);
/* The bin under @x (widget coordinates), clamped. */
guint      kymo_duration_histogram_bin_at_x       (KymoDurationHistogram *self,
                                                   double                 x);

G_END_DECLS
