/* kymo-tband-model.c: Tonbandgerät events as core, task, ISR and marker lanes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The layout follows what SEGGER SystemView users expect:
 *   Core N     ISRs (nested isr_enter/isr_exit spans), CPU (the running
 *              task), Warnings (dropped events, bad frames)
 *   <task>     State (running/ready/blocked/delayed/suspended), Priority,
 *              the task's own markers; ordered by priority
 *   <marker>   global event markers (instants and spans) and value markers
 *   <queue>    Length, Operations, and for mutexes the owner
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include <stdarg.h>
#include <string.h>

#include "kymo-tband-model.h"

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

static const char * const state_names[N_STATES] = {
  "running", "ready", "blocked", "delayed", "suspended", "deleted",
};

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

static const char * const op_names[N_OPS] = {
  "send", "send from ISR", "overwrite", "overwrite from ISR", "receive", "receive from ISR",
  "created", "reset", "blocked on peek", "blocked on send", "blocked on receive",
};

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

/* Room for one more item in a stack of @size-byte items. */
static G_GNUC_NO_INLINE gpointer
stack_grow (gpointer  items,
            guint    *room,
            gsize     size)
{
  *room = MAX (*room * 2, 8);
  return g_realloc_n (items, *room, size);
}

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

/* IdMap */

static void
idmap_init (IdMap *map)
{
  map->dense = g_ptr_array_new ();
  map->sparse = NULL;
  map->count = 0;
}

static void
idmap_clear (IdMap          *map,
             GDestroyNotify  free_func)
{
  if (map->dense == NULL)
    return;
  for (guint i = 0; i < map->dense->len; i++)
    if (map->dense->pdata[i] && free_func)
      free_func (map->dense->pdata[i]);
  g_clear_pointer (&map->dense, g_ptr_array_unref);
  if (map->sparse)
    {
      GHashTableIter iter;
      gpointer value;

      g_hash_table_iter_init (&iter, map->sparse);
      while (g_hash_table_iter_next (&iter, NULL, &value))
        if (free_func)
          free_func (value);
      g_clear_pointer (&map->sparse, g_hash_table_unref);
    }
}

static inline gpointer
idmap_get (IdMap   *map,
           guint32  id)
{
  if (id < map->dense->len)
    return map->dense->pdata[id];
  if (id < DENSE_IDS || map->sparse == NULL)
    return NULL;
  return g_hash_table_lookup (map->sparse, GUINT_TO_POINTER (id));
}

static inline guint32
idmap_limit (IdMap   *map,
             guint32  id)
{
  if (G_LIKELY (map->count < MAX_IDS) || idmap_get (map, id) != NULL)
    return id;
  return OVERFLOW_ID;
}

static void
idmap_set (IdMap    *map,
           guint32   id,
           gpointer  value)
{
  map->count++;
  if (id < DENSE_IDS)
    {
      if (id >= map->dense->len)
        g_ptr_array_set_size (map->dense, id + 1);
      map->dense->pdata[id] = value;
      return;
    }
  if (map->sparse == NULL)
    map->sparse = g_hash_table_new (NULL, NULL);
  g_hash_table_insert (map->sparse, GUINT_TO_POINTER (id), value);
}

/* Lanes */

static Lane *
lane_new (KymoTbandModel *self,
          KymoTrack      *track)
{
  Lane *lane = g_new0 (Lane, 1);

  lane->track = track;
  g_ptr_array_add (self->lanes, lane);
  return lane;
}

static void
lane_free (gpointer data)
{
  Lane *lane = data;

  g_free (lane->spans.data);
  for (guint d = 0; d < lane->n_deeper; d++)
    g_free (lane->deeper[d].data);
  g_free (lane->deeper);
  g_free (lane->instants.data);
  g_free (lane->samples.data);
  g_free (lane);
}

/* How many records a lane holding @n now should have room for: what the
 * rate so far predicts for the whole input, but never a wild guess from
 * the first few percent. */
static gsize
lane_room (KymoTbandModel *self,
           gsize           n)
{
  gsize room = n * 2;

  if (n < LANE_RESERVE_FROM)
    return MAX (room, 64);
  if (self->done > 0 && self->total > self->done)
    {
      double ahead = (double) n * ((double) self->total / (double) self->done) * LANE_RESERVE_MARGIN;
      gsize step = LANE_RESERVE_STEP;

      if (n >= LANE_RESERVE_BIG && self->reserved / LANE_RESERVE_BUDGET < self->total)
        step = LANE_RESERVE_BIG_STEP;

      room = ahead < (double) n * step ? (gsize) ahead : n * step;
      room = MAX (room, n + n / 4);
    }
  return room + 1024;
}

/* The vector of @size-byte records is full, or at its next window. */
static G_GNUC_NO_INLINE void
vec_more (KymoTbandModel *self,
          Vec            *vec,
          gsize           size)
{
  gsize window = POPULATE_WINDOW / size;

  if (vec->len == vec->room)
    {
      gsize room = lane_room (self, vec->len);
      gpointer data = g_try_realloc_n (vec->data, room, size);

      /* A generous guess the system will not grant falls back to a step
       * the input has already shown it needs. */
      if (data == NULL)
        {
          room = vec->len + vec->len / 4 + 1024;
          data = g_realloc_n (vec->data, room, size);
        }
      self->reserved += (room - vec->room) * size;
      vec->data = data;
      vec->room = room;
      /* Pages asked for at the old place may not have moved along. */
      vec->asked = vec->len;
    }
  vec->limit = vec->room;
  /* The window the model writes next it takes as it comes; the ones after
   * it are for the other thread to populate meanwhile. */
  if (self->populate != NULL && vec->room - vec->len > window)
    {
      gsize from = MAX (vec->asked, vec->len + window);
      gsize to = MIN (vec->len + POPULATE_AHEAD * window, vec->room);

      /* Room reserved with a margin may never be written: pages beyond
       * what the rate so far expects would be zeroed for nothing. */
      if (self->done > 0 && self->total > self->done)
        {
          double expect = (double) vec->len * ((double) self->total / (double) self->done) + window;

          if (expect < (double) to)
            to = (gsize) expect;
        }
      if (to > from)
        self->populate ((guint8 *) vec->data + from * size, (to - from) * size, self->populate_data);
      vec->asked = MAX (vec->asked, to);
      vec->limit = vec->len + window;
    }
}

static inline gpointer
vec_push (KymoTbandModel *self,
          Vec            *vec,
          gsize           size)
{
  if (G_UNLIKELY (vec->len == vec->limit))
    vec_more (self, vec, size);
  return (guint8 *) vec->data + size * vec->len++;
}

static G_GNUC_NO_INLINE Vec *
lane_deeper (Lane  *lane,
             guint  depth)
{
  if (depth > lane->n_deeper)
    {
      lane->deeper = g_renew (Vec, lane->deeper, depth);
      memset (lane->deeper + lane->n_deeper, 0, (depth - lane->n_deeper) * sizeof (Vec));
      lane->n_deeper = depth;
    }
  return &lane->deeper[depth - 1];
}

static inline void
lane_add_span (KymoTbandModel *self,
               Lane           *lane,
               KymoTime        start,
               KymoTime        end,
               guint32         name,
               guint           depth,
               guint           flags,
               guint32         source)
{
  KymoSpan *span = vec_push (self, G_LIKELY (depth == 0) ? &lane->spans : lane_deeper (lane, depth),
                             sizeof (KymoSpan));

  span->start = start;
  /* As the track would store it. */
  span->end = MAX (end, start);
  span->name_flags = MIN (name, KYMO_NAME_MAX) | ((guint32) (flags & 0xFF) << 24);
  span->source = source;
}

