/* kymo-atf-model.c: CALL/RETURN records → nested spans, and the index ↔
 * detail link tables
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include "kymo-atf-model.h"
#include "kymo-atf-names.h"
#include "kymo-byte-reader.h"

/* Report progress (and check for cancellation) this often. */
#define PROGRESS_STEP 65536
/* How far down the stack a RETURN may look for its CALL. */
#define MAX_SEARCH 256

typedef struct {
  KymoTime start;
  guint64  function_id;
  guint32  name;
  guint32  source;   /* index_seq of the CALL (the copy carrying detail_seq) */
} Frame;

/* A span waiting for its place: spans are added to the track depth by
 * depth, already in the order kymo_trace_seal() keeps, so nothing is sorted
 * and each span's final index is known when it is added. */
typedef struct {
  KymoTime start;
  KymoTime end;
  guint32  name_flags;
  guint32  source;
  guint32  ret;      /* index_seq of the RETURN, or ATF_NO_SEQ */
  guint32  maybe_linked;
} PendingSpan;

typedef struct {
  PendingSpan *v;
  gsize        len;
  gsize        cap;
} SpanRun;

typedef struct {
  KymoTime ts;
  guint32  name;
  guint32  source;
} PendingInstant;

typedef struct {
  AtfThread    *thread;
  AtfNames     *names;
  KymoTrace    *trace;
  KymoTrack    *track;

  Frame        *stack;
  gsize         depth;
  gsize         stack_cap;
  guint64       overflow;       /* CALLs beyond ATF_MAX_DEPTH still open */

  SpanRun      *runs;           /* [ATF_MAX_DEPTH], allocated lazily */
  guint         n_runs;
  GArray       *exceptions;     /* PendingInstant */
  KymoTime      exception_ts;   /* last EXCEPTION, or KYMO_TIME_NONE */

  guint64       n_stray;
  guint64       first_stray;
  guint64       n_deep;
  guint64       n_unknown;
  guint64       first_unknown;
  guint64       n_duplicates;
} Matcher;

static inline KymoTime
clamp_ts (guint64 ts)
{
  return ts > G_MAXINT64 ? G_MAXINT64 : (KymoTime) ts;
}

static PendingSpan *
run_push (Matcher *m,
          guint    depth)
{
  SpanRun *run;

  if (m->runs == NULL)
    m->runs = g_new0 (SpanRun, ATF_MAX_DEPTH);
  m->n_runs = MAX (m->n_runs, depth + 1);
  run = &m->runs[depth];
  if (run->len == run->cap)
    {
      run->cap = MAX (64, run->cap * 2);
      run->v = g_renew (PendingSpan, run->v, run->cap);
    }
  return &run->v[run->len++];
}

/* Seal orders a depth by start, then by longer first: a zero-length span
 * followed by one starting at the same time must swap. */
static gsize
run_fix_order (SpanRun *run)
{
  gsize i;

  for (i = run->len - 1; i > 0; i--)
    {
      PendingSpan *a = &run->v[i - 1], *b = &run->v[i], tmp;

      if (a->start != b->start || a->end >= b->end)
        break;
      tmp = *a;
      *a = *b;
      *b = tmp;
    }
  return i;
}

/* Returns where the span landed in its depth run. */
static gsize
emit (Matcher  *m,
      guint     depth,
      Frame    *frame,
      KymoTime  end,
      guint     flags,
      guint32   ret,
      gboolean  maybe_linked)
{
  PendingSpan *span = run_push (m, depth);

  span->start = frame->start;
  span->end = MAX (end, frame->start);
  span->name_flags = (frame->name & KYMO_NAME_MAX) | (flags << 24);
  span->source = frame->source;
  span->ret = ret;
  span->maybe_linked = maybe_linked;
  return run_fix_order (&m->runs[depth]);
}

static inline guint32
detail_seq_of (const AtfThread *thread,
               guint32          seq)
{
  return kymo_read_u32le (_kymo_atf_index_event (&thread->index, seq) + 28);
}

typedef enum {
  LAST_NONE,
  LAST_FRAME,
  LAST_SPAN,
  LAST_EXCEPTION,
} LastKind;

