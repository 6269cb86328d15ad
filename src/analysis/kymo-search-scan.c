/* kymo-search-scan.c: the pass over the tracks that finds the matches, on
 * threads for a large name-only search
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-search"

#include "config.h"

#include "kymo-search-private.h"

#define CHECK_EVERY 65536
/* Below this many events one thread is quicker than starting a pool. */
#define PARALLEL_MIN 1000000

static void
run_clear (gpointer data)
{
  Run *run = data;

  g_clear_pointer (&run->indexes, g_array_unref);
}

static void
report_progress (Scan *scan)
{
  _kymo_search_report_progress (scan->search, scan->done, scan->total);
}

/* Decoding arguments costs microseconds an event: check and report more
 * often then, so that a cancel or a new keystroke is felt at once. */
#define CHECK_EVERY_ARGS 1024

static gboolean
tick (Scan *scan)
{
  scan->done++;
  if (scan->done % (scan->search->args ? CHECK_EVERY_ARGS : CHECK_EVERY) != 0)
    return TRUE;
  if (scan->search->args)
    report_progress (scan);
  return !g_cancellable_is_cancelled (scan->cancellable);
}

static KymoTime
duration (const KymoSpan *span)
{
  KymoTime r;

  if (__builtin_sub_overflow (span->end, span->start, &r))
    return G_MAXINT64;
  return r;
}

static gboolean
in_window (KymoSearch *self,
           KymoTime    start,
           KymoTime    end)
{
  return (self->from == KYMO_TIME_NONE || end >= self->from) &&
         (self->to == KYMO_TIME_NONE || start <= self->to);
}

static gboolean
event_matches (Scan               *scan,
               guint32             name,
               const KymoEventRef *ref)
{
  if (scan->name_matches[name])
    return TRUE;
  return scan->search->args && _kymo_search_args_match (scan->search->trace, ref, scan->search->needle);
}

/* Tracks may be scanned side by side: the counts are shared. */
static inline void
add_name_hit (Scan    *scan,
              Run     *run,
              guint32  name,
              guint32  index)
{
  __atomic_fetch_add (&scan->counts[name], 1, __ATOMIC_RELAXED);
  if (run->indexes == NULL)
    run->indexes = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_val (run->indexes, index);
}

/* Name search alone (no arguments, no "longest") is what a 10M-span trace
 * mostly costs: one tight pass over the name of each span, a table lookup,
 * a cancellation check per block. */
static gboolean
scan_depth_names (Scan           *scan,
                  const KymoSpan *spans,
                  gsize           n,
                  gsize           first,
                  Run            *run)
{
  const guint8 *matches = scan->name_matches;

  for (gsize lo = 0; lo < n; lo += CHECK_EVERY)
    {
      gsize hi = MIN (n, lo + CHECK_EVERY);

      if (g_cancellable_is_cancelled (scan->cancellable))
        return FALSE;
      for (gsize i = lo; i < hi; i++)
        {
          guint32 name = kymo_span_name (&spans[i]);
          guint32 index = (guint32) (first + i);

          if (G_LIKELY (!matches[name]) || !in_window (scan->search, spans[i].start, spans[i].end))
            continue;
          add_name_hit (scan, run, name, index);
        }
    }
  return TRUE;
}

static gboolean
scan_instants_names (Scan              *scan,
                     const KymoInstant *instants,
                     gsize              n,
                     Run               *run)
{
  const guint8 *matches = scan->name_matches;

  for (gsize lo = 0; lo < n; lo += CHECK_EVERY)
    {
      gsize hi = MIN (n, lo + CHECK_EVERY);

      if (g_cancellable_is_cancelled (scan->cancellable))
        return FALSE;
      for (gsize i = lo; i < hi; i++)
        {
          guint32 name = instants[i].name_flags & KYMO_NAME_MAX;
          guint32 index = (guint32) i;

          if (G_LIKELY (!matches[name]) || !in_window (scan->search, instants[i].ts, instants[i].ts))
            continue;
          add_name_hit (scan, run, name, index);
        }
    }
  return TRUE;
}

/* One track of a name-only search, into its own runs (depths in order, then
 * instants): any thread may run it. */
