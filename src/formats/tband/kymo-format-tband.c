/* kymo-format-tband.c: Tonbandgerät COBS streams
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stream is COBS frames ending in 0x00, each one event (see
 * ../shared/specs/tonbandgeraet.md and NOTES.md §2). There is no header and
 * no magic: detection looks at whether the first frames parse as events.
 * A bad frame is a warning and decoding resumes after the next 0x00.
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-formats.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "kymo-byte-reader.h"
#include "kymo-page-queue.h"
#include "kymo-parts.h"
#include "kymo-tband-cobs.h"
#include "kymo-tband-events.h"
#include "kymo-tband-input.h"
#include "kymo-tband-load.h"
#include "kymo-tband-model.h"
#include "kymo-tband-text.h"

#define DETECT_WINDOW  4096
#define DETECT_FRAMES  32
#define PROGRESS_EVERY 8192

typedef struct {
  KymoTbandStreams *streams;
  KymoTbandModel   *model;
  KymoTbandMode     mode;
} FormatData;

static void
format_data_free (gpointer data)
{
  FormatData *self = data;

  kymo_tband_streams_free (self->streams);
  kymo_tband_model_free (self->model);
  g_free (self);
}

/* Detection */

static guint
score_frames (const guint8 *data,
              gsize         size)
{
  KymoTbandFramer framer;
  guint ok = 0, bad = 0;

  kymo_tband_framer_init (&framer, data, size);
  for (guint i = 0; i < DETECT_FRAMES; i++)
    {
      KymoTbandEvent event;
      const guint8 *payload;
      const char *reason;
      gsize offset, len;
      KymoTbandFrameResult result = kymo_tband_framer_next (&framer, &offset, &payload, &len, &reason);

      /* The window may cut the last frame: that says nothing. */
      if (result == KYMO_TBAND_FRAME_END || result == KYMO_TBAND_FRAME_UNFINISHED)
        break;
      if (result == KYMO_TBAND_FRAME_OK &&
          kymo_tband_event_parse (payload, len, KYMO_TBAND_MODE_AUTO, &event, &reason))
        ok++;
      else
        bad++;
    }
  kymo_tband_framer_clear (&framer);

  /* No magic: stay below formats that have one. */
  if (ok >= 3 && bad * 8 <= ok)
    return 50;
  if (ok >= 1 && bad == 0)
    return 40;
  return 0;
}

static guint
detect (KymoInput *input)
{
  const guint8 *data = input->main.data;
  gsize size = input->main.size, window = MIN (size, DETECT_WINDOW);
  g_autoptr(GByteArray) decoded = NULL;
  gsize bad;

  if (input->is_dir || size == 0 || data == NULL)
    return 0;

  switch (kymo_tband_guess_encoding (data, size))
    {
    case KYMO_TBAND_ENCODING_BINARY:
      return score_frames (data, window);

    case KYMO_TBAND_ENCODING_HEX:
      decoded = g_byte_array_new ();
      kymo_tband_decode_hex (data, window, decoded, &bad);
      return score_frames (decoded->data, decoded->len);

    case KYMO_TBAND_ENCODING_BASE64:
      decoded = g_byte_array_new ();
      kymo_tband_decode_base64 (data, window, decoded, &bad);
      return score_frames (decoded->data, decoded->len);

    case KYMO_TBAND_ENCODING_JSON:
      if (g_strstr_len ((const char *) data, window, "\"data\"") != NULL &&
          g_strstr_len ((const char *) data, window, "\"hex\"") != NULL)
        return 45;
      return 0;

    default:
      return 0;
    }
}

/* Walking the streams (the dump) */

typedef struct {
  KymoTbandStream      *stream;
  KymoTbandFramer       framer;
  guint                 core;
  gboolean              pending;
  gboolean              done;
  KymoTbandFrameResult  result;
  KymoTbandEvent        event;
  gsize                 offset;
  const char           *reason;
} Cursor;

static inline __attribute__ ((always_inline)) void
cursor_fill (Cursor        *cursor,
             KymoTbandMode  mode)
{
  const guint8 *payload;
  gsize len;

  if (cursor->pending || cursor->done)
    return;
  cursor->result = kymo_tband_framer_next_inline (&cursor->framer, &cursor->offset, &payload, &len,
                                                  &cursor->reason);
  if (cursor->result == KYMO_TBAND_FRAME_END)
    {
      cursor->done = TRUE;
      return;
    }
  if (cursor->result == KYMO_TBAND_FRAME_OK)
    {
      if (!kymo_tband_event_parse_inline (payload, len, mode, &cursor->event, &cursor->reason))
        cursor->result = KYMO_TBAND_FRAME_BAD;
    }
  cursor->pending = TRUE;
}

/* A core_id event switches the core for what follows in its stream; the
 * record itself belongs to the core it switches to. Returns FALSE when the
 * core id is out of range (the event is then damage). */
static gboolean
cursor_switch_core (Cursor *cursor)
{
  if (cursor->result != KYMO_TBAND_FRAME_OK || cursor->event.id != KYMO_TBAND_CORE_ID)
    return TRUE;
  if (cursor->event.v[0].u >= KYMO_TBAND_MAX_CORES)
    return FALSE;
  cursor->core = cursor->event.v[0].u;
  return TRUE;
}