static inline void
lane_add_instant (KymoTbandModel *self,
                  Lane           *lane,
                  KymoTime        ts,
                  guint32         name,
                  guint           flags,
                  guint32         source)
{
  KymoInstant *instant = vec_push (self, &lane->instants, sizeof (KymoInstant));

  instant->ts = ts;
  instant->name_flags = MIN (name, KYMO_NAME_MAX) | ((guint32) (flags & 0xFF) << 24);
  instant->source = source;
}

static inline void
lane_add_sample (KymoTbandModel *self,
                 Lane           *lane,
                 KymoTime        ts,
                 double          value)
{
  KymoSample *sample = vec_push (self, &lane->samples, sizeof (KymoSample));

  sample->ts = ts;
  sample->value = value;
}

/* Hands the lane's events to its track: depth by depth, as the track would
 * have ordered them. Room reserved beyond them is given back here for
 * instants and samples, and by the track's seal for spans. */
static void
lane_flush (Lane *lane)
{
  kymo_track_take_spans (lane->track, 0, g_steal_pointer (&lane->spans.data), lane->spans.len);
  for (guint d = 0; d < lane->n_deeper; d++)
    kymo_track_take_spans (lane->track, d + 1, g_steal_pointer (&lane->deeper[d].data), lane->deeper[d].len);
  kymo_track_take_instants (lane->track, g_realloc_n (g_steal_pointer (&lane->instants.data), lane->instants.len,
                                                      sizeof (KymoInstant)),
                            lane->instants.len);
  kymo_track_take_samples (lane->track, g_realloc_n (g_steal_pointer (&lane->samples.data), lane->samples.len,
                                                     sizeof (KymoSample)),
                           lane->samples.len);
  g_clear_pointer (&lane->deeper, g_free);
  lane->n_deeper = 0;
  memset (&lane->spans, 0, sizeof lane->spans);
  memset (&lane->instants, 0, sizeof lane->instants);
  memset (&lane->samples, 0, sizeof lane->samples);
}

void
kymo_tband_model_set_populate (KymoTbandModel        *self,
                               KymoTbandPopulateFunc  func,
                               gpointer               user_data)
{
  self->populate = func;
  self->populate_data = user_data;
}

void
kymo_tband_model_set_progress (KymoTbandModel *self,
                               guint64         done,
                               guint64         total)
{
  self->done = done;
  self->total = total;
}

/* Freeing */

static void
evtmarker_free (gpointer data)
{
  EvtMarker *marker = data;

  g_free (marker->name);
  g_free (marker->open.items);
  g_free (marker);
}

static void
valmarker_free (gpointer data)
{
  ValMarker *marker = data;

  g_free (marker->name);
  g_free (marker);
}

static void
task_free (gpointer data)
{
  Task *task = data;

  g_free (task->name);
  idmap_clear (&task->evtmarkers, evtmarker_free);
  idmap_clear (&task->valmarkers, valmarker_free);
  g_free (task);
}

static void
queue_free (gpointer data)
{
  Queue *queue = data;

  g_free (queue->name);
  g_free (queue);
}

static void
isr_free (gpointer data)
{
  Isr *isr = data;

  g_free (isr->name);
  g_free (isr);
}

static void
core_free (gpointer data)
{
  Core *core = data;

  if (core == NULL)
    return;
  g_free (core->isr_stack.items);
  g_free (core);
}

KymoTbandModel *
kymo_tband_model_new (KymoTrace *trace)
{
  KymoTbandModel *self = g_new0 (KymoTbandModel, 1);

  self->trace = trace;
  self->cores = g_ptr_array_new_with_free_func (core_free);
  idmap_init (&self->tasks);
  idmap_init (&self->queues);
  idmap_init (&self->isrs);
  idmap_init (&self->evtmarkers);
  idmap_init (&self->valmarkers);
  self->task_list = g_ptr_array_new ();
  self->queue_list = g_ptr_array_new ();
  self->marker_list = g_ptr_array_new ();
  self->valmarker_list = g_ptr_array_new ();
  self->lanes = g_ptr_array_new_with_free_func (lane_free);
  self->resolution = 1;
  self->max_ticks = MAX_TIME;
  for (guint i = 0; i < N_STATES; i++)
    self->name_running[i] = kymo_trace_intern (trace, state_names[i]);
  for (guint i = 0; i < N_OPS; i++)
    self->name_ops[i] = kymo_trace_intern (trace, op_names[i]);
  return self;
}

void
kymo_tband_model_free (KymoTbandModel *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->cores);
  idmap_clear (&self->tasks, task_free);
  idmap_clear (&self->queues, queue_free);
  idmap_clear (&self->isrs, isr_free);
  g_free (self->isr_unnamed);
  idmap_clear (&self->evtmarkers, evtmarker_free);
  idmap_clear (&self->valmarkers, valmarker_free);
  g_ptr_array_unref (self->task_list);
  g_ptr_array_unref (self->queue_list);
  g_ptr_array_unref (self->marker_list);
  g_ptr_array_unref (self->valmarker_list);
  g_ptr_array_unref (self->lanes);
  g_free (self);
}

/* Warnings */

static void model_warn_valist (KymoTbandModel *self,
                               guint64         offset,
                               KymoTime        ts,
                               const char     *format,
                               va_list         args) G_GNUC_PRINTF (4, 0);

static void
model_warn_valist (KymoTbandModel *self,
                   guint64         offset,
                   KymoTime        ts,
                   const char     *format,
                   va_list         args)
{
  g_autofree char *message = NULL;

  /* A hostile file can hold millions of bad frames: keep the first few. */
  if (self->n_warnings >= MAX_WARNINGS)
    {
      self->n_dropped_warnings++;
      return;
    }
  self->n_warnings++;
  message = g_strdup_vprintf (format, args);
  kymo_trace_add_warning (self->trace, offset, ts, "%s", message);
}

void
kymo_tband_model_warn (KymoTbandModel *self,
                       guint64         offset,
                       const char     *format,
                       ...)
{
  va_list args;

  va_start (args, format);
  model_warn_valist (self, offset, KYMO_TIME_NONE, format, args);
  va_end (args);
}

static void G_GNUC_PRINTF (4, 5)
model_warn_at (KymoTbandModel *self,
               guint64         offset,
               KymoTime        ts,
               const char     *format,
               ...)
{
  va_list args;

  va_start (args, format);
  model_warn_valist (self, offset, ts, format, args);
  va_end (args);
}

/* Cores */

static Core *add_core (KymoTbandModel *self,
                       guint           id);

static inline Core *
get_core (KymoTbandModel *self,
          guint           id)
{
  Core *core;

  if (G_LIKELY (id < self->cores->len && (core = self->cores->pdata[id]) != NULL))
    return core;
  return add_core (self, id);
}

static Core *
add_core (KymoTbandModel *self,
          guint           id)
{
  Core *core;
  g_autofree char *name = NULL;

  core = g_new0 (Core, 1);
  core->id = id;
  name = g_strdup_printf ("Core %u", id);
  core->group = kymo_trace_add_track (self->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, name);
  {
    KymoTrack *group = kymo_trace_get_track (self->trace, core->group);

    kymo_track_set_group_kind (group, "core");
    kymo_track_set_sort_key (group, id);
    kymo_track_set_tag (group, id);
  }
  if (id >= self->cores->len)
    g_ptr_array_set_size (self->cores, id + 1);
  self->cores->pdata[id] = core;
  return core;
}

