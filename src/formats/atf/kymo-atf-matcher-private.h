/* kymo-atf-matcher-private.h: what matching a thread's records keeps, shared
 * by the match, the placing of its spans and the links to detail records
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-atf-model.h"
#include "kymo-atf-names.h"
#include "kymo-byte-reader.h"

G_BEGIN_DECLS

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

#define LOCAL_NAME_TOP  (KYMO_NAME_MAX - 1)

static inline KymoTime
clamp_ts (guint64 ts)
{
  return ts > G_MAXINT64 ? G_MAXINT64 : (KymoTime) ts;
}

static inline gboolean
has_local_names (const Matcher *m)
{
  return m->local_texts != NULL && m->local_texts->len > 0;
}

static inline guint32
detail_seq_of (const AtfThread *thread,
               guint32          seq)
{
  return kymo_read_u32le (_kymo_atf_index_event (&thread->index, seq) + 28);
}

static inline guint32
remapped (const AtfBuild *b,
          guint32         name)
{
  if (name <= LOCAL_NAME_TOP && name > LOCAL_NAME_TOP - b->n_remap)
    return b->remap[LOCAL_NAME_TOP - name];
  return name;
}

/* kymo-atf-match.c */
void     _kymo_atf_run_free            (SpanRun       *run);
/* One pass over the thread's records in file order (@order NULL) or in
 * @order. FALSE when cancelled, blocked or out of time order. */
gboolean _kymo_atf_matcher_match       (Matcher       *m,
                                        const guint32 *order,
                                        GError       **error);
gboolean _kymo_atf_matcher_name_of     (Matcher       *m,
                                        guint64        function_id,
                                        guint32       *name);
gboolean _kymo_atf_matcher_intern      (Matcher       *m,
                                        const char    *text,
                                        guint32       *name);
void     _kymo_atf_matcher_clear_local_names (Matcher *m);
/* The CALLs never returned become spans that run to @trace_end. */
void     _kymo_atf_matcher_close_open  (Matcher       *m,
                                        KymoTime       trace_end);

/* kymo-atf-place.c */
void     _kymo_atf_place_spans         (Matcher        *m,
                                        const AtfBuild *b,
                                        gboolean        rename,
                                        gsize           open);

/* kymo-atf-links.c */
void     _kymo_atf_link_spans          (Matcher       *m);
void     _kymo_atf_add_exceptions      (Matcher       *m);
gboolean _kymo_atf_resolve_detail_names (Matcher      *m,
                                         guint32     **names);
void     _kymo_atf_add_details         (AtfThread     *t,
                                        KymoTrace     *trace,
                                        const guint32 *names);

G_END_DECLS
