/* kymo-tband-model-private.h: the Tonbandgerät model's state, shared by the
 * files of its phases (kymo-tband-model.c: ids, lanes and warnings;
 * kymo-tband-model-tasks.c, -queues.c and -markers.c: what events name;
 * kymo-tband-model-events.c: what each event does; kymo-tband-model-finish.c:
 * what is still open at the end, and the tracks' names)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "kymo-tband-model.h"

G_BEGIN_DECLS

#define MAX_WARNINGS    500
#define MAX_NESTING     256
#define DENSE_IDS       4096
/* Tasks, queues or markers of one kind beyond this share one lane, so that
 * a hostile stream cannot make a track per event. */
#define MAX_IDS         65536
#define OVERFLOW_ID     G_MAXUINT32
#define MAX_TIME        (G_MAXINT64 / 4)

/* Top-level order: cores, then markers, tasks (by priority), queues. */
#define SORT_MARKERS    ((gint64) 1 << 40)
#define SORT_TASKS      ((gint64) 2 << 40)
#define SORT_QUEUES     ((gint64) 3 << 40)

typedef enum {
  STATE_NONE = -1,
  STATE_RUNNING,
  STATE_READY,
  STATE_BLOCKED,
  STATE_DELAYED,
  STATE_SUSPENDED,
  STATE_DELETED,
  N_STATES
} TaskState;

/* Queue operations, interned once: they are most of a busy stream. */
typedef enum {
  OP_SEND,
  OP_SEND_FROM_ISR,
  OP_OVERWRITE,
  OP_OVERWRITE_FROM_ISR,
  OP_RECEIVE,
  OP_RECEIVE_FROM_ISR,
  OP_CREATED,
  OP_RESET,
  OP_BLOCK_PEEK,
  OP_BLOCK_SEND,
  OP_BLOCK_RECEIVE,
  N_OPS
} QueueOp;

/* A track being filled. The lane keeps the track's events in arrays of its
 * own and hands them over at the end (kymo_track_take_*), so that adding
 * one is a store, and so that a second thread can populate the pages of
 * an array just before they are written. Arrays reserve room from the rate
 * seen so far instead of growing by doubling. Spans are kept per depth in
 * the order they were made, which is what the track keeps per depth too. */
#define LANE_RESERVE_FROM 4096   /* records before a lane reserves ahead */
#define LANE_RESERVE_STEP 8      /* at most this many times what it holds */
/* A lane this full has shown its rate: it may reserve up to BIG_STEP times
 * what it holds, as long as all lanes together have reserved less than
 * BUDGET bytes per input byte (a hostile file's early bursts do not get
 * to reserve without end). Growing an array often copies it (glibc keeps
 * arrays below its mmap threshold, raised by the last load's frees, in the
 * heap, where realloc moves them) and faults in fresh pages on the model's
 * thread; room reserved but never written costs address space only, and
 * is given back when the lane hands its arrays over. */
#define LANE_RESERVE_BIG      32768
#define LANE_RESERVE_BIG_STEP 256
#define LANE_RESERVE_BUDGET   8
/* The rate so far times this: a lane's rate is not quite constant. */
#define LANE_RESERVE_MARGIN 1.25
/* With a populating thread, each array asks for pages a window of this
 * many bytes at a time, POPULATE_AHEAD windows ahead of where it writes. */
#define POPULATE_WINDOW   ((gsize) 256 << 10)
#define POPULATE_AHEAD    8

typedef struct {
  gpointer data;
  gsize    len;
  gsize    room;
  gsize    limit;     /* room, or where to ask for more pages */
  gsize    asked;     /* pages were asked for up to here */
} Vec;

typedef struct {
  KymoTrack   *track;
  Vec          spans;          /* KymoSpan at depth 0: nearly every span */
  Vec         *deeper;         /* depths 1.. n_deeper */
  guint        n_deeper;
  Vec          instants;       /* KymoInstant */
  Vec          samples;        /* KymoSample */
} Lane;

/* Ids come from the target: small and dense in practice, anything in a
 * hostile file. */
typedef struct {
  GPtrArray  *dense;
  GHashTable *sparse;
  guint       count;
} IdMap;

typedef struct {
  KymoTime start;
  guint32  name;
  guint32  source;
} OpenSpan;

typedef struct {
  OpenSpan *items;
  guint     len;
  guint     room;
} OpenSpans;

typedef struct {
  guint32    id;
  char      *name;
  guint32    name_id;   /* interned label for events without a message, or 0 */
  Lane      *track;
  OpenSpans  open;      /* begins waiting for their end */
} EvtMarker;

typedef struct {
  guint32    id;
  char      *name;
  Lane      *track;
} ValMarker;