static Cursor *
cursors_new (KymoTbandStreams *streams)
{
  Cursor *cursors = g_new0 (Cursor, streams->streams->len);

  for (guint i = 0; i < streams->streams->len; i++)
    {
      KymoTbandStream *stream = g_ptr_array_index (streams->streams, i);

      cursors[i].stream = stream;
      cursors[i].core = stream->core >= 0 ? (guint) stream->core : 0;
      kymo_tband_framer_init (&cursors[i].framer, stream->data, stream->size);
    }
  return cursors;
}

static void
cursors_free (Cursor *cursors,
              guint   n)
{
  for (guint i = 0; i < n; i++)
    kymo_tband_framer_clear (&cursors[i].framer);
  g_free (cursors);
}

static void
set_stop (GError        **stop,
          KymoLoadError   code,
          const char     *path,
          guint64         offset,
          const char     *message)
{
  if (*stop != NULL)
    return;
  g_set_error (stop, KYMO_LOAD_ERROR, code, "%s: offset %" G_GUINT64_FORMAT ": %s", path, offset, message);
}

/* Loading runs in two halves: framing and parsing (a small part of the
 * work) and the model (most of it), which takes parsed frames in batches.
 *
 * A single stream is cut into segments that start right after a 0x00 byte:
 * frames end at every 0x00, so a segment's frames are exactly those a walk
 * from the start would find there, and segments can be parsed in any order
 * and by any thread. They are the parts of a KymoParts run: workers parse
 * segments ahead of the model and, when they may not run further ahead,
 * populate the pages of the arrays the model is about to fill (populating
 * never changes what is in memory); a segment no worker has started when
 * its turn comes is parsed by the model's thread itself. The current core
 * (set by core_id events) is the one state that runs across segments: it
 * is filled in as the model takes a batch.
 *
 * Several streams (one file per core) are each cut so, each in a run of
 * its own with its share of the workers, and the model's thread merges their
 * parsed records by timestamp, as cursors walking the streams would. Either
 * way the model sees the same records in the same order, whatever the
 * number of threads. */

/* Below this (and threads 0) the segments are parsed in line. */
#define THREAD_MIN_INPUT ((gsize) 1 << 20)
#define SEGMENT_BYTES    ((gsize) 64 << 10)
/* Batches of merged streams. */
#define BATCH_RECORDS    4096
/* How many segments the workers parse ahead of the model, at least, and
 * per thread: enough that a worker rarely waits for the model to move on. */
#define AHEAD_MIN        8
#define AHEAD_PER_THREAD 2
/* Pages are populated in chunks of at most this much per array, so the
 * arrays fill up side by side, as the model writes them, and a worker
 * soon gets back to parsing. */
#define PAGE_CHUNK       ((gsize) 64 << 10)
/* The core of a single stream's records before the segment's first
 * core_id event: the one the stream was on when the model takes them. */
#define CORE_UNKNOWN     G_MAXUINT
/* An EVENT record's offset counts from its batch's base in 32 bits: a
 * segment's frames past this (behind frames of gigabytes) are FULL. */
#define MAX_AT           ((gsize) G_MAXUINT32)

typedef KymoTbandRecord Record;
G_STATIC_ASSERT (sizeof (Record) == 16);

/* What a record other than EVENT needs beside it. */
typedef struct {
  KymoTbandEvent  event;
  const char     *reason;
  guint64         offset;     /* in its stream */
  guint32         source;
  guint32         value;      /* BAD_CORE: the core id */
  guint           core;       /* SWITCH: the core from here on */
  guint           stream;     /* SWITCH, UNFINISHED: the stream's index */
} Extra;

typedef struct {
  Record    *records;
  Extra     *extra;
  guint      n_records;
  guint      n_extra;
  guint      room;       /* of records */
  guint      extra_room;
  /* Strings whose frame needed COBS decoding: the framer's scratch buffer
   * does not outlive the next frame. */
  GPtrArray *copies;
  guint64    done;       /* input bytes read up to the end of this batch */
  guint64    offset_base;   /* what EVENT records' offsets count from */
  guint64    source_base;   /* and their sources, until a SWITCH */
  /* A single stream's records before the first SWITCH are on the core the
   * stream was on, filled in as the model takes the batch; end_core is the
   * core after the batch when it switched at all. */
  gboolean   switched;
  guint      end_core;
  guint      start_core;
} Batch;

/* Written by one thread while another reads the next: each slot on
 * cache lines of its own (two: lines are fetched in pairs). */
#define LINE_BYTES 128

/* Segment k is parsed into slot k % n_slots, with the slot's own framer
 * (only its scratch buffer is kept from one segment to the next): the
 * parts' @ahead bound keeps a slot's segment until the model is done. */
typedef struct {
  Batch           batch;
  KymoTbandFramer framer;
} __attribute__ ((aligned (LINE_BYTES))) Slot;

typedef struct _Decoder Decoder;

