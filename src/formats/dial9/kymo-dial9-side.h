/* kymo-dial9-side.h: what analyses need beyond the timeline
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-loader.h"

G_BEGIN_DECLS

/* After d9_build_model(): reads the decoded events once more, on several
 * threads (from the checkpoints), for the model's KymoRecords (polls'
 * tasks, wakes, spawns, terminations, kernel scheduling waits) and
 * KymoStacks (CPU and scheduler samples, symbolised through the symbol
 * tables, which may come at the end of the stream). FALSE when cancelled. */
gboolean d9_side_build (D9Loader  *l,
                        GError   **error);

G_END_DECLS
