/* kymo-dial9-worker-cpu.h: a worker's active period and on-CPU share, in the details pane
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

/* When @ref is an event on a Tokio worker lane inside an active period
 * (unpark → park) whose CPU time the trace has, appends to @box a section
 * with the period and the share of it the worker's thread was on a CPU.
 * Returns whether it did. */
gboolean _kymo_dial9_add_active_period (KymoSession        *session,
                                        GtkBox             *box,
                                        const KymoEventRef *ref);

G_END_DECLS
