/* kymo-tband-decoder.c: batches of parsed records, the streams' segments on the workers, and merging streams by time
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-decoder-private.h"
#include "kymo-tband-load.h"

static void
batch_init (KymoTbandBatch *batch)
{
  batch->copies = g_ptr_array_new_with_free_func (g_free);
}

static void
batch_clear (KymoTbandBatch *batch)
{
  g_free (batch->records);
  g_free (batch->extra);
  g_ptr_array_unref (batch->copies);
}

void
_kymo_tband_batch_reset (KymoTbandBatch *batch,
                         guint64         offset_base,
                         guint64         source_base)
{
  batch->n_records = 0;
  batch->n_extra = 0;
  batch->switched = FALSE;
  batch->offset_base = offset_base;
  batch->source_base = source_base;
  if (batch->copies->len > 0)
    g_ptr_array_set_size (batch->copies, 0);
}

G_GNUC_NO_INLINE void
_kymo_tband_batch_grow (KymoTbandBatch *batch)
{
  batch->room = MAX (batch->room * 2, 1024);
  batch->records = g_renew (KymoTbandRecord, batch->records, batch->room);
}

/* A record saying that what follows is on @core, in stream @stream, with
 * EVENT records' offsets counted from @base. */
void
_kymo_tband_batch_switch (KymoTbandBatch *batch,
                          guint           core,
                          guint           stream,
                          guint64         base)
{
  KymoTbandExtra *extra = batch_extra (batch, batch_add (batch), KYMO_TBAND_RECORD_SWITCH, base, KYMO_NO_SOURCE);

  extra->core = core;
  extra->stream = stream;
}

/* A core_id event with a core out of range: damage. Its time is kept for
 * merging streams. */
void
_kymo_tband_batch_bad_core (KymoTbandBatch       *batch,
                            const KymoTbandEvent *event,
                            guint64               offset,
                            guint32               source)
{
  KymoTbandExtra *extra = batch_extra (batch, batch_add (batch), KYMO_TBAND_RECORD_BAD_CORE, offset, source);

  extra->value = event->v[0].u;
  extra->event.has_ts = event->has_ts;
  extra->event.ts = event->ts;
}

/* The next record of stream @g for the merge, with the core switches
 * before it taken in passing; FALSE after the stream's last one. Its key
 * is the time of the latest record with one, this one included, as a
 * cursor walking the stream would have it. */
static gboolean
segments_peek (KymoTbandSegments *g)
{
  for (;;)
    {
      const KymoTbandRecord *r;
      const KymoTbandExtra *e;

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
merge_take (KymoTbandBatch    *batch,
            KymoTbandSegments *g)
{
  const KymoTbandBatch *from = g->batch;
  const KymoTbandRecord *r = &from->records[g->at++];
  KymoTbandRecord *record = batch_add (batch);
  KymoTbandExtra *extra;

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
merge_fill (KymoTbandDecoder *d,
            KymoTbandBatch   *batch)
{
  guint core = G_MAXUINT, stream = G_MAXUINT;
  guint64 base = G_MAXUINT64;

  _kymo_tband_batch_reset (batch, 0, 0);
  while (batch->n_records < BATCH_RECORDS)
    {
      KymoTbandSegments *best = NULL;

      for (guint i = 0; i < d->n; i++)
        {
          KymoTbandSegments *g = &d->segs[i];

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
          _kymo_tband_batch_switch (batch, core, stream, base);
        }
      merge_take (batch, best);
    }
  batch->start_core = 0;
  batch->done = 0;
  for (guint i = 0; i < d->n; i++)
    {
      KymoTbandSegments *g = &d->segs[i];

      batch->done += g->batch != NULL ? g->batch->offset_base
                   : MIN ((guint64) g->consumed * g->segment_bytes, g->stream->size);
    }
}

/* A worker with no segment to parse populates a chunk of the pages the
 * model asked for. */
static gboolean
decoder_idle (gpointer data)
{
  KymoTbandDecoder *d = ((KymoTbandSegments *) data)->decoder;
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
  KymoTbandSegments *g = data;
  KymoTbandSlot *slot = &g->slots[k % g->n_slots];
  gsize start, end;

  _kymo_tband_segment_bounds (g, k, &start, &end);
  _kymo_tband_segment_fill (g, start, end, &slot->batch, &slot->framer);
}

/* The model asks for the pages it will write next. */
void
_kymo_tband_decoder_want_pages (gpointer at,
                                gsize    len,
                                gpointer data)
{
  KymoTbandDecoder *d = data;
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
segments_init (KymoTbandSegments     *g,
               KymoTbandDecoder      *d,
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
  g->slots = g_aligned_alloc0 (g->n_slots, sizeof (KymoTbandSlot), LINE_BYTES);
  for (guint i = 0; i < g->n_slots; i++)
    {
      batch_init (&g->slots[i].batch);
      kymo_tband_framer_init (&g->slots[i].framer, NULL, 0);
    }
  g->parts = kymo_parts_new_full (options, size, 0, g->n_segments, g->n_slots, decoder_parse, decoder_idle, g);
}

static void
segments_clear (KymoTbandSegments *g)
{
  g_clear_pointer (&g->parts, kymo_parts_free);
  for (guint i = 0; i < g->n_slots; i++)
    {
      batch_clear (&g->slots[i].batch);
      kymo_tband_framer_clear (&g->slots[i].framer);
    }
  g_aligned_free (g->slots);
}

KymoTbandDecoder *
_kymo_tband_decoder_new (KymoTbandStreams      *streams,
                         const KymoLoadOptions *options)
{
  KymoTbandDecoder *d = g_new0 (KymoTbandDecoder, 1);
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

  d->segs = g_new0 (KymoTbandSegments, d->n);
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
KymoTbandBatch *
_kymo_tband_decoder_take (KymoTbandDecoder *d)
{
  KymoTbandSegments *g = &d->segs[0];
  KymoTbandBatch *batch;

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
void
_kymo_tband_decoder_release (KymoTbandDecoder *d)
{
  KymoTbandSegments *g = &d->segs[0];

  if (d->n != 1)
    return;
  kymo_parts_release (g->parts, g->consumed);
  g->consumed++;
}

/* Stops and joins the workers. */
void
_kymo_tband_decoder_free (KymoTbandDecoder *d)
{
  for (guint i = 0; i < d->n; i++)
    segments_clear (&d->segs[i]);
  g_free (d->segs);
  batch_clear (&d->own);
  kymo_page_queue_clear (&d->pages);
  g_mutex_clear (&d->lock);
  g_free (d);
}
