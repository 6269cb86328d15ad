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
 * fraction of the time. Bands of rows are compressed side by side (each a
 * run of deflate blocks flushed to a byte boundary, so that they join
 * into one stream) and written in order as they come: a few bands are held
 * at a time, never a copy of the image.
 */
#define G_LOG_DOMAIN "kymo-png-writer"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <libdeflate.h>
#include <zlib.h>

#include "kymo-parts.h"
#include "kymo-png-writer.h"

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
      guint32 all = 0xffffffff;

      /* No early exit inside a row: the loop vectorises. */
      for (int x = 0; x < width; x++)
        all &= px[x];
      if ((all >> 24) != 0xff)
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
      /* Four bytes stored a pixel, R G B and one the next pixel overwrites
       * (the caller leaves a byte of room after the last row). */
      for (int x = 0; x < width; x++, out += 3)
        {
          guint32 rgb = GUINT32_TO_BE (px[x] << 8);

          memcpy (out, &rgb, 4);
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

#define BAND_ROWS    32
/* Below this many bytes of pixels the threads cost more than they save. */
#define PARALLEL_MIN (2 * 1024 * 1024)

typedef struct {
  guint8 *data;       /* deflate blocks of the band's rows */
  gsize   len;
  uLong   adler;      /* of the band's filtered rows */
  gsize   raw_len;
  gboolean failed;
} Band;

typedef struct {
  Writer        *w;
  const guint8  *pixels;
  int            width;
  int            height;
  int            stride;
  gboolean       alpha;
  guint          n_bands;
  Band          *bands;
  uLong          adler;
} Encode;

static gsize
row_bytes (const Encode *e)
{
  return 1 + (gsize) e->width * (e->alpha ? 4 : 3);
}

static gboolean
deflate_zlib (const guint8 *rows,
              gsize         len,
              gboolean      last,
              Band         *band)
{
  z_stream zs = { 0 };
  uLong cap;
  gboolean ok;

  if (deflateInit2 (&zs, Z_BEST_SPEED, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return FALSE;
  /* Room for the stream and the sync marker: one deflate() call does it. */
  cap = deflateBound (&zs, (uLong) len) + 16;
  band->data = g_realloc (band->data, cap);
  zs.next_in = (Bytef *) rows;
  zs.avail_in = (uInt) len;
  zs.next_out = band->data;
  zs.avail_out = (uInt) cap;
  ok = deflate (&zs, last ? Z_FINISH : Z_SYNC_FLUSH) == (last ? Z_STREAM_END : Z_OK) && zs.avail_in == 0;
  band->len = cap - zs.avail_out;
  deflateEnd (&zs);
  return ok;
}

/* Raw deflate of the band's rows; the last band ends the stream, the others
 * end on a byte boundary without a final block, so that the bands laid end
 * to end are one stream. */
static void
encode_band (guint    index,
             gpointer user_data)
{
  Encode *e = user_data;
  Band *band = &e->bands[index];
  int y0 = (int) index * BAND_ROWS, y1 = MIN (e->height, y0 + BAND_ROWS);
  gsize stride = row_bytes (e);
  /* One byte past the last row: convert_row stores four bytes a pixel. */
  g_autofree guint8 *rows = g_malloc (stride * (gsize) (y1 - y0) + 1);
  gboolean last = index + 1 == e->n_bands;

  for (int y = y0; y < y1; y++)
    convert_row ((const guint32 *) (gconstpointer) (e->pixels + (gsize) y * e->stride), e->width, e->alpha,
                 rows + stride * (gsize) (y - y0));
  band->raw_len = stride * (gsize) (y1 - y0);
  band->adler = libdeflate_adler32 (1, rows, band->raw_len);
  if (!deflate_zlib (rows, band->raw_len, last, band))
    band->failed = TRUE;
}

static gboolean
join_band (guint    index,
           gpointer user_data)
{
  Encode *e = user_data;
  Band *band = &e->bands[index];

  if (band->failed)
    return FALSE;
  if (index == 0)
    {
      /* The zlib header: deflate, 32 KiB window, fastest. */
      static const guint8 header[2] = { 0x78, 0x01 };
      write_chunk (e->w, "IDAT", header, sizeof header);
    }
  write_chunk (e->w, "IDAT", band->data, band->len);
  e->adler = index == 0 ? band->adler : adler32_combine (e->adler, band->adler, (z_off_t) band->raw_len);
  if (index + 1 == e->n_bands)
    {
      guint8 trailer[4];

      put_be32 (trailer, (guint32) e->adler);
      write_chunk (e->w, "IDAT", trailer, sizeof trailer);
    }
  g_clear_pointer (&band->data, g_free);
  return e->w->saved_errno == 0;
}

static gboolean
encode_bands (Encode *e)
{
  g_autoptr(KymoParts) parts = kymo_parts_new (NULL, (gsize) e->height * row_bytes (e), PARALLEL_MIN,
                                               e->n_bands, 8, encode_band, e);

  /* Without help, the one worker of two cores stays ahead and encodes
   * nearly every band while this thread waits for it. */
  kymo_parts_set_help (parts, TRUE);
  for (guint i = 0; i < e->n_bands; i++)
    {
      kymo_parts_wait (parts, i);
      if (!join_band (i, e))
        return FALSE;
      kymo_parts_release (parts, i);
    }
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
  gboolean alpha, ok;
  guint8 header[13];
  Writer w = { 0 };
  Encode encode = { 0 };

  g_return_val_if_fail (cairo_surface_get_type (surface) == CAIRO_SURFACE_TYPE_IMAGE, FALSE);
  format = cairo_image_surface_get_format (surface);
  g_return_val_if_fail (format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24, FALSE);
  g_return_val_if_fail (cairo_image_surface_get_width (surface) > 0 &&
                        cairo_image_surface_get_height (surface) > 0, FALSE);

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

  encode.w = &w;
  encode.pixels = data;
  encode.width = width;
  encode.height = height;
  encode.stride = stride;
  encode.alpha = alpha;
  encode.n_bands = (guint) ((height + BAND_ROWS - 1) / BAND_ROWS);
  encode.bands = g_new0 (Band, encode.n_bands);
  ok = encode_bands (&encode);
  for (guint i = 0; i < encode.n_bands; i++)
    g_free (encode.bands[i].data);
  g_free (encode.bands);
  write_chunk (&w, "IEND", NULL, 0);

  if (fclose (w.file) != 0 && w.saved_errno == 0)
    w.saved_errno = errno != 0 ? errno : EIO;
  if (!ok || w.saved_errno != 0)
    {
      if (w.saved_errno != 0)
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (w.saved_errno),
                     _("%s: cannot write: %s"), path, g_strerror (w.saved_errno));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                     _("%s: cannot write: %s"), path, _("compression failed"));
      g_unlink (path);
      return FALSE;
    }
  return TRUE;
}
