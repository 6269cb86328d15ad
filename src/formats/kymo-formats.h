/* kymo-formats.h: the built-in decoders
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-format.h"

G_BEGIN_DECLS

extern const KymoFormat kymo_format_dial9;
extern const KymoFormat kymo_format_rtc;
extern const KymoFormat kymo_format_atf;
extern const KymoFormat kymo_format_wtf;
extern const KymoFormat kymo_format_tband;

extern const char kymo_formats_builtin_anchor;

G_END_DECLS
