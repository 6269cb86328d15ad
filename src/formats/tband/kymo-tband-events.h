/* kymo-tband-events.h: the Tonbandgerät event table and event parsing
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "kymo-json-writer.h"
#include "kymo-tband-cobs.h"

G_BEGIN_DECLS

typedef enum {
  KYMO_TBAND_MODE_AUTO,       /* every id; FreeRTOS once an id >= 0x54 appears */
  KYMO_TBAND_MODE_FREERTOS,
  KYMO_TBAND_MODE_BARE_METAL, /* ids >= 0x54 are invalid */
} KymoTbandMode;

typedef enum {
  KYMO_TBAND_U8,
  KYMO_TBAND_U32,
  KYMO_TBAND_U64,
  KYMO_TBAND_S64,
  KYMO_TBAND_STR,   /* runs to the end of the frame; may be empty */
} KymoTbandFieldType;

#define KYMO_TBAND_MAX_FIELDS 3
#define KYMO_TBAND_FIRST_FREERTOS_ID 0x54

typedef enum {
  KYMO_TBAND_CORE_ID                     = 0x00,
  KYMO_TBAND_DROPPED_EVT_CNT             = 0x01,
  KYMO_TBAND_TS_RESOLUTION_NS            = 0x02,
  KYMO_TBAND_ISR_NAME                    = 0x03,
  KYMO_TBAND_ISR_ENTER                   = 0x04,
  KYMO_TBAND_ISR_EXIT                    = 0x05,
  KYMO_TBAND_EVTMARKER_NAME              = 0x06,
  KYMO_TBAND_EVTMARKER                   = 0x07,
  KYMO_TBAND_EVTMARKER_BEGIN             = 0x08,
  KYMO_TBAND_EVTMARKER_END               = 0x09,
  KYMO_TBAND_VALMARKER_NAME              = 0x0A,
  KYMO_TBAND_VALMARKER                   = 0x0B,
  KYMO_TBAND_TASK_SWITCHED_IN            = 0x54,
  KYMO_TBAND_TASK_TO_RDY_STATE           = 0x55,
  KYMO_TBAND_TASK_RESUMED                = 0x56,
  KYMO_TBAND_TASK_RESUMED_FROM_ISR       = 0x57,
  KYMO_TBAND_TASK_SUSPENDED              = 0x58,
  KYMO_TBAND_CURTASK_DELAY               = 0x59,
  KYMO_TBAND_CURTASK_DELAY_UNTIL         = 0x5A,
  KYMO_TBAND_TASK_PRIORITY_SET           = 0x5B,
  KYMO_TBAND_TASK_PRIORITY_INHERIT       = 0x5C,
  KYMO_TBAND_TASK_PRIORITY_DISINHERIT    = 0x5D,
  KYMO_TBAND_TASK_CREATED                = 0x5E,
  KYMO_TBAND_TASK_NAME                   = 0x5F,
  KYMO_TBAND_TASK_IS_IDLE_TASK           = 0x60,
  KYMO_TBAND_TASK_IS_TIMER_TASK          = 0x61,
  KYMO_TBAND_TASK_DELETED                = 0x62,
  KYMO_TBAND_QUEUE_CREATED               = 0x63,
  KYMO_TBAND_QUEUE_NAME                  = 0x64,
  KYMO_TBAND_QUEUE_KIND                  = 0x65,
  KYMO_TBAND_QUEUE_SEND                  = 0x66,
  KYMO_TBAND_QUEUE_SEND_FROM_ISR         = 0x67,
  KYMO_TBAND_QUEUE_OVERWRITE             = 0x68,
  KYMO_TBAND_QUEUE_OVERWRITE_FROM_ISR    = 0x69,
  KYMO_TBAND_QUEUE_RECEIVE               = 0x6A,
  KYMO_TBAND_QUEUE_RECEIVE_FROM_ISR      = 0x6B,
  KYMO_TBAND_QUEUE_RESET                 = 0x6C,
  KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_PEEK = 0x6D,
  KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_SEND = 0x6E,
  KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_RECEIVE = 0x6F,
  KYMO_TBAND_QUEUE_CUR_LENGTH            = 0x70,
  KYMO_TBAND_TASK_EVTMARKER_NAME         = 0x7A,
  KYMO_TBAND_TASK_EVTMARKER              = 0x7B,
  KYMO_TBAND_TASK_EVTMARKER_BEGIN        = 0x7C,
  KYMO_TBAND_TASK_EVTMARKER_END          = 0x7D,
  KYMO_TBAND_TASK_VALMARKER_NAME         = 0x7E,
  KYMO_TBAND_TASK_VALMARKER              = 0x7F,
} KymoTbandEventId;

