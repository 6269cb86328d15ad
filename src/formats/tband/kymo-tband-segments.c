/* kymo-tband-segments.c: parsing one segment of a stream into a batch
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include <string.h>

#include "kymo-tband-decoder-private.h"

/* Where segment @k starts: after the first 0x00 at or after
 * k × segment_bytes - 1 (the stream's end when there is none). The 0x00 is
 * only looked for before @limit: a segment whose 0x00 lies beyond the next
 * segment's is empty, and @limit is returned for it. */
static gsize
segment_start (KymoTbandSegments *d,
               guint              k,
               gsize              limit)
{
  KymoTbandStream *stream = d->stream;
  gsize from = (gsize) k * d->segment_bytes - 1;
  const guint8 *found;

  if (k == 0)
    return 0;
  limit = MIN (limit, stream->size);
  if (from >= limit)
    return limit;
  found = memchr (stream->data + from, 0, limit - from);
  return found != NULL ? (gsize) (found - stream->data) + 1 : limit;
}

/* Where segment @k starts and ends, from @k alone, so that any thread can
 * parse any segment. Its start is looked for within its own bytes and its
 * end from the next segment's on: each byte is looked at twice at most,
 * however few 0x00 there are. */
void
_kymo_tband_segment_bounds (KymoTbandSegments *d,
                            guint              k,
                            gsize             *start,
                            gsize             *end)
{
  gsize size = d->stream->size;
  gsize next = k + 1 < d->n_segments ? (gsize) (k + 1) * d->segment_bytes - 1 : size;

  g_assert (k < d->n_segments);
  *start = segment_start (d, k, next);
  if (*start >= next)
    {
      /* No 0x00 in the segment's own bytes: its frames all belong to an
       * earlier segment. */
      *start = *end = MIN (next + 1, size);
      return;
    }
  *end = k + 1 < d->n_segments ? segment_start (d, k + 1, size) : size;
}

/* The common shape (a timestamp and one or two small u32 fields) of a
 * frame at @p, with 8 bytes readable from p + 1 (at least 8 bytes from
 * @p to the end of its buffer): the timestamp is read a word at a time. FALSE for anything else, which
 * then goes through the full parser (that also says what is wrong). */
static inline gboolean
parse_simple (const guint8    *p,
              const guint8    *end,
              KymoTbandMode    mode,
              KymoTbandRecord *record)
{
  guint id = p[0], n_fields = kymo_tband_event_u32_fields[id], len;
  guint64 ts;

  if (n_fields == 0 || id == KYMO_TBAND_CORE_ID ||
      (mode == KYMO_TBAND_MODE_BARE_METAL && id >= KYMO_TBAND_FIRST_FREERTOS_ID))
    return FALSE;
  ts = kymo_tband_swar_varint (++p, &len);
  if (len == 0 || len >= (gsize) (end - p))
    return FALSE;
  p += len;
  if (*p & 0x80)
    return FALSE;
  record->v0 = *p++;
  record->v1 = 0;
  if (n_fields > 1)
    {
      if (p == end || (*p & 0x80))
        return FALSE;
      record->v1 = *p++;
    }
  if (p != end)
    return FALSE;
  record->kind = KYMO_TBAND_RECORD_EVENT;
  record->id = id;
  record->ts = ts;
  return TRUE;
}

/* A simple event in a frame of @n bytes at @frame (its 0x00 excluded),
 * with 32 bytes readable from @frame. Its COBS blocks are undone in a
 * local copy, which a frame this short allows: the code bytes are where
 * the zeros go. FALSE for anything else, which the framer then takes. */
static inline gboolean
fast_frame (const guint8    *frame,
            gsize            n,
            KymoTbandMode    mode,
            KymoTbandRecord *record)
{
  guint8 buf[16];
  const guint8 *payload = frame + 1;

  /* The shortest simple event: an id, a one-byte timestamp and a field. */
  if (n < 4 || n > sizeof buf)
    return FALSE;
  if (G_UNLIKELY (frame[0] != n))
    {
      gsize j = frame[0];

      memcpy (buf, frame + 1, sizeof buf);
      /* No byte of a frame is 0x00, so every code moves on. */
      while (j < n)
        {
          buf[j - 1] = 0;
          j += frame[j];
        }
      if (j != n)
        return FALSE;
      payload = buf;
    }
  return parse_simple (payload, payload + n - 1, mode, record);
}

/* Takes the frames of the segment that fast_frame() can, from the
 * framer's position on; leaves the framer at the first one it cannot
 * (or at @fast_end). The framer's state is kept in locals meanwhile: the
 * records it writes could otherwise alias it. */
