/* kymo-json-writer.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-json-writer"

#include "config.h"

#include <math.h>

#include "kymo-json-writer.h"

#define FLUSH_AT (256 * 1024)

struct _KymoJsonWriter
{
  FILE    *out;
  GString *buffer;
  /* One bit per open container: has it an element yet? */
  GArray  *has_items;  /* gboolean */
  gboolean after_key;
  gboolean failed;
};

KymoJsonWriter *
kymo_json_writer_new (FILE *out)
{
  KymoJsonWriter *self = g_new0 (KymoJsonWriter, 1);

  self->out = out;
  self->buffer = g_string_sized_new (FLUSH_AT + 4096);
  self->has_items = g_array_new (FALSE, FALSE, sizeof (gboolean));
  return self;
}

void
kymo_json_writer_free (KymoJsonWriter *self)
{
  if (self == NULL)
    return;
  kymo_json_writer_flush (self);
  g_string_free (self->buffer, TRUE);
  g_array_unref (self->has_items);
  g_free (self);
}

const char *
kymo_json_writer_get_string (KymoJsonWriter *self)
{
  return self->buffer->str;
}

gboolean
kymo_json_writer_flush (KymoJsonWriter *self)
{
  if (self->out == NULL)
    return TRUE;
  if (self->buffer->len > 0 &&
      fwrite (self->buffer->str, 1, self->buffer->len, self->out) != self->buffer->len)
    self->failed = TRUE;
  g_string_truncate (self->buffer, 0);
  return !self->failed;
}

/* Separates values inside a container. */
static void
begin_value (KymoJsonWriter *self)
{
  if (self->after_key)
    {
      self->after_key = FALSE;
      return;
    }
  if (self->has_items->len > 0)
    {
      gboolean *has = &g_array_index (self->has_items, gboolean, self->has_items->len - 1);
      if (*has)
        g_string_append_c (self->buffer, ',');
      *has = TRUE;
    }
}

static void
open_container (KymoJsonWriter *self,
                char            c)
{
  gboolean no = FALSE;

  begin_value (self);
  g_string_append_c (self->buffer, c);
  g_array_append_val (self->has_items, no);
}

static void
close_container (KymoJsonWriter *self,
                 char            c)
{
  g_return_if_fail (self->has_items->len > 0);
  g_array_set_size (self->has_items, self->has_items->len - 1);
  g_string_append_c (self->buffer, c);
}

void
kymo_json_writer_begin_object (KymoJsonWriter *self)
{
  open_container (self, '{');
}

void
kymo_json_writer_end_object (KymoJsonWriter *self)
{
  close_container (self, '}');
}

void
kymo_json_writer_begin_array (KymoJsonWriter *self)
{
  open_container (self, '[');
}

void
kymo_json_writer_end_array (KymoJsonWriter *self)
{
  close_container (self, ']');
}

static void
append_escaped (GString    *out,
                const char *str,
                gsize       len)
{
  const char *p = str;
  const char *end = str + len;

  g_string_append_c (out, '"');
  while (p < end)
    {
      guchar c = (guchar) *p;

      if (c < 0x80)
        {
          switch (c)
            {
            case '"': g_string_append (out, "\\\""); break;
            case '\\': g_string_append (out, "\\\\"); break;
            case '\n': g_string_append (out, "\\n"); break;
            case '\r': g_string_append (out, "\\r"); break;
            case '\t': g_string_append (out, "\\t"); break;
            case '\b': g_string_append (out, "\\b"); break;
            case '\f': g_string_append (out, "\\f"); break;
            default:
              if (c < 0x20)
                g_string_append_printf (out, "\\u%04x", c);
              else
                g_string_append_c (out, (char) c);
            }
          p++;
        }
      else
        {
          gunichar ch = g_utf8_get_char_validated (p, end - p);

          if (ch == (gunichar) -1 || ch == (gunichar) -2)
            {
              /* U+FFFD for each byte that does not start valid UTF-8 */
              g_string_append (out, "\xef\xbf\xbd");
              p++;
            }
          else
            {
              const char *next = g_utf8_next_char (p);
              g_string_append_len (out, p, next - p);
              p = next;
            }
        }
    }
  g_string_append_c (out, '"');
}

void
kymo_json_writer_key (KymoJsonWriter *self,
                      const char     *key)
{
  begin_value (self);
  append_escaped (self->buffer, key, strlen (key));
  g_string_append_c (self->buffer, ':');
  self->after_key = TRUE;
}

void
kymo_json_writer_int (KymoJsonWriter *self,
                      gint64          value)
{
  begin_value (self);
  g_string_append_printf (self->buffer, "%" G_GINT64_FORMAT, value);
}

