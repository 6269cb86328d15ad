/* kymo-wtf-args.c: reading argument values in the three encodings
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-wtf"

#include "config.h"

#include <string.h>

#include "kymo-byte-reader.h"
#include "kymo-wtf-private.h"

static inline guint16
rd16 (WtfEncoding   enc,
      const guint8 *p)
{
  return enc == WTF_ENC_LEGACY_BE ? kymo_read_u16be (p) : kymo_read_u16le (p);
}

static inline guint32
rd32 (WtfEncoding   enc,
      const guint8 *p)
{
  return enc == WTF_ENC_LEGACY_BE ? kymo_read_u32be (p) : kymo_read_u32le (p);
}

void
wtf_buffer_set_strings (WtfBuffer *buffer,
                        gsize      start,
                        gsize      size,
                        GArray    *offsets)
{
  const guint8 *base = buffer->data + start;
  gsize pos = 0;

  g_array_set_size (offsets, 0);
  /* Each string ends in NUL; the last entry is where the next string would
   * start, so a string's length is next - start - 1 (an unterminated last
   * string gets a sentinel one past the end). */
  while (pos < size)
    {
      const guint8 *nul = memchr (base + pos, 0, size - pos);
      guint32 start_pos = (guint32) pos;

      g_array_append_val (offsets, start_pos);
      pos = nul ? (gsize) (nul - base) + 1 : size + 1;
    }
  {
    guint32 sentinel = (guint32) pos;
    g_array_append_val (offsets, sentinel);
  }
  buffer->strtab_start = start;
  buffer->strtab_size = size;
  buffer->str_offsets = (const guint32 *) (gpointer) offsets->data;
  buffer->n_strings = offsets->len - 1;
}

static WtfReadStatus
string_from_table (const WtfBuffer *buffer,
                   guint32          ordinal,
                   WtfValue        *value)
{
  if (ordinal == G_MAXUINT32)
    {
      value->is_null = TRUE;
      return WTF_READ_OK;
    }
  value->s.ordinal = ordinal;
  if (ordinal == G_MAXUINT32 - 1)
    {
      value->s.str = "";
      value->s.len = 0;
      return WTF_READ_OK;
    }
  if (ordinal >= buffer->n_strings)
    return WTF_READ_BAD_STRING;
  value->s.str = (const char *) buffer->data + buffer->strtab_start + buffer->str_offsets[ordinal];
  value->s.len = buffer->str_offsets[ordinal + 1] - buffer->str_offsets[ordinal] - 1;
  return WTF_READ_OK;
}

static guint
packed_size (guint8 type)
{
  switch ((WtfType) type)
    {
    case WTF_TYPE_BOOL:
    case WTF_TYPE_INT8:
    case WTF_TYPE_UINT8:
    case WTF_TYPE_CHAR:
      return 1;
    case WTF_TYPE_INT16:
    case WTF_TYPE_UINT16:
    case WTF_TYPE_WCHAR:
      return 2;
    case WTF_TYPE_UNKNOWN:
    case WTF_TYPE_INT32:
    case WTF_TYPE_UINT32:
    case WTF_TYPE_FLOAT32:
    case WTF_TYPE_ASCII:
    case WTF_TYPE_UTF8:
    case WTF_TYPE_ANY:
    case WTF_TYPE_FLOWID:
    case WTF_TYPE_TIME32:
    default:
      return 4;
    }
}

/* A scalar: a 4-byte slot (binary), a packed array element (binary,
 * @packed), or the legacy encoding. */