static G_GNUC_NO_INLINE void
core_add_child (KymoTbandModel  *self,
                Core            *core,
                Lane           **slot,
                KymoTrackKind    kind,
                const char      *name,
                gint64           sort_key)
{
  guint id = kymo_trace_add_track (self->trace, core->group, kind, name);

  *slot = lane_new (self, kymo_trace_get_track (self->trace, id));
  kymo_track_set_sort_key ((*slot)->track, sort_key);
  kymo_track_set_tag ((*slot)->track, core->id);
}

static inline Lane *
core_child (KymoTbandModel  *self,
            Core            *core,
            Lane           **slot,
            KymoTrackKind    kind,
            const char      *name,
            gint64           sort_key)
{
  if (G_UNLIKELY (*slot == NULL))
    core_add_child (self, core, slot, kind, name, sort_key);
  return *slot;
}

static Lane *
core_warn_track (KymoTbandModel *self,
                 Core           *core)
{
  return core_child (self, core, &core->warn, KYMO_TRACK_INSTANT, "Warnings", 2);
}

/* Tasks */

static G_GNUC_NO_INLINE Task *
find_task (KymoTbandModel *self,
           guint32         id)
{
  Task *task;

  id = idmap_limit (&self->tasks, id);
  task = idmap_get (&self->tasks, id);

  if (task != NULL)
    return task;

  task = g_new0 (Task, 1);
  task->id = id;
  task->group = KYMO_NO_TRACK;
  task->state = STATE_NONE;
  task->out_state = STATE_READY;
  task->out_source = KYMO_NO_SOURCE;
  task->running_core = -1;
  task->cpu_name_stale = TRUE;
  idmap_init (&task->evtmarkers);
  idmap_init (&task->valmarkers);
  idmap_set (&self->tasks, id, task);
  g_ptr_array_add (self->task_list, task);
  return task;
}

/* An existing task: most events of a stream name one. */
static inline Task *
get_task (KymoTbandModel *self,
          guint32         id)
{
  Task *task;

  if (G_LIKELY (id < self->tasks.dense->len && (task = self->tasks.dense->pdata[id]) != NULL))
    return task;
  return find_task (self, id);
}

static G_GNUC_NO_INLINE void
task_add_group (KymoTbandModel *self,
                Task           *task)
{
  g_autofree char *name = g_strdup_printf ("Task #%u", task->id);
  KymoTrack *group;

  task->group = kymo_trace_add_track (self->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, name);
  group = kymo_trace_get_track (self->trace, task->group);
  kymo_track_set_group_kind (group, "task");
  kymo_track_set_tag (group, task->id);
  task->state_track = lane_new (self, kymo_trace_get_track (self->trace,
                                                            kymo_trace_add_track (self->trace, task->group,
                                                                                  KYMO_TRACK_THREAD, "State")));
  kymo_track_set_sort_key (task->state_track->track, 0);
  kymo_track_set_tag (task->state_track->track, task->id);
}

static inline guint
task_group (KymoTbandModel *self,
            Task           *task)
{
  if (G_UNLIKELY (task->group == KYMO_NO_TRACK))
    task_add_group (self, task);
  return task->group;
}

static Lane *
task_child (KymoTbandModel *self,
            Task           *task,
            KymoTrackKind   kind,
            const char     *name)
{
  KymoTrack *track;

  track = kymo_trace_get_track (self->trace,
                                kymo_trace_add_track (self->trace, task_group (self, task), kind, name));
  kymo_track_set_sort_key (track, 1 + task->n_children++);
  kymo_track_set_tag (track, task->id);
  return lane_new (self, track);
}

static const char *
task_display_name (Task *task,
                   char  buf[32])
{
  if (task->name != NULL && task->name[0] != '\0')
    return task->name;
  g_snprintf (buf, 32, "Task #%u", task->id);
  return buf;
}

static void
task_intern_names (KymoTbandModel *self,
                   Task           *task)
{
  g_autofree char *taken = NULL;
  char buf[32];

  task->cpu_name = kymo_trace_intern (self->trace, task_display_name (task, buf));
  taken = g_strdup_printf ("taken by %s", task_display_name (task, buf));
  task->taken_name = kymo_trace_intern (self->trace, taken);
  task->cpu_name_stale = FALSE;
}

static inline guint32
task_cpu_name (KymoTbandModel *self,
               Task           *task)
{
  if (task->cpu_name_stale)
    task_intern_names (self, task);
  return task->cpu_name;
}

static guint32
task_taken_name (KymoTbandModel *self,
                 Task           *task)
{
  if (task->cpu_name_stale)
    task_intern_names (self, task);
  return task->taken_name;
}

static inline void
task_set_state (KymoTbandModel *self,
                Task           *task,
                KymoTime        ts,
                TaskState       state,
                guint32         source)
{
  task_group (self, task);
  if (task->state != STATE_NONE && task->state != STATE_DELETED && ts > task->state_start)
    lane_add_span (self, task->state_track, task->state_start, ts,
                         self->name_running[task->state], 0, KYMO_EVENT_STATE,
                         task->state_source);
  task->state = state;
  task->state_start = ts;
  task->state_source = source;
}

static gboolean
task_is_running (Task *task)
{
  return task->running_core >= 0;
}

/* Ends the CPU lane span of the task running on @core. */
static inline void
core_switch_out (KymoTbandModel *self,
                 Core           *core,
                 KymoTime        ts,
                 guint           flags)
{
  Task *task = core->current;

  if (task == NULL)
    return;
  lane_add_span (self, core->cpu, core->run_start, ts, task_cpu_name (self, task), 0,
                       flags, core->run_source);
  task->running_core = -1;
  core->current = NULL;
}

static Task *
current_task (KymoTbandModel       *self,
              Core                 *core,
              const KymoTbandEvent *event,
              KymoTime              ts,
              guint64               offset)
{
  if (core->current == NULL)
    {
      const KymoTbandEventInfo *info = kymo_tband_event_info (event->id);

      model_warn_at (self, offset, ts, "%s on core %u while no task is known to run there",
                     info->name, core->id);
      if (self->name_no_task == 0)
        self->name_no_task = kymo_trace_intern (self->trace, "no current task");
      lane_add_instant (self, core_warn_track (self, core), ts, self->name_no_task,
                              KYMO_EVENT_WARNING, KYMO_NO_SOURCE);
    }
  return core->current;
}

/* Queues */

static const char *
queue_kind_name (int kind)
{
  switch (kind)
    {
    case 0: return "queue";
    case 1: return "counting semaphore";
    case 2: return "binary semaphore";
    case 3: return "mutex";
    case 4: return "recursive mutex";
    case 5: return "queue set";
    default: return NULL;
    }
}

static gboolean
queue_is_mutex (Queue *queue)
{
  return queue->kind == 3 || queue->kind == 4;
}

static G_GNUC_NO_INLINE Queue *
find_queue (KymoTbandModel *self,
            guint32         id)
{
  Queue *queue;

  id = idmap_limit (&self->queues, id);
  queue = idmap_get (&self->queues, id);

  if (queue != NULL)
    return queue;
  queue = g_new0 (Queue, 1);
  queue->id = id;
  queue->kind = 0;
  queue->group = KYMO_NO_TRACK;
  idmap_set (&self->queues, id, queue);
  g_ptr_array_add (self->queue_list, queue);
  return queue;
}

