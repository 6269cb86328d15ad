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

/* What linking a span needs, kept only for threads with detail records. */
typedef struct {
  guint32  ret;      /* index_seq of the RETURN, or ATF_NO_SEQ */
  guint32  maybe_linked;
} SpanLink;

/* Spans waiting for their place, one run per depth: they go to the track
 * depth by depth, already in the order kymo_trace_seal() keeps, so nothing
 * is sorted and each span's final index is known when it is added. A run
 * grows by fixed chunks: nothing is moved while matching, and the chunks
 * freed by one thread are reused (still mapped) by the next. */
#define CHUNK_SHIFT 12
#define CHUNK_LEN   (1u << CHUNK_SHIFT)
#define CHUNK_MASK  (CHUNK_LEN - 1)

typedef struct {
  KymoSpan   **chunks;
  SpanLink   **links;   /* parallel to chunks, or NULL without detail records */
  gsize        n_chunks;
  gsize        len;
} SpanRun;

/* Chunks given back by the threads built so far, for the next ones: their
 * pages are mapped already, where fresh ones would fault in one by one. */
struct _AtfChunkPool
{
  GMutex     lock;
  GPtrArray *spans;   /* KymoSpan[CHUNK_LEN] */
  GPtrArray *links;   /* SpanLink[CHUNK_LEN] */
};

AtfChunkPool *
_kymo_atf_chunk_pool_new (void)
{
  AtfChunkPool *pool = g_new0 (AtfChunkPool, 1);

  g_mutex_init (&pool->lock);
  pool->spans = g_ptr_array_new_with_free_func (g_free);
  pool->links = g_ptr_array_new_with_free_func (g_free);
  return pool;
}

void
_kymo_atf_chunk_pool_free (AtfChunkPool *pool)
{
  if (pool == NULL)
    return;
  g_ptr_array_unref (pool->spans);
  g_ptr_array_unref (pool->links);
  g_mutex_clear (&pool->lock);
  g_free (pool);
}

static gpointer
pool_take (AtfChunkPool *pool,
           gboolean      links)
{
  gpointer chunk = NULL;

  if (pool != NULL)
    {
      GPtrArray *free_chunks = links ? pool->links : pool->spans;

      g_mutex_lock (&pool->lock);
      if (free_chunks->len > 0)
        chunk = g_ptr_array_steal_index_fast (free_chunks, free_chunks->len - 1);
      g_mutex_unlock (&pool->lock);
    }
  if (chunk == NULL)
    chunk = links ? (gpointer) g_new (SpanLink, CHUNK_LEN) : (gpointer) g_new (KymoSpan, CHUNK_LEN);
  return chunk;
}

static void
pool_give (AtfChunkPool *pool,
           gpointer      chunk,
           gboolean      links)
{
  if (pool == NULL)
    {
      g_free (chunk);
      return;
    }
  g_mutex_lock (&pool->lock);
  g_ptr_array_add (links ? pool->links : pool->spans, chunk);
  g_mutex_unlock (&pool->lock);
}

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
  AtfChunkPool *pool;           /* or NULL */

  Frame        *stack;          /* [ATF_MAX_DEPTH] */
  gsize         depth;
  guint64       overflow;       /* CALLs beyond ATF_MAX_DEPTH still open */

  SpanRun      *runs;           /* [ATF_MAX_DEPTH] */
  guint         n_runs;
  GArray       *exceptions;     /* PendingInstant */
  KymoTime      exception_ts;   /* last EXCEPTION, or KYMO_TIME_NONE */

  gboolean      has_detail;
  AtfWarnings   warn;
  guint64       n_duplicates;

  /* Progress: through the job, or (on a worker thread) through @shared. */
  KymoLoadJob  *job;
  guint64      *done;
  guint64       total;
  AtfProgress  *shared;
  /* On a worker thread nothing is interned: a name the trace does not have
   * yet (a session without symbols has none) takes a local id, counted
   * down from LOCAL_NAME_TOP in the order of first use. The loading thread
   * interns them thread by thread in order, as a sequential build would,
   * and the ids are rewritten when the thread is finished: so name ids do
   * not depend on thread timing. Past MAX_LOCAL_NAMES the build blocks
   * and is redone in order on the loading thread. */
  gboolean      read_only;
  gboolean      blocked;
  const AtfNames *origin;       /* the table @names was copied from */
  GPtrArray    *local_texts;    /* char *, by local index */
  GHashTable   *local_index;    /* text → local index + 1 */
  /* Checked while matching in file order: a record earlier than the one
   * before stops the match (@unsorted), which is then redone in time order. */
  gboolean      check_order;
  gboolean      unsorted;
  KymoTime      max_ts;         /* latest record, or KYMO_TIME_NONE */
} Matcher;