typedef struct {
  guint32    id;
  char      *name;
  guint32    cpu_name;      /* interned label for CPU lanes */
  guint32    taken_name;    /* "taken by <name>" */
  gboolean   cpu_name_stale;
  int        kind;          /* 0 normal, 1 idle, 2 timer service */
  guint32    idle_core;

  guint      group;
  Lane      *state_track;
  Lane      *prio_track;
  guint      n_children;

  TaskState  state;
  KymoTime   state_start;
  guint32    state_source;
  TaskState  out_state;     /* what it becomes when switched out */
  guint32    out_source;
  int        running_core;  /* -1 when not running */

  gboolean   has_priority;
  guint32    priority;

  IdMap      evtmarkers;
  IdMap      valmarkers;
} Task;

typedef struct {
  guint32    id;
  char      *name;
  int        kind;          /* queue_kind; a plain queue until told */
  guint      group;
  Lane      *length;
  Lane      *ops;
  Lane      *owner;
  Task      *holder;        /* mutex owner while taken (NULL: an ISR) */
  gboolean   taken;
  KymoTime   taken_at;
  guint32    taken_name;
  guint32    taken_source;
} Queue;

typedef struct {
  guint32 id;
  char   *name;
  guint32 name_id;          /* interned, or 0 */
} Isr;

typedef struct {
  guint32  isr;
  KymoTime start;
  guint32  name;
  guint32  source;
} OpenIsr;

typedef struct {
  OpenIsr *items;
  guint    len;
  guint    room;
} IsrStack;


typedef struct {
  guint      id;
  guint      group;
  Lane      *cpu;
  Lane      *isr;
  Lane      *warn;
  Task      *current;
  KymoTime   run_start;
  guint32    run_source;
  IsrStack   isr_stack;
  gboolean   has_ts;
  guint64    last_ticks;
  KymoTime   last_ns;
  gboolean   has_dropped;
  guint32    dropped;
} Core;

struct _KymoTbandModel
{
  KymoTrace *trace;
  GPtrArray *cores;         /* Core*, by core id; NULL for unused ids */
  IdMap      tasks;
  IdMap      queues;
  IdMap      isrs;
  IdMap      evtmarkers;
  IdMap      valmarkers;
  GPtrArray *task_list;     /* Task*, in order of appearance */
  GPtrArray *queue_list;
  GPtrArray *marker_list;   /* EvtMarker* (global) */
  GPtrArray *valmarker_list;
  GPtrArray *lanes;         /* Lane*, every track events go to */
  guint64    done;          /* input bytes read so far, of total */
  guint64    total;
  guint64    reserved;      /* bytes of room the lanes have asked for */
  KymoTbandPopulateFunc populate;
  gpointer   populate_data;

  guint64    resolution;
  guint64    max_ticks;     /* the most ticks that still fit KymoTime */
  gboolean   has_resolution;
  gboolean   seen_timed;
  gboolean   freertos;
  KymoTime   end;
  gboolean   has_end;
  gboolean   warned_clamp;

  guint      n_warnings;
  guint      n_dropped_warnings;

  guint32   *isr_unnamed;     /* "ISR #n" interned, by small id; 0 until needed */
  guint32    name_running[N_STATES];
  guint32    name_dropped_frame;
  guint32    name_no_task;
  guint32    name_ops[N_OPS];
};

/* kymo-tband-model.c */
void _kymo_tband_idmap_init (IdMap *map);
void _kymo_tband_idmap_set (IdMap    *map,
                            guint32   id,
                            gpointer  value);
Lane *_kymo_tband_lane_new (KymoTbandModel *self,
                            KymoTrack      *track);
void _kymo_tband_lane_flush (Lane *lane);
void _kymo_tband_vec_more (KymoTbandModel *self,
                           Vec            *vec,
                           gsize           size);
Vec *_kymo_tband_lane_deeper (Lane  *lane,
                              guint  depth);
void _kymo_tband_model_warn_at (KymoTbandModel *self,
                                guint64         offset,
                                KymoTime        ts,
                                const char     *format,
                                ...) G_GNUC_PRINTF (4, 5);

/* kymo-tband-model-events.c */
const char *_kymo_tband_task_display_name (Task *task,
                                           char  buf[32]);
void _kymo_tband_task_intern_names (KymoTbandModel *self,
                                    Task           *task);
const char *_kymo_tband_queue_kind_name (int kind);
void _kymo_tband_mutex_release (KymoTbandModel *self,
                                Queue          *queue,
                                KymoTime        ts,
                                guint           flags);
void _kymo_tband_evtmarker_close (KymoTbandModel *self,
                                  EvtMarker      *marker,
                                  KymoTime        end);

/* The hot path's helpers, in line wherever they are used. */

