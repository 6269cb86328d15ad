/* kymo-atf-model.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-atf-names.h"

G_BEGIN_DECLS

/* Shared by the threads of a parallel build. */
typedef struct {
  gsize    done;        /* index records read (atomic) */
  gint     cancelled;   /* atomic: stop soon */
} AtfProgress;

typedef struct {
  guint64  n_stray;
  guint64  first_stray;
  guint64  n_deep;
  guint64  n_unknown;
  guint64  first_unknown;
} AtfWarnings;

typedef enum {
  ATF_BUILD_DONE,
  ATF_BUILD_BLOCKED,   /* needs a name interned: build it again in order */
  ATF_BUILD_STOPPED,   /* cancelled */
} AtfBuildResult;

guint32  *_kymo_atf_time_order    (const AtfIndexFile *index,
                                   KymoTime           *max_ts);

/* Span chunks shared by the builds of one load (thread-safe). */
typedef struct _AtfChunkPool AtfChunkPool;

AtfChunkPool *_kymo_atf_chunk_pool_new  (void);
void          _kymo_atf_chunk_pool_free (AtfChunkPool *pool);

/* A thread's build, in two phases: matching (which may need names
 * interned), then, once the end of the trace is known, adding the spans.
 * @order (owned) is the records' time order when known (@order_known; NULL
 * then means the file's own order); otherwise matching checks it. */
typedef struct _AtfBuild AtfBuild;

AtfBuild *_kymo_atf_build_new     (KymoTrace          *trace,
                                   AtfThread          *thread,
                                   guint32            *order,
                                   gboolean            order_known);
void      _kymo_atf_build_free    (AtfBuild           *build);
/* Chunks come from and go back to @pool (which outlives @build). */
void      _kymo_atf_build_set_pool (AtfBuild          *build,
                                    AtfChunkPool      *pool);
/* On the loading thread: interns names as needed. */
gboolean  _kymo_atf_build_match   (AtfBuild           *build,
                                   AtfNames           *names,
                                   KymoLoadJob        *job,
                                   guint64            *done,
                                   guint64             total,
                                   GError            **error);
/* The same on a worker thread: reads the trace's names but never interns
 * (it returns ATF_BUILD_BLOCKED instead, then _kymo_atf_build_match() must
 * be called on the loading thread, in thread order, so that name ids do
 * not depend on thread timing), and reports progress through @progress
 * only. Each call needs its own thread. When no call is left open it also
 * finishes the build (the end of the trace is not needed then). */
AtfBuildResult _kymo_atf_build_match_parallel (AtfBuild       *build,
                                               const AtfNames *names,
                                               AtfProgress    *progress);
/* On the loading thread, in thread order, after a parallel match that was
 * DONE: interns the names it met that the trace did not have, as a
 * sequential match would have; finishing puts them in place. */
void           _kymo_atf_build_intern_names   (AtfBuild       *build,
                                               KymoTrace      *trace);
/* The latest index record matched, or KYMO_TIME_NONE. */
KymoTime  _kymo_atf_build_max_ts  (const AtfBuild     *build);
const AtfWarnings *_kymo_atf_build_warnings (const AtfBuild *build);
/* Adds the thread's spans and instants; interns nothing, so threads may
 * finish side by side. Does nothing the second time. */
void      _kymo_atf_build_finish  (AtfBuild           *build,
                                   KymoTime            trace_end);
void      _kymo_atf_warn_thread   (KymoTrace          *trace,
                                   const AtfThread    *thread,
                                   const AtfWarnings  *warnings);
void      _kymo_atf_index_details (KymoTrace          *trace,
                                   AtfThread          *thread);

G_END_DECLS
