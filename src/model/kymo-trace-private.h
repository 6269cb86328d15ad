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

G_END_DECLS
