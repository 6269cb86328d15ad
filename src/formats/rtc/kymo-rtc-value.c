/* kymo-rtc-value.c: numbers, times and text inside RTC values
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include <math.h>

#include "kymo-rtc-private.h"

gboolean
kymo_rtc_is_numeric (const RtcFormat *format)
{
  return format->kind == RTC_FMT_INT || format->kind == RTC_FMT_FLOAT ||
         format->kind == RTC_FMT_LEB128;
}

gboolean
kymo_rtc_read_timespec (gboolean      big_endian,
                        const guint8 *data,
                        gsize         len,
                        gsize        *consumed,
                        KymoTime     *ns)
{
  guint64 sec, nsec;

  if (len < 12)
    return FALSE;
  sec = kymo_rtc_read_ordered (data, 8, big_endian);
  /* A 64-bit struct timespec has an 8-byte tv_nsec. */
  if (len == 16)
    {
      nsec = kymo_rtc_read_ordered (data + 8, 8, big_endian);
      *consumed = 16;
    }
  else
    {
      nsec = kymo_rtc_read_ordered (data + 8, 4, big_endian);
      *consumed = 12;
    }
  if (sec > (guint64) (G_MAXINT64 / G_GINT64_CONSTANT (1000000000)) - 1 || nsec >= 1000000000)
    return FALSE;
  *ns = (KymoTime) sec * 1000000000 + (KymoTime) nsec;
  return TRUE;
}

static gboolean
double_to_ns (double    seconds,
              KymoTime *ns)
{
  double v = round (seconds * 1e9);

  if (!isfinite (v) || v >= 9.2e18 || v <= -9.2e18)
    return FALSE;
  *ns = (KymoTime) v;
  return TRUE;
}

gboolean
kymo_rtc_seconds_to_ns (const RtcStream *stream,
                        const RtcNumber *number,
                        KymoTime        *ns)
{
  if (stream->ns_step != 0 && number->type != RTC_NUM_DOUBLE)
    {
      gint64 v, scaled;

      if (number->type == RTC_NUM_UINT)
        {
          if (number->u > (guint64) G_MAXINT64)
            return FALSE;
          v = (gint64) number->u;
        }
      else
        v = number->i;
      if (__builtin_mul_overflow (v, stream->ns_step, &scaled) ||
          __builtin_add_overflow (scaled, stream->ns_offset, ns))
        return FALSE;
      return TRUE;
    }
  return double_to_ns (kymo_rtc_scaled (stream, number), ns);
}

static JsonNode *
number_node (const RtcStream *stream,
             const RtcNumber *number)
{
  JsonNode *node = json_node_alloc ();

  if (stream->has_scale || number->type == RTC_NUM_DOUBLE)
    return json_node_init_double (node, kymo_rtc_scaled (stream, number));
  if (number->type == RTC_NUM_UINT && number->u > (guint64) G_MAXINT64)
    return json_node_init_double (node, (double) number->u);
  return json_node_init_int (node, number->type == RTC_NUM_INT ? number->i : (gint64) number->u);
}

static char *
hex_string (const guint8 *data,
            gsize         len)
{
  static const char digits[] = "0123456789abcdef";
  char *out = g_malloc (len * 2 + 1);

  for (gsize i = 0; i < len; i++)
    {
      out[2 * i] = digits[data[i] >> 4];
      out[2 * i + 1] = digits[data[i] & 15];
    }
  out[len * 2] = '\0';
  return out;
}

static char *
valid_text (const guint8 *data,
            gsize         len)
{
  return g_utf8_make_valid ((const char *) data, (gssize) len);
}

