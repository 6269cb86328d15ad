/* kymo-dial9-loader.h: state of one dial9 load, between decoding and building
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-private.h"
#include "kymo-dial9-callchains.h"

G_BEGIN_DECLS

/* A growable array for the per-event appends of streaming: GArray's
 * append goes through a memcpy call per element. A part's arrays (see
 * d9_vec_grow_mapped) may live in mappings of their own. */
typedef struct {
  guint8  *data;
  gsize    len;
  gsize    cap;        /* room, in elements; in a mapping of its own, the
                        * room populated so far (see d9_vec_populate) */
  gsize    map_bytes;  /* > 0: @data is a mapping of its own, of this size */
  gsize    map_from;   /* > 0: grows into one from this many bytes */
} D9Vec;

static inline D9Vec *
d9_vec_new (void)
{
  return g_new0 (D9Vec, 1);
}

void  d9_vec_clear       (D9Vec *v);
void  d9_vec_grow_mapped (D9Vec *v,
                          gsize  size);
/* The shortest run kymo_mapped_move_pages() moves, and where a part's arrays
 * move into mappings of their own. */
void  d9_vec_move_limits (gsize *move_min,
                          gsize *map_from);
/* Tests: moves runs of @move_min bytes and more (-1: the default), and
 * maps a part's arrays from the start. */
void  d9_vec_set_move_min_for_testing (gint move_min);

/* Writes @n elements at @in to @out, renumbered; @out may overlap @in
 * from below. */
typedef void (*D9MapRun) (gconstpointer  map_data,
                          guint8        *out,
                          const guint8  *in,
                          gsize          n);
#define D9_PLACE_MAX_SIZE 64
/* Puts the @n elements of @size bytes at @in into place at @out, in memory
 * that holds nothing needed, mapped by @map: when @in is the start of a
 * mapping of its own (@mapped) and the run is at least @move_min bytes,
 * its whole pages are moved rather than copied (no new memory to fault
 * in, none left to give back; *@moves_left counts down the moves
 * allowed), and the elements are mapped down over them from the first up. */
void  d9_place_run       (const guint8  *in,
                          gsize          n,
                          gboolean       mapped,
                          gsize          size,
                          gsize          move_min,
                          gint          *moves_left,
                          D9MapRun       map,
                          gconstpointer  map_data,
                          guint8        *out);
/* d9_place_run() of the elements of @v (of @size bytes), then frees them. */
void  d9_vec_place       (D9Vec         *v,
                          gsize          size,
                          gsize          move_min,
                          gint          *moves_left,
                          D9MapRun       map,
                          gconstpointer  map_data,
                          guint8        *out);

static inline void
d9_vec_free (D9Vec *v)
{
  d9_vec_clear (v);
  g_free (v);
}

/* Past this, a vector grows straight to D9_VEC_MAPPED: beyond malloc's
 * mmap threshold (at most 32 MiB in glibc, which raises it up to that as
 * large blocks are freed), where growing remaps pages instead of copying
 * them and capacity not yet written costs no memory. */
#define D9_VEC_LARGE  (4u << 20)
#define D9_VEC_MAPPED (40u << 20)


/* A vector in a mapping of its own: room for more within the mapping,
 * its pages populated ahead of the writes in a batch. FALSE when the
 * mapping is full. */
gboolean d9_vec_populate (D9Vec *v,
                          gsize  size);

static inline void
d9_vec_grow (D9Vec *v,
             gsize  size)
{
  if (v->map_bytes > 0 && d9_vec_populate (v, size))
    return;
  v->cap = MAX (v->cap * 2, 1024);
  if (v->cap * size >= D9_VEC_LARGE && v->cap * size < D9_VEC_MAPPED)
    v->cap = D9_VEC_MAPPED / size;
  if (v->map_from > 0 && v->cap * size >= v->map_from)
    d9_vec_grow_mapped (v, size);
  else
    v->data = g_realloc_n (v->data, v->cap, size);
}

/* Room for one more element of @size at the end; counts it. */
static inline gpointer
d9_vec_push (D9Vec *v,
             gsize  size)
{
  if (G_UNLIKELY (v->len == v->cap))
    d9_vec_grow (v, size);
  return v->data + size * v->len++;
}

/* The elements, for a track to adopt: trimmed to their length (a shrinking
 * realloc of a large block gives pages back without copying them). */
