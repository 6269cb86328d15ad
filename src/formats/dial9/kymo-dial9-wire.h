/* kymo-dial9-wire.h: the dial9 byte layout, shared by load, dump and describe
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

#include "kymo-dial9-map.h"

G_BEGIN_DECLS

#define D9_MAGIC       "TRC\0"
#define D9_HEADER_SIZE 5
#define D9_VERSION     1

enum {
  D9_TAG_SCHEMA      = 0x01,
  D9_TAG_EVENT       = 0x02,
  D9_TAG_STRING_POOL = 0x03,
  D9_TAG_STACK_POOL  = 0x04,
  D9_TAG_TS_RESET    = 0x05,
  D9_TAG_ANNOTATIONS = 0x06,
  D9_TAG_HEADER      = 0x54, /* 'T': a new segment starts */
};

enum {
  D9_I64 = 1,
  D9_F64,
  D9_BOOL,
  D9_STRING,
  D9_BYTES,
  D9_POOLED_STACK,
  D9_POOLED_STRING,
  D9_STACK,
  D9_VARINT,
  D9_STRING_MAP,
  D9_U8,
  D9_U16,
  D9_U32,
  D9_LIST,
  D9_MAP,
  D9_OPTIONAL = 0x80,
};

/* Nested lists and maps deeper than this are treated as damage. */
#define D9_MAX_NESTING 32

typedef enum {
  D9_OK,
  D9_TRUNCATED, /* the input ends inside a frame */
  D9_CORRUPT,   /* bytes that cannot be decoded: decoding stops */
} D9Status;

typedef struct {
  const guint8 *name;
  guint16       name_len;
  guint8        type;    /* with the optional bit */
} D9Field;

typedef struct {
  guint64  frame;        /* offset of the schema frame's tag */
  gsize    body;         /* offset of type_id */
  gsize    body_len;     /* up to the end of the last field */
  guint32  segment;
  guint16  type_id;
  guint16  n_fields;
  guint32  first_field;  /* into D9Registry.fields */
  const guint8 *name;
  guint16  name_len;
  guint8   has_ts;
  guint32  model;        /* index into the loader's per-schema table, or G_MAXUINT32 */
} D9Schema;

/* Schemas of every segment: a live table for the current segment and a map
 * (segment, type_id) → schema for decoding one event on demand later. */
typedef struct {
  GArray   *schemas;     /* D9Schema */
  GArray   *fields;      /* D9Field */
  guint32  *live;        /* [65536]: schema index + 1 for the current segment */
  GArray   *live_used;   /* guint16 type ids set in live */
  D9Map     by_segment;  /* segment << 16 | type_id → schema index */
  guint32   segment;
} D9Registry;

void      d9_registry_init       (D9Registry   *reg);
void      d9_registry_clear      (D9Registry   *reg);
/* A new segment: forget the live schemas. */
void      d9_registry_new_segment (D9Registry  *reg);
/* Parses a schema frame at *pos (after the tag). Returns the schema index in
 * *index, and *is_new FALSE for an identical re-registration. A different
 * schema for a live type_id is D9_CORRUPT with *message set. */
D9Status  d9_registry_parse      (D9Registry   *reg,
                                  const guint8 *data,
                                  gsize         size,
                                  gsize        *pos,
                                  guint32      *index,
                                  gboolean     *is_new,
                                  const char  **message);

static inline D9Schema *
d9_registry_get (D9Registry *reg,
                 guint32     index)
{
  return &g_array_index (reg->schemas, D9Schema, index);
}

static inline D9Field *
d9_schema_field (D9Registry     *reg,
                 const D9Schema *schema,
                 guint           i)
{
  return &g_array_index (reg->fields, D9Field, schema->first_field + i);
}

/* Live schema for @type_id, or NULL. */
static inline D9Schema *
d9_registry_lookup (D9Registry *reg,
                    guint16     type_id)
{
  guint32 v = reg->live[type_id];
  return v ? d9_registry_get (reg, v - 1) : NULL;
}

const char *d9_type_name (guint8 type);
gboolean    d9_type_valid (guint8 type);

