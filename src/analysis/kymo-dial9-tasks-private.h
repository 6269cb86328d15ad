/* kymo-dial9-tasks-private.h: what the passes that make a KymoDial9Tasks share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-lanes-private.h"
#include "kymo-dial9-poi-private.h"
#include "kymo-dial9-tasks.h"
#include "kymo-parts.h"

G_BEGIN_DECLS

/* kymo_dial9_tasks_new() runs in passes, each in its own file: the records
 * in chunks (kymo-dial9-tasks-records.c), the workers' polls lane by lane
 * (kymo-dial9-tasks-polls.c), and the table of rows
 * (kymo-dial9-tasks-rows.c). The Builder carries what one pass leaves for
 * the next. */

typedef struct _Builder Builder;

struct _KymoDial9Tasks
{
  gatomicrefcount   ref_count;
  KymoTrace        *trace;
  KymoDial9Task    *rows;        /* by task id, then runtime name */
  guint32           n_rows;
  KymoDial9PollRef *polls;       /* by row, each row's by track then span */
  guint32          *poll_first;  /* [n_rows + 1] into polls */
  guint32          *wakes;       /* record indexes, by woken row, each row's in file order */
  guint32          *wake_first;  /* [n_rows + 1] into wakes */
  guint             n_tracks;
  guint32         **row_of;      /* per track, per depth-0 span: row + 1 of its poll, 0 for none;
                                  * NULL for a track without polls */
  /* The points in time order are made a block at a time, when first
   * asked for, from their ids: most are polls of uninstrumented tasks,
   * which their lanes' spans give (see _kymo_dial9_pois_order()). */
  KymoPoi          *pois;        /* time order */
  guint32          *timed;       /* ids, time order */
  guint32          *worst;       /* positions in pois, worst first */
  gint             *made;        /* atomic, per block of POI_BLOCK in pois */
  GMutex            making;
  KymoPoi          *found;       /* the other points, as found */
  guint32           n_found;
  KymoDial9PoiLane *plain_lanes; /* [n_tracks]: indexes of their own */
  guint32           n_pois;
  guint64           n_polls;
  /* The table and the points are what shows first: each row's polls and
   * wakes (polls, wakes, row_of) are placed when first asked for, from
   * what the table's passes left in @pending (see
   * kymo_dial9_tasks_prepare_polls()). */
  GMutex            placing;
  gint              placed;      /* atomic */
  Builder          *pending;
  guint32          *rank;        /* each made row's number in rows */
};

/* A task's polls on one lane; its spawn location the named poll of the
 * smallest source there (0 for none). */
typedef struct {
  guint64  id;
  guint64  polls;
  KymoTime total;
  KymoTime max;
  guint32  loc_name;
  guint32  loc_source;
  gboolean maybe_plain;          /* a spawn of its id says not instrumented */
} LaneTask;

/* A worker's depth-0 spans (its polls and parks), with where the previous
 * lookup by time ended: records of one worker come in time order within a
 * batch, so the next lookup is a few spans on. */
typedef struct {
  const KymoSpan *spans;
  gsize           n;
  gsize           first;         /* of depth 0 in kymo_track_get_spans() */
  gsize           at;
  guint32        *row_of;
  KymoTime       *reach;         /* per block of REACH_BLOCK spans: the latest end up to its last */
  guint32         runtime;
  gboolean        ready;
  gboolean        polled;        /* poll records name this track */
  /* Read on the parts' threads (see read_lane()): the lane's tasks in
   * the order their first poll comes, row_of as positions in them until
   * join_lane() gives each its row, and the points the polls make. */
  LaneTask       *tasks;
  guint32         n_tasks;
  guint32         mask;          /* of slots, a power of two less one */
  guint32        *slots;         /* position in tasks + 1, 0 for none */
  guint32        *of_id;         /* the same by id, for the ids below n_of_id */
  gsize           n_of_id;
  guint32        *row_of_task;
  GArray         *pois;          /* KymoPoi, in span order */
  guint32        *plain;         /* the spans of maybe_plain tasks' polls, in order */
  gsize           n_plain;
} Lane;

/* How far ahead a pass over the records asks for them. */
#define PREFETCH_AHEAD 96 /* records */

#define REACH_SHIFT 4
#define REACH_BLOCK (1 << REACH_SHIFT)

/* A poll's task id that does not fit in 32 bits: the record has it. */
#define FAR_ID G_MAXUINT32
#define PENDING G_MAXUINT32

typedef struct {
  guint64 id;
  guint32 runtime;
} RowKey;

/* Wakes per woken task id: dense ids in a table, others hashed. */
typedef struct {
  guint32    *of_id;
  gsize       n_of_id;
  GHashTable *of_far;            /* guint64 * → count */
} WakeCounts;

typedef struct _Chunk Chunk;

/* 64 sources: which are polls, and where the first of their tasks is
 * (in a chunk's poll_tasks). Together, a span finds its word in one
 * cache miss rather than two. */
