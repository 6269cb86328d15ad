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
#include "kymo-tband-decoder-private.h"
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

static gboolean
load (KymoLoadJob  *job,
      KymoTrace    *trace,
      GError      **error)
{
  g_autoptr(KymoTbandStreams) streams = NULL;
  g_autoptr(GError) stop = NULL;
  FormatData *format_data;
  KymoTbandModel *model;
  KymoTbandDecoder *decoder;
  KymoTbandBatch *batch;
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
  decoder = _kymo_tband_decoder_new (streams, kymo_load_job_get_options (job));
  if (decoder->threads > 1)
    kymo_tband_model_set_populate (model, _kymo_tband_decoder_want_pages, decoder);

  while (!cancelled && (batch = _kymo_tband_decoder_take (decoder)) != NULL)
    {
      KymoTbandRun where = { batch->start_core, batch->offset_base, batch->source_base };

      for (guint i = 0; i < batch->n_records; )
        {
          const KymoTbandRecord *r;
          const KymoTbandExtra *e;
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
      _kymo_tband_decoder_release (decoder);
    }
  kymo_tband_model_set_populate (model, NULL, NULL);
  _kymo_tband_decoder_free (decoder);

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