static inline Queue *
get_queue (KymoTbandModel *self,
           guint32         id)
{
  Queue *queue;

  if (G_LIKELY (id < self->queues.dense->len && (queue = self->queues.dense->pdata[id]) != NULL))
    return queue;
  return find_queue (self, id);
}

static G_GNUC_NO_INLINE void
queue_add_tracks (KymoTbandModel *self,
                  Queue          *queue)
{
  KymoTrack *group;

  queue->group = kymo_trace_add_track (self->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "Queue");
  group = kymo_trace_get_track (self->trace, queue->group);
  kymo_track_set_group_kind (group, "queue");
  kymo_track_set_tag (group, queue->id);
  kymo_track_set_sort_key (group, SORT_QUEUES + queue->id);
  queue->length = lane_new (self, kymo_trace_get_track (self->trace,
                                                        kymo_trace_add_track (self->trace, queue->group,
                                                                              KYMO_TRACK_COUNTER, "Length")));
  kymo_track_set_sort_key (queue->length->track, 1);
  queue->ops = lane_new (self, kymo_trace_get_track (self->trace,
                                                     kymo_trace_add_track (self->trace, queue->group,
                                                                           KYMO_TRACK_INSTANT, "Operations")));
  kymo_track_set_sort_key (queue->ops->track, 2);
}

static inline void
queue_tracks (KymoTbandModel *self,
              Queue          *queue)
{
  if (G_UNLIKELY (queue->group == KYMO_NO_TRACK))
    queue_add_tracks (self, queue);
}

static inline void
queue_op (KymoTbandModel *self,
          Queue          *queue,
          KymoTime        ts,
          QueueOp         op,
          guint32         source)
{
  queue_tracks (self, queue);
  lane_add_instant (self, queue->ops, ts, self->name_ops[op], 0, source);
}

static inline void
queue_length (KymoTbandModel *self,
              Queue          *queue,
              KymoTime        ts,
              guint32         length)
{
  queue_tracks (self, queue);
  lane_add_sample (self, queue->length, ts, length);
}

static void
mutex_release (KymoTbandModel *self,
               Queue          *queue,
               KymoTime        ts,
               guint           flags)
{
  if (!queue->taken)
    return;
  lane_add_span (self, queue->owner, queue->taken_at, ts, queue->taken_name, 0, flags,
                       queue->taken_source);
  queue->taken = FALSE;
  queue->holder = NULL;
}

/* A mutex is a queue of length one: a receive that empties it is a take,
 * a send that fills it a give. */
static G_GNUC_NO_INLINE void
mutex_take_or_give (KymoTbandModel *self,
                    Queue          *queue,
                    Core           *core,
                    gboolean        from_isr,
                    KymoTime        ts,
                    guint32         length,
                    guint32         source)
{
  if (length > 0)
    {
      mutex_release (self, queue, ts, 0);
      return;
    }
  if (queue->taken)
    return;
  if (queue->owner == NULL)
    {
      queue->owner = lane_new (self, kymo_trace_get_track (self->trace,
                                                           kymo_trace_add_track (self->trace, queue->group,
                                                                                 KYMO_TRACK_THREAD, "Owner")));
      kymo_track_set_sort_key (queue->owner->track, 0);
    }
  queue->taken = TRUE;
  queue->taken_at = ts;
  queue->taken_source = source;
  queue->holder = from_isr ? NULL : core->current;
  if (queue->holder != NULL)
    queue->taken_name = task_taken_name (self, queue->holder);
  else
    queue->taken_name = kymo_trace_intern (self->trace, from_isr ? "taken by an ISR" : "taken");
}

static inline void
mutex_update (KymoTbandModel *self,
              Queue          *queue,
              Core           *core,
              gboolean        from_isr,
              KymoTime        ts,
              guint32         length,
              guint32         source)
{
  if (queue_is_mutex (queue))
    mutex_take_or_give (self, queue, core, from_isr, ts, length, source);
}

/* Markers */

static EvtMarker *
evtmarker_new (guint32 id)
{
  EvtMarker *marker = g_new0 (EvtMarker, 1);

  marker->id = id;
  return marker;
}

static EvtMarker *
get_evtmarker (IdMap    *map,
               guint32   id,
               gboolean *created)
{
  EvtMarker *marker;

  id = idmap_limit (map, id);
  marker = idmap_get (map, id);

  *created = marker == NULL;
  if (marker == NULL)
    {
      marker = evtmarker_new (id);
      idmap_set (map, id, marker);
    }
  return marker;
}

static ValMarker *
get_valmarker (IdMap    *map,
               guint32   id,
               gboolean *created)
{
  ValMarker *marker;

  id = idmap_limit (map, id);
  marker = idmap_get (map, id);

  *created = marker == NULL;
  if (marker == NULL)
    {
      marker = g_new0 (ValMarker, 1);
      marker->id = id;
      idmap_set (map, id, marker);
    }
  return marker;
}

static Lane *
global_marker_track (KymoTbandModel *self,
                     KymoTrackKind   kind,
                     guint32         id)
{
  KymoTrack *track;

  track = kymo_trace_get_track (self->trace,
                                kymo_trace_add_track (self->trace, KYMO_NO_TRACK, kind, "Marker"));
  kymo_track_set_sort_key (track, SORT_MARKERS + (kind == KYMO_TRACK_COUNTER ? (1 << 30) : 0) + id);
  kymo_track_set_tag (track, id);
  return lane_new (self, track);
}

static guint32
marker_span_name (KymoTbandModel       *self,
                  EvtMarker            *marker,
                  const KymoTbandEvent *event)
{
  char buf[40];

  if (event->str_len > 0)
    return kymo_trace_intern_len (self->trace, (const char *) event->str, event->str_len);
  if (marker->name_id == 0)
    {
      if (marker->name != NULL && marker->name[0] != '\0')
        marker->name_id = kymo_trace_intern (self->trace, marker->name);
      else
        {
          g_snprintf (buf, sizeof buf, "Marker #%u", marker->id);
          marker->name_id = kymo_trace_intern (self->trace, buf);
        }
    }
  return marker->name_id;
}

static void
evtmarker_event (KymoTbandModel       *self,
                 EvtMarker            *marker,
                 const KymoTbandEvent *event,
                 guint                 what,   /* 0 instant, 1 begin, 2 end */
                 KymoTime              ts,
                 guint32               source,
                 guint64               offset)
{
  if (what == 0)
    {
      lane_add_instant (self, marker->track, ts, marker_span_name (self, marker, event), 0, source);
    }
  else if (what == 1)
    {
      OpenSpan open = { ts, marker_span_name (self, marker, event), source };

      if (marker->open.len >= MAX_NESTING)
        {
          model_warn_at (self, offset, ts, "event marker %u nested deeper than %u", marker->id, MAX_NESTING);
          return;
        }
      if (marker->open.len == marker->open.room)
        marker->open.items = stack_grow (marker->open.items, &marker->open.room, sizeof (OpenSpan));
      marker->open.items[marker->open.len++] = open;
    }
  else
    {
      OpenSpan *open;

      if (marker->open.len == 0)
        {
          model_warn_at (self, offset, ts, "end of event marker %u that was not begun", marker->id);
          return;
        }
      open = &marker->open.items[marker->open.len - 1];
      lane_add_span (self, marker->track, open->start, ts, open->name,
                           marker->open.len - 1, 0, open->source);
      marker->open.len--;
    }
}

