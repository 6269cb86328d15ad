/* kymo-atf-model.c: a thread's build: matched in the right order, side by
 * side or interning as it goes, its local names renamed, finished into its
 * track
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"
#include "config.h"

#include <string.h>

#include "kymo-atf-matcher-private.h"
#include "kymo-page-queue.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

/* The thread's index is read from end to end: its pages are mapped in one
 * call for less than a fault every few pages costs. Only advice. */
static void
populate_read (const guint8 *mem,
               gsize         len)
{
#if defined(__linux__) && defined(MADV_POPULATE_READ)
  gsize page = kymo_page_size ();
  guintptr from = (guintptr) mem & ~(guintptr) (page - 1);
  guintptr to = ((guintptr) mem + len) & ~(guintptr) (page - 1);

  if (mem != NULL && from < to)
    (void) madvise ((void *) from, to - from, MADV_POPULATE_READ);
#endif
}

void
_kymo_atf_warn_thread (KymoTrace         *trace,
                       const AtfThread   *t,
                       const AtfWarnings *w)
{
  if (w->n_stray)
    kymo_trace_add_warning (trace, w->first_stray, KYMO_TIME_NONE,
                            "Thread %u: %" G_GUINT64_FORMAT " RETURN record(s) without a matching CALL (first at offset %" G_GUINT64_FORMAT ")",
                            t->number, w->n_stray, w->first_stray);
  if (w->n_deep)
    kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                            "Thread %u: %" G_GUINT64_FORMAT " call(s) deeper than %u levels are not shown",
                            t->number, w->n_deep, ATF_MAX_DEPTH);
  if (w->n_unknown)
    kymo_trace_add_warning (trace, w->first_unknown, KYMO_TIME_NONE,
                            "Thread %u: %" G_GUINT64_FORMAT " record(s) of unknown kind (first at offset %" G_GUINT64_FORMAT ")",
                            t->number, w->n_unknown, w->first_unknown);
}

static int
compare_by_ts (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const AtfIndexFile *index = user_data;
  guint32 sa = *(const guint32 *) a, sb = *(const guint32 *) b;
  guint64 ta = kymo_read_u64le (_kymo_atf_index_event (index, sa));
  guint64 tb = kymo_read_u64le (_kymo_atf_index_event (index, sb));

  if (ta != tb)
    return ta < tb ? -1 : 1;
  return sa < sb ? -1 : sa > sb;
}

/* Records in time order: the file's own order unless the writer went back
 * in time (it does, with detail recording on). */
guint32 *
_kymo_atf_time_order (const AtfIndexFile *index,
                      KymoTime           *max_ts)
{
  guint64 prev = 0, max = 0;
  gboolean sorted = TRUE;
  guint32 *order;

  for (guint32 k = 0; k < index->n_events; k++)
    {
      guint64 ts = kymo_read_u64le (_kymo_atf_index_event (index, k));

      sorted &= ts >= prev;
      prev = ts;
      max = MAX (max, ts);
    }
  if (max_ts && index->n_events)
    *max_ts = clamp_ts (max);
  if (sorted)
    return NULL;

  order = g_new (guint32, index->n_events);
  for (guint32 k = 0; k < index->n_events; k++)
    order[k] = k;
  g_qsort_with_data (order, index->n_events, sizeof (guint32), compare_by_ts, (gpointer) index);
  return order;
}

AtfBuild *
_kymo_atf_build_new (KymoTrace *trace,
                     AtfThread *thread)
{
  AtfBuild *b = g_new0 (AtfBuild, 1);

  b->m.thread = thread;
  b->m.trace = trace;
  b->max_ts = KYMO_TIME_NONE;
  return b;
}

/* Forgets what a previous pass produced. */
static void
matcher_reset (Matcher *m)
{
  for (guint d = 0; m->runs != NULL && d < m->n_runs; d++)
    _kymo_atf_run_free (&m->runs[d]);
  m->n_runs = 0;
  m->reported = 0;
  if (m->exception_names != NULL)
    g_hash_table_remove_all (m->exception_names);
  m->depth = 0;
  m->overflow = 0;
  m->max_ts = KYMO_TIME_NONE;
  m->unsorted = FALSE;
  m->blocked = FALSE;
  m->n_duplicates = 0;
  memset (&m->warn, 0, sizeof m->warn);
  if (m->exceptions != NULL)
    g_array_set_size (m->exceptions, 0);
  m->exception_ts = KYMO_TIME_NONE;
}

