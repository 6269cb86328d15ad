/* kymo-demangle.h: symbol names as people read them
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The name the app shows for @raw (an interned name as the file spells it):
 * a C++ (`_Z…`) or Rust (`_ZN…17h…E`, `_R…`) symbol demangled as `c++filt`
 * prints it by default, a source path under cargo's registry or rustc's
 * tree shortened (kymo_short_path()), other names made valid UTF-8 (U+FFFD
 * for bad bytes).
 * NULL when @raw is shown as it is. */
char *_kymo_demangle_for_display (const char *raw);

G_END_DECLS
