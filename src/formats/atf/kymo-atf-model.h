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
  guint64  total;       /* index records in all */
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

/* A thread's build. Matching writes the spans into the thread's track
 * (which must exist); finishing, once names are interned and the end of
 * the trace is known, puts names and calls never returned in place and
 * adds the instants. */
typedef struct _AtfBuild AtfBuild;

AtfBuild *_kymo_atf_build_new     (KymoTrace          *trace,
                                   AtfThread          *thread);
void      _kymo_atf_build_free    (AtfBuild           *build);
/* On any thread, side by side with the other threads' builds: reads
 * @names (the process's table, which must not change meanwhile) but never
 * the trace's names, and interns nothing: it returns ATF_BUILD_BLOCKED
 * instead when it would have to, and then _kymo_atf_build_match() must be
 * called on the loading thread, in thread order, so that name ids do not
 * depend on thread timing. Progress goes to @progress, and through @job
 * too when it is not NULL (on the loading thread only); @error is set
 * only with @job. */
AtfBuildResult _kymo_atf_build_match_parallel (AtfBuild       *build,
                                               const AtfNames *names,
                                               AtfProgress    *progress,
                                               KymoLoadJob    *job,
                                               GError        **error);
/* The same on the loading thread, interning as it goes. */
gboolean  _kymo_atf_build_match   (AtfBuild           *build,
                                   const AtfNames     *names,
                                   AtfProgress        *progress,
                                   KymoLoadJob        *job,
                                   GError            **error);
/* Whether the match met functions the names table it was given did not
 * name (see _kymo_atf_build_intern_names()). */
gboolean       _kymo_atf_build_learns         (const AtfBuild *build);
/* On the loading thread, in thread order, after a parallel match that was
 * DONE: interns the names it met that the trace did not have, as a
 * sequential match would have; finishing puts them in place. The
 * functions among them go into @learn too (may be NULL), so that threads
 * matched after need no local names for them (and no rewrite after). */
void           _kymo_atf_build_intern_names   (AtfBuild       *build,
                                               KymoTrace      *trace,
                                               AtfNames       *learn);
/* The latest index record matched, or KYMO_TIME_NONE. */
KymoTime  _kymo_atf_build_max_ts  (const AtfBuild     *build);
/* Whether calls were left open: finishing needs the end of the trace. */
gboolean  _kymo_atf_build_is_open (const AtfBuild     *build);
const AtfWarnings *_kymo_atf_build_warnings (const AtfBuild *build);
/* Whether the spans carry links to detail records until finished. */
gboolean  _kymo_atf_build_has_links (const AtfBuild   *build);
/* After a match that is kept: gives back what only matching needed. */
void      _kymo_atf_build_trim    (AtfBuild           *build);
/* After the match and once every name is interned (on any thread, side by
 * side with the other threads' finish): adds the thread's instants and
 * ends calls never returned at @trace_end. Does nothing the second time. */
void      _kymo_atf_build_finish  (AtfBuild           *build,
                                   KymoTime            trace_end);
void      _kymo_atf_warn_thread   (KymoTrace          *trace,
                                   const AtfThread    *thread,
                                   const AtfWarnings  *warnings);
void      _kymo_atf_index_details (KymoTrace          *trace,
                                   AtfThread          *thread);

G_END_DECLS
