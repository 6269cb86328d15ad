/* kymo-png-writer.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cairo_surface_write_to_png() lets libpng try every row filter and
 * compress at zlib's default level: on a 1920 × 2000 timeline that is about
 * four times the cost of drawing the frame, and most of what `kymo-cli
 * render` spends after the load. A timeline is flat colour: rows without a
 * filter, deflated by the matcher below (zlib's fastest level where it
 * does poorly), come out about as small in a fraction of the time. Bands
 * of rows are compressed side by side (each a run of deflate blocks
 * flushed to a byte boundary, so that they join into one stream) and
 * written in order as they come: a few bands are held at a time, never a
 * copy of the image.
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
#define WINDOW       32768
#define MAX_MATCH    258

/* A timeline is flat colour, hatching and a little text: nearly every byte
 * repeats the pixel to its left, the one above, or (hatching) one of the
 * two above beside it. zlib's fastest level finds those repeats through a
 * hash of every position; looking only at these four distances finds them
 * in a fifth of the time, and fixed Huffman codes cost little on runs of
 * 258-byte matches. A band where this does poorly (a photograph, noise) is
 * compressed again with zlib. */
typedef struct {
  guint8  *out;
  gsize    len;
  guint64  bits;
  guint    n_bits;
} Bits;

static inline void
put_bits (Bits    *b,
          guint32  value,
          guint    n)
{
  b->bits |= (guint64) value << b->n_bits;
  b->n_bits += n;
  while (b->n_bits >= 8)
    {
      b->out[b->len++] = (guint8) b->bits;
      b->bits >>= 8;
      b->n_bits -= 8;
    }
}

static void
align_bits (Bits *b)
{
  if (b->n_bits > 0)
    put_bits (b, 0, 8 - b->n_bits);
}

static guint32
reverse_bits (guint32 code,
              guint   n)
{
  guint32 r = 0;

  for (guint i = 0; i < n; i++, code >>= 1)
    r = (r << 1) | (code & 1);
  return r;
}

/* The fixed Huffman code of a literal/length symbol (RFC 1951 3.2.6),
 * bit-reversed as the stream stores it. */
static void
fixed_code (guint    symbol,
            guint32 *code,
            guint   *n)
{
  if (symbol < 144)
    *code = reverse_bits (0x30 + symbol, *n = 8);
  else if (symbol < 256)
    *code = reverse_bits (0x190 + symbol - 144, *n = 9);
  else if (symbol < 280)
    *code = reverse_bits (symbol - 256, *n = 7);
  else
    *code = reverse_bits (0xc0 + symbol - 280, *n = 8);
}

static const guint16 length_base[29] = {
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
  195, 227, 258 };
