/* kymo-dial9-tasks.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-tasks"

#include "config.h"

#include <string.h>

#include "kymo-dial9-tasks.h"
#include "kymo-dial9-poi-private.h"
#include "kymo-parts.h"
#include "kymo-short-path.h"

struct _KymoDial9Tasks
{
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
  KymoPoi          *pois;        /* time order */
  guint32          *worst;       /* positions in pois, worst first */
  guint32           n_pois;
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
  guint32        *row_of_task;
  GArray         *pois;          /* KymoPoi, in span order */
} Lane;

#define REACH_SHIFT 4
#define REACH_BLOCK (1 << REACH_SHIFT)

/* A wake record: the woken task's id when it fits (else FAR_ID: the
 * record has it). */
typedef struct {
  guint32 task_id;
  guint32 record;
} WakeAt;

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

typedef struct {
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
  Chunk                   *chunks;        /* the records' pass, see read_chunk() */
  guint                    n_chunks;
  /* Poll records by source: a bit per source from the first record's,
   * where each word's polls start in poll_tasks, and the polls' tasks.
   * A span's source finds its poll's task in a few cache lines, whatever
   * order the file's batches came in. */
  guint32                  base;
  gsize                    n_words;
  guint64                 *is_poll;
  guint32                 *before;
  /* Room for every record is taken up front: only what is written is
   * touched, and nothing is copied as it grows. */
  guint64                 *poll_tasks;  /* the task of each poll record, file order, in its chunk's room */
  WakeAt                  *wakes;       /* file order, in its chunk's room */
  WakeCounts               wake_counts; /* by woken task id */
  GArray                  *later;       /* record indexes of spawns and terminations */
  GArray                  *unparks;     /* record indexes of unparks past the threshold */
  /* Made on the parts' threads after the records' chunks (see read_part()). */
  const KymoStackSample   *samples;
  guint32                 *sample_first; /* [n_tracks + 1] into by_track */
  guint32                 *by_track;    /* sample indexes, by track then time */
  GArray                  *late_flows;  /* indexes of flows past the wake threshold */
  GArray                  *pois;        /* KymoPoi, as found */
} Builder;

static guint
row_key_hash (gconstpointer data)
{
  const RowKey *k = data;
  return (guint) (k->id ^ (k->id >> 32)) * 31 + k->runtime;
}

static gboolean
row_key_equal (gconstpointer a,
               gconstpointer b)
{
  const RowKey *x = a, *y = b;
  return x->id == y->id && x->runtime == y->runtime;
}

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

static void
set_first_row (Builder *b,
               guint64  id,
               guint32  row)
{
  if (id >= b->n_first_row && id < b->max_first_row)
    {
      gsize n = MIN (MAX (id + 1, b->n_first_row * 2), b->max_first_row);

      b->first_row = g_renew (guint32, b->first_row, n);
      memset (b->first_row + b->n_first_row, 0, (n - b->n_first_row) * sizeof (guint32));
      b->n_first_row = n;
    }
  if (id < b->n_first_row)
    b->first_row[id] = row + 1;
  else
    {
      if (b->far_rows == NULL)
        b->far_rows = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      g_hash_table_insert (b->far_rows, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (row + 1));
    }
}

static guint32
new_row (Builder *b,
         guint64  id,
         guint32  runtime)
{
  KymoDial9Task row = { 0 };

  row.task_id = id;
  row.runtime = runtime;
  row.spawned = row.terminated = KYMO_TIME_NONE;
  row.instrumented = TRUE;
  g_array_append_val (b->rows, row);
  return b->rows->len - 1;
}

static guint32
row_for (Builder *b,
         guint64  id,
         guint32  runtime)
{
  guint32 first = first_row (b, id), row;
  RowKey probe = { id, runtime };
  gpointer v;

  if (first == PENDING)
    {
      row = new_row (b, id, runtime);
      set_first_row (b, id, row);
      return row;
    }
  if (row_at (b, first)->runtime == runtime)
    return first;
  /* The same id in another runtime: a task of its own. */
  if (b->other_rows == NULL)
    b->other_rows = g_hash_table_new_full (row_key_hash, row_key_equal, g_free, NULL);
  v = g_hash_table_lookup (b->other_rows, &probe);
  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  row = new_row (b, id, runtime);
  g_hash_table_insert (b->other_rows, g_memdup2 (&probe, sizeof probe), GUINT_TO_POINTER (row + 1));
  return row;
}

/* Spawns, terminations and wakes name a task, not a runtime: the row of
 * its first poll, else one in the trace's only runtime. */
static guint32
any_row_for (Builder *b,
             guint64  id)
{
  guint32 row = first_row (b, id);

  return row != PENDING ? row : row_for (b, id, b->default_runtime);
}

/* The one runtime group, when there is exactly one. */
static guint32
only_runtime (KymoTrace *trace)
{
  guint32 found = KYMO_NO_TRACK;
  guint n = 0;

  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    {
      KymoTrack *t = kymo_trace_get_track (trace, i);

      if (kymo_track_get_kind (t) == KYMO_TRACK_GROUP &&
          g_strcmp0 (kymo_track_get_group_kind (t), "runtime") == 0 &&
          g_strcmp0 (kymo_track_get_name (t), "other workers") != 0)
        {
          found = i;
          n++;
        }
    }
  return n == 1 ? found : KYMO_NO_TRACK;
}

static Lane *
lane_for (Builder *b,
          guint32  track)
{
  Lane *lane;

  if (track >= b->self->n_tracks)
    return NULL;
  lane = &b->lanes[track];
  if (!lane->ready)
    {
      KymoTrack *t = kymo_trace_get_track (b->trace, track);

      lane->ready = TRUE;
      lane->spans = kymo_track_get_depth_spans (t, 0, &lane->n, &lane->first);
      lane->runtime = kymo_track_get_parent (t);
    }
  return lane->n > 0 ? lane : NULL;
}

