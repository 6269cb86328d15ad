/* kymo-search.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-search"

#include "config.h"

#include "kymo-search.h"

#include <string.h>

#define CHECK_EVERY 65536
/* Below this many events one thread is quicker than starting a pool. */
#define PARALLEL_MIN 1000000

struct _KymoSearchResult
{
  gatomicrefcount      ref_count;
  KymoTrace           *trace;
  char                *query;
  GArray              *hits;         /* KymoSearchHit */
  GArray              *name_counts;  /* KymoSearchNameCount */
  KymoEventSet        *event_set;
  gboolean             longest;
};

struct _KymoSearch
{
  GObject        parent_instance;

  KymoTrace     *trace;
  char          *query;
  char          *needle;        /* casefolded query */
  KymoTime       from;
  KymoTime       to;
  guint          longest;
  gboolean       args;

  /* progress, written by the worker, read on the caller's context */
  gint           permille;      /* atomic */
  gint           notify_queued; /* atomic */
  GMainContext  *context;
};

enum {
  PROP_0,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (KymoSearch, kymo_search, G_TYPE_OBJECT)

G_DEFINE_BOXED_TYPE (KymoSearchResult, kymo_search_result, kymo_search_result_ref, kymo_search_result_unref)

/* --- matching ----------------------------------------------------------- */

char *
kymo_search_fold (const char *query)
{
  g_autofree char *valid = g_utf8_make_valid (query ? query : "", -1);

  return g_utf8_casefold (valid, -1);
}

static gboolean
is_ascii (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p; p++)
    if (*p >= 0x80)
      return FALSE;
  return TRUE;
}

/* Casefolding maps ASCII to its lower case, so an ASCII name against an
 * ASCII needle needs no allocation: the common case, once per name. */
static gboolean
ascii_case_contains (const char *haystack,
                     const char *needle,
                     gsize       needle_len)
{
  for (const char *h = haystack; *h; h++)
    {
      gsize i = 0;

      while (i < needle_len && h[i] != '\0' && g_ascii_tolower (h[i]) == needle[i])
        i++;
      if (i == needle_len)
        return TRUE;
    }
  return FALSE;
}

gboolean
kymo_search_name_matches (const char *folded_needle,
                          const char *name)
{
  g_autofree char *folded = NULL;

  if (folded_needle == NULL || folded_needle[0] == '\0' || name == NULL)
    return FALSE;
  if (is_ascii (name))
    return is_ascii (folded_needle) && ascii_case_contains (name, folded_needle, strlen (folded_needle));
  folded = kymo_search_fold (name);
  return strstr (folded, folded_needle) != NULL;
}

/* One flag per interned name: a 10M-span trace with a few thousand names
 * compares a few thousand strings, not ten million. */
static guint8 *
match_names (KymoTrace  *trace,
             const char *needle)
{
  guint n_names = kymo_trace_get_n_names (trace);
  guint8 *matches = g_new0 (guint8, MAX (n_names, 1));

  for (guint id = 0; id < n_names; id++)
    {
      const char *shown = kymo_trace_get_name (trace, id);
      const char *raw = kymo_trace_get_raw_name (trace, id);

      matches[id] = kymo_search_name_matches (needle, shown) ||
                    (raw != shown && kymo_search_name_matches (needle, raw));
    }
  return matches;
}

/* As the details pane shows a value: strings as they are, integers in
 * decimal; objects and arrays by their leaves. */
static gboolean
node_matches (JsonNode   *node,
              const char *needle)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *child;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &member, &child))
        if (node_matches (child, needle))
          return TRUE;
      return FALSE;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (node_matches (json_array_get_element (array, i), needle))
          return TRUE;
      return FALSE;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    return kymo_search_name_matches (needle, "null");
  else
    {
      GType type = json_node_get_value_type (node);
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      if (type == G_TYPE_STRING)
        return kymo_search_name_matches (needle, json_node_get_string (node));
      if (type == G_TYPE_BOOLEAN)
        return kymo_search_name_matches (needle, json_node_get_boolean (node) ? "true" : "false");
      if (type == G_TYPE_DOUBLE || type == G_TYPE_FLOAT)
        g_snprintf (buffer, sizeof buffer, "%.17g", json_node_get_double (node));
      else
        g_snprintf (buffer, sizeof buffer, "%" G_GINT64_FORMAT, json_node_get_int (node));
      return kymo_search_name_matches (needle, buffer);
    }
}

