/* kymo-tband-events.c: the Tonbandgerät event table and event parsing
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-cobs.h"
#include "kymo-tband-events.h"

#define TS 1
#define META 0
#define U8(n)  { n, KYMO_TBAND_U8 }
#define U32(n) { n, KYMO_TBAND_U32 }
#define U64(n) { n, KYMO_TBAND_U64 }
#define S64(n) { n, KYMO_TBAND_S64 }
#define STR(n) { n, KYMO_TBAND_STR }

/* Base ids 0x00-0x0B, FreeRTOS ids 0x54-0x7F (0x71-0x79 are reserved for
 * stream buffers and not defined). Every event with a timestamp has ts:u64
 * right after the id; it is not listed here. */
static const KymoTbandEventInfo events[256] = {
  [0x00] = { "core_id", TS, 1, { U32 ("core_id") } },
  [0x01] = { "dropped_evt_cnt", TS, 1, { U32 ("cnt") } },
  [0x02] = { "ts_resolution_ns", META, 1, { U64 ("ns_per_ts") } },
  [0x03] = { "isr_name", META, 2, { U32 ("isr_id"), STR ("name") } },
  [0x04] = { "isr_enter", TS, 1, { U32 ("isr_id") } },
  [0x05] = { "isr_exit", TS, 1, { U32 ("isr_id") } },
  [0x06] = { "evtmarker_name", META, 2, { U32 ("evtmarker_id"), STR ("name") } },
  [0x07] = { "evtmarker", TS, 2, { U32 ("evtmarker_id"), STR ("msg") } },
  [0x08] = { "evtmarker_begin", TS, 2, { U32 ("evtmarker_id"), STR ("msg") } },
  [0x09] = { "evtmarker_end", TS, 1, { U32 ("evtmarker_id") } },
  [0x0A] = { "valmarker_name", META, 2, { U32 ("valmarker_id"), STR ("name") } },
  [0x0B] = { "valmarker", TS, 2, { U32 ("valmarker_id"), S64 ("val") } },

  [0x54] = { "task_switched_in", TS, 1, { U32 ("task_id") } },
  [0x55] = { "task_to_rdy_state", TS, 1, { U32 ("task_id") } },
  [0x56] = { "task_resumed", TS, 1, { U32 ("task_id") } },
  [0x57] = { "task_resumed_from_isr", TS, 1, { U32 ("task_id") } },
  [0x58] = { "task_suspended", TS, 1, { U32 ("task_id") } },
  [0x59] = { "curtask_delay", TS, 1, { U32 ("ticks") } },
  [0x5A] = { "curtask_delay_until", TS, 1, { U32 ("time_to_wake") } },
  [0x5B] = { "task_priority_set", TS, 2, { U32 ("task_id"), U32 ("priority") } },
  [0x5C] = { "task_priority_inherit", TS, 2, { U32 ("task_id"), U32 ("priority") } },
  [0x5D] = { "task_priority_disinherit", TS, 2, { U32 ("task_id"), U32 ("priority") } },
  [0x5E] = { "task_created", TS, 1, { U32 ("task_id") } },
  [0x5F] = { "task_name", META, 2, { U32 ("task_id"), STR ("name") } },
  [0x60] = { "task_is_idle_task", META, 2, { U32 ("task_id"), U32 ("core_id") } },
  [0x61] = { "task_is_timer_task", META, 1, { U32 ("task_id") } },
  [0x62] = { "task_deleted", TS, 1, { U32 ("task_id") } },
  [0x63] = { "queue_created", TS, 1, { U32 ("queue_id") } },
  [0x64] = { "queue_name", META, 2, { U32 ("queue_id"), STR ("name") } },
  [0x65] = { "queue_kind", META, 2, { U32 ("queue_id"), U8 ("kind") } },
  [0x66] = { "queue_send", TS, 2, { U32 ("queue_id"), U32 ("len_after") } },
  [0x67] = { "queue_send_from_isr", TS, 2, { U32 ("queue_id"), U32 ("len_after") } },
  [0x68] = { "queue_overwrite", TS, 2, { U32 ("queue_id"), U32 ("len_after") } },
  [0x69] = { "queue_overwrite_from_isr", TS, 2, { U32 ("queue_id"), U32 ("len_after") } },
  [0x6A] = { "queue_receive", TS, 2, { U32 ("queue_id"), U32 ("len_after") } },
  [0x6B] = { "queue_receive_from_isr", TS, 2, { U32 ("queue_id"), U32 ("len_after") } },
  [0x6C] = { "queue_reset", TS, 1, { U32 ("queue_id") } },
  [0x6D] = { "curtask_block_on_queue_peek", TS, 2, { U32 ("queue_id"), U32 ("ticks_to_wait") } },
  [0x6E] = { "curtask_block_on_queue_send", TS, 2, { U32 ("queue_id"), U32 ("ticks_to_wait") } },
  [0x6F] = { "curtask_block_on_queue_receive", TS, 2, { U32 ("queue_id"), U32 ("ticks_to_wait") } },
  [0x70] = { "queue_cur_length", TS, 2, { U32 ("queue_id"), U32 ("length") } },
  [0x7A] = { "task_evtmarker_name", META, 3, { U32 ("evtmarker_id"), U32 ("task_id"), STR ("name") } },
  [0x7B] = { "task_evtmarker", TS, 2, { U32 ("evtmarker_id"), STR ("msg") } },
  [0x7C] = { "task_evtmarker_begin", TS, 2, { U32 ("evtmarker_id"), STR ("msg") } },
  [0x7D] = { "task_evtmarker_end", TS, 1, { U32 ("evtmarker_id") } },
  [0x7E] = { "task_valmarker_name", META, 3, { U32 ("valmarker_id"), U32 ("task_id"), STR ("name") } },
  [0x7F] = { "task_valmarker", TS, 2, { U32 ("valmarker_id"), S64 ("val") } },
};