/* The first span of @lane starting at or after @ts, galloping from where
 * the previous lookup ended (either way). */
static gsize
lane_lower_bound (Lane     *lane,
                  KymoTime  ts)
{
  const KymoSpan *spans = lane->spans;
  gsize n = lane->n, at = MIN (lane->at, n), lo, hi, step = 1;

  if (at < n && spans[at].start < ts)
    {
      lo = at + 1;
      while (lo + step - 1 < n && spans[lo + step - 1].start < ts)
        {
          lo += step;
          step *= 2;
        }
      hi = MIN (lo + step - 1, n);
    }
  else
    {
      hi = at;
      while (hi >= step && spans[hi - step].start >= ts)
        {
          hi -= step;
          step *= 2;
        }
      lo = hi >= step ? hi - step + 1 : 0;
    }
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (spans[mid].start < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
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

static void
lane_ensure_reach (Lane *lane)
{
  KymoTime running = G_MININT64;

  if (lane->reach != NULL)
    return;
  lane->reach = g_new (KymoTime, (lane->n >> REACH_SHIFT) + 1);
  for (gsize i = 0; i < lane->n; i++)
    lane_reach_step (lane, i, &running);
}

/* The span of @lane holding @ts (inclusive at both ends), the shortest
 * when several do (the first on a tie), as kymo_track_find_span_at() says;
 * G_MAXUINT32 for none. The walk back from the first span after @ts stops
 * where no span before reaches @ts: on a worker, at once (its polls and
 * parks follow each other). */
static guint32
lane_span_at (Lane     *lane,
              KymoTime  ts)
{
  const KymoSpan *spans = lane->spans;
  gsize i = ts < G_MAXINT64 ? lane_lower_bound (lane, ts + 1) : lane->n;
  guint32 best = G_MAXUINT32;

  lane_ensure_reach (lane);
  lane->at = i;
  for (; i > 0 && lane->reach[(i - 1) >> REACH_SHIFT] >= ts; i--)
    if (spans[i - 1].end >= ts &&
        (best == G_MAXUINT32 || spans[i - 1].end - spans[i - 1].start <= spans[best].end - spans[best].start))
      best = (guint32) (i - 1);
  return best == G_MAXUINT32 ? G_MAXUINT32 : (guint32) (lane->first + best);
}

static inline void
add_poi (Builder     *b,
         KymoPoiKind  kind,
         KymoTime     start,
         KymoTime     end,
         KymoTime     severity,
         guint32      track,
         guint32      span,
         guint32      count)
{
  KymoPoi poi = { start, end, severity, kind, track, span, count };
  g_array_append_val (b->pois, poi);
}

static void
wake_counts_add (WakeCounts *w,
                 guint64     id,
                 guint32     count,
                 gsize       max_id)
{
  if (id >= w->n_of_id && id < max_id)
    {
      gsize n = MIN (MAX (id + 1, w->n_of_id * 2), max_id);

      w->of_id = g_renew (guint32, w->of_id, n);
      memset (w->of_id + w->n_of_id, 0, (n - w->n_of_id) * sizeof (guint32));
      w->n_of_id = n;
    }
  if (id < w->n_of_id)
    w->of_id[id] += count;
  else
    {
      gpointer v;

      if (w->of_far == NULL)
        w->of_far = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      v = g_hash_table_lookup (w->of_far, &id);
      g_hash_table_insert (w->of_far, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (GPOINTER_TO_UINT (v) + count));
    }
}

static void
wake_counts_clear (WakeCounts *w)
{
  g_clear_pointer (&w->of_id, g_free);
  g_clear_pointer (&w->of_far, g_hash_table_unref);
  w->n_of_id = 0;
}

/* The records are read in chunks on the parts' threads. A chunk writes
 * its polls' tasks and its wakes into the room of its own records, where
 * they stay, and the bits of sources no other chunk has: chunks end where
 * the source's bitmap word changes. */
struct _Chunk
{
  gsize       first;             /* records [first, end) */
  gsize       end;
  gsize       n_polls;
  gsize       n_wakes;
  WakeCounts  counts;
  GArray     *later;             /* as Builder's */
  GArray     *unparks;
  guint8     *polled;            /* per track */
};

/* An unpark says how long the kernel kept the worker waiting: past the
 * threshold, it is looked at once the polls are read. */
static void
add_unpark (Builder          *b,
            Chunk            *c,
            const KymoRecord *r,
            guint32           index)
{
  if (r->track >= b->self->n_tracks || r->value > (guint64) G_MAXINT64 / 2 ||
      (KymoTime) r->value <= b->thresholds->sched_delay_ns)
    return;
  g_array_append_val (c->unparks, index);
}

static void
add_sched_delays (Builder *b)
{
  for (guint i = 0; i < b->unparks->len; i++)
    {
      const KymoRecord *r = &b->records[g_array_index (b->unparks, guint32, i)];
      KymoTime wait = (KymoTime) r->value;
      Lane *lane = lane_for (b, r->track);
      guint32 span = G_MAXUINT32;

      /* The park it ends, to select. */
      if (lane != NULL && r->ts > 0)
        span = lane_span_at (lane, r->ts - 1);
      add_poi (b, KYMO_POI_SCHED_DELAY, r->ts - wait, r->ts, wait, r->track, span, 0);
    }
}

#define PREFETCH_AHEAD 96 /* records */

/* One chunk of the pass over the records (on any thread). What it
 * counts is kept here until the end: chunks lie next to each other, and
 * threads writing the same cache line would wait on each other. */
static void
read_chunk (Builder *b,
            Chunk   *c)
{
  const KymoRecord *records = b->records;
  guint32 kind_poll = b->kind_poll, kind_wake = b->kind_wake, kind_unpark = b->kind_unpark;
  guint32 kind_spawn = b->kind_spawn, kind_term = b->kind_term;
  guint n_tracks = b->self->n_tracks;
  guint64 *is_poll = b->is_poll;
  guint64 *poll_tasks;
  WakeAt *wakes;
  gsize n_polls = 0, n_wakes = 0;
  guint32 last = 0;

  /* No room is taken for no records. */
  if (c->first == c->end)
    return;
  poll_tasks = b->poll_tasks + c->first;
  wakes = b->wakes + c->first;
  for (gsize i = c->first; i < c->end; i++)
    {
      const KymoRecord *r = &records[i];

      /* The pass waits on memory more than it computes: asking for the
       * records a page ahead takes a sixth off one thread's time. */
      if (G_LIKELY (i + PREFETCH_AHEAD < c->end))
        __builtin_prefetch (r + PREFETCH_AHEAD);
      if (G_UNLIKELY (r->kind == G_MAXUINT32))
        continue;
      if (r->kind == kind_poll)
        {
          guint32 at = r->source - b->base;

          /* A source is one poll: a second record of it is left out. */
          if (r->track >= n_tracks || r->source < b->base || (gsize) (at >> 6) >= b->n_words ||
              (n_polls > 0 && at <= last))
            continue;
          last = at;
          is_poll[at >> 6] |= G_GUINT64_CONSTANT (1) << (at & 63);
          poll_tasks[n_polls++] = r->key;
          if (!c->polled[r->track])
            c->polled[r->track] = TRUE;
        }
      else if (r->kind == kind_wake)
        {
          guint64 id = r->key;

          wakes[n_wakes++] = (WakeAt) { id < FAR_ID ? (guint32) id : FAR_ID, (guint32) i };
          if (id < c->counts.n_of_id)
            c->counts.of_id[id]++;
          else
            wake_counts_add (&c->counts, id, 1, b->max_first_row);
        }
      else if (r->kind == kind_unpark)
        add_unpark (b, c, r, (guint32) i);
      else if (r->kind == kind_spawn || r->kind == kind_term)
        {
          guint32 index = (guint32) i;
          g_array_append_val (c->later, index);
        }
    }
  c->n_polls = n_polls;
  c->n_wakes = n_wakes;
}

/* Chunks of about equal records, each ending where a bitmap word does. */
static void
make_chunks (Builder *b,
             guint    n_chunks)
{
  const KymoRecord *records = b->records;
  gsize first = 0;

  b->chunks = g_new0 (Chunk, n_chunks);
  b->n_chunks = n_chunks;
  for (guint k = 0; k < n_chunks; k++)
    {
      Chunk *c = &b->chunks[k];
      gsize end = k + 1 == n_chunks ? b->n_records : MAX (first, b->n_records / n_chunks * (k + 1));

      while (end > 0 && end < b->n_records &&
             (records[end].source - b->base) >> 6 == (records[end - 1].source - b->base) >> 6)
        end++;
      c->first = first;
      c->end = end;
      c->later = g_array_new (FALSE, FALSE, sizeof (guint32));
      c->unparks = g_array_new (FALSE, FALSE, sizeof (guint32));
      c->polled = g_new0 (guint8, b->self->n_tracks + 1);
      first = end;
    }
}

/* In order: the chunk's counts and lists join the builder's (its counts
 * stay, for place_wakes()). */
static void
join_chunk (Builder *b,
            Chunk   *c)
{
  for (gsize id = 0; id < c->counts.n_of_id; id++)
    if (c->counts.of_id[id] != 0)
      wake_counts_add (&b->wake_counts, id, c->counts.of_id[id], b->max_first_row);
  if (c->counts.of_far != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, c->counts.of_far);
      while (g_hash_table_iter_next (&iter, &key, &value))
        wake_counts_add (&b->wake_counts, *(guint64 *) key, GPOINTER_TO_UINT (value), b->max_first_row);
    }
  g_array_append_vals (b->later, c->later->data, c->later->len);
  g_array_append_vals (b->unparks, c->unparks->data, c->unparks->len);
  for (guint t = 0; t < b->self->n_tracks; t++)
    if (c->polled[t])
      b->lanes[t].polled = TRUE;

  g_clear_pointer (&c->later, g_array_unref);
  g_clear_pointer (&c->unparks, g_array_unref);
  g_clear_pointer (&c->polled, g_free);
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

/* Room for the pass over the records, taken before the chunks start. */
static void
prepare_records (Builder *b)
{
  KymoTrace *trace = b->trace;

  b->kind_poll = kymo_trace_lookup_name (trace, "poll");
  b->kind_wake = kymo_trace_lookup_name (trace, "wake");
  b->kind_spawn = kymo_trace_lookup_name (trace, "spawn");
  b->kind_term = kymo_trace_lookup_name (trace, "terminate");
  b->kind_unpark = b->thresholds != NULL ? kymo_trace_lookup_name (trace, "unpark") : G_MAXUINT32;
  if (b->n_records > 0)
    {
      b->base = b->records[0].source;
      b->n_words = ((gsize) (b->records[b->n_records - 1].source - b->base) >> 6) + 1;
      b->is_poll = g_new0 (guint64, b->n_words);
      b->before = g_new (guint32, b->n_words);
      b->poll_tasks = g_new (guint64, b->n_records);
      b->wakes = g_new (WakeAt, b->n_records);
    }
}

/* Once every chunk is read: where the polls of each bitmap word start in
 * poll_tasks (a word's polls are all in one chunk's room). */
static void
count_polls (Builder *b)
{
  for (guint k = 0; k < b->n_chunks; k++)
    {
      const Chunk *c = &b->chunks[k];
      gsize w_end = k + 1 < b->n_chunks && b->chunks[k + 1].first < b->n_records
                    ? (b->records[b->chunks[k + 1].first].source - b->base) >> 6 : b->n_words;
      gsize w = c->first < b->n_records ? (b->records[c->first].source - b->base) >> 6 : b->n_words;
      guint32 sum = (guint32) c->first;

      for (; w < w_end; w++)
        {
          b->before[w] = sum;
          sum += popcount64 (b->is_poll[w]);
        }
    }
}

/* The task of the poll record whose event drew @span, or NULL. */
static inline const guint64 *
poll_of (Builder        *b,
         const KymoSpan *span)
{
  guint32 at = span->source - b->base;
  guint64 word, bit;

  if (span->source < b->base || (gsize) (at >> 6) >= b->n_words)
    return NULL;
  word = b->is_poll[at >> 6];
  bit = G_GUINT64_CONSTANT (1) << (at & 63);
  if ((word & bit) == 0)
    return NULL;
  return &b->poll_tasks[b->before[at >> 6] + popcount64 (word & (bit - 1))];
}

/* The samples of each track, in time order. */
static void
samples_by_track (Builder *b)
{
  guint n_tracks = b->self->n_tracks;
  gsize n_samples;
  const KymoStackSample *samples = kymo_stacks_get_samples (kymo_trace_get_stacks (b->trace), &n_samples);
  guint32 *first = g_new0 (guint32, n_tracks + 2);
  g_autofree guint32 *at = NULL;
  guint32 *by_track;

  for (gsize i = 0; i < n_samples; i++)
    if (samples[i].track < n_tracks)
      first[samples[i].track + 1]++;
  for (guint t = 0; t < n_tracks; t++)
    first[t + 1] += first[t];
  at = g_memdup2 (first, sizeof (guint32) * (n_tracks + 1));
  by_track = g_new (guint32, MAX (first[n_tracks], 1));
  for (gsize i = 0; i < n_samples; i++)
    if (samples[i].track < n_tracks)
      by_track[at[samples[i].track]++] = (guint32) i;
  b->samples = samples;
  b->sample_first = first;
  b->by_track = by_track;
}

/* Wake → poll: the flows from the wakes that scheduled a task to its
 * poll, those past the threshold. */
static void
find_late_flows (Builder *b)
{
  gsize n_flows;
  const KymoFlow *flows = kymo_trace_get_flows (b->trace, &n_flows);

  for (gsize i = 0; i < n_flows; i++)
    if (flows[i].to_ts - flows[i].from_ts > b->thresholds->wake_delay_ns && flows[i].to_track < b->self->n_tracks)
      {
        guint32 index = (guint32) i;
        g_array_append_val (b->late_flows, index);
      }
}

/* The pass over the records, in chunks, and what the points of interest
 * read from the samples and the flows (arrays as long as the records, one
 * part each) are the parts, on the threads the load's default gives: each
 * only reads the sealed trace and writes what no other part touches until
 * kymo_parts_wait(). A thread costs more than a small trace takes. */
#define PARALLEL_MIN 1000000 /* records */
#define N_CHUNKS     8

static void
read_part (guint    index,
           gpointer user_data)
{
  Builder *b = user_data;

  if (index < b->n_chunks)
    read_chunk (b, &b->chunks[index]);
  else if (index == b->n_chunks)
    samples_by_track (b);
  else
    find_late_flows (b);
}

/* The position of task @id in @lane's tasks, added when new. */
static guint32
lane_task (Lane    *lane,
           guint64  id)
{
  guint32 h = (guint32) ((id * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32);

  for (;; h++)
    {
      guint32 slot = lane->slots[h & lane->mask];

      if (slot == 0)
        break;
      if (lane->tasks[slot - 1].id == id)
        return slot - 1;
    }
  if (lane->n_tasks * 2 >= lane->mask)
    {
      guint32 n_slots = (lane->mask + 1) * 2;

      g_free (lane->slots);
      lane->slots = g_new0 (guint32, n_slots);
      lane->mask = n_slots - 1;
      lane->tasks = g_renew (LaneTask, lane->tasks, n_slots / 2);
      for (guint32 k = 0; k < lane->n_tasks; k++)
        {
          guint32 g = (guint32) ((lane->tasks[k].id * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32);

          while (lane->slots[g & lane->mask] != 0)
            g++;
          lane->slots[g & lane->mask] = k + 1;
        }
      return lane_task (lane, id);
    }
  lane->slots[h & lane->mask] = lane->n_tasks + 1;
  lane->tasks[lane->n_tasks] = (LaneTask) { id, 0, 0, 0, 0, 0 };
  return lane->n_tasks++;
}

static inline void
lane_poi (Lane           *lane,
          KymoPoiKind     kind,
          const KymoSpan *span,
          guint32         span_index,
          guint32         count)
{
  KymoPoi poi = { span->start, span->end, span->end - span->start, kind, 0, span_index, count };
  g_array_append_val (lane->pois, poi);
}

/* One polled worker's spans in order, each meeting its poll record by
 * source (on any thread; only this lane is written): its tasks' polls,
 * and the points of interest a poll makes by itself: long polls, and
 * polls with samples in them (the track's samples met with a cursor). */
static void
read_lane (Builder *b,
           guint    t)
{
  gboolean pois = b->thresholds != NULL;
  const KymoStackSample *samples = b->samples;
  const guint32 *by_track = b->by_track;
  Lane *lane = b->lanes[t].polled ? lane_for (b, t) : NULL;
  guint32 k = pois ? b->sample_first[t] : 0, k_end = pois ? b->sample_first[t + 1] : 0;
  KymoTime running = G_MININT64;

  if (lane == NULL)
    return;
  lane->row_of = g_new0 (guint32, lane->n);
  lane->mask = 63;
  lane->slots = g_new0 (guint32, lane->mask + 1);
  lane->tasks = g_new (LaneTask, (lane->mask + 1) / 2);
  /* The points' spans are looked up on workers: their reach is taken on
   * the way. */
  if (pois)
    {
      lane->reach = g_new (KymoTime, (lane->n >> REACH_SHIFT) + 1);
      lane->pois = g_array_new (FALSE, FALSE, sizeof (KymoPoi));
    }
  for (gsize i = 0; i < lane->n; i++)
    {
      const KymoSpan *span = &lane->spans[i];
      const guint64 *task_id = poll_of (b, span);
      LaneTask *task;
      KymoTime dur;
      guint32 at, name, count = 0;

      if (pois)
        lane_reach_step (lane, i, &running);
      /* A source is one event: the poll record's track is this one. */
      if (task_id == NULL)
        continue;
      at = lane_task (lane, *task_id);
      lane->row_of[i] = at + 1;
      task = &lane->tasks[at];
      dur = span->end - span->start;
      task->polls++;
      task->total += dur;
      task->max = MAX (task->max, dur);
      name = kymo_span_name (span);
      if (name != 0 && (task->loc_name == 0 || span->source < task->loc_source))
        {
          task->loc_name = name;
          task->loc_source = span->source;
        }
      if (!pois)
        continue;
      if (dur > b->thresholds->long_poll_ns)
        lane_poi (lane, KYMO_POI_LONG_POLL, span, (guint32) (lane->first + i), 0);
      while (k < k_end && samples[by_track[k]].ts < span->start)
        k++;
      for (guint32 j = k; j < k_end && samples[by_track[j]].ts <= span->end; j++)
        count++;
      if (count > 0)
        lane_poi (lane, KYMO_POI_CPU_SAMPLES, span, (guint32) (lane->first + i), count);
    }
}

/* In track order, as one thread reading every lane in turn would: rows
 * are made in the order of their first poll on the first track that
 * polls them, and a row's spawn location is the one its polls give on
 * the first track where they name one. */
static void
join_lane (Builder *b,
           guint    t)
{
  Lane *lane = &b->lanes[t];

  if (lane->row_of == NULL)
    return;
  lane->row_of_task = g_new (guint32, MAX (lane->n_tasks, 1));
  for (guint32 k = 0; k < lane->n_tasks; k++)
    {
      const LaneTask *lt = &lane->tasks[k];
      guint32 row = row_for (b, lt->id, lane->runtime);
      KymoDial9Task *task = row_at (b, row);

      lane->row_of_task[k] = row;
      task->polls += lt->polls;
      task->poll_total += lt->total;
      task->poll_max = MAX (task->poll_max, lt->max);
      if (lt->loc_name != 0 && task->spawn_loc == 0)
        task->spawn_loc = lt->loc_name;
    }
  if (lane->pois != NULL)
    {
      for (guint i = 0; i < lane->pois->len; i++)
        g_array_index (lane->pois, KymoPoi, i).track = t;
      g_array_append_vals (b->pois, lane->pois->data, lane->pois->len);
      g_clear_pointer (&lane->pois, g_array_unref);
    }
  g_clear_pointer (&lane->slots, g_free);
}

static void
read_lane_part (guint    index,
                gpointer user_data)
{
  read_lane (user_data, index);
}

static gboolean
join_lane_part (guint    index,
                gpointer user_data)
{
  join_lane (user_data, index);
  return TRUE;
}

/* Each polled worker's spans: the rows and their counts, and the points of
 * interest polls make by themselves. */
static void
read_polls (Builder *b)
{
  kymo_parts_run (NULL, b->n_records, PARALLEL_MIN, b->self->n_tracks, 0, read_lane_part, join_lane_part, b);
}

/* What needed every poll seen: spawns and terminations (in file order, the
 * last spawn wins), and the wakes. */
static void
settle_rows (Builder *b)
{
  guint32 kind_spawn = kymo_trace_lookup_name (b->trace, "spawn");
  guint32 name_poll = kymo_trace_lookup_name (b->trace, "poll");

  /* Spans of polls without a location are named "poll". */
  for (guint i = 0; i < b->rows->len; i++)
    if (row_at (b, i)->spawn_loc == name_poll)
      row_at (b, i)->spawn_loc = 0;

  for (guint i = 0; i < b->later->len; i++)
    {
      const KymoRecord *r = &b->records[g_array_index (b->later, guint32, i)];
      KymoDial9Task *row = row_at (b, any_row_for (b, r->key));

      if (r->kind == kind_spawn)
        {
          row->spawned = r->ts;
          row->instrumented = r->value != 0;
          if (r->name != 0)
            row->spawn_loc = r->name;
        }
      else
        row->terminated = r->ts;
    }

  /* A task's wakes go to its first row, made here if it has none. */
  for (gsize id = 0; id < b->wake_counts.n_of_id; id++)
    if (b->wake_counts.of_id[id] != 0)
      row_at (b, any_row_for (b, id))->wakes += b->wake_counts.of_id[id];
  if (b->wake_counts.of_far != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, b->wake_counts.of_far);
      while (g_hash_table_iter_next (&iter, &key, &value))
        row_at (b, any_row_for (b, *(guint64 *) key))->wakes += GPOINTER_TO_UINT (value);
    }
}

static const char *
runtime_name (KymoTrace *trace,
              guint      track)
{
  if (track == KYMO_NO_TRACK || track >= kymo_trace_get_n_tracks (trace))
    return "";
  return kymo_track_get_name (kymo_trace_get_track (trace, track));
}

static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      data)
{
  Builder *builder = data;
  guint32 i = *(const guint32 *) a, j = *(const guint32 *) b;
  const KymoDial9Task *x = row_at (builder, i), *y = row_at (builder, j);
  int c;

  if (x->task_id != y->task_id)
    return x->task_id < y->task_id ? -1 : 1;
  c = g_strcmp0 (runtime_name (builder->trace, x->runtime), runtime_name (builder->trace, y->runtime));
  return c != 0 ? c : (i < j ? -1 : i > j);
}

/* Rows by task id then runtime; @rank gets each made row's new number. */
static void
sort_rows (Builder *b,
           guint32 *rank)
{
  KymoDial9Tasks *self = b->self;
  guint32 n = b->rows->len;
  g_autofree guint32 *order = g_new (guint32, n + 1);

  for (guint32 i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, n, sizeof (guint32), compare_rows, b);
  self->n_rows = n;
  self->rows = g_new (KymoDial9Task, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      rank[order[i]] = i;
      self->rows[i] = *row_at (b, order[i]);
    }
}

/* Offsets of each row's slice from its count. */
static guint32 *
slices (const KymoDial9Task *rows,
        guint32              n_rows,
        gboolean             polls)
{
  guint32 *first = g_new (guint32, n_rows + 1);

  first[0] = 0;
  for (guint32 r = 0; r < n_rows; r++)
    first[r + 1] = first[r] + (guint32) (polls ? rows[r].polls : rows[r].wakes);
  return first;
}

/* One worker's polls to their rows' slices (on any thread; each lane
 * writes its own places, see place_polls()), row_of taking the rows'
 * final numbers, and the polls of uninstrumented tasks, known once the
 * spawns are read. */
static void
place_lane_part (guint    t,
                 gpointer user_data)
{
  Builder *b = user_data;
  KymoDial9Tasks *self = b->self;
  Lane *lane = &b->lanes[t];
  guint32 *row_of = lane->row_of;

  if (row_of == NULL)
    return;
  for (gsize i = 0; i < lane->n; i++)
    {
      guint32 k, row;

      if (row_of[i] == 0)
        continue;
      k = row_of[i] - 1;
      row = lane->row_of_task[k];
      row_of[i] = row + 1;
      self->polls[lane->tasks[k].polls++] = (KymoDial9PollRef) { t, (guint32) (lane->first + i) };
      if (b->thresholds != NULL && !self->rows[row].instrumented)
        {
          if (lane->pois == NULL)
            lane->pois = g_array_new (FALSE, FALSE, sizeof (KymoPoi));
          lane_poi (lane, KYMO_POI_UNINSTRUMENTED, &lane->spans[i], (guint32) (lane->first + i), 0);
        }
    }
}

static gboolean
place_lane_join (guint    t,
                 gpointer user_data)
{
  Builder *b = user_data;
  Lane *lane = &b->lanes[t];

  if (lane->pois != NULL)
    {
      for (guint i = 0; i < lane->pois->len; i++)
        g_array_index (lane->pois, KymoPoi, i).track = t;
      g_array_append_vals (b->pois, lane->pois->data, lane->pois->len);
      g_clear_pointer (&lane->pois, g_array_unref);
    }
  b->self->row_of[t] = g_steal_pointer (&lane->row_of);
  g_clear_pointer (&lane->tasks, g_free);
  return TRUE;
}

/* Each worker's polls to their rows' slices, by track then span: where
 * each lane's polls of a row start is known from the lanes' counts, so
 * the lanes are placed on the parts' threads. */
static void
place_polls (Builder       *b,
             const guint32 *rank)
{
  KymoDial9Tasks *self = b->self;
  g_autofree guint32 *at = g_memdup2 (self->poll_first, sizeof (guint32) * (self->n_rows + 1));

  for (guint t = 0; t < self->n_tracks; t++)
    {
      Lane *lane = &b->lanes[t];

      if (lane->row_of == NULL)
        continue;
      for (guint32 k = 0; k < lane->n_tasks; k++)
        {
          guint32 row = rank[lane->row_of_task[k]];
          guint64 polls = lane->tasks[k].polls;

          lane->row_of_task[k] = row;
          /* From here, where the lane's next poll of the task goes. */
          lane->tasks[k].polls = at[row];
          at[row] += (guint32) polls;
        }
    }
  kymo_parts_run (NULL, b->n_records, PARALLEL_MIN, self->n_tracks, 0, place_lane_part, place_lane_join, b);
}

/* One chunk's wakes of dense ids to their rows (on any thread): the
 * chunk's counts hold where its next wake of each id goes. */
static void
place_chunk_part (guint    k,
                  gpointer user_data)
{
  Builder *b = user_data;
  Chunk *c = &b->chunks[k];
  const WakeAt *wakes;
  guint32 *wakes_out = b->self->wakes;

  if (c->n_wakes == 0)
    return;
  wakes = b->wakes + c->first;
  for (gsize i = 0; i < c->n_wakes; i++)
    if (wakes[i].task_id < b->max_first_row)
      wakes_out[c->counts.of_id[wakes[i].task_id]++] = wakes[i].record;
}

/* The wakes to their rows' slices, in file order: for the dense ids
 * (all, in practice), where each chunk's wakes of an id start follows
 * from the chunks' counts, so the chunks are placed on the parts'
 * threads; others after, here. */
static void
place_wakes (Builder       *b,
             const guint32 *rank)
{
  KymoDial9Tasks *self = b->self;
  gsize n_dense = b->wake_counts.n_of_id;
  g_autofree guint32 *next = g_new (guint32, MAX (n_dense, 1));

  for (gsize id = 0; id < n_dense; id++)
    if (b->wake_counts.of_id[id] != 0)
      next[id] = self->wake_first[rank[first_row (b, id)]];
  for (guint k = 0; k < b->n_chunks; k++)
    {
      WakeCounts *counts = &b->chunks[k].counts;

      for (gsize id = 0; id < counts->n_of_id; id++)
        if (counts->of_id[id] != 0)
          {
            guint32 n = counts->of_id[id];

            counts->of_id[id] = next[id];
            next[id] += n;
          }
    }
  kymo_parts_run (NULL, b->n_records, PARALLEL_MIN, b->n_chunks, 0, place_chunk_part, NULL, b);

  if (b->wake_counts.of_far != NULL)
    {
      g_autofree guint32 *at = g_memdup2 (self->wake_first, sizeof (guint32) * (self->n_rows + 1));

      for (guint k = 0; k < b->n_chunks; k++)
        {
          const WakeAt *wakes = b->wakes + b->chunks[k].first;

          for (gsize i = 0; i < b->chunks[k].n_wakes; i++)
            if (wakes[i].task_id >= b->max_first_row)
              {
                guint64 id = wakes[i].task_id != FAR_ID ? wakes[i].task_id : b->records[wakes[i].record].key;

                self->wakes[at[rank[first_row (b, id)]]++] = wakes[i].record;
              }
        }
    }
}

static void
add_wake_delays (Builder *b)
{
  gsize n_flows;
  const KymoFlow *flows = kymo_trace_get_flows (b->trace, &n_flows);

  for (guint i = 0; i < b->late_flows->len; i++)
    {
      const KymoFlow *f = &flows[g_array_index (b->late_flows, guint32, i)];
      KymoTime delay = f->to_ts - f->from_ts;
      Lane *lane = lane_for (b, f->to_track);

      add_poi (b, KYMO_POI_WAKE_DELAY, f->from_ts, f->to_ts, delay, f->to_track,
               lane != NULL ? lane_span_at (lane, f->to_ts) : G_MAXUINT32, 0);
    }
}

KymoDial9Tasks *
kymo_dial9_tasks_new (KymoTrace               *trace,
                      const KymoPoiThresholds *thresholds)
{
  KymoDial9Tasks *self;
  g_autofree guint32 *rank = NULL;
  g_autoptr(KymoParts) parts = NULL;
  Builder b = { 0 };

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  self = g_new0 (KymoDial9Tasks, 1);
  self->trace = g_object_ref (trace);
  self->n_tracks = kymo_trace_get_n_tracks (trace);
  self->row_of = g_new0 (guint32 *, self->n_tracks + 1);

  b.self = self;
  b.trace = trace;
  b.thresholds = thresholds;
  b.records = kymo_records_get_all (kymo_trace_get_records (trace), &b.n_records);
  b.rows = g_array_new (FALSE, FALSE, sizeof (KymoDial9Task));
  /* Ids past this are rare enough for a hash table (and a damaged id must
   * not make a table of gigabytes). */
  b.max_first_row = (gsize) MIN ((guint64) b.n_records * 4 + 65536, G_MAXUINT32);
  b.default_runtime = only_runtime (trace);
  b.lanes = g_new0 (Lane, self->n_tracks + 1);
  b.later = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.unparks = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.pois = g_array_new (FALSE, FALSE, sizeof (KymoPoi));
  b.late_flows = g_array_new (FALSE, FALSE, sizeof (guint32));

  prepare_records (&b);
  make_chunks (&b, b.n_records >= PARALLEL_MIN ? N_CHUNKS : 1);
  parts = kymo_parts_new (NULL, b.n_records, PARALLEL_MIN, b.n_chunks + (thresholds != NULL ? 2 : 0), 0,
                          read_part, &b);
  kymo_parts_set_help (parts, TRUE);
  for (guint k = 0; k < b.n_chunks; k++)
    {
      kymo_parts_wait (parts, k);
      join_chunk (&b, &b.chunks[k]);
    }
  count_polls (&b);
  if (thresholds != NULL)
    kymo_parts_wait (parts, b.n_chunks);
  read_polls (&b);
  settle_rows (&b);
  rank = g_new (guint32, b.rows->len + 1);
  sort_rows (&b, rank);

  self->poll_first = slices (self->rows, self->n_rows, TRUE);
  self->polls = g_new (KymoDial9PollRef, MAX (self->poll_first[self->n_rows], 1));
  place_polls (&b, rank);
  self->wake_first = slices (self->rows, self->n_rows, FALSE);
  self->wakes = g_new (guint32, MAX (self->wake_first[self->n_rows], 1));
  place_wakes (&b, rank);

  if (thresholds != NULL)
    {
      add_sched_delays (&b);
      kymo_parts_wait (parts, b.n_chunks + 1);
      add_wake_delays (&b);
      self->n_pois = b.pois->len;
      self->worst = g_new (guint32, MAX (self->n_pois, 1));
      self->pois = _kymo_dial9_pois_order ((const KymoPoi *) (gpointer) b.pois->data, self->n_pois, self->worst);
    }

  for (guint t = 0; t < self->n_tracks; t++)
    {
      g_free (b.lanes[t].row_of);
      g_free (b.lanes[t].reach);
      g_free (b.lanes[t].row_of_task);
      g_free (b.lanes[t].tasks);
      g_free (b.lanes[t].slots);
    }
  g_free (b.lanes);
  g_free (b.first_row);
  g_clear_pointer (&b.far_rows, g_hash_table_unref);
  g_clear_pointer (&b.other_rows, g_hash_table_unref);
  g_free (b.is_poll);
  g_free (b.before);
  g_array_unref (b.rows);
  g_free (b.poll_tasks);
  g_free (b.wakes);
  wake_counts_clear (&b.wake_counts);
  for (guint k = 0; k < b.n_chunks; k++)
    wake_counts_clear (&b.chunks[k].counts);
  g_free (b.chunks);
  g_array_unref (b.later);
  g_array_unref (b.unparks);
  g_array_unref (b.pois);
  g_array_unref (b.late_flows);
  g_free (b.sample_first);
  g_free (b.by_track);
  return self;
}

void
kymo_dial9_tasks_free (KymoDial9Tasks *self)
{
  if (self == NULL)
    return;
  g_object_unref (self->trace);
  g_free (self->rows);
  g_free (self->polls);
  g_free (self->poll_first);
  g_free (self->wakes);
  g_free (self->wake_first);
  for (guint t = 0; t < self->n_tracks; t++)
    g_free (self->row_of[t]);
  g_free (self->row_of);
  g_free (self->pois);
  g_free (self->worst);
  g_free (self);
}

KymoTrace *
kymo_dial9_tasks_get_trace (KymoDial9Tasks *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->trace;
}

const KymoDial9Task *
kymo_dial9_tasks_get_rows (KymoDial9Tasks *self,
                           gsize          *n_rows)
{
  g_return_val_if_fail (self != NULL && n_rows != NULL, NULL);
  *n_rows = self->n_rows;
  return self->rows;
}

const char *
kymo_dial9_tasks_get_runtime (KymoDial9Tasks *self,
                              guint           row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, "");
  return runtime_name (self->trace, self->rows[row].runtime);
}

const char *
kymo_dial9_tasks_get_spawn_loc (KymoDial9Tasks *self,
                                guint           row)
{
  g_return_val_if_fail (self != NULL && row < self->n_rows, "");
  return kymo_short_path (kymo_trace_get_name (self->trace, self->rows[row].spawn_loc));
}

guint32
kymo_dial9_tasks_find_task (KymoDial9Tasks *self,
                            guint64         task_id)
{
  guint32 lo = 0, hi;

  g_return_val_if_fail (self != NULL, KYMO_DIAL9_NO_ROW);
  hi = self->n_rows;
  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (self->rows[mid].task_id < task_id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->n_rows && self->rows[lo].task_id == task_id ? lo : KYMO_DIAL9_NO_ROW;
}

gsize
kymo_dial9_tasks_get_n_polls (KymoDial9Tasks *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->poll_first[self->n_rows];
}

const KymoDial9PollRef *
kymo_dial9_tasks_get_polls_of (KymoDial9Tasks *self,
                               guint           row,
                               gsize          *n_polls)
{
  g_return_val_if_fail (self != NULL && n_polls != NULL, NULL);
  *n_polls = 0;
  if (row >= self->n_rows)
    return NULL;
  *n_polls = self->poll_first[row + 1] - self->poll_first[row];
  return *n_polls > 0 ? &self->polls[self->poll_first[row]] : NULL;
}

guint32
kymo_dial9_tasks_find_poll (KymoDial9Tasks *self,
                            guint           track,
                            guint32         span)
{
  KymoTrack *t;
  gsize n, first;

  g_return_val_if_fail (self != NULL, KYMO_DIAL9_NO_ROW);
  if (track >= self->n_tracks || self->row_of[track] == NULL)
    return KYMO_DIAL9_NO_ROW;
  t = kymo_trace_get_track (self->trace, track);
  kymo_track_get_depth_spans (t, 0, &n, &first);
  if (span < first || span - first >= n || self->row_of[track][span - first] == 0)
    return KYMO_DIAL9_NO_ROW;
  return self->row_of[track][span - first] - 1;
}

const guint32 *
kymo_dial9_tasks_get_wakes_of (KymoDial9Tasks *self,
                               guint           row,
                               gsize          *n_wakes)
{
  g_return_val_if_fail (self != NULL && n_wakes != NULL, NULL);
  *n_wakes = 0;
  if (row >= self->n_rows)
    return NULL;
  *n_wakes = self->wake_first[row + 1] - self->wake_first[row];
  return *n_wakes > 0 ? &self->wakes[self->wake_first[row]] : NULL;
}

static void
add_polls_to (KymoDial9Tasks *self,
              guint           row,
              KymoEventSet   *set)
{
  const KymoDial9PollRef *polls;
  gsize n;

  polls = kymo_dial9_tasks_get_polls_of (self, row, &n);
  for (gsize i = 0; i < n; i++)
    kymo_event_set_add_span (set, polls[i].track, polls[i].span);
}

KymoEventSet *
kymo_dial9_tasks_dup_polls_set (KymoDial9Tasks *self,
                                guint           row)
{
  KymoEventSet *set;

  g_return_val_if_fail (self != NULL, NULL);
  set = kymo_event_set_new (self->trace);
  add_polls_to (self, row, set);
  kymo_event_set_seal (set);
  return set;
}

/* A wake's instant: on the worker that ran the waking task, or on the
 * "wakes" track; found by time, then by source. */
static gboolean
find_wake_instant (KymoTrace        *trace,
                   const KymoRecord *wake,
                   guint            *track_out,
                   guint32          *index_out)
{
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      const KymoInstant *instants;
      gsize n, i;

      if (kymo_track_get_kind (track) != KYMO_TRACK_THREAD && kymo_track_get_kind (track) != KYMO_TRACK_INSTANT)
        continue;
      instants = kymo_track_get_instants (track, &n);
      for (i = kymo_track_lower_bound_instant (track, wake->ts); i < n && instants[i].ts == wake->ts; i++)
        if (instants[i].source == wake->source)
          {
            *track_out = t;
            *index_out = (guint32) i;
            return TRUE;
          }
    }
  return FALSE;
}

KymoEventSet *
kymo_dial9_tasks_dup_task_set (KymoDial9Tasks *self,
                               guint           row)
{
  KymoEventSet *set;
  const KymoRecord *records;
  const guint32 *wakes;
  gsize n, n_records;

  g_return_val_if_fail (self != NULL, NULL);
  set = kymo_event_set_new (self->trace);
  add_polls_to (self, row, set);
  records = kymo_records_get_all (kymo_trace_get_records (self->trace), &n_records);
  wakes = kymo_dial9_tasks_get_wakes_of (self, row, &n);
  for (gsize i = 0; i < n; i++)
    {
      guint track;
      guint32 index;

      if (find_wake_instant (self->trace, &records[wakes[i]], &track, &index))
        kymo_event_set_add_instant (set, track, index);
    }
  kymo_event_set_seal (set);
  return set;
}

gsize
kymo_dial9_tasks_get_n_pois (KymoDial9Tasks *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n_pois;
}

const KymoPoi *
kymo_dial9_tasks_get_poi (KymoDial9Tasks *self,
                          KymoPoiOrder    order,
                          gsize           position)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (position < self->n_pois, NULL);
  return &self->pois[order == KYMO_POI_WORST_FIRST ? self->worst[position] : position];
}
