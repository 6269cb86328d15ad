/* kymo-formats.c: the registry of built-in decoders
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-formats"

#include "config.h"

#include "kymo-formats.h"

const KymoFormat * const *_kymo_formats_builtin (guint *n_formats);

static const KymoFormat * const builtin[] = {
  &kymo_format_dial9,
  &kymo_format_rtc,
  &kymo_format_atf,
  &kymo_format_wtf,
  &kymo_format_tband,
};

const KymoFormat * const *
_kymo_formats_builtin (guint *n_formats)
{
  *n_formats = G_N_ELEMENTS (builtin);
  return builtin;
}
