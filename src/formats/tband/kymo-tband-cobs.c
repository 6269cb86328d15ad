/* kymo-tband-cobs.c: COBS frames and the varints inside them
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-cobs.h"

#include <string.h>

gboolean
kymo_tband_cobs_decode (const guint8 *in,
                        gsize         in_len,
                        guint8       *out,
                        gsize        *out_len)
{
  gsize i = 0, o = 0;

  while (i < in_len)
    {
      guint code = in[i];
      gsize n;

      if (code == 0)
        return FALSE;
      n = code - 1;
      if (n > in_len - i - 1)
        return FALSE;
      memcpy (out + o, in + i + 1, n);
      o += n;
      i += code;
      /* A block shorter than 254 bytes stood for a zero, except the last:
       * its zero is the frame delimiter. */
      if (code != 0xFF && i < in_len)
        out[o++] = 0;
    }
  *out_len = o;
  return TRUE;
}

gsize
kymo_tband_cobs_encode (const guint8 *in,
                        gsize         len,
                        guint8       *out)
{
  gsize code_pos = 0, o = 1;
  guint8 code = 1;

  for (gsize i = 0; i < len; i++)
    {
      if (in[i] == 0)
        {
          out[code_pos] = code;
          code_pos = o++;
          code = 1;
          continue;
        }
      out[o++] = in[i];
      if (++code == 0xFF)
        {
          out[code_pos] = code;
          code_pos = o++;
          code = 1;
        }
    }
  out[code_pos] = code;
  out[o++] = 0;
  return o;
}

void
kymo_tband_framer_init (KymoTbandFramer *self,
                        const guint8    *data,
                        gsize            size)
{
  memset (self, 0, sizeof *self);
  self->data = data;
  self->size = size;
}

void
kymo_tband_framer_clear (KymoTbandFramer *self)
{
  g_clear_pointer (&self->scratch, g_free);
  self->scratch_size = 0;
}

KymoTbandFrameResult
kymo_tband_framer_next (KymoTbandFramer  *self,
                        gsize            *offset,
                        const guint8    **payload,
                        gsize            *len,
                        const char      **reason)
{
  const guint8 *start, *zero;
  gsize n;

  while (self->pos < self->size && self->data[self->pos] == 0)
    self->pos++;
  if (self->pos >= self->size)
    return KYMO_TBAND_FRAME_END;

  start = self->data + self->pos;
  *offset = self->pos;
  zero = NULL;
  /* Most frames are a few bytes long: look for their 0x00 a word at a time
   * before paying for a memchr call. */
  if (self->size - self->pos >= 16)
    {
      for (guint w = 0; w < 16; w += 8)
        {
          guint64 v, mask;

          memcpy (&v, start + w, 8);
          v = GUINT64_FROM_LE (v);
          mask = (v - G_GUINT64_CONSTANT (0x0101010101010101)) & ~v & G_GUINT64_CONSTANT (0x8080808080808080);
          if (mask != 0)
            {
              zero = start + w + (__builtin_ctzll (mask) >> 3);
              break;
            }
        }
    }
  if (zero == NULL)
    zero = memchr (start, 0, self->size - self->pos);
  if (zero == NULL)
    {
      *len = self->size - self->pos;
      self->pos = self->size;
      *reason = "unfinished frame: the input ends before its closing 0x00";
      return KYMO_TBAND_FRAME_UNFINISHED;
    }

  n = zero - start;
  self->pos += n + 1;

  /* Almost every event is shorter than 254 bytes: one COBS block that holds
   * the payload as it is, so no copy is needed. */
  if (start[0] == n)
    {
      if (n == 1)
        {
          *reason = "empty event";
          return KYMO_TBAND_FRAME_BAD;
        }
      *payload = start + 1;
      *len = n - 1;
      return KYMO_TBAND_FRAME_OK;
    }

  if (self->scratch_size < n)
    {
      self->scratch_size = MAX (n, 256);
      self->scratch = g_realloc (self->scratch, self->scratch_size);
    }
  if (!kymo_tband_cobs_decode (start, n, self->scratch, len))
    {
      *reason = "bad COBS: a block runs past the end of the frame";
      return KYMO_TBAND_FRAME_BAD;
    }
  if (*len == 0)
    {
      *reason = "empty event";
      return KYMO_TBAND_FRAME_BAD;
    }
  *payload = self->scratch;
  return KYMO_TBAND_FRAME_OK;
}

gsize
kymo_tband_write_u64 (guint8  *out,
                      guint64  value)
{
  gsize n = 0;

  do
    {
      guint8 b = value & 0x7F;

      value >>= 7;
      out[n++] = b | (value ? 0x80 : 0);
    }
  while (value);
  return n;
}

gsize
kymo_tband_write_s64 (guint8 *out,
                      gint64  value)
{
  guint64 raw;

  if (value == G_MININT64)
    raw = 1;
  else if (value < 0)
    raw = ((guint64) -value << 1) | 1;
  else
    raw = (guint64) value << 1;
  return kymo_tband_write_u64 (out, raw);
}
