/* kymo-dial9-lanes.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-analysis"

#include "config.h"

#include <stdlib.h>

#include "kymo-dial9-lanes-private.h"

KymoDial9Lanes *
kymo_dial9_lanes_ref (KymoDial9Lanes *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return g_atomic_rc_box_acquire (self);
}

static void
lanes_clear (gpointer data)
{
  KymoDial9Lanes *self = data;

  for (guint t = 0; t < self->n_tracks; t++)
    {
      g_clear_pointer (&self->periods[t], g_array_unref);
      g_clear_pointer (&self->samples[t], g_array_unref);
      g_clear_pointer (&self->sums[t], g_array_unref);
    }
  g_free (self->sums);
  g_free (self->periods);
  g_free (self->samples);
}

void
kymo_dial9_lanes_unref (KymoDial9Lanes *self)
{
  if (self != NULL)
    g_atomic_rc_box_release_full (self, lanes_clear);
}

gboolean
kymo_dial9_lanes_has_cpu (KymoDial9Lanes *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->has_cpu;
}

const KymoCpuPeriod *
kymo_dial9_lanes_get_periods (KymoDial9Lanes *self,
                              guint           track,
                              gsize          *n_periods)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (track >= self->n_tracks || self->periods[track] == NULL || self->periods[track]->len == 0)
    {
      *n_periods = 0;
      return NULL;
    }
  *n_periods = self->periods[track]->len;
  return (const KymoCpuPeriod *) (gpointer) self->periods[track]->data;
}

const KymoCpuPeriod *
kymo_dial9_lanes_find_period (KymoDial9Lanes *self,
                              guint           track,
                              KymoTime        ts)
{
  gsize n, lo = 0, hi;
  const KymoCpuPeriod *p = kymo_dial9_lanes_get_periods (self, track, &n);

  /* Periods of one worker never overlap: the last one starting at or
   * before @ts is the only candidate. */
  hi = n;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (p[mid].start <= ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || p[lo - 1].end < ts)
    return NULL;
  return &p[lo - 1];
}

void
kymo_dial9_lanes_sum_periods (KymoDial9Lanes *self,
                              guint           track,
                              gsize           lo,
                              gsize           hi,
                              KymoTime       *cpu,
                              KymoTime       *active)
{
  gsize n;
  const KymoCpuSums *sums;

  kymo_dial9_lanes_get_periods (self, track, &n);
  *cpu = 0;
  *active = 0;
  hi = MIN (hi, n);
  if (lo >= hi)
    return;
  sums = (const KymoCpuSums *) (gpointer) self->sums[track]->data;
  *cpu = sums[hi].cpu - sums[lo].cpu;
  *active = sums[hi].active - sums[lo].active;
}

gboolean
kymo_dial9_lanes_get_cpu_total (KymoDial9Lanes *self,
                                guint           track,
                                KymoTime       *cpu,
                                KymoTime       *active)
{
  gsize n;

  kymo_dial9_lanes_get_periods (self, track, &n);
  kymo_dial9_lanes_sum_periods (self, track, 0, n, cpu, active);
  return n > 0;
}

const KymoTime *
kymo_dial9_lanes_get_cpu_samples (KymoDial9Lanes *self,
                                  guint           track,
                                  gsize          *n_samples)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (track >= self->n_tracks || self->samples[track] == NULL)
    {
      *n_samples = 0;
      return NULL;
    }
  *n_samples = self->samples[track]->len;
  return (const KymoTime *) (gpointer) self->samples[track]->data;
}

double
kymo_cpu_period_share (const KymoCpuPeriod *period)
{
  g_return_val_if_fail (period != NULL, 0);

  if (period->end <= period->start)
    return 0;
  return CLAMP ((double) period->cpu / (double) (period->end - period->start), 0, 1);
}

/* The polls of a row come track by track, each track's in start order:
 * the runs of one track, in turn. */
typedef struct {
  const KymoDial9PollRef *polls;
  gsize                   n;
  const KymoSpan         *spans;
} PollRun;

