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

/* Draws the picture's rows [@y0, @y1) on @cr, in the picture's
 * coordinates; @cr's target holds just those rows. */
typedef void (*KymoPngDrawFunc) (cairo_t  *cr,
                                 int       y0,
                                 int       y1,
                                 gpointer  user_data);

/* Writes a @width × @height picture that @draw paints band by band, on
 * this thread, onto cleared ARGB32 surfaces, each band compressed on
 * another thread while the next is drawn. The file holds the pixels that
 * drawing it all on one cleared surface gives, as long as @draw paints on
 * each band what it would paint on that band of one surface. */
gboolean kymo_png_write_drawn   (int               width,
                                 int               height,
                                 KymoPngDrawFunc   draw,
                                 gpointer          user_data,
                                 const char       *path,
                                 GError          **error);

G_END_DECLS