typedef struct {
  guint64        bits;
  const guint32 *polls;
} PollWord;

/* The records are read in chunks on the parts' threads. A chunk writes
 * its polls' tasks and its wakes into arrays of its own, where they stay,
 * and the bits of sources no other chunk has: chunks end where the
 * source's bitmap word changes. An array
 * no bigger than a chunk's is one the allocator can give again from
 * memory already in use, where one for the whole trace is mapped afresh,
 * each page of it faulting in. */
struct _Chunk
{
  gsize       first;             /* records [first, end) */
  gsize       end;
  gsize       n_polls;
  gsize       n_wakes;
  /* Room for every record of the chunk is taken up front: only what is
   * written is touched, and nothing is copied as it grows. */
  guint32    *poll_tasks;        /* the task of each poll record, file order;
                                  * FAR_ID when it does not fit (far_polls has it) */
  WakeCounts  counts;
  GArray     *later;             /* as Builder's */
  GArray     *unparks;
  guint8     *polled;            /* per track */
  GHashTable *far_polls;         /* as Builder's */
};

struct _Builder
{
  KymoDial9Tasks          *self;
  KymoTrace               *trace;
  const KymoRecord        *records;
  gsize                    n_records;
  const KymoPoiThresholds *thresholds;  /* NULL: no points of interest */
  GArray                  *rows;        /* KymoDial9Task, as made */
  /* A task's first row: by id for the dense ids tasks have, in a hash
   * table beyond; rows of the same id in other runtimes by (id, runtime). */
  guint32                 *first_row;   /* row + 1 */
  gsize                    n_first_row;
  gsize                    max_first_row;
  GHashTable              *far_rows;    /* guint64 * → row + 1 */
  GHashTable              *other_rows;  /* RowKey * → row + 1 */
  guint32                  default_runtime;
  Lane                    *lanes;
  guint32                  kind_poll;
  guint32                  kind_wake;
  guint32                  kind_spawn;
  guint32                  kind_term;
  guint32                  kind_unpark;   /* G_MAXUINT32 without thresholds */
  guint32                  kind_cpu;      /* G_MAXUINT32 without lanes */
  Chunk                   *chunks;        /* the records' pass, see read_chunk() */
  guint                    n_chunks;
  guint                    n_extra;       /* parts before the chunks' */
  KymoCpuReadings         *cpu;           /* [n_chunks] when the lanes are made too */
  /* Poll records by source: a bit per source from the first record's,
   * and where each word's polls start in the poll_tasks of its chunk. A
   * span's source finds its poll's task in a few cache lines, whatever
   * order the file's batches came in. */
  guint32                  base;
  gsize                    n_words;
  PollWord                *words;
  GHashTable              *far_polls;   /* source → guint64 * task id, or NULL */
  WakeCounts               wake_counts; /* by woken task id */
  GArray                  *later;       /* record indexes of spawns and terminations */
  GArray                  *unparks;     /* record indexes of unparks past the threshold */
  /* Made on the parts' threads before the records' chunks (see read_part()). */
  gboolean                 scan_samples; /* see _kymo_dial9_tasks_scan_samples() */
  guint32                 *sample_first; /* [n_tracks + 1] into sample_ts; NULL when scanned */
  KymoTime                *sample_ts;   /* the samples' times, by track */
  GArray                  *late_flows;  /* indexes of flows past the wake threshold */
  guint32                 *late_spans;  /* per late flow: the span it ends in, from its lane's pass */
  guint32                 *late_first;  /* [n_tracks + 1] into late_order */
  guint32                 *late_order;  /* positions in late_flows, by track, each track's by time */
  guint64                 *plain_ids;   /* sorted: task ids a spawn says are not instrumented */
  gsize                    n_plain_ids;
  GArray                  *pois;        /* KymoPoi, as found, but for: */
  guint32                  lanes_at;    /* where the lanes' polls of uninstrumented tasks come in pois */
  KymoDial9PoiLane        *plain_lanes; /* [n_tracks]: those polls, lane by lane */
  gsize                    pois_parallel_min; /* points: see POIS_PARALLEL_MIN */
};

/* The pass over the records, in chunks, and what the points of interest
 * read from the samples and the flows (arrays as long as the records, one
 * part each) are the parts, on the threads the load's default gives: each
 * only reads the sealed trace and writes what no other part touches until
 * kymo_parts_wait(). A thread costs more than a small trace takes: at
 * 250k records the pass takes about a millisecond on one. */
#define PARALLEL_MIN 250000 /* records */
#define N_CHUNKS     8
/* Putting the points in order takes about as long per point as the
 * records' pass per record, but on the loading thread alone unless they
 * are split: from this many, in halves. */
#define POIS_PARALLEL_MIN 100000 /* points */
#define POI_BLOCK         256    /* points */

static inline KymoDial9Task *
row_at (Builder *b,
        guint32  row)
{
  return &g_array_index (b->rows, KymoDial9Task, row);
}

