/* kymo-rtc-stream.c: stream definitions from Meta JSON, and payload formats
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include <math.h>

#include "kymo-rtc-private.h"

static const struct {
  const char *name;
  gint64      length;
  const char *format;
} builtins[RTC_FIRST_USER_ID] = {
  { "nop", 0, "raw" },
  { "padding", -1, "raw" },
  { "Marker", RTC_FRAME_MAX, "raw" },
  { "Index", -1, "index" },
  { "index", -1, "index" },
  { "Meta", -1, "json" },
  { "meta", -1, "json" },
  { "Platform", 4, "platform" },
  { "Crc", 4, "uint32" },
};

static const char * const known_keys[] = {
  "id", "name", "length", "cont", "format", "type", "clock", "gain",
  "offset", "delta", "stream", "unit",
};

gboolean
kymo_rtc_is_extra_key (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (known_keys); i++)
    if (strcmp (key, known_keys[i]) == 0)
      return FALSE;
  return TRUE;
}

static gboolean
parse_order (const char *suffix,
             RtcOrder   *order)
{
  if (*suffix == '\0')
    *order = RTC_ORDER_NATIVE;
  else if (strcmp (suffix, "le") == 0)
    *order = RTC_ORDER_LE;
  else if (strcmp (suffix, "be") == 0)
    *order = RTC_ORDER_BE;
  else
    return FALSE;
  return TRUE;
}

gboolean
kymo_rtc_parse_format (const char *name,
                       RtcFormat  *format)
{
  const char *p = name;

  memset (format, 0, sizeof *format);
  format->kind = RTC_FMT_UNKNOWN;
  if (name == NULL || strcmp (name, "raw") == 0)
    format->kind = RTC_FMT_RAW;
  else if (strcmp (name, "index") == 0)
    format->kind = RTC_FMT_INDEX;
  else if (strcmp (name, "json") == 0)
    format->kind = RTC_FMT_JSON;
  else if (g_ascii_strcasecmp (name, "utf-8") == 0 || g_ascii_strcasecmp (name, "utf8") == 0)
    format->kind = RTC_FMT_UTF8;
  else if (strcmp (name, "timespec") == 0)
    format->kind = RTC_FMT_TIMESPEC;
  else if (strcmp (name, "platform") == 0)
    format->kind = RTC_FMT_PLATFORM;
  else if (strcmp (name, "leb128") == 0 || strcmp (name, "uleb128") == 0)
    {
      format->kind = RTC_FMT_LEB128;
      format->is_signed = name[0] == 'l';
    }
  else
    {
      gboolean is_float = FALSE;
      guint bits = 0;

      if (g_str_has_prefix (p, "float"))
        {
          is_float = TRUE;
          p += 5;
        }
      else
        {
          format->is_signed = TRUE;
          if (*p == 'u')
            {
              format->is_signed = FALSE;
              p++;
            }
          if (!g_str_has_prefix (p, "int"))
            return FALSE;
          p += 3;
        }
      while (g_ascii_isdigit (*p) && bits < 1000)
        bits = bits * 10 + (guint) (*p++ - '0');
      if (!parse_order (p, &format->order))
        return FALSE;
      if (is_float ? (bits != 32 && bits != 64)
                   : (bits != 8 && bits != 16 && bits != 32 && bits != 64))
        return FALSE;
      format->kind = is_float ? RTC_FMT_FLOAT : RTC_FMT_INT;
      format->size = (guint8) (bits / 8);
      if (is_float)
        format->is_signed = TRUE;
    }
  return format->kind != RTC_FMT_UNKNOWN;
}

static void
set_format (RtcStream  *stream,
            const char *name)
{
  const char *inner = name;

  g_free (stream->format_name);
  stream->format_name = g_strdup (name ? name : "raw");
  stream->annotate = name != NULL && g_str_has_prefix (name, "annotate/");
  if (stream->annotate)
    inner = name + strlen ("annotate/");
  kymo_rtc_parse_format (inner, &stream->format);
}

RtcStream *
kymo_rtc_stream_new_builtin (guint32 id)
{
  RtcStream *stream = g_new0 (RtcStream, 1);

  g_assert (id < RTC_FIRST_USER_ID);
  stream->id = id;
  stream->name = g_strdup (builtins[id].name);
  stream->length = builtins[id].length;
  stream->gain = 1.0;
  stream->track = KYMO_NO_TRACK;
  set_format (stream, builtins[id].format);
  stream->pending = g_byte_array_new ();
  stream->pieces = g_array_new (FALSE, FALSE, sizeof (RtcPiece));
  return stream;
}

static const char *
get_string (JsonObject *object,
            const char *key)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

static gboolean
get_number (JsonObject *object,
            const char *key,
            double     *out)
{
  JsonNode *node = json_object_get_member (object, key);
  GType type;

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  type = json_node_get_value_type (node);
  if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    return FALSE;
  *out = json_node_get_double (node);
  return isfinite (*out);
}

static gboolean
get_bool (JsonObject *object,
          const char *key)
{
  JsonNode *node = json_object_get_member (object, key);

  return node != NULL && JSON_NODE_TYPE (node) == JSON_NODE_VALUE &&
         json_node_get_value_type (node) == G_TYPE_BOOLEAN &&
         json_node_get_boolean (node);
}

RtcStream *
kymo_rtc_stream_new_from_json (JsonObject  *object,
                               GError     **error)
{
  RtcStream *stream;
  double id, number;
  const char *format, *name;

  if (!get_number (object, "id", &id) || id != floor (id) || id < 0 || id > RTC_MAX_STREAM_ID)
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT,
                   "stream definition without a valid \"id\"");
      return NULL;
    }

  stream = g_new0 (RtcStream, 1);
  stream->id = (guint32) id;
  stream->track = KYMO_NO_TRACK;
  name = get_string (object, "name");
  stream->name = name ? g_strdup (name) : g_strdup_printf ("stream %u", stream->id);
  /* The document calls the key "type"; the writer "format". */
  format = get_string (object, "format");
  if (format == NULL)
    format = get_string (object, "type");
  set_format (stream, format);

  stream->length = -1;
  if (get_number (object, "length", &number) && number >= 0 && number == floor (number) &&
      number <= G_MAXINT32)
    stream->length = (gint64) number;
  stream->cont = get_bool (object, "cont");
  stream->is_clock = get_bool (object, "clock");
  stream->clock_name = g_strdup (get_string (object, "clock"));
  stream->delta_name = g_strdup (get_string (object, "delta"));
  stream->target_name = g_strdup (get_string (object, "stream"));
  stream->unit = g_strdup (get_string (object, "unit"));
  stream->gain = 1.0;
  if (get_number (object, "gain", &number))
    {
      stream->gain = number;
      stream->has_scale = TRUE;
    }
  if (get_number (object, "offset", &number))
    {
      stream->offset = number;
      stream->has_scale = TRUE;
    }
  stream->object = json_object_ref (object);
  {
    double step = stream->gain * 1e9, rstep = round (step), roff = round (stream->offset * 1e9);

    /* Counters with a gain of whole nanoseconds stay exact in integers. */
    if (rstep >= 1 && rstep < 1e15 && fabs (step - rstep) <= 1e-9 * rstep && fabs (roff) < 9e18)
      {
        stream->ns_step = (gint64) rstep;
        stream->ns_offset = (gint64) roff;
      }
  }
  stream->fast = (stream->format.kind == RTC_FMT_INT || stream->format.kind == RTC_FMT_FLOAT) &&
                 !stream->is_clock && !stream->annotate;
  stream->pending = g_byte_array_new ();
  stream->pieces = g_array_new (FALSE, FALSE, sizeof (RtcPiece));
  return stream;
}

