/* kymo-png-writer.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cairo_surface_write_to_png() lets libpng try every row filter and
 * compress at zlib's default level: on a 1920 × 2000 timeline that is about
 * four times the cost of drawing the frame, and most of what `kymo-cli
 * render` spends after the load. A timeline is flat colour: rows without a
 * filter at zlib's fastest level come out a few percent larger, in a
 * quarter of the time, and streamed so that no copy of the image is held.
 */
#define G_LOG_DOMAIN "kymo-png-writer"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <zlib.h>

#include "kymo-png-writer.h"

#define IDAT_SIZE (256 * 1024)

typedef struct {
  FILE   *file;
  int     saved_errno;
} Writer;

static void
put_be32 (guint8  *out,
          guint32  value)
{
  out[0] = value >> 24;
  out[1] = value >> 16;
  out[2] = value >> 8;
  out[3] = value;
}

static void
write_bytes (Writer       *w,
             const guint8 *data,
             gsize         len)
{
  if (w->saved_errno == 0 && len > 0 && fwrite (data, 1, len, w->file) != len)
    w->saved_errno = errno != 0 ? errno : EIO;
}

static void
write_chunk (Writer       *w,
             const char   *type,
             const guint8 *data,
             gsize         len)
{
  guint8 head[8], tail[4];
  uLong crc = crc32 (0, (const Bytef *) type, 4);

  /* crc32() of a NULL buffer is its initial value, not @crc. */
  if (len > 0)
    crc = crc32 (crc, data, (uInt) len);
  put_be32 (head, (guint32) len);
  memcpy (head + 4, type, 4);
  put_be32 (tail, (guint32) crc);
  write_bytes (w, head, sizeof head);
  write_bytes (w, data, len);
  write_bytes (w, tail, sizeof tail);
}

static gboolean
is_opaque (const guint8 *data,
           int           width,
           int           height,
           int           stride)
{
  for (int y = 0; y < height; y++)
    {
      const guint32 *px = (const guint32 *) (gconstpointer) (data + (gsize) y * stride);

      for (int x = 0; x < width; x++)
        if ((px[x] >> 24) != 0xff)
          return FALSE;
    }
  return TRUE;
}

/* One PNG row: the filter byte (none), then the pixels. */
static void
convert_row (const guint32 *px,
             int            width,
             gboolean       alpha,
             guint8        *out)
{
  *out++ = 0;
  if (!alpha)
    {
      for (int x = 0; x < width; x++, out += 3)
        {
          out[0] = px[x] >> 16;
          out[1] = px[x] >> 8;
          out[2] = px[x];
        }
      return;
    }
  for (int x = 0; x < width; x++, out += 4)
    {
      guint a = px[x] >> 24;

      /* Cairo stores premultiplied colour; PNG wants it straight. */
      if (a == 0)
        out[0] = out[1] = out[2] = 0;
      else
        {
          out[0] = (((px[x] >> 16) & 0xff) * 255 + a / 2) / a;
          out[1] = (((px[x] >> 8) & 0xff) * 255 + a / 2) / a;
          out[2] = ((px[x] & 0xff) * 255 + a / 2) / a;
        }
      out[3] = a;
    }
}

/* Feeds @len bytes (flushing at the end with Z_FINISH), writing an IDAT
 * chunk each time the output buffer fills. */
static gboolean
deflate_into (Writer   *w,
              z_stream *zs,
              guint8   *idat,
              guint8   *in,
              gsize     len,
              int       flush)
{
  zs->next_in = in;
  zs->avail_in = (uInt) len;
  do
    {
      int status = deflate (zs, flush);

      if (status == Z_STREAM_ERROR)
        return FALSE;
      if (zs->avail_out == 0 || (flush == Z_FINISH && status == Z_STREAM_END))
        {
          write_chunk (w, "IDAT", idat, IDAT_SIZE - zs->avail_out);
          zs->next_out = idat;
          zs->avail_out = IDAT_SIZE;
          if (status == Z_STREAM_END)
            return TRUE;
        }
    }
  while (zs->avail_in > 0 || flush == Z_FINISH);
  return TRUE;
}

gboolean
kymo_png_write_surface (cairo_surface_t  *surface,
                        const char       *path,
                        GError          **error)
{
  static const guint8 signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  cairo_format_t format;
  const guint8 *data;
  int width, height, stride;
  gboolean alpha, ok = TRUE;
  g_autofree guint8 *row = NULL;
  g_autofree guint8 *idat = NULL;
  guint8 header[13];
  z_stream zs = { 0 };
  Writer w = { 0 };

  g_return_val_if_fail (cairo_surface_get_type (surface) == CAIRO_SURFACE_TYPE_IMAGE, FALSE);
  format = cairo_image_surface_get_format (surface);
  g_return_val_if_fail (format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24, FALSE);

  if (cairo_surface_status (surface) != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot write: %s"),
                   path, cairo_status_to_string (cairo_surface_status (surface)));
      return FALSE;
    }
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  width = cairo_image_surface_get_width (surface);
  height = cairo_image_surface_get_height (surface);
  stride = cairo_image_surface_get_stride (surface);
  alpha = format == CAIRO_FORMAT_ARGB32 && !is_opaque (data, width, height, stride);

  w.file = g_fopen (path, "wb");
  if (w.file == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("%s: cannot write: %s"), path, g_strerror (saved_errno));
      return FALSE;
    }

  write_bytes (&w, signature, sizeof signature);
  put_be32 (header, (guint32) width);
  put_be32 (header + 4, (guint32) height);
  header[8] = 8;                  /* bits per channel */
  header[9] = alpha ? 6 : 2;      /* RGBA or RGB */
  header[10] = header[11] = header[12] = 0;
  write_chunk (&w, "IHDR", header, sizeof header);

  row = g_malloc (1 + (gsize) width * (alpha ? 4 : 3));
  idat = g_malloc (IDAT_SIZE);
  if (deflateInit (&zs, Z_BEST_SPEED) != Z_OK)
    ok = FALSE;
  zs.next_out = idat;
  zs.avail_out = IDAT_SIZE;
  for (int y = 0; ok && y < height; y++)
    {
      convert_row ((const guint32 *) (gconstpointer) (data + (gsize) y * stride), width, alpha, row);
      ok = deflate_into (&w, &zs, idat, row, 1 + (gsize) width * (alpha ? 4 : 3), Z_NO_FLUSH);
    }
  if (ok)
    ok = deflate_into (&w, &zs, idat, NULL, 0, Z_FINISH);
  deflateEnd (&zs);
  write_chunk (&w, "IEND", NULL, 0);

  if (fclose (w.file) != 0 && w.saved_errno == 0)
    w.saved_errno = errno != 0 ? errno : EIO;
  if (!ok || w.saved_errno != 0)
    {
      g_set_error (error, G_IO_ERROR, ok ? g_io_error_from_errno (w.saved_errno) : G_IO_ERROR_FAILED,
                   _("%s: cannot write: %s"), path, ok ? g_strerror (w.saved_errno) : _("compression failed"));
      g_unlink (path);
      return FALSE;
    }
  return TRUE;
}
