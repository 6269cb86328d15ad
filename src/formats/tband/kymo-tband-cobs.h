/* kymo-tband-cobs.h: COBS frames and the varints inside them
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>
#include <string.h>

#include "kymo-byte-reader.h"
#ifdef __SSE2__
#include <emmintrin.h>
#endif

G_BEGIN_DECLS

/* Decodes the COBS body of one frame (@in without its closing 0x00) into
 * @out, which must hold @in_len bytes. FALSE when a block runs past the end
 * of the frame or a code byte is 0x00. */
gboolean kymo_tband_cobs_decode (const guint8 *in,
                                 gsize         in_len,
                                 guint8       *out,
                                 gsize        *out_len);

/* Encodes @len bytes into @out (room for kymo_tband_cobs_max_encoded()),
 * including the closing 0x00; returns the bytes written. Used by tests,
 * the benchmark and the fuzz corpus writer. */
gsize    kymo_tband_cobs_encode (const guint8 *in,
                                 gsize         len,
                                 guint8       *out);

static inline gsize
kymo_tband_cobs_max_encoded (gsize len)
{
  return len + len / 254 + 2;
}

typedef enum {
  KYMO_TBAND_FRAME_OK,         /* a decoded payload (never empty) */
  KYMO_TBAND_FRAME_BAD,        /* bad COBS or an empty payload: *reason */
  KYMO_TBAND_FRAME_UNFINISHED, /* bytes at the end with no closing 0x00 */
  KYMO_TBAND_FRAME_END,
} KymoTbandFrameResult;

/* Walks the 0x00-delimited frames of a decoded byte stream. Lone 0x00 bytes
 * (empty frames) are skipped silently. */
typedef struct {
  const guint8 *data;
  gsize         size;
  gsize         pos;
  guint8       *scratch;
  gsize         scratch_size;
  /* Where the 0x00 bytes are in the 64-byte block at zero_base (bit i:
   * data[zero_base + i]), found a block at a time. */
  gsize         zero_base;
  guint64       zero_mask;
} KymoTbandFramer;

void                 kymo_tband_framer_init  (KymoTbandFramer  *self,
                                              const guint8     *data,
                                              gsize             size);
/* Walks @data from @pos on, keeping the scratch buffer. */
void                 kymo_tband_framer_reset (KymoTbandFramer  *self,
                                              const guint8     *data,
                                              gsize             size,
                                              gsize             pos);
void                 kymo_tband_framer_clear (KymoTbandFramer  *self);
/* @offset: where the frame starts; @payload stays valid until the next call. */
KymoTbandFrameResult kymo_tband_framer_next  (KymoTbandFramer  *self,
                                              gsize            *offset,
                                              const guint8    **payload,
                                              gsize            *len,
                                              const char      **reason);

/* The out-of-line parts of kymo_tband_framer_next_inline(). */
void                 kymo_tband_framer_load_block  (KymoTbandFramer  *self,
                                                    gsize             base);
KymoTbandFrameResult kymo_tband_framer_decode_slow (KymoTbandFramer  *self,
                                                    const guint8     *start,
                                                    gsize             n,
                                                    const guint8    **payload,
                                                    gsize            *len,
                                                    const char      **reason);

/* One bit per 0x00 among the 64 bytes at @p (all readable), returned
 * rather than stored so that the caller's next read does not wait on a
 * store. */
static inline guint64
kymo_tband_zero_bits64 (const guint8 *p)
{
  guint64 mask = 0;

#ifdef __SSE2__
  const __m128i zero = _mm_setzero_si128 ();

  for (guint i = 0; i < 64; i += 16)
    {
      __m128i v = _mm_loadu_si128 ((const __m128i *) (p + i));

      mask |= (guint64) (guint32) _mm_movemask_epi8 (_mm_cmpeq_epi8 (v, zero)) << i;
    }
#else
  for (guint i = 0; i < 64; i++)
    mask |= (guint64) (p[i] == 0) << i;
#endif
  return mask;
}

/* The position of the first 0x00 at or after @from (< size), or size. */
static inline gsize
kymo_tband_framer_next_zero (KymoTbandFramer *self,
                             gsize            from)
{
  if (from < self->zero_base || from - self->zero_base >= 64)
    kymo_tband_framer_load_block (self, from & ~(gsize) 63);
  for (;;)
    {
      guint64 mask = self->zero_mask & (~G_GUINT64_CONSTANT (0) << (from - self->zero_base));

      if (mask != 0)
        return self->zero_base + __builtin_ctzll (mask);
      if (self->size - self->zero_base <= 64)
        return self->size;
      from = self->zero_base + 64;
      kymo_tband_framer_load_block (self, from);
    }
}

/* kymo_tband_framer_next() for the load loop, where a call per frame of
 * ~10 bytes shows. */
