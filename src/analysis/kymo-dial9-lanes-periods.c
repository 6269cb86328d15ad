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
                         KymoTrace       *trace)
{
  readings->n_tracks = kymo_trace_get_n_tracks (trace);
  readings->kind_cpu = kymo_trace_lookup_name (trace, "cpu");
  readings->name_unpark = kymo_trace_lookup_name (trace, "unpark");
  readings->of_track = g_new0 (KymoCpuReading *, readings->n_tracks + 1);
  readings->len = g_new0 (gsize, readings->n_tracks + 1);
  readings->cap = g_new0 (gsize, readings->n_tracks + 1);
}

void
_kymo_cpu_readings_clear (KymoCpuReadings *readings)
{
  for (guint t = 0; readings->of_track != NULL && t < readings->n_tracks; t++)
    g_free (readings->of_track[t]);
  g_clear_pointer (&readings->of_track, g_free);
  g_clear_pointer (&readings->len, g_free);
  g_clear_pointer (&readings->cap, g_free);
}

void
_kymo_cpu_readings_grow (KymoCpuReadings *readings,
                         guint            track)
{
  /* Large blocks are remapped, not copied, as they double. */
  readings->cap[track] = MAX (readings->cap[track] * 2, 1024);
  readings->of_track[track] = g_renew (KymoCpuReading, readings->of_track[track], readings->cap[track]);
}

/* Merges the sorted runs @a[@from, @mid) and @a[@mid, @to) into @out,
 * stably: on equal times the first run's reading comes first. The runs
 * interleave unpredictably, so the reading to copy is chosen without a
 * branch. */
static void
merge_two (const KymoCpuReading *a,
           KymoCpuReading       *out,
           gsize                 from,
           gsize                 mid,
           gsize                 to)
{
  const KymoCpuReading *x = a + from, *x_end = a + mid, *y = a + mid, *y_end = a + to;

  out += from;
  while (x < x_end && y < y_end)
    {
      gboolean take_y = y->ts < x->ts;

      *out++ = *(take_y ? y : x);
      y += take_y;
      x += !take_y;
    }
  memcpy (out, x, (gsize) (x_end - x) * sizeof (KymoCpuReading));
  out += x_end - x;
  memcpy (out, y, (gsize) (y_end - y) * sizeof (KymoCpuReading));
}

/* Sorts @a (@n readings, in record order) by time, stably: by time, then
 * record order, as the worker wrote them. The readings come in a few runs
 * in time order (a file's segments, or files, overlapping in time), so
 * neighbouring runs are merged pairwise until one is left: a pass over
 * the readings per halving of the runs. @tmp has room for @n; returns
 * whichever of @a and @tmp holds the result. */
static KymoCpuReading *
sort_readings (KymoCpuReading *a,
               KymoCpuReading *tmp,
               gsize           n)
{
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize zero = 0;

  g_array_append_val (starts, zero);
  for (gsize i = 1; i < n; i++)
    if (a[i].ts < a[i - 1].ts)
      g_array_append_val (starts, i);
  g_array_append_val (starts, n);
  while (starts->len > 2)
    {
      gsize *s = (gsize *) (gpointer) starts->data;
      guint n_runs = starts->len - 1, kept = 0;
      KymoCpuReading *swap;

      for (guint r = 0; r < n_runs; r += 2)
        {
          if (r + 1 < n_runs)
            merge_two (a, tmp, s[r], s[r + 1], s[r + 2]);
          else
            memcpy (tmp + s[r], a + s[r], (s[r + 1] - s[r]) * sizeof (KymoCpuReading));
          s[kept++] = s[r];
        }
      s[kept++] = n;
      g_array_set_size (starts, kept);
      swap = a;
      a = tmp;
      tmp = swap;
    }
  return a;
}

/* An unpark followed by a park is an active period. Anything else (a park
 * first, two unparks after a lost event, a clock going back because the
 * worker moved to another thread) gives no period rather than a wrong one. */
static void
pair_readings (const KymoCpuReading *r,
               gsize                 n,
               GArray               *periods)
{
  for (gsize i = 0; i + 1 < n; i++)
    {
      KymoCpuPeriod p;

      if (!r[i].unpark || r[i + 1].unpark || r[i + 1].ts <= r[i].ts || r[i + 1].clock < r[i].clock)
        continue;
      p.start = r[i].ts;
      p.end = r[i + 1].ts;
      p.cpu = (KymoTime) MIN (r[i + 1].clock - r[i].clock, (guint64) (p.end - p.start));
      g_array_append_val (periods, p);
    }
}

