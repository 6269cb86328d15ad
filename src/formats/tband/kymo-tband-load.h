/* kymo-tband-load.h: how a Tonbandgerät load uses threads
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* 1: parse in line, 2: always on a second thread, 0: as the input size and
 * the processors suggest (the default; KYMO_TBAND_THREADS=1 or 2 in the
 * environment overrides it too). The result is the same either way: tests
 * compare them. */
void kymo_tband_set_load_threads (guint threads);

/* FALSE: every frame goes through the framer and the full parser, none
 * through the fused loop for short simple frames. Only tests need this:
 * they check that both read a stream the same. */
void kymo_tband_set_fast_frames  (gboolean enabled);

G_END_DECLS
