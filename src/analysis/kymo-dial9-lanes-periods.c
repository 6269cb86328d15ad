/* kymo-dial9-lanes-periods.c: the workers' active periods from their CPU readings
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-analysis"

#include "config.h"

#include <string.h>

#include "kymo-dial9-lanes-private.h"
#include "kymo-parts.h"
#include "kymo-stacks.h"

void
_kymo_cpu_readings_init (KymoCpuReadings *readings,
                         KymoTrace       *trace,
                         gsize            n_records)
{
  readings->room = MAX (n_records / 8, 1024);
  readings->n_tracks = kymo_trace_get_n_tracks (trace);
  readings->kind_cpu = kymo_trace_lookup_name (trace, "cpu");
  readings->name_unpark = kymo_trace_lookup_name (trace, "unpark");
  readings->of_track = g_new0 (KymoCpuReading *, readings->n_tracks + 1);
  readings->unpark = g_new0 (guint8 *, readings->n_tracks + 1);
  readings->len = g_new0 (gsize, readings->n_tracks + 1);
  readings->cap = g_new0 (gsize, readings->n_tracks + 1);
  readings->breaks = g_new0 (GArray *, readings->n_tracks + 1);
}

void
_kymo_cpu_readings_clear (KymoCpuReadings *readings)
{
  for (guint t = 0; readings->of_track != NULL && t < readings->n_tracks; t++)
    {
      g_free (readings->of_track[t]);
      g_free (readings->unpark[t]);
      g_clear_pointer (&readings->breaks[t], g_array_unref);
    }
  g_clear_pointer (&readings->unpark, g_free);
  g_clear_pointer (&readings->breaks, g_free);
  g_clear_pointer (&readings->of_track, g_free);
  g_clear_pointer (&readings->len, g_free);
  g_clear_pointer (&readings->cap, g_free);
}

void
_kymo_cpu_readings_grow (KymoCpuReadings *readings,
                         guint            track)
{
  /* Room enough from the start for most: growing copies. */
  readings->cap[track] = MAX (readings->cap[track] * 2, readings->room);
  readings->of_track[track] = g_renew (KymoCpuReading, readings->of_track[track], readings->cap[track]);
  readings->unpark[track] = g_renew (guint8, readings->unpark[track], readings->cap[track]);
}

void
_kymo_cpu_readings_note_break (KymoCpuReadings *readings,
                               guint            track)
{
  gsize at = readings->len[track];

  if (readings->breaks[track] == NULL)
    readings->breaks[track] = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_array_append_val (readings->breaks[track], at);
}

/* A run of readings in time order. */
typedef struct {
  const KymoCpuReading *at;
  const KymoCpuReading *end;
  const guint8         *unpark;   /* at's */
} Run;

/* An unpark followed by a park is an active period. Anything else (a park
 * first, two unparks after a lost event, a clock going back because the
 * worker moved to another thread) gives no period rather than a wrong one. */
static inline void
pair_two (const KymoCpuReading *a,
          gboolean              a_unpark,
          const KymoCpuReading *b,
          gboolean              b_unpark,
          GArray               *periods)
{
  KymoCpuPeriod p;

  if (!a_unpark || b_unpark || b->ts <= a->ts || b->clock < a->clock)
    return;
  p.start = a->ts;
  p.end = b->ts;
  p.cpu = (KymoTime) MIN (b->clock - a->clock, (guint64) (p.end - p.start));
  g_array_append_val (periods, p);
}

static void
pair_readings (const KymoCpuReading *r,
               const guint8         *unpark,
               gsize                 n,
               GArray               *periods)
{
  for (gsize i = 0; i + 1 < n; i++)
    pair_two (&r[i], unpark[i], &r[i + 1], unpark[i + 1], periods);
}

/* The next reading of each run, as the tree of merge_runs() compares
 * them: its time, and whether the run is done (a done run comes last). */
typedef struct {
  KymoTime ts;
  guint    done;
} Head;

/* Whether run @x's next reading comes before run @y's: by time, then by
 * run, since the runs follow each other in record order. Computed without
 * a branch: which run wins is unpredictable. */
static inline gboolean
head_before (const Head *heads,
             guint       x,
             guint       y)
{
  guint xd = heads[x].done, yd = heads[y].done;
  KymoTime tx = heads[x].ts, ty = heads[y].ts;

  return (xd < yd) | ((xd == yd) & ((tx < ty) | ((tx == ty) & (x < y))));
}

/* Pairs the readings of @n_runs runs (@n in all) in time order, stably,
 * in one pass with nothing copied: a tree of losers over the runs' next
 * readings (kept beside it, not behind the runs' pointers) chooses each
 * in log2 (runs) steps. */
