/* kymo-dial9-tasks-polls.c: the workers' polls lane by lane, where they go, and the points they make
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-tasks"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kymo-dial9-tasks-private.h"
#include "kymo-dial9-poi-private.h"
#include "kymo-dial9-sort-private.h"

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

/* lane_span_at() from @i, the first span starting after @ts: the reach
 * of the spans before it must be known. The walk back stops where no span
 * before reaches @ts: on a worker, at once (its polls and parks follow
 * each other). */
static guint32
lane_span_back (const Lane *lane,
                gsize       i,
                KymoTime    ts)
{
  const KymoSpan *spans = lane->spans;
  guint32 best = G_MAXUINT32;

  for (; i > 0 && lane->reach[(i - 1) >> REACH_SHIFT] >= ts; i--)
    if (spans[i - 1].end >= ts &&
        (best == G_MAXUINT32 || spans[i - 1].end - spans[i - 1].start <= spans[best].end - spans[best].start))
      best = (guint32) (i - 1);
  return best == G_MAXUINT32 ? G_MAXUINT32 : (guint32) (lane->first + best);
}

/* The span of @lane holding @ts (inclusive at both ends), the shortest
 * when several do (the first on a tie), as kymo_track_find_span_at() says;
 * G_MAXUINT32 for none. */
static guint32
lane_span_at (Lane     *lane,
              KymoTime  ts)
{
  gsize i = ts < G_MAXINT64 ? lane_lower_bound (lane, ts + 1) : lane->n;

  lane_ensure_reach (lane);
  lane->at = i;
  return lane_span_back (lane, i, ts);
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

/* Ids below this are looked up in a table: tasks are numbered from 1. */
#define DIRECT_IDS (1 << 20)

/* The position of task @id in @lane's tasks, added when new. */
static guint32
lane_task_hashed (Lane    *lane,
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
      return lane_task_hashed (lane, id);
    }
  lane->slots[h & lane->mask] = lane->n_tasks + 1;
  lane->tasks[lane->n_tasks] = (LaneTask) { id, 0, 0, 0, 0, 0, FALSE };
  return lane->n_tasks++;
}