/* One stream, cut into segments that are the parts of a KymoParts run. */
typedef struct {
  Decoder          *decoder;
  KymoTbandStream  *stream;
  guint             index;         /* of the stream */
  KymoTbandMode     mode;
  gboolean          no_fast_frames;
  guint             n_segments;
  gsize             segment_bytes;
  Slot             *slots;
  guint             n_slots;
  KymoParts        *parts;
  guint             consumed;      /* segments the model is done with */

  /* Merging several streams: the segment being taken, the next record in
   * it, the stream's core and its time so far. */
  Batch            *batch;
  guint             at;
  guint             core;
  guint64           key;
  gboolean          done;
} Segments;

struct _Decoder
{
  KymoTbandStreams *streams;
  Segments         *segs;          /* one per stream */
  guint             n;
  guint             threads;       /* of the run with the most */
  guint             core;          /* one stream: the model's current core */
  Batch             own;           /* several streams: the merged records */
  gboolean          finished;
  GMutex            lock;          /* guards @pages */
  KymoPageQueue     pages;
};

static void
batch_init (Batch *batch)
{
  batch->copies = g_ptr_array_new_with_free_func (g_free);
}

static void
batch_clear (Batch *batch)
{
  g_free (batch->records);
  g_free (batch->extra);
  g_ptr_array_unref (batch->copies);
}

static void
batch_reset (Batch   *batch,
             guint64  offset_base,
             guint64  source_base)
{
  batch->n_records = 0;
  batch->n_extra = 0;
  batch->switched = FALSE;
  batch->offset_base = offset_base;
  batch->source_base = source_base;
  if (batch->copies->len > 0)
    g_ptr_array_set_size (batch->copies, 0);
}

static G_GNUC_NO_INLINE void
batch_grow (Batch *batch)
{
  batch->room = MAX (batch->room * 2, 1024);
  batch->records = g_renew (Record, batch->records, batch->room);
}

static inline Record *
batch_add (Batch *batch)
{
  if (G_UNLIKELY (batch->n_records == batch->room))
    batch_grow (batch);
  return &batch->records[batch->n_records++];
}

/* Keeps what @record needs beside it; the record points to it. */
static inline Extra *
batch_extra (Batch   *batch,
             Record  *record,
             guint8   kind,
             guint64  offset,
             guint32  source)
{
  Extra *extra;

  if (G_UNLIKELY (batch->n_extra == batch->extra_room))
    {
      batch->extra_room = MAX (batch->extra_room * 2, 256);
      batch->extra = g_renew (Extra, batch->extra, batch->extra_room);
    }
  record->kind = kind;
  record->at = batch->n_extra;
  extra = &batch->extra[batch->n_extra++];
  extra->offset = offset;
  extra->source = source;
  return extra;
}

/* A record saying that what follows is on @core, in stream @stream, with
 * EVENT records' offsets counted from @base. */
static void
batch_switch (Batch   *batch,
              guint    core,
              guint    stream,
              guint64  base)
{
  Extra *extra = batch_extra (batch, batch_add (batch), KYMO_TBAND_RECORD_SWITCH, base, KYMO_NO_SOURCE);

  extra->core = core;
  extra->stream = stream;
}

/* Fills in @record, of the frame at @offset with @source, from a frame. */
static inline void
batch_frame (Batch                *batch,
             Record               *record,
             KymoTbandFrameResult  result,
             const KymoTbandEvent *event,
             const char           *reason,
             KymoTbandStream      *stream,
             guint                 stream_index,
             guint64               offset,
             guint32               source)
{
  Extra *extra;

  switch (result)
    {
    case KYMO_TBAND_FRAME_OK:
      record->id = event->id;
      if (G_LIKELY (event->has_ts && kymo_tband_event_u32_fields[event->id] != 0 &&
                    offset - batch->offset_base <= MAX_AT &&
                    event->v[0].u <= G_MAXUINT8 &&
                    (kymo_tband_event_u32_fields[event->id] < 2 || event->v[1].u <= G_MAXUINT8)))
        {
          record->kind = KYMO_TBAND_RECORD_EVENT;
          record->at = (guint32) (offset - batch->offset_base);
          record->ts = event->ts;
          record->v0 = event->v[0].u;
          record->v1 = kymo_tband_event_u32_fields[event->id] > 1 ? event->v[1].u : 0;
          break;
        }
      extra = batch_extra (batch, record, KYMO_TBAND_RECORD_FULL, offset, source);
      extra->event = *event;
      if (extra->event.str_len > 0 &&
          (guintptr) extra->event.str - (guintptr) stream->data >= stream->size)
        {
          guint8 *copy = g_memdup2 (extra->event.str, extra->event.str_len);

          g_ptr_array_add (batch->copies, copy);
          extra->event.str = copy;
        }
      break;

    case KYMO_TBAND_FRAME_BAD:
      batch_extra (batch, record, KYMO_TBAND_RECORD_BAD, offset, source)->reason = reason;
      break;

    case KYMO_TBAND_FRAME_UNFINISHED:
      extra = batch_extra (batch, record, KYMO_TBAND_RECORD_UNFINISHED, offset, source);
      extra->reason = reason;
      extra->stream = stream_index;
      break;

    case KYMO_TBAND_FRAME_END:
    default:
      g_assert_not_reached ();
    }
}

