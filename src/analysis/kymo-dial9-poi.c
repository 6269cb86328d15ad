/* kymo-dial9-poi.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-poi"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "kymo-dial9-poi.h"
#include "kymo-run-sort.h"

#include <string.h>

struct _KymoDial9Pois
{
  GArray *worst;  /* KymoPoi */
  GArray *timed;  /* KymoPoi */
};

const char *
kymo_poi_kind_to_string (KymoPoiKind kind)
{
  switch (kind)
    {
    case KYMO_POI_SCHED_DELAY:
      return _("Kernel scheduling delay");
    case KYMO_POI_LONG_POLL:
      return _("Long poll");
    case KYMO_POI_CPU_SAMPLES:
      return _("Poll with CPU samples");
    case KYMO_POI_WAKE_DELAY:
      return _("Wake to poll delay");
    case KYMO_POI_UNINSTRUMENTED:
      return _("Poll of an uninstrumented task");
    case KYMO_POI_N_KINDS:
    default:
      return "";
    }
}

static void
add (GArray      *pois,
     KymoPoiKind  kind,
     KymoTime     start,
     KymoTime     end,
     KymoTime     severity,
     guint32      track,
     guint32      span,
     guint32      count)
{
  KymoPoi poi = { start, end, severity, kind, track, span, count };
  g_array_append_val (pois, poi);
}

#define WORST_BEFORE(x, y)                                                           \
  ((x)->severity > (y)->severity ||                                                  \
   ((x)->severity == (y)->severity &&                                                \
    ((x)->start < (y)->start ||                                                      \
     ((x)->start == (y)->start &&                                                    \
      ((x)->kind < (y)->kind || ((x)->kind == (y)->kind && (x)->track < (y)->track))))))
#define TIMED_BEFORE(x, y)                                                           \
  ((x)->start < (y)->start ||                                                        \
   ((x)->start == (y)->start &&                                                      \
    ((x)->kind < (y)->kind || ((x)->kind == (y)->kind && (x)->track < (y)->track))))
KYMO_DEFINE_RUN_SORT (sort_worst, KymoPoi, WORST_BEFORE)
KYMO_DEFINE_RUN_SORT (sort_timed, KymoPoi, TIMED_BEFORE)

/* Samples per track, in time order: each track's polls then meet them
 * with two cursors. */
static void
add_sampled_polls (KymoDial9Tasks *tasks,
                   GArray         *pois)
{
  KymoTrace *trace = kymo_dial9_tasks_get_trace (tasks);
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  guint n_tracks = kymo_trace_get_n_tracks (trace);
  gsize n_samples, n_polls;
  const KymoStackSample *samples = kymo_stacks_get_samples (stacks, &n_samples);
  const KymoDial9Poll *polls = kymo_dial9_tasks_get_polls (tasks, &n_polls);
  g_autofree guint32 *first = NULL;
  g_autofree guint32 *cursor = NULL;
  g_autofree guint32 *by_track = NULL;

  if (n_samples == 0 || n_polls == 0)
    return;
  first = g_new0 (guint32, n_tracks + 1);
  cursor = g_new0 (guint32, n_tracks + 1);
  by_track = g_new (guint32, n_samples);
  for (gsize i = 0; i < n_samples; i++)
    if (samples[i].track < n_tracks)
      first[samples[i].track + 1]++;
  for (guint t = 0; t < n_tracks; t++)
    first[t + 1] += first[t];
  memcpy (cursor, first, sizeof (guint32) * (n_tracks + 1));
  for (gsize i = 0; i < n_samples; i++)
    if (samples[i].track < n_tracks)
      by_track[cursor[samples[i].track]++] = (guint32) i;
  /* cursor now reads each track's samples from its start again */
  memcpy (cursor, first, sizeof (guint32) * (n_tracks + 1));

  /* Polls in start order; on one track they do not overlap. */
  for (gsize i = 0; i < n_polls; i++)
    {
      const KymoDial9Poll *p = &polls[i];
      guint32 t = p->track, k, count = 0;

      if (t >= n_tracks)
        continue;
      k = cursor[t];
      while (k < first[t + 1] && samples[by_track[k]].ts < p->start)
        k++;
      cursor[t] = k;
      while (k < first[t + 1] && samples[by_track[k]].ts <= p->end)
        {
          count++;
          k++;
        }
      if (count > 0)
        add (pois, KYMO_POI_CPU_SAMPLES, p->start, p->end, p->end - p->start, t, p->span, count);
    }
}

