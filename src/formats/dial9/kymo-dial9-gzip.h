/* kymo-dial9-gzip.h: gzip-wrapped dial9 traces
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "kymo-format.h"

G_BEGIN_DECLS

static inline gboolean
d9_is_gzip (const guint8 *data,
            gsize         size)
{
  return size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
}

/* Inflates at most @max bytes from the start of a gzip stream into @out.
 * Returns how many bytes came out (0 when it is not valid gzip). */
gsize    d9_gunzip_head (const guint8 *data,
                         gsize         size,
                         guint8       *out,
                         gsize         max);

/* Gzip's trailer holds the inflated size mod 2^32 (@isize): trusted for a
 * buffer only within what trace data deflates to from @size bytes (more
 * than a quarter, less than 64 times). 0 says not to trust it (several
 * members, past 4 GiB, a bomb of zeros): zlib streaming then finds out. */
gsize    d9_gzip_trusted_size (guint32       isize,
                               gsize         size);

/* Inflates a gzip stream of one member into exactly @out_size bytes at
 * @out with libdeflate (about twice zlib's speed), in one call: FALSE when
 * it is not exactly that (several members, damage, another size). */
gboolean d9_inflate_member (const guint8 *data,
                            gsize         size,
                            guint8       *out,
                            gsize         out_size);

/* Inflates every member of a gzip stream into one buffer: one member in
 * memory by libdeflate at once, anything else streaming: the
 * compressed bytes are read once, and the output grows in place. Reports
 * progress through @job (may be NULL). On damage, returns what inflated
 * before it and sets *warning (truncated stream) or @error (corrupt data,
 * cancelled); NULL only with @error set. */
GBytes  *d9_gunzip      (KymoLoadJob   *job,
                         const guint8  *data,
                         gsize          size,
                         char         **warning,
                         GError       **error);

G_END_DECLS