static gboolean
match_events (Matcher      *m,
              const guint32 *order,
              KymoLoadJob  *job,
              guint64      *done,
              guint64       total,
              GError      **error)
{
  AtfThread *t = m->thread;
  const AtfIndexFile *index = &t->index;
  guint64 prev_fid = 0;
  guint32 prev_kind = 0, prev_depth = 0, prev_dseq = 0;
  gboolean prev_merged = TRUE;
  LastKind last = LAST_NONE;
  guint last_depth = 0;
  gsize last_pos = 0;

  for (guint32 k = 0; k < index->n_events; k++)
    {
      guint32 seq = order ? order[k] : k;
      const guint8 *e = _kymo_atf_index_event (index, seq);
      KymoTime ts = clamp_ts (kymo_read_u64le (e));
      guint64 fid = kymo_read_u64le (e + 8);
      guint32 kind = kymo_read_u32le (e + 20);
      guint32 call_depth = kymo_read_u32le (e + 24);
      guint32 dseq = kymo_read_u32le (e + 28);

      if (G_UNLIKELY ((k & (PROGRESS_STEP - 1)) == 0) && k > 0)
        {
          *done += PROGRESS_STEP;
          if (!kymo_load_job_progress (job, (double) *done / MAX (total, 1), "Reading calls", error))
            return FALSE;
        }

      /* With detail recording on, the real writer stores every record twice:
       * once from the index lane and once, slightly later and carrying
       * detail_seq, from the detail lane. Keep one, linked to the copy that
       * the detail record points back to. */
      if (!prev_merged && kind == prev_kind && fid == prev_fid && call_depth == prev_depth &&
          (dseq != ATF_NO_SEQ) != (prev_dseq != ATF_NO_SEQ))
        {
          prev_merged = TRUE;
          m->n_duplicates++;
          if (dseq == ATF_NO_SEQ)
            continue;
          switch (last)
            {
            case LAST_FRAME:
              m->stack[m->depth - 1].source = seq;
              break;
            case LAST_SPAN:
              {
                SpanRun *run = &m->runs[last_depth];
                run->v[last_pos].ret = seq;
                run->v[last_pos].maybe_linked = TRUE;
              }
              break;
            case LAST_EXCEPTION:
              g_array_index (m->exceptions, PendingInstant, m->exceptions->len - 1).source = seq;
              break;
            case LAST_NONE:
            default:
              break;
            }
          continue;
        }
      prev_merged = FALSE;
      prev_kind = kind;
      prev_fid = fid;
      prev_depth = call_depth;
      prev_dseq = dseq;
      last = LAST_NONE;

      if (kind == 1)
        {
          Frame *frame;

          if (m->depth >= ATF_MAX_DEPTH || m->overflow > 0)
            {
              m->overflow++;
              m->n_deep++;
              continue;
            }
          if (m->depth == m->stack_cap)
            {
              m->stack_cap = MAX (64, m->stack_cap * 2);
              m->stack = g_renew (Frame, m->stack, m->stack_cap);
            }
          frame = &m->stack[m->depth++];
          frame->start = ts;
          frame->function_id = fid;
          frame->name = _kymo_atf_names_lookup (m->names, fid);
          frame->source = seq;
          last = LAST_FRAME;
        }
      else if (kind == 2)
        {
          gsize found = G_MAXSIZE;

          if (m->overflow > 0)
            {
              m->overflow--;
              continue;
            }
          for (gsize i = m->depth, n = 0; i > 0 && n < MAX_SEARCH; i--, n++)
            if (m->stack[i - 1].function_id == fid)
              {
                found = i - 1;
                break;
              }
          if (found == G_MAXSIZE)
            {
              if (m->n_stray++ == 0)
                m->first_stray = (guint64) (index->events - index->data) + (guint64) seq * ATF_EVENT_SIZE;
              continue;
            }
          /* Frames above the one returning were unwound: by the last
           * exception when it came after they started. */
          while (m->depth - 1 > found)
            {
              Frame *frame = &m->stack[--m->depth];
              KymoTime end = ts;

              if (m->exception_ts != KYMO_TIME_NONE && m->exception_ts >= frame->start)
                end = m->exception_ts;
              emit (m, m->depth, frame, end, KYMO_EVENT_WARNING, ATF_NO_SEQ,
                    detail_seq_of (t, frame->source) != ATF_NO_SEQ);
            }
          m->depth--;
          last_pos = emit (m, m->depth, &m->stack[m->depth], ts, 0, seq,
                           dseq != ATF_NO_SEQ || detail_seq_of (t, m->stack[m->depth].source) != ATF_NO_SEQ);
          last = LAST_SPAN;
          last_depth = m->depth;
        }
      else if (kind == 3)
        {
          PendingInstant exception;
          g_autofree char *label = NULL;

          label = g_strdup_printf ("exception in %s",
                                   kymo_trace_get_name (m->trace, _kymo_atf_names_lookup (m->names, fid)));
          exception.ts = ts;
          exception.name = kymo_trace_intern (m->trace, label);
          exception.source = seq;
          g_array_append_val (m->exceptions, exception);
          m->exception_ts = ts;
          last = LAST_EXCEPTION;
        }
      else
        {
          if (m->n_unknown++ == 0)
            m->first_unknown = (guint64) (index->events - index->data) + (guint64) seq * ATF_EVENT_SIZE;
        }
    }
  *done += index->n_events & (PROGRESS_STEP - 1);
  return TRUE;
}