/* Index payloads: [count,] then (id << 1 | 1, offset << 1) pairs. */
static JsonNode *
index_node (const guint8 *data,
            gsize         len,
            gboolean      has_count)
{
  JsonObject *object = json_object_new ();
  JsonArray *entries = json_array_new ();
  KymoByteReader r;
  guint64 v;

  kymo_byte_reader_init (&r, data, len);
  if (has_count && kymo_byte_reader_uleb128 (&r, 10, 63, &v))
    json_object_set_int_member (object, "count", (gint64) v);
  while (kymo_byte_reader_uleb128 (&r, 10, 64, &v))
    {
      guint64 offset;

      if ((v & 1) == 0 || !kymo_byte_reader_uleb128 (&r, 10, 64, &offset))
        break;
      {
        JsonArray *pair = json_array_new ();
        json_array_add_int_element (pair, (gint64) (v >> 1));
        json_array_add_int_element (pair, (gint64) (offset >> 1));
        json_array_add_array_element (entries, pair);
      }
    }
  json_object_set_array_member (object, "entries", entries);
  {
    JsonNode *node = json_node_new (JSON_NODE_OBJECT);

    json_node_take_object (node, object);
    return node;
  }
}

static JsonNode *
plain_value_to_json (const RtcStream *stream,
                     gboolean         big_endian,
                     const guint8    *data,
                     gsize            len)
{
  const RtcFormat *format = &stream->format;

  switch (format->kind)
    {
    case RTC_FMT_INT:
    case RTC_FMT_FLOAT:
    case RTC_FMT_LEB128:
      {
        JsonArray *array = NULL;
        JsonNode *first = NULL;
        gsize pos = 0;
        RtcNumber number;

        /* A value holding several numbers prints as an array. */
        while (pos < len)
          {
            if (!kymo_rtc_read_number (format, big_endian, data, len, &pos, &number))
              {
                g_clear_pointer (&first, json_node_unref);
                g_clear_pointer (&array, json_array_unref);
                return NULL;
              }
            if (first == NULL && array == NULL)
              first = number_node (stream, &number);
            else
              {
                if (array == NULL)
                  {
                    array = json_array_new ();
                    json_array_add_element (array, g_steal_pointer (&first));
                  }
                json_array_add_element (array, number_node (stream, &number));
              }
          }
        if (array)
          {
            JsonNode *node = json_node_new (JSON_NODE_ARRAY);

            json_node_take_array (node, array);
            return node;
          }
        return first;
      }
    case RTC_FMT_TIMESPEC:
      {
        KymoTime ns;
        gsize used;

        if (!kymo_rtc_read_timespec (big_endian, data, len, &used, &ns) || used != len)
          return NULL;
        return json_node_init_int (json_node_alloc (), ns);
      }
    case RTC_FMT_UTF8:
      {
        g_autofree char *text = valid_text (data, len);
        return json_node_init_string (json_node_alloc (), text);
      }
    case RTC_FMT_JSON:
      {
        JsonNode *node = kymo_rtc_parse_json (data, len, NULL);
        g_autofree char *text = NULL;

        if (node)
          return node;
        text = valid_text (data, len);
        return json_node_init_string (json_node_alloc (), text);
      }
    case RTC_FMT_PLATFORM:
      if (len == 4 && kymo_read_u32le (data) == 0x01020304)
        return json_node_init_string (json_node_alloc (), "little-endian");
      if (len == 4 && kymo_read_u32be (data) == 0x01020304)
        return json_node_init_string (json_node_alloc (), "big-endian");
      break;
    case RTC_FMT_INDEX:
      return index_node (data, len, stream->id == RTC_ID_INDEX_FULL && stream->object == NULL);
    case RTC_FMT_RAW:
    case RTC_FMT_UNKNOWN:
      break;
    }
  {
    g_autofree char *hex = hex_string (data, len);
    return json_node_init_string (json_node_alloc (), hex);
  }
}

JsonNode *
kymo_rtc_value_to_json (const RtcStream *stream,
                        gboolean         big_endian,
                        const guint8    *data,
                        gsize            len)
{
  return plain_value_to_json (stream, big_endian, data, len);
}

char *
kymo_rtc_value_to_text (const RtcStream *stream,
                        gboolean         big_endian,
                        const guint8    *data,
                        gsize            len)
{
  g_autoptr(JsonNode) node = NULL;

  if (stream->format.kind == RTC_FMT_UTF8 || stream->format.kind == RTC_FMT_JSON)
    {
      char *text = valid_text (data, len);
      gsize n = strlen (text);

      while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        text[--n] = '\0';
      return text;
    }
  node = plain_value_to_json (stream, big_endian, data, len);
  if (node == NULL)
    return hex_string (data, len);
  if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return json_to_string (node, FALSE);
}