static inline guint32
lane_task (Lane    *lane,
           guint64  id)
{
  guint32 at;

  if (G_LIKELY (id < lane->n_of_id) && lane->of_id[id] != 0)
    return lane->of_id[id] - 1;
  at = lane_task_hashed (lane, id);
  if (id < DIRECT_IDS)
    {
      if (id >= lane->n_of_id)
        {
          gsize n = MIN (MAX (id + 1, lane->n_of_id * 2), DIRECT_IDS);

          lane->of_id = g_renew (guint32, lane->of_id, n);
          memset (lane->of_id + lane->n_of_id, 0, (n - lane->n_of_id) * sizeof (guint32));
          lane->n_of_id = n;
        }
      lane->of_id[id] = at + 1;
    }
  return at;
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

#define LOOKUP_BLOCK 32 /* spans, a power of two */

static gboolean
is_plain_id (Builder *b,
             guint64  id)
{
  gsize lo = 0, hi = b->n_plain_ids;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (b->plain_ids[mid] < id)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < b->n_plain_ids && b->plain_ids[lo] == id;
}

/* The late flows into one lane's polls, in time order, met by its pass
 * over its spans: where each ends is looked for back from the first span
 * that starts after it, near in memory, rather than searched for in the
 * whole lane (a search is a dozen cache misses, on a lane of millions). */
typedef struct {
  const KymoFlow *flows;
  guint32         at;
  guint32         end;
  KymoTime        ts;            /* of the flow at @at; G_MAXINT64 past the end */
} LateCursor;

static inline void
late_cursor_load (Builder    *b,
                  LateCursor *c)
{
  c->ts = c->at < c->end
          ? c->flows[g_array_index (b->late_flows, guint32, b->late_order[c->at])].to_ts
          : G_MAXINT64;
}

/* Each late flow ending before @start (spans[@i]'s), with the reach known
 * up to the span before @i; all that are left when @i is the lane's end. */
static void
late_cursor_meet (Builder    *b,
                  Lane       *lane,
                  LateCursor *c,
                  gsize       i,
                  KymoTime    running)
{
  /* The block of the span before @i may not be complete: its reach so
   * far is what lane_span_back() reads there (the block's own is written
   * when it is). */
  if (i > 0 && i < lane->n)
    lane->reach[(i - 1) >> REACH_SHIFT] = running;
  while (c->at < c->end && (i == lane->n || c->ts < lane->spans[i].start))
    {
      b->late_spans[b->late_order[c->at]] = lane_span_back (lane, i, c->ts);
      c->at++;
      late_cursor_load (b, c);
    }
}

/* The late flows by the track they end in, each track's by time. */
static void
late_flows_by_track (Builder *b)
{
  guint n_tracks = b->self->n_tracks;
  guint32 n = b->late_flows->len;
  gsize n_flows;
  const KymoFlow *flows = kymo_trace_get_flows (b->trace, &n_flows);
  g_autofree KymoDial9SortKey *keys = g_new (KymoDial9SortKey, MAX (n, 1));
  g_autofree KymoDial9SortKey *scratch = g_new (KymoDial9SortKey, MAX (n, 1));
  g_autofree guint32 *at = NULL;
  const KymoDial9SortKey *sorted;

  b->late_first = g_new0 (guint32, n_tracks + 2);
  b->late_order = g_new (guint32, MAX (n, 1));
  for (guint32 i = 0; i < n; i++)
    {
      const KymoFlow *f = &flows[g_array_index (b->late_flows, guint32, i)];

      /* Signed to unsigned order. */
      keys[i] = (KymoDial9SortKey) { (guint64) f->to_ts ^ G_GUINT64_CONSTANT (0x8000000000000000), i, 0 };
      b->late_first[f->to_track + 1]++;
    }
  for (guint t = 0; t < n_tracks; t++)
    b->late_first[t + 1] += b->late_first[t];
  at = g_memdup2 (b->late_first, sizeof (guint32) * (n_tracks + 1));
  sorted = _kymo_dial9_sort_indexed (keys, scratch, n);
  for (guint32 k = 0; k < n; k++)
    {
      guint32 i = sorted[k].index;

      b->late_order[at[flows[g_array_index (b->late_flows, guint32, i)].to_track]++] = i;
    }
}

/* A cursor over every track's samples (in time order) for one track's
 * (see _kymo_dial9_tasks_scan_samples()): each of the track's samples
 * before @at is before @from, the latest start met. */
typedef struct {
  const KymoStackSample *samples;
  gsize                  n;
  gsize                  at;
  KymoTime               from;
  guint                  track;
} SampleScan;

/* The track's samples in @span, from the latest start met on. Most polls
 * have none: the next sample comes after them, which one test tells,
 * where stepping to a poll's start over the other tracks' samples would
 * take an unforeseeable number of steps each. */
static inline guint32
scan_samples_in (SampleScan     *s,
                 const KymoSpan *span)
{
  const KymoStackSample *samples = s->samples;
  guint32 count = 0;

  s->from = MAX (s->from, span->start);
  if (s->at >= s->n || samples[s->at].ts > span->end)
    return 0;
  while (s->at < s->n && (samples[s->at].ts < s->from || samples[s->at].track != s->track))
    s->at++;
  for (gsize j = s->at; j < s->n && samples[j].ts <= span->end; j++)
    count += samples[j].track == s->track;
  return count;
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
  gboolean scan = pois && b->sample_first == NULL;
  const KymoTime *sample_ts = b->sample_ts;
  Lane *lane = b->lanes[t].polled ? lane_for (b, t) : NULL;
  guint32 k = pois && !scan ? b->sample_first[t] : 0, k_end = pois && !scan ? b->sample_first[t + 1] : 0;
  KymoStacks *stacks = kymo_trace_get_stacks (b->trace);
  SampleScan scan_at = { NULL, 0, 0, 0, t };
  KymoTime running = G_MININT64;
  const guint32 *task_ids[LOOKUP_BLOCK];
  /* Kept here, not in the lane, while the loop runs: stored through the
   * lane, each poll's bookkeeping went back to memory (about 10% of the
   * pass). */
  guint32 *plain = NULL;
  gsize n_plain = 0, plain_room = 0, n_flows;
  LateCursor late = { NULL, 0, 0, G_MAXINT64 };

  if (lane == NULL)
    return;
  lane->row_of = g_new0 (guint32, lane->n);
  if (scan)
    {
      scan_at.samples = kymo_stacks_get_samples (stacks, &scan_at.n);
      scan_at.at = kymo_stacks_lower_bound (stacks, lane->spans[0].start);
      scan_at.from = lane->spans[0].start;
    }
  lane->mask = 63;
  lane->slots = g_new0 (guint32, lane->mask + 1);
  lane->tasks = g_new (LaneTask, (lane->mask + 1) / 2);
  /* The points' spans are looked up on workers: their reach is taken on
   * the way. */
  if (pois)
    {
      lane->reach = g_new (KymoTime, (lane->n >> REACH_SHIFT) + 1);
      lane->pois = g_array_new (FALSE, FALSE, sizeof (KymoPoi));
      late = (LateCursor) { kymo_trace_get_flows (b->trace, &n_flows), b->late_first[t], b->late_first[t + 1], 0 };
      late_cursor_load (b, &late);
    }
  for (gsize i = 0; i < lane->n; i++)
    {
      const KymoSpan *span = &lane->spans[i];
      const guint32 *task_id;
      LaneTask *task;
      KymoTime dur;
      guint32 at, name, n_tasks, count = 0;

      /* Spans in time order meet their poll records all over the file:
       * a block's lookups are made first, together, so that their cache
       * misses overlap rather than come one after another, and the next
       * block's words are asked for meanwhile. */
      if ((i & (LOOKUP_BLOCK - 1)) == 0)
        {
          gsize end = MIN (i + LOOKUP_BLOCK, lane->n);

          for (gsize j = end; j < MIN (end + LOOKUP_BLOCK, lane->n); j++)
            poll_word_prefetch (b, &lane->spans[j]);
          for (gsize j = i; j < end; j++)
            {
              const guint32 *id = poll_of (b, &lane->spans[j]);

              if (id != NULL)
                __builtin_prefetch (id);
              task_ids[j - i] = id;
            }
        }
      task_id = task_ids[i & (LOOKUP_BLOCK - 1)];
      if (G_UNLIKELY (late.ts < span->start))
        late_cursor_meet (b, lane, &late, i, running);
      if (pois)
        lane_reach_step (lane, i, &running);
      /* A source is one event: the poll record's track is this one. */
      if (task_id == NULL)
        continue;
      n_tasks = lane->n_tasks;
      at = lane_task (lane, G_LIKELY (*task_id != FAR_ID) ? *task_id : far_poll_task (b, span));
      lane->row_of[i] = at + 1;
      task = &lane->tasks[at];
      if (G_UNLIKELY (lane->n_tasks != n_tasks) && pois)
        task->maybe_plain = is_plain_id (b, task->id);
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
      if (G_UNLIKELY (task->maybe_plain))
        {
          if (n_plain == plain_room)
            {
              plain_room = MAX (plain_room * 2, 1024);
              plain = g_renew (guint32, plain, plain_room);
            }
          plain[n_plain++] = (guint32) i;
        }
      if (dur > b->thresholds->long_poll_ns)
        lane_poi (lane, KYMO_POI_LONG_POLL, span, (guint32) (lane->first + i), 0);
      if (scan)
        count = scan_samples_in (&scan_at, span);
      else
        {
          while (k < k_end && sample_ts[k] < span->start)
            k++;
          for (guint32 j = k; j < k_end && sample_ts[j] <= span->end; j++)
            count++;
        }
      if (count > 0)
        lane_poi (lane, KYMO_POI_CPU_SAMPLES, span, (guint32) (lane->first + i), count);
    }
  lane->plain = plain;
  lane->n_plain = n_plain;
  if (pois)
    late_cursor_meet (b, lane, &late, lane->n, running);
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
      guint32 row = _kymo_dial9_tasks_row_for (b, lt->id, lane->runtime);
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
  g_clear_pointer (&lane->of_id, g_free);
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

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

/* Each polled worker's spans: the rows and their counts, and the points of
 * interest polls make by themselves (and, for the lanes' passes to note
 * their polls, the tasks a spawn may say are not instrumented). */
void
_kymo_dial9_tasks_read_polls (Builder *b)
{
  if (b->thresholds != NULL)
    {
      guint32 kind_spawn = kymo_trace_lookup_name (b->trace, "spawn");

      b->plain_ids = g_new (guint64, b->later->len + 1);
      for (guint i = 0; i < b->later->len; i++)
        {
          const KymoRecord *r = &b->records[g_array_index (b->later, guint32, i)];

          if (r->kind == kind_spawn && r->value == 0)
            b->plain_ids[b->n_plain_ids++] = r->key;
        }
      qsort (b->plain_ids, b->n_plain_ids, sizeof (guint64), compare_ids);
      /* PENDING: no lane's pass looked it up. */
      b->late_spans = g_new (guint32, b->late_flows->len + 1);
      memset (b->late_spans, 0xff, sizeof (guint32) * (b->late_flows->len + 1));
      late_flows_by_track (b);
    }
  kymo_parts_run_helped (NULL, b->n_records, PARALLEL_MIN, b->self->n_tracks, read_lane_part, join_lane_part, NULL, b);
}

/* One worker's polls to their rows' slices (on any thread; each lane
 * writes its own places, see _kymo_dial9_tasks_place_polls()), row_of
 * taking the rows' final numbers. */
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
      guint32 k;

      if (row_of[i] == 0)
        continue;
      k = row_of[i] - 1;
      row_of[i] = lane->row_of_task[k] + 1;
      self->polls[lane->tasks[k].polls++] = (KymoDial9PollRef) { t, (guint32) (lane->first + i) };
    }
}