static void
add_spans (Matcher *m)
{
  AtfThread *t = m->thread;
  guint32 index = 0;
  gboolean has_detail = t->detail.n_records > 0;
  gsize total = 0;

  for (guint d = 0; d < m->n_runs; d++)
    total += m->runs[d].len;
  kymo_track_reserve_spans (m->track, total);

  for (guint d = 0; d < m->n_runs; d++)
    {
      SpanRun *run = &m->runs[d];

      for (gsize i = 0; i < run->len; i++, index++)
        {
          PendingSpan *s = &run->v[i];
          guint flags = s->name_flags >> 24;

          if (s->maybe_linked && has_detail)
            {
              guint32 call_detail = detail_seq_of (t, s->source);
              guint32 ret_detail = s->ret != ATF_NO_SEQ ? detail_seq_of (t, s->ret) : ATF_NO_SEQ;
              gboolean linked = FALSE;

              if (_kymo_atf_linked (t, s->source, call_detail))
                {
                  t->det_target[call_detail] = index;
                  linked = TRUE;
                }
              if (s->ret != ATF_NO_SEQ && _kymo_atf_linked (t, s->ret, ret_detail))
                {
                  t->det_target[ret_detail] = index;
                  linked = TRUE;
                }
              if (linked)
                {
                  flags |= KYMO_EVENT_LINKED;
                  if (s->ret != ATF_NO_SEQ)
                    g_hash_table_insert (t->ret_links, GUINT_TO_POINTER (index + 1), GUINT_TO_POINTER (s->ret + 1));
                }
            }
          kymo_track_add_span (m->track, s->start, s->end, s->name_flags & KYMO_NAME_MAX, d, flags, s->source);
        }
      g_clear_pointer (&run->v, g_free);
      run->len = run->cap = 0;
    }
}

static void
add_exceptions (Matcher *m)
{
  AtfThread *t = m->thread;

  for (guint i = 0; i < m->exceptions->len; i++)
    {
      PendingInstant *e = &g_array_index (m->exceptions, PendingInstant, i);
      guint32 dseq = detail_seq_of (t, e->source);
      guint flags = KYMO_EVENT_WARNING;

      if (_kymo_atf_linked (t, e->source, dseq))
        {
          t->det_target[dseq] = ATF_TARGET_INSTANT | i;
          flags |= KYMO_EVENT_LINKED;
        }
      kymo_track_add_instant (m->track, e->ts, e->name, flags, e->source);
    }
}