static void
evtmarker_close (KymoTbandModel *self,
                 EvtMarker      *marker,
                 KymoTime        end)
{
  if (marker->track == NULL)
    return;
  for (guint i = 0; i < marker->open.len; i++)
    {
      OpenSpan *open = &marker->open.items[i];

      lane_add_span (self, marker->track, open->start, MAX (end, open->start), open->name, i,
                           KYMO_EVENT_INCOMPLETE, open->source);
    }
  marker->open.len = 0;
}

/* Time */

static KymoTime
to_ns (KymoTbandModel *self,
       guint64         ticks,
       guint64         offset)
{
  if (G_LIKELY (ticks <= self->max_ticks))
    return (KymoTime) (ticks * self->resolution);
  if (!self->warned_clamp)
    {
      self->warned_clamp = TRUE;
      kymo_tband_model_warn (self, offset, "timestamp %" G_GUINT64_FORMAT " is too large: shown at the end of time",
                             ticks);
    }
  return MAX_TIME;
}

/* Events */

static void
name_replace (char         **slot,
              const guint8  *str,
              gsize          len)
{
  g_free (*slot);
  *slot = g_utf8_make_valid ((const char *) str, len);
}

static void
metadata_event (KymoTbandModel       *self,
                const KymoTbandEvent *event,
                guint64               offset)
{
  gboolean created;

  switch (event->id)
    {
    case KYMO_TBAND_TS_RESOLUTION_NS:
      if (event->v[0].u == 0)
        {
          kymo_tband_model_warn (self, offset, "ts_resolution_ns of 0 ignored");
          break;
        }
      if (self->seen_timed && event->v[0].u != self->resolution)
        kymo_tband_model_warn (self, offset,
                               "ts_resolution_ns changes from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                               " after timed events: earlier times keep the old scale",
                               self->resolution, event->v[0].u);
      self->resolution = event->v[0].u;
      self->max_ticks = (guint64) MAX_TIME / self->resolution;
      self->has_resolution = TRUE;
      break;

    case KYMO_TBAND_ISR_NAME:
      {
        guint32 id = idmap_limit (&self->isrs, event->v[0].u);
        Isr *isr = idmap_get (&self->isrs, id);

        if (isr == NULL)
          {
            isr = g_new0 (Isr, 1);
            isr->id = id;
            idmap_set (&self->isrs, isr->id, isr);
          }
        name_replace (&isr->name, event->str, event->str_len);
        isr->name_id = 0;
      }
      break;

    case KYMO_TBAND_EVTMARKER_NAME:
      {
        EvtMarker *marker = get_evtmarker (&self->evtmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->marker_list, marker);
        name_replace (&marker->name, event->str, event->str_len);
        marker->name_id = 0;
      }
      break;

    case KYMO_TBAND_VALMARKER_NAME:
      {
        ValMarker *marker = get_valmarker (&self->valmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->valmarker_list, marker);
        name_replace (&marker->name, event->str, event->str_len);
      }
      break;

    case KYMO_TBAND_TASK_NAME:
      {
        Task *task = get_task (self, event->v[0].u);

        name_replace (&task->name, event->str, event->str_len);
        task->cpu_name_stale = TRUE;
      }
      break;

    case KYMO_TBAND_TASK_IS_IDLE_TASK:
      {
        Task *task = get_task (self, event->v[0].u);

        task->kind = 1;
        task->idle_core = event->v[1].u;
      }
      break;

    case KYMO_TBAND_TASK_IS_TIMER_TASK:
      get_task (self, event->v[0].u)->kind = 2;
      break;

    case KYMO_TBAND_QUEUE_NAME:
      name_replace (&get_queue (self, event->v[0].u)->name, event->str, event->str_len);
      break;

    case KYMO_TBAND_QUEUE_KIND:
      get_queue (self, event->v[0].u)->kind = (int) event->v[1].u;
      break;

    case KYMO_TBAND_TASK_EVTMARKER_NAME:
      {
        Task *task = get_task (self, event->v[1].u);
        EvtMarker *marker = get_evtmarker (&task->evtmarkers, event->v[0].u, &created);

        name_replace (&marker->name, event->str, event->str_len);
        marker->name_id = 0;
      }
      break;

    case KYMO_TBAND_TASK_VALMARKER_NAME:
      {
        Task *task = get_task (self, event->v[1].u);
        ValMarker *marker = get_valmarker (&task->valmarkers, event->v[0].u, &created);

        name_replace (&marker->name, event->str, event->str_len);
      }
      break;

    default:
      break;
    }
}

static void
isr_enter (KymoTbandModel       *self,
           Core                 *core,
           const KymoTbandEvent *event,
           KymoTime              ts,
           guint32               source,
           guint64               offset)
{
  guint32 id = event->v[0].u;
  Isr *isr = idmap_get (&self->isrs, id);
  OpenIsr open;

  core_child (self, core, &core->isr, KYMO_TRACK_THREAD, "ISRs", 0);
  if (core->isr_stack.len >= MAX_NESTING)
    {
      model_warn_at (self, offset, ts, "ISRs nested deeper than %u on core %u", MAX_NESTING, core->id);
      return;
    }
  if (isr != NULL && isr->name != NULL)
    {
      if (isr->name_id == 0)
        isr->name_id = kymo_trace_intern (self->trace, isr->name);
      open.name = isr->name_id;
    }
  else if (id < DENSE_IDS && self->isr_unnamed != NULL && self->isr_unnamed[id] != 0)
    open.name = self->isr_unnamed[id];
  else
    {
      char buf[32];

      g_snprintf (buf, sizeof buf, "ISR #%u", id);
      open.name = kymo_trace_intern (self->trace, buf);
      /* An ISR without a name may come back a thousand times a second. */
      if (id < DENSE_IDS)
        {
          if (self->isr_unnamed == NULL)
            self->isr_unnamed = g_new0 (guint32, DENSE_IDS);
          self->isr_unnamed[id] = open.name;
        }
    }
  open.isr = id;
  open.start = ts;
  open.source = source;
  if (core->isr_stack.len == core->isr_stack.room)
    core->isr_stack.items = stack_grow (core->isr_stack.items, &core->isr_stack.room, sizeof (OpenIsr));
  core->isr_stack.items[core->isr_stack.len++] = open;
}

static void
isr_exit (KymoTbandModel       *self,
          Core                 *core,
          const KymoTbandEvent *event,
          KymoTime              ts,
          guint64               offset)
{
  guint32 id = event->v[0].u;
  guint found;

  for (found = core->isr_stack.len; found > 0; found--)
    if (core->isr_stack.items[found - 1].isr == id)
      break;
  if (found == 0)
    {
      model_warn_at (self, offset, ts, "isr_exit of ISR %u on core %u without isr_enter", id, core->id);
      return;
    }

  /* ISRs entered after this one and never left are cut off here. */
  for (guint i = core->isr_stack.len; i >= found; i--)
    {
      OpenIsr *open = &core->isr_stack.items[i - 1];

      lane_add_span (self, core->isr, open->start, ts, open->name, i - 1,
                           i == found ? 0 : KYMO_EVENT_INCOMPLETE, open->source);
    }
  core->isr_stack.len = found - 1;
}