/* A core_id event with a core out of range: damage. Its time is kept for
 * merging streams. */
static void
batch_bad_core (Batch                *batch,
                const KymoTbandEvent *event,
                guint64               offset,
                guint32               source)
{
  Extra *extra = batch_extra (batch, batch_add (batch), KYMO_TBAND_RECORD_BAD_CORE, offset, source);

  extra->value = event->v[0].u;
  extra->event.has_ts = event->has_ts;
  extra->event.ts = event->ts;
}

/* Where segment @k starts: after the first 0x00 at or after
 * k × segment_bytes - 1 (the stream's end when there is none). The 0x00 is
 * only looked for before @limit: a segment whose 0x00 lies beyond the next
 * segment's is empty, and @limit is returned for it. */
static gsize
segment_start (Segments *d,
               guint    k,
               gsize    limit)
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
static void
segment_bounds (Segments *d,
                guint    k,
                gsize   *start,
                gsize   *end)
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
parse_simple (const guint8  *p,
              const guint8  *end,
              KymoTbandMode  mode,
              Record        *record)
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
fast_frame (const guint8  *frame,
            gsize          n,
            KymoTbandMode  mode,
            Record        *record)
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
segment_fill_fast (Segments        *d,
                   Batch           *batch,
                   KymoTbandFramer *framer,
                   gsize            fast_end)
{
  const guint8 *data = d->stream->data;
  gsize pos = framer->pos, zero_base = framer->zero_base, end = framer->size;
  guint64 zero_mask = framer->zero_mask;
  KymoTbandMode mode = d->mode;
  Record *records = batch->records;
  guint n_records = batch->n_records, room = batch->room;
  gsize at_base = batch->offset_base;

  while (pos < fast_end)
    {
      guint64 mask;
      gsize zero, n;
      Record *record;

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
          batch_grow (batch);
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
static void
segment_fill (Segments        *d,
              gsize            start,
              gsize            end,
              Batch           *batch,
              KymoTbandFramer *framer)
{
  KymoTbandStream *stream = d->stream;
  guint core = CORE_UNKNOWN;
  /* Frames that start before this have 32 bytes readable from their
   * start, and an offset from the segment's that fits a record. */
  gsize fast_end = stream->size >= 32 ? MIN (end, stream->size - 32) : 0;

  fast_end = MIN (fast_end, start + MAX_AT);
  if (d->no_fast_frames)
    fast_end = start;
  batch_reset (batch, start, stream->base);
  kymo_tband_framer_reset (framer, stream->data, end, start);
  for (;;)
    {
      KymoTbandEvent event;
      const guint8 *payload;
      const char *reason;
      gsize offset, len;
      guint64 source;
      guint32 source32;
      Record *record;
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
              batch_bad_core (batch, &event, offset, source32);
              continue;
            }
          batch->switched = TRUE;
          core = event.v[0].u;
          batch_switch (batch, core, 0, batch->offset_base);
        }
      record = batch_add (batch);
      batch_frame (batch, record, result, &event, reason, stream, 0, offset, source32);
    }
  batch->end_core = core;
  batch->done = end;
}

/* The next record of stream @g for the merge, with the core switches
 * before it taken in passing; FALSE after the stream's last one. Its key
 * is the time of the latest record with one, this one included, as a
 * cursor walking the stream would have it. */
static gboolean
segments_peek (Segments *g)
{
  for (;;)
    {
      const Record *r;
      const Extra *e;

      if (g->batch == NULL)
        {
          if (g->consumed >= g->n_segments)
            return FALSE;
          kymo_parts_wait (g->parts, g->consumed);
          g->batch = &g->slots[g->consumed % g->n_slots].batch;
          g->at = 0;
        }
      if (g->at == g->batch->n_records)
        {
          kymo_parts_release (g->parts, g->consumed);
          g->consumed++;
          g->batch = NULL;
          continue;
        }
      r = &g->batch->records[g->at];
      if (r->kind == KYMO_TBAND_RECORD_EVENT)
        {
          g->key = r->ts;
          return TRUE;
        }
      e = &g->batch->extra[r->at];
      if (r->kind == KYMO_TBAND_RECORD_SWITCH)
        {
          g->core = e->core;
          g->at++;
          continue;
        }
      if ((r->kind == KYMO_TBAND_RECORD_FULL || r->kind == KYMO_TBAND_RECORD_BAD_CORE) && e->event.has_ts)
        g->key = e->event.ts;
      return TRUE;
    }
}

