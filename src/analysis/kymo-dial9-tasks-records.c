/* kymo-dial9-tasks-records.c: the pass over the records, in chunks on the parts' threads
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-tasks"

#include "config.h"

#include <string.h>

#include "kymo-dial9-tasks-private.h"

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

void
_kymo_dial9_tasks_wake_counts_clear (WakeCounts *w)
{
  g_clear_pointer (&w->of_id, g_free);
  g_clear_pointer (&w->of_far, g_hash_table_unref);
  w->n_of_id = 0;
}


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

/* One chunk of the pass over the records (on any thread). What it
 * counts is kept here until the end: chunks lie next to each other, and
 * threads writing the same cache line would wait on each other. */
static void
read_chunk (Builder *b,
            Chunk   *c)
{
  const KymoRecord *records = b->records;
  guint32 kind_poll = b->kind_poll, kind_wake = b->kind_wake, kind_unpark = b->kind_unpark;
  guint32 kind_cpu = b->kind_cpu;
  guint32 kind_spawn = b->kind_spawn, kind_term = b->kind_term;
  guint n_tracks = b->self->n_tracks;
  PollWord *words = b->words;
  guint32 *poll_tasks;
  gsize n_polls = 0, n_wakes = 0;
  guint32 last = 0;

  /* No room is taken for no records. */
  if (c->first == c->end)
    return;
  poll_tasks = c->poll_tasks = g_new (guint32, c->end - c->first);
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
          words[at >> 6].bits |= G_GUINT64_CONSTANT (1) << (at & 63);
          if (G_LIKELY (r->key < FAR_ID))
            poll_tasks[n_polls++] = (guint32) r->key;
          else
            {
              poll_tasks[n_polls++] = FAR_ID;
              if (c->far_polls == NULL)
                c->far_polls = g_hash_table_new_full (NULL, NULL, NULL, g_free);
              g_hash_table_insert (c->far_polls, GUINT_TO_POINTER (r->source), g_memdup2 (&r->key, sizeof r->key));
            }
          if (!c->polled[r->track])
            c->polled[r->track] = TRUE;
        }
      else if (r->kind == kind_wake)
        {
          guint64 id = r->key;

          n_wakes++;
          if (id < c->counts.n_of_id)
            c->counts.of_id[id]++;
          else
            wake_counts_add (&c->counts, id, 1, b->max_first_row);
        }
      else if (r->kind == kind_cpu)
        _kymo_cpu_readings_add (&b->cpu[c - b->chunks], r);
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
void
_kymo_dial9_tasks_make_chunks (Builder *b,
                               guint    n_chunks)
{
  const KymoRecord *records = b->records;
  gsize first = 0;

  b->chunks = g_new0 (Chunk, n_chunks);
  if (b->kind_cpu != G_MAXUINT32)
    b->cpu = g_new0 (KymoCpuReadings, n_chunks);
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
      if (b->cpu != NULL)
        _kymo_cpu_readings_init (&b->cpu[k], b->trace, end - first);
      first = end;
    }
}

/* In order: the chunk's counts and lists join the builder's (its counts
 * stay, for _kymo_dial9_tasks_place_wakes()). */
void
_kymo_dial9_tasks_join_chunk (Builder *b,
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
  if (c->far_polls != NULL)
    {
      GHashTableIter iter;
      gpointer key, value;

      if (b->far_polls == NULL)
        b->far_polls = g_hash_table_new_full (NULL, NULL, NULL, g_free);
      g_hash_table_iter_init (&iter, c->far_polls);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          g_hash_table_iter_steal (&iter);
          g_hash_table_insert (b->far_polls, key, value);
        }
      g_clear_pointer (&c->far_polls, g_hash_table_unref);
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

/* Room for the pass over the records, taken before the chunks start. */
void
_kymo_dial9_tasks_prepare_records (Builder *b)
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
      b->words = g_new0 (PollWord, b->n_words);
    }
}

/* Once every chunk is read: where the polls of each bitmap word start
 * (a word's polls are all in one chunk's poll_tasks). */
void
_kymo_dial9_tasks_count_polls (Builder *b)
{
  for (guint k = 0; k < b->n_chunks; k++)
    {
      const Chunk *c = &b->chunks[k];
      gsize w_end = k + 1 < b->n_chunks && b->chunks[k + 1].first < b->n_records
                    ? (b->records[b->chunks[k + 1].first].source - b->base) >> 6 : b->n_words;
      gsize w = c->first < b->n_records ? (b->records[c->first].source - b->base) >> 6 : b->n_words;
      const guint32 *at = c->poll_tasks;

      for (; w < w_end; w++)
        {
          b->words[w].polls = at;
          if (at != NULL)
            at += popcount64 (b->words[w].bits);
        }
    }
}

/* Whether the lanes' passes meet the samples of their track with a
 * cursor over every track's samples, rather than over a copy of the
 * samples by track. Each lane then reads all the samples, once; the copy
 * reads them twice and writes their times into memory faulted in for
 * them: on a trace of a few workers (lanes are workers, tracks with
 * spans), reading them is the cheaper. */
#define SCAN_SAMPLES_MAX_LANES 3

gboolean
_kymo_dial9_tasks_scan_samples (KymoTrace *trace)
{
  guint n_lanes = 0;

  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      gsize n;

      kymo_track_get_depth_spans (kymo_trace_get_track (trace, t), 0, &n, NULL);
      n_lanes += n > 0;
    }
  return n_lanes <= SCAN_SAMPLES_MAX_LANES;
}

/* The times of each track's samples, in the samples' order (time order
 * once sealed), one array the lanes' cursors read straight through. */
static void
samples_by_track (Builder *b)
{
  guint n_tracks = b->self->n_tracks;
  gsize n_samples;
  const KymoStackSample *samples = kymo_stacks_get_samples (kymo_trace_get_stacks (b->trace), &n_samples);
  guint32 *first = g_new0 (guint32, n_tracks + 2);
  g_autofree guint32 *at = NULL;
  KymoTime *sample_ts;

  for (gsize i = 0; i < n_samples; i++)
    if (samples[i].track < n_tracks)
      first[samples[i].track + 1]++;
  for (guint t = 0; t < n_tracks; t++)
    first[t + 1] += first[t];
  at = g_memdup2 (first, sizeof (guint32) * (n_tracks + 1));
  sample_ts = g_new (KymoTime, MAX (first[n_tracks], 1));
  for (gsize i = 0; i < n_samples; i++)
    if (samples[i].track < n_tracks)
      sample_ts[at[samples[i].track]++] = samples[i].ts;
  b->sample_first = first;
  b->sample_ts = sample_ts;
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

void
_kymo_dial9_tasks_read_part (guint    index,
                             gpointer user_data)
{
  Builder *b = user_data;

  if (index >= b->n_extra)
    read_chunk (b, &b->chunks[index - b->n_extra]);
  else if (index == 0)
    {
      if (!b->scan_samples)
        samples_by_track (b);
    }
  else
    find_late_flows (b);
}