static inline gpointer
d9_vec_steal (D9Vec *v,
              gsize  size)
{
  gpointer data;

  g_assert (v->map_bytes == 0);
  data = g_realloc (v->data, v->len * size);
  v->data = NULL;
  v->len = v->cap = 0;
  return data;
}

/* The elements with the room after them (*@cap elements in all), for a
 * track that adds more: a block with moved pages in it cannot grow
 * without a copy. */
static inline gpointer
d9_vec_steal_with_room (D9Vec *v,
                        gsize *cap)
{
  gpointer data = v->data;

  g_assert (v->map_bytes == 0);
  *cap = v->cap;
  v->data = NULL;
  v->len = v->cap = 0;
  return data;
}


/* What Kymo makes of a schema, chosen from its name and fields. */
typedef enum {
  D9_KIND_GENERIC,
  D9_KIND_POLL_START,
  D9_KIND_POLL_END,
  D9_KIND_PARK,
  D9_KIND_UNPARK,
  D9_KIND_QUEUE,
  D9_KIND_SPAWN,
  D9_KIND_TERMINATE,
  D9_KIND_WAKE,
  D9_KIND_CPU,
  D9_KIND_META,
  D9_KIND_CLOCK,
  D9_KIND_SYMBOL,
  D9_KIND_CALLFRAME,
  D9_KIND_SPAN_ENTER,
  D9_KIND_SPAN_EXIT,
  D9_KIND_TASK_DUMP,
} D9Kind;

/* Kinds the model consumes (symbols, wall clock, service) rather than draws. */
static inline gboolean
d9_kind_is_metadata (D9Kind kind)
{
  return kind == D9_KIND_META || kind == D9_KIND_CLOCK || kind == D9_KIND_SYMBOL ||
         kind == D9_KIND_CALLFRAME || kind == D9_KIND_TASK_DUMP;
}

/* What the side records (kymo-dial9-side.c) take of an event: chosen by
 * the schema's name alone, its fields by name alone (the first of each
 * name), whatever the timeline makes of the event. */
typedef enum {
  D9_SIDE_NONE,
  D9_SIDE_POLL,
  D9_SIDE_WAKE,
  D9_SIDE_SPAWN,
  D9_SIDE_TERMINATE,
  D9_SIDE_PARK,
  D9_SIDE_UNPARK,
  D9_SIDE_SAMPLE,
} D9SideKind;

typedef enum {
  D9_SF_WORKER,
  D9_SF_TASK,
  D9_SF_LOCAL_QUEUE,
  D9_SF_WAKER,
  D9_SF_WOKEN,
  D9_SF_INSTRUMENTED,
  D9_SF_SCHED_WAIT,
  D9_SF_CPU_TIME,
  D9_SF_SOURCE,
  D9_SF_CALLCHAIN,
  D9_N_SIDE_FIELDS,
} D9SideField;

/* Fields a kind reads, by role. */
typedef enum {
  D9_ROLE_WORKER,
  D9_ROLE_TASK,
  D9_ROLE_SPAWN_LOC,
  D9_ROLE_LOCAL_QUEUE,
  D9_ROLE_GLOBAL_QUEUE,
  D9_ROLE_WAKER,
  D9_ROLE_WOKEN,
  D9_ROLE_SPAN_ID,
  D9_ROLE_SPAN_NAME,
  D9_ROLE_REALTIME,
  D9_ROLE_ENTRIES,
  D9_ROLE_ADDR,
  D9_ROLE_SIZE,
  D9_ROLE_SYMBOL,
  D9_ROLE_INLINE,
  D9_ROLE_FILE,
  D9_ROLE_LINE,
  D9_ROLE_SOURCE,
  /* single-event spans (schema annotations) */
  D9_ROLE_SE_DURATION,
  D9_ROLE_SE_START,
  D9_ROLE_SE_NAME,
  D9_N_ROLES,
} D9Role;

