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
      /* Blocks inside an event are short: a call to memcpy costs more. */
      if (n <= 16)
        for (gsize k = 0; k < n; k++)
          out[o + k] = in[i + 1 + k];
      else
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
  self->zero_base = G_MAXSIZE;
}

void
kymo_tband_framer_reset (KymoTbandFramer *self,
                         const guint8    *data,
                         gsize            size,
                         gsize            pos)
{
  g_assert (pos <= size);

  self->data = data;
  self->size = size;
  self->pos = pos;
  self->zero_base = G_MAXSIZE;
  self->zero_mask = 0;
}

void
kymo_tband_framer_clear (KymoTbandFramer *self)
{
  g_clear_pointer (&self->scratch, g_free);
  self->scratch_size = 0;
}

void
kymo_tband_framer_load_block (KymoTbandFramer *self,
                              gsize            base)
{
  guint64 mask = 0;

  self->zero_base = base;
  if (self->size - base >= 64)
    mask = kymo_tband_zero_bits64 (self->data + base);
  else
    {
      for (gsize i = 0; base + i < self->size; i++)
        if (self->data[base + i] == 0)
          mask |= G_GUINT64_CONSTANT (1) << i;
    }
  self->zero_mask = mask;
}

KymoTbandFrameResult
kymo_tband_framer_decode_slow (KymoTbandFramer  *self,
                               const guint8     *start,
                               gsize             n,
                               const guint8    **payload,
                               gsize            *len,
                               const char      **reason)
{
  if (self->scratch_size < n)
    {
      /* Zeroed: the loader reads a word at a time past a short payload. */
      g_free (self->scratch);
      self->scratch_size = MAX (n, 256);
      self->scratch = g_malloc0 (self->scratch_size);
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

KymoTbandFrameResult
kymo_tband_framer_next (KymoTbandFramer  *self,
                        gsize            *offset,
                        const guint8    **payload,
                        gsize            *len,
                        const char      **reason)
{
  return kymo_tband_framer_next_inline (self, offset, payload, len, reason);
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