typedef struct {
  KymoDial9Lanes  *self;
  KymoCpuReadings *parts;
  guint            n_parts;
} Build;

/* One track's periods and their sums (on any thread: only the track's
 * arrays are written). */
static void
build_track (guint    t,
             gpointer user_data)
{
  Build *b = user_data;
  g_autofree KymoCpuReading *all = NULL;
  g_autofree KymoCpuReading *tmp = NULL;
  const KymoCpuReading *sorted;
  const KymoCpuPeriod *p;
  GArray *periods, *sums;
  KymoCpuSums sum = { 0, 0 };
  gsize n = 0, at = 0;
  guint only = 0, with = 0;

  for (guint k = 0; k < b->n_parts; k++)
    if (b->parts[k].len[t] > 0)
      {
        n += b->parts[k].len[t];
        only = k;
        with++;
      }
  if (n == 0)
    return;
  /* Most traces read on one thread have their readings in one part. */
  if (with == 1)
    all = g_steal_pointer (&b->parts[only].of_track[t]);
  else
    {
      all = g_new (KymoCpuReading, n);
      for (guint k = 0; k < b->n_parts; k++)
        {
          memcpy (all + at, b->parts[k].of_track[t], b->parts[k].len[t] * sizeof (KymoCpuReading));
          at += b->parts[k].len[t];
          g_clear_pointer (&b->parts[k].of_track[t], g_free);
        }
    }
  sorted = all;
  /* A worker writes its own events in order: sort only when segments
   * overlapping in time left them out of order. */
  for (gsize i = 1; i < n; i++)
    if (all[i].ts < all[i - 1].ts)
      {
        tmp = g_new (KymoCpuReading, n);
        sorted = sort_readings (all, tmp, n);
        break;
      }

  periods = b->self->periods[t] = g_array_sized_new (FALSE, FALSE, sizeof (KymoCpuPeriod), n / 2 + 1);
  pair_readings (sorted, n, periods);
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

/* Below this many readings, one thread sorts them sooner than two start. */
#define PARALLEL_MIN 100000

KymoDial9Lanes *
_kymo_dial9_lanes_new_from_readings (KymoTrace       *trace,
                                     KymoCpuReadings *parts,
                                     guint            n_parts)
{
  KymoDial9Lanes *self = g_atomic_rc_box_new0 (KymoDial9Lanes);
  Build b = { self, parts, n_parts };
  const KymoStackSample *samples;
  guint32 kind_cpu = kymo_trace_lookup_name (trace, "cpu");
  gsize n = 0;

  self->n_tracks = kymo_trace_get_n_tracks (trace);
  self->periods = g_new0 (GArray *, MAX (self->n_tracks, 1));
  self->samples = g_new0 (GArray *, MAX (self->n_tracks, 1));
  self->sums = g_new0 (GArray *, MAX (self->n_tracks, 1));

  for (guint k = 0; k < n_parts; k++)
    for (guint t = 0; t < self->n_tracks; t++)
      n += parts[k].len[t];
  kymo_parts_run (NULL, n, PARALLEL_MIN, self->n_tracks, 0, build_track, NULL, &b);
  for (guint t = 0; t < self->n_tracks; t++)
    self->has_cpu |= self->periods[t] != NULL && self->periods[t]->len > 0;

  samples = kymo_stacks_get_samples (kymo_trace_get_stacks (trace), &n);
  for (gsize i = 0; kind_cpu != G_MAXUINT32 && i < n; i++)
    if (samples[i].kind == kind_cpu && samples[i].track < self->n_tracks)
      {
        if (self->samples[samples[i].track] == NULL)
          self->samples[samples[i].track] = g_array_new (FALSE, FALSE, sizeof (KymoTime));
        g_array_append_val (self->samples[samples[i].track], samples[i].ts);
      }
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
    _kymo_cpu_readings_init (&s.parts[k], trace);
  if (s.parts[0].kind_cpu != G_MAXUINT32)
    kymo_parts_run (NULL, s.n_records, SCAN_PARALLEL_MIN, s.n_parts, 0, scan_part, NULL, &s);
  self = _kymo_dial9_lanes_new_from_readings (trace, s.parts, s.n_parts);
  for (guint k = 0; k < s.n_parts; k++)
    _kymo_cpu_readings_clear (&s.parts[k]);
  g_free (s.parts);
  return self;
}
