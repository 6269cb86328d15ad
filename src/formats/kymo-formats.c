/* kymo-formats.c: the registry of built-in decoders
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-formats"

#include "config.h"

#include "kymo-formats.h"

#include "kymo-loader.h"

/* In this order: the first of equal detection scores wins. */
static const KymoFormat * const builtin[] = {
  &kymo_format_dial9,
  &kymo_format_rtc,
  &kymo_format_atf,
  &kymo_format_wtf,
  &kymo_format_tband,
};

/* Named to the linker by every program that links the library (see
 * src/meson.build), so that this file, which nothing calls, is linked in. */
const char kymo_formats_builtin_anchor = 0;

static void __attribute__ ((constructor))
register_builtin (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (builtin); i++)
    kymo_formats_register (builtin[i]);
}
