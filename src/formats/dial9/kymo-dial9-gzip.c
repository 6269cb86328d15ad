/* kymo-dial9-gzip.c: streaming inflate of gzip-wrapped dial9 traces
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <libdeflate.h>
#include <zlib.h>

#include "kymo-dial9-gzip.h"
#include "kymo-dial9-loader.h"

/* zlib counts in uInt: feed the input in slices it can take. */
#define SLICE (1u << 30)
#define OUT_STEP (1u << 22)
/* The first allocation at most: the buffer grows by doubling past it
 * (large blocks are remapped, not copied), so a short input that claims
 * or seems to inflate to gigabytes costs nothing up front. */
#define MAX_INITIAL_CAPACITY ((gsize) 64 << 20)
/* libdeflate inflates a member in one call, with no progress and no
 * cancel: only members that take well under a second. */
#define WHOLE_MAX ((gsize) 1 << 30)
/* Traces deflate to a fifth or a tenth; a far higher ratio is zeros or a
 * repeated pattern, most likely damage, which zlib streaming refuses after
 * its first MiB instead of inflating all of it. */
#define MAX_TRUSTED_RATIO 64

gsize
d9_gunzip_head (const guint8 *data,
                gsize         size,
                guint8       *out,
                gsize         max)
{
  z_stream z = { 0 };
  gsize n;

  if (!d9_is_gzip (data, size) || inflateInit2 (&z, 16 + MAX_WBITS) != Z_OK)
    return 0;
  z.next_in = (Bytef *) data;
  z.avail_in = (uInt) MIN (size, SLICE);
  z.next_out = out;
  z.avail_out = (uInt) max;
  while (z.avail_out > 0)
    {
      int ret = inflate (&z, Z_SYNC_FLUSH);
      if (ret != Z_OK)
        break;
    }
  n = max - z.avail_out;
  inflateEnd (&z);
  return n;
}

/* Only gzip's own trailer says how big the output is (mod 2^32): a hint for
 * the first allocation, trusted no further than a plausible ratio. */
static gsize
initial_capacity (const guint8 *data,
                  gsize         size)
{
  guint64 hint = size >= 18 ? (guint64) data[size - 4] | (guint64) data[size - 3] << 8 |
                              (guint64) data[size - 2] << 16 | (guint64) data[size - 1] << 24 : 0;
  guint64 cap = MAX ((guint64) size * 4, 1 << 16);

  if (hint >= size && hint <= (guint64) size * 64)
    cap = hint + 1;
  return (gsize) MIN (cap, MAX_INITIAL_CAPACITY);
}

gsize
d9_gzip_trusted_size (guint32 isize,
                      gsize   size)
{
  if (size < 18 || isize == 0 || isize < size / 4 || (guint64) isize > (guint64) size * MAX_TRUSTED_RATIO)
    return 0;
  return isize;
}

gboolean
d9_inflate_member (const guint8 *data,
                   gsize         size,
                   guint8       *out,
                   gsize         out_size)
{
  struct libdeflate_decompressor *dec = libdeflate_alloc_decompressor ();
  gsize in_used = 0, out_used = 0;
  gboolean ok;

  ok = dec != NULL &&
       libdeflate_gzip_decompress_ex (dec, data, size, out, out_size, &in_used, &out_used) == LIBDEFLATE_SUCCESS &&
       in_used == size && out_used == out_size;
  if (dec != NULL)
    libdeflate_free_decompressor (dec);
  return ok;
}

/* One whole member in memory, sized by its trailer. NULL when libdeflate
 * cannot: zlib streaming then finds out how far it gets. */
static GBytes *
inflate_whole (const guint8 *data,
               gsize         size)
{
  gsize guess = size >= 18 ? d9_gzip_trusted_size ((guint32) data[size - 4] | (guint32) data[size - 3] << 8 |
                                                   (guint32) data[size - 2] << 16 | (guint32) data[size - 1] << 24,
                                                   size) : 0;
  guint8 *out;

  if (guess == 0 || guess > WHOLE_MAX || (out = g_try_malloc (guess)) == NULL)
    return NULL;
  if (!d9_inflate_member (data, size, out, guess))
    {
      g_free (out);
      return NULL;
    }
  return g_bytes_new_take (out, guess);
}