static void
merge_and_pair (Run    *runs,
                guint   n_runs,
                gsize   n,
                GArray *periods)
{
  guint k = 1;
  g_autofree guint *tree = NULL;
  g_autofree guint *winners = NULL;
  g_autofree Head *heads = NULL;
  const KymoCpuReading *prev = NULL;
  gboolean prev_unpark = FALSE;
  guint w;

  while (k < n_runs)
    k *= 2;
  tree = g_new0 (guint, k);
  winners = g_new (guint, 2 * k);
  heads = g_new (Head, k + 1);
  for (guint i = 0; i <= k; i++)
    heads[i] = i < n_runs && runs[i].at < runs[i].end ? (Head) { runs[i].at->ts, 0 } : (Head) { 0, 1 };
  /* The leaves past the runs are run @n_runs, done from the start. */
  for (guint i = 0; i < k; i++)
    winners[k + i] = MIN (i, n_runs);
  for (guint node = k - 1; node > 0; node--)
    {
      guint x = winners[2 * node], y = winners[2 * node + 1];
      gboolean xw = head_before (heads, x, y);

      winners[node] = xw ? x : y;
      tree[node] = xw ? y : x;
    }
  w = winners[1];
  for (gsize o = 0; o < n; o++)
    {
      const KymoCpuReading *r = runs[w].at++;
      gboolean unpark = *runs[w].unpark++;

      /* Each run is read in order, but the runs are more than the
       * streams the hardware follows: asked for ahead, by hand. */
      __builtin_prefetch (runs[w].at + 16);
      if (prev != NULL)
        pair_two (prev, prev_unpark, r, unpark, periods);
      prev = r;
      prev_unpark = unpark;
      if (runs[w].at < runs[w].end)
        heads[w].ts = runs[w].at->ts;
      else
        heads[w].done = 1;
      for (guint node = (k + w) >> 1; node > 0; node >>= 1)
        {
          guint l = tree[node];
          gboolean lw = head_before (heads, l, w);

          tree[node] = lw ? w : l;
          w = lw ? l : w;
        }
    }
}

typedef struct {
  KymoDial9Lanes    *self;
  KymoCpuReadings   *parts;
  guint              n_parts;
  KymoTrace         *trace;
  KymoPartStartFunc  meanwhile;
  gpointer           meanwhile_data;
} Build;

/* One track's periods and their sums (on any thread: only the track's
 * arrays are written). */
static void
build_track (guint    t,
             gpointer user_data)
{
  Build *b = user_data;
  g_autoptr(GArray) runs = NULL;
  const KymoCpuPeriod *p;
  GArray *periods, *sums;
  KymoCpuSums sum = { 0, 0 };
  gsize n = 0;
  gboolean sorted = TRUE;
  KymoTime last = G_MININT64;

  for (guint k = 0; k < b->n_parts; k++)
    n += b->parts[k].len[t];
  if (n == 0)
    return;
  /* A worker writes its own events in order: the readings are merged
   * only when segments overlapping in time left runs of them out of
   * order. A run ends where the time goes back, and at each part's end. */
  runs = g_array_new (FALSE, FALSE, sizeof (Run));
  for (guint k = 0; k < b->n_parts; k++)
    {
      const KymoCpuReading *r = b->parts[k].of_track[t];
      const guint8 *unpark = b->parts[k].unpark[t];
      const GArray *breaks = b->parts[k].breaks[t];
      gsize len = b->parts[k].len[t], from = 0;
      Run run;

      if (len == 0)
        continue;
      sorted &= r[0].ts >= last;
      for (guint j = 0; breaks != NULL && j < breaks->len; j++)
        {
          gsize i = g_array_index (breaks, gsize, j);

          run = (Run) { r + from, r + i, unpark + from };
          g_array_append_val (runs, run);
          from = i;
          sorted = FALSE;
        }
      run = (Run) { r + from, r + len, unpark + from };
      g_array_append_val (runs, run);
      last = r[len - 1].ts;
    }
  periods = b->self->periods[t] = g_array_sized_new (FALSE, FALSE, sizeof (KymoCpuPeriod), n / 2 + 1);
  if (sorted)
    {
      const KymoCpuReading *prev = NULL;
      gboolean prev_unpark = FALSE;

      /* In order already: each run's pairs, and the pair where one run
       * meets the next. */
      for (guint i = 0; i < runs->len; i++)
        {
          const Run *run = &g_array_index (runs, Run, i);
          gsize len = run->end - run->at;

          if (prev != NULL)
            pair_two (prev, prev_unpark, run->at, run->unpark[0], periods);
          pair_readings (run->at, run->unpark, len, periods);
          prev = run->end - 1;
          prev_unpark = run->unpark[len - 1];
        }
    }
  else
    merge_and_pair ((Run *) (gpointer) runs->data, runs->len, n, periods);
  for (guint k = 0; k < b->n_parts; k++)
    {
      g_clear_pointer (&b->parts[k].of_track[t], g_free);
      g_clear_pointer (&b->parts[k].unpark[t], g_free);
    }

  p = (const KymoCpuPeriod *) (gpointer) periods->data;
  sums = b->self->sums[t] = g_array_sized_new (FALSE, FALSE, sizeof (KymoCpuSums), periods->len + 1);
  g_array_set_size (sums, periods->len + 1);
  for (guint i = 0; i < periods->len; i++)
    {
      g_array_index (sums, KymoCpuSums, i) = sum;
      sum.cpu += p[i].cpu;
      sum.active += p[i].end - p[i].start;
    }
  g_array_index (sums, KymoCpuSums, periods->len) = sum;
}