static gboolean
scan_track_names (Scan      *scan,
                  KymoTrack *track,
                  guint      track_id,
                  GArray    *runs)
{
  const KymoInstant *instants;
  gsize n_instants, n_all;
  const KymoSpan *all = kymo_track_get_spans (track, &n_all);

  for (guint depth = 0; depth < kymo_track_get_n_depths (track); depth++)
    {
      gsize n, first;
      const KymoSpan *spans = kymo_track_get_depth_spans (track, depth, &n, &first);
      Run run = { track_id, depth, NULL, all, NULL, 0 };
      gboolean ok = scan_depth_names (scan, spans, n, first, &run);

      g_array_append_val (runs, run);
      if (!ok)
        return FALSE;
    }
  instants = kymo_track_get_instants (track, &n_instants);
  if (n_instants > 0)
    {
      Run run = { track_id, KYMO_SEARCH_INSTANT, NULL, NULL, instants, 0 };
      gboolean ok = scan_instants_names (scan, instants, n_instants, &run);

      g_array_append_val (runs, run);
      if (!ok)
        return FALSE;
    }
  return TRUE;
}

typedef struct {
  Scan     *scan;
  guint     track_id;
  GArray   *runs;      /* Run */
  gboolean  ok;
} TrackJob;

static void
track_job_run (gpointer data,
               gpointer user_data)
{
  TrackJob *job = data;

  job->ok = scan_track_names (job->scan, kymo_trace_get_track (job->scan->search->trace, job->track_id),
                              job->track_id, job->runs);
}

/* A large name-only search reads every span's name once, which is memory
 * bound: the tracks are read side by side, their runs kept in track order. */
static gboolean
scan_names_in_parallel (Scan   *scan,
                        GArray *order)
{
  g_autofree TrackJob *jobs = g_new0 (TrackJob, MAX (order->len, 1));
  guint n_threads = MIN (g_get_num_processors (), order->len);
  GThreadPool *pool = g_thread_pool_new (track_job_run, NULL, (gint) MAX (n_threads, 1), FALSE, NULL);
  gboolean ok = TRUE;

  for (guint i = 0; i < order->len; i++)
    {
      jobs[i].scan = scan;
      jobs[i].track_id = g_array_index (order, guint, i);
      jobs[i].runs = g_array_new (FALSE, FALSE, sizeof (Run));
      g_thread_pool_push (pool, &jobs[i], NULL);
    }
  g_thread_pool_free (pool, FALSE, TRUE);

  for (guint i = 0; i < order->len; i++)
    {
      ok = ok && jobs[i].ok;
      /* the runs array owns what it is given (its clear func frees) */
      g_array_append_vals (scan->runs, jobs[i].runs->data, jobs[i].runs->len);
      g_array_unref (jobs[i].runs);
    }
  return ok;
}

static gboolean
scan_track (Scan      *scan,
            KymoTrack *track,
            guint      track_id)
{
  KymoSearch *self = scan->search;
  const KymoInstant *instants;
  gsize n_instants;

  for (guint depth = 0; depth < kymo_track_get_n_depths (track); depth++)
    {
      gsize n, first;
      const KymoSpan *spans = kymo_track_get_depth_spans (track, depth, &n, &first);
      Run run = { track_id, depth, NULL, kymo_track_get_spans (track, &(gsize) { 0 }), NULL, 0 };

      for (gsize i = 0; i < n; i++)
        {
          const KymoSpan *span = &spans[i];
          guint32 name = kymo_span_name (span);
          KymoEventRef ref = { track_id, KYMO_EVENT_KIND_SPAN, first + i };

          if (!tick (scan))
            {
              g_clear_pointer (&run.indexes, g_array_unref);
              return FALSE;
            }
          if (!in_window (self, span->start, span->end) || !event_matches (scan, name, &ref))
            continue;
          scan->counts[name]++;
          if (self->longest > 0)
            {
              Candidate c = { duration (span), span->start, scan->runs->len, first + i };
              _kymo_search_offer_longest (scan, &c);
              continue;
            }
          if (run.indexes == NULL)
            run.indexes = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_array_append_val (run.indexes, ref.index);
        }
      /* in longest mode an empty run still numbers the tie order */
      g_array_append_val (scan->runs, run);
    }

  if (self->longest > 0)
    return TRUE;

  instants = kymo_track_get_instants (track, &n_instants);
  if (n_instants > 0)
    {
      Run run = { track_id, KYMO_SEARCH_INSTANT, NULL, NULL, instants, 0 };

      for (gsize i = 0; i < n_instants; i++)
        {
          guint32 name = instants[i].name_flags & KYMO_NAME_MAX;
          KymoEventRef ref = { track_id, KYMO_EVENT_KIND_INSTANT, i };

          if (!tick (scan))
            {
              g_clear_pointer (&run.indexes, g_array_unref);
              return FALSE;
            }
          if (!in_window (self, instants[i].ts, instants[i].ts) || !event_matches (scan, name, &ref))
            continue;
          scan->counts[name]++;
          if (run.indexes == NULL)
            run.indexes = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_array_append_val (run.indexes, ref.index);
        }
      g_array_append_val (scan->runs, run);
    }
  return TRUE;
}

