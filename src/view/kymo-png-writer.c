/* kymo-png-writer.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cairo_surface_write_to_png() lets libpng try every row filter and
 * compress at zlib's default level: on a 1920 × 2000 timeline that is about
 * four times the cost of drawing the frame, and most of what `kymo-cli
 * render` spends after the load. A timeline is flat colour: rows without a
 * filter, compressed by a matcher made for such pictures
 * (kymo-deflate-rows.c), come out about as small as zlib's fastest level
 * makes them, in a third of its time. Bands of rows are compressed side by
 * side (each a run of deflate blocks flushed to a byte boundary, so that
 * they join into one stream) and written in order as they come.
 *
 * kymo_png_write_drawn() goes further: the caller draws the picture band
 * by band, and each band is compressed on another thread while the next
 * one is drawn, so that drawing and compressing take both cores at once.
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

#include "kymo-deflate-rows.h"
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

/* One PNG row: the filter byte (none), then the pixels. Without @alpha,
 * returns whether every pixel of the row is opaque. */
static gboolean
convert_row (const guint32 *px,
             int            width,
             gboolean       alpha,
             guint8        *out)
{
  *out++ = 0;
  if (!alpha)
    {
      guint32 all = 0xffffffff;

      /* Four bytes stored a pixel, R G B and one the next pixel overwrites
       * (the caller leaves a byte of room after the last row). */
      for (int x = 0; x < width; x++, out += 3)
        {
          guint32 rgb = GUINT32_TO_BE (px[x] << 8);

          all &= px[x];
          memcpy (out, &rgb, 4);
        }
      return (all >> 24) == 0xff;
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
  return TRUE;
}

#define BAND_ROWS      32
/* Drawing a band walks the frame's nodes: fewer, taller bands there. */
#define DRAW_BAND_ROWS 64
/* Bands drawn and waiting for their encoding, at most. */
#define DRAW_AHEAD     4
/* Below this many bytes of pixels the threads cost more than they save. */
#define PARALLEL_MIN   (2 * 1024 * 1024)

typedef struct {
  guint8 *data;       /* deflate blocks of the band's rows */
  gsize   len;
  uLong   adler;      /* of the band's filtered rows */
  gsize   raw_len;
} Band;

/* A band's working memory, kept for the next band: freeing and taking it
 * again would give the pages back to the system and fault them in anew. */
typedef struct {
  guint8 *rows;       /* the band's filtered rows */
  guint8 *out;        /* their deflate blocks */
} Scratch;

typedef struct {
  Writer        *w;
  int            width;
  int            height;
  gboolean       alpha;
  int            band_rows;
  guint          n_bands;
  Band          *bands;
  uLong          adler;
  GMutex         scratch_lock;
  GPtrArray     *scratch;     /* Scratch not in use */
} Encode;

static gsize
row_bytes (const Encode *e)
{
  return 1 + (gsize) e->width * (e->alpha ? 4 : 3);
}

static void
scratch_free (gpointer data)
{
  Scratch *s = data;

  g_free (s->rows);
  g_free (s->out);
  g_free (s);
}

static void
encode_init (Encode   *e,
             Writer   *w,
             int       width,
             int       height,
             gboolean  alpha,
             int       band_rows)
{
  e->w = w;
  e->width = width;
  e->height = height;
  e->alpha = alpha;
  e->band_rows = band_rows;
  e->n_bands = (guint) ((height + band_rows - 1) / band_rows);
  e->bands = g_new0 (Band, e->n_bands);
  g_mutex_init (&e->scratch_lock);
  e->scratch = g_ptr_array_new_with_free_func (scratch_free);
}

static void
encode_clear (Encode *e)
{
  for (guint i = 0; i < e->n_bands; i++)
    g_free (e->bands[i].data);
  g_clear_pointer (&e->bands, g_free);
  g_clear_pointer (&e->scratch, g_ptr_array_unref);
  g_mutex_clear (&e->scratch_lock);
}

/* Filters and compresses band @index, whose pixels are @pixels: raw
 * deflate, the last band ending the stream, the others ending on a byte
 * boundary without a final block, so that the bands laid end to end are
 * one stream. An RGB band with a pixel that is not opaque is left
 * unencoded, and FALSE returned. */
static gboolean
encode_band (Encode       *e,
             guint         index,
             const guint8 *pixels,
             int           stride)
{
  Band *band = &e->bands[index];
  int n_rows = MIN (e->height - (int) index * e->band_rows, e->band_rows);
  gsize rb = row_bytes (e), most = rb * (gsize) e->band_rows;
  gboolean opaque = TRUE;
  Scratch *s = NULL;

  g_mutex_lock (&e->scratch_lock);
  if (e->scratch->len > 0)
    s = g_ptr_array_steal_index_fast (e->scratch, e->scratch->len - 1);
  g_mutex_unlock (&e->scratch_lock);
  if (s == NULL)
    {
      s = g_new0 (Scratch, 1);
      /* One byte past the last row: convert_row stores four bytes a pixel. */
      s->rows = g_malloc (most + 1);
      s->out = g_malloc (kymo_deflate_rows_bound (most));
    }

  for (int y = 0; y < n_rows; y++)
    opaque &= convert_row ((const guint32 *) (gconstpointer) (pixels + (gsize) y * stride), e->width, e->alpha,
                           s->rows + rb * (gsize) y);
  if (opaque)
    {
      band->raw_len = rb * (gsize) n_rows;
      band->adler = libdeflate_adler32 (1, s->rows, band->raw_len);
      band->len = kymo_deflate_rows (s->rows, band->raw_len, rb, e->alpha ? 4 : 3, index + 1 == e->n_bands,
                                     s->out);
      band->data = g_memdup2 (s->out, band->len);
    }

  g_mutex_lock (&e->scratch_lock);
  g_ptr_array_add (e->scratch, s);
  g_mutex_unlock (&e->scratch_lock);
  return opaque;
}

static void
join_band (Encode *e,
           guint   index)
{
  Band *band = &e->bands[index];

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
}

/* Opens @path and writes the PNG signature and header. */
static gboolean
begin_file (Writer      *w,
            int          width,
            int          height,
            gboolean     alpha,
            const char  *path,
            GError     **error)
{
  static const guint8 signature[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  guint8 header[13];

  w->file = g_fopen (path, "wb");
  if (w->file == NULL)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("%s: cannot write: %s"), path, g_strerror (saved_errno));
      return FALSE;
    }
  write_bytes (w, signature, sizeof signature);
  put_be32 (header, (guint32) width);
  put_be32 (header + 4, (guint32) height);
  header[8] = 8;                  /* bits per channel */
  header[9] = alpha ? 6 : 2;      /* RGBA or RGB */
  header[10] = header[11] = header[12] = 0;
  write_chunk (w, "IHDR", header, sizeof header);
  return TRUE;
}