static const guint8 length_extra[29] = {
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const guint16 dist_base[30] = {
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
  3073, 4097, 6145, 8193, 12289, 16385, 24577 };
static const guint8 dist_extra[30] = {
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

typedef struct {
  guint32 code;       /* the symbol's code, then the extra bits */
  guint8  n;
} Code;

static Code literal_codes[256];
static Code length_codes[MAX_MATCH + 1];

static void
init_codes (void)
{
  guint32 code;
  guint n;

  for (guint i = 0; i < 256; i++)
    {
      fixed_code (i, &code, &n);
      literal_codes[i] = (Code) { code, n };
    }
  for (guint len = 3, sym = 0; len <= MAX_MATCH; len++)
    {
      while (sym + 1 < G_N_ELEMENTS (length_base) && length_base[sym + 1] <= len)
        sym++;
      fixed_code (257 + sym, &code, &n);
      length_codes[len] = (Code) { code | (len - length_base[sym]) << n, n + length_extra[sym] };
    }
}

/* A distance's code (fixed: 5 bits), then its extra bits. */
static Code
dist_code (guint dist)
{
  guint sym = 0;

  while (sym + 1 < G_N_ELEMENTS (dist_base) && dist_base[sym + 1] <= dist)
    sym++;
  return (Code) { reverse_bits (sym, 5) | (dist - dist_base[sym]) << 5, 5 + dist_extra[sym] };
}

static inline guint
match_length (const guint8 *a,
              const guint8 *b,
              guint         max)
{
  guint n = 0;

  while (n + 8 <= max)
    {
      guint64 x, y;

      memcpy (&x, a + n, 8);
      memcpy (&y, b + n, 8);
      if (x != y)
        return n + (guint) (__builtin_ctzll (x ^ y) >> 3);
      n += 8;
    }
  while (n < max && a[n] == b[n])
    n++;
  return n;
}

#define HASH_BITS 12

static inline guint
hash4 (const guint8 *p)
{
  guint32 v;

  memcpy (&v, p, 4);
  return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* Deflates data[start, end) as one fixed-Huffman block, matching at @dists,
 * at the distance last found through a hash of 4 bytes, and at that hash's
 * latest position (bytes before data + start may be matched: the stream
 * holds them). Ends byte-aligned: with the final bit when @last, else with
 * an empty stored block, as Z_SYNC_FLUSH does. */
static gsize
deflate_rows (const guint8 *data,
              gsize         start,
              gsize         end,
              const guint  *fixed_dists,
              guint         n_fixed,
              gboolean      last,
              guint8       *out)
{
  Bits b = { out, 0, 0, 0 };
  guint dists[5];
  Code dcodes[5];
  guint n_dists = n_fixed + 1, prefer = 0;
  g_autofree guint32 *head = g_new0 (guint32, 1 << HASH_BITS);

  g_assert (n_fixed < G_N_ELEMENTS (dists));
  for (guint i = 0; i < n_fixed; i++)
    {
      dists[i] = fixed_dists[i];
      dcodes[i] = dist_code (dists[i]);
    }
  /* The learnt distance, none yet. */
  dists[n_fixed] = G_MAXUINT;

  put_bits (&b, last ? 1 : 0, 1);
  put_bits (&b, 1, 2);            /* fixed Huffman codes */
  for (gsize p = start; p < end;)
    {
      guint max = (guint) MIN (end - p, MAX_MATCH), best = 0, best_i = 0;

      /* The distance that matched last most often matches again. */
      for (guint k = 0; k < n_dists && best < max; k++)
        {
          guint i = (prefer + k) % n_dists, len;

          if (dists[i] > p)
            continue;
          len = match_length (data + p, data + p - dists[i], max);
          if (len > best)
            {
              best = len;
              best_i = i;
            }
        }
      /* Short or none: other repeats (a pattern's period, text) are found
       * the way zlib finds them, but only here. */
      if (best < 16 && max >= 4)
        {
          guint h = hash4 (data + p);
          gsize at = head[h];

          head[h] = (guint32) p + 1;
          if (at > 0 && p - (at - 1) <= WINDOW)
            {
              guint dist = (guint) (p - (at - 1));
              guint len = match_length (data + p, data + p - dist, max);

              if (len > best && len >= 4)
                {
                  best = len;
                  best_i = n_fixed;
                  dists[n_fixed] = dist;
                  dcodes[n_fixed] = dist_code (dist);
                }
            }
        }
      if (best >= 3)
        {
          put_bits (&b, length_codes[best].code, length_codes[best].n);
          put_bits (&b, dcodes[best_i].code, dcodes[best_i].n);
          prefer = best_i;
          p += best;
        }
      else
        {
          put_bits (&b, literal_codes[data[p]].code, literal_codes[data[p]].n);
          p++;
        }
    }
  put_bits (&b, 0, 7);            /* end of block */
  if (!last)
    {
      put_bits (&b, 0, 3);        /* an empty stored block */
      align_bits (&b);
      put_bits (&b, 0x0000, 16);
      put_bits (&b, 0xffff, 16);
    }
  align_bits (&b);
  return b.len;
}

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
  gsize stride = row_bytes (e), bpp = e->alpha ? 4 : 3;
  /* The row above the band, for matches across the band's top. */
  int above = y0 > 0 && stride + bpp <= WINDOW ? 1 : 0;
  g_autofree guint8 *rows = g_malloc (stride * (gsize) (y1 - y0 + above) + 1);
  const guint8 *own = rows + stride * (gsize) above;
  gboolean last = index + 1 == e->n_bands;
  guint dists[4], n_dists = 0;

  for (int y = y0 - above; y < y1; y++)
    convert_row ((const guint32 *) (gconstpointer) (e->pixels + (gsize) y * e->stride), e->width, e->alpha,
                 rows + stride * (gsize) (y - y0 + above));
  band->raw_len = stride * (gsize) (y1 - y0);
  band->adler = libdeflate_adler32 (1, own, band->raw_len);

  dists[n_dists++] = (guint) bpp;
  if (stride + bpp <= WINDOW)
    {
      dists[n_dists++] = (guint) stride;
      dists[n_dists++] = (guint) (stride - bpp);
      dists[n_dists++] = (guint) (stride + bpp);
    }
  /* At worst 9 bits a byte, and the block's ends. */
  band->data = g_malloc (band->raw_len + band->raw_len / 8 + 16);
  band->len = deflate_rows (rows, stride * (gsize) above, stride * (gsize) (y1 - y0 + above),
                            dists, n_dists, last, band->data);
  if (band->len > band->raw_len / 4 && !deflate_zlib (own, band->raw_len, last, band))
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

static gsize codes_ready;

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
  if (g_once_init_enter (&codes_ready))
    {
      init_codes ();
      g_once_init_leave (&codes_ready, 1);
    }
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
