/* kymo-png-writer.h: a cairo image surface to a PNG file, at the speed of a frame
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

G_BEGIN_DECLS

/* Writes an ARGB32 or RGB24 image surface as a PNG: RGB when every pixel is
 * opaque, RGBA otherwise (unpremultiplied), the pixels the same as
 * cairo_surface_write_to_png() writes. */
gboolean kymo_png_write_surface (cairo_surface_t  *surface,
                                 const char       *path,
                                 GError          **error);

G_END_DECLS
