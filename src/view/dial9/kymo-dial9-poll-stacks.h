/* kymo-dial9-poll-stacks.h: the sampled stacks of a selected span, in the details pane
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

/* When @ref is a span whose track has CPU or scheduler samples during it
 * (a Tokio poll), appends to @box a section with their symbolised stacks
 * (each distinct stack once, with its count) and a button that opens the
 * flame graph of the span's range. Returns how many samples it found. */
guint _kymo_dial9_add_poll_stacks (KymoSession        *session,
                                   GtkBox             *box,
                                   const KymoEventRef *ref);

G_END_DECLS
