/* kymo-loader-private.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-loader.h"

G_BEGIN_DECLS

/* Tests register a format of their own to drive the loader (progress,
 * cancellation, damage) without depending on a real decoder. */
void _kymo_formats_add_for_testing (const KymoFormat *format);

G_END_DECLS