static gboolean
place_lane_join (guint    t,
                 gpointer user_data)
{
  Builder *b = user_data;
  Lane *lane = &b->lanes[t];

  b->self->row_of[t] = g_steal_pointer (&lane->row_of);
  g_clear_pointer (&lane->tasks, g_free);
  return TRUE;
}

/* Each worker's polls to their rows' slices, by track then span: where
 * each lane's polls of a row start is known from the lanes' counts, so
 * the lanes are placed on the parts' threads. */
void
_kymo_dial9_tasks_place_polls (Builder       *b,
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
  kymo_parts_run_helped (NULL, b->n_records, PARALLEL_MIN, self->n_tracks, place_lane_part, place_lane_join, NULL, b);
}

/* Which of @lane's tasks their rows say are not instrumented. */
static guint8 *
lane_plain_tasks (Builder       *b,
                  Lane          *lane,
                  const guint32 *rank)
{
  guint8 *plain = g_new (guint8, lane->n_tasks + 1);

  /* By row_of's values: position + 1, 0 for a span no task polls. */
  plain[0] = FALSE;
  for (guint32 k = 0; k < lane->n_tasks; k++)
    plain[k + 1] = !b->self->rows[rank[lane->row_of_task[k]]].instrumented;
  return plain;
}

typedef struct {
  Builder       *b;
  const guint32 *rank;
} Uninstrumented;