typedef struct {
  const char         *name;
  KymoTbandFieldType  type;
} KymoTbandField;

typedef struct {
  const char     *name;      /* NULL: not an event id */
  guint8          has_ts;    /* metadata events have no timestamp */
  guint8          n_fields;
  KymoTbandField  fields[KYMO_TBAND_MAX_FIELDS];
} KymoTbandEventInfo;

/* NULL for an id that is not in the table. */
const KymoTbandEventInfo *kymo_tband_event_info (guint id);

typedef union {
  guint64 u;
  gint64  s;
} KymoTbandValue;

typedef struct {
  guint           id;
  gboolean        has_ts;
  guint64         ts;          /* raw ticks */
  KymoTbandValue  v[KYMO_TBAND_MAX_FIELDS];
  const guint8   *str;         /* the str field, not NUL-terminated */
  gsize           str_len;
} KymoTbandEvent;

/* Parses one decoded frame. FALSE with a static *reason when the id is
 * unknown (or FreeRTOS in bare-metal mode), a field is cut short or too long,
 * or bytes are left over. */
gboolean kymo_tband_event_parse  (const guint8          *data,
                                  gsize                  len,
                                  KymoTbandMode          mode,
                                  KymoTbandEvent        *event,
                                  const char           **reason);

/* Per event id: 1 or 2 when the event is a timestamp then that many u32
 * fields (most of a stream), 0 for every other shape. */
extern const guint8 kymo_tband_event_u32_fields[256];

/* kymo_tband_event_parse() with the common shapes parsed in line; anything
 * unusual, including every failure, goes through the full parser so the
 * result and *reason are the same. */
static inline gboolean
kymo_tband_event_parse_inline (const guint8    *data,
                               gsize            len,
                               KymoTbandMode    mode,
                               KymoTbandEvent  *event,
                               const char     **reason)
{
  guint id = data[0];
  guint n_fields = kymo_tband_event_u32_fields[id];
  const guint8 *p = data + 1, *end = data + len;
  guint64 ts;

  if (G_UNLIKELY (n_fields == 0 ||
                  (mode == KYMO_TBAND_MODE_BARE_METAL && id >= KYMO_TBAND_FIRST_FREERTOS_ID) ||
                  !kymo_tband_read_u64 (&p, end, &ts)))
    return kymo_tband_event_parse (data, len, mode, event, reason);

  for (guint i = 0; i < n_fields; i++)
    {
      guint32 v;

      if (G_LIKELY (p < end && (*p & 0x80) == 0))
        v = *p++;
      else if (!kymo_tband_read_u32 (&p, end, &v))
        return kymo_tband_event_parse (data, len, mode, event, reason);
      event->v[i].u = v;
    }
  if (G_UNLIKELY (p != end))
    return kymo_tband_event_parse (data, len, mode, event, reason);

  event->id = id;
  event->has_ts = TRUE;
  event->ts = ts;
  event->str = NULL;
  event->str_len = 0;
  return TRUE;
}

/* The "fields" object of the dump contract (ts is not repeated). */
void     kymo_tband_event_write_fields (const KymoTbandEvent *event,
                                        KymoJsonWriter       *out);
void     kymo_tband_event_add_fields   (const KymoTbandEvent *event,
                                        JsonObject           *object);

/* Appends an encoded event (with its closing 0x00) to @out. @str may be NULL.
 * For tests, generators and the benchmark. */
void     kymo_tband_event_encode (GByteArray           *out,
                                  const KymoTbandEvent *event);

G_END_DECLS