typedef struct {
  D9Kind   kind;
  gint8    field[D9_N_ROLES]; /* field index, or -1 */
  guint32  name;              /* the schema name, interned */
  guint32  alt_name;          /* span name when the event has none */
  guint    track;             /* its own instant track, or KYMO_NO_TRACK */
  guint    se_track;          /* single-event span stash, or G_MAXUINT */
  guint32  se_type;           /* dial9.span.type, interned, or G_MAXUINT32 */
  double   se_scale;          /* ns per unit of the duration/start field */
  guint8   se_name_type;      /* D9_STRING or D9_POOLED_STRING */
  gboolean unclocked;         /* symbol tables: their time means nothing */
  /* A decode plan, for schemas whose fields are all fixed-size, varints or
   * strings, optional or not (at most D9_MAX_KEPT_FIELDS): one D9Op per
   * field, and the most bytes the fields take besides string bodies. With
   * that many bytes left the event is read with almost no bounds checks;
   * otherwise (or on damage) the generic loop reads it, so errors stay
   * the same. */
  gboolean has_plan;
  guint32  plan_max;
  guint8   n_ops;
  guint8   ops[D9_MAX_KEPT_FIELDS];
  /* A D9Shape: the plans of most events of a real file, read straight
   * through rather than op by op. */
  guint8   shape;
  /* Side records: a D9SideKind, per D9SideField the field's index (or
   * -1), and the type of the call chain field. */
  guint8   side_kind;
  guint8   side_chain_type;
  gint8    side_field[D9_N_SIDE_FIELDS];
} D9Model;

typedef enum {
  D9_OP_U8,
  D9_OP_U16,
  D9_OP_U32,
  D9_OP_U64,
  D9_OP_VARINT,
  D9_OP_STRING,       /* string or bytes: u32 length, then the bytes */
  D9_OP_STACK,        /* stack frames: u32 count, then 8 bytes each */
  D9_OP_OPTIONAL = 0x80,
} D9Op;

/* Plans common enough to have code of their own (V varint, the others
 * fixed-size): poll end and clock sync; wake; poll start and park;
 * unpark. */
typedef enum {
  D9_SHAPE_NONE,
  D9_SHAPE_V,
  D9_SHAPE_V_V_U8,
  D9_SHAPE_V_U8_V_U32,
  D9_SHAPE_V_U8_V_V_U32,
  /* park and unpark of files with no thread id in them */
  D9_SHAPE_V_U8_V,
  D9_SHAPE_V_U8_V_V,
} D9Shape;

typedef enum {
  D9_EDGE_POLL_START = 1,
  D9_EDGE_POLL_END,
  D9_EDGE_PARK,
  D9_EDGE_UNPARK,
  D9_EDGE_ENTER,
  D9_EDGE_EXIT,
  /* Where a damaged file among several was cut (d9_loader_cut()): what is
   * open on the worker ends there, as at the end of the trace. */
  D9_EDGE_CUT,
} D9EdgeKind;

/* One start or end of a span on a worker, paired after sorting by time. */
typedef struct {
  KymoTime ts;
  guint64  aux;        /* task index | (local queue + 1) << 32, or span id */
  guint32  source;
  guint32  name_kind;  /* name id | kind << 24 */
} D9Edge;

typedef struct {
  KymoSpan span;
  guint32  depth;
} D9DeepSpan;

typedef struct {
  guint64  span_id;
  KymoTime start;
  guint32  name;
  guint32  source;
} D9Open;

typedef struct {
  guint64  id;
  guint    index;      /* in D9Loader.workers */
  GArray  *edges;      /* D9Edge */
  GArray  *instants;   /* KymoInstant, in file order */
  D9Vec   *wakes;      /* KymoInstant, in time order (added by the merge) */
  guint    track;
  guint    lq_track;
  gboolean has_lq;
  /* pairing */
  gsize    next;
  guint    state;      /* 0, D9_EDGE_POLL_START or D9_EDGE_PARK */
  KymoTime open_start;
  guint32  open_name;
  guint32  open_source;
  guint32  open_task;
  GArray  *stack;      /* D9Open */
  GArray  *deep;       /* D9DeepSpan */
  double   last_lq;
  gboolean lq_valid;
  /* Streaming (time-ordered input): what the merge would have produced,
   * kept until the tracks exist. */
  D9Vec   *spans0;     /* KymoSpan at depth 0, in start order */
  D9Vec   *lq_samples; /* KymoSample */
  guint32  lq_first;   /* source of the event that creates the lq track */
  /* Speculative decoding: the first poll start/end, park and unpark edges
   * (source + 1, 0 for none), which close a poll or park left open before. */
  guint32  first_source[4];
  KymoTime first_ts[4];
  /* A part's edges and instants (NULL in the loader, which has them in
   * @edges and @instants): in mappings of their own, which grow without
   * copying and whose pages the join moves into the loader's arrays. */
  D9Vec   *part_edges;
  D9Vec   *part_instants;
} D9Worker;

