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

G_END_DECLS
