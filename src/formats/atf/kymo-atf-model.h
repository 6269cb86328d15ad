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
gboolean  _kymo_atf_build_thread  (KymoLoadJob        *job,
                                   KymoTrace          *trace,
                                   AtfThread          *thread,
                                   AtfNames           *names,
                                   const guint32      *order,
                                   KymoTime            trace_end,
                                   guint64            *done,
                                   guint64             total,
                                   GError            **error);
/* The same on a worker thread: reads the trace's names but never interns
 * (it returns ATF_BUILD_BLOCKED instead, having added nothing), reports
 * progress through @progress only, and leaves the warnings to the caller
 * (_kymo_atf_warn_thread(), in thread order, after interning "detail
 * record" as the sequential build does). Each call needs its own tracks. */
AtfBuildResult _kymo_atf_build_thread_parallel (KymoTrace      *trace,
                                                AtfThread      *thread,
                                                const AtfNames *names,
                                                const guint32  *order,
                                                KymoTime        trace_end,
                                                AtfProgress    *progress,
                                                AtfWarnings    *warnings);
void      _kymo_atf_warn_thread   (KymoTrace          *trace,
                                   const AtfThread    *thread,
                                   const AtfWarnings  *warnings);
void      _kymo_atf_index_details (KymoTrace          *trace,
                                   AtfThread          *thread);

G_END_DECLS