/* Copies the record at @g's position into the merged @batch. */
static void
merge_take (Batch    *batch,
            Segments *g)
{
  const Batch *from = g->batch;
  const Record *r = &from->records[g->at++];
  Record *record = batch_add (batch);
  Extra *extra;

  *record = *r;
  if (r->kind == KYMO_TBAND_RECORD_EVENT)
    return;
  extra = batch_extra (batch, record, r->kind, 0, KYMO_NO_SOURCE);
  *extra = from->extra[r->at];
  if (r->kind == KYMO_TBAND_RECORD_UNFINISHED)
    extra->stream = g->index;
  /* A string decoded out of its frame lives in the segment's batch, which
   * a worker may reuse before the model gets to this one. */
  if (r->kind == KYMO_TBAND_RECORD_FULL && extra->event.str_len > 0 &&
      (guintptr) extra->event.str - (guintptr) g->stream->data >= g->stream->size)
    {
      guint8 *copy = g_memdup2 (extra->event.str, extra->event.str_len);

      g_ptr_array_add (batch->copies, copy);
      extra->event.str = copy;
    }
}

/* Merged streams: records up to BATCH_RECORDS, in time order (the
 * earlier stream first at the same time). A SWITCH goes before the first
 * record and wherever the core, the stream or the segment changes. */
static void
merge_fill (Decoder *d,
            Batch   *batch)
{
  guint core = G_MAXUINT, stream = G_MAXUINT;
  guint64 base = G_MAXUINT64;

  batch_reset (batch, 0, 0);
  while (batch->n_records < BATCH_RECORDS)
    {
      Segments *best = NULL;

      for (guint i = 0; i < d->n; i++)
        {
          Segments *g = &d->segs[i];

          if (g->done)
            continue;
          if (!segments_peek (g))
            {
              g->done = TRUE;
              continue;
            }
          if (best == NULL || g->key < best->key)
            best = g;
        }
      if (best == NULL)
        {
          d->finished = TRUE;
          break;
        }
      /* As the core_id event that failed: no switch. */
      if (best->batch->records[best->at].kind != KYMO_TBAND_RECORD_BAD_CORE &&
          (best->core != core || best->index != stream || best->batch->offset_base != base))
        {
          core = best->core;
          stream = best->index;
          base = best->batch->offset_base;
          batch_switch (batch, core, stream, base);
        }
      merge_take (batch, best);
    }
  batch->start_core = 0;
  batch->done = 0;
  for (guint i = 0; i < d->n; i++)
    {
      Segments *g = &d->segs[i];

      batch->done += g->batch != NULL ? g->batch->offset_base
                   : MIN ((guint64) g->consumed * g->segment_bytes, g->stream->size);
    }
}

/* A worker with no segment to parse populates a chunk of the pages the
 * model asked for. */
static gboolean
decoder_idle (gpointer data)
{
  Decoder *d = ((Segments *) data)->decoder;
  gboolean did = FALSE;

  g_mutex_lock (&d->lock);
  if (!kymo_page_queue_is_empty (&d->pages))
    {
      kymo_page_queue_populate_one (&d->pages, &d->lock);
      did = TRUE;
    }
  g_mutex_unlock (&d->lock);
  return did;
}

/* Parses segment @k into its slot, on any thread. */
static void
decoder_parse (guint    k,
               gpointer data)
{
  Segments *g = data;
  Slot *slot = &g->slots[k % g->n_slots];
  gsize start, end;

  segment_bounds (g, k, &start, &end);
  segment_fill (g, start, end, &slot->batch, &slot->framer);
}

/* The model asks for the pages it will write next. */
static void
decoder_want_pages (gpointer at,
                    gsize    len,
                    gpointer data)
{
  Decoder *d = data;
  gboolean added;

  g_mutex_lock (&d->lock);
  added = kymo_page_queue_add (&d->pages, at, len);
  g_mutex_unlock (&d->lock);
  if (added)
    for (guint i = 0; i < d->n; i++)
      kymo_parts_wake (d->segs[i].parts);
}

static gint no_fast_frames;

void
kymo_tband_set_fast_frames (gboolean enabled)
{
  g_atomic_int_set (&no_fast_frames, !enabled);
}

static void
segments_init (Segments              *g,
               Decoder               *d,
               guint                  index,
               const KymoLoadOptions *options)
{
  gsize size;

  g->decoder = d;
  g->stream = g_ptr_array_index (d->streams->streams, index);
  g->index = index;
  g->mode = d->streams->mode;
  g->no_fast_frames = g_atomic_int_get (&no_fast_frames);
  g->core = g->stream->core >= 0 ? (guint) g->stream->core : 0;
  size = g->stream->size;
  /* Part numbers are 32 bits: a stream of more than 256 TiB takes larger
   * segments. */
  g->segment_bytes = MAX (SEGMENT_BYTES, size / G_MAXUINT + 1);
  g->n_segments = (guint) ((size + g->segment_bytes - 1) / g->segment_bytes);

  /* A slot per segment the workers may parse ahead; one without them. */
  g->n_slots = options->threads > 1 ? MAX (AHEAD_MIN, AHEAD_PER_THREAD * options->threads) : 1;
  g->slots = g_aligned_alloc0 (g->n_slots, sizeof (Slot), LINE_BYTES);
  for (guint i = 0; i < g->n_slots; i++)
    {
      batch_init (&g->slots[i].batch);
      kymo_tband_framer_init (&g->slots[i].framer, NULL, 0);
    }
  g->parts = kymo_parts_new_full (options, size, 0, g->n_segments, g->n_slots, decoder_parse, decoder_idle, g);
}

