/* kymo-bench.h: measuring against a baseline taken in the same run
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Bytes the C heap holds right now (mallinfo2). */
gsize  kymo_bench_heap_bytes     (void);
/* Seconds `cksum` takes to read @paths (median of @runs runs). */
double kymo_bench_cksum_seconds  (const char * const *paths,
                                  guint               n_paths,
                                  guint               runs);
/* Median of @n values (sorts them). */
double kymo_bench_median         (double             *values,
                                  guint               n);
/* A scratch folder for generated traces (removed by the caller). */
char  *kymo_bench_scratch_dir    (void);

G_END_DECLS