static WtfReadStatus
read_scalar (const WtfBuffer *buffer,
             guint8           type,
             gboolean         packed,
             gsize           *pos,
             WtfValue        *value)
{
  const guint8 *p = buffer->data + *pos;
  gsize avail = buffer->end - *pos;
  WtfEncoding enc = buffer->enc;
  guint32 raw;
  gsize used;

  memset (value, 0, sizeof *value);
  value->type = type;

  if (enc == WTF_ENC_BINARY)
    {
      guint size = packed ? packed_size (type) : 4;

      if (avail < size)
        return WTF_READ_TRUNCATED;
      raw = size == 1 ? p[0] : size == 2 ? kymo_read_u16le (p) : kymo_read_u32le (p);
      *pos += size;
      switch ((WtfType) type)
        {
        case WTF_TYPE_BOOL:
          value->u = (raw & 0xFF) != 0;
          break;
        case WTF_TYPE_INT8:
          value->i = (gint8) (raw & 0xFF);
          break;
        case WTF_TYPE_UINT8:
        case WTF_TYPE_CHAR:
          value->u = raw & 0xFF;
          break;
        case WTF_TYPE_INT16:
          value->i = (gint16) (raw & 0xFFFF);
          break;
        case WTF_TYPE_UINT16:
        case WTF_TYPE_WCHAR:
          value->u = raw & 0xFFFF;
          break;
        case WTF_TYPE_INT32:
          value->i = (gint32) raw;
          break;
        case WTF_TYPE_FLOAT32:
          {
            float f;
            memcpy (&f, p, 4);
            value->f = f;
          }
          break;
        case WTF_TYPE_ASCII:
        case WTF_TYPE_UTF8:
        case WTF_TYPE_ANY:
          {
            WtfReadStatus status = string_from_table (buffer, raw, value);
            if (status != WTF_READ_OK)
              *pos -= size;
            return status;
          }
        case WTF_TYPE_UNKNOWN:
        case WTF_TYPE_UINT32:
        case WTF_TYPE_FLOWID:
        case WTF_TYPE_TIME32:
        default:
          value->u = raw;
          break;
        }
      return WTF_READ_OK;
    }

  switch ((WtfType) type)
    {
    case WTF_TYPE_BOOL:
    case WTF_TYPE_INT8:
    case WTF_TYPE_UINT8:
    case WTF_TYPE_CHAR:
      if (avail < 1)
        return WTF_READ_TRUNCATED;
      if (type == WTF_TYPE_INT8)
        value->i = (gint8) p[0];
      else if (type == WTF_TYPE_BOOL)
        value->u = p[0] != 0;
      else
        value->u = p[0];
      *pos += 1;
      return WTF_READ_OK;

    case WTF_TYPE_INT16:
    case WTF_TYPE_UINT16:
    case WTF_TYPE_WCHAR:
      if (avail < 2)
        return WTF_READ_TRUNCATED;
      if (type == WTF_TYPE_INT16)
        value->i = (gint16) rd16 (enc, p);
      else
        value->u = rd16 (enc, p);
      *pos += 2;
      return WTF_READ_OK;

    case WTF_TYPE_FLOAT32:
      if (avail < 4)
        return WTF_READ_TRUNCATED;
      {
        /* Real legacy files store float32 little-endian even in big-endian
         * files: the writer copied the bytes of a Float32Array. */
        guint32 bits = kymo_read_u32le (p);
        float f;
        memcpy (&f, &bits, 4);
        value->f = f;
      }
      *pos += 4;
      return WTF_READ_OK;

    case WTF_TYPE_INT32:
      if (avail < 4)
        return WTF_READ_TRUNCATED;
      value->i = (gint32) rd32 (enc, p);
      *pos += 4;
      return WTF_READ_OK;

    case WTF_TYPE_ASCII:
    case WTF_TYPE_UTF8:
    case WTF_TYPE_ANY:
      if (avail < 2)
        return WTF_READ_TRUNCATED;
      raw = rd16 (enc, p);
      value->s.ordinal = G_MAXUINT32;
      if (raw == 0)
        {
          value->is_null = TRUE;
          *pos += 2;
          return WTF_READ_OK;
        }
      if (raw == 0xFFFF)
        {
          WtfReadStatus status;

          if (avail < 6)
            return WTF_READ_TRUNCATED;
          status = string_from_table (buffer, rd32 (enc, p + 2), value);
          if (status == WTF_READ_OK)
            *pos += 6;
          return status;
        }
      if (type == WTF_TYPE_ASCII)
        {
          used = 2;
        }
      else
        {
          /* utf8: character count, then byte count. */
          if (avail < 4)
            return WTF_READ_TRUNCATED;
          raw = rd16 (enc, p + 2);
          used = 4;
        }
      if (avail - used < raw)
        return WTF_READ_TRUNCATED;
      value->s.str = (const char *) p + used;
      value->s.len = raw;
      *pos += used + raw;
      return WTF_READ_OK;

    case WTF_TYPE_UNKNOWN:
    case WTF_TYPE_UINT32:
    case WTF_TYPE_FLOWID:
    case WTF_TYPE_TIME32:
    default:
      if (avail < 4)
        return WTF_READ_TRUNCATED;
      value->u = rd32 (enc, p);
      *pos += 4;
      return WTF_READ_OK;
    }
}

WtfReadStatus
wtf_read_element (const WtfBuffer *buffer,
                  guint8           type,
                  gsize           *pos,
                  WtfValue        *value)
{
  return read_scalar (buffer, type, TRUE, pos, value);
}

