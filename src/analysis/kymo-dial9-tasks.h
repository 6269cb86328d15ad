/* kymo-dial9-tasks.h: Tokio tasks of a dial9 trace, their polls and wakes,
 * and the trace's points of interest
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-poi.h"
#include "kymo-event-set.h"
#include "kymo-trace.h"

G_BEGIN_DECLS

/* One row per task (per runtime when the trace has several). */
typedef struct {
  guint64  task_id;
  guint32  runtime;      /* the runtime's group track, or KYMO_NO_TRACK */
  guint32  spawn_loc;    /* interned, as recorded (0 when unknown) */
  KymoTime spawned;      /* KYMO_TIME_NONE when not seen */
  KymoTime terminated;
  guint64  polls;
  KymoTime poll_total;
  KymoTime poll_max;
  guint64  wakes;        /* wake records naming the task as woken */
  gboolean instrumented; /* FALSE when its spawn record says so */
} KymoDial9Task;

/* A poll is the depth-0 span it drew on a worker's track. */
typedef struct {
  guint32 track;
  guint32 span;          /* index in kymo_track_get_spans() */
} KymoDial9PollRef;

#define KYMO_DIAL9_NO_ROW G_MAXUINT32

typedef struct _KymoDial9Tasks KymoDial9Tasks;

/* One pass over the sealed trace's records: the tasks, each task's polls
 * and wakes and, unless @thresholds is NULL, the points of interest those
 * thresholds pick. Safe on any thread. Empty (no rows) for a trace
 * without dial9 task records. */
KymoDial9Tasks         *kymo_dial9_tasks_new           (KymoTrace               *trace,
                                                        const KymoPoiThresholds *thresholds);
KymoDial9Tasks         *kymo_dial9_tasks_ref           (KymoDial9Tasks          *self);
/* Drops a reference: the last one frees. */
void                    kymo_dial9_tasks_free          (KymoDial9Tasks          *self);

/* The table and the points of interest are made first: each row's polls
 * and wakes (the getters below) are placed on first use, in one pass.
 * This makes them now, on the calling thread (any: a getter called
 * meanwhile waits for it), so that a user's first selection does not. */
void                    kymo_dial9_tasks_prepare_polls (KymoDial9Tasks          *self);

KymoTrace              *kymo_dial9_tasks_get_trace     (KymoDial9Tasks          *self);

/* Rows by task id, then runtime name. */
const KymoDial9Task    *kymo_dial9_tasks_get_rows      (KymoDial9Tasks          *self,
                                                        gsize                   *n_rows);
/* The runtime name of a row ("" when unknown) and its spawn location as
 * people read it ("" when unknown): both point into the trace, and the
 * location is shortened at each call, not stored per row. */
const char             *kymo_dial9_tasks_get_runtime   (KymoDial9Tasks          *self,
                                                        guint                    row);
const char             *kymo_dial9_tasks_get_spawn_loc (KymoDial9Tasks          *self,
                                                        guint                    row);
/* The first row of the task with @task_id, or KYMO_DIAL9_NO_ROW. */
guint32                 kymo_dial9_tasks_find_task     (KymoDial9Tasks          *self,
                                                        guint64                  task_id);

/* Every poll: one array, row after row, each row's by track then span
 * (on a track, that is start order). */
gsize                   kymo_dial9_tasks_get_n_polls   (KymoDial9Tasks          *self);
/* The polls of one row: its slice of that array. */
const KymoDial9PollRef *kymo_dial9_tasks_get_polls_of  (KymoDial9Tasks          *self,
                                                        guint                    row,
                                                        gsize                   *n_polls);
/* The row whose poll drew span @span of @track, or KYMO_DIAL9_NO_ROW. */
guint32                 kymo_dial9_tasks_find_poll     (KymoDial9Tasks          *self,
                                                        guint                    track,
                                                        guint32                  span);

/* The wake records naming the row's task as woken, in file order, as
 * indexes into kymo_records_get_all(): a record's value is the waking
 * task's id (0 when no task woke it). */
const guint32          *kymo_dial9_tasks_get_wakes_of  (KymoDial9Tasks          *self,
                                                        guint                    row,
                                                        gsize                   *n_wakes);

/* A new sealed set of the row's polls, for kymo_session_set_highlight(). */
KymoEventSet           *kymo_dial9_tasks_dup_polls_set (KymoDial9Tasks          *self,
                                                        guint                    row);
/* The same with the wakes of the task (the instants of the wake records
 * naming it as woken), so that its wake markers show too. */
KymoEventSet           *kymo_dial9_tasks_dup_task_set  (KymoDial9Tasks          *self,
                                                        guint                    row);

/* The points of interest (none when made without thresholds). A point
 * is made when first asked for (a block of them, in a few microseconds),
 * on any thread, and stays as long as @self. */
gsize                   kymo_dial9_tasks_get_n_pois    (KymoDial9Tasks          *self);
const KymoPoi          *kymo_dial9_tasks_get_poi       (KymoDial9Tasks          *self,
                                                        KymoPoiOrder             order,
                                                        gsize                    position);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoDial9Tasks, kymo_dial9_tasks_free)

G_END_DECLS