static void
task_marker_event (KymoTbandModel       *self,
                   Core                 *core,
                   const KymoTbandEvent *event,
                   KymoTime              ts,
                   guint32               source,
                   guint64               offset)
{
  Task *task = current_task (self, core, event, ts, offset);
  gboolean created;

  if (task == NULL)
    return;

  if (event->id == KYMO_TBAND_TASK_VALMARKER)
    {
      ValMarker *marker = get_valmarker (&task->valmarkers, event->v[0].u, &created);

      if (marker->track == NULL)
        marker->track = task_child (self, task, KYMO_TRACK_COUNTER, "Value marker");
      lane_add_sample (self, marker->track, ts, (double) event->v[1].s);
    }
  else
    {
      EvtMarker *marker = get_evtmarker (&task->evtmarkers, event->v[0].u, &created);

      if (marker->track == NULL)
        marker->track = task_child (self, task, KYMO_TRACK_THREAD, "Marker");
      evtmarker_event (self, marker, event,
                       event->id == KYMO_TBAND_TASK_EVTMARKER ? 0 :
                       event->id == KYMO_TBAND_TASK_EVTMARKER_BEGIN ? 1 : 2,
                       ts, source, offset);
    }
}

/* In line in timed_event(): it is most of a stream. */
static inline __attribute__ ((always_inline)) void
freertos_event (KymoTbandModel       *self,
                Core                 *core,
                const KymoTbandEvent *event,
                KymoTime              ts,
                guint32               source,
                guint64               offset)
{
  Task *task;
  Queue *queue;

  switch (event->id)
    {
    case KYMO_TBAND_TASK_SWITCHED_IN:
      task = get_task (self, event->v[0].u);
      core_child (self, core, &core->cpu, KYMO_TRACK_THREAD, "CPU", 1);
      if (core->current != NULL)
        {
          Task *previous = core->current;

          core_switch_out (self, core, ts, 0);
          task_set_state (self, previous, ts, previous->out_state, previous->out_source);
        }
      /* On SMP a task can move cores: it left the other one. */
      if (task_is_running (task))
        {
          Core *other = get_core (self, task->running_core);

          core_switch_out (self, other, ts, 0);
        }
      task->out_state = STATE_READY;
      task->out_source = source;
      task_set_state (self, task, ts, STATE_RUNNING, source);
      task->running_core = core->id;
      core->current = task;
      core->run_start = ts;
      core->run_source = source;
      break;

    case KYMO_TBAND_TASK_TO_RDY_STATE:
    case KYMO_TBAND_TASK_RESUMED:
    case KYMO_TBAND_TASK_RESUMED_FROM_ISR:
      task = get_task (self, event->v[0].u);
      if (!task_is_running (task))
        task_set_state (self, task, ts, STATE_READY, source);
      break;

    case KYMO_TBAND_TASK_SUSPENDED:
    case KYMO_TBAND_TASK_DELETED:
      {
        TaskState state = event->id == KYMO_TBAND_TASK_SUSPENDED ? STATE_SUSPENDED : STATE_DELETED;

        task = get_task (self, event->v[0].u);
        if (task_is_running (task))
          {
            task->out_state = state;
            task->out_source = source;
          }
        else
          task_set_state (self, task, ts, state, source);
      }
      break;

    case KYMO_TBAND_CURTASK_DELAY:
    case KYMO_TBAND_CURTASK_DELAY_UNTIL:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_SEND:
    case KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_RECEIVE:
      task = current_task (self, core, event, ts, offset);
      if (task != NULL)
        {
          task->out_state = event->id <= KYMO_TBAND_CURTASK_DELAY_UNTIL ? STATE_DELAYED : STATE_BLOCKED;
          task->out_source = source;
        }
      if (event->id >= KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK)
        queue_op (self, get_queue (self, event->v[0].u), ts,
                  OP_BLOCK_PEEK + (event->id - KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK), source);
      break;

    case KYMO_TBAND_TASK_PRIORITY_SET:
    case KYMO_TBAND_TASK_PRIORITY_INHERIT:
    case KYMO_TBAND_TASK_PRIORITY_DISINHERIT:
      task = get_task (self, event->v[0].u);
      if (task->prio_track == NULL)
        {
          task->prio_track = task_child (self, task, KYMO_TRACK_COUNTER, "Priority");
          kymo_track_set_sort_key (task->prio_track->track, 0);
        }
      lane_add_sample (self, task->prio_track, ts, event->v[1].u);
      /* Inherited priorities are temporary: order tasks by their own. */
      if (event->id == KYMO_TBAND_TASK_PRIORITY_SET || !task->has_priority)
        {
          task->priority = event->v[1].u;
          task->has_priority = TRUE;
        }
      break;

    case KYMO_TBAND_TASK_CREATED:
      task_group (self, get_task (self, event->v[0].u));
      break;

    case KYMO_TBAND_QUEUE_CREATED:
      queue_length (self, get_queue (self, event->v[0].u), ts, 0);
      queue_op (self, get_queue (self, event->v[0].u), ts, OP_CREATED, source);
      break;

    case KYMO_TBAND_QUEUE_RESET:
      queue = get_queue (self, event->v[0].u);
      queue_length (self, queue, ts, 0);
      queue_op (self, queue, ts, OP_RESET, source);
      break;

    case KYMO_TBAND_QUEUE_SEND:
    case KYMO_TBAND_QUEUE_SEND_FROM_ISR:
    case KYMO_TBAND_QUEUE_OVERWRITE:
    case KYMO_TBAND_QUEUE_OVERWRITE_FROM_ISR:
    case KYMO_TBAND_QUEUE_RECEIVE:
    case KYMO_TBAND_QUEUE_RECEIVE_FROM_ISR:
      {
        gboolean from_isr = (event->id - KYMO_TBAND_QUEUE_SEND) & 1;

        queue = get_queue (self, event->v[0].u);
        queue_length (self, queue, ts, event->v[1].u);
        queue_op (self, queue, ts, OP_SEND + (event->id - KYMO_TBAND_QUEUE_SEND), source);
        mutex_update (self, queue, core, from_isr, ts, event->v[1].u, source);
      }
      break;

    case KYMO_TBAND_QUEUE_CUR_LENGTH:
      queue = get_queue (self, event->v[0].u);
      queue_length (self, queue, ts, event->v[1].u);
      mutex_update (self, queue, core, FALSE, ts, event->v[1].u, source);
      break;

    case KYMO_TBAND_TASK_EVTMARKER:
    case KYMO_TBAND_TASK_EVTMARKER_BEGIN:
    case KYMO_TBAND_TASK_EVTMARKER_END:
    case KYMO_TBAND_TASK_VALMARKER:
      task_marker_event (self, core, event, ts, source, offset);
      break;

    default:
      break;
    }
}

/* Out of line: only a damaged stream has its clock go back. */
static G_GNUC_NO_INLINE void
time_goes_back (KymoTbandModel *self,
                Core           *core,
                guint64         ticks,
                guint64         last_ticks,
                KymoTime        ts,
                guint32         source,
                guint64         offset)
{
  model_warn_at (self, offset, ts, "timestamp goes back on core %u: %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT,
                 core->id, ticks, last_ticks);
  lane_add_instant (self, core_warn_track (self, core), ts,
                          kymo_trace_intern (self->trace, "timestamp goes back"),
                          KYMO_EVENT_WARNING, source);
}

