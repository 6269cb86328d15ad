/* kymo-atf-match.c: one pass over a thread's CALL/RETURN records, each
 * depth's spans written to an array of its own
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"
/* mremap() */
#define _GNU_SOURCE

#include "config.h"

#include "kymo-atf-matcher-private.h"
#include "kymo-mapped.h"
#include "kymo-page-queue.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

/* Report progress (and check for cancellation) this often. */
#define PROGRESS_STEP 65536
/* Bytes of the index a match reads ahead of the record it is at. */
#define PREFETCH_AHEAD 2048
/* How far down the stack a RETURN may look for its CALL. */
#define MAX_SEARCH 256

/* A run's array moves into a mapping of its own from this many spans on
 * (16 · 2^8, whole pages): growing it then moves pages, never bytes, and
 * the smaller arrays it frees leave the allocator little to hold on to. */
#define RUN_FIRST_CAP 16
#define RUN_MAP_CAP   4096

#if defined(__linux__) && defined(MREMAP_MAYMOVE)
#define RUN_CAN_MAP 1
#else
#define RUN_CAN_MAP 0
#endif

void
_kymo_atf_run_free (SpanRun *run)
{
  kymo_mapped_free (run->spans, run->mapped * sizeof (KymoSpan));
  g_free (run->links);
  memset (run, 0, sizeof *run);
}

/* Pages of a mapped array are populated this many bytes at a time, or a
 * 32nd of the mapping when that is more: one call for what a fault per
 * page costs more, little enough that the room left unused at the end of
 * a run stays small. */
#define POPULATE_STEP ((gsize) 32 << 10)

static G_GNUC_NO_INLINE void
run_grow (SpanRun  *run,
          gboolean  with_links)
{
  gsize cap = MAX (run->cap, run->mapped) > 0 ? MAX (run->cap, run->mapped) * 2 : RUN_FIRST_CAP;

  /* Every span comes from a record: a thread's file bounds its runs. */
  g_assert (cap > run->cap && cap < G_MAXSIZE / sizeof (KymoSpan));
#if RUN_CAN_MAP
  if (cap >= RUN_MAP_CAP)
    {
      gsize room;

      if (run->mapped == 0 || run->cap == run->mapped)
        {
          gsize bytes = run->mapped * sizeof (KymoSpan);

          run->spans = kymo_mapped_grow (run->spans, &bytes, run->len * sizeof (KymoSpan), cap * sizeof (KymoSpan));
          run->mapped = bytes / sizeof (KymoSpan);
          if (with_links)
            run->links = g_renew (SpanLink, run->links, cap);
        }
      room = MIN (run->mapped, run->cap + MAX (POPULATE_STEP / sizeof (KymoSpan), run->mapped / 32));
#if defined(MADV_POPULATE_WRITE)
      {
        gsize page = kymo_page_size ();
        guintptr from = ((guintptr) (run->spans + run->cap) + page - 1) & ~(guintptr) (page - 1);
        guintptr to = ((guintptr) (run->spans + room) + page - 1) & ~(guintptr) (page - 1);

        /* Only advice: an older kernel refuses it and the pages fault as
         * they are written. */
        if (from < to)
          (void) madvise ((void *) from, to - from, MADV_POPULATE_WRITE);
      }
#endif
      run->cap = room;
      return;
    }
#endif
  run->spans = g_renew (KymoSpan, run->spans, cap);
  if (with_links)
    run->links = g_renew (SpanLink, run->links, cap);
  run->cap = cap;
}

/* Seal orders a depth by start, then by longer first: a zero-length span
 * followed by one starting at the same time must swap. */