static inline KymoTime
clamp_ts (guint64 ts)
{
  return ts > G_MAXINT64 ? G_MAXINT64 : (KymoTime) ts;
}

static inline KymoSpan *
run_span (SpanRun *run,
          gsize    i)
{
  return &run->chunks[i >> CHUNK_SHIFT][i & CHUNK_MASK];
}

static inline SpanLink *
run_link (SpanRun *run,
          gsize    i)
{
  return &run->links[i >> CHUNK_SHIFT][i & CHUNK_MASK];
}

static G_GNUC_NO_INLINE void
run_grow (Matcher *m,
          SpanRun *run)
{
  /* Chunk pointer arrays double; a run of n spans has n / CHUNK_LEN + 1. */
  if ((run->n_chunks & (run->n_chunks - 1)) == 0)
    {
      gsize cap = MAX (run->n_chunks * 2, 1);

      run->chunks = g_renew (KymoSpan *, run->chunks, cap);
      if (m->has_detail)
        run->links = g_renew (SpanLink *, run->links, cap);
    }
  run->chunks[run->n_chunks] = pool_take (m->pool, FALSE);
  if (m->has_detail)
    run->links[run->n_chunks] = pool_take (m->pool, TRUE);
  run->n_chunks++;
}

static void
run_clear (Matcher *m,
           SpanRun *run)
{
  for (gsize c = 0; c < run->n_chunks; c++)
    {
      pool_give (m->pool, run->chunks[c], FALSE);
      if (run->links)
        pool_give (m->pool, run->links[c], TRUE);
    }
  g_clear_pointer (&run->chunks, g_free);
  g_clear_pointer (&run->links, g_free);
  run->n_chunks = run->len = 0;
}

/* Seal orders a depth by start, then by longer first: a zero-length span
 * followed by one starting at the same time must swap. */
static G_GNUC_NO_INLINE gsize
run_fix_order (SpanRun *run)
{
  gsize i;

  for (i = run->len - 1; i > 0; i--)
    {
      KymoSpan *a = run_span (run, i - 1), *b = run_span (run, i), tmp;

      if (a->start != b->start || a->end >= b->end)
        break;
      tmp = *a;
      *a = *b;
      *b = tmp;
      if (run->links)
        {
          SpanLink *la = run_link (run, i - 1), *lb = run_link (run, i), link = *la;

          *la = *lb;
          *lb = link;
        }
    }
  return i;
}

/* Returns where the span landed in its depth run. */
static inline gsize
emit (Matcher  *m,
      guint     depth,
      Frame    *frame,
      KymoTime  end,
      guint     flags,
      guint32   ret,
      gboolean  maybe_linked)
{
  SpanRun *run = &m->runs[depth];
  gsize i = run->len;
  KymoSpan *span;

  if (G_UNLIKELY ((i & CHUNK_MASK) == 0))
    run_grow (m, run);
  span = run_span (run, i);
  span->start = frame->start;
  span->end = MAX (end, frame->start);
  span->name_flags = (frame->name & KYMO_NAME_MAX) | (flags << 24);
  span->source = frame->source;
  if (run->links)
    {
      SpanLink *link = run_link (run, i);

      link->ret = ret;
      link->maybe_linked = maybe_linked;
    }
  run->len = i + 1;
  /* Nothing to reorder unless the previous span starts at the same time. */
  if (G_LIKELY (i == 0 || run_span (run, i - 1)->start != span->start))
    return i;
  return run_fix_order (run);
}

static gboolean
report_progress (Matcher  *m,
                 guint64   n,
                 GError  **error)
{
  if (m->shared != NULL)
    {
      g_atomic_pointer_add (&m->shared->done, (gssize) n);
      return !g_atomic_int_get (&m->shared->cancelled);
    }
  *m->done += n;
  return kymo_load_job_progress (m->job, (double) *m->done / MAX (m->total, 1), "Reading calls", error);
}

#define LOCAL_NAME_TOP  (KYMO_NAME_MAX - 1)
#define MAX_LOCAL_NAMES (1u << 20)