KymoDial9Pois *
kymo_dial9_pois_new (KymoDial9Tasks          *tasks,
                     const KymoPoiThresholds *thresholds)
{
  KymoDial9Pois *self;
  KymoTrace *trace;
  const KymoDial9Task *rows;
  const KymoDial9Poll *polls;
  const KymoRecord *records;
  const KymoFlow *flows;
  gsize n_rows, n_polls, n_records, n_flows;
  guint32 kind_unpark;
  GArray *pois;

  g_return_val_if_fail (tasks != NULL && thresholds != NULL, NULL);

  trace = kymo_dial9_tasks_get_trace (tasks);
  self = g_new0 (KymoDial9Pois, 1);
  pois = self->worst = g_array_new (FALSE, FALSE, sizeof (KymoPoi));

  rows = kymo_dial9_tasks_get_rows (tasks, &n_rows);
  polls = kymo_dial9_tasks_get_polls (tasks, &n_polls);
  for (gsize i = 0; i < n_polls; i++)
    {
      const KymoDial9Poll *p = &polls[i];
      KymoTime dur = p->end - p->start;

      if (dur > thresholds->long_poll_ns)
        add (pois, KYMO_POI_LONG_POLL, p->start, p->end, dur, p->track, p->span, 0);
      if (p->task < n_rows && !rows[p->task].instrumented)
        add (pois, KYMO_POI_UNINSTRUMENTED, p->start, p->end, dur, p->track, p->span, 0);
    }
  add_sampled_polls (tasks, pois);

  /* Kernel scheduling delays: a worker's unpark says how long it waited. */
  kind_unpark = kymo_trace_lookup_name (trace, "unpark");
  records = kymo_records_get_all (kymo_trace_get_records (trace), &n_records);
  for (gsize i = 0; kind_unpark != G_MAXUINT32 && i < n_records; i++)
    {
      const KymoRecord *r = &records[i];
      KymoTime wait;
      guint32 span = G_MAXUINT32;

      if (r->kind != kind_unpark || r->track >= kymo_trace_get_n_tracks (trace) ||
          r->value > (guint64) G_MAXINT64 / 2)
        continue;
      wait = (KymoTime) r->value;
      if (wait <= thresholds->sched_delay_ns)
        continue;
      /* The park it ends, to select. */
      if (r->ts > 0)
        span = kymo_track_find_span_at (kymo_trace_get_track (trace, r->track), 0, r->ts - 1);
      add (pois, KYMO_POI_SCHED_DELAY, r->ts - wait, r->ts, wait, r->track, span, 0);
    }

  /* Wake → poll: the flow from the wake that scheduled a task to its poll. */
  flows = kymo_trace_get_flows (trace, &n_flows);
  for (gsize i = 0; i < n_flows; i++)
    {
      const KymoFlow *f = &flows[i];
      KymoTime delay = f->to_ts - f->from_ts;

      if (delay <= thresholds->wake_delay_ns || f->to_track >= kymo_trace_get_n_tracks (trace))
        continue;
      add (pois, KYMO_POI_WAKE_DELAY, f->from_ts, f->to_ts, delay, f->to_track,
           kymo_track_find_span_at (kymo_trace_get_track (trace, f->to_track), 0, f->to_ts), 0);
    }

  self->timed = g_array_sized_new (FALSE, FALSE, sizeof (KymoPoi), pois->len);
  g_array_append_vals (self->timed, pois->data, pois->len);
  sort_worst ((KymoPoi *) (gpointer) self->worst->data, self->worst->len);
  sort_timed ((KymoPoi *) (gpointer) self->timed->data, self->timed->len);
  return self;
}

void
kymo_dial9_pois_free (KymoDial9Pois *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->worst);
  g_array_unref (self->timed);
  g_free (self);
}

const KymoPoi *
kymo_dial9_pois_get_worst (KymoDial9Pois *self,
                           gsize         *n_pois)
{
  g_return_val_if_fail (self != NULL && n_pois != NULL, NULL);
  *n_pois = self->worst->len;
  return (const KymoPoi *) (gpointer) self->worst->data;
}

const KymoPoi *
kymo_dial9_pois_get_timed (KymoDial9Pois *self,
                           gsize         *n_pois)
{
  g_return_val_if_fail (self != NULL && n_pois != NULL, NULL);
  *n_pois = self->timed->len;
  return (const KymoPoi *) (gpointer) self->timed->data;
}
