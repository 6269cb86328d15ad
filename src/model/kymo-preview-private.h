/* kymo-preview-private.h: which parts of an input make the previews of its load
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-format.h"

G_BEGIN_DECLS

/* Inputs below this many bytes (the files of a folder summed, gzip ones
 * counted at a low guess of what they inflate to) load fast enough that a
 * preview would only cost time. */
#define KYMO_PREVIEW_MIN_SIZE (48 * 1024 * 1024)

/* The inputs whose traces are shown, in order, while @input loads as
 * @format: growing starts of it (a prefix of a single file, the first files
 * of a folder). Empty when @input is small or @format cannot start from a
 * part. A KymoInput array. */
GPtrArray *_kymo_preview_plan (KymoInput        *input,
                               const KymoFormat *format);

/* Tests: previews from @min_size bytes on (0 restores the default). */
void       _kymo_preview_set_min_size_for_testing (gsize min_size);

G_END_DECLS
