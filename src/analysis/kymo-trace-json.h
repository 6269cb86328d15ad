/* kymo-trace-json.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-json-writer.h"
#include "kymo-trace.h"

G_BEGIN_DECLS

/* The trace's metadata as one JSON object of strings, in its own order. */
void kymo_trace_json_metadata (KymoJsonWriter *w,
                               KymoTrace      *trace);
/* The warnings the load gave, as one JSON array of their messages. */
void kymo_trace_json_warnings (KymoJsonWriter *w,
                               KymoTrace      *trace);

G_END_DECLS