void
kymo_rtc_stream_free (RtcStream *stream)
{
  if (stream == NULL)
    return;
  g_free (stream->name);
  g_free (stream->format_name);
  g_free (stream->clock_name);
  g_free (stream->delta_name);
  g_free (stream->target_name);
  g_free (stream->unit);
  g_clear_pointer (&stream->object, json_object_unref);
  g_clear_pointer (&stream->pending, g_byte_array_unref);
  g_clear_pointer (&stream->pieces, g_array_unref);
  if (stream->line)
    g_string_free (stream->line, TRUE);
  g_free (stream);
}

gboolean
kymo_rtc_stream_same (const RtcStream *a,
                      const RtcStream *b)
{
  g_autoptr(JsonNode) na = NULL;
  g_autoptr(JsonNode) nb = NULL;

  if (a->object == NULL || b->object == NULL)
    return FALSE;
  na = json_node_init_object (json_node_alloc (), a->object);
  nb = json_node_init_object (json_node_alloc (), b->object);
  return json_node_equal (na, nb);
}

/* Old writers emit {id:9,name:"clk"}: quote bare keys outside strings. */
static char *
quote_bare_keys (const char *text,
                 gsize       len)
{
  GString *out = g_string_sized_new (len + 32);
  gboolean in_string = FALSE;

  for (gsize i = 0; i < len; i++)
    {
      char c = text[i];

      if (in_string)
        {
          g_string_append_c (out, c);
          if (c == '\\' && i + 1 < len)
            g_string_append_c (out, text[++i]);
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      if ((g_ascii_isalpha (c) || c == '_') &&
          (out->len == 0 || strchr ("{,", out->str[out->len - 1]) != NULL))
        {
          gsize j = i;

          while (j < len && (g_ascii_isalnum (text[j]) || text[j] == '_'))
            j++;
          if (j < len && text[j] == ':')
            {
              g_string_append_c (out, '"');
              g_string_append_len (out, text + i, (gssize) (j - i));
              g_string_append_c (out, '"');
              i = j - 1;
              continue;
            }
        }
      g_string_append_c (out, c);
    }
  return g_string_free (out, FALSE);
}

JsonNode *
kymo_rtc_parse_json (const guint8  *data,
                     gsize          len,
                     GError       **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *fixed = NULL;
  JsonNode *root;

  if (len > G_MAXSSIZE)
    len = G_MAXSSIZE;
  if (!json_parser_load_from_data (parser, (const char *) data, (gssize) len, &local_error))
    {
      g_autoptr(JsonParser) retry = json_parser_new_immutable ();

      fixed = quote_bare_keys ((const char *) data, len);
      if (!json_parser_load_from_data (retry, fixed, -1, NULL))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_set_object (&parser, retry);
    }
  root = json_parser_get_root (parser);
  if (root == NULL)
    {
      g_set_error_literal (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_PARSE, "empty JSON");
      return NULL;
    }
  return json_node_copy (root);
}