static inline gpointer
_kymo_tband_idmap_get (IdMap   *map,
                       guint32  id)
{
  if (id < map->dense->len)
    return map->dense->pdata[id];
  if (id < DENSE_IDS || map->sparse == NULL)
    return NULL;
  return g_hash_table_lookup (map->sparse, GUINT_TO_POINTER (id));
}

static inline guint32
_kymo_tband_idmap_limit (IdMap   *map,
                         guint32  id)
{
  if (G_LIKELY (map->count < MAX_IDS) || _kymo_tband_idmap_get (map, id) != NULL)
    return id;
  return OVERFLOW_ID;
}

static inline gpointer
_kymo_tband_vec_push (KymoTbandModel *self,
                      Vec            *vec,
                      gsize           size)
{
  if (G_UNLIKELY (vec->len == vec->limit))
    _kymo_tband_vec_more (self, vec, size);
  return (guint8 *) vec->data + size * vec->len++;
}

static inline void
_kymo_tband_lane_add_span (KymoTbandModel *self,
                           Lane           *lane,
                           KymoTime        start,
                           KymoTime        end,
                           guint32         name,
                           guint           depth,
                           guint           flags,
                           guint32         source)
{
  KymoSpan *span = _kymo_tband_vec_push (self, G_LIKELY (depth == 0) ? &lane->spans : _kymo_tband_lane_deeper (lane, depth),
                             sizeof (KymoSpan));

  span->start = start;
  /* As the track would store it. */
  span->end = MAX (end, start);
  span->name_flags = MIN (name, KYMO_NAME_MAX) | ((guint32) (flags & 0xFF) << 24);
  span->source = source;
}

static inline void
_kymo_tband_lane_add_instant (KymoTbandModel *self,
                              Lane           *lane,
                              KymoTime        ts,
                              guint32         name,
                              guint           flags,
                              guint32         source)
{
  KymoInstant *instant = _kymo_tband_vec_push (self, &lane->instants, sizeof (KymoInstant));

  instant->ts = ts;
  instant->name_flags = MIN (name, KYMO_NAME_MAX) | ((guint32) (flags & 0xFF) << 24);
  instant->source = source;
}

static inline void
_kymo_tband_lane_add_sample (KymoTbandModel *self,
                             Lane           *lane,
                             KymoTime        ts,
                             double          value)
{
  KymoSample *sample = _kymo_tband_vec_push (self, &lane->samples, sizeof (KymoSample));

  sample->ts = ts;
  sample->value = value;
}

static inline guint32
_kymo_tband_task_cpu_name (KymoTbandModel *self,
                           Task           *task)
{
  if (task->cpu_name_stale)
    _kymo_tband_task_intern_names (self, task);
  return task->cpu_name;
}

/* Ends the CPU lane span of the task running on @core. */
static inline void
_kymo_tband_core_switch_out (KymoTbandModel *self,
                             Core           *core,
                             KymoTime        ts,
                             guint           flags)
{
  Task *task = core->current;

  if (task == NULL)
    return;
  _kymo_tband_lane_add_span (self, core->cpu, core->run_start, ts, _kymo_tband_task_cpu_name (self, task), 0,
                       flags, core->run_source);
  task->running_core = -1;
  core->current = NULL;
}

/* kymo-tband-model-tasks.c, -queues.c and -markers.c: the things events
 * name, found or made with their tracks on first use. The lookups that
 * nearly every event makes are inline here. */
gpointer _kymo_tband_stack_grow (gpointer  items,
                                 guint    *room,
                                 gsize     size);
Core *_kymo_tband_add_core (KymoTbandModel *self,
                            guint           id);
void _kymo_tband_core_add_child (KymoTbandModel  *self,
                                 Core            *core,
                                 Lane           **slot,
                                 KymoTrackKind    kind,
                                 const char      *name,
                                 gint64           sort_key);
Lane *_kymo_tband_core_warn_track (KymoTbandModel *self,
                                   Core           *core);
Task *_kymo_tband_find_task (KymoTbandModel *self,
                             guint32         id);
void _kymo_tband_task_add_group (KymoTbandModel *self,
                                 Task           *task);
Lane *_kymo_tband_task_child (KymoTbandModel *self,
                              Task           *task,
                              KymoTrackKind   kind,
                              const char     *name);
guint32 _kymo_tband_task_taken_name (KymoTbandModel *self,
                                     Task           *task);
Task *_kymo_tband_current_task (KymoTbandModel       *self,
                                Core                 *core,
                                const KymoTbandEvent *event,
                                KymoTime              ts,
                                guint64               offset);
Queue *_kymo_tband_find_queue (KymoTbandModel *self,
                               guint32         id);
void _kymo_tband_queue_add_tracks (KymoTbandModel *self,
                                   Queue          *queue);