GBytes *
d9_gunzip (KymoLoadJob   *job,
           const guint8  *data,
           gsize          size,
           char         **warning,
           GError       **error)
{
  z_stream z = { 0 };
  gsize cap = initial_capacity (data, size);
  gsize len = 0, consumed = 0;
  guint8 *out = g_malloc (cap);
  gboolean in_member = TRUE, probed = FALSE;
  int ret;

  *warning = NULL;
  {
    GBytes *whole = inflate_whole (data, size);

    if (whole != NULL)
      {
        g_free (out);
        if (job != NULL && !kymo_load_job_progress (job, 0.5, "Decompressing", error))
          {
            g_bytes_unref (whole);
            return NULL;
          }
        return whole;
      }
  }
  if (inflateInit2 (&z, 16 + MAX_WBITS) != Z_OK)
    {
      g_free (out);
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_IO, KYMO_NO_OFFSET,
                               "cannot start the gzip decoder");
      return NULL;
    }

  for (;;)
    {
      if (z.avail_in == 0 && consumed < size)
        {
          z.next_in = (Bytef *) data + consumed;
          z.avail_in = (uInt) MIN (size - consumed, SLICE);
          consumed += z.avail_in;
        }
      if (len == cap)
        {
          cap = cap < G_MAXSIZE / 2 ? cap * 2 : G_MAXSIZE;
          out = g_realloc (out, cap);
        }
      z.next_out = out + len;
      /* Small steps keep progress and cancellation responsive. */
      z.avail_out = (uInt) MIN (cap - len, OUT_STEP);
      {
        uInt before = z.avail_out;
        ret = inflate (&z, Z_NO_FLUSH);
        len += before - z.avail_out;
      }

      /* Garbage inflates too, to many times its size: once the first
       * output proves damaged, the rest cannot be read past it anyway. */
      if (!probed && len >= D9_PROBE_BYTES)
        {
          probed = TRUE;
          if (d9_probe_damaged (out, len))
            {
              in_member = FALSE;
              break;
            }
        }
      if (ret == Z_STREAM_END)
        {
          gsize at = consumed - z.avail_in;

          /* Another member may follow; zero padding after the last is fine. */
          while (at < size && data[at] == 0)
            at++;
          if (at >= size)
            {
              in_member = FALSE;
              break;
            }
          if (!d9_is_gzip (data + at, size - at))
            {
              *warning = g_strdup_printf ("%" G_GSIZE_FORMAT " bytes of trailing data after the gzip stream ignored",
                                          size - at);
              in_member = FALSE;
              break;
            }
          inflateReset (&z);
          consumed = at;
          z.avail_in = 0;
          continue;
        }
      if (ret == Z_BUF_ERROR && z.avail_in == 0 && consumed >= size)
        break; /* the input ends inside a member */
      if (ret != Z_OK && ret != Z_BUF_ERROR)
        {
          g_autofree char *msg = g_strdup (z.msg ? z.msg : "invalid data");
          inflateEnd (&z);
          kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_CORRUPT, len,
                                   "gzip data is corrupt at compressed byte %" G_GSIZE_FORMAT " (%s)",
                                   consumed - z.avail_in, msg);
          if (len == 0)
            {
              g_free (out);
              return NULL;
            }
          return g_bytes_new_take (g_realloc (out, len), len);
        }
      if (job != NULL &&
          !kymo_load_job_progress (job, 0.5 * (consumed - z.avail_in) / MAX (size, 1),
                                   "Decompressing", error))
        {
          inflateEnd (&z);
          g_free (out);
          return NULL;
        }
    }

  inflateEnd (&z);
  if (in_member)
    *warning = g_strdup ("the gzip stream ends early (a trace still being written?)");
  return g_bytes_new_take (g_realloc (out, MAX (len, 1)), len);
}