static gboolean
end_file (Writer      *w,
          const char  *path,
          GError     **error)
{
  write_chunk (w, "IEND", NULL, 0);
  if (fclose (w->file) != 0 && w->saved_errno == 0)
    w->saved_errno = errno != 0 ? errno : EIO;
  if (w->saved_errno != 0)
    {
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (w->saved_errno),
                   _("%s: cannot write: %s"), path, g_strerror (w->saved_errno));
      g_unlink (path);
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  Encode       *e;
  const guint8 *pixels;
  int           stride;
} SurfaceEncode;

static void
encode_surface_band (guint    index,
                     gpointer user_data)
{
  SurfaceEncode *se = user_data;

  encode_band (se->e, index, se->pixels + (gsize) index * se->e->band_rows * se->stride, se->stride);
}

gboolean
kymo_png_write_surface (cairo_surface_t  *surface,
                        const char       *path,
                        GError          **error)
{
  g_autoptr(KymoParts) parts = NULL;
  cairo_format_t format;
  SurfaceEncode se;
  int width, height;
  gboolean alpha;
  Writer w = { 0 };
  Encode e = { 0 };

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
  se.e = &e;
  se.pixels = cairo_image_surface_get_data (surface);
  se.stride = cairo_image_surface_get_stride (surface);
  width = cairo_image_surface_get_width (surface);
  height = cairo_image_surface_get_height (surface);
  alpha = format == CAIRO_FORMAT_ARGB32 && !is_opaque (se.pixels, width, height, se.stride);

  if (!begin_file (&w, width, height, alpha, path, error))
    return FALSE;
  encode_init (&e, &w, width, height, alpha, BAND_ROWS);
  parts = kymo_parts_new (NULL, (gsize) height * row_bytes (&e), PARALLEL_MIN, e.n_bands, 8,
                          encode_surface_band, &se);
  /* Without help, the one worker of two cores stays ahead and encodes
   * nearly every band while this thread waits for it. */
  kymo_parts_set_help (parts, TRUE);
  for (guint i = 0; i < e.n_bands; i++)
    {
      kymo_parts_wait (parts, i);
      join_band (&e, i);
      kymo_parts_release (parts, i);
    }
  g_clear_pointer (&parts, kymo_parts_free);
  encode_clear (&e);
  return end_file (&w, path, error);
}

typedef struct {
  Encode     e;
  GMutex     lock;
  GCond      cond;
  int        stride;
  /* Under @lock: how many bands are drawn, their pixels until encoded,
   * and cleared band buffers for the next bands (a few: see DRAW_AHEAD). */
  guint      n_drawn;
  guint8   **pixels;
  GPtrArray *spare;
  /* A band has a pixel that is not opaque: the file needs RGBA. */
  gint       not_opaque;
} Drawn;

