/* kymo-dial9-lanes.h: what a Tokio worker lane shows besides its polls
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-tasks.h"
#include "kymo-trace.h"

G_BEGIN_DECLS

/* One active period of a worker (unpark → park) and the CPU time its
 * thread used in it, from the "cpu" records. */
typedef struct {
  KymoTime start;   /* the unpark */
  KymoTime end;     /* the park */
  KymoTime cpu;     /* at most end − start (clock reads and timestamps are
                     * not taken at the same instant) */
} KymoCpuPeriod;

/* A wake of a task, and the poll it led to. */
typedef struct {
  KymoTime ts;           /* the wake */
  KymoTime poll_start;   /* the next poll of the woken task, or KYMO_TIME_NONE */
  guint32  track;        /* the lane of that poll (the woken worker), or KYMO_NO_TRACK */
  guint32  waker_track;  /* the lane the waking task was polled on at @ts, or KYMO_NO_TRACK */
} KymoWakeMark;

typedef struct _KymoDial9Lanes KymoDial9Lanes;

/* Reads the sealed trace's records and sampled stacks; safe on any thread.
 * Immutable once made, so it may be shared between threads. */
KymoDial9Lanes      *kymo_dial9_lanes_new            (KymoTrace      *trace);
KymoDial9Lanes      *kymo_dial9_lanes_ref            (KymoDial9Lanes *self);
void                 kymo_dial9_lanes_unref          (KymoDial9Lanes *self);

/* Whether any worker has an active period with its CPU time (traces from
 * before dial9 recorded cpu_time_ns have none). */
gboolean             kymo_dial9_lanes_has_cpu        (KymoDial9Lanes *self);
/* @track's active periods in time order (NULL with 0 when none). */
const KymoCpuPeriod *kymo_dial9_lanes_get_periods    (KymoDial9Lanes *self,
                                                      guint           track,
                                                      gsize          *n_periods);
/* The period of @track holding @ts, or NULL. */
const KymoCpuPeriod *kymo_dial9_lanes_find_period    (KymoDial9Lanes *self,
                                                      guint           track,
                                                      KymoTime        ts);
/* Sums over @track's periods [@lo, @hi), in O(1): what a pixel column
 * holding many periods shows. */
void                 kymo_dial9_lanes_sum_periods    (KymoDial9Lanes *self,
                                                      guint           track,
                                                      gsize           lo,
                                                      gsize           hi,
                                                      KymoTime       *cpu,
                                                      KymoTime       *active);
/* Sums over all of @track's periods; FALSE when it has none. */
gboolean             kymo_dial9_lanes_get_cpu_total  (KymoDial9Lanes *self,
                                                      guint           track,
                                                      KymoTime       *cpu,
                                                      KymoTime       *active);
/* Times of @track's CPU-profile samples (not scheduler samples), sorted. */
const KymoTime      *kymo_dial9_lanes_get_cpu_samples (KymoDial9Lanes *self,
                                                      guint           track,
                                                      gsize          *n_samples);

/* 0 … 1: the share of the period its thread was on a CPU. */
double               kymo_cpu_period_share           (const KymoCpuPeriod *period);

/* kymo_dial9_tasks_new() that also makes the workers' lanes, as
 * kymo_dial9_lanes_new() would, in the same pass over the records:
 * @lanes gets them. */
KymoDial9Tasks      *kymo_dial9_tasks_new_with_lanes (KymoTrace               *trace,
                                                      const KymoPoiThresholds *thresholds,
                                                      KymoDial9Lanes         **lanes);

/* The wakes of @row (in file order) with where each led: a new array of
 * *@n_marks marks, NULL when there are none. */
KymoWakeMark        *kymo_dial9_tasks_dup_wake_marks (KymoDial9Tasks *tasks,
                                                      guint           row,
                                                      gsize          *n_marks);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoDial9Lanes, kymo_dial9_lanes_unref)

G_END_DECLS
