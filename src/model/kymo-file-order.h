/* kymo-file-order.h: the order a user numbers files in
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Natural order of names: "trace.2" before "trace.10", bytes otherwise. */
int kymo_file_name_compare (const char *a,
                            const char *b);
/* Paths by the natural order of their last component, then whole. */
int kymo_file_path_compare (const char *a,
                            const char *b);

G_END_DECLS
