/* kymo-dial9-poi.h: what a point of interest of a dial9 trace is
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-trace.h"

G_BEGIN_DECLS

/* The points themselves are found by kymo_dial9_tasks_new(), in the same
 * pass as the tasks (see kymo-dial9-tasks.h). */

typedef enum {
  KYMO_POI_SCHED_DELAY,    /* the kernel ran a woken worker late */
  KYMO_POI_LONG_POLL,      /* a poll longer than the threshold */
  KYMO_POI_CPU_SAMPLES,    /* a poll with CPU or scheduler samples in it */
  KYMO_POI_WAKE_DELAY,     /* a wake to the poll it caused, longer than the threshold */
  KYMO_POI_UNINSTRUMENTED, /* a poll of a task its spawn says is not instrumented */
  KYMO_POI_N_KINDS,
} KymoPoiKind;

typedef enum {
  KYMO_POI_WORST_FIRST,    /* by severity, longest first (ties: earlier first) */
  KYMO_POI_TIME_ORDER,     /* by start (ties: kind, track, then as found) */
} KymoPoiOrder;

typedef struct {
  KymoTime long_poll_ns;   /* default 1 ms */
  KymoTime wake_delay_ns;  /* default 100 µs */
  KymoTime sched_delay_ns; /* default 100 µs */
} KymoPoiThresholds;

#define KYMO_POI_DEFAULT_LONG_POLL_NS   1000000
#define KYMO_POI_DEFAULT_WAKE_DELAY_NS  100000
#define KYMO_POI_DEFAULT_SCHED_DELAY_NS 100000

typedef struct {
  KymoTime    start;     /* the range to frame */
  KymoTime    end;
  KymoTime    severity;  /* ns: the delay or the poll's length */
  KymoPoiKind kind;
  guint32     track;     /* the track of the event to select */
  guint32     span;      /* its span index, or G_MAXUINT32 */
  guint32     count;     /* samples in the poll (KYMO_POI_CPU_SAMPLES) */
} KymoPoi;

void        kymo_poi_thresholds_init_default (KymoPoiThresholds *thresholds);
const char *kymo_poi_kind_to_string          (KymoPoiKind        kind);

G_END_DECLS
