/* kymo-rtc-dump.c: every RTC frame as a JSON line (CLI.md)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include "kymo-rtc-private.h"

typedef struct {
  KymoJsonWriter *out;
  RtcDecoder     *decoder;
} RtcDump;

static void
begin (RtcDump    *dump,
       const char *kind)
{
  kymo_json_writer_begin_object (dump->out);
  kymo_json_writer_key (dump->out, "kind");
  kymo_json_writer_string (dump->out, kind, -1);
}

static void
end (RtcDump *dump)
{
  kymo_json_writer_end_object (dump->out);
  kymo_json_writer_end_line (dump->out);
}

static void
key_uint (RtcDump    *dump,
          const char *key,
          guint64     value)
{
  kymo_json_writer_key (dump->out, key);
  kymo_json_writer_uint (dump->out, value);
}

static void
on_marker (gpointer user,
           guint64  offset)
{
  RtcDump *dump = user;

  begin (dump, "marker");
  key_uint (dump, "offset", offset);
  end (dump);
}

static void
on_invalid (gpointer    user,
            guint64     offset,
            const char *reason)
{
  RtcDump *dump = user;

  begin (dump, "invalid");
  key_uint (dump, "offset", offset);
  kymo_json_writer_key (dump->out, "reason");
  kymo_json_writer_string (dump->out, reason, -1);
  end (dump);
}

static void
on_index (gpointer      user,
          guint64       offset,
          gboolean      full,
          const guint8 *data,
          gsize         len)
{
  RtcDump *dump = user;
  RtcStream *stream = dump->decoder->builtin[full ? RTC_ID_INDEX_FULL : RTC_ID_INDEX];
  g_autoptr(JsonNode) node = kymo_rtc_value_to_json (stream, FALSE, data, len);
  JsonObject *object = json_node_get_object (node);

  begin (dump, full ? "Index" : "index");
  key_uint (dump, "offset", offset);
  if (json_object_has_member (object, "count"))
    {
      kymo_json_writer_key (dump->out, "count");
      kymo_json_writer_node (dump->out, json_object_get_member (object, "count"));
    }
  kymo_json_writer_key (dump->out, "entries");
  kymo_json_writer_node (dump->out, json_object_get_member (object, "entries"));
  end (dump);
}

static void
on_meta (gpointer   user,
         guint64    offset,
         JsonArray *streams,
         gint64     next_id)
{
  RtcDump *dump = user;
  guint n = json_array_get_length (streams);

  begin (dump, "meta");
  key_uint (dump, "offset", offset);
  kymo_json_writer_key (dump->out, "streams");
  kymo_json_writer_begin_array (dump->out);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (streams, i);

      if (JSON_NODE_HOLDS_OBJECT (node))
        kymo_json_writer_node (dump->out, node);
    }
  kymo_json_writer_end_array (dump->out);
  kymo_json_writer_key (dump->out, "next_id");
  if (next_id >= 0)
    kymo_json_writer_int (dump->out, next_id);
  else
    kymo_json_writer_null (dump->out);
  end (dump);
}

static void
on_platform (gpointer user,
             guint64  offset,
             gboolean big_endian)
{
  RtcDump *dump = user;

  begin (dump, "platform");
  key_uint (dump, "offset", offset);
  kymo_json_writer_key (dump->out, "byte_order");
  kymo_json_writer_string (dump->out, big_endian ? "big-endian" : "little-endian", -1);
  end (dump);
}

static void
on_crc (gpointer user,
        guint64  offset,
        gboolean ok)
{
  RtcDump *dump = user;

  begin (dump, "crc");
  key_uint (dump, "offset", offset);
  kymo_json_writer_key (dump->out, "ok");
  kymo_json_writer_bool (dump->out, ok);
  end (dump);
}

static void
write_number (RtcDump         *dump,
              const RtcStream *s,
              const RtcNumber *number)
{
  if (s->has_scale || number->type == RTC_NUM_DOUBLE)
    kymo_json_writer_double (dump->out, kymo_rtc_scaled (s, number));
  else if (number->type == RTC_NUM_INT)
    kymo_json_writer_int (dump->out, number->i);
  else
    kymo_json_writer_uint (dump->out, number->u);
}

/* Numbers are written directly so that the whole u64 range stays exact. */
static gboolean
write_numbers (RtcDump         *dump,
               const RtcStream *s,
               const RtcValue  *v)
{
  RtcNumber first, number;
  gsize pos = 0;

  if (!kymo_rtc_read_number (&s->format, dump->decoder->big_endian, v->data, v->len, &pos, &first))
    return FALSE;
  if (pos == v->len)
    {
      kymo_json_writer_key (dump->out, "value");
      write_number (dump, s, &first);
      return TRUE;
    }
  /* Check the whole value before writing any of it. */
  for (gsize p = pos; p < v->len;)
    if (!kymo_rtc_read_number (&s->format, dump->decoder->big_endian, v->data, v->len, &p, &number))
      return FALSE;
  kymo_json_writer_key (dump->out, "value");
  kymo_json_writer_begin_array (dump->out);
  write_number (dump, s, &first);
  while (pos < v->len &&
         kymo_rtc_read_number (&s->format, dump->decoder->big_endian, v->data, v->len, &pos, &number))
    write_number (dump, s, &number);
  kymo_json_writer_end_array (dump->out);
  return TRUE;
}

