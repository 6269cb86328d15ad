/* kymo-atf-model.c: CALL/RETURN records → nested spans, and the index ↔
 * detail link tables
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"
/* mremap() */
#define _GNU_SOURCE

#include "config.h"

#include "kymo-atf-model.h"
#include "kymo-atf-names.h"
#include "kymo-mapped.h"
#include "kymo-byte-reader.h"
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

/* One pass over the records writes each depth's spans to an array of its
 * own, which grows without a copy once it is large (its own mapping, moved
 * by the kernel); finishing puts the depths into the track one after the
 * other, already the order kymo_trace_seal() keeps: a large array's pages
 * move there and its spans shift down over them (see place_run()), so
 * that no span is held twice (a copy per thread being built was most of
 * the load's peak memory beyond the model) and no page faults twice. A
 * first pass counting each depth's spans, so that they could be written in
 * place, cost more than that shift. Nothing is sorted and each span's
 * final index is known once it is placed. */
typedef struct {
  KymoSpan *spans;   /* the depth's array, then its place in the track */
  SpanLink *links;   /* parallel to @spans, or NULL without detail records */
  gsize     len;
  gsize     cap;     /* room for spans (in the mapping: populated) */
  gsize     mapped;  /* spans the array's own mapping holds, or 0 */
} SpanRun;

typedef struct {
  KymoTime ts;
  guint32  name;
  guint32  source;
} PendingInstant;

typedef struct {
  guint64  function_id;
  guint32  name;       /* local id */
} LocalCall;

typedef struct {
  AtfThread    *thread;
  AtfNames     *names;          /* a private copy */
  KymoTrace    *trace;
  KymoTrack    *track;

  Frame        *stack;          /* [ATF_MAX_DEPTH] */
  gsize         depth;
  guint64       overflow;       /* CALLs beyond ATF_MAX_DEPTH still open */

  SpanRun      *runs;           /* [ATF_MAX_DEPTH]: those below @n_runs may hold arrays */
  guint         n_runs;
  GArray       *exceptions;     /* PendingInstant */
  KymoTime      exception_ts;   /* last EXCEPTION, or KYMO_TIME_NONE */
  /* This pass's exception labels: function's name + 1 → label's + 1. */
  GHashTable   *exception_names;

  gboolean      has_detail;
  AtfWarnings   warn;
  guint64       n_duplicates;

  AtfProgress  *progress;
  guint64       reported;       /* records added to @progress by this pass */
  /* Set on the loading thread only: progress is reported through it. */
  KymoLoadJob  *job;
  /* Side by side with other threads (@read_only) nothing is interned and
   * the trace is not read: a name the manifest did not give (a session
   * without symbols has none) takes a local id, counted down from
   * LOCAL_NAME_TOP in the order of first use. The loading thread interns
   * them thread by thread in order, as a sequential build would, and the
   * ids are rewritten when the thread is finished: so name ids do not
   * depend on thread timing. Past MAX_LOCAL_NAMES the build blocks and is
   * redone in order on the loading thread. */
  gboolean      read_only;
  gboolean      blocked;
  GPtrArray    *local_texts;    /* char *, by local index */
  GHashTable   *local_index;    /* text → local index + 1 */
  GArray       *local_calls;    /* LocalCall: functions that took a local name */
  /* Checked by the match in file order: a record earlier than the one
   * before stops it (@unsorted), and it starts again in time order. */
  gboolean      check_order;
  gboolean      unsorted;
  KymoTime      max_ts;         /* latest record, or KYMO_TIME_NONE */
} Matcher;

static inline KymoTime
clamp_ts (guint64 ts)
{
  return ts > G_MAXINT64 ? G_MAXINT64 : (KymoTime) ts;
}

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

static void
run_free (SpanRun *run)
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

