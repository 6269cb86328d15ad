/* kymo-dial9-poi.h: points of interest of a dial9 trace, worst first
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-tasks.h"

G_BEGIN_DECLS

typedef enum {
  KYMO_POI_SCHED_DELAY,    /* the kernel ran a woken worker late */
  KYMO_POI_LONG_POLL,      /* a poll longer than the threshold */
  KYMO_POI_CPU_SAMPLES,    /* a poll with CPU or scheduler samples in it */
  KYMO_POI_WAKE_DELAY,     /* a wake to the poll it caused, longer than the threshold */
  KYMO_POI_UNINSTRUMENTED, /* a poll of a task its spawn says is not instrumented */
  KYMO_POI_N_KINDS,
} KymoPoiKind;

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

typedef struct _KymoDial9Pois KymoDial9Pois;

/* Safe on any thread; @tasks is kept (it must outlive the result). */
KymoDial9Pois *kymo_dial9_pois_new       (KymoDial9Tasks          *tasks,
                                          const KymoPoiThresholds *thresholds);
void           kymo_dial9_pois_free      (KymoDial9Pois           *self);

/* Worst first: by severity, longest first (ties: earlier first). */
const KymoPoi *kymo_dial9_pois_get_worst (KymoDial9Pois           *self,
                                          gsize                   *n_pois);
/* The same points in time order (by start; ties: kind, track). */
const KymoPoi *kymo_dial9_pois_get_timed (KymoDial9Pois           *self,
                                          gsize                   *n_pois);
const char    *kymo_poi_kind_to_string   (KymoPoiKind              kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoDial9Pois, kymo_dial9_pois_free)

G_END_DECLS