WtfReadStatus
wtf_read_value (const WtfBuffer *buffer,
                const WtfArg    *arg,
                gsize           *pos,
                WtfValue        *value)
{
  const guint8 *p = buffer->data + *pos;
  gsize avail = buffer->end - *pos;
  guint32 count;

  if (!arg->is_array)
    return read_scalar (buffer, arg->type, FALSE, pos, value);

  memset (value, 0, sizeof *value);
  value->type = arg->type;
  value->is_array = TRUE;
  if (avail < 4)
    return WTF_READ_TRUNCATED;
  count = buffer->enc == WTF_ENC_BINARY ? kymo_read_u32le (p) : rd32 (buffer->enc, p);
  if (count == G_MAXUINT32)
    {
      value->is_null = TRUE;
      *pos += 4;
      return WTF_READ_OK;
    }
  value->a.pos = *pos + 4;
  value->a.count = count;

  if (buffer->enc == WTF_ENC_BINARY)
    {
      /* Packed elements, padded to the next slot. */
      guint64 bytes = ((guint64) count * packed_size (arg->type) + 3) & ~(guint64) 3;

      if (avail - 4 < bytes)
        return WTF_READ_TRUNCATED;
      if (arg->type == WTF_TYPE_ASCII || arg->type == WTF_TYPE_UTF8 || arg->type == WTF_TYPE_ANY)
        {
          gsize q = *pos + 4;
          for (guint32 i = 0; i < count; i++)
            {
              WtfValue element;
              WtfReadStatus status = read_scalar (buffer, arg->type, TRUE, &q, &element);
              if (status != WTF_READ_OK)
                return status;
            }
        }
      *pos += 4 + bytes;
      return WTF_READ_OK;
    }
  else
    {
      gint size = -1;
      gsize q = *pos + 4;

      switch ((WtfType) arg->type)
        {
        case WTF_TYPE_ASCII:
        case WTF_TYPE_UTF8:
        case WTF_TYPE_ANY:
          break;
        case WTF_TYPE_UNKNOWN:
        case WTF_TYPE_BOOL:
        case WTF_TYPE_INT8:
        case WTF_TYPE_UINT8:
        case WTF_TYPE_INT16:
        case WTF_TYPE_UINT16:
        case WTF_TYPE_INT32:
        case WTF_TYPE_UINT32:
        case WTF_TYPE_FLOAT32:
        case WTF_TYPE_CHAR:
        case WTF_TYPE_WCHAR:
        case WTF_TYPE_FLOWID:
        case WTF_TYPE_TIME32:
        default:
          size = (gint) packed_size (arg->type);
          break;
        }
      if (size > 0)
        {
          if ((guint64) (avail - 4) < (guint64) count * (guint) size)
            return WTF_READ_TRUNCATED;
          *pos = q + (gsize) count * (guint) size;
          return WTF_READ_OK;
        }
      /* Strings: each is at least 2 bytes, so this ends. */
      for (guint32 i = 0; i < count; i++)
        {
          WtfValue element;
          WtfReadStatus status = read_scalar (buffer, arg->type, TRUE, &q, &element);
          if (status != WTF_READ_OK)
            return status;
        }
      *pos = q;
      return WTF_READ_OK;
    }
}

WtfReadStatus
wtf_skip_args (const WtfBuffer    *buffer,
               const WtfEventType *type,
               gsize              *pos)
{
  gint fixed = buffer->enc == WTF_ENC_BINARY ? type->fixed_binary : type->fixed_legacy;
  gsize q = *pos;

  if (fixed >= 0)
    {
      if (buffer->end - *pos < (gsize) fixed)
        return WTF_READ_TRUNCATED;
      *pos += fixed;
      return WTF_READ_OK;
    }
  for (guint i = 0; i < type->n_args; i++)
    {
      WtfValue value;
      WtfReadStatus status = wtf_read_value (buffer, &type->args[i], &q, &value);
      if (status != WTF_READ_OK)
        return status;
    }
  *pos = q;
  return WTF_READ_OK;
}

gboolean
wtf_read_event_header (const WtfBuffer *buffer,
                       gsize           *pos,
                       guint32         *wire_id,
                       guint32         *time)
{
  const guint8 *p = buffer->data + *pos;
  gsize avail = buffer->end - *pos;

  if (buffer->enc == WTF_ENC_BINARY)
    {
      if (avail < 8)
        return FALSE;
      *wire_id = kymo_read_u32le (p);
      *time = kymo_read_u32le (p + 4);
      *pos += 8;
      return TRUE;
    }
  if (avail < 6)
    return FALSE;
  *wire_id = rd16 (buffer->enc, p);
  *time = rd32 (buffer->enc, p + 2);
  *pos += 6;
  return TRUE;
}

/* JSON */