/* The timed events of the table above whose fields are all u32, for the
 * in-line parser; it must agree with the table (an id missing here only
 * takes the slower path). */
const guint8 kymo_tband_event_u32_fields[256] = {
  [0x00] = 1, [0x01] = 1, [0x04] = 1, [0x05] = 1, [0x09] = 1,
  [0x54] = 1, [0x55] = 1, [0x56] = 1, [0x57] = 1, [0x58] = 1, [0x59] = 1, [0x5A] = 1,
  [0x5B] = 2, [0x5C] = 2, [0x5D] = 2, [0x5E] = 1, [0x62] = 1, [0x63] = 1,
  [0x66] = 2, [0x67] = 2, [0x68] = 2, [0x69] = 2, [0x6A] = 2, [0x6B] = 2, [0x6C] = 1,
  [0x6D] = 2, [0x6E] = 2, [0x6F] = 2, [0x70] = 2, [0x7D] = 1,
};

/* Why a varint of at most @max_bytes at @p did not parse. */
static const char *
varint_failure (const guint8 *p,
                const guint8 *end,
                guint         max_bytes)
{
  for (guint i = 0; i < max_bytes; i++, p++)
    {
      if (p >= end)
        return "the frame ends inside a field";
      if ((*p & 0x80) == 0)
        break;
    }
  return "varint too long for its field";
}

const KymoTbandEventInfo *
kymo_tband_event_info (guint id)
{
  if (id >= G_N_ELEMENTS (events) || events[id].name == NULL)
    return NULL;
  return &events[id];
}

gboolean
kymo_tband_event_parse (const guint8    *data,
                        gsize            len,
                        KymoTbandMode    mode,
                        KymoTbandEvent  *event,
                        const char     **reason)
{
  const guint8 *p = data + 1, *end = data + len;
  const KymoTbandEventInfo *info;

  g_assert (len > 0);

  event->id = data[0];
  info = &events[event->id];
  if (info->name == NULL)
    {
      *reason = "unknown event id";
      return FALSE;
    }
  if (mode == KYMO_TBAND_MODE_BARE_METAL && event->id >= KYMO_TBAND_FIRST_FREERTOS_ID)
    {
      *reason = "FreeRTOS event in a bare-metal trace";
      return FALSE;
    }

  event->has_ts = info->has_ts;
  if (info->has_ts && !kymo_tband_read_u64 (&p, end, &event->ts))
    {
      *reason = varint_failure (p, end, 10);
      return FALSE;
    }
  event->str = NULL;
  event->str_len = 0;

  for (guint i = 0; i < info->n_fields; i++)
    {
      const KymoTbandField *field = &info->fields[i];
      gboolean ok = TRUE;

      /* Ids, lengths and priorities: one byte, nearly always. */
      if (G_LIKELY (field->type == KYMO_TBAND_U32 && p < end && (*p & 0x80) == 0))
        {
          event->v[i].u = *p++;
          continue;
        }
      switch (field->type)
        {
        case KYMO_TBAND_U8:
          if (p < end)
            event->v[i].u = *p++;
          else
            ok = FALSE;
          break;
        case KYMO_TBAND_U32:
          {
            guint32 v = 0;

            ok = kymo_tband_read_u32 (&p, end, &v);
            event->v[i].u = v;
          }
          break;
        case KYMO_TBAND_U64:
          ok = kymo_tband_read_u64 (&p, end, &event->v[i].u);
          break;
        case KYMO_TBAND_S64:
          ok = kymo_tband_read_s64 (&p, end, &event->v[i].s);
          break;
        case KYMO_TBAND_STR:
          event->str = p;
          event->str_len = end - p;
          p = end;
          break;
        default:
          g_assert_not_reached ();
        }
      if (!ok)
        {
          *reason = varint_failure (p, end, field->type == KYMO_TBAND_U32 ? 5 : 10);
          return FALSE;
        }
    }

  if (p != end)
    {
      *reason = "bytes left over after the last field";
      return FALSE;
    }
  return TRUE;
}