/* Unsigned LEB128, at most 10 bytes. */
static inline D9Status
d9_varint (const guint8 *data,
           gsize         size,
           gsize        *pos,
           guint64      *out)
{
  gsize p = *pos;
  guint64 v = 0;

  for (guint shift = 0; shift < 70; shift += 7)
    {
      guint8 b;

      if (G_UNLIKELY (p >= size))
        return D9_TRUNCATED;
      b = data[p++];
      if (shift < 64)
        v |= (guint64) (b & 0x7F) << shift;
      if ((b & 0x80) == 0)
        {
          *pos = p;
          *out = v;
          return D9_OK;
        }
    }
  return D9_CORRUPT;
}

static inline guint32
d9_u32 (const guint8 *p)
{
  guint32 v;
  memcpy (&v, p, 4);
  return GUINT32_FROM_LE (v);
}

static inline guint64
d9_u64 (const guint8 *p)
{
  guint64 v;
  memcpy (&v, p, 8);
  return GUINT64_FROM_LE (v);
}

static inline guint16
d9_u16 (const guint8 *p)
{
  return (guint16) (p[0] | p[1] << 8);
}

/* Skips one value of @type (optional bit allowed). */
D9Status d9_skip_value (const guint8 *data,
                        gsize         size,
                        gsize        *pos,
                        guint8        type,
                        guint         depth);

/* Reads one value as an integer where it is one (ints, bool, pool ids,
 * floats as their bits); other values are skipped and give their start
 * offset. *present is FALSE for an absent optional value. */
static inline D9Status
d9_read_scalar (const guint8 *data,
                gsize         size,
                gsize        *pos,
                guint8        type,
                guint64      *value,
                gboolean     *present)
{
  gsize p = *pos;

  *present = TRUE;
  if (type & D9_OPTIONAL)
    {
      if (G_UNLIKELY (p >= size))
        return D9_TRUNCATED;
      if (data[p] == 0)
        {
          *pos = p + 1;
          *present = FALSE;
          *value = 0;
          return D9_OK;
        }
      if (data[p] != 1)
        return D9_CORRUPT;
      p++;
      type &= ~D9_OPTIONAL;
    }

  switch (type)
    {
    case D9_VARINT:
      *pos = p;
      return d9_varint (data, size, pos, value);
    case D9_U8:
    case D9_BOOL:
      if (G_UNLIKELY (p + 1 > size))
        return D9_TRUNCATED;
      *value = data[p];
      *pos = p + 1;
      return D9_OK;
    case D9_U16:
      if (G_UNLIKELY (p + 2 > size))
        return D9_TRUNCATED;
      *value = d9_u16 (data + p);
      *pos = p + 2;
      return D9_OK;
    case D9_U32:
    case D9_POOLED_STRING:
    case D9_POOLED_STACK:
      if (G_UNLIKELY (size - p < 4 || p > size))
        return D9_TRUNCATED;
      *value = d9_u32 (data + p);
      *pos = p + 4;
      return D9_OK;
    case D9_I64:
    case D9_F64:
      if (G_UNLIKELY (size - p < 8 || p > size))
        return D9_TRUNCATED;
      *value = d9_u64 (data + p);
      *pos = p + 8;
      return D9_OK;
    default:
      *value = p;
      *pos = p;
      return d9_skip_value (data, size, pos, type, 0);
    }
}

/* The shape of the other frames: each returns D9_OK and advances *pos past the
 * frame body (after the tag), or fails leaving *pos unchanged. */
D9Status d9_check_string_pool (const guint8 *data, gsize size, gsize *pos, guint32 *count);
D9Status d9_check_stack_pool  (const guint8 *data, gsize size, gsize *pos, guint32 *count);
D9Status d9_check_annotations (const guint8 *data, gsize size, gsize *pos,
                               guint64 *type_id, guint16 *count, gsize *entries);
/* Walks one annotation entry at *pos (already checked). */
void     d9_annotation_entry  (const guint8 *data, gsize *pos, guint16 *field,
                               const guint8 **key, guint16 *key_len,
                               const guint8 **value, guint32 *value_len);

/* TRUE when @data starts a segment header (magic and version). */
static inline gboolean
d9_is_header (const guint8 *data,
              gsize         size,
              gsize         pos)
{
  return size - pos >= D9_HEADER_SIZE && memcmp (data + pos, D9_MAGIC, 4) == 0 &&
         data[pos + 4] == D9_VERSION;
}

G_END_DECLS