static void
encode_drawn_band (guint    index,
                   gpointer user_data)
{
  Drawn *d = user_data;
  guint8 *pixels;

  /* A worker may come for a band before it is drawn. */
  g_mutex_lock (&d->lock);
  while (d->n_drawn <= index)
    g_cond_wait (&d->cond, &d->lock);
  pixels = g_steal_pointer (&d->pixels[index]);
  g_mutex_unlock (&d->lock);

  /* The file is RGB until a band proves otherwise; then the picture is
   * written again as RGBA, which costs a second drawing but happens only
   * to pictures with transparency, never to a timeline. */
  if (!g_atomic_int_get (&d->not_opaque) && !encode_band (&d->e, index, pixels, d->stride))
    g_atomic_int_set (&d->not_opaque, TRUE);

  /* Cleared here rather than by the drawing thread, which waits for it. */
  memset (pixels, 0, (gsize) d->stride * MIN (d->e.height - (int) index * d->e.band_rows, d->e.band_rows));
  g_mutex_lock (&d->lock);
  g_ptr_array_add (d->spare, pixels);
  g_mutex_unlock (&d->lock);
}

static void
finish_drawn_band (Drawn     *d,
                   KymoParts *parts,
                   guint      index)
{
  kymo_parts_wait (parts, index);
  if (!g_atomic_int_get (&d->not_opaque))
    join_band (&d->e, index);
  kymo_parts_release (parts, index);
}

static gboolean
write_drawn_whole (int              width,
                   int              height,
                   KymoPngDrawFunc  draw,
                   gpointer         user_data,
                   const char      *path,
                   GError         **error)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  gboolean written;

  draw (cr, 0, height, user_data);
  cairo_destroy (cr);
  written = kymo_png_write_surface (surface, path, error);
  cairo_surface_destroy (surface);
  return written;
}

gboolean
kymo_png_write_drawn (int               width,
                      int               height,
                      KymoPngDrawFunc   draw,
                      gpointer          user_data,
                      const char       *path,
                      GError          **error)
{
  g_autoptr(KymoParts) parts = NULL;
  Writer w = { 0 };
  Drawn d = { 0 };
  guint joined = 0;
  gboolean not_opaque;

  g_return_val_if_fail (width > 0 && height > 0, FALSE);
  g_return_val_if_fail (draw != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!begin_file (&w, width, height, FALSE, path, error))
    return FALSE;
  encode_init (&d.e, &w, width, height, FALSE, DRAW_BAND_ROWS);
  g_mutex_init (&d.lock);
  g_cond_init (&d.cond);
  d.stride = cairo_format_stride_for_width (CAIRO_FORMAT_ARGB32, width);
  d.pixels = g_new0 (guint8 *, d.e.n_bands);
  d.spare = g_ptr_array_new_with_free_func (g_free);
  parts = kymo_parts_new (NULL, (gsize) height * row_bytes (&d.e), PARALLEL_MIN, d.e.n_bands, DRAW_AHEAD,
                          encode_drawn_band, &d);
  kymo_parts_set_help (parts, TRUE);

  /* Drawing stays on this thread: fonts and render nodes are not for two
   * threads at once. The workers encode each band meanwhile. */
  for (guint i = 0; i < d.e.n_bands; i++)
    {
      int y0 = (int) i * d.e.band_rows, n_rows = MIN (height - y0, d.e.band_rows);
      guint8 *pixels = NULL;
      cairo_surface_t *surface;
      cairo_t *cr;

      g_mutex_lock (&d.lock);
      if (d.spare->len > 0)
        pixels = g_ptr_array_steal_index_fast (d.spare, d.spare->len - 1);
      g_mutex_unlock (&d.lock);
      if (pixels == NULL)
        pixels = g_malloc0 ((gsize) d.stride * d.e.band_rows);

      surface = cairo_image_surface_create_for_data (pixels, CAIRO_FORMAT_ARGB32, width, n_rows, d.stride);
      cr = cairo_create (surface);
      cairo_translate (cr, 0, -y0);
      draw (cr, y0, y0 + n_rows, user_data);
      cairo_destroy (cr);
      cairo_surface_finish (surface);
      cairo_surface_destroy (surface);

      g_mutex_lock (&d.lock);
      d.pixels[i] = pixels;
      d.n_drawn++;
      g_cond_broadcast (&d.cond);
      g_mutex_unlock (&d.lock);

      /* At most DRAW_AHEAD bands wait for their encoding: when the workers
       * fall behind, this thread encodes too, rather than taking more
       * memory. While it waits for a band it takes only drawn ones: those
       * before the join plus DRAW_AHEAD. */
      while (joined + DRAW_AHEAD <= i + 1)
        finish_drawn_band (&d, parts, joined++);
    }
  while (joined < d.e.n_bands)
    finish_drawn_band (&d, parts, joined++);
  g_clear_pointer (&parts, kymo_parts_free);
  not_opaque = g_atomic_int_get (&d.not_opaque);

  g_ptr_array_unref (d.spare);
  g_free (d.pixels);
  encode_clear (&d.e);
  g_cond_clear (&d.cond);
  g_mutex_clear (&d.lock);

  if (not_opaque)
    {
      /* Written anew from the start: an error of this file's comes again. */
      fclose (w.file);
      return write_drawn_whole (width, height, draw, user_data, path, error);
    }
  return end_file (&w, path, error);
}