static void
segments_clear (Segments *g)
{
  g_clear_pointer (&g->parts, kymo_parts_free);
  for (guint i = 0; i < g->n_slots; i++)
    {
      batch_clear (&g->slots[i].batch);
      kymo_tband_framer_clear (&g->slots[i].framer);
    }
  g_aligned_free (g->slots);
}

static Decoder *
decoder_new (KymoTbandStreams      *streams,
             const KymoLoadOptions *options)
{
  Decoder *d = g_new0 (Decoder, 1);
  guint64 total = 0;
  guint workers;

  d->streams = streams;
  d->n = streams->streams->len;
  g_mutex_init (&d->lock);
  kymo_page_queue_init (&d->pages, PAGE_CHUNK);
  batch_init (&d->own);

  /* Each stream has a run of its own with its share of the workers (the
   * first ones one more); the loading thread parses what they do not. */
  for (guint i = 0; i < d->n; i++)
    total += ((KymoTbandStream *) g_ptr_array_index (streams->streams, i))->size;
  workers = kymo_load_options_get_threads (options, total, THREAD_MIN_INPUT) - 1;

  d->segs = g_new0 (Segments, d->n);
  d->threads = 1;
  for (guint i = 0; i < d->n; i++)
    {
      KymoLoadOptions each = *options;

      each.threads = 1 + workers / d->n + (i < workers % d->n ? 1 : 0);
      segments_init (&d->segs[i], d, i, &each);
      d->threads = MAX (d->threads, kymo_parts_get_threads (d->segs[i].parts));
    }
  d->core = d->segs[0].core;
  return d;
}

/* The next batch for the model, or NULL after the last one. */
static Batch *
decoder_take (Decoder *d)
{
  Segments *g = &d->segs[0];
  Batch *batch;

  if (d->n != 1)
    {
      if (d->finished)
        return NULL;
      merge_fill (d, &d->own);
      return &d->own;
    }

  if (g->consumed >= g->n_segments)
    return NULL;
  kymo_parts_wait (g->parts, g->consumed);
  batch = &g->slots[g->consumed % g->n_slots].batch;

  /* Records before the segment's first core_id event run on the core the
   * stream was on. */
  batch->start_core = d->core;
  if (batch->switched)
    d->core = batch->end_core;
  return batch;
}

/* The model is done with the batch decoder_take() gave. */
static void
decoder_release (Decoder *d)
{
  Segments *g = &d->segs[0];

  if (d->n != 1)
    return;
  kymo_parts_release (g->parts, g->consumed);
  g->consumed++;
}

/* Stops and joins the workers. */
static void
decoder_free (Decoder *d)
{
  for (guint i = 0; i < d->n; i++)
    segments_clear (&d->segs[i]);
  g_free (d->segs);
  batch_clear (&d->own);
  kymo_page_queue_clear (&d->pages);
  g_mutex_clear (&d->lock);
  g_free (d);
}

