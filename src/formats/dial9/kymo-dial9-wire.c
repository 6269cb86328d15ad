/* kymo-dial9-wire.c: schemas, values and auxiliary frames of dial9 traces
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include "kymo-dial9-wire.h"

static const char * const type_names[] = {
  NULL, "I64", "F64", "Bool", "String", "Bytes", "PooledStackFrames", "PooledString",
  "StackFrames", "Varint", "StringMap", "U8", "U16", "U32", "List", "Map",
};

const char *
d9_type_name (guint8 type)
{
  type &= ~D9_OPTIONAL;
  return type < G_N_ELEMENTS (type_names) ? type_names[type] : NULL;
}

gboolean
d9_type_valid (guint8 type)
{
  type &= ~D9_OPTIONAL;
  return type >= D9_I64 && type <= D9_MAP;
}

void
d9_registry_init (D9Registry *reg)
{
  reg->schemas = g_array_new (FALSE, FALSE, sizeof (D9Schema));
  reg->fields = g_array_new (FALSE, FALSE, sizeof (D9Field));
  reg->live = g_new0 (guint32, 65536);
  reg->live_used = g_array_new (FALSE, FALSE, sizeof (guint16));
  d9_map_init (&reg->by_segment);
  reg->segment = 0;
}

void
d9_registry_clear (D9Registry *reg)
{
  g_clear_pointer (&reg->schemas, g_array_unref);
  g_clear_pointer (&reg->fields, g_array_unref);
  g_clear_pointer (&reg->live, g_free);
  g_clear_pointer (&reg->live_used, g_array_unref);
  d9_map_clear (&reg->by_segment);
}

void
d9_registry_new_segment (D9Registry *reg)
{
  for (guint i = 0; i < reg->live_used->len; i++)
    reg->live[g_array_index (reg->live_used, guint16, i)] = 0;
  g_array_set_size (reg->live_used, 0);
  reg->segment++;
}

D9Status
d9_registry_parse (D9Registry   *reg,
                   const guint8 *data,
                   gsize         size,
                   gsize        *pos,
                   guint32      *index,
                   gboolean     *is_new,
                   const char  **message)
{
  gsize p = *pos, start = *pos;
  D9Schema schema = { 0 };
  D9Schema *old;
  guint n_fields;

  *message = NULL;
  if (size - p < 4)
    return D9_TRUNCATED;
  schema.type_id = d9_u16 (data + p);
  schema.name_len = d9_u16 (data + p + 2);
  p += 4;
  if (size - p < (gsize) schema.name_len + 3)
    return D9_TRUNCATED;
  schema.name = data + p;
  p += schema.name_len;
  schema.has_ts = data[p];
  n_fields = d9_u16 (data + p + 1);
  p += 3;
  if (schema.has_ts > 1)
    {
      *message = "has_timestamp is neither 0 nor 1";
      return D9_CORRUPT;
    }

  /* Check the fields before keeping anything: the frame may be cut short. */
  for (guint i = 0; i < n_fields; i++)
    {
      guint16 len;

      if (size - p < 2)
        return D9_TRUNCATED;
      len = d9_u16 (data + p);
      if (size - p - 2 < (gsize) len + 1)
        return D9_TRUNCATED;
      if (!d9_type_valid (data[p + 2 + len]))
        {
          *message = "unknown field type";
          *pos = p + 2 + len;
          return D9_CORRUPT;
        }
      p += 2 + len + 1;
    }

  schema.body = start;
  schema.body_len = p - start;
  schema.frame = start - 1;
  schema.segment = reg->segment;
  schema.n_fields = n_fields;
  schema.model = G_MAXUINT32;

  old = d9_registry_lookup (reg, schema.type_id);
  if (old != NULL)
    {
      if (old->body_len != schema.body_len ||
          memcmp (data + old->body, data + schema.body, schema.body_len) != 0)
        {
          *message = "type_id registered again with a different schema";
          return D9_CORRUPT;
        }
      *index = reg->live[schema.type_id] - 1;
      *is_new = FALSE;
      *pos = p;
      return D9_OK;
    }

  schema.first_field = reg->fields->len;
  p = start + 4 + schema.name_len + 3;
  for (guint i = 0; i < n_fields; i++)
    {
      D9Field field;

      field.name_len = d9_u16 (data + p);
      field.name = data + p + 2;
      field.type = data[p + 2 + field.name_len];
      g_array_append_val (reg->fields, field);
      p += 2 + field.name_len + 1;
    }

  *index = reg->schemas->len;
  *is_new = TRUE;
  g_array_append_val (reg->schemas, schema);
  reg->live[schema.type_id] = *index + 1;
  g_array_append_val (reg->live_used, schema.type_id);
  d9_map_insert (&reg->by_segment, (guint64) reg->segment << 16 | schema.type_id, *index);
  *pos = p;
  return D9_OK;
}

static D9Status
skip_sized (gsize  size,
            gsize *pos,
            guint  header,
            guint  unit,
            const guint8 *data)
{
  guint64 n;

  if (size - *pos < header)
    return D9_TRUNCATED;
  n = (guint64) d9_u32 (data + *pos) * unit;
  if (size - *pos - header < n)
    return D9_TRUNCATED;
  *pos += header + n;
  return D9_OK;
}