/* A wake flow found while streaming: track ids come at build time. */
typedef struct {
  KymoTime from_ts;
  KymoTime to_ts;
  guint32  from;       /* worker index, or D9_FROM_WAKES */
  guint32  to;         /* worker index */
  guint32  source;
  guint32  pad;
} D9Flow;

#define D9_FROM_WAKES (G_MAXUINT - 1)

/* An instant for a named track, added when building (so that a restarted
 * decode leaves nothing behind in the trace). */
typedef struct {
  KymoInstant instant;
  guint       track;
  guint       pad;
} D9Pending;

typedef struct {
  KymoTime ts;
  guint64  waker;
  guint32  woken;      /* task index or G_MAXUINT32 */
  guint32  source;
} D9Wake;

typedef struct {
  KymoTime ts;
  guint    track;
  guint32  name;
  guint32  source;
  gboolean wall;
} D9Late;

typedef struct {
  char   *name;
  GArray *workers;     /* guint64 */
} D9Runtime;

typedef struct _D9Spec D9Spec;
typedef struct _D9Kept D9Kept;

/* What a speculative decode notes about a task for the merge. */
enum {
  D9_TASK_POLLED   = 1 << 0, /* polled in this part: first_* are set */
  D9_TASK_HAD_FLOW = 1 << 1, /* its first poll here made a flow (at flow_pos) */
  D9_TASK_LOC_SET  = 1 << 2, /* a TaskSpawnEvent here set its spawn location */
};

typedef struct {
  guint32  flags;
  guint32  flow_pos;     /* flows made before its first poll here */
  guint32  poll_source;
  guint32  poll_worker;  /* worker index, of this part */
  KymoTime poll_ts;
} D9TaskNote;

typedef struct {
  KymoLoadJob *job;
  KymoTrace   *trace;
  D9Data      *d;
  GArray      *models;       /* D9Model */
  GPtrArray   *workers;      /* D9Worker* */
  guint32      small_workers[256]; /* worker id → index + 1 */
  D9Map        worker_map;
  /* Task ids are dense in practice: task id → index + 1 for the small ones,
   * in front of d->task_map (which has them all). */
  guint32     *task_direct;
  gsize        n_task_direct;
  /* Pool string id → interned name + 1, for the small ids of the current
   * segment (pool_name's map lookup, once per id). */
  guint32      pool_names[256];
  GArray      *wakes;        /* D9Wake */
  D9Vec       *part_wakes;   /* a part's D9Wake instead (NULL in the loader) */
  GArray      *late;         /* D9Late */
  GArray      *queue;        /* KymoSample: global queue depth */
  GPtrArray   *se_spans;     /* GArray of KymoSpan per single-event span track */
  GArray      *se_tracks;    /* guint */
  GHashTable  *tracks_by_name; /* interned name → track + 1 */
  GArray      *pending;      /* D9Pending */
  /* Streaming: while every poll/park/span/wake event comes in time order,
   * file order is the merge order, so spans are paired and wakes resolved
   * while decoding. The first event out of order sets @disorder and the
   * load starts again without streaming. */
  gboolean     streaming;
  gboolean     disorder;
  KymoTime     order_ts;
  D9Vec       *flows;        /* D9Flow */
  /* The merged parts' flows, left where they were decoded until build
   * joins them into @flows (d9_loader_join_flows). NULL when nothing was
   * merged. */
  D9Kept      *kept;
  gint         stop_flows;   /* atomic: a replay of the flows is to stop */
  gint         moves_left;   /* atomic: page moves still allowed (each
                              * splits mappings, of which a process has a
                              * limited number) */
  D9Vec       *wake_instants; /* KymoInstant: wakes with no known waker */
  guint32      wakes_first;  /* source of the first of them */
  GPtrArray   *runtimes;     /* D9Runtime* */
  /* Side records, taken while decoding (kymo-dial9-side.c): KymoRecord in
   * the part's numbering, and D9SideSample. */
  D9Vec       *side_records;
  D9Vec       *side_samples;
  /* The distinct inline call chains its samples point into (D9Callchains). */
  D9Callchains *side_chains;
  /* The loading thread's: its own runs and the merged parts', in file
   * order (D9SideRun). */
  GArray      *side_runs;
  /* Decoding one part of the file on another thread, with no trace (NULL
   * when decoding for real): see kymo-dial9-load.c. */
  D9Spec      *spec;
  gsize        move_min;     /* a part's: see d9_vec_move_limits() */
  gsize        map_from;
  KymoTime     min_ts;
  KymoTime     max_ts;
  gboolean     has_wallclock;
  gint64       wall_offset;
  guint        default_group;
  guint        wakes_track;
  guint        queue_track;
  guint32      name_poll;
  guint32      name_parked;
  guint32      name_wake;
  guint32      name_cpu;
  guint32      name_sched;
} D9Loader;

