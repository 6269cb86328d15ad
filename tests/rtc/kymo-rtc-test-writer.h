/* kymo-rtc-test-writer.h: writes RTC files the way the reference writer lays
 * them out (Units, units, split frames, padding, Crc), for tests, the fuzz
 * corpus and the benchmark. Header-only so the benchmark can use it too.
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

G_BEGIN_DECLS

#define RTCW_MAX_STREAMS 64
#define RTCW_MAX_PAYLOAD 1024

typedef struct {
  GByteArray *out;
  gsize       unit_size;     /* Unit: Marker to Marker */
  gsize       minor_size;    /* unit: index to index */
  gsize       unit_end;      /* where this Unit's Crc goes */
  gsize       minor_end;
  gsize       crc_start;
  guint       unit_count;
  gboolean    big_endian;
  gboolean    started;
  guint       next_id;
  GString    *meta;          /* the stream objects, comma separated */
  gint64      length[RTCW_MAX_STREAMS];
  guint32     crc_table[256];
} RtcWriter;

static inline void
rtcw_init (RtcWriter *w,
           gsize      unit_size,
           gsize      minor_size,
           gboolean   big_endian)
{
  memset (w, 0, sizeof *w);
  w->out = g_byte_array_new ();
  w->unit_size = unit_size;
  w->minor_size = minor_size;
  w->big_endian = big_endian;
  w->next_id = 9;
  w->meta = g_string_new (NULL);
  for (guint i = 0; i < RTCW_MAX_STREAMS; i++)
    w->length[i] = -1;
  w->length[0] = 0;
  w->length[2] = 1024;
  w->length[7] = 4;
  w->length[8] = 4;
  /* Written out bit by bit, independently of the decoder's version. */
  for (guint i = 0; i < 256; i++)
    {
      guint32 c = (guint32) i << 24;
      for (guint b = 0; b < 8; b++)
        c = (c & 0x80000000u) ? (c << 1) ^ 0x04C11DB7u : c << 1;
      w->crc_table[i] = c;
    }
}

static inline GBytes *
rtcw_free_to_bytes (RtcWriter *w)
{
  g_string_free (w->meta, TRUE);
  return g_byte_array_free_to_bytes (w->out);
}

static inline guint32
rtcw_crc (RtcWriter    *w,
          const guint8 *data,
          gsize         len)
{
  guint32 crc = 0xFFFFFFFFu;

  for (gsize i = 0; i < len; i++)
    crc = (crc >> 8) ^ w->crc_table[(crc ^ data[i]) & 0xFF];
  return crc ^ 0xFFFFFFFFu;
}

static inline gsize
rtcw_pos (RtcWriter *w)
{
  return w->out->len;
}

static inline void
rtcw_bytes (RtcWriter    *w,
            const void   *data,
            gsize         len)
{
  g_byte_array_append (w->out, data, (guint) len);
}

static inline void
rtcw_int (RtcWriter *w,
          guint64    v)
{
  do
    {
      guint8 b = v & 0x7F;
      v >>= 7;
      if (v)
        b |= 0x80;
      rtcw_bytes (w, &b, 1);
    }
  while (v);
}

static inline gsize
rtcw_int_len (guint64 v)
{
  gsize n = 1;
  while (v >>= 7)
    n++;
  return n;
}

static inline void
rtcw_u32 (RtcWriter *w,
          guint32    v)
{
  guint8 b[4];

  if (w->big_endian)
    v = GUINT32_TO_BE (v);
  else
    v = GUINT32_TO_LE (v);
  memcpy (b, &v, 4);
  rtcw_bytes (w, b, 4);
}

/* A frame written as is: header, length for variable streams, payload. */
static inline void
rtcw_raw_frame (RtcWriter  *w,
                guint       id,
                gboolean    more,
                const void *payload,
                gsize       len)
{
  rtcw_int (w, ((guint64) id << 1) | (more ? 1 : 0));
  if (w->length[id] < 0)
    rtcw_int (w, len);
  rtcw_bytes (w, payload, len);
}

static inline void
rtcw_padding (RtcWriter *w,
              gsize      len)
{
  static const guint8 zeros[64];

  while (len > 0)
    {
      gsize payload, hdr;

      if (len == 1)
        {
          rtcw_bytes (w, zeros, 1);   /* a nop frame */
          return;
        }
      payload = len - 2;
      hdr = 1 + rtcw_int_len (payload);
      payload = len - hdr;
      hdr = 1 + rtcw_int_len (payload);
      rtcw_int (w, 1 << 1);
      rtcw_int (w, payload);
      len -= hdr + payload;
      while (payload > 0)
        {
          gsize chunk = MIN (payload, sizeof zeros);
          rtcw_bytes (w, zeros, chunk);
          payload -= chunk;
        }
    }
}

