/* kymo-clock.h: trace times as the user's clock
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-trace.h"

G_BEGIN_DECLS

typedef enum {
  KYMO_CLOCK_RELATIVE,  /* from the start of the trace */
  KYMO_CLOCK_LOCAL,     /* wall clock, local time zone */
  KYMO_CLOCK_UTC,       /* wall clock, UTC */
} KymoClock;

/* "relative", "local", "utc"; FALSE for anything else. */
gboolean    kymo_clock_from_string     (const char *text,
                                        KymoClock  *clock);
const char *kymo_clock_to_string       (KymoClock   clock);

/* @ts (trace ns) as a wall-clock instant, "2023-11-14 22:13:20.123457789 UTC"
 * (local: the zone's abbreviation), through the trace's clock sync. NULL
 * for KYMO_CLOCK_RELATIVE or a trace without clock sync: callers then show
 * relative time (with kymo_clock_fallback_note()). */
char       *kymo_clock_format_absolute (KymoTrace  *trace,
                                        KymoClock   clock,
                                        KymoTime    ts);
/* Why an absolute clock shows relative times, or NULL when it does not. */
const char *kymo_clock_fallback_note   (KymoTrace  *trace,
                                        KymoClock   clock);

G_END_DECLS