static gboolean
load (KymoLoadJob  *job,
      KymoTrace    *trace,
      GError      **error)
{
  g_autoptr(KymoTbandStreams) streams = NULL;
  g_autoptr(GError) stop = NULL;
  FormatData *format_data;
  KymoTbandModel *model;
  Decoder *decoder;
  Batch *batch;
  guint n;
  guint64 total = 0, done = 0, n_frames = 0, n_invalid = 0, countdown = PROGRESS_EVERY;
  gboolean cancelled = FALSE;
  char text[32];

  streams = kymo_tband_streams_open (kymo_load_job_get_input (job), kymo_load_job_get_options (job), error);
  if (streams == NULL)
    return FALSE;

  n = streams->streams->len;
  for (guint i = 0; i < n; i++)
    total += ((KymoTbandStream *) g_ptr_array_index (streams->streams, i))->size;
  model = kymo_tband_model_new (trace);
  decoder = decoder_new (streams, kymo_load_job_get_options (job));
  if (decoder->threads > 1)
    kymo_tband_model_set_populate (model, decoder_want_pages, decoder);

  while (!cancelled && (batch = decoder_take (decoder)) != NULL)
    {
      KymoTbandRun where = { batch->start_core, batch->offset_base, batch->source_base };

      for (guint i = 0; i < batch->n_records; )
        {
          const Record *r;
          const Extra *e;
          guint run;

          /* Progress is checked every PROGRESS_EVERY records. */
          run = kymo_tband_model_records (model, batch->records + i, MIN (batch->n_records - i, countdown),
                                          &where);
          i += run;
          n_frames += run;
          countdown -= run;
          if (i < batch->n_records && countdown > 0)
            {
              r = &batch->records[i++];
              e = &batch->extra[r->at];
              countdown--;
              switch (r->kind)
                {
                case KYMO_TBAND_RECORD_FULL:
                  n_frames++;
                  kymo_tband_model_event (model, where.core, &e->event, e->source, e->offset);
                  break;

                case KYMO_TBAND_RECORD_BAD_CORE:
                  n_frames++;
                  n_invalid++;
                  kymo_tband_model_warn (model, e->offset, "invalid frame: core id %" G_GUINT32_FORMAT " is too large",
                                         e->value);
                  break;

                case KYMO_TBAND_RECORD_BAD:
                  n_frames++;
                  n_invalid++;
                  kymo_tband_model_invalid (model, where.core, e->offset, e->reason);
                  break;

                case KYMO_TBAND_RECORD_UNFINISHED:
                  set_stop (&stop, KYMO_LOAD_ERROR_TRUNCATED,
                            ((KymoTbandStream *) g_ptr_array_index (streams->streams, e->stream))->path,
                            e->offset, e->reason);
                  break;

                case KYMO_TBAND_RECORD_SWITCH:
                  where.core = e->core;
                  where.offset_base = e->offset;
                  where.source_base = ((KymoTbandStream *) g_ptr_array_index (streams->streams, e->stream))->base;
                  break;

                case KYMO_TBAND_RECORD_EVENT:
                default:
                  g_assert_not_reached ();
                }
            }

          if (countdown == 0)
            {
              countdown = PROGRESS_EVERY;
              /* An empty segment ends before the frame that covers it. */
              done = MAX (done, batch->done);
              kymo_tband_model_set_progress (model, done, total);
              if (!kymo_load_job_progress (job, total ? (double) done / total : 1.0,
                                           _("Decoding Tonbandgerät frames"), error))
                {
                  cancelled = TRUE;
                  break;
                }
            }
        }
      decoder_release (decoder);
    }
  kymo_tband_model_set_populate (model, NULL, NULL);
  decoder_free (decoder);

  if (cancelled)
    {
      kymo_tband_model_free (model);
      return FALSE;
    }

  kymo_tband_model_finish (model);

  if (streams->mode == KYMO_TBAND_MODE_BARE_METAL ||
      (streams->mode == KYMO_TBAND_MODE_AUTO && !kymo_tband_model_is_freertos (model)))
    kymo_trace_set_variant (trace, "bare-metal");
  else
    kymo_trace_set_variant (trace, "freertos");
  kymo_trace_set_metadata (trace, "mode", streams->mode == KYMO_TBAND_MODE_AUTO ? "auto" : "forced");
  kymo_trace_set_metadata (trace, "encoding",
                           kymo_tband_encoding_name (((KymoTbandStream *) g_ptr_array_index (streams->streams, 0))->encoding));
  g_snprintf (text, sizeof text, "%u", MAX (kymo_tband_model_n_cores (model), 1));
  kymo_trace_set_metadata (trace, "cores", text);
  g_snprintf (text, sizeof text, "%u", n);
  kymo_trace_set_metadata (trace, "streams", text);
  g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, kymo_tband_model_resolution (model));
  kymo_trace_set_metadata (trace, "ts_resolution_ns", text);
  g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, n_frames);
  kymo_trace_set_metadata (trace, "frames", text);
  g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, n_invalid);
  kymo_trace_set_metadata (trace, "invalid_frames", text);

  /* Text damage stops the stream it is in; report the first stop. */
  for (guint i = 0; i < n && stop == NULL; i++)
    {
      KymoTbandStream *stream = g_ptr_array_index (streams->streams, i);

      if (stream->stop)
        stop = g_error_copy (stream->stop);
    }

  format_data = g_new0 (FormatData, 1);
  format_data->mode = streams->mode;
  format_data->streams = g_steal_pointer (&streams);
  format_data->model = model;
  kymo_trace_set_format_data (trace, format_data, format_data_free);

  if (stop != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&stop));
      return FALSE;
    }
  return TRUE;
}

/* Dump: frames in stream order */

static gboolean
dump (KymoLoadJob     *job,
      KymoJsonWriter  *out,
      GError         **error)
{
  g_autoptr(KymoTbandStreams) streams = NULL;
  g_autoptr(GError) stop = NULL;
  Cursor *cursors;
  guint n;

  streams = kymo_tband_streams_open (kymo_load_job_get_input (job), kymo_load_job_get_options (job), error);
  if (streams == NULL)
    return FALSE;

  n = streams->streams->len;
  cursors = cursors_new (streams);
  for (guint i = 0; i < n; i++)
    {
      Cursor *c = &cursors[i];

      for (cursor_fill (c, streams->mode); !c->done; c->pending = FALSE, cursor_fill (c, streams->mode))
        {
          const KymoTbandEventInfo *info;

          if (c->result == KYMO_TBAND_FRAME_UNFINISHED)
            {
              set_stop (&stop, KYMO_LOAD_ERROR_TRUNCATED, c->stream->path, c->offset, c->reason);
              continue;
            }
          if (c->result == KYMO_TBAND_FRAME_OK && !cursor_switch_core (c))
            {
              c->result = KYMO_TBAND_FRAME_BAD;
              c->reason = "core id too large";
            }
          if (c->result == KYMO_TBAND_FRAME_BAD)
            {
              kymo_json_writer_begin_object (out);
              kymo_json_writer_key (out, "kind");
              kymo_json_writer_string (out, "invalid", -1);
              kymo_json_writer_key (out, "offset");
              kymo_json_writer_uint (out, c->offset);
              kymo_json_writer_key (out, "reason");
              kymo_json_writer_string (out, c->reason, -1);
              kymo_json_writer_end_object (out);
              kymo_json_writer_end_line (out);
              continue;
            }

          info = kymo_tband_event_info (c->event.id);
          kymo_json_writer_begin_object (out);
          kymo_json_writer_key (out, "kind");
          kymo_json_writer_string (out, "event", -1);
          kymo_json_writer_key (out, "id");
          kymo_json_writer_uint (out, c->event.id);
          kymo_json_writer_key (out, "name");
          kymo_json_writer_string (out, info->name, -1);
          kymo_json_writer_key (out, "core");
          kymo_json_writer_uint (out, c->core);
          if (c->event.has_ts)
            {
              kymo_json_writer_key (out, "ts");
              kymo_json_writer_uint (out, c->event.ts);
            }
          kymo_json_writer_key (out, "fields");
          kymo_tband_event_write_fields (&c->event, out);
          kymo_json_writer_end_object (out);
          kymo_json_writer_end_line (out);
        }
      if (stop == NULL && c->stream->stop != NULL)
        stop = g_error_copy (c->stream->stop);
    }
  cursors_free (cursors, n);

  if (stop != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&stop));
      return FALSE;
    }
  return TRUE;
}