static gboolean
is_valid_numbers (RtcDump         *dump,
                  const RtcStream *s,
                  const RtcValue  *v)
{
  RtcNumber number;
  gsize pos = 0;

  if (v->len == 0)
    return FALSE;
  while (pos < v->len)
    if (!kymo_rtc_read_number (&s->format, dump->decoder->big_endian, v->data, v->len, &pos, &number))
      return FALSE;
  return TRUE;
}

static void
on_value (gpointer        user,
          RtcStream      *s,
          const RtcValue *v)
{
  RtcDump *dump = user;
  g_autoptr(JsonNode) node = NULL;
  gboolean numeric = kymo_rtc_is_numeric (&s->format);

  if ((s->format.kind == RTC_FMT_UTF8 && !s->annotate) || numeric)
    node = NULL;
  else
    node = kymo_rtc_value_to_json (s, dump->decoder->big_endian, v->data, v->len);
  if ((numeric && !is_valid_numbers (dump, s, v)) ||
      (!numeric && node == NULL && s->format.kind != RTC_FMT_UTF8))
    {
      g_autofree char *reason = g_strdup_printf ("stream \"%s\": %zu bytes are not a %s value",
                                                 s->name, v->len, s->format_name);
      if (!s->is_clock)
        {
          on_invalid (user, v->offset, reason);
          return;
        }
    }

  begin (dump, "data");
  key_uint (dump, "offset", v->offset);
  key_uint (dump, "id", s->id);
  kymo_json_writer_key (dump->out, "stream");
  kymo_json_writer_string (dump->out, s->name, -1);
  if (v->ts != KYMO_TIME_NONE)
    {
      kymo_json_writer_key (dump->out, "ts");
      kymo_json_writer_int (dump->out, v->ts);
    }
  if (numeric)
    write_numbers (dump, s, v);
  else if (node != NULL)
    {
      kymo_json_writer_key (dump->out, "value");
      kymo_json_writer_node (dump->out, node);
    }
  else if (s->format.kind == RTC_FMT_UTF8)
    {
      kymo_json_writer_key (dump->out, "value");
      kymo_json_writer_string (dump->out, (const char *) v->data, (gssize) v->len);
    }
  if (v->n_pieces > 1)
    key_uint (dump, "frames", v->n_pieces);
  end (dump);
}

static const RtcCallbacks dump_callbacks = {
  .marker = on_marker,
  .invalid = on_invalid,
  .index = on_index,
  .meta = on_meta,
  .platform = on_platform,
  .crc = on_crc,
  .value = on_value,
};

gboolean
kymo_rtc_dump (KymoLoadJob     *job,
               KymoJsonWriter  *out,
               GError         **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  RtcDecoder decoder;
  RtcDump dump = { out, &decoder };
  gboolean ok;

  kymo_rtc_decoder_init (&decoder, job, input->main.data, input->main.size, &dump_callbacks, &dump);
  ok = kymo_rtc_decoder_run (&decoder, error);
  kymo_rtc_decoder_clear (&decoder);
  kymo_json_writer_flush (out);
  return ok;
}