/* The times of each track's CPU-profile samples (on any thread: only the
 * samples' arrays are written). */
static void
collect_samples (Build *b)
{
  KymoDial9Lanes *self = b->self;
  guint32 kind_cpu = kymo_trace_lookup_name (b->trace, "cpu");
  const KymoStackSample *samples;
  gsize n;

  samples = kymo_stacks_get_samples (kymo_trace_get_stacks (b->trace), &n);
  for (gsize i = 0; kind_cpu != G_MAXUINT32 && i < n; i++)
    if (samples[i].kind == kind_cpu && samples[i].track < self->n_tracks)
      {
        if (self->samples[samples[i].track] == NULL)
          self->samples[samples[i].track] = g_array_new (FALSE, FALSE, sizeof (KymoTime));
        g_array_append_val (self->samples[samples[i].track], samples[i].ts);
      }
}

static void
build_part (guint    index,
            gpointer user_data)
{
  Build *b = user_data;

  if (index < b->self->n_tracks)
    build_track (index, b);
  else
    collect_samples (b);
}

static void
run_meanwhile (gpointer user_data)
{
  Build *b = user_data;

  if (b->meanwhile != NULL)
    b->meanwhile (b->meanwhile_data);
}

/* Below this many readings, one thread sorts them sooner than two start. */
#define PARALLEL_MIN 100000

KymoDial9Lanes *
_kymo_dial9_lanes_new_from_readings (KymoTrace         *trace,
                                     KymoCpuReadings   *parts,
                                     guint              n_parts,
                                     KymoPartStartFunc  meanwhile,
                                     gpointer           meanwhile_data)
{
  KymoDial9Lanes *self = g_atomic_rc_box_new0 (KymoDial9Lanes);
  Build b = { self, parts, n_parts, trace, meanwhile, meanwhile_data };
  gsize n = 0;

  self->n_tracks = kymo_trace_get_n_tracks (trace);
  self->periods = g_new0 (GArray *, MAX (self->n_tracks, 1));
  self->samples = g_new0 (GArray *, MAX (self->n_tracks, 1));
  self->sums = g_new0 (GArray *, MAX (self->n_tracks, 1));

  for (guint k = 0; k < n_parts; k++)
    for (guint t = 0; t < self->n_tracks; t++)
      n += parts[k].len[t];
  /* The tracks' readings, and the CPU samples as one more part. */
  kymo_parts_run_helped (NULL, n, PARALLEL_MIN, self->n_tracks + 1, build_part, NULL, run_meanwhile, &b);
  for (guint t = 0; t < self->n_tracks; t++)
    self->has_cpu |= self->periods[t] != NULL && self->periods[t]->len > 0;
  return self;
}

typedef struct {
  const KymoRecord *records;
  gsize             n_records;
  KymoCpuReadings  *parts;
  guint             n_parts;
} Scan;

static void
scan_part (guint    k,
           gpointer user_data)
{
  Scan *s = user_data;
  KymoCpuReadings *readings = &s->parts[k];
  gsize end = k + 1 == s->n_parts ? s->n_records : s->n_records / s->n_parts * (k + 1);

  for (gsize i = s->n_records / s->n_parts * k; i < end; i++)
    if (s->records[i].kind == readings->kind_cpu)
      _kymo_cpu_readings_add (readings, &s->records[i]);
}

/* The records are read in parts when they are many. */
#define SCAN_PARALLEL_MIN 1000000
#define SCAN_PARTS        8

KymoDial9Lanes *
kymo_dial9_lanes_new (KymoTrace *trace)
{
  KymoDial9Lanes *self;
  Scan s = { 0 };

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  s.records = kymo_records_get_all (kymo_trace_get_records (trace), &s.n_records);
  s.n_parts = s.n_records >= SCAN_PARALLEL_MIN ? SCAN_PARTS : 1;
  s.parts = g_new0 (KymoCpuReadings, s.n_parts);
  for (guint k = 0; k < s.n_parts; k++)
    _kymo_cpu_readings_init (&s.parts[k], trace, s.n_records / s.n_parts);
  if (s.parts[0].kind_cpu != G_MAXUINT32)
    kymo_parts_run (NULL, s.n_records, SCAN_PARALLEL_MIN, s.n_parts, 0, scan_part, NULL, &s);
  self = _kymo_dial9_lanes_new_from_readings (trace, s.parts, s.n_parts, NULL, NULL);
  for (guint k = 0; k < s.n_parts; k++)
    _kymo_cpu_readings_clear (&s.parts[k]);
  g_free (s.parts);
  return self;
}