static JsonNode *
parse_json (const char *str,
            gsize       len)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;

  if (len > G_MAXSSIZE || !json_parser_load_from_data (parser, str, (gssize) len, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  return root ? json_node_copy (root) : json_node_new (JSON_NODE_NULL);
}

static void
char_to_utf8 (const WtfValue *value,
              char            out[8])
{
  gunichar c = (gunichar) value->u;
  gint n;

  if (value->type == WTF_TYPE_WCHAR && c >= 0xD800 && c < 0xE000)
    c = 0xFFFD;
  n = g_unichar_to_utf8 (c, out);
  out[n] = '\0';
}

static void
write_scalar (const WtfValue *value,
              KymoJsonWriter *out)
{
  if (value->is_null)
    {
      kymo_json_writer_null (out);
      return;
    }
  switch ((WtfType) value->type)
    {
    case WTF_TYPE_BOOL:
      kymo_json_writer_bool (out, value->u != 0);
      break;
    case WTF_TYPE_INT8:
    case WTF_TYPE_INT16:
    case WTF_TYPE_INT32:
      kymo_json_writer_int (out, value->i);
      break;
    case WTF_TYPE_FLOAT32:
      kymo_json_writer_double (out, value->f);
      break;
    case WTF_TYPE_ASCII:
    case WTF_TYPE_UTF8:
      kymo_json_writer_string (out, value->s.str, (gssize) value->s.len);
      break;
    case WTF_TYPE_CHAR:
    case WTF_TYPE_WCHAR:
      {
        char buf[8];
        char_to_utf8 (value, buf);
        kymo_json_writer_string (out, buf, -1);
      }
      break;
    case WTF_TYPE_ANY:
      {
        JsonNode *node = parse_json (value->s.str, value->s.len);
        if (node)
          {
            kymo_json_writer_node (out, node);
            json_node_unref (node);
          }
        else
          kymo_json_writer_string (out, value->s.str, (gssize) value->s.len);
      }
      break;
    case WTF_TYPE_UNKNOWN:
    case WTF_TYPE_UINT8:
    case WTF_TYPE_UINT16:
    case WTF_TYPE_UINT32:
    case WTF_TYPE_FLOWID:
    case WTF_TYPE_TIME32:
    default:
      kymo_json_writer_uint (out, value->u);
      break;
    }
}

void
wtf_value_write (const WtfBuffer *buffer,
                 const WtfValue  *value,
                 KymoJsonWriter  *out)
{
  gsize pos;

  if (!value->is_array || value->is_null)
    {
      write_scalar (value, out);
      return;
    }
  kymo_json_writer_begin_array (out);
  pos = value->a.pos;
  for (guint32 i = 0; i < value->a.count; i++)
    {
      WtfValue element;

      if (wtf_read_element (buffer, value->type, &pos, &element) != WTF_READ_OK)
        break;
      write_scalar (&element, out);
    }
  kymo_json_writer_end_array (out);
}

static JsonNode *
scalar_node (const WtfValue *value)
{
  JsonNode *node = json_node_alloc ();

  if (value->is_null)
    return json_node_init_null (node);
  switch ((WtfType) value->type)
    {
    case WTF_TYPE_BOOL:
      return json_node_init_boolean (node, value->u != 0);
    case WTF_TYPE_INT8:
    case WTF_TYPE_INT16:
    case WTF_TYPE_INT32:
      return json_node_init_int (node, value->i);
    case WTF_TYPE_FLOAT32:
      return json_node_init_double (node, value->f);
    case WTF_TYPE_ASCII:
    case WTF_TYPE_UTF8:
      {
        g_autofree char *text = g_utf8_make_valid (value->s.str, (gssize) value->s.len);
        return json_node_init_string (node, text);
      }
    case WTF_TYPE_CHAR:
    case WTF_TYPE_WCHAR:
      {
        char buf[8];
        char_to_utf8 (value, buf);
        return json_node_init_string (node, buf);
      }
    case WTF_TYPE_ANY:
      {
        JsonNode *parsed = parse_json (value->s.str, value->s.len);
        g_autofree char *text = NULL;

        if (parsed)
          {
            json_node_unref (node);
            return parsed;
          }
        text = g_utf8_make_valid (value->s.str, (gssize) value->s.len);
        return json_node_init_string (node, text);
      }
    case WTF_TYPE_UNKNOWN:
    case WTF_TYPE_UINT8:
    case WTF_TYPE_UINT16:
    case WTF_TYPE_UINT32:
    case WTF_TYPE_FLOWID:
    case WTF_TYPE_TIME32:
    default:
      return json_node_init_int (node, (gint64) value->u);
    }
}

JsonNode *
wtf_value_to_node (const WtfBuffer *buffer,
                   const WtfValue  *value)
{
  JsonArray *array;
  JsonNode *node;
  gsize pos;

  if (!value->is_array || value->is_null)
    return scalar_node (value);
  array = json_array_new ();
  pos = value->a.pos;
  for (guint32 i = 0; i < value->a.count; i++)
    {
      WtfValue element;

      if (wtf_read_element (buffer, value->type, &pos, &element) != WTF_READ_OK)
        break;
      json_array_add_element (array, scalar_node (&element));
    }
  node = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (node, array);
  return node;
}