void
kymo_json_writer_uint (KymoJsonWriter *self,
                       guint64         value)
{
  begin_value (self);
  g_string_append_printf (self->buffer, "%" G_GUINT64_FORMAT, value);
}

void
kymo_json_writer_double (KymoJsonWriter *self,
                         double          value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  begin_value (self);
  if (isnan (value))
    g_string_append (self->buffer, "\"NaN\"");
  else if (isinf (value))
    g_string_append (self->buffer, value > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  else if (fabs (value) < 1e15 && value == (double) (gint64) value)
    g_string_append_printf (self->buffer, "%" G_GINT64_FORMAT, (gint64) value);
  else
    {
      /* The shortest text that reads back as the same double. */
      for (int digits = 15; digits <= 17; digits++)
        {
          g_ascii_formatd (buf, sizeof buf, digits == 15 ? "%.15g" : digits == 16 ? "%.16g" : "%.17g", value);
          if (g_ascii_strtod (buf, NULL) == value)
            break;
        }
      g_string_append (self->buffer, buf);
    }
}

void
kymo_json_writer_ns_as_us (KymoJsonWriter *self,
                           gint64          ns)
{
  guint64 mag = ns < 0 ? (guint64) 0 - (guint64) ns : (guint64) ns;

  begin_value (self);
  if (ns < 0)
    g_string_append_c (self->buffer, '-');
  if (mag % 1000 == 0)
    g_string_append_printf (self->buffer, "%" G_GUINT64_FORMAT, mag / 1000);
  else
    {
      char frac[8];
      int len;

      len = g_snprintf (frac, sizeof frac, "%03u", (guint) (mag % 1000));
      while (len > 0 && frac[len - 1] == '0')
        frac[--len] = '\0';
      g_string_append_printf (self->buffer, "%" G_GUINT64_FORMAT ".%s", mag / 1000, frac);
    }
}

void
kymo_json_writer_bool (KymoJsonWriter *self,
                       gboolean        value)
{
  begin_value (self);
  g_string_append (self->buffer, value ? "true" : "false");
}

void
kymo_json_writer_null (KymoJsonWriter *self)
{
  begin_value (self);
  g_string_append (self->buffer, "null");
}

void
kymo_json_writer_string (KymoJsonWriter *self,
                         const char     *str,
                         gssize          len)
{
  if (str == NULL)
    {
      kymo_json_writer_null (self);
      return;
    }
  begin_value (self);
  append_escaped (self->buffer, str, len < 0 ? strlen (str) : (gsize) len);
}

void
kymo_json_writer_hex (KymoJsonWriter *self,
                      const guint8   *data,
                      gsize           len)
{
  static const char digits[] = "0123456789abcdef";

  begin_value (self);
  g_string_append_c (self->buffer, '"');
  for (gsize i = 0; i < len; i++)
    {
      g_string_append_c (self->buffer, digits[data[i] >> 4]);
      g_string_append_c (self->buffer, digits[data[i] & 0xF]);
    }
  g_string_append_c (self->buffer, '"');
}

void
kymo_json_writer_node (KymoJsonWriter *self,
                       JsonNode       *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      kymo_json_writer_null (self);
      return;
    }

  switch (json_node_get_node_type (node))
    {
    case JSON_NODE_OBJECT:
      {
        JsonObject *object = json_node_get_object (node);
        JsonObjectIter iter;
        const char *name;
        JsonNode *member;

        kymo_json_writer_begin_object (self);
        json_object_iter_init (&iter, object);
        while (json_object_iter_next (&iter, &name, &member))
          {
            kymo_json_writer_key (self, name);
            kymo_json_writer_node (self, member);
          }
        kymo_json_writer_end_object (self);
      }
      break;

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);

        kymo_json_writer_begin_array (self);
        for (guint i = 0; i < json_array_get_length (array); i++)
          kymo_json_writer_node (self, json_array_get_element (array, i));
        kymo_json_writer_end_array (self);
      }
      break;

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          kymo_json_writer_int (self, json_node_get_int (node));
          break;
        case G_TYPE_DOUBLE:
          kymo_json_writer_double (self, json_node_get_double (node));
          break;
        case G_TYPE_BOOLEAN:
          kymo_json_writer_bool (self, json_node_get_boolean (node));
          break;
        case G_TYPE_STRING:
          kymo_json_writer_string (self, json_node_get_string (node), -1);
          break;
        default:
          kymo_json_writer_null (self);
        }
      break;

    case JSON_NODE_NULL:
    default:
      kymo_json_writer_null (self);
    }
}

void
kymo_json_writer_end_line (KymoJsonWriter *self)
{
  g_string_append_c (self->buffer, '\n');
  self->after_key = FALSE;
  if (self->buffer->len >= FLUSH_AT)
    kymo_json_writer_flush (self);
}