void
kymo_tband_event_write_fields (const KymoTbandEvent *event,
                               KymoJsonWriter       *out)
{
  const KymoTbandEventInfo *info = &events[event->id];

  kymo_json_writer_begin_object (out);
  for (guint i = 0; i < info->n_fields; i++)
    {
      kymo_json_writer_key (out, info->fields[i].name);
      switch (info->fields[i].type)
        {
        case KYMO_TBAND_S64:
          kymo_json_writer_int (out, event->v[i].s);
          break;
        case KYMO_TBAND_STR:
          kymo_json_writer_string (out, (const char *) event->str, event->str_len);
          break;
        case KYMO_TBAND_U8:
        case KYMO_TBAND_U32:
        case KYMO_TBAND_U64:
        default:
          kymo_json_writer_uint (out, event->v[i].u);
          break;
        }
    }
  kymo_json_writer_end_object (out);
}

void
kymo_tband_event_add_fields (const KymoTbandEvent *event,
                             JsonObject           *object)
{
  const KymoTbandEventInfo *info = &events[event->id];

  for (guint i = 0; i < info->n_fields; i++)
    {
      const char *name = info->fields[i].name;

      switch (info->fields[i].type)
        {
        case KYMO_TBAND_S64:
          json_object_set_int_member (object, name, event->v[i].s);
          break;
        case KYMO_TBAND_STR:
          {
            g_autofree char *text = g_utf8_make_valid ((const char *) event->str, event->str_len);
            json_object_set_string_member (object, name, text);
          }
          break;
        case KYMO_TBAND_U64:
          /* JSON numbers from json-glib are signed: keep big ones exact as text. */
          if (event->v[i].u > G_MAXINT64)
            {
              g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, event->v[i].u);
              json_object_set_string_member (object, name, text);
              break;
            }
          G_GNUC_FALLTHROUGH;
        case KYMO_TBAND_U8:
        case KYMO_TBAND_U32:
        default:
          json_object_set_int_member (object, name, (gint64) event->v[i].u);
          break;
        }
    }
}

void
kymo_tband_event_encode (GByteArray           *out,
                         const KymoTbandEvent *event)
{
  const KymoTbandEventInfo *info = kymo_tband_event_info (event->id);
  g_autoptr(GByteArray) raw = g_byte_array_new ();
  guint8 buf[10];
  gsize old_len;
  guint8 id = event->id;

  g_return_if_fail (info != NULL);

  g_byte_array_append (raw, &id, 1);
  if (info->has_ts)
    g_byte_array_append (raw, buf, kymo_tband_write_u64 (buf, event->ts));
  for (guint i = 0; i < info->n_fields; i++)
    {
      switch (info->fields[i].type)
        {
        case KYMO_TBAND_U8:
          buf[0] = (guint8) event->v[i].u;
          g_byte_array_append (raw, buf, 1);
          break;
        case KYMO_TBAND_U32:
        case KYMO_TBAND_U64:
          g_byte_array_append (raw, buf, kymo_tband_write_u64 (buf, event->v[i].u));
          break;
        case KYMO_TBAND_S64:
          g_byte_array_append (raw, buf, kymo_tband_write_s64 (buf, event->v[i].s));
          break;
        case KYMO_TBAND_STR:
          if (event->str_len > 0)
            g_byte_array_append (raw, event->str, event->str_len);
          break;
        default:
          g_assert_not_reached ();
        }
    }

  old_len = out->len;
  g_byte_array_set_size (out, old_len + kymo_tband_cobs_max_encoded (raw->len));
  g_byte_array_set_size (out, old_len + kymo_tband_cobs_encode (raw->data, raw->len, out->data + old_len));
}
