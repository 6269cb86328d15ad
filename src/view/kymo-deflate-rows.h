/* kymo-deflate-rows.h: deflate blocks for the rows of a flat-colour picture
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most kymo_deflate_rows() writes for @len bytes of input. */
gsize kymo_deflate_rows_bound (gsize len);

/* Compresses @len bytes of PNG rows (@row_bytes each, filter byte
 * included; @bpp bytes a pixel) into raw deflate blocks at @out, which has
 * room for kymo_deflate_rows_bound (@len) bytes, and returns how many it
 * wrote. When @last the blocks end the stream; otherwise they end on a
 * byte boundary without ending it (zlib's Z_SYNC_FLUSH), so that the
 * outputs for consecutive runs of rows, laid end to end, are one stream.
 * Matches refer only to @rows itself. */
gsize kymo_deflate_rows (const guint8 *rows,
                         gsize         len,
                         gsize         row_bytes,
                         guint         bpp,
                         gboolean      last,
                         guint8       *out);

G_END_DECLS
