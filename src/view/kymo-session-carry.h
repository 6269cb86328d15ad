/* kymo-session-carry.h: what a user did in one view, carried to the view of a trace it grew into
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-session.h"

G_BEGIN_DECLS

/* @from shows a preview (the start of a trace still loading), @to the trace
 * it grew into. Tracks are matched by their names up the tree, events by
 * their track, time and name: hidden, pinned and collapsed tracks, the
 * filter, the find query, the selected range and event carry over. So does
 * the visible range once the user moved it; a view still showing all of
 * the preview goes on showing all of the trace. */
void kymo_session_carry_state (KymoSession *to,
                               KymoSession *from);

G_END_DECLS