static void
local_names_clear (Matcher *m)
{
  g_clear_pointer (&m->local_calls, g_array_unref);
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

static gboolean
match_events (Matcher       *m,
              const guint32 *order,
              GError       **error)
{
  if (order != NULL)
    return match_events_in (m, order, error);
  return match_events_in (m, NULL, error);
}

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

static inline guint32 remapped (const AtfBuild *b,
                                guint32         name);

static inline void
put_span (KymoSpan       *to,
          KymoSpan        span,
          const AtfBuild *b,
          gboolean        rename)
{
  if (rename)
    span.name_flags = (span.name_flags & ~KYMO_NAME_MAX) | remapped (b, span.name_flags & KYMO_NAME_MAX);
  *to = span;
}

/* Moving fewer bytes than this is not worth a mapping more. */
#define MOVE_MIN ((gsize) 256 << 10)

/* Moves the whole pages of @run's mapped array to where the spans would
 * be if they started a little after @to (up to a page, so that they stay
 * inside the @run->len spans from @to on, which hold nothing yet): no new
 * memory to fault in, none to give back. Returns the bytes moved, from
 * the array's start, and where they went. */
static gsize
move_pages (SpanRun   *run,
            KymoSpan  *to,
            guint8   **at)
{
  KymoMoved mv;

  if (run->mapped == 0 || !kymo_mapped_can_move () ||
      !kymo_mapped_move_pages ((guint8 *) to, (const guint8 *) run->spans, run->len * sizeof (KymoSpan),
                               MOVE_MIN, &mv))
    return 0;
  /* The mapping starts on a page: what moves is its start. */
  g_assert (mv.lo == 0);
  *at = mv.at;
  return mv.hi;
}

/* Puts @run's spans at @to (renaming local names on the way) and frees
 * its array. The large runs' pages move into place and the spans are
 * shifted down over them. */
static void
place_run (SpanRun        *run,
           KymoSpan       *to,
           const AtfBuild *b,
           gboolean        rename)
{
  const guint8 *from = (const guint8 *) run->spans;
  guint8 *at = NULL;
  gsize moved = move_pages (run, to, &at);
  gsize whole = moved / sizeof (KymoSpan), i = 0;

  /* Shifted down, so in increasing order: each span is read before a
   * write reaches it. */
  if (!rename)
    {
      if (whole > 0)
        memmove (to, at, whole * sizeof (KymoSpan));
    }
  else
    for (; i < whole; i++)
      {
        KymoSpan span;

        memcpy (&span, at + i * sizeof (KymoSpan), sizeof span);
        put_span (&to[i], span, b, rename);
      }
  i = whole;
  if (i < run->len && i * sizeof (KymoSpan) < moved)
    {
      /* Straddles the end of the moved pages: its bytes from both places. */
      KymoSpan span;
      gsize head = moved - i * sizeof (KymoSpan);

      memcpy (&span, at + i * sizeof (KymoSpan), head);
      memcpy ((guint8 *) &span + head, from + moved, sizeof span - head);
      put_span (&to[i], span, b, rename);
      i++;
    }
  if (!rename)
    {
      if (i < run->len)
        memcpy (to + i, from + i * sizeof (KymoSpan), (run->len - i) * sizeof (KymoSpan));
    }
  else
    for (; i < run->len; i++)
      put_span (&to[i], run->spans[i], b, rename);

  {
    SpanLink *links = g_steal_pointer (&run->links);

    run_free (run);
    run->links = links;
  }
}

/* Puts each run into the track, renaming local names on the way, with
 * room for one more span in each of the @open runs below the calls never
 * returned. The runs then point into the track. */
static void
place_spans (Matcher        *m,
             const AtfBuild *b,
             gboolean        rename,
             gsize           open)
{
  gsize total = 0;

  m->track = kymo_trace_get_track (m->trace, m->thread->track);
  for (guint d = 0; d < m->n_runs; d++)
    total += m->runs[d].len + (d < open);
  if (total == 0)
    return;
  kymo_track_reserve_spans (m->track, total);
  for (guint d = 0; d < m->n_runs; d++)
    {
      SpanRun *run = &m->runs[d];
      gsize len = run->len, cap = len + (d < open);
      KymoSpan *to;

      if (cap == 0)
        continue;
      to = kymo_track_append_spans (m->track, d, cap);
      if (run->links != NULL && len < cap)
        run->links = g_renew (SpanLink, run->links, cap);
      place_run (run, to, b, rename);
      run->spans = to;
      run->len = len;
      run->cap = cap;
      run->mapped = 0;
    }
}

/* Links spans to detail records; the spans are in the track already. */
static void
add_spans (Matcher *m)
{
  AtfThread *t = m->thread;
  guint32 index = 0;

  for (guint d = 0; d < m->n_runs; d++)
    {
      SpanRun *run = &m->runs[d];

      g_assert (run->len == run->cap);
      for (gsize i = 0; run->links != NULL && i < run->len; i++)
        {
          KymoSpan *s = &run->spans[i];
          SpanLink *link = &run->links[i];

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
      index += (guint32) run->len;
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
  gboolean   remap_spans;    /* spans hold local names too */
  /* What the match found, kept past _kymo_atf_build_finish(). */
  KymoTime     max_ts;
  AtfWarnings  warn;
  gboolean     finished;
};

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
    run_free (&m->runs[d]);
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
    run_free (&m->runs[d]);
  g_free (m->runs);
  g_free (m->stack);
  g_clear_pointer (&m->exceptions, g_array_unref);
  g_clear_pointer (&m->exception_names, g_hash_table_unref);
  g_free (b->order);
  g_free (b->detail_names);
  g_free (b->remap);
  local_names_clear (m);
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
  ok = match_events (m, b->order, error);
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
      local_names_clear (m);
      result = build_match (b, error);
      if (m->unsorted)
        _kymo_atf_names_clear (&local);
    }
  while (m->unsorted);
  m->names = NULL;
  m->job = NULL;
  _kymo_atf_names_clear (&local);
  if (result != ATF_BUILD_DONE)
    local_names_clear (m);
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

static inline guint32
remapped (const AtfBuild *b,
          guint32         name)
{
  if (name <= LOCAL_NAME_TOP && name > LOCAL_NAME_TOP - b->n_remap)
    return b->remap[LOCAL_NAME_TOP - name];
  return name;
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
  local_names_clear (m);
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
  place_spans (m, b, b->remap != NULL && b->remap_spans, m->depth);
  g_clear_pointer (&b->remap, g_free);
  b->n_remap = 0;
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
  for (guint d = 0; d < m->n_runs; d++)
    g_free (m->runs[d].links);
  g_clear_pointer (&m->runs, g_free);
  g_clear_pointer (&m->stack, g_free);
  g_clear_pointer (&m->exceptions, g_array_unref);
  g_clear_pointer (&m->exception_names, g_hash_table_unref);
  m->n_runs = 0;
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
