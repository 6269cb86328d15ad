/* kymo-tband-decoder-private.h: the parallel decoder of Tonbandgerät streams
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-page-queue.h"
#include "kymo-parts.h"
#include "kymo-tband-cobs.h"
#include "kymo-tband-events.h"
#include "kymo-tband-input.h"
#include "kymo-tband-model.h"

G_BEGIN_DECLS

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

G_STATIC_ASSERT (sizeof (KymoTbandRecord) == 16);

/* What a record other than EVENT needs beside it. */
typedef struct {
  KymoTbandEvent  event;
  const char     *reason;
  guint64         offset;     /* in its stream */
  guint32         source;
  guint32         value;      /* BAD_CORE: the core id */
  guint           core;       /* SWITCH: the core from here on */
  guint           stream;     /* SWITCH, UNFINISHED: the stream's index */
} KymoTbandExtra;

typedef struct {
  KymoTbandRecord *records;
  KymoTbandExtra  *extra;
  guint            n_records;
  guint            n_extra;
  guint            room;       /* of records */
  guint            extra_room;
  /* Strings whose frame needed COBS decoding: the framer's scratch buffer
   * does not outlive the next frame. */
  GPtrArray       *copies;
  guint64          done;       /* input bytes read up to the end of this batch */
  guint64          offset_base;   /* what EVENT records' offsets count from */
  guint64          source_base;   /* and their sources, until a SWITCH */
  /* A single stream's records before the first SWITCH are on the core the
   * stream was on, filled in as the model takes the batch; end_core is the
   * core after the batch when it switched at all. */
  gboolean         switched;
  guint            end_core;
  guint            start_core;
} KymoTbandBatch;

/* Written by one thread while another reads the next: each slot on
 * cache lines of its own (two: lines are fetched in pairs). */
#define LINE_BYTES 128

/* Segment k is parsed into slot k % n_slots, with the slot's own framer
 * (only its scratch buffer is kept from one segment to the next): the
 * parts' @ahead bound keeps a slot's segment until the model is done. */
typedef struct {
  KymoTbandBatch  batch;
  KymoTbandFramer framer;
} __attribute__ ((aligned (LINE_BYTES))) KymoTbandSlot;

typedef struct _KymoTbandDecoder KymoTbandDecoder;

/* One stream, cut into segments that are the parts of a KymoParts run. */
typedef struct {
  KymoTbandDecoder *decoder;
  KymoTbandStream  *stream;
  guint             index;         /* of the stream */
  KymoTbandMode     mode;
  gboolean          no_fast_frames;
  guint             n_segments;
  gsize             segment_bytes;
  KymoTbandSlot    *slots;
  guint             n_slots;
  KymoParts        *parts;
  guint             consumed;      /* segments the model is done with */

  /* Merging several streams: the segment being taken, the next record in
   * it, the stream's core and its time so far. */
  KymoTbandBatch   *batch;
  guint             at;
  guint             core;
  guint64           key;
  gboolean          done;
} KymoTbandSegments;

struct _KymoTbandDecoder
{
  KymoTbandStreams  *streams;
  KymoTbandSegments *segs;          /* one per stream */
  guint              n;
  guint              threads;       /* of the run with the most */
  guint              core;          /* one stream: the model's current core */
  KymoTbandBatch     own;           /* several streams: the merged records */
  gboolean           finished;
  GMutex             lock;          /* guards @pages */
  KymoPageQueue      pages;
};

void              _kymo_tband_batch_reset        (KymoTbandBatch *batch,
                                                  guint64         offset_base,
                                                  guint64         source_base);
void              _kymo_tband_batch_grow         (KymoTbandBatch *batch);
void              _kymo_tband_batch_switch       (KymoTbandBatch *batch,
                                                  guint           core,
                                                  guint           stream,
                                                  guint64         base);
void              _kymo_tband_batch_bad_core     (KymoTbandBatch       *batch,
                                                  const KymoTbandEvent *event,
                                                  guint64               offset,
                                                  guint32               source);
void              _kymo_tband_segment_bounds     (KymoTbandSegments *d,
                                                  guint              k,
                                                  gsize             *start,
                                                  gsize             *end);
void              _kymo_tband_segment_fill       (KymoTbandSegments *d,
                                                  gsize              start,
                                                  gsize              end,
                                                  KymoTbandBatch    *batch,
                                                  KymoTbandFramer   *framer);
KymoTbandDecoder *_kymo_tband_decoder_new        (KymoTbandStreams      *streams,
                                                  const KymoLoadOptions *options);
KymoTbandBatch   *_kymo_tband_decoder_take       (KymoTbandDecoder *d);
void              _kymo_tband_decoder_release    (KymoTbandDecoder *d);
void              _kymo_tband_decoder_free       (KymoTbandDecoder *d);
void              _kymo_tband_decoder_want_pages (gpointer at,
                                                  gsize    len,
                                                  gpointer data);

static inline KymoTbandRecord *
batch_add (KymoTbandBatch *batch)
{
  if (G_UNLIKELY (batch->n_records == batch->room))
    _kymo_tband_batch_grow (batch);
  return &batch->records[batch->n_records++];
}

/* Keeps what @record needs beside it; the record points to it. */
static inline KymoTbandExtra *
batch_extra (KymoTbandBatch  *batch,
             KymoTbandRecord *record,
             guint8           kind,
             guint64          offset,
             guint32          source)
{
  KymoTbandExtra *extra;

  if (G_UNLIKELY (batch->n_extra == batch->extra_room))
    {
      batch->extra_room = MAX (batch->extra_room * 2, 256);
      batch->extra = g_renew (KymoTbandExtra, batch->extra, batch->extra_room);
    }
  record->kind = kind;
  record->at = batch->n_extra;
  extra = &batch->extra[batch->n_extra++];
  extra->offset = offset;
  extra->source = source;
  return extra;
}

/* Fills in @record, of the frame at @offset with @source, from a frame. */
static inline void
batch_frame (KymoTbandBatch       *batch,
             KymoTbandRecord      *record,
             KymoTbandFrameResult  result,
             const KymoTbandEvent *event,
             const char           *reason,
             KymoTbandStream      *stream,
             guint                 stream_index,
             guint64               offset,
             guint32               source)
{
  KymoTbandExtra *extra;

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

G_END_DECLS