static GArray *
poll_runs (KymoTrace              *trace,
           const KymoDial9PollRef *polls,
           gsize                   n_polls)
{
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (PollRun));

  for (gsize i = 0; i < n_polls;)
    {
      PollRun run = { &polls[i], 0, NULL };
      gsize n_spans;

      while (i + run.n < n_polls && polls[i + run.n].track == polls[i].track)
        run.n++;
      run.spans = kymo_track_get_spans (kymo_trace_get_track (trace, polls[i].track), &n_spans);
      g_array_append_val (runs, run);
      i += run.n;
    }
  return runs;
}

/* The first poll of @run starting at or after @ts. */
static gsize
first_poll_from (const PollRun *run,
                 KymoTime       ts)
{
  gsize lo = 0, hi = run->n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (run->spans[run->polls[mid].span].start < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

KymoWakeMark *
kymo_dial9_tasks_dup_wake_marks (KymoDial9Tasks *tasks,
                                 guint           row,
                                 gsize          *n_marks)
{
  KymoTrace *trace;
  const KymoRecord *records;
  const guint32 *wakes;
  const KymoDial9PollRef *polls;
  gsize n_wakes, n_records, n_polls, n_rows;
  g_autoptr(GArray) runs = NULL;
  KymoWakeMark *marks;

  g_return_val_if_fail (tasks != NULL, NULL);
  g_return_val_if_fail (n_marks != NULL, NULL);

  *n_marks = 0;
  kymo_dial9_tasks_get_rows (tasks, &n_rows);
  if (row >= n_rows)
    return NULL;
  wakes = kymo_dial9_tasks_get_wakes_of (tasks, row, &n_wakes);
  if (n_wakes == 0)
    return NULL;
  trace = kymo_dial9_tasks_get_trace (tasks);
  records = kymo_records_get_all (kymo_trace_get_records (trace), &n_records);
  polls = kymo_dial9_tasks_get_polls_of (tasks, row, &n_polls);
  runs = poll_runs (trace, polls, n_polls);
  marks = g_new (KymoWakeMark, n_wakes);
  for (gsize i = 0; i < n_wakes; i++)
    {
      KymoWakeMark *m = &marks[i];
      const KymoRecord *wake = &records[wakes[i]];
      guint32 waker = wake->value != 0 ? kymo_dial9_tasks_find_task (tasks, wake->value) : KYMO_DIAL9_NO_ROW;

      m->ts = wake->ts;
      m->poll_start = KYMO_TIME_NONE;
      m->track = KYMO_NO_TRACK;
      m->waker_track = KYMO_NO_TRACK;
      /* The woken task's next poll, on whichever worker it came. */
      for (guint r = 0; r < runs->len; r++)
        {
          const PollRun *run = &g_array_index (runs, PollRun, r);
          gsize next = first_poll_from (run, wake->ts);

          if (next < run->n && (m->poll_start == KYMO_TIME_NONE
                                || run->spans[run->polls[next].span].start < m->poll_start))
            {
              m->poll_start = run->spans[run->polls[next].span].start;
              m->track = run->polls[next].track;
            }
        }
      if (waker != KYMO_DIAL9_NO_ROW)
        {
          gsize n_waker;
          const KymoDial9PollRef *waker_polls = kymo_dial9_tasks_get_polls_of (tasks, waker, &n_waker);
          g_autoptr(GArray) waker_runs = poll_runs (trace, waker_polls, n_waker);

          /* The waker's poll running at the wake: the last one started by then. */
          for (guint r = 0; r < waker_runs->len && m->waker_track == KYMO_NO_TRACK; r++)
            {
              const PollRun *run = &g_array_index (waker_runs, PollRun, r);
              gsize k = first_poll_from (run, wake->ts + 1);

              if (k > 0 && run->spans[run->polls[k - 1].span].end >= wake->ts)
                m->waker_track = run->polls[k - 1].track;
            }
        }
    }
  *n_marks = n_wakes;
  return marks;
}