static gboolean
args_match (KymoTrace          *trace,
            const KymoEventRef *ref,
            const char         *needle)
{
  g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, ref);
  g_autoptr(JsonNode) node = NULL;

  if (args == NULL)
    return FALSE;
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, args);
  return node_matches (node, needle);
}

/* --- results ------------------------------------------------------------ */

KymoSearchResult *
kymo_search_result_ref (KymoSearchResult *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
kymo_search_result_unref (KymoSearchResult *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_pointer (&self->event_set, kymo_event_set_unref);
  g_array_unref (self->hits);
  g_array_unref (self->name_counts);
  g_free (self->query);
  g_object_unref (self->trace);
  g_free (self);
}

KymoTrace *
kymo_search_result_get_trace (KymoSearchResult *self)
{
  return self->trace;
}

const char *
kymo_search_result_get_query (KymoSearchResult *self)
{
  return self->query;
}

const KymoSearchHit *
kymo_search_result_get_hits (KymoSearchResult *self,
                             gsize            *n_hits)
{
  *n_hits = self->hits->len;
  return (const KymoSearchHit *) (gpointer) self->hits->data;
}

gsize
kymo_search_result_get_n_hits (KymoSearchResult *self)
{
  return self->hits->len;
}

const KymoSearchNameCount *
kymo_search_result_get_name_counts (KymoSearchResult *self,
                                    gsize            *n_names)
{
  *n_names = self->name_counts->len;
  return (const KymoSearchNameCount *) (gpointer) self->name_counts->data;
}

static KymoEventSet *
build_event_set (KymoTrace *trace,
                 GArray    *hits)
{
  KymoEventSet *set = kymo_event_set_new (trace);

  for (guint i = 0; i < hits->len; i++)
    {
      const KymoSearchHit *hit = &g_array_index (hits, KymoSearchHit, i);

      if (hit->depth == KYMO_SEARCH_INSTANT)
        kymo_event_set_add_instant (set, hit->track, hit->index);
      else
        kymo_event_set_add_span (set, hit->track, hit->index);
    }
  kymo_event_set_seal (set);
  return set;
}

KymoEventSet *
kymo_search_result_get_event_set (KymoSearchResult *self)
{
  if (self->event_set == NULL)
    self->event_set = build_event_set (self->trace, self->hits);
  return self->event_set;
}

void
kymo_search_hit_get_times (KymoTrace           *trace,
                           const KymoSearchHit *hit,
                           KymoTime            *start,
                           KymoTime            *end)
{
  KymoTrack *track = kymo_trace_get_track (trace, hit->track);
  gsize n;

  if (hit->depth == KYMO_SEARCH_INSTANT)
    {
      const KymoInstant *instants = kymo_track_get_instants (track, &n);

      *start = *end = instants[hit->index].ts;
    }
  else
    {
      const KymoSpan *spans = kymo_track_get_spans (track, &n);

      *start = spans[hit->index].start;
      *end = spans[hit->index].end;
    }
}

guint32
kymo_search_hit_get_name (KymoTrace           *trace,
                          const KymoSearchHit *hit)
{
  KymoTrack *track = kymo_trace_get_track (trace, hit->track);
  gsize n;

  if (hit->depth == KYMO_SEARCH_INSTANT)
    return kymo_track_get_instants (track, &n)[hit->index].name_flags & KYMO_NAME_MAX;
  return kymo_span_name (&kymo_track_get_spans (track, &n)[hit->index]);
}

void
kymo_search_hit_to_ref (const KymoSearchHit *hit,
                        KymoEventRef        *ref)
{
  ref->track = hit->track;
  ref->kind = hit->depth == KYMO_SEARCH_INSTANT ? KYMO_EVENT_KIND_INSTANT : KYMO_EVENT_KIND_SPAN;
  ref->index = hit->index;
}

gsize
kymo_search_result_lower_bound (KymoSearchResult *self,
                                KymoTime          ts)
{
  gsize lo = 0, hi = self->hits->len;

  g_return_val_if_fail (!self->longest, 0);

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      KymoTime start, end;

      kymo_search_hit_get_times (self->trace, &g_array_index (self->hits, KymoSearchHit, mid), &start, &end);
      if (start < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* --- the scan ----------------------------------------------------------- */

/* The matches of one depth of one track (or of its instants), in start
 * order; runs are kept in tie order, so merging them by start alone gives
 * "start, then track order, then depth". */
typedef struct {
  guint32  track;
  guint32  depth;      /* KYMO_SEARCH_INSTANT for the instants */
  GArray  *indexes;    /* guint32 */
  const KymoSpan    *spans;
  const KymoInstant *instants;
  guint    pos;        /* merge cursor */
} Run;

typedef struct {
  KymoTime dur;
  KymoTime start;
  guint    run;
  guint32  index;
} Candidate;

typedef struct {
  KymoSearch   *search;
  GCancellable *cancellable;
  guint8       *name_matches;
  guint64      *counts;     /* per name id */
  GArray       *runs;       /* Run */
  GArray       *heap;       /* Candidate, the worst on top */
  guint64       done;
  guint64       total;
} Scan;

static void
run_clear (gpointer data)
{
  Run *run = data;

  g_clear_pointer (&run->indexes, g_array_unref);
}

static gboolean
notify_fraction (gpointer data)
{
  KymoSearch *self = data;

  g_atomic_int_set (&self->notify_queued, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  return G_SOURCE_REMOVE;
}

/* Coalesced: at most one idle queued at a time, at low priority. */
static void
report_progress (Scan *scan)
{
  KymoSearch *self = scan->search;
  gint permille = scan->total > 0 ? (gint) (scan->done * 1000 / scan->total) : 1000;

  g_atomic_int_set (&self->permille, permille);
  if (self->context != NULL && g_atomic_int_compare_and_exchange (&self->notify_queued, 0, 1))
    {
      g_autoptr(GSource) source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_LOW);
      g_source_set_callback (source, notify_fraction, g_object_ref (self), g_object_unref);
      g_source_set_static_name (source, "[kymo] search progress");
      g_source_attach (source, self->context);
    }
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

/* Whether @a should come before @b in "longest first". */
static gboolean
candidate_better (const Candidate *a,
                  const Candidate *b)
{
  if (a->dur != b->dur)
    return a->dur > b->dur;
  if (a->start != b->start)
    return a->start < b->start;
  if (a->run != b->run)
    return a->run < b->run;
  return a->index < b->index;
}

static void
heap_sift_down (Candidate *heap,
                guint      n,
                guint      i)
{
  for (;;)
    {
      guint worst = i, l = 2 * i + 1, r = l + 1;
      Candidate tmp;

      if (l < n && candidate_better (&heap[worst], &heap[l]))
        worst = l;
      if (r < n && candidate_better (&heap[worst], &heap[r]))
        worst = r;
      if (worst == i)
        return;
      tmp = heap[i];
      heap[i] = heap[worst];
      heap[worst] = tmp;
      i = worst;
    }
}

/* A bounded heap: the N longest so far with the least of them on top, so a
 * trace of ten million spans is never sorted for "the ten longest". */
static void
offer_longest (Scan            *scan,
               const Candidate *c)
{
  Candidate *heap = (Candidate *) (gpointer) scan->heap->data;
  guint n = scan->heap->len;

  if (n < scan->search->longest)
    {
      guint i = n;

      g_array_append_val (scan->heap, *c);
      heap = (Candidate *) (gpointer) scan->heap->data;
      while (i > 0)
        {
          guint parent = (i - 1) / 2;
          Candidate tmp;

          if (!candidate_better (&heap[parent], &heap[i]))
            break;
          tmp = heap[i];
          heap[i] = heap[parent];
          heap[parent] = tmp;
          i = parent;
        }
      return;
    }
  if (n == 0 || !candidate_better (c, &heap[0]))
    return;
  heap[0] = *c;
  heap_sift_down (heap, n, 0);
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
  return scan->search->args && args_match (scan->search->trace, ref, scan->search->needle);
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
          /* tracks may be scanned side by side */
          __atomic_fetch_add (&scan->counts[name], 1, __ATOMIC_RELAXED);
          if (run->indexes == NULL)
            run->indexes = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_array_append_val (run->indexes, index);
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
          __atomic_fetch_add (&scan->counts[name], 1, __ATOMIC_RELAXED);
          if (run->indexes == NULL)
            run->indexes = g_array_new (FALSE, FALSE, sizeof (guint32));
          g_array_append_val (run->indexes, index);
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
              offer_longest (scan, &c);
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

static void
append_display_order (KymoTrace *trace,
                      guint      track_id,
                      GArray    *order,
                      guint8    *seen)
{
  const guint *children;
  guint n_children;

  if (seen[track_id])
    return;
  seen[track_id] = TRUE;
  g_array_append_val (order, track_id);
  children = kymo_track_get_children (kymo_trace_get_track (trace, track_id), &n_children);
  for (guint i = 0; i < n_children; i++)
    if (children[i] < kymo_trace_get_n_tracks (trace))
      append_display_order (trace, children[i], order, seen);
}

/* Tracks as the timeline lists them: roots in order, each followed by its
 * children; then any track no root reaches. */
static GArray *
tracks_in_display_order (KymoTrace *trace)
{
  guint n_tracks = kymo_trace_get_n_tracks (trace);
  g_autofree guint8 *seen = g_new0 (guint8, MAX (n_tracks, 1));
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_tracks);
  const guint *roots;
  guint n_roots;

  roots = kymo_trace_get_root_tracks (trace, &n_roots);
  for (guint i = 0; i < n_roots; i++)
    if (roots[i] < n_tracks)
      append_display_order (trace, roots[i], order, seen);
  for (guint i = 0; i < n_tracks; i++)
    if (!seen[i])
      g_array_append_val (order, i);
  return order;
}

static KymoTime
run_start (const Run *run)
{
  guint32 index = g_array_index (run->indexes, guint32, run->pos);

  return run->instants != NULL ? run->instants[index].ts : run->spans[index].start;
}

static gboolean
run_before (const Run *runs,
            guint      a,
            guint      b)
{
  KymoTime sa = run_start (&runs[a]);
  KymoTime sb = run_start (&runs[b]);

  return sa < sb || (sa == sb && a < b);
}

static void
merge_sift_down (const Run *runs,
                 guint     *heap,
                 guint      n,
                 guint      i)
{
  for (;;)
    {
      guint least = i, l = 2 * i + 1, r = l + 1;
      guint tmp;

      if (l < n && run_before (runs, heap[l], heap[least]))
        least = l;
      if (r < n && run_before (runs, heap[r], heap[least]))
        least = r;
      if (least == i)
        return;
      tmp = heap[i];
      heap[i] = heap[least];
      heap[least] = tmp;
      i = least;
    }
}

/* k-way merge of the start-ordered runs: O(n log k) with k the runs that
 * hold a match, never a sort of every match. */
static GArray *
merge_runs (GArray *runs_array)
{
  Run *runs = (Run *) (gpointer) runs_array->data;
  g_autofree guint *heap = g_new (guint, MAX (runs_array->len, 1));
  guint n_heap = 0;
  gsize total = 0;
  GArray *hits;

  for (guint i = 0; i < runs_array->len; i++)
    if (runs[i].indexes != NULL && runs[i].indexes->len > 0)
      {
        heap[n_heap++] = i;
        total += runs[i].indexes->len;
      }
  hits = g_array_sized_new (FALSE, FALSE, sizeof (KymoSearchHit), total);
  for (guint i = n_heap; i-- > 0;)
    merge_sift_down (runs, heap, n_heap, i);

  while (n_heap > 0)
    {
      Run *run = &runs[heap[0]];
      KymoSearchHit hit = { run->track, g_array_index (run->indexes, guint32, run->pos), run->depth };

      g_array_append_val (hits, hit);
      if (++run->pos == run->indexes->len)
        heap[0] = heap[--n_heap];
      merge_sift_down (runs, heap, n_heap, 0);
    }
  return hits;
}

static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  return candidate_better (a, b) ? -1 : candidate_better (b, a) ? 1 : 0;
}

static GArray *
longest_hits (Scan *scan)
{
  GArray *hits = g_array_sized_new (FALSE, FALSE, sizeof (KymoSearchHit), scan->heap->len);

  /* N entries only */
  g_array_sort (scan->heap, compare_candidates);
  for (guint i = 0; i < scan->heap->len; i++)
    {
      const Candidate *c = &g_array_index (scan->heap, Candidate, i);
      const Run *run = &g_array_index (scan->runs, Run, c->run);
      KymoSearchHit hit = { run->track, c->index, run->depth };

      g_array_append_val (hits, hit);
    }
  return hits;
}

static int
compare_counts (gconstpointer a,
                gconstpointer b)
{
  const KymoSearchNameCount *ca = a, *cb = b;

  if (ca->count != cb->count)
    return ca->count > cb->count ? -1 : 1;
  return ca->name_id < cb->name_id ? -1 : ca->name_id > cb->name_id;
}

static KymoSearchResult *
search_scan (KymoSearch    *self,
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
  name_matches = match_names (self->trace, self->needle);
  scan.name_matches = name_matches;
  for (guint i = 0; i < n_names && !any_name; i++)
    any_name = name_matches[i];

  order = tracks_in_display_order (self->trace);
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
  result->hits = self->longest > 0 ? longest_hits (&scan) : merge_runs (runs);
  result->name_counts = g_array_new (FALSE, FALSE, sizeof (KymoSearchNameCount));
  for (guint id = 0; id < n_names; id++)
    if (counts[id] > 0)
      {
        KymoSearchNameCount c = { id, counts[id] };
        g_array_append_val (result->name_counts, c);
      }
  g_array_sort (result->name_counts, compare_counts);
  if (with_event_set)
    result->event_set = build_event_set (self->trace, result->hits);

  scan.done = scan.total;
  report_progress (&scan);
  return result;
}

/* --- KymoSearch --------------------------------------------------------- */

static void
kymo_search_finalize (GObject *object)
{
  KymoSearch *self = KYMO_SEARCH (object);

  g_clear_object (&self->trace);
  g_clear_pointer (&self->query, g_free);
  g_clear_pointer (&self->needle, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (kymo_search_parent_class)->finalize (object);
}

static void
kymo_search_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  KymoSearch *self = KYMO_SEARCH (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, kymo_search_get_fraction (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_search_class_init (KymoSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_search_finalize;
  object_class->get_property = kymo_search_get_property;

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_search_init (KymoSearch *self)
{
  self->from = KYMO_TIME_NONE;
  self->to = KYMO_TIME_NONE;
}

KymoSearch *
kymo_search_new (KymoTrace  *trace,
                 const char *query)
{
  KymoSearch *self;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (kymo_trace_is_sealed (trace), NULL);

  self = g_object_new (KYMO_TYPE_SEARCH, NULL);
  self->trace = g_object_ref (trace);
  self->query = g_strdup (query ? query : "");
  self->needle = kymo_search_fold (self->query);
  return self;
}

void
kymo_search_set_args (KymoSearch *self,
                      gboolean    args)
{
  g_return_if_fail (KYMO_IS_SEARCH (self));
  self->args = !!args;
}

void
kymo_search_set_window (KymoSearch *self,
                        KymoTime    from,
                        KymoTime    to)
{
  g_return_if_fail (KYMO_IS_SEARCH (self));
  self->from = from;
  self->to = to;
}

void
kymo_search_set_longest (KymoSearch *self,
                         guint       n)
{
  g_return_if_fail (KYMO_IS_SEARCH (self));
  self->longest = n;
}

double
kymo_search_get_fraction (KymoSearch *self)
{
  g_return_val_if_fail (KYMO_IS_SEARCH (self), 0.0);
  return g_atomic_int_get (&self->permille) / 1000.0;
}

KymoSearchResult *
kymo_search_run (KymoSearch    *self,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_return_val_if_fail (KYMO_IS_SEARCH (self), NULL);

  return search_scan (self, cancellable, FALSE, error);
}

static void
run_in_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  KymoSearch *self = source_object;
  GError *error = NULL;
  KymoSearchResult *result;

  result = search_scan (self, cancellable, TRUE, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) kymo_search_result_unref);
}

void
kymo_search_run_async (KymoSearch          *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KYMO_IS_SEARCH (self));

  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kymo_search_run_async);
  g_task_set_name (task, "[kymo] search");
  /* a cancelled search reports "cancelled", never a stale result */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, run_in_thread);
}

KymoSearchResult *
kymo_search_run_finish (KymoSearch    *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kymo_search_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