/* What an event with a timestamp does, after the time bookkeeping. */
static inline __attribute__ ((always_inline)) void
timed_dispatch (KymoTbandModel       *self,
                Core                 *core,
                const KymoTbandEvent *event,
                KymoTime              ts,
                guint32               source,
                guint64               offset)
{
  gboolean created;

  if (event->id >= KYMO_TBAND_FIRST_FREERTOS_ID)
    {
      freertos_event (self, core, event, ts, source, offset);
      return;
    }

  switch (event->id)
    {
    case KYMO_TBAND_CORE_ID:
      break;

    case KYMO_TBAND_DROPPED_EVT_CNT:
      {
        guint32 count = event->v[0].u;
        guint32 before = core->has_dropped ? core->dropped : 0;

        if (count > before)
          {
            g_autofree char *name = g_strdup_printf ("%u events dropped", count - before);

            lane_add_instant (self, core_warn_track (self, core), ts,
                                    kymo_trace_intern (self->trace, name),
                                    KYMO_EVENT_WARNING, source);
            model_warn_at (self, offset, ts, "core %u: %s", core->id, name);
          }
        core->has_dropped = TRUE;
        core->dropped = count;
      }
      break;

    case KYMO_TBAND_ISR_ENTER:
      isr_enter (self, core, event, ts, source, offset);
      break;

    case KYMO_TBAND_ISR_EXIT:
      isr_exit (self, core, event, ts, offset);
      break;

    case KYMO_TBAND_EVTMARKER:
    case KYMO_TBAND_EVTMARKER_BEGIN:
    case KYMO_TBAND_EVTMARKER_END:
      {
        EvtMarker *marker = get_evtmarker (&self->evtmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->marker_list, marker);
        if (marker->track == NULL)
          marker->track = global_marker_track (self, KYMO_TRACK_THREAD, marker->id);
        evtmarker_event (self, marker, event, event->id - KYMO_TBAND_EVTMARKER, ts, source, offset);
      }
      break;

    case KYMO_TBAND_VALMARKER:
      {
        ValMarker *marker = get_valmarker (&self->valmarkers, event->v[0].u, &created);

        if (created)
          g_ptr_array_add (self->valmarker_list, marker);
        if (marker->track == NULL)
          marker->track = global_marker_track (self, KYMO_TRACK_COUNTER, marker->id);
        lane_add_sample (self, marker->track, ts, (double) event->v[1].s);
      }
      break;

    default:
      break;
    }
}

/* An event with a timestamp. */
static inline __attribute__ ((always_inline)) void
timed_event (KymoTbandModel       *self,
             Core                 *core,
             const KymoTbandEvent *event,
             guint32               source,
             guint64               offset)
{
  KymoTime ts;

  if (event->id >= KYMO_TBAND_FIRST_FREERTOS_ID)
    self->freertos = TRUE;

  ts = to_ns (self, event->ts, offset);
  self->seen_timed = TRUE;

  if (core->has_ts && event->ts < core->last_ticks)
    time_goes_back (self, core, event->ts, core->last_ticks, ts, source, offset);
  core->has_ts = TRUE;
  core->last_ticks = event->ts;
  core->last_ns = ts;
  if (!self->has_end || ts > self->end)
    {
      self->end = ts;
      self->has_end = TRUE;
    }
  timed_dispatch (self, core, event, ts, source, offset);
}

void
kymo_tband_model_event (KymoTbandModel       *self,
                        guint                 core_id,
                        const KymoTbandEvent *event,
                        guint32               source,
                        guint64               offset)
{
  if (!event->has_ts)
    {
      if (event->id >= KYMO_TBAND_FIRST_FREERTOS_ID)
        self->freertos = TRUE;
      metadata_event (self, event, offset);
      return;
    }
  g_assert (core_id < KYMO_TBAND_MAX_CORES);
  timed_event (self, get_core (self, core_id), event, source, offset);
}

guint
kymo_tband_model_records (KymoTbandModel        *self,
                          const KymoTbandRecord *records,
                          guint                  n,
                          const KymoTbandRun    *run)
{
  KymoTbandEvent event = { 0 };
  guint i;
  Core *core;
  /* What timed_event() keeps up to date for every event is kept here for
   * the run and stored once at its end: nothing the events do in between
   * reads it. */
  guint64 max_ticks = self->max_ticks;
  guint64 resolution = self->resolution;
  guint64 last_ticks, offset_base = run->offset_base;
  guint64 source_base = run->source_base + run->offset_base;
  gboolean has_ts;
  KymoTime last_ns;
  KymoTime end = self->has_end ? self->end : 0;
  guint max_id = 0;

  if (n == 0 || records[0].kind != KYMO_TBAND_RECORD_EVENT)
    return 0;
  g_assert (run->core < KYMO_TBAND_MAX_CORES);
  core = get_core (self, run->core);
  has_ts = core->has_ts;
  last_ticks = core->last_ticks;
  last_ns = core->last_ns;

  /* Most of a stream: one call for a run of them rather than one each. */
  event.has_ts = TRUE;
  for (i = 0; i < n && records[i].kind == KYMO_TBAND_RECORD_EVENT; i++)
    {
      const KymoTbandRecord *r = &records[i];
      guint64 source = source_base + r->at;
      guint32 source32 = source < G_MAXUINT32 ? (guint32) source : KYMO_NO_SOURCE;
      KymoTime ts;

      max_id = MAX (max_id, r->id);
      ts = G_LIKELY (r->ts <= max_ticks) ? (KymoTime) (r->ts * resolution) : to_ns (self, r->ts, offset_base + r->at);
      if (G_UNLIKELY (has_ts && r->ts < last_ticks))
        time_goes_back (self, core, r->ts, last_ticks, ts, source32, offset_base + r->at);
      has_ts = TRUE;
      last_ticks = r->ts;
      last_ns = ts;
      end = MAX (end, ts);

      event.id = r->id;
      event.ts = r->ts;
      event.v[0].u = r->v0;
      event.v[1].u = r->v1;
      timed_dispatch (self, core, &event, ts, source32, offset_base + r->at);
    }
  core->has_ts = has_ts;
  core->last_ticks = last_ticks;
  core->last_ns = last_ns;
  self->seen_timed = TRUE;
  self->end = end;
  self->has_end = TRUE;
  if (max_id >= KYMO_TBAND_FIRST_FREERTOS_ID)
    self->freertos = TRUE;
  return i;
}

void
kymo_tband_model_invalid (KymoTbandModel *self,
                          guint           core_id,
                          guint64         offset,
                          const char     *reason)
{
  Core *core = core_id < self->cores->len ? self->cores->pdata[core_id] : NULL;
  KymoTime ts = core != NULL && core->has_ts ? core->last_ns : KYMO_TIME_NONE;

  model_warn_at (self, offset, ts, "invalid frame: %s", reason);
  /* Shown where the stream was when it broke; before any time there is no
   * place on the timeline for it. */
  if (ts != KYMO_TIME_NONE)
    {
      if (self->name_dropped_frame == 0)
        self->name_dropped_frame = kymo_trace_intern (self->trace, "invalid frame");
      lane_add_instant (self, core_warn_track (self, core), ts, self->name_dropped_frame,
                              KYMO_EVENT_WARNING, KYMO_NO_SOURCE);
    }
}

static void
set_track_name (KymoTrace  *trace,
                Lane       *lane,
                const char *name,
                const char *fallback,
                guint32     id)
{
  if (lane == NULL)
    return;
  if (name != NULL && name[0] != '\0')
    kymo_track_set_name (lane->track, name);
  else
    {
      g_autofree char *text = g_strdup_printf ("%s #%u", fallback, id);
      kymo_track_set_name (lane->track, text);
    }
}

/* The FreeRTOS port can name a task's markers before the task has its id
 * (the sample names them for task 0, which never runs). A marker left
 * without a name takes the one such a task holds for the same marker id. */