/* One lane's polls of uninstrumented tasks, in span order: of those the
 * lanes' pass noted, the ones whose row says so, kept in place (on any
 * thread: each lane writes its own). */
static void
uninstrumented_lane (guint    t,
                     gpointer user_data)
{
  Uninstrumented *u = user_data;
  Lane *lane = &u->b->lanes[t];
  g_autofree guint8 *plain = NULL;
  const guint32 *row_of = lane->row_of;
  guint32 n = 0;

  if (row_of == NULL || lane->n_plain == 0)
    return;
  /* By row_of's values: position in the lane's tasks + 1. */
  plain = lane_plain_tasks (u->b, lane, u->rank);
  for (gsize j = 0; j < lane->n_plain; j++)
    if (plain[row_of[lane->plain[j]]])
      lane->plain[n++] = lane->plain[j];
  u->b->plain_lanes[t] = (KymoDial9PoiLane) { lane->spans, lane->first, t, lane->plain, n };
}

/* The polls of uninstrumented tasks are points of interest, after those
 * the polls made by themselves, track by track in span order. They may
 * be most of the points: kept as spans, made when put in order (see
 * _kymo_dial9_pois_order()). */
void
_kymo_dial9_tasks_add_uninstrumented (Builder       *b,
                                      const guint32 *rank)
{
  Uninstrumented u = { b, rank };
  gsize n_plain = 0;

  for (guint t = 0; t < b->self->n_tracks; t++)
    n_plain += b->lanes[t].n_plain;
  b->lanes_at = b->pois->len;
  b->plain_lanes = g_new0 (KymoDial9PoiLane, b->self->n_tracks + 1);
  kymo_parts_run (NULL, n_plain, b->pois_parallel_min, b->self->n_tracks, 0, uninstrumented_lane, NULL, &u);
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
      guint32 span = b->late_spans[i];

      /* Into a track without polls: looked up here. */
      if (span == PENDING)
        {
          Lane *lane = lane_for (b, f->to_track);
          span = lane != NULL ? lane_span_at (lane, f->to_ts) : G_MAXUINT32;
        }
      add_poi (b, KYMO_POI_WAKE_DELAY, f->from_ts, f->to_ts, delay, f->to_track, span, 0);
    }
}