/* The first row made for @id, or PENDING. */
static inline guint32
first_row (Builder *b,
           guint64  id)
{
  gpointer v;

  if (id < b->n_first_row)
    return b->first_row[id] - 1;
  if (b->far_rows == NULL)
    return PENDING;
  v = g_hash_table_lookup (b->far_rows, &id);
  return v != NULL ? GPOINTER_TO_UINT (v) - 1 : PENDING;
}

static inline guint
popcount64 (guint64 x)
{
  /* Without -mpopcnt the builtin is a call into libgcc, per poll. */
  x = x - ((x >> 1) & G_GUINT64_CONSTANT (0x5555555555555555));
  x = (x & G_GUINT64_CONSTANT (0x3333333333333333)) + ((x >> 2) & G_GUINT64_CONSTANT (0x3333333333333333));
  x = (x + (x >> 4)) & G_GUINT64_CONSTANT (0x0f0f0f0f0f0f0f0f);
  return (guint) ((x * G_GUINT64_CONSTANT (0x0101010101010101)) >> 56);
}

/* The task of the poll record whose event drew @span (FAR_ID: see
 * far_poll_task()), or NULL. */
static inline const guint32 *
poll_of (Builder        *b,
         const KymoSpan *span)
{
  guint32 at = span->source - b->base;
  guint64 word, bit;

  if (span->source < b->base || (gsize) (at >> 6) >= b->n_words)
    return NULL;
  word = b->words[at >> 6].bits;
  bit = G_GUINT64_CONSTANT (1) << (at & 63);
  if ((word & bit) == 0)
    return NULL;
  return &b->words[at >> 6].polls[popcount64 (word & (bit - 1))];
}

/* Asks for the word poll_of() will read for @span. */
static inline void
poll_word_prefetch (Builder        *b,
                    const KymoSpan *span)
{
  guint32 at = span->source - b->base;

  if (span->source >= b->base && (gsize) (at >> 6) < b->n_words)
    __builtin_prefetch (&b->words[at >> 6]);
}

/* The task of a poll whose id did not fit in a chunk's poll_tasks. */
static inline guint64
far_poll_task (Builder        *b,
               const KymoSpan *span)
{
  const guint64 *id = b->far_polls != NULL ? g_hash_table_lookup (b->far_polls, GUINT_TO_POINTER (span->source)) : NULL;

  g_assert (id != NULL);
  return *id;
}

/* How far the spans reach: a running maximum of the ends, kept at the
 * last span of each block (so, for any span, at least how far those up to
 * it reach, and at most REACH_BLOCK spans more). */
static inline void
lane_reach_step (Lane     *lane,
                 gsize     i,
                 KymoTime *running)
{
  *running = MAX (*running, lane->spans[i].end);
  if ((i & (REACH_BLOCK - 1)) == REACH_BLOCK - 1 || i == lane->n - 1)
    lane->reach[i >> REACH_SHIFT] = *running;
}

/* kymo-dial9-tasks-records.c */
void     _kymo_dial9_tasks_prepare_records   (Builder    *b);
void     _kymo_dial9_tasks_make_chunks       (Builder    *b,
                                              guint       n_chunks);
void     _kymo_dial9_tasks_read_part         (guint       index,
                                              gpointer    user_data);
void     _kymo_dial9_tasks_join_chunk        (Builder    *b,
                                              Chunk      *c);
void     _kymo_dial9_tasks_count_polls       (Builder    *b);
void     _kymo_dial9_tasks_wake_counts_clear (WakeCounts *w);
gboolean _kymo_dial9_tasks_scan_samples      (KymoTrace  *trace);

/* kymo-dial9-tasks-rows.c */
guint32     _kymo_dial9_tasks_row_for      (Builder             *b,
                                            guint64              id,
                                            guint32              runtime);
guint32     _kymo_dial9_tasks_only_runtime (KymoTrace           *trace);
void        _kymo_dial9_tasks_settle_rows  (Builder             *b);
void        _kymo_dial9_tasks_sort_rows    (Builder             *b,
                                            guint32             *rank);
guint32    *_kymo_dial9_tasks_slices       (const KymoDial9Task *rows,
                                            guint32              n_rows,
                                            gboolean             polls);
const char *_kymo_dial9_tasks_runtime_name (KymoTrace           *trace,
                                            guint                track);

/* kymo-dial9-tasks-polls.c */
void _kymo_dial9_tasks_read_polls       (Builder       *b);
void _kymo_dial9_tasks_add_uninstrumented (Builder     *b,
                                           const guint32 *rank);
void _kymo_dial9_tasks_finish_pois      (Builder       *b);
void _kymo_dial9_tasks_place_polls      (Builder       *b,
                                         const guint32 *rank);
void _kymo_dial9_tasks_place_wakes      (Builder       *b,
                                         const guint32 *rank);

G_END_DECLS
