/* kymo-tband-input.c: the byte streams (one per core file) an input holds
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-input.h"
#include "kymo-tband-model.h"

#include <string.h>

static void
stream_free (gpointer data)
{
  KymoTbandStream *stream = data;

  g_free (stream->path);
  g_clear_pointer (&stream->owned, g_bytes_unref);
  g_clear_error (&stream->stop);
  g_free (stream);
}

void
kymo_tband_streams_free (KymoTbandStreams *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->streams, g_ptr_array_unref);
  g_clear_pointer (&self->input, kymo_input_unref);
  g_free (self);
}

gboolean
kymo_tband_parse_mode (const char    *text,
                       KymoTbandMode *mode)
{
  if (text == NULL || g_ascii_strcasecmp (text, "auto") == 0)
    *mode = KYMO_TBAND_MODE_AUTO;
  else if (g_ascii_strcasecmp (text, "freertos") == 0 || g_ascii_strcasecmp (text, "free-rtos") == 0)
    *mode = KYMO_TBAND_MODE_FREERTOS;
  else if (g_ascii_strcasecmp (text, "bare-metal") == 0 || g_ascii_strcasecmp (text, "baremetal") == 0 ||
           g_ascii_strcasecmp (text, "bare_metal") == 0)
    *mode = KYMO_TBAND_MODE_BARE_METAL;
  else
    return FALSE;
  return TRUE;
}

/* Decodes @data as @encoding into @stream; text damage goes to ->stop. */
static void
stream_fill (KymoTbandStream   *stream,
             const guint8      *data,
             gsize              size,
             KymoTbandEncoding  encoding)
{
  g_autoptr(GByteArray) bytes = NULL;
  KymoTbandTextResult result;
  gsize bad = 0;

  stream->encoding = encoding;
  if (encoding == KYMO_TBAND_ENCODING_BINARY)
    {
      stream->data = data;
      stream->size = size;
      return;
    }

  bytes = g_byte_array_new ();
  if (encoding == KYMO_TBAND_ENCODING_HEX)
    result = kymo_tband_decode_hex (data, size, bytes, &bad);
  else
    result = kymo_tband_decode_base64 (data, size, bytes, &bad);

  if (result == KYMO_TBAND_TEXT_BAD_CHAR)
    g_set_error (&stream->stop, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT,
                 "%s: offset %" G_GSIZE_FORMAT ": %s text: unexpected character 0x%02x",
                 stream->path, bad, kymo_tband_encoding_name (encoding), data[bad]);
  else if (result == KYMO_TBAND_TEXT_TRUNCATED)
    g_set_error (&stream->stop, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_TRUNCATED,
                 "%s: offset %" G_GSIZE_FORMAT ": %s text ends inside a byte",
                 stream->path, bad, kymo_tband_encoding_name (encoding));

  stream->owned = g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
  stream->data = g_bytes_get_data (stream->owned, &stream->size);
}

static KymoTbandStream *
stream_new (const char *path,
            int         core)
{
  KymoTbandStream *stream = g_new0 (KymoTbandStream, 1);

  stream->path = g_strdup (path);
  stream->core = core;
  return stream;
}