static const char *
orphan_marker_name (KymoTbandModel *self,
                    gboolean        value,
                    guint32         id)
{
  const char *found = NULL;

  for (guint i = 0; i < self->task_list->len; i++)
    {
      Task *task = self->task_list->pdata[i];
      const char *name = NULL;

      if (task->group != KYMO_NO_TRACK)
        continue;
      if (value)
        {
          ValMarker *marker = idmap_get (&task->valmarkers, id);
          name = marker ? marker->name : NULL;
        }
      else
        {
          EvtMarker *marker = idmap_get (&task->evtmarkers, id);
          name = marker ? marker->name : NULL;
        }
      if (name == NULL)
        continue;
      if (found != NULL && !g_str_equal (found, name))
        return NULL;
      found = name;
    }
  return found;
}

static void
name_task_marker (KymoTbandModel *self,
                  Lane           *track,
                  const char     *name,
                  gboolean        value,
                  guint32         id)
{
  if (track == NULL)
    return;
  if (name == NULL)
    name = orphan_marker_name (self, value, id);
  set_track_name (self->trace, track, name, value ? "Value marker" : "Marker", id);
}

static void
finish_task (KymoTbandModel *self,
             Task           *task,
             KymoTime        end)
{
  KymoTrack *group;
  g_autofree char *label = NULL;
  char buf[32];

  if (task->group == KYMO_NO_TRACK)
    return;

  if (task->state != STATE_NONE && task->state != STATE_DELETED)
    lane_add_span (self, task->state_track, task->state_start, MAX (end, task->state_start),
                         self->name_running[task->state], 0,
                         KYMO_EVENT_STATE | KYMO_EVENT_INCOMPLETE, task->state_source);

  group = kymo_trace_get_track (self->trace, task->group);
  if (task->kind == 1)
    label = g_strdup_printf ("%s (idle task, core %u)", task_display_name (task, buf), task->idle_core);
  else if (task->kind == 2)
    label = g_strdup_printf ("%s (timer task)", task_display_name (task, buf));
  else
    label = g_strdup (task_display_name (task, buf));
  kymo_track_set_name (group, label);
  /* Highest priority first, as in SystemView; unknown ones after, idle
   * tasks last. */
  if (task->kind == 1)
    kymo_track_set_sort_key (group, SORT_TASKS + ((gint64) 1 << 33));
  else if (task->has_priority)
    kymo_track_set_sort_key (group, SORT_TASKS + G_MAXUINT32 - (gint64) task->priority);
  else
    kymo_track_set_sort_key (group, SORT_TASKS + (gint64) G_MAXUINT32 + 1);

  for (guint i = 0; i < task->evtmarkers.dense->len; i++)
    {
      EvtMarker *marker = task->evtmarkers.dense->pdata[i];

      if (marker == NULL)
        continue;
      evtmarker_close (self, marker, end);
      name_task_marker (self, marker->track, marker->name, FALSE, marker->id);
    }
  for (guint i = 0; i < task->valmarkers.dense->len; i++)
    {
      ValMarker *marker = task->valmarkers.dense->pdata[i];

      if (marker != NULL)
        name_task_marker (self, marker->track, marker->name, TRUE, marker->id);
    }
  if (task->evtmarkers.sparse || task->valmarkers.sparse)
    {
      GHashTableIter iter;
      gpointer value;

      if (task->evtmarkers.sparse)
        {
          g_hash_table_iter_init (&iter, task->evtmarkers.sparse);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            {
              EvtMarker *marker = value;

              evtmarker_close (self, marker, end);
              name_task_marker (self, marker->track, marker->name, FALSE, marker->id);
            }
        }
      if (task->valmarkers.sparse)
        {
          g_hash_table_iter_init (&iter, task->valmarkers.sparse);
          while (g_hash_table_iter_next (&iter, NULL, &value))
            {
              ValMarker *marker = value;

              name_task_marker (self, marker->track, marker->name, TRUE, marker->id);
            }
        }
    }
}

void
kymo_tband_model_finish (KymoTbandModel *self)
{
  KymoTime end = self->has_end ? self->end : 0;

  for (guint i = 0; i < self->cores->len; i++)
    {
      Core *core = self->cores->pdata[i];

      if (core == NULL)
        continue;
      if (core->current != NULL)
        core_switch_out (self, core, MAX (end, core->run_start), KYMO_EVENT_INCOMPLETE);
      for (guint d = 0; d < core->isr_stack.len; d++)
        {
          OpenIsr *open = &core->isr_stack.items[d];

          lane_add_span (self, core->isr, open->start, MAX (end, open->start), open->name, d,
                               KYMO_EVENT_INCOMPLETE, open->source);
        }
      core->isr_stack.len = 0;
    }

  for (guint i = 0; i < self->task_list->len; i++)
    finish_task (self, self->task_list->pdata[i], end);

  for (guint i = 0; i < self->queue_list->len; i++)
    {
      Queue *queue = self->queue_list->pdata[i];
      const char *kind = queue_kind_name (queue->kind);
      g_autofree char *label = NULL;

      if (queue->group == KYMO_NO_TRACK)
        continue;
      if (queue->taken)
        mutex_release (self, queue, MAX (end, queue->taken_at), KYMO_EVENT_INCOMPLETE);
      if (queue->name != NULL && queue->name[0] != '\0')
        label = kind ? g_strdup_printf ("%s (%s)", queue->name, kind) : g_strdup (queue->name);
      else
        label = g_strdup_printf ("%s #%u", kind ? kind : "queue", queue->id);
      kymo_track_set_name (kymo_trace_get_track (self->trace, queue->group), label);
    }

  for (guint i = 0; i < self->marker_list->len; i++)
    {
      EvtMarker *marker = self->marker_list->pdata[i];

      evtmarker_close (self, marker, end);
      set_track_name (self->trace, marker->track, marker->name, "Marker", marker->id);
    }
  for (guint i = 0; i < self->valmarker_list->len; i++)
    {
      ValMarker *marker = self->valmarker_list->pdata[i];

      set_track_name (self->trace, marker->track, marker->name, "Value marker", marker->id);
    }

  /* Everything is added: hand over what the lanes hold. */
  for (guint i = 0; i < self->lanes->len; i++)
    lane_flush (self->lanes->pdata[i]);

  if (self->seen_timed && !self->has_resolution)
    kymo_tband_model_warn (self, KYMO_NO_OFFSET, "no ts_resolution_ns event: one tick is taken as 1 ns");
  if (self->n_dropped_warnings > 0)
    kymo_trace_add_warning (self->trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                            "%u more warnings not listed", self->n_dropped_warnings);
}

gboolean
kymo_tband_model_is_freertos (KymoTbandModel *self)
{
  return self->freertos;
}

guint
kymo_tband_model_n_cores (KymoTbandModel *self)
{
  guint n = 0;

  for (guint i = 0; i < self->cores->len; i++)
    if (self->cores->pdata[i] != NULL)
      n = i + 1;
  return n;
}

guint64
kymo_tband_model_resolution (KymoTbandModel *self)
{
  return self->resolution;
}

const char *
kymo_tband_model_task_name (KymoTbandModel *self,
                            guint32         task_id)
{
  Task *task = idmap_get (&self->tasks, task_id);

  return task ? task->name : NULL;
}

const char *
kymo_tband_model_queue_name (KymoTbandModel *self,
                             guint32         queue_id)
{
  Queue *queue = idmap_get (&self->queues, queue_id);

  return queue ? queue->name : NULL;
}

const char *
kymo_tband_model_isr_name (KymoTbandModel *self,
                           guint32         isr_id)
{
  Isr *isr = idmap_get (&self->isrs, isr_id);

  return isr ? isr->name : NULL;
}
