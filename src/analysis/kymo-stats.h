/* kymo-stats.h: per-name span statistics over a time window
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <gio/gio.h>

#include "kymo-trace.h"

G_BEGIN_DECLS

/* One row: the spans of one name (on every track) in the window. Times are
 * nanoseconds; percentiles are exact (nearest rank over the sorted durations:
 * pN is the smallest duration d such that at least N % of the spans last d or
 * less), mean is rounded to the nearest nanosecond. */
typedef struct {
  guint32     name_id;
  const char *name;      /* owned by the trace */
  guint64     count;
  KymoTime    total;     /* sum of durations (saturates at G_MAXINT64) */
  KymoTime    self;      /* total minus the time covered by direct children */
  KymoTime    min;
  KymoTime    mean;
  KymoTime    max;
  KymoTime    p50;
  KymoTime    p90;
  KymoTime    p99;
} KymoNameStats;

/* Statistics of the spans of @trace (sealed) whose start lies in [@from, @to]
 * (both inclusive; KYMO_TIME_NONE leaves that end open). A span counts whole
 * even when it runs past @to. Its self time is its duration minus the part of
 * it covered by spans one depth deeper on the same track (its direct
 * children, overlapping children counted once), whatever their start.
 *
 * Returns a GArray of KymoNameStats sorted by total descending (then by name),
 * or NULL with G_IO_ERROR_CANCELLED when @cancellable fires. Memory: 8 bytes
 * per span in the window. */
GArray   *kymo_stats_compute    (KymoTrace    *trace,
                                 KymoTime      from,
                                 KymoTime      to,
                                 GCancellable *cancellable,
                                 GError      **error);

#define KYMO_STATS_CSV_HEADER "name,count,total,self,min,mean,max,p50,p90,p99"

/* CSV (RFC 4180, "\n" line ends): the header row, then one row per name, times
 * as integer nanoseconds; names holding commas, quotes or line breaks are
 * quoted. */
void      kymo_stats_append_csv (GArray       *rows,
                                 GString      *out);
/* FALSE with errno set when writing fails. */
gboolean  kymo_stats_write_csv  (GArray       *rows,
                                 FILE         *out);

G_END_DECLS
