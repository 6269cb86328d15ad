/* kymo-test-atf-session.h: ATF sessions of every shape, for tests and benchmarks
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  guint    n_threads;
  guint    events_per_thread;
  gboolean symbols;          /* FALSE: a manifest without a symbol table */
  guint    max_depth;        /* 1: flat */
  guint    n_functions;
  guint    exception_every;  /* an EXCEPTION every N records, 0: none */
} KymoTestAtfShape;

/* Writes manifest.json and thread_N/index.atf under @pid_dir (made if
 * needed): a seeded random walk of calls and returns, balanced at the end,
 * the same for the same shape whether or not it has symbols. */
void kymo_test_write_atf_session (const char             *pid_dir,
                                  const KymoTestAtfShape *shape);

G_END_DECLS