D9Status
d9_skip_value (const guint8 *data,
               gsize         size,
               gsize        *pos,
               guint8        type,
               guint         depth)
{
  gsize p = *pos;
  guint64 dummy;
  D9Status status;
  guint32 n;

  if (type & D9_OPTIONAL)
    {
      if (p >= size)
        return D9_TRUNCATED;
      if (data[p] == 0)
        {
          *pos = p + 1;
          return D9_OK;
        }
      if (data[p] != 1)
        return D9_CORRUPT;
      p++;
      type &= ~D9_OPTIONAL;
    }

  switch (type)
    {
    case D9_I64:
    case D9_F64:
      if (size - p < 8)
        return D9_TRUNCATED;
      p += 8;
      break;
    case D9_BOOL:
    case D9_U8:
      if (size - p < 1)
        return D9_TRUNCATED;
      p += 1;
      break;
    case D9_U16:
      if (size - p < 2)
        return D9_TRUNCATED;
      p += 2;
      break;
    case D9_U32:
    case D9_POOLED_STRING:
    case D9_POOLED_STACK:
      if (size - p < 4)
        return D9_TRUNCATED;
      p += 4;
      break;
    case D9_STRING:
    case D9_BYTES:
      if ((status = skip_sized (size, &p, 4, 1, data)) != D9_OK)
        return status;
      break;
    case D9_STACK:
      if ((status = skip_sized (size, &p, 4, 8, data)) != D9_OK)
        return status;
      break;
    case D9_VARINT:
      if ((status = d9_varint (data, size, &p, &dummy)) != D9_OK)
        return status;
      break;
    case D9_STRING_MAP:
      if (size - p < 4)
        return D9_TRUNCATED;
      n = d9_u32 (data + p);
      p += 4;
      /* Each pair takes at least 8 bytes: a huge count fails fast. */
      if ((size - p) / 8 < n)
        return D9_TRUNCATED;
      for (guint32 i = 0; i < n; i++)
        {
          if ((status = skip_sized (size, &p, 4, 1, data)) != D9_OK ||
              (status = skip_sized (size, &p, 4, 1, data)) != D9_OK)
            return status;
        }
      break;
    case D9_LIST:
    case D9_MAP:
      if (depth >= D9_MAX_NESTING)
        return D9_CORRUPT;
      if (size - p < 4)
        return D9_TRUNCATED;
      n = d9_u32 (data + p);
      p += 4;
      if ((size - p) / (type == D9_LIST ? 2 : 4) < n)
        return D9_TRUNCATED;
      for (guint32 i = 0; i < n; i++)
        for (guint k = 0; k < (type == D9_LIST ? 1u : 2u); k++)
          {
            guint8 tag;

            if (p >= size)
              return D9_TRUNCATED;
            tag = data[p++];
            if (!d9_type_valid (tag))
              {
                *pos = p - 1;
                return D9_CORRUPT;
              }
            if ((status = d9_skip_value (data, size, &p, tag, depth + 1)) != D9_OK)
              return status;
          }
      break;
    default:
      return D9_CORRUPT;
    }
  *pos = p;
  return D9_OK;
}

D9Status
d9_check_string_pool (const guint8 *data,
                      gsize         size,
                      gsize        *pos,
                      guint32      *count)
{
  gsize p = *pos;
  guint32 n;

  if (size - p < 4)
    return D9_TRUNCATED;
  n = d9_u32 (data + p);
  p += 4;
  if ((size - p) / 8 < n)
    return D9_TRUNCATED;
  for (guint32 i = 0; i < n; i++)
    {
      guint32 len;

      if (size - p < 8)
        return D9_TRUNCATED;
      len = d9_u32 (data + p + 4);
      if (size - p - 8 < len)
        return D9_TRUNCATED;
      p += 8 + (gsize) len;
    }
  *count = n;
  *pos = p;
  return D9_OK;
}

D9Status
d9_check_stack_pool (const guint8 *data,
                     gsize         size,
                     gsize        *pos,
                     guint32      *count)
{
  gsize p = *pos;
  guint32 n;

  if (size - p < 4)
    return D9_TRUNCATED;
  n = d9_u32 (data + p);
  p += 4;
  if ((size - p) / 8 < n)
    return D9_TRUNCATED;
  for (guint32 i = 0; i < n; i++)
    {
      guint64 len;

      if (size - p < 8)
        return D9_TRUNCATED;
      len = (guint64) d9_u32 (data + p + 4) * 8;
      if (size - p - 8 < len)
        return D9_TRUNCATED;
      p += 8 + (gsize) len;
    }
  *count = n;
  *pos = p;
  return D9_OK;
}

D9Status
d9_check_annotations (const guint8 *data,
                      gsize         size,
                      gsize        *pos,
                      guint64      *type_id,
                      guint16      *count,
                      gsize        *entries)
{
  gsize p = *pos;
  D9Status status;
  guint16 n;

  if ((status = d9_varint (data, size, &p, type_id)) != D9_OK)
    return status;
  if (size - p < 2)
    return D9_TRUNCATED;
  n = d9_u16 (data + p);
  p += 2;
  *entries = p;
  for (guint i = 0; i < n; i++)
    {
      guint16 klen;
      guint32 vlen;

      if (size - p < 4)
        return D9_TRUNCATED;
      klen = d9_u16 (data + p + 2);
      p += 4;
      if (size - p < (gsize) klen + 4)
        return D9_TRUNCATED;
      p += klen;
      vlen = d9_u32 (data + p);
      p += 4;
      if (size - p < vlen)
        return D9_TRUNCATED;
      p += vlen;
    }
  *count = n;
  *pos = p;
  return D9_OK;
}

void
d9_annotation_entry (const guint8  *data,
                     gsize         *pos,
                     guint16       *field,
                     const guint8 **key,
                     guint16       *key_len,
                     const guint8 **value,
                     guint32       *value_len)
{
  gsize p = *pos;

  *field = d9_u16 (data + p);
  *key_len = d9_u16 (data + p + 2);
  *key = data + p + 4;
  p += 4 + *key_len;
  *value_len = d9_u32 (data + p);
  *value = data + p + 4;
  *pos = p + 4 + *value_len;
}