/* The points the records and flows make (kernel scheduling and wake
 * delays) join those of the polls, and all are put in order. */
void
_kymo_dial9_tasks_finish_pois (Builder *b)
{
  KymoDial9Tasks *self = b->self;

  add_sched_delays (b);
  add_wake_delays (b);
  self->n_found = b->pois->len;
  self->timed = _kymo_dial9_pois_order ((const KymoPoi *) (gpointer) b->pois->data, self->n_found, b->lanes_at,
                                        b->plain_lanes, self->n_tracks, b->pois_parallel_min, &self->n_pois,
                                        &self->worst);
  self->found = (KymoPoi *) (gpointer) g_array_free (g_steal_pointer (&b->pois), FALSE);
  /* The points' own indexes: the lanes' lists stay with them. */
  self->plain_lanes = g_steal_pointer (&b->plain_lanes);
  for (guint t = 0; t < self->n_tracks; t++)
    if (self->plain_lanes[t].index != NULL)
      b->lanes[t].plain = NULL;
  /* Memory only touched where points are asked for. */
  self->pois = g_new (KymoPoi, MAX (self->n_pois, 1));
  self->made = g_new0 (gint, self->n_pois / POI_BLOCK + 1);
}

/* One chunk's wakes of dense ids to their rows (on any thread): the
 * chunk's counts hold where its next wake of each id goes. The table
 * only counted them: their records are read again here, when a
 * selection first wants them. */
static void
place_chunk_part (guint    k,
                  gpointer user_data)
{
  Builder *b = user_data;
  Chunk *c = &b->chunks[k];
  const KymoRecord *records = b->records;
  guint32 kind_wake = b->kind_wake;
  guint32 *wakes_out = b->self->wakes;

  if (c->n_wakes == 0)
    return;
  for (gsize i = c->first; i < c->end; i++)
    {
      /* As in the pass that counted them: a page ahead. */
      if (G_LIKELY (i + PREFETCH_AHEAD < c->end))
        __builtin_prefetch (&records[i + PREFETCH_AHEAD]);
      if (records[i].kind == kind_wake && records[i].key < b->max_first_row)
        wakes_out[c->counts.of_id[records[i].key]++] = (guint32) i;
    }
}

/* The wakes to their rows' slices, in file order: for the dense ids
 * (all, in practice), where each chunk's wakes of an id start follows
 * from the chunks' counts, so the chunks are placed on the parts'
 * threads; others after, here. */
void
_kymo_dial9_tasks_place_wakes (Builder       *b,
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

      for (gsize i = 0; i < b->n_records; i++)
        if (b->records[i].kind == b->kind_wake && b->records[i].key >= b->max_first_row)
          self->wakes[at[rank[first_row (b, b->records[i].key)]]++] = (guint32) i;
    }
}