static void
add_details (AtfThread *t,
             AtfNames  *names,
             KymoTrace *trace)
{
  KymoTrack *track;
  guint32 fallback = kymo_trace_intern (trace, "detail record");

  if (t->detail.n_records == 0)
    return;
  track = kymo_trace_get_track (trace, t->detail_track);
  for (guint32 j = 0; j < t->detail.n_records; j++)
    {
      AtfDetailRecord r;
      guint32 name = fallback;
      guint flags = 0;

      _kymo_atf_detail_get (&t->detail, j, &r);
      if (_kymo_atf_linked (t, r.index_seq, j))
        {
          flags |= KYMO_EVENT_LINKED;
          name = _kymo_atf_names_lookup (names, kymo_read_u64le (_kymo_atf_index_event (&t->index, r.index_seq) + 8));
        }
      else if (r.has_payload)
        name = _kymo_atf_names_lookup (names, r.function_id);
      kymo_track_add_instant (track, clamp_ts (r.ts), name, flags, j);
    }
}

static void
warn_thread (KymoTrace *trace,
             AtfThread *t,
             Matcher   *m)
{
  if (m->n_stray)
    kymo_trace_add_warning (trace, m->first_stray, KYMO_TIME_NONE,
                            "Thread %u: %" G_GUINT64_FORMAT " RETURN record(s) without a matching CALL (first at offset %" G_GUINT64_FORMAT ")",
                            t->number, m->n_stray, m->first_stray);
  if (m->n_deep)
    kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                            "Thread %u: %" G_GUINT64_FORMAT " call(s) deeper than %u levels are not shown",
                            t->number, m->n_deep, ATF_MAX_DEPTH);
  if (m->n_unknown)
    kymo_trace_add_warning (trace, m->first_unknown, KYMO_TIME_NONE,
                            "Thread %u: %" G_GUINT64_FORMAT " record(s) of unknown kind (first at offset %" G_GUINT64_FORMAT ")",
                            t->number, m->n_unknown, m->first_unknown);
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

gboolean
_kymo_atf_build_thread (KymoLoadJob  *job,
                        KymoTrace    *trace,
                        AtfThread    *t,
                        AtfNames     *names,
                        const guint32 *order,
                        KymoTime      trace_end,
                        guint64      *done,
                        guint64       total,
                        GError      **error)
{
  Matcher m = { 0 };
  gboolean ok;

  m.thread = t;
  m.names = names;
  m.trace = trace;
  m.track = kymo_trace_get_track (trace, t->track);
  m.exceptions = g_array_new (FALSE, FALSE, sizeof (PendingInstant));
  m.exception_ts = KYMO_TIME_NONE;

  if (t->detail.n_records > 0)
    {
      t->det_target = g_new (guint32, t->detail.n_records);
      memset (t->det_target, 0xFF, sizeof (guint32) * t->detail.n_records);
    }

  ok = match_events (&m, order, job, done, total, error);

  /* A CALL never returned runs to the end of the trace. */
  while (ok && m.depth > 0)
    {
      Frame *frame = &m.stack[--m.depth];
      emit (&m, m.depth, frame, MAX (trace_end, frame->start), KYMO_EVENT_INCOMPLETE, ATF_NO_SEQ,
            detail_seq_of (t, frame->source) != ATF_NO_SEQ);
    }

  if (ok)
    {
      add_spans (&m);
      add_exceptions (&m);
      add_details (t, names, trace);
      warn_thread (trace, t, &m);
    }

  if (m.runs)
    for (guint d = 0; d < m.n_runs; d++)
      g_free (m.runs[d].v);
  g_free (m.runs);
  g_free (m.stack);
  g_array_unref (m.exceptions);
  return ok;
}

/* After kymo_trace_seal(): detail instants were sorted by time, so find
 * where each detail record landed. */
void
_kymo_atf_index_details (KymoTrace *trace,
                         AtfThread *t)
{
  const KymoInstant *instants;
  gsize n;

  if (t->detail.n_records == 0 || t->detail_track == KYMO_NO_TRACK)
    return;
  t->det_instant = g_new (guint32, t->detail.n_records);
  memset (t->det_instant, 0xFF, sizeof (guint32) * t->detail.n_records);
  instants = kymo_track_get_instants (kymo_trace_get_track (trace, t->detail_track), &n);
  for (gsize i = 0; i < n; i++)
    if (instants[i].source < t->detail.n_records)
      t->det_instant[instants[i].source] = (guint32) i;
}
