/* kymo-rtc-meta.c: Meta and Index frames: the streams they define and the
 * Unit geometry they give
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include "kymo-rtc-private.h"

static void
define_stream (RtcDecoder *d,
               RtcStream  *stream)
{
  RtcStream *old = NULL;

  if (stream->id < RTC_FIRST_USER_ID)
    {
      kymo_rtc_stream_free (stream);
      return;
    }
  if (stream->id < d->table->len)
    old = d->table->pdata[stream->id];
  if (old != NULL && kymo_rtc_stream_same (old, stream))
    {
      kymo_rtc_stream_free (stream);
      return;
    }

  stream->def_index = d->defs->len;
  g_ptr_array_add (d->defs, stream);
  if (stream->id >= d->table->len)
    g_ptr_array_set_size (d->table, stream->id + 1);
  d->table->pdata[stream->id] = stream;
  g_hash_table_insert (d->by_name, stream->name, stream);
}

static void
build_hot (RtcDecoder *d)
{
  memset (d->hot, 0, sizeof d->hot);
  for (guint h = RTC_FIRST_USER_ID << 1; h < G_N_ELEMENTS (d->hot) && (h >> 1) < d->table->len; h += 2)
    {
      const RtcStream *s = d->table->pdata[h >> 1];

      if (s == NULL)
        continue;
      if (s->fast && s->length == s->format.size && s->length > 0 && s->length < RTC_HOT_CLOCK - 1)
        d->hot[h] = (guint8) (1 + s->length);
      else if (s->is_clock && s->length < 0 && s->format.kind == RTC_FMT_LEB128 &&
               !s->format.is_signed && s->ns_step != 0)
        d->hot[h] = RTC_HOT_CLOCK;
    }
}

void
kymo_rtc_decoder_meta (RtcDecoder   *d,
                       guint64       offset,
                       const guint8 *data,
                       gsize         len)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = kymo_rtc_parse_json (data, len, &error);
  JsonArray *array;
  gint64 next_id = -1;
  guint n;

  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    {
      kymo_rtc_decoder_invalid (d, offset, "Meta is not a JSON array: %s",
               error ? error->message : "wrong type");
      return;
    }
  array = json_node_get_array (root);
  n = json_array_get_length (array);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        {
          g_autoptr(GError) stream_error = NULL;
          RtcStream *stream = kymo_rtc_stream_new_from_json (json_node_get_object (node), &stream_error);

          if (stream == NULL)
            kymo_rtc_decoder_invalid (d, offset, "Meta: %s", stream_error->message);
          else
            define_stream (d, stream);
        }
      else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
        next_id = json_node_get_int (node);
    }
  build_hot (d);
  if (d->cb->meta)
    d->cb->meta (d->user, offset, array, next_id);
}

static gboolean
valid_size (guint64 size)
{
  return size >= 64 && size <= (G_GUINT64_CONSTANT (1) << 40) && (size & (size - 1)) == 0;
}

/* The Index's entries for ids 3 and 4 hold the Unit and unit sizes: in the
 * first Index because the writer fakes earlier indexes, and in later ones
 * because those are exactly one Unit and one unit back. */
void
kymo_rtc_decoder_index (RtcDecoder   *d,
                        guint64       offset,
                        const guint8 *data,
                        gsize         len,
                        gboolean      full)
{
  KymoByteReader r;
  guint64 v, count = 0, unit = 0, minor = 0;

  kymo_byte_reader_init (&r, data, len);
  if (full && kymo_byte_reader_uleb128 (&r, 10, 64, &count) && d->first_unit && count != 0)
    d->continuity_lost = TRUE;
  while (full && kymo_byte_reader_uleb128 (&r, 10, 64, &v))
    {
      guint64 back;

      if ((v & 1) == 0 || !kymo_byte_reader_uleb128 (&r, 10, 64, &back))
        break;
      if (v >> 1 == RTC_ID_INDEX_FULL)
        unit = back >> 1;
      else if (v >> 1 == RTC_ID_INDEX)
        minor = back >> 1;
    }
  if (full && valid_size (unit) && valid_size (minor) && minor <= unit &&
      unit >= RTC_MARKER_SIZE + 2 * RTC_CRC_FRAME_SIZE)
    {
      d->unit_size = unit;
      d->minor_size = minor;
      d->sizes_known = TRUE;
      kymo_rtc_decoder_set_geometry (d);
    }
  if (d->cb->index)
    d->cb->index (d->user, offset, full, data, len);
}
