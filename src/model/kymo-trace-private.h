/* kymo-trace-private.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-trace.h"

G_BEGIN_DECLS

/* Bytes the sealed model holds for events and indexes (not names, not the input). */
gsize _kymo_trace_event_memory (KymoTrace *self);

/* The load option `threads`, for the seal (a format may seal the trace
 * itself): 0 every core once the trace is large, 1 sequential. */
void  _kymo_trace_set_load_threads (KymoTrace *self,
                                    guint      threads);

G_END_DECLS