static inline guint32
local_id (guint k)
{
  return LOCAL_NAME_TOP - k;
}

static gboolean
local_name (Matcher    *m,
            const char *text,
            guint32    *name)
{
  gpointer found;
  char *copy;

  if (m->local_texts == NULL)
    {
      m->local_texts = g_ptr_array_new_with_free_func (g_free);
      m->local_index = g_hash_table_new (g_str_hash, g_str_equal);
    }
  found = g_hash_table_lookup (m->local_index, text);
  if (found != NULL)
    {
      *name = local_id (GPOINTER_TO_UINT (found) - 1);
      return TRUE;
    }
  /* The trace's own ids must stay below the local ones. */
  if (m->local_texts->len >= MAX_LOCAL_NAMES ||
      kymo_trace_get_n_names (m->trace) >= local_id (MAX_LOCAL_NAMES))
    {
      m->blocked = TRUE;
      return FALSE;
    }
  copy = g_strdup (text);
  g_ptr_array_add (m->local_texts, copy);
  g_hash_table_insert (m->local_index, copy, GUINT_TO_POINTER (m->local_texts->len));
  *name = local_id (m->local_texts->len - 1);
  return TRUE;
}

static void
local_names_clear (Matcher *m)
{
  g_clear_pointer (&m->local_index, g_hash_table_unref);
  g_clear_pointer (&m->local_texts, g_ptr_array_unref);
}

static inline gboolean
has_local_names (const Matcher *m)
{
  return m->local_texts != NULL && m->local_texts->len > 0;
}

static const char *
name_text (Matcher *m,
           guint32  name)
{
  if (has_local_names (m) && name <= LOCAL_NAME_TOP && name > LOCAL_NAME_TOP - m->local_texts->len)
    return g_ptr_array_index (m->local_texts, LOCAL_NAME_TOP - name);
  return kymo_trace_get_name (m->trace, name);
}

static G_GNUC_NO_INLINE gboolean
name_of_slow (Matcher  *m,
              guint64   function_id,
              guint32  *name)
{
  if (!m->read_only)
    {
      *name = _kymo_atf_names_slow (m->names, function_id);
      return TRUE;
    }
  if (_kymo_atf_names_resolve (m->names, function_id, FALSE, name))
    return TRUE;
  {
    g_autofree char *text = _kymo_atf_unresolved (function_id);

    if (!local_name (m, text, name))
      return FALSE;
  }
  _kymo_atf_names_put (m->names, function_id, *name);
  return TRUE;
}

static inline gboolean
name_of (Matcher  *m,
         guint64   function_id,
         guint32  *name)
{
  guint slot = _kymo_atf_names_hash (function_id) & (ATF_NAME_CACHE - 1);

  if (G_LIKELY (m->names->cache[slot].name != 0 && m->names->cache[slot].function_id == function_id))
    {
      *name = m->names->cache[slot].name - 1;
      return TRUE;
    }
  return name_of_slow (m, function_id, name);
}

