/* kymo-byte-reader.h: bounds-checked reads from untrusted bytes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

G_BEGIN_DECLS

/* Every read checks the remaining length first and leaves the position
 * unchanged on failure, so the caller can report the exact offset. */
typedef struct {
  const guint8 *data;
  gsize         size;
  gsize         pos;
} KymoByteReader;

static inline void
kymo_byte_reader_init (KymoByteReader *r,
                       const guint8   *data,
                       gsize           size)
{
  r->data = data;
  r->size = size;
  r->pos = 0;
}

static inline gsize
kymo_byte_reader_remaining (const KymoByteReader *r)
{
  return r->size - r->pos;
}

static inline gboolean
kymo_byte_reader_skip (KymoByteReader *r,
                       gsize           n)
{
  if (kymo_byte_reader_remaining (r) < n)
    return FALSE;
  r->pos += n;
  return TRUE;
}

static inline gboolean
kymo_byte_reader_bytes (KymoByteReader  *r,
                        gsize            n,
                        const guint8   **out)
{
  if (kymo_byte_reader_remaining (r) < n)
    return FALSE;
  *out = r->data + r->pos;
  r->pos += n;
  return TRUE;
}

static inline gboolean
kymo_byte_reader_u8 (KymoByteReader *r,
                     guint8         *out)
{
  if (r->pos >= r->size)
    return FALSE;
  *out = r->data[r->pos++];
  return TRUE;
}

#define KYMO_DEFINE_READ(name, type, n, little)                          \
  static inline gboolean                                                 \
  kymo_byte_reader_##name (KymoByteReader *r, type *out)                 \
  {                                                                      \
    guint64 v = 0;                                                       \
    if (kymo_byte_reader_remaining (r) < (n))                            \
      return FALSE;                                                      \
    for (guint i_ = 0; i_ < (n); i_++)                                   \
      {                                                                  \
        guint8 b_ = r->data[r->pos + (little ? (n) - 1 - i_ : i_)];      \
        v = (v << 8) | b_;                                               \
      }                                                                  \
    r->pos += (n);                                                       \
    *out = (type) v;                                                     \
    return TRUE;                                                         \
  }

KYMO_DEFINE_READ (u16le, guint16, 2, TRUE)
KYMO_DEFINE_READ (u24le, guint32, 3, TRUE)
KYMO_DEFINE_READ (u32le, guint32, 4, TRUE)
KYMO_DEFINE_READ (u64le, guint64, 8, TRUE)
KYMO_DEFINE_READ (u16be, guint16, 2, FALSE)
KYMO_DEFINE_READ (u32be, guint32, 4, FALSE)
KYMO_DEFINE_READ (u64be, guint64, 8, FALSE)

#undef KYMO_DEFINE_READ

/* Unsigned LEB128 of at most @max_bytes bytes whose value fits @bits bits. */
static inline gboolean
kymo_byte_reader_uleb128 (KymoByteReader *r,
                          guint           max_bytes,
                          guint           bits,
                          guint64        *out)
{
  guint64 v = 0;
  gsize p = r->pos;

  for (guint i = 0; i < max_bytes; i++)
    {
      guint shift = 7 * i;
      guint64 part;
      guint8 b;

      if (p >= r->size)
        return FALSE;
      b = r->data[p++];
      part = b & 0x7F;
      if (shift >= bits)
        {
          if (part != 0)
            return FALSE;
        }
      else
        {
          if (bits - shift < 7 && (part >> (bits - shift)) != 0)
            return FALSE;
          v |= part << shift;
        }
      if ((b & 0x80) == 0)
        {
          r->pos = p;
          *out = v;
          return TRUE;
        }
    }
  return FALSE;
}

/* The first byte in [from, to) that is not 0x00, or @to: zero padding
 * (a preallocated file, a crashed writer) is passed at memory speed, 64
 * bytes a step, rather than read as a frame a byte. */
static inline gsize
kymo_skip_zeros (const guint8 *data,
                 gsize         from,
                 gsize         to)
{
  while (from < to && ((guintptr) (data + from) & 7) != 0)
    {
      if (data[from] != 0)
        return from;
      from++;
    }
  while (to - from >= 64)
    {
      guint64 w[8], any;

      memcpy (w, data + from, sizeof w);
      any = w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7];
      if (any != 0)
        break;
      from += 64;
    }
  while (from < to && data[from] == 0)
    from++;
  return from;
}

static inline guint16 kymo_read_u16le (const guint8 *p) { return (guint16) (p[0] | p[1] << 8); }
static inline guint32 kymo_read_u32le (const guint8 *p) { return (guint32) p[0] | (guint32) p[1] << 8 | (guint32) p[2] << 16 | (guint32) p[3] << 24; }
static inline guint64 kymo_read_u64le (const guint8 *p) { return (guint64) kymo_read_u32le (p) | (guint64) kymo_read_u32le (p + 4) << 32; }
static inline guint16 kymo_read_u16be (const guint8 *p) { return (guint16) (p[0] << 8 | p[1]); }
static inline guint32 kymo_read_u32be (const guint8 *p) { return (guint32) p[0] << 24 | (guint32) p[1] << 16 | (guint32) p[2] << 8 | (guint32) p[3]; }
static inline guint64 kymo_read_u64be (const guint8 *p) { return (guint64) kymo_read_u32be (p) << 32 | (guint64) kymo_read_u32be (p + 4); }

G_END_DECLS