void
_kymo_atf_build_free (AtfBuild *b)
{
  Matcher *m = &b->m;

  for (guint d = 0; m->runs != NULL && d < m->n_runs; d++)
    _kymo_atf_run_free (&m->runs[d]);
  g_free (m->runs);
  g_free (m->stack);
  g_clear_pointer (&m->exceptions, g_array_unref);
  g_clear_pointer (&m->exception_names, g_hash_table_unref);
  g_free (b->order);
  g_free (b->detail_names);
  g_free (b->remap);
  _kymo_atf_matcher_clear_local_names (m);
  g_free (b);
}

/* Matching and the names of the detail records. */
static AtfBuildResult
build_match (AtfBuild *b,
             GError  **error)
{
  Matcher *m = &b->m;
  AtfThread *t = m->thread;
  gboolean ok;

  if (m->stack == NULL)
    {
      m->stack = g_new (Frame, ATF_MAX_DEPTH);
      m->runs = g_new0 (SpanRun, ATF_MAX_DEPTH);
      m->exceptions = g_array_new (FALSE, FALSE, sizeof (PendingInstant));
    }
  if (m->exception_names == NULL)
    m->exception_names = g_hash_table_new (NULL, NULL);
  g_clear_pointer (&b->detail_names, g_free);
  m->has_detail = t->detail.n_records > 0;

  matcher_reset (m);
  /* Interning as it goes, a match must not start in the wrong order: the
   * order is found first. Side by side, the match finds it on its way. */
  if (!b->order_known && !m->read_only)
    {
      b->order = _kymo_atf_time_order (&t->index, NULL);
      b->order_known = TRUE;
    }
  m->check_order = !b->order_known;

  g_clear_pointer (&t->det_target, g_free);
  if (t->detail.n_records > 0)
    {
      t->det_target = g_new (guint32, t->detail.n_records);
      memset (t->det_target, 0xFF, sizeof (guint32) * t->detail.n_records);
    }

  populate_read (t->index.events, (gsize) t->index.n_events * ATF_EVENT_SIZE);
  ok = _kymo_atf_matcher_match (m, b->order, error);
  if (!ok && m->unsorted)
    {
      /* The writer went back in time (it does, with detail recording on):
       * the caller starts again in time order. */
      g_atomic_pointer_add (&m->progress->done, -(gssize) m->reported);
      b->order = _kymo_atf_time_order (&t->index, NULL);
      b->order_known = TRUE;
      return ATF_BUILD_STOPPED;
    }
  /* Blocked or cancelled, it may not have seen every record. */
  b->order_known |= ok;
  if (ok)
    ok = _kymo_atf_resolve_detail_names (m, &b->detail_names);
  if (ok)
    {
      b->max_ts = m->max_ts;
      b->warn = m->warn;
      return ATF_BUILD_DONE;
    }
  if (m->blocked)
    {
      g_clear_pointer (&t->det_target, g_free);
      return ATF_BUILD_BLOCKED;
    }
  return ATF_BUILD_STOPPED;
}

static AtfBuildResult
build_match_with (AtfBuild       *b,
                  const AtfNames *names,
                  gboolean        read_only,
                  AtfProgress    *progress,
                  KymoLoadJob    *job,
                  GError        **error)
{
  Matcher *m = &b->m;
  AtfNames local;
  AtfBuildResult result;

  m->read_only = read_only;
  m->progress = progress;
  m->job = job;
  do
    {
      /* A private table: the one of the process is read by the other
       * threads. A match started again starts from it again. */
      _kymo_atf_names_copy (&local, names);
      m->names = &local;
      m->unsorted = FALSE;
      _kymo_atf_matcher_clear_local_names (m);
      result = build_match (b, error);
      if (m->unsorted)
        _kymo_atf_names_clear (&local);
    }
  while (m->unsorted);
  m->names = NULL;
  m->job = NULL;
  _kymo_atf_names_clear (&local);
  if (result != ATF_BUILD_DONE)
    _kymo_atf_matcher_clear_local_names (m);
  return result;
}

gboolean
_kymo_atf_build_match (AtfBuild       *b,
                       const AtfNames *names,
                       AtfProgress    *progress,
                       KymoLoadJob    *job,
                       GError        **error)
{
  return build_match_with (b, names, FALSE, progress, job, error) == ATF_BUILD_DONE;
}