static gboolean
intern (Matcher    *m,
        const char *text,
        guint32    *name)
{
  if (!m->read_only)
    {
      *name = kymo_trace_intern (m->trace, text);
      return TRUE;
    }
  *name = kymo_trace_lookup_name (m->trace, text);
  if (*name != G_MAXUINT32)
    return TRUE;
  return local_name (m, text, name);
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

/* The loop over a thread's records, in file order (@order NULL) or in
 * @order; inlined twice so that the file-order loop reads records in place
 * without an extra load per record. */
static inline G_ALWAYS_INLINE gboolean
match_events_in (Matcher       *m,
                 const guint32 *order,
                 GError       **error)
{
  AtfThread *t = m->thread;
  const AtfIndexFile *index = &t->index;
  guint64 prev_fid = 0;
  guint32 prev_kind = 0, prev_depth = 0, prev_dseq = 0;
  gboolean prev_merged = TRUE;
  LastKind last = LAST_NONE;
  guint last_depth = 0;
  gsize last_pos = 0;
  guint32 n = index->n_events;
  gboolean check = order == NULL && m->check_order;
  guint64 prev_ts = 0, max_ts = 0;

  for (guint32 block = 0; block < n; )
    {
      guint32 block_end = n - block > PROGRESS_STEP ? block + PROGRESS_STEP : n;

      if (block > 0 && !report_progress (m, PROGRESS_STEP, error))
        return FALSE;

      for (guint32 k = block; k < block_end; k++)
        {
          guint32 seq = order ? order[k] : k;
          const guint8 *e = _kymo_atf_index_event (index, seq);
          guint64 raw_ts = kymo_read_u64le (e);
          KymoTime ts = clamp_ts (raw_ts);
          guint64 fid = kymo_read_u64le (e + 8);
          guint32 kind = kymo_read_u32le (e + 20);
          guint32 call_depth = kymo_read_u32le (e + 24);
          guint32 dseq = kymo_read_u32le (e + 28);

          if (check)
            {
              if (G_UNLIKELY (raw_ts < prev_ts))
                {
                  m->unsorted = TRUE;
                  return FALSE;
                }
              prev_ts = raw_ts;
            }
          max_ts = MAX (max_ts, raw_ts);

          /* With detail recording on, the real writer stores every record twice:
           * once from the index lane and once, slightly later and carrying
           * detail_seq, from the detail lane. Keep one, linked to the copy that
           * the detail record points back to. */
          if (G_UNLIKELY (!prev_merged && kind == prev_kind && fid == prev_fid && call_depth == prev_depth &&
                          (dseq != ATF_NO_SEQ) != (prev_dseq != ATF_NO_SEQ)))
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
                    if (run->links)
                      {
                        run_link (run, last_pos)->ret = seq;
                        run_link (run, last_pos)->maybe_linked = TRUE;
                      }
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
              guint32 name;

              if (G_UNLIKELY (m->depth >= ATF_MAX_DEPTH || m->overflow > 0))
                {
                  m->overflow++;
                  m->warn.n_deep++;
                  continue;
                }
              if (!name_of (m, fid, &name))
                return FALSE;
              frame = &m->stack[m->depth++];
              frame->start = ts;
              frame->function_id = fid;
              frame->name = name;
              frame->source = seq;
              m->n_runs = MAX (m->n_runs, (guint) m->depth);
              last = LAST_FRAME;
            }
          else if (kind == 2)
            {
              gsize found = G_MAXSIZE;

              if (G_UNLIKELY (m->overflow > 0))
                {
                  m->overflow--;
                  continue;
                }
              if (G_LIKELY (m->depth > 0 && m->stack[m->depth - 1].function_id == fid))
                found = m->depth - 1;
              else
                for (gsize i = m->depth, j = 0; i > 0 && j < MAX_SEARCH; i--, j++)
                  if (m->stack[i - 1].function_id == fid)
                    {
                      found = i - 1;
                      break;
                    }
              if (G_UNLIKELY (found == G_MAXSIZE))
                {
                  if (m->warn.n_stray++ == 0)
                    m->warn.first_stray = (guint64) (index->events - index->data) + (guint64) seq * ATF_EVENT_SIZE;
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
                        m->has_detail && detail_seq_of (t, frame->source) != ATF_NO_SEQ);
                }
              m->depth--;
              last_pos = emit (m, m->depth, &m->stack[m->depth], ts, 0, seq,
                               m->has_detail &&
                               (dseq != ATF_NO_SEQ || detail_seq_of (t, m->stack[m->depth].source) != ATF_NO_SEQ));
              last = LAST_SPAN;
              last_depth = m->depth;
            }
          else if (kind == 3)
            {
              PendingInstant exception;
              g_autofree char *label = NULL;
              guint32 name;

              if (!name_of (m, fid, &name))
                return FALSE;
              label = g_strdup_printf ("exception in %s", name_text (m, name));
              exception.ts = ts;
              if (!intern (m, label, &exception.name))
                return FALSE;
              exception.source = seq;
              g_array_append_val (m->exceptions, exception);
              m->exception_ts = ts;
              last = LAST_EXCEPTION;
            }
          else
            {
              if (m->warn.n_unknown++ == 0)
                m->warn.first_unknown = (guint64) (index->events - index->data) + (guint64) seq * ATF_EVENT_SIZE;
            }
        }
      block = block_end;
    }
  m->max_ts = n > 0 ? clamp_ts (max_ts) : KYMO_TIME_NONE;
  return report_progress (m, n & (PROGRESS_STEP - 1), error);
}

static gboolean
match_events (Matcher       *m,
              const guint32 *order,
              GError       **error)
{
  if (order != NULL)
    return match_events_in (m, order, error);
  return match_events_in (m, NULL, error);
}