D9Worker *d9_loader_worker     (D9Loader *l,
                                guint64   id);
void      d9_spec_unknown_waker (D9Loader    *l,
                                 guint64      waker);
void      d9_spec_first_poll   (D9Loader     *l,
                                guint32       task,
                                guint         worker,
                                const D9Edge *e,
                                gboolean      had_flow);
guint32   d9_loader_task       (D9Loader *l,
                                guint64   id);

/* Index of task @id, or G_MAXUINT32 when not seen. */
static inline guint32
d9_loader_find_task (D9Loader *l,
                     guint64   id)
{
  guint32 index;

  if (G_LIKELY (id < l->n_task_direct) && l->task_direct[id] != 0)
    return l->task_direct[id] - 1;
  index = d9_map_lookup (&l->d->task_map, id);
  if (index != G_MAXUINT32 && id < l->n_task_direct)
    l->task_direct[id] = index + 1;
  return index;
}
guint     d9_loader_name_track (D9Loader *l,
                                guint32   name,
                                KymoTrackKind kind);
/* The worker's local queue counter track / the track of wakes with no
 * known waker, created on first use. */
guint     d9_loader_lq_track   (D9Loader *l,
                                D9Worker *w);
guint     d9_loader_wakes_track (D9Loader *l);
/* The streamed flows in file order (the parts' in the loader's
 * numbering), joined into one g_malloc()ed array the caller then owns;
 * @flows is then empty. NULL when there are none, or when stop_flows was
 * set meanwhile. */
D9Flow   *d9_loader_join_flows (D9Loader *l,
                                gsize    *n_flows);
/* Frees the merged parts (their flows replayed). */
void      d9_loader_release_parts (D9Loader *l);
/* Joins the merged parts' arrays into the loader's (a no-op when done or
 * nothing was merged), on as many threads as the load uses. With more
 * than one, another thread runs @first (if not NULL) meanwhile, then
 * helps: *first_done says whether it ran. FALSE when cancelled (setting
 * stop_flows): the arrays are then only fit to be freed. */
gboolean  d9_loader_assemble   (D9Loader  *l,
                                void     (*first) (D9Loader *l),
                                gboolean  *first_done,
                                GError   **error);
/* How many local queue samples @w / wakes with no known waker the loader
 * holds once the merged parts' are joined in (before that, too). */
gsize     d9_loader_lq_len     (D9Loader *l,
                                D9Worker *w);
gsize     d9_loader_wake_instants_len (D9Loader *l);
static inline gboolean
d9_loader_has_flows (D9Loader *l)
{
  return l->flows->len > 0 || l->kept != NULL;
}
/* Builds tracks, pairs spans, resolves wakes, sets the time range. FALSE
 * when cancelled. */
/* How much of a stream d9_probe_damaged() decodes. */
#define D9_PROBE_BYTES ((gsize) 1 << 20)

gboolean  d9_probe_damaged     (const guint8 *data,
                                gsize         size);
gboolean  d9_build_model       (D9Loader  *l,
                                GError   **error);

/* The events [@first, @end) of a damaged file among several, cut where
 * its damage starts. */
typedef struct {
  guint64 first;
  guint64 end;
} D9Cut;

/* After decoding without streaming, before building: gives each worker
 * with edges in a cut file a D9_EDGE_CUT after them, so that what the
 * lost bytes would have ended does not take the end of some later edge
 * in the files after it. */
void      d9_loader_cut        (D9Loader    *l,
                                const D9Cut *cuts,
                                guint        n_cuts);

G_END_DECLS