/* The web converter's demo file: {"title", "trace_mode", "data": [{"core_id", "hex"}]}. */
static gboolean
open_json (KymoTbandStreams     *self,
           const KymoInputPart  *part,
           GError              **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) local_error = NULL;
  JsonObject *root;
  JsonArray *array;

  if (!json_parser_load_from_data (parser, (const char *) part->data, part->size, &local_error))
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT, "%s: not a Tonbandgerät JSON file: %s",
                   part->path, local_error->message);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)) ||
      !json_object_has_member ((root = json_node_get_object (json_parser_get_root (parser))), "data") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (root, "data")))
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT,
                   "%s: not a Tonbandgerät JSON file: no \"data\" array", part->path);
      return FALSE;
    }

  if (self->mode == KYMO_TBAND_MODE_AUTO && json_object_has_member (root, "trace_mode"))
    {
      JsonNode *node = json_object_get_member (root, "trace_mode");
      KymoTbandMode mode;

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
          kymo_tband_parse_mode (json_node_get_string (node), &mode))
        self->mode = mode;
    }

  array = json_object_get_array_member (root, "data");
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      g_autofree char *path = g_strdup_printf ("%s (data[%u])", part->path, i);
      JsonObject *entry;
      JsonNode *hex, *core;
      KymoTbandStream *stream;
      const char *text;
      gint64 core_id = -1;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      entry = json_node_get_object (node);
      hex = json_object_get_member (entry, "hex");
      core = json_object_get_member (entry, "core_id");
      if (hex == NULL || !JSON_NODE_HOLDS_VALUE (hex) || json_node_get_value_type (hex) != G_TYPE_STRING)
        continue;
      if (core != NULL && JSON_NODE_HOLDS_VALUE (core) && json_node_get_value_type (core) == G_TYPE_INT64)
        core_id = json_node_get_int (core);
      if (core_id < 0 || core_id >= 1024)
        core_id = -1;
      text = json_node_get_string (hex);
      stream = stream_new (path, (int) core_id);
      g_ptr_array_add (self->streams, stream);
      stream_fill (stream, (const guint8 *) text, strlen (text), KYMO_TBAND_ENCODING_HEX);
    }
  return TRUE;
}

KymoTbandStreams *
kymo_tband_streams_open (KymoInput              *input,
                         const KymoLoadOptions  *options,
                         GError                **error)
{
  g_autoptr(KymoTbandStreams) self = g_new0 (KymoTbandStreams, 1);
  guint n_parts = 1 + input->extra->len;
  guint64 base = 0;

  self->input = kymo_input_ref (input);
  self->streams = g_ptr_array_new_with_free_func (stream_free);

  if (!kymo_tband_parse_mode (options ? options->tband_mode : NULL, &self->mode))
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNSUPPORTED,
                   "unknown Tonbandgerät trace mode “%s” (freertos or bare-metal)", options->tband_mode);
      return NULL;
    }
  if (input->is_dir)
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT,
                   "%s: a folder is not a Tonbandgerät trace", kymo_input_get_path (input));
      return NULL;
    }

  for (guint i = 0; i < n_parts; i++)
    {
      const KymoInputPart *part = i == 0 ? &input->main : g_ptr_array_index (input->extra, i - 1);
      KymoTbandEncoding encoding = kymo_tband_guess_encoding (part->data, part->size);
      int core = part->core;

      /* Several files without @N: one per core, in the order given. */
      if (core < 0 && n_parts > 1)
        core = i;
      if (core >= KYMO_TBAND_MAX_CORES)
        {
          g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNSUPPORTED,
                       "%s: core %d is out of range: Tonbandgerät traces have cores 0 to %d",
                       part->path, core, KYMO_TBAND_MAX_CORES - 1);
          return NULL;
        }

      if (encoding == KYMO_TBAND_ENCODING_JSON)
        {
          if (!open_json (self, part, error))
            return NULL;
          continue;
        }
      {
        KymoTbandStream *stream = stream_new (part->path, core);

        g_ptr_array_add (self->streams, stream);
        stream_fill (stream, part->data, part->size, encoding);
      }
    }

  /* A JSON file whose "data" holds no usable entry. */
  if (self->streams->len == 0)
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT,
                   "%s: no Tonbandgerät stream: \"data\" has no entry with a \"hex\" string",
                   kymo_input_get_path (input));
      return NULL;
    }

  for (guint i = 0; i < self->streams->len; i++)
    {
      KymoTbandStream *stream = g_ptr_array_index (self->streams, i);

      stream->base = base;
      base += stream->size;
    }

  return g_steal_pointer (&self);
}

KymoTbandStream *
kymo_tband_streams_find (KymoTbandStreams *self,
                         guint32           source,
                         gsize            *offset)
{
  for (guint i = 0; i < self->streams->len; i++)
    {
      KymoTbandStream *stream = g_ptr_array_index (self->streams, i);

      if (source >= stream->base && source - stream->base < stream->size)
        {
          *offset = source - stream->base;
          return stream;
        }
    }
  return NULL;
}