static void
add_spans (Matcher *m)
{
  AtfThread *t = m->thread;
  guint32 index = 0;
  gsize total = 0;

  for (guint d = 0; d < m->n_runs; d++)
    total += m->runs[d].len;
  kymo_track_reserve_spans (m->track, total);

  for (guint d = 0; d < m->n_runs; d++)
    {
      SpanRun *run = &m->runs[d];

      for (gsize i = 0; run->links != NULL && i < run->len; i++)
        {
          KymoSpan *s = run_span (run, i);
          SpanLink *link = run_link (run, i);

          if (link->maybe_linked)
            {
              guint32 call_detail = detail_seq_of (t, s->source);
              guint32 ret_detail = link->ret != ATF_NO_SEQ ? detail_seq_of (t, link->ret) : ATF_NO_SEQ;
              gboolean linked = FALSE;

              if (_kymo_atf_linked (t, s->source, call_detail))
                {
                  t->det_target[call_detail] = index + (guint32) i;
                  linked = TRUE;
                }
              if (link->ret != ATF_NO_SEQ && _kymo_atf_linked (t, link->ret, ret_detail))
                {
                  t->det_target[ret_detail] = index + (guint32) i;
                  linked = TRUE;
                }
              if (linked)
                {
                  s->name_flags |= (guint32) KYMO_EVENT_LINKED << 24;
                  if (link->ret != ATF_NO_SEQ)
                    g_hash_table_insert (t->ret_links, GUINT_TO_POINTER (index + (guint32) i + 1),
                                         GUINT_TO_POINTER (link->ret + 1));
                }
            }
        }
      /* Spans already have end >= start: copied as they are, in place. */
      if (run->len > 0)
        {
          KymoSpan *out = kymo_track_append_spans (m->track, d, run->len);

          for (gsize c = 0; c < run->n_chunks; c++)
            {
              gsize first = (gsize) c << CHUNK_SHIFT;

              memcpy (out + first, run->chunks[c], MIN (run->len - first, (gsize) CHUNK_LEN) * sizeof (KymoSpan));
            }
        }
      index += (guint32) run->len;
      /* Given back depth by depth, for the next thread built. */
      run_clear (m, run);
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

/* Names of the detail records, resolved before anything is added so that
 * a blocked build leaves the tracks untouched. */
static gboolean
resolve_detail_names (Matcher  *m,
                      guint32 **names)
{
  AtfThread *t = m->thread;
  guint32 fallback;

  *names = NULL;
  /* Without detail records the name is only interned, in thread order (the
   * parallel build does that when it takes the thread's result). */
  if (t->detail.n_records == 0)
    {
      if (!m->read_only)
        kymo_trace_intern (m->trace, "detail record");
      return TRUE;
    }
  if (!intern (m, "detail record", &fallback))
    return FALSE;

  *names = g_new (guint32, t->detail.n_records);
  for (guint32 j = 0; j < t->detail.n_records; j++)
    {
      AtfDetailRecord r;
      guint32 name = fallback;
      gboolean ok = TRUE;

      _kymo_atf_detail_get (&t->detail, j, &r);
      if (_kymo_atf_linked (t, r.index_seq, j))
        ok = name_of (m, kymo_read_u64le (_kymo_atf_index_event (&t->index, r.index_seq) + 8), &name);
      else if (r.has_payload)
        ok = name_of (m, r.function_id, &name);
      if (!ok)
        {
          g_clear_pointer (names, g_free);
          return FALSE;
        }
      (*names)[j] = name;
    }
  return TRUE;
}

static void
add_details (AtfThread     *t,
             KymoTrace     *trace,
             const guint32 *names)
{
  KymoTrack *track;

  if (t->detail.n_records == 0)
    return;
  track = kymo_trace_get_track (trace, t->detail_track);
  for (guint32 j = 0; j < t->detail.n_records; j++)
    {
      AtfDetailRecord r;
      guint flags = 0;

      _kymo_atf_detail_get (&t->detail, j, &r);
      if (_kymo_atf_linked (t, r.index_seq, j))
        flags |= KYMO_EVENT_LINKED;
      kymo_track_add_instant (track, clamp_ts (r.ts), names[j], flags, j);
    }
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

struct _AtfBuild
{
  Matcher    m;
  guint32   *order;          /* time order, or NULL for the file's own */
  gboolean   order_known;    /* FALSE: the file's order is not checked yet */
  guint32   *detail_names;   /* [detail.n_records] once matched */
  guint32   *remap;          /* local name → interned, until finished */
  guint      n_remap;
  /* What the match found, kept past _kymo_atf_build_finish(). */
  KymoTime     max_ts;
  AtfWarnings  warn;
  gboolean     finished;
};

AtfBuild *
_kymo_atf_build_new (KymoTrace *trace,
                     AtfThread *thread,
                     guint32   *order,
                     gboolean   order_known)
{
  AtfBuild *b = g_new0 (AtfBuild, 1);

  b->m.thread = thread;
  b->m.trace = trace;
  b->max_ts = KYMO_TIME_NONE;
  b->order = order;
  b->order_known = order_known || order != NULL;
  return b;
}

/* Forgets what a previous match produced. */
static void
matcher_reset (Matcher *m)
{
  if (m->runs != NULL)
    for (guint d = 0; d < m->n_runs; d++)
      run_clear (m, &m->runs[d]);
  m->n_runs = 0;
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

  matcher_reset (m);
  g_free (m->runs);
  g_free (m->stack);
  g_clear_pointer (&m->exceptions, g_array_unref);
  g_free (b->order);
  g_free (b->detail_names);
  g_free (b->remap);
  local_names_clear (m);
  g_free (b);
}

/* Phase one: matching and the names of the detail records. */
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
  matcher_reset (m);
  g_clear_pointer (&b->detail_names, g_free);
  m->has_detail = t->detail.n_records > 0;

  g_clear_pointer (&t->det_target, g_free);
  if (t->detail.n_records > 0)
    {
      t->det_target = g_new (guint32, t->detail.n_records);
      memset (t->det_target, 0xFF, sizeof (guint32) * t->detail.n_records);
    }

  /* Interning follows the records' time order, so the sequential build
   * must know it before it starts. */
  if (!b->order_known && !m->read_only)
    {
      b->order = _kymo_atf_time_order (&t->index, NULL);
      b->order_known = TRUE;
    }
  m->check_order = !b->order_known;
  ok = match_events (m, b->order, error);
  if (!ok && m->unsorted)
    {
      /* The writer went back in time (it does, with detail recording on):
       * match again in time order. */
      b->order = _kymo_atf_time_order (&t->index, NULL);
      b->order_known = TRUE;
      m->check_order = FALSE;
      matcher_reset (m);
      /* Names are first used in the new order: take them afresh. */
      if (has_local_names (m))
        {
          local_names_clear (m);
          _kymo_atf_names_clear (m->names);
          _kymo_atf_names_copy (m->names, m->origin);
        }
      ok = match_events (m, b->order, error);
    }
  else if (ok && m->check_order)
    b->order_known = TRUE;

  if (ok)
    ok = resolve_detail_names (m, &b->detail_names);
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

gboolean
_kymo_atf_build_match (AtfBuild     *b,
                       AtfNames     *names,
                       KymoLoadJob  *job,
                       guint64      *done,
                       guint64       total,
                       GError      **error)
{
  Matcher *m = &b->m;

  m->names = names;
  m->read_only = FALSE;
  m->shared = NULL;
  m->job = job;
  m->done = done;
  m->total = total;
  return build_match (b, error) == ATF_BUILD_DONE;
}

AtfBuildResult
_kymo_atf_build_match_parallel (AtfBuild       *b,
                                const AtfNames *names,
                                AtfProgress    *progress)
{
  Matcher *m = &b->m;
  AtfNames local;
  AtfBuildResult result;

  _kymo_atf_names_copy (&local, names);
  m->names = &local;
  m->origin = names;
  m->read_only = TRUE;
  m->shared = progress;
  m->job = NULL;
  m->done = NULL;
  result = build_match (b, NULL);
  m->names = NULL;
  m->origin = NULL;
  _kymo_atf_names_clear (&local);
  if (result != ATF_BUILD_DONE)
    local_names_clear (m);

  /* Nothing left open needs the end of the trace: finish right here, and
   * the next thread on this worker reuses the chunks, still mapped. Local
   * names are renamed in the tracks once interned. */
  if (result == ATF_BUILD_DONE && m->depth == 0)
    _kymo_atf_build_finish (b, KYMO_TIME_NONE);
  return result;
}

void
_kymo_atf_build_intern_names (AtfBuild  *b,
                              KymoTrace *trace)
{
  Matcher *m = &b->m;

  if (!has_local_names (m))
    return;
  b->n_remap = m->local_texts->len;
  b->remap = g_new (guint32, b->n_remap);
  for (guint k = 0; k < b->n_remap; k++)
    b->remap[k] = kymo_trace_intern (trace, g_ptr_array_index (m->local_texts, k));
  local_names_clear (m);
}

static inline guint32
remapped (const AtfBuild *b,
          guint32         name)
{
  if (name <= LOCAL_NAME_TOP && name > LOCAL_NAME_TOP - b->n_remap)
    return b->remap[LOCAL_NAME_TOP - name];
  return name;
}

/* Local name ids → the trace's, in the tracks a finished build filled. */
static void
rename_tracks (AtfBuild *b)
{
  AtfThread *t = b->m.thread;
  guint32 first = LOCAL_NAME_TOP - b->n_remap + 1;
  g_autofree guint32 *map = g_new (guint32, b->n_remap);

  for (guint32 k = 0; k < b->n_remap; k++)
    map[LOCAL_NAME_TOP - first - k] = b->remap[k];
  kymo_track_rename (kymo_trace_get_track (b->m.trace, t->track), first, map, b->n_remap);
  if (t->detail_track != KYMO_NO_TRACK)
    kymo_track_rename (kymo_trace_get_track (b->m.trace, t->detail_track), first, map, b->n_remap);
  g_clear_pointer (&b->remap, g_free);
  b->n_remap = 0;
}

/* Local name ids → the trace's, everywhere the match left them. */
static void
apply_remap (AtfBuild *b)
{
  Matcher *m = &b->m;

  for (gsize i = 0; i < m->depth; i++)
    m->stack[i].name = remapped (b, m->stack[i].name);
  for (guint d = 0; d < m->n_runs; d++)
    {
      SpanRun *run = &m->runs[d];

      for (gsize c = 0; c < run->n_chunks; c++)
        {
          KymoSpan *spans = run->chunks[c];
          gsize first = (gsize) c << CHUNK_SHIFT;
          gsize n = first < run->len ? MIN (run->len - first, (gsize) CHUNK_LEN) : 0;

          for (gsize i = 0; i < n; i++)
            spans[i].name_flags = (spans[i].name_flags & ~KYMO_NAME_MAX) |
                                  remapped (b, spans[i].name_flags & KYMO_NAME_MAX);
        }
    }
  for (guint i = 0; m->exceptions != NULL && i < m->exceptions->len; i++)
    {
      PendingInstant *e = &g_array_index (m->exceptions, PendingInstant, i);
      e->name = remapped (b, e->name);
    }
  for (guint32 j = 0; b->detail_names != NULL && j < m->thread->detail.n_records; j++)
    b->detail_names[j] = remapped (b, b->detail_names[j]);
  g_clear_pointer (&b->remap, g_free);
  b->n_remap = 0;
}

KymoTime
_kymo_atf_build_max_ts (const AtfBuild *b)
{
  return b->max_ts;
}

const AtfWarnings *
_kymo_atf_build_warnings (const AtfBuild *b)
{
  return &b->warn;
}

void
_kymo_atf_build_set_pool (AtfBuild     *b,
                          AtfChunkPool *pool)
{
  b->m.pool = pool;
}

/* Phase two: interns nothing, so threads may finish side by side. */
void
_kymo_atf_build_finish (AtfBuild *b,
                        KymoTime  trace_end)
{
  Matcher *m = &b->m;
  AtfThread *t = m->thread;

  if (b->finished)
    {
      if (b->remap != NULL)
        rename_tracks (b);
      return;
    }
  b->finished = TRUE;
  if (b->remap != NULL)
    apply_remap (b);
  m->track = kymo_trace_get_track (m->trace, t->track);
  /* A CALL never returned runs to the end of the trace. */
  while (m->depth > 0)
    {
      Frame *frame = &m->stack[--m->depth];
      emit (m, m->depth, frame, MAX (trace_end, frame->start), KYMO_EVENT_INCOMPLETE, ATF_NO_SEQ,
            m->has_detail && detail_seq_of (t, frame->source) != ATF_NO_SEQ);
    }
  add_spans (m);
  add_exceptions (m);
  add_details (t, m->trace, b->detail_names);
  matcher_reset (m);
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