void _kymo_tband_mutex_take_or_give (KymoTbandModel *self,
                                     Queue          *queue,
                                     Core           *core,
                                     gboolean        from_isr,
                                     KymoTime        ts,
                                     guint32         length,
                                     guint32         source);
EvtMarker *_kymo_tband_get_evtmarker (IdMap    *map,
                                      guint32   id,
                                      gboolean *created);
ValMarker *_kymo_tband_get_valmarker (IdMap    *map,
                                      guint32   id,
                                      gboolean *created);
Lane *_kymo_tband_global_marker_track (KymoTbandModel *self,
                                       KymoTrackKind   kind,
                                       guint32         id);
void _kymo_tband_evtmarker_event (KymoTbandModel       *self,
                                  EvtMarker            *marker,
                                  const KymoTbandEvent *event,
                                  guint                 what,
                                  KymoTime              ts,
                                  guint32               source,
                                  guint64               offset);

static inline Core *
_kymo_tband_get_core (KymoTbandModel *self,
                      guint           id)
{
  Core *core;

  if (G_LIKELY (id < self->cores->len && (core = self->cores->pdata[id]) != NULL))
    return core;
  return _kymo_tband_add_core (self, id);
}

static inline Lane *
_kymo_tband_core_child (KymoTbandModel  *self,
                        Core            *core,
                        Lane           **slot,
                        KymoTrackKind    kind,
                        const char      *name,
                        gint64           sort_key)
{
  if (G_UNLIKELY (*slot == NULL))
    _kymo_tband_core_add_child (self, core, slot, kind, name, sort_key);
  return *slot;
}

/* An existing task: most events of a stream name one. */
static inline Task *
_kymo_tband_get_task (KymoTbandModel *self,
                      guint32         id)
{
  Task *task;

  if (G_LIKELY (id < self->tasks.dense->len && (task = self->tasks.dense->pdata[id]) != NULL))
    return task;
  return _kymo_tband_find_task (self, id);
}

static inline guint
_kymo_tband_task_group (KymoTbandModel *self,
                        Task           *task)
{
  if (G_UNLIKELY (task->group == KYMO_NO_TRACK))
    _kymo_tband_task_add_group (self, task);
  return task->group;
}

static inline void
_kymo_tband_task_set_state (KymoTbandModel *self,
                            Task           *task,
                            KymoTime        ts,
                            TaskState       state,
                            guint32         source)
{
  _kymo_tband_task_group (self, task);
  if (task->state != STATE_NONE && task->state != STATE_DELETED && ts > task->state_start)
    _kymo_tband_lane_add_span (self, task->state_track, task->state_start, ts,
                               self->name_running[task->state], 0, KYMO_EVENT_STATE,
                               task->state_source);
  task->state = state;
  task->state_start = ts;
  task->state_source = source;
}

static inline gboolean
_kymo_tband_task_is_running (Task *task)
{
  return task->running_core >= 0;
}

static inline Queue *
_kymo_tband_get_queue (KymoTbandModel *self,
                       guint32         id)
{
  Queue *queue;

  if (G_LIKELY (id < self->queues.dense->len && (queue = self->queues.dense->pdata[id]) != NULL))
    return queue;
  return _kymo_tband_find_queue (self, id);
}

static inline void
_kymo_tband_queue_tracks (KymoTbandModel *self,
                          Queue          *queue)
{
  if (G_UNLIKELY (queue->group == KYMO_NO_TRACK))
    _kymo_tband_queue_add_tracks (self, queue);
}

static inline void
_kymo_tband_queue_op (KymoTbandModel *self,
                      Queue          *queue,
                      KymoTime        ts,
                      QueueOp         op,
                      guint32         source)
{
  _kymo_tband_queue_tracks (self, queue);
  _kymo_tband_lane_add_instant (self, queue->ops, ts, self->name_ops[op], 0, source);
}

static inline void
_kymo_tband_queue_length (KymoTbandModel *self,
                          Queue          *queue,
                          KymoTime        ts,
                          guint32         length)
{
  _kymo_tband_queue_tracks (self, queue);
  _kymo_tband_lane_add_sample (self, queue->length, ts, length);
}

static inline gboolean
_kymo_tband_queue_is_mutex (Queue *queue)
{
  return queue->kind == 3 || queue->kind == 4;
}

static inline void
_kymo_tband_mutex_update (KymoTbandModel *self,
                          Queue          *queue,
                          Core           *core,
                          gboolean        from_isr,
                          KymoTime        ts,
                          guint32         length,
                          guint32         source)
{
  if (_kymo_tband_queue_is_mutex (queue))
    _kymo_tband_mutex_take_or_give (self, queue, core, from_isr, ts, length, source);
}

G_END_DECLS