AtfBuildResult
_kymo_atf_build_match_parallel (AtfBuild       *b,
                                const AtfNames *names,
                                AtfProgress    *progress,
                                KymoLoadJob    *job,
                                GError        **error)
{
  return build_match_with (b, names, TRUE, progress, job, error);
}

gboolean
_kymo_atf_build_learns (const AtfBuild *b)
{
  return b->m.local_calls != NULL && b->m.local_calls->len > 0;
}

void
_kymo_atf_build_intern_names (AtfBuild  *b,
                              KymoTrace *trace,
                              AtfNames  *learn)
{
  Matcher *m = &b->m;

  if (!has_local_names (m))
    return;
  b->n_remap = m->local_texts->len;
  b->remap_spans = _kymo_atf_build_learns (b);
  b->remap = g_new (guint32, b->n_remap);
  for (guint k = 0; k < b->n_remap; k++)
    b->remap[k] = kymo_trace_intern (trace, g_ptr_array_index (m->local_texts, k));
  for (guint i = 0; learn != NULL && m->local_calls != NULL && i < m->local_calls->len; i++)
    {
      const LocalCall *call = &g_array_index (m->local_calls, LocalCall, i);
      _kymo_atf_names_put (learn, call->function_id, remapped (b, call->name));
    }
  _kymo_atf_matcher_clear_local_names (m);
}

/* Local name ids → the trace's, everywhere the match left them. */
static void
apply_remap (AtfBuild *b)
{
  Matcher *m = &b->m;

  for (gsize i = 0; i < m->depth; i++)
    m->stack[i].name = remapped (b, m->stack[i].name);
  for (guint i = 0; m->exceptions != NULL && i < m->exceptions->len; i++)
    {
      PendingInstant *e = &g_array_index (m->exceptions, PendingInstant, i);
      e->name = remapped (b, e->name);
    }
  for (guint32 j = 0; b->detail_names != NULL && j < m->thread->detail.n_records; j++)
    b->detail_names[j] = remapped (b, b->detail_names[j]);
}

KymoTime
_kymo_atf_build_max_ts (const AtfBuild *b)
{
  return b->max_ts;
}

gboolean
_kymo_atf_build_is_open (const AtfBuild *b)
{
  return b->m.depth > 0;
}

const AtfWarnings *
_kymo_atf_build_warnings (const AtfBuild *b)
{
  return &b->warn;
}

gboolean
_kymo_atf_build_has_links (const AtfBuild *b)
{
  return b->m.has_detail;
}

void
_kymo_atf_build_trim (AtfBuild *b)
{
  Matcher *m = &b->m;

  /* Finishing reads the open frames and the runs, never matches again;
   * a session of many threads would otherwise keep a full stack each. */
  if (m->stack != NULL)
    m->stack = g_renew (Frame, m->stack, MAX (m->depth, 1));
  if (m->runs != NULL)
    m->runs = g_renew (SpanRun, m->runs, MAX (m->n_runs, 1));
  g_clear_pointer (&m->exception_names, g_hash_table_unref);
}

/* Interns nothing: threads are finished side by side. */
void
_kymo_atf_build_finish (AtfBuild *b,
                        KymoTime  trace_end)
{
  Matcher *m = &b->m;
  AtfThread *t = m->thread;

  if (b->finished)
    return;
  b->finished = TRUE;
  if (b->remap != NULL)
    apply_remap (b);
  /* Spans are named after functions: with a symbol table, only exception
   * labels and detail records may have taken local names. */
  _kymo_atf_place_spans (m, b, b->remap != NULL && b->remap_spans, m->depth);
  g_clear_pointer (&b->remap, g_free);
  b->n_remap = 0;
  /* A CALL never returned runs to the end of the trace. */
  _kymo_atf_matcher_close_open (m, trace_end);
  _kymo_atf_link_spans (m);
  _kymo_atf_add_exceptions (m);
  _kymo_atf_add_details (t, m->trace, b->detail_names);
  for (guint d = 0; d < m->n_runs; d++)
    g_free (m->runs[d].links);
  g_clear_pointer (&m->runs, g_free);
  g_clear_pointer (&m->stack, g_free);
  g_clear_pointer (&m->exceptions, g_array_unref);
  g_clear_pointer (&m->exception_names, g_hash_table_unref);
  m->n_runs = 0;
}