KymoSearchResult *
_kymo_search_scan (KymoSearch    *self,
             GCancellable  *cancellable,
             gboolean       with_event_set,
             GError       **error)
{
  g_autoptr(GArray) order = NULL;
  guint n_names = kymo_trace_get_n_names (self->trace);
  g_autofree guint8 *name_matches = NULL;
  g_autofree guint64 *counts = g_new0 (guint64, MAX (n_names, 1));
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (Candidate));
  Scan scan = { self, cancellable, NULL, counts, runs, heap, 0, 0 };
  KymoSearchResult *result;
  gboolean any_name = FALSE;

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  g_array_set_clear_func (runs, run_clear);
  name_matches = _kymo_search_match_names (self->trace, self->needle);
  scan.name_matches = name_matches;
  for (guint i = 0; i < n_names && !any_name; i++)
    any_name = name_matches[i];

  order = _kymo_search_tracks_in_display_order (self->trace);
  for (guint i = 0; i < order->len; i++)
    scan.total += kymo_track_get_n_events (kymo_trace_get_track (self->trace, g_array_index (order, guint, i)));

  /* An empty query clears; a query no name holds needs no scan at all. */
  if (self->needle[0] == '\0' || (!any_name && !self->args))
    ;
  else if (!self->args && self->longest == 0)
    {
      gboolean ok;

      if (scan.total > PARALLEL_MIN && g_get_num_processors () > 1)
        ok = scan_names_in_parallel (&scan, order);
      else
        {
          ok = TRUE;
          for (guint i = 0; i < order->len && ok; i++)
            ok = scan_track_names (&scan, kymo_trace_get_track (self->trace, g_array_index (order, guint, i)),
                                   g_array_index (order, guint, i), runs);
        }
      if (!ok)
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Search cancelled");
          return NULL;
        }
    }
  else
    for (guint i = 0; i < order->len; i++)
      {
        guint track_id = g_array_index (order, guint, i);

        if (!scan_track (&scan, kymo_trace_get_track (self->trace, track_id), track_id))
          {
            g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Search cancelled");
            return NULL;
          }
      }

  result = g_new0 (KymoSearchResult, 1);
  g_atomic_ref_count_init (&result->ref_count);
  result->trace = g_object_ref (self->trace);
  result->query = g_strdup (self->query);
  result->longest = self->longest > 0;
  result->hits = self->longest > 0 ? _kymo_search_longest_hits (&scan) : _kymo_search_merge_runs (runs);
  result->name_counts = g_array_new (FALSE, FALSE, sizeof (KymoSearchNameCount));
  for (guint id = 0; id < n_names; id++)
    if (counts[id] > 0)
      {
        KymoSearchNameCount c = { id, counts[id] };
        g_array_append_val (result->name_counts, c);
      }
  g_array_sort (result->name_counts, _kymo_search_compare_counts);
  if (with_event_set)
    result->event_set = _kymo_search_build_event_set (self->trace, result->hits);

  scan.done = scan.total;
  report_progress (&scan);
  return result;
}