static inline KymoTbandFrameResult
kymo_tband_framer_next_inline (KymoTbandFramer  *self,
                               gsize            *offset,
                               const guint8    **payload,
                               gsize            *len,
                               const char      **reason)
{
  const guint8 *start;
  gsize n, zero;

  /* Frames are a few bytes long: the 0x00 bytes are found 64 at a time,
   * so the next frame's end does not wait for this one's search. */
  for (;;)
    {
      if (self->pos >= self->size)
        return KYMO_TBAND_FRAME_END;
      zero = kymo_tband_framer_next_zero (self, self->pos);
      if (zero != self->pos)
        break;
      /* Empty frames: a run of them is padding, passed at memory speed. */
      if (self->zero_mask == ~G_GUINT64_CONSTANT (0))
        self->pos = kymo_skip_zeros (self->data, self->pos + 1, self->size);
      else
        self->pos++;
    }

  start = self->data + self->pos;
  *offset = self->pos;
  if (G_UNLIKELY (zero == self->size))
    {
      *len = self->size - self->pos;
      self->pos = self->size;
      *reason = "unfinished frame: the input ends before its closing 0x00";
      return KYMO_TBAND_FRAME_UNFINISHED;
    }

  n = zero - self->pos;
  self->pos += n + 1;

  /* Almost every event is shorter than 254 bytes: one COBS block that holds
   * the payload as it is, so no copy is needed. */
  if (G_LIKELY (start[0] == n))
    {
      if (G_UNLIKELY (n == 1))
        {
          *reason = "empty event";
          return KYMO_TBAND_FRAME_BAD;
        }
      *payload = start + 1;
      *len = n - 1;
      return KYMO_TBAND_FRAME_OK;
    }
  return kymo_tband_framer_decode_slow (self, start, n, payload, len, reason);
}

/* Varints: low septet first, MSB = more. A u32 takes at most 5 bytes (4 bits
 * in the last), a u64 at most 10 (1 bit in the last). Each returns FALSE and
 * leaves *p alone when the field is cut short or too long. */
/* A varint of at most 8 bytes from 8 readable bytes at @q, without a
 * branch per byte: 0 when it is longer. Sets *len to its length. */
static inline guint64
kymo_tband_swar_varint (const guint8 *q,
                        guint        *len)
{
  guint64 v, stop, x;

  memcpy (&v, q, 8);
  v = GUINT64_FROM_LE (v);
  stop = ~v & G_GUINT64_CONSTANT (0x8080808080808080);
  if (stop == 0)
    {
      *len = 0;
      return 0;
    }
  *len = (__builtin_ctzll (stop) + 1) >> 3;
  /* Keep the bytes up to the last one, drop the continuation bits and
   * close the gaps: 8 septets become 56 bits. */
  x = v & (stop ^ (stop - 1)) & G_GUINT64_CONSTANT (0x7F7F7F7F7F7F7F7F);
  x = ((x & G_GUINT64_CONSTANT (0x7F007F007F007F00)) >> 1) | (x & G_GUINT64_CONSTANT (0x007F007F007F007F));
  x = ((x & G_GUINT64_CONSTANT (0x3FFF00003FFF0000)) >> 2) | (x & G_GUINT64_CONSTANT (0x00003FFF00003FFF));
  x = ((x & G_GUINT64_CONSTANT (0x0FFFFFFF00000000)) >> 4) | (x & G_GUINT64_CONSTANT (0x000000000FFFFFFF));
  return x;
}

static inline gboolean
kymo_tband_read_u64 (const guint8 **p,
                     const guint8  *end,
                     guint64       *out)
{
  const guint8 *q = *p;
  guint64 v = 0;

  /* Timestamps take 5-8 bytes: read them a word at a time when the frame
   * holds a whole word here. */
  if (end - q >= 8)
    {
      guint n;

      v = kymo_tband_swar_varint (q, &n);
      if (n != 0)
        {
          *p = q + n;
          *out = v;
          return TRUE;
        }
      v = 0;
    }
  for (guint i = 0; i < 10; i++)
    {
      guint8 b;

      if (q >= end)
        return FALSE;
      b = *q++;
      if (i == 9 && (b & ~0x01) != 0)
        return FALSE;
      v |= (guint64) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0)
        {
          *p = q;
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

static inline gboolean
kymo_tband_read_u32 (const guint8 **p,
                     const guint8  *end,
                     guint32       *out)
{
  const guint8 *q = *p;
  guint32 v = 0;

  /* One byte is by far the most common case: ids, priorities, lengths. */
  if (q < end && (*q & 0x80) == 0)
    {
      *out = *q;
      *p = q + 1;
      return TRUE;
    }
  for (guint i = 0; i < 5; i++)
    {
      guint8 b;

      if (q >= end)
        return FALSE;
      b = *q++;
      if (i == 4 && (b & ~0x0F) != 0)
        return FALSE;
      v |= (guint32) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0)
        {
          *p = q;
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

/* (magnitude << 1) | sign; 0x01, "negative zero", stands for INT64_MIN. */
static inline gboolean
kymo_tband_read_s64 (const guint8 **p,
                     const guint8  *end,
                     gint64        *out)
{
  guint64 raw;

  if (!kymo_tband_read_u64 (p, end, &raw))
    return FALSE;
  if (raw == 1)
    *out = G_MININT64;
  else if (raw & 1)
    *out = -(gint64) (raw >> 1);
  else
    *out = (gint64) (raw >> 1);
  return TRUE;
}

/* Writers for tests and generators; @out needs 10 bytes. */
gsize kymo_tband_write_u64 (guint8  *out,
                            guint64  value);
gsize kymo_tband_write_s64 (guint8  *out,
                            gint64   value);

G_END_DECLS
