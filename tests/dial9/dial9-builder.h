/* dial9-builder.h: writes dial9 frames for tests, the fuzz corpus and the benchmark
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

G_BEGIN_DECLS

static inline void
d9b_u8 (GByteArray *b, guint8 v)
{
  g_byte_array_append (b, &v, 1);
}

static inline void
d9b_u16 (GByteArray *b, guint16 v)
{
  guint8 x[2] = { v & 0xFF, v >> 8 };
  g_byte_array_append (b, x, 2);
}

static inline void
d9b_u24 (GByteArray *b, guint32 v)
{
  guint8 x[3] = { v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF };
  g_byte_array_append (b, x, 3);
}

static inline void
d9b_u32 (GByteArray *b, guint32 v)
{
  guint8 x[4] = { v & 0xFF, (v >> 8) & 0xFF, (v >> 16) & 0xFF, v >> 24 };
  g_byte_array_append (b, x, 4);
}

static inline void
d9b_u64 (GByteArray *b, guint64 v)
{
  d9b_u32 (b, (guint32) v);
  d9b_u32 (b, (guint32) (v >> 32));
}

static inline void
d9b_varint (GByteArray *b, guint64 v)
{
  do
    {
      guint8 byte = v & 0x7F;
      v >>= 7;
      d9b_u8 (b, byte | (v ? 0x80 : 0));
    }
  while (v);
}

static inline void
d9b_str32 (GByteArray *b, const char *s)
{
  d9b_u32 (b, (guint32) strlen (s));
  g_byte_array_append (b, (const guint8 *) s, (guint) strlen (s));
}

static inline void
d9b_header (GByteArray *b)
{
  g_byte_array_append (b, (const guint8 *) "TRC\0\1", 5);
}

/* @fields: "name:type" pairs as a NULL-terminated list, type in decimal. */
static inline void
d9b_schema (GByteArray *b, guint16 type_id, const char *name, gboolean has_ts, const char * const *fields)
{
  guint n = fields ? g_strv_length ((char **) fields) : 0;

  d9b_u8 (b, 0x01);
  d9b_u16 (b, type_id);
  d9b_u16 (b, (guint16) strlen (name));
  g_byte_array_append (b, (const guint8 *) name, (guint) strlen (name));
  d9b_u8 (b, has_ts ? 1 : 0);
  d9b_u16 (b, (guint16) n);
  for (guint i = 0; i < n; i++)
    {
      const char *colon = strchr (fields[i], ':');
      d9b_u16 (b, (guint16) (colon - fields[i]));
      g_byte_array_append (b, (const guint8 *) fields[i], (guint) (colon - fields[i]));
      d9b_u8 (b, (guint8) atoi (colon + 1));
    }
}

/* Starts an event frame; the caller appends the values. */
static inline void
d9b_event (GByteArray *b, guint16 type_id, gint32 delta)
{
  d9b_u8 (b, 0x02);
  d9b_u16 (b, type_id);
  if (delta >= 0)
    d9b_u24 (b, (guint32) delta);
}

static inline void
d9b_reset (GByteArray *b, guint64 ts)
{
  d9b_u8 (b, 0x05);
  d9b_u64 (b, ts);
}

static inline void
d9b_pool (GByteArray *b, guint32 id, const char *s)
{
  d9b_u8 (b, 0x03);
  d9b_u32 (b, 1);
  d9b_u32 (b, id);
  d9b_str32 (b, s);
}

static inline void
d9b_stack_pool (GByteArray *b, guint32 id, const guint64 *frames, guint32 n)
{
  d9b_u8 (b, 0x04);
  d9b_u32 (b, 1);
  d9b_u32 (b, id);
  d9b_u32 (b, n);
  for (guint32 i = 0; i < n; i++)
    d9b_u64 (b, frames[i]);
}

/* One schema annotation entry per call. */
static inline void
d9b_annotation (GByteArray *b, guint64 type_id, guint16 field, const char *key, const char *value)
{
  d9b_u8 (b, 0x06);
  d9b_varint (b, type_id);
  d9b_u16 (b, 1);
  d9b_u16 (b, field);
  d9b_u16 (b, (guint16) strlen (key));
  g_byte_array_append (b, (const guint8 *) key, (guint) strlen (key));
  d9b_str32 (b, value);
}

G_END_DECLS