static inline void
segment_fill_fast (KymoTbandSegments *d,
                   KymoTbandBatch    *batch,
                   KymoTbandFramer   *framer,
                   gsize              fast_end)
{
  const guint8 *data = d->stream->data;
  gsize pos = framer->pos, zero_base = framer->zero_base, end = framer->size;
  guint64 zero_mask = framer->zero_mask;
  KymoTbandMode mode = d->mode;
  KymoTbandRecord *records = batch->records;
  guint n_records = batch->n_records, room = batch->room;
  gsize at_base = batch->offset_base;

  while (pos < fast_end)
    {
      guint64 mask;
      gsize zero, n;
      KymoTbandRecord *record;

      /* Whole blocks only: the framer takes the segment's last bytes. */
      if (pos < zero_base || pos - zero_base >= 64)
        {
          gsize block = pos & ~(gsize) 63;

          if (end - block < 64)
            break;
          zero_base = block;
          zero_mask = kymo_tband_zero_bits64 (data + zero_base);
        }
      mask = zero_mask & (~G_GUINT64_CONSTANT (0) << (pos - zero_base));
      /* The frame goes on into the next block (about one in six). */
      if (mask == 0)
        {
          if (end - zero_base < 128)
            break;
          zero_base += 64;
          zero_mask = kymo_tband_zero_bits64 (data + zero_base);
          if (zero_mask == 0)
            break;
          mask = zero_mask;
        }
      zero = zero_base + __builtin_ctzll (mask);
      n = zero - pos;
      if (n == 0)
        {
          /* Empty frames: a run of them is padding, passed at memory speed. */
          pos = zero_mask == ~G_GUINT64_CONSTANT (0) ? kymo_skip_zeros (data, pos + 1, fast_end) : pos + 1;
          continue;
        }
      if (G_UNLIKELY (n_records == room))
        {
          batch->n_records = n_records;
          _kymo_tband_batch_grow (batch);
          records = batch->records;
          room = batch->room;
        }
      record = &records[n_records];
      if (!fast_frame (data + pos, n, mode, record))
        break;
      n_records++;
      record->at = (guint32) (pos - at_base);
      pos = zero + 1;
    }
  batch->n_records = n_records;
  framer->pos = pos;
  framer->zero_base = zero_base;
  framer->zero_mask = zero_mask;
}

/* The frames of the segment from @start to @end, with @framer (only its
 * scratch buffer is kept from one segment to the next). */
void
_kymo_tband_segment_fill (KymoTbandSegments *d,
                          gsize              start,
                          gsize              end,
                          KymoTbandBatch    *batch,
                          KymoTbandFramer   *framer)
{
  KymoTbandStream *stream = d->stream;
  guint core = CORE_UNKNOWN;
  /* Frames that start before this have 32 bytes readable from their
   * start, and an offset from the segment's that fits a record. */
  gsize fast_end = stream->size >= 32 ? MIN (end, stream->size - 32) : 0;

  fast_end = MIN (fast_end, start + MAX_AT);
  if (d->no_fast_frames)
    fast_end = start;
  _kymo_tband_batch_reset (batch, start, stream->base);
  kymo_tband_framer_reset (framer, stream->data, end, start);
  for (;;)
    {
      KymoTbandEvent event;
      const guint8 *payload;
      const char *reason;
      gsize offset, len;
      guint64 source;
      guint32 source32;
      KymoTbandRecord *record;
      KymoTbandFrameResult result;

      if (framer->pos < fast_end)
        segment_fill_fast (d, batch, framer, fast_end);
      result = kymo_tband_framer_next_inline (framer, &offset, &payload, &len, &reason);

      /* A segment ends after a 0x00 or where the stream does: only the
       * last one can have an unfinished frame. */
      if (result == KYMO_TBAND_FRAME_END)
        break;

      source = stream->base + offset;
      source32 = source < G_MAXUINT32 ? (guint32) source : KYMO_NO_SOURCE;
      if (result == KYMO_TBAND_FRAME_OK &&
          !kymo_tband_event_parse_inline (payload, len, d->mode, &event, &reason))
        result = KYMO_TBAND_FRAME_BAD;
      if (result == KYMO_TBAND_FRAME_OK && event.id == KYMO_TBAND_CORE_ID)
        {
          /* The record belongs to the core it switches to. */
          if (event.v[0].u >= KYMO_TBAND_MAX_CORES)
            {
              _kymo_tband_batch_bad_core (batch, &event, offset, source32);
              continue;
            }
          batch->switched = TRUE;
          core = event.v[0].u;
          _kymo_tband_batch_switch (batch, core, 0, batch->offset_base);
        }
      record = batch_add (batch);
      batch_frame (batch, record, result, &event, reason, stream, 0, offset, source32);
    }
  batch->end_core = core;
  batch->done = end;
}
