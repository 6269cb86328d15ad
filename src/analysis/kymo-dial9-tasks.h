/* kymo-dial9-tasks.h: Tokio tasks of a dial9 trace, their polls and wakes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

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

/* One poll: a depth-0 span of a worker track. */
typedef struct {
  KymoTime start;
  KymoTime end;
  guint32  track;
  guint32  span;         /* index in kymo_track_get_spans() */
  guint32  task;         /* row */
  guint32  source;
} KymoDial9Poll;

typedef struct {
  KymoTime ts;
  guint64  waker_id;     /* 0 when no task woke it */
  guint32  waker;        /* row of the waking task, or G_MAXUINT32 */
  guint32  woken;        /* row */
  guint32  source;
  guint32  pad;
} KymoDial9Wake;

typedef struct _KymoDial9Tasks KymoDial9Tasks;

/* Reads the sealed trace's records and spans; safe on any thread. Empty
 * (no rows) for a trace without dial9 task records. */
KymoDial9Tasks      *kymo_dial9_tasks_new           (KymoTrace      *trace);
void                 kymo_dial9_tasks_free          (KymoDial9Tasks *self);

KymoTrace           *kymo_dial9_tasks_get_trace     (KymoDial9Tasks *self);
/* Rows by task id, then runtime name. */
const KymoDial9Task *kymo_dial9_tasks_get_rows      (KymoDial9Tasks *self,
                                                     gsize          *n_rows);
/* The runtime name of a row ("" when unknown) and its spawn location as
 * people read it (shortened; "" when unknown). */
const char          *kymo_dial9_tasks_get_runtime   (KymoDial9Tasks *self,
                                                     guint           row);
const char          *kymo_dial9_tasks_get_spawn_loc (KymoDial9Tasks *self,
                                                     guint           row);
/* Every poll, in start order. */
const KymoDial9Poll *kymo_dial9_tasks_get_polls     (KymoDial9Tasks *self,
                                                     gsize          *n_polls);
/* The polls of one row, in start order (indexes into get_polls()). */
const guint32       *kymo_dial9_tasks_get_polls_of  (KymoDial9Tasks *self,
                                                     guint           row,
                                                     gsize          *n_polls);
/* The wakes of one row (it was woken), in file order. */
const KymoDial9Wake *kymo_dial9_tasks_get_wakes_of  (KymoDial9Tasks *self,
                                                     guint           row,
                                                     gsize          *n_wakes);
/* The poll whose span is @span of @track, or NULL. */
const KymoDial9Poll *kymo_dial9_tasks_find_poll     (KymoDial9Tasks *self,
                                                     guint           track,
                                                     guint32         span);
/* A new sealed set of the row's polls, for kymo_session_set_highlight(). */
KymoEventSet        *kymo_dial9_tasks_dup_polls_set (KymoDial9Tasks *self,
                                                     guint           row);
/* The same with the wakes of the task (the instants of the wake records
 * naming it as woken), so that its wake markers show too. */
KymoEventSet        *kymo_dial9_tasks_dup_task_set  (KymoDial9Tasks *self,
                                                     guint           row);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoDial9Tasks, kymo_dial9_tasks_free)

G_END_DECLS