static inline void
rtcw_index (RtcWriter *w,
            gboolean   full)
{
  GByteArray *saved = w->out;
  GByteArray *payload = g_byte_array_new ();

  w->out = payload;
  if (full)
    {
      rtcw_int (w, w->unit_count);
      rtcw_int (w, (3 << 1) | 1);
      rtcw_int (w, (guint64) w->unit_size << 1);
      rtcw_int (w, (4 << 1) | 1);
      rtcw_int (w, (guint64) w->minor_size << 1);
    }
  else
    {
      rtcw_int (w, (9 << 1) | 1);
      rtcw_int (w, 0);
    }
  w->out = saved;
  rtcw_raw_frame (w, full ? 3 : 4, FALSE, payload->data, payload->len);
  g_byte_array_unref (payload);
}

static inline void
rtcw_meta_frame (RtcWriter  *w,
                 guint       id,
                 const char *objects)
{
  g_autofree char *text = g_strdup_printf ("[%s%s%u]", objects, *objects ? "," : "", w->next_id);
  gsize len = strlen (text), done = 0;

  /* Long meta continues over several frames. */
  while (len - done > RTCW_MAX_PAYLOAD)
    {
      rtcw_raw_frame (w, id, TRUE, text + done, RTCW_MAX_PAYLOAD);
      done += RTCW_MAX_PAYLOAD;
    }
  rtcw_raw_frame (w, id, FALSE, text + done, len - done);
}

static inline void
rtcw_crc_frame (RtcWriter *w)
{
  guint32 crc = rtcw_crc (w, w->out->data + w->crc_start, rtcw_pos (w) - w->crc_start);

  rtcw_int (w, 8 << 1);
  rtcw_u32 (w, crc);
}

static inline void
rtcw_start_unit (RtcWriter *w)
{
  static guint8 run[1024];

  memset (run, 0xB9, sizeof run);
  if (w->started)
    {
      rtcw_crc_frame (w);
      w->unit_count++;
    }
  w->started = TRUE;
  w->unit_end = rtcw_pos (w) + w->unit_size - 5;
  rtcw_int (w, 2 << 1);
  rtcw_bytes (w, run, sizeof run);
  w->crc_start = rtcw_pos (w);
  w->minor_end = rtcw_pos (w) + w->minor_size;
  rtcw_index (w, TRUE);
  rtcw_meta_frame (w, 5, w->meta->str);
  rtcw_int (w, 7 << 1);
  rtcw_u32 (w, 0x01020304);
}

/* Adds a stream: @json is the object's keys after "id" (no braces). */
static inline guint
rtcw_stream (RtcWriter  *w,
             const char *json,
             gint64      length)
{
  guint id = w->next_id++;
  g_autofree char *length_key = length >= 0 && strstr (json, "\"length\"") == NULL
                                ? g_strdup_printf (",\"length\":%" G_GINT64_FORMAT, length)
                                : g_strdup ("");
  g_autofree char *object = g_strdup_printf ("{\"id\":%u%s%s%s}", id, *json ? "," : "", json,
                                             length_key);

  g_assert (id < RTCW_MAX_STREAMS);
  w->length[id] = length;
  if (w->meta->len)
    g_string_append_c (w->meta, ',');
  g_string_append (w->meta, object);
  if (w->started)
    rtcw_meta_frame (w, 6, object);
  return id;
}

static inline void
rtcw_start (RtcWriter *w)
{
  rtcw_start_unit (w);
}

/* Writes a value as the reference writer does: frames of at most 1024
 * bytes, cut at unit and Unit boundaries, the rest after the index. */
static inline void
rtcw_write (RtcWriter  *w,
            guint       id,
            const void *data,
            gsize       len,
            gboolean    more)
{
  const guint8 *p = data;

  while (len > 0)
    {
      gsize chunk = MIN (len, RTCW_MAX_PAYLOAD);
      gboolean m = more || chunk != len;
      gsize hdr = rtcw_int_len ((guint64) id << 1) + (w->length[id] < 0 ? rtcw_int_len (chunk) : 0);
      gsize rem = MIN (w->unit_end, w->minor_end) - rtcw_pos (w);

      if (rem >= hdr + chunk)
        {
          rtcw_raw_frame (w, id, m, p, chunk);
          p += chunk;
          len -= chunk;
          continue;
        }
      if (rem > hdr)
        {
          chunk = rem - hdr;
          hdr = rtcw_int_len ((guint64) id << 1) + (w->length[id] < 0 ? rtcw_int_len (chunk) : 0);
          if (hdr + chunk > rem)
            chunk--;
          if (chunk > 0)
            {
              rtcw_raw_frame (w, id, TRUE, p, chunk);
              p += chunk;
              len -= chunk;
            }
          rem = MIN (w->unit_end, w->minor_end) - rtcw_pos (w);
        }
      rtcw_padding (w, rem);
      if (rtcw_pos (w) == w->unit_end)
        rtcw_start_unit (w);
      else
        {
          w->minor_end = rtcw_pos (w) + w->minor_size;
          rtcw_index (w, FALSE);
        }
    }
}

static inline void
rtcw_stop (RtcWriter *w)
{
  rtcw_crc_frame (w);
}

G_END_DECLS