static G_GNUC_NO_INLINE gsize
run_fix_order (SpanRun *run)
{
  gsize i;

  for (i = run->len - 1; i > 0; i--)
    {
      KymoSpan *a = &run->spans[i - 1], *b = &run->spans[i], tmp;

      if (a->start != b->start || a->end >= b->end)
        break;
      tmp = *a;
      *a = *b;
      *b = tmp;
      if (run->links)
        {
          SpanLink link = run->links[i - 1];

          run->links[i - 1] = run->links[i];
          run->links[i] = link;
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

  if (G_UNLIKELY (i == run->cap))
    run_grow (run, m->has_detail);
  span = &run->spans[i];
  span->start = frame->start;
  span->end = MAX (end, frame->start);
  span->name_flags = (frame->name & KYMO_NAME_MAX) | (flags << 24);
  span->source = frame->source;
  if (run->links)
    {
      run->links[i].ret = ret;
      run->links[i].maybe_linked = maybe_linked;
    }
  run->len = i + 1;
  /* Nothing to reorder unless the previous span starts at the same time. */
  if (G_LIKELY (i == 0 || run->spans[i - 1].start != span->start))
    return i;
  return run_fix_order (run);
}

static gboolean
report_progress (Matcher  *m,
                 guint64   n,
                 GError  **error)
{
  AtfProgress *p = m->progress;
  guint64 done = (guint64) g_atomic_pointer_add (&p->done, (gssize) n) + n;

  m->reported += n;

  if (g_atomic_int_get (&p->cancelled))
    return FALSE;
  if (m->job != NULL &&
      !kymo_load_job_progress (m->job, (double) MIN (done, p->total) / MAX (p->total, 1), "Reading calls", error))
    {
      g_atomic_int_set (&p->cancelled, 1);
      return FALSE;
    }
  return TRUE;
}


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
  /* The ids the manifest gave must stay below the local ones. */
  if (m->local_texts->len >= MAX_LOCAL_NAMES || m->names->n_texts >= local_id (MAX_LOCAL_NAMES))
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

void
_kymo_atf_matcher_clear_local_names (Matcher *m)
{
  g_clear_pointer (&m->local_calls, g_array_unref);
  g_clear_pointer (&m->local_index, g_hash_table_unref);
  g_clear_pointer (&m->local_texts, g_ptr_array_unref);
}

static const char *
name_text (Matcher *m,
           guint32  name)
{
  if (has_local_names (m) && name <= LOCAL_NAME_TOP && name > LOCAL_NAME_TOP - m->local_texts->len)
    return g_ptr_array_index (m->local_texts, LOCAL_NAME_TOP - name);
  if (m->read_only)
    return name < m->names->n_texts ? m->names->texts[name] : "";
  return kymo_trace_get_name (m->trace, name);
}

static G_GNUC_NO_INLINE gboolean
name_of_slow (Matcher  *m,
              guint64   function_id,
              guint32  *name)
{
  g_autofree char *text = NULL;

  if (!m->read_only)
    {
      *name = _kymo_atf_names_slow (m->names, function_id);
      return TRUE;
    }
  text = _kymo_atf_unresolved (function_id);
  if (!local_name (m, text, name))
    return FALSE;
  _kymo_atf_names_put (m->names, function_id, *name);
  if (m->local_calls == NULL)
    m->local_calls = g_array_new (FALSE, FALSE, sizeof (LocalCall));
  g_array_append_vals (m->local_calls, &(LocalCall) { function_id, *name }, 1);
  return TRUE;
}

static inline gboolean
name_of (Matcher  *m,
         guint64   function_id,
         guint32  *name)
{
  if (G_LIKELY (_kymo_atf_names_find (m->names, function_id, name)))
    return TRUE;
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
  return local_name (m, text, name);
}

typedef enum {
  LAST_NONE,
  LAST_FRAME,
  LAST_SPAN,
  LAST_EXCEPTION,
} LastKind;

/* The loop over a thread's records, in file order (@order NULL) or in
 * @order; inlined twice so that the file-order loop reads records in place
 * without an extra load per record. The matcher's state is kept in locals
 * meanwhile: span stores could alias it. */
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
  guint64 max_ts = 0;
  Frame *stack = m->stack;
  gsize depth = m->depth;
  guint64 overflow = m->overflow;
  guint n_runs = m->n_runs;
  gboolean check = order == NULL && m->check_order;
  gboolean ok = TRUE;

  for (guint32 block = 0; block < n; )
    {
      guint32 block_end = n - block > PROGRESS_STEP ? block + PROGRESS_STEP : n;

      if (block > 0 && !report_progress (m, PROGRESS_STEP, error))
        {
          ok = FALSE;
          goto done;
        }

      for (guint32 k = block; k < block_end; k++)
        {
          guint32 seq = order ? order[k] : k;
          const guint8 *e = _kymo_atf_index_event (index, seq);
          guint64 raw_ts;
          KymoTime ts;
          guint64 fid = kymo_read_u64le (e + 8);
          guint32 kind = kymo_read_u32le (e + 20);
          guint32 call_depth = kymo_read_u32le (e + 24);
          guint32 dseq = kymo_read_u32le (e + 28);

          /* The hardware's prefetch stops at the end of a page: one
           * that reads far enough ahead does not wait at each. */
          if (order == NULL)
            __builtin_prefetch (e + PREFETCH_AHEAD);
          raw_ts = kymo_read_u64le (e);
          ts = clamp_ts (raw_ts);

          /* In order so far, the latest record is the one before. */
          if (check && G_UNLIKELY (raw_ts < max_ts))
            {
              m->unsorted = TRUE;
              ok = FALSE;
              goto done;
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
                  stack[depth - 1].source = seq;
                  break;
                case LAST_SPAN:
                  {
                    SpanRun *run = &m->runs[last_depth];
                    if (run->links)
                      {
                        run->links[last_pos].ret = seq;
                        run->links[last_pos].maybe_linked = TRUE;
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
              guint32 name = 0;

              if (G_UNLIKELY (depth >= ATF_MAX_DEPTH || overflow > 0))
                {
                  overflow++;
                  m->warn.n_deep++;
                  continue;
                }
              if (!name_of (m, fid, &name))
                {
                  ok = FALSE;
                  goto done;
                }
              frame = &stack[depth++];
              frame->start = ts;
              frame->function_id = fid;
              frame->name = name;
              frame->source = seq;
              n_runs = MAX (n_runs, (guint) depth);
              last = LAST_FRAME;
            }
          else if (kind == 2)
            {
              gsize found = G_MAXSIZE;

              if (G_UNLIKELY (overflow > 0))
                {
                  overflow--;
                  continue;
                }
              if (G_LIKELY (depth > 0 && stack[depth - 1].function_id == fid))
                found = depth - 1;
              else
                for (gsize i = depth, j = 0; i > 0 && j < MAX_SEARCH; i--, j++)
                  if (stack[i - 1].function_id == fid)
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
              while (depth - 1 > found)
                {
                  Frame *frame = &stack[--depth];
                  KymoTime end = ts;

                  if (m->exception_ts != KYMO_TIME_NONE && m->exception_ts >= frame->start)
                    end = m->exception_ts;
                  emit (m, depth, frame, end, KYMO_EVENT_WARNING, ATF_NO_SEQ,
                        m->has_detail && detail_seq_of (t, frame->source) != ATF_NO_SEQ);
                }
              depth--;
              last_pos = emit (m, depth, &stack[depth], ts, 0, seq,
                               m->has_detail &&
                               (dseq != ATF_NO_SEQ || detail_seq_of (t, stack[depth].source) != ATF_NO_SEQ));
              last = LAST_SPAN;
              last_depth = depth;
            }
          else if (kind == 3)
            {
              PendingInstant exception;
              g_autofree char *label = NULL;
              guint32 name;

              if (!name_of (m, fid, &name))
                {
                  ok = FALSE;
                  goto done;
                }
              exception.ts = ts;
              exception.name = GPOINTER_TO_UINT (g_hash_table_lookup (m->exception_names, GUINT_TO_POINTER (name + 1)));
              if (exception.name-- == 0)
                {
                  label = g_strdup_printf ("exception in %s", name_text (m, name));
                  if (!intern (m, label, &exception.name))
                    {
                      ok = FALSE;
                      goto done;
                    }
                  g_hash_table_insert (m->exception_names, GUINT_TO_POINTER (name + 1),
                                       GUINT_TO_POINTER (exception.name + 1));
                }
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
done:
  m->depth = depth;
  m->overflow = overflow;
  m->n_runs = n_runs;
  if (!ok)
    return FALSE;
  m->max_ts = n > 0 ? clamp_ts (max_ts) : KYMO_TIME_NONE;
  return report_progress (m, n & (PROGRESS_STEP - 1), error);
}

gboolean
_kymo_atf_matcher_match (Matcher       *m,
              const guint32 *order,
              GError       **error)
{
  if (order != NULL)
    return match_events_in (m, order, error);
  return match_events_in (m, NULL, error);
}

gboolean
_kymo_atf_matcher_name_of (Matcher  *m,
                           guint64   function_id,
                           guint32  *name)
{
  return name_of (m, function_id, name);
}

gboolean
_kymo_atf_matcher_intern (Matcher    *m,
                          const char *text,
                          guint32    *name)
{
  return intern (m, text, name);
}

void
_kymo_atf_matcher_close_open (Matcher  *m,
                              KymoTime  trace_end)
{
  while (m->depth > 0)
    {
      Frame *frame = &m->stack[--m->depth];
      emit (m, m->depth, frame, MAX (trace_end, frame->start), KYMO_EVENT_INCOMPLETE, ATF_NO_SEQ,
            m->has_detail && detail_seq_of (m->thread, frame->source) != ATF_NO_SEQ);
    }
}
