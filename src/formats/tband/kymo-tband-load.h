/* kymo-tband-load.h: how a Tonbandgerät load uses threads
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* FALSE: every frame goes through the framer and the full parser, none
 * through the fused loop for short simple frames. Only tests need this:
 * they check that both read a stream the same. */
void kymo_tband_set_fast_frames  (gboolean enabled);

G_END_DECLS