/* Describe: the event's fields, decoded again from its frame */

static guint32
event_source (KymoTrace          *trace,
              const KymoEventRef *ref)
{
  KymoTrack *track;
  gsize n;

  if (ref->track >= kymo_trace_get_n_tracks (trace))
    return KYMO_NO_SOURCE;
  track = kymo_trace_get_track (trace, ref->track);
  if (ref->kind == KYMO_EVENT_KIND_SPAN)
    {
      const KymoSpan *spans = kymo_track_get_spans (track, &n);
      return ref->index < n ? spans[ref->index].source : KYMO_NO_SOURCE;
    }
  if (ref->kind == KYMO_EVENT_KIND_INSTANT)
    {
      const KymoInstant *instants = kymo_track_get_instants (track, &n);
      return ref->index < n ? instants[ref->index].source : KYMO_NO_SOURCE;
    }
  return KYMO_NO_SOURCE;
}

static void
add_name (JsonObject *object,
          const char *key,
          const char *name)
{
  if (name != NULL)
    json_object_set_string_member (object, key, name);
}

static JsonObject *
describe (KymoTrace          *trace,
          const KymoEventRef *ref)
{
  FormatData *data = kymo_trace_get_format_data (trace);
  guint32 source = event_source (trace, ref);
  const KymoTbandEventInfo *info;
  KymoTbandStream *stream;
  KymoTbandEvent event;
  const guint8 *start, *zero;
  g_autofree guint8 *buf = NULL;
  const char *reason;
  JsonObject *object;
  gsize offset, len;

  if (data == NULL || source == KYMO_NO_SOURCE)
    return NULL;
  stream = kymo_tband_streams_find (data->streams, source, &offset);
  if (stream == NULL)
    return NULL;

  start = stream->data + offset;
  zero = memchr (start, 0, stream->size - offset);
  if (zero == NULL || zero == start)
    return NULL;
  buf = g_malloc (zero - start);
  if (!kymo_tband_cobs_decode (start, zero - start, buf, &len) || len == 0 ||
      !kymo_tband_event_parse (buf, len, data->mode, &event, &reason))
    return NULL;

  info = kymo_tband_event_info (event.id);
  object = json_object_new ();
  json_object_set_string_member (object, "event", info->name);
  json_object_set_int_member (object, "id", event.id);
  if (event.has_ts && event.ts <= G_MAXINT64)
    json_object_set_int_member (object, "ts", (gint64) event.ts);
  kymo_tband_event_add_fields (&event, object);
  for (guint i = 0; i < info->n_fields; i++)
    {
      const char *field = info->fields[i].name;
      guint32 id = event.v[i].u;

      if (g_str_equal (field, "task_id"))
        add_name (object, "task", kymo_tband_model_task_name (data->model, id));
      else if (g_str_equal (field, "queue_id"))
        add_name (object, "queue", kymo_tband_model_queue_name (data->model, id));
      else if (g_str_equal (field, "isr_id"))
        add_name (object, "isr", kymo_tband_model_isr_name (data->model, id));
    }
  json_object_set_int_member (object, "offset", offset);
  if (data->streams->streams->len > 1)
    json_object_set_string_member (object, "file", stream->path);
  return object;
}

static const char * const mime_types[] = { "application/octet-stream", "text/plain", NULL };
static const char * const patterns[] = { "*.bin", "*.tband", "*.txt", "*.log", "*.json", NULL };

const KymoFormat kymo_format_tband = {
  .name = "tband",
  .title = N_("Tonbandgerät trace"),
  .mime_types = mime_types,
  .patterns = patterns,
  .detect = detect,
  .load = load,
  .dump = dump,
  .describe = describe,
  .preview = KYMO_FORMAT_PREVIEW_PREFIX,
};
