/* kymo-rtc-model.c: RTC streams as tracks, clocks as the time axis
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include "kymo-rtc-private.h"

#define MAX_WARNINGS 200

/* Where an event's value is in the input, for describe(). */
typedef struct {
  guint32 def;
  guint32 n_pieces;
  guint64 first_piece;
} RtcValueRef;

typedef struct {
  GPtrArray *defs;      /* RtcStream, stolen from the decoder */
  GArray    *values;    /* RtcValueRef, indexed by event source */
  GArray    *pieces;    /* RtcPiece */
  gboolean   big_endian;
} RtcData;

typedef enum {
  PENDING_SAMPLE,
  PENDING_INSTANT,
  PENDING_LINE,
} PendingKind;

/* An event read before any clock had a value. */
typedef struct {
  guint        track;
  PendingKind  kind;
  guint32      name;
  guint32      source;
  double       value;
  const char  *text;
  guint64      offset;
} PendingEvent;

typedef struct {
  KymoTrace  *trace;
  RtcDecoder *decoder;
  RtcData    *data;
  GArray     *pending;
  GHashTable *tracks;     /* "kind/name" → track id + 1 */
  GPtrArray  *samples;    /* track id → RtcSamples or NULL */
  GPtrArray  *clocks;     /* root clocks that had a value, borrowed */
  GString    *scratch;
  guint       n_warnings;
  guint       n_dropped_warnings;
} RtcModel;

static void
rtc_data_free (gpointer p)
{
  RtcData *data = p;

  g_clear_pointer (&data->defs, g_ptr_array_unref);
  g_clear_pointer (&data->values, g_array_unref);
  g_clear_pointer (&data->pieces, g_array_unref);
  g_free (data);
}

static void
on_invalid (gpointer    user,
            guint64     offset,
            const char *reason)
{
  RtcModel *model = user;

  if (model->n_warnings++ < MAX_WARNINGS)
    kymo_trace_add_warning (model->trace, offset, KYMO_TIME_NONE, "%s", reason);
  else
    model->n_dropped_warnings++;
}

static void
on_platform (gpointer user,
             guint64  offset,
             gboolean big_endian)
{
  RtcModel *model = user;

  model->data->big_endian = big_endian;
}

static KymoTrackKind
kind_for (const RtcStream *s)
{
  if (s->annotate)
    return KYMO_TRACK_ANNOTATION;
  if (kymo_rtc_is_numeric (&s->format) || s->format.kind == RTC_FMT_TIMESPEC)
    return KYMO_TRACK_COUNTER;
  if (s->format.kind == RTC_FMT_UTF8)
    return KYMO_TRACK_LOG;
  return KYMO_TRACK_INSTANT;
}

static guint
ensure_track (RtcModel  *model,
              RtcStream *s)
{
  KymoTrackKind kind;
  g_autofree char *key = NULL;
  gpointer found;
  KymoTrack *track;
  guint id;

  if (G_LIKELY (s->track != KYMO_NO_TRACK))
    return s->track;

  kind = kind_for (s);
  key = g_strdup_printf ("%d/%s", kind, s->name);
  s->name_id = kymo_trace_intern (model->trace, s->name);
  found = g_hash_table_lookup (model->tracks, key);
  if (found != NULL)
    return s->track = GPOINTER_TO_UINT (found) - 1;

  id = kymo_trace_add_track (model->trace, KYMO_NO_TRACK, kind, s->name);
  track = kymo_trace_get_track (model->trace, id);
  kymo_track_set_sort_key (track, s->id);
  kymo_track_set_tag (track, s->def_index);
  if (s->unit)
    kymo_track_set_unit (track, s->unit);
  g_hash_table_insert (model->tracks, g_steal_pointer (&key), GUINT_TO_POINTER (id + 1));
  return s->track = id;
}

/* Every sample goes through here, so a track's samples keep the order
 * they were read in. */
static RtcSamples *
samples_for (RtcModel *model,
             guint     track)
{
  RtcSamples *samples;

  if (track >= model->samples->len)
    g_ptr_array_set_size (model->samples, track + 1);
  samples = model->samples->pdata[track];
  if (samples == NULL)
    {
      samples = g_new0 (RtcSamples, 1);
      samples->track = track;
      model->samples->pdata[track] = samples;
    }
  return samples;
}

/* The tracks adopt the arrays without a copy. */
static void
hand_over_samples (RtcModel *model)
{
  for (guint i = 0; i < model->samples->len; i++)
    {
      RtcSamples *samples = model->samples->pdata[i];

      if (samples == NULL)
        continue;
      /* Give back what was reserved and not used. */
      if (samples->cap > samples->len && samples->len > 0)
        samples->data = g_realloc_n (samples->data, samples->len, sizeof (KymoSample));
      kymo_track_take_samples (kymo_trace_get_track (model->trace, samples->track),
                               g_steal_pointer (&samples->data), samples->len);
      g_free (samples);
      model->samples->pdata[i] = NULL;
    }
}

static guint32
record_value (RtcModel       *model,
              RtcStream      *s,
              const RtcValue *v)
{
  RtcData *data = model->data;
  RtcValueRef ref;

  if (data->values->len >= G_MAXUINT32 - 1)
    return KYMO_NO_SOURCE;
  ref.def = s->def_index;
  ref.n_pieces = v->n_pieces;
  ref.first_piece = data->pieces->len;
  g_array_append_vals (data->pieces, v->pieces, v->n_pieces);
  g_array_append_val (data->values, ref);
  return data->values->len - 1;
}

static void
add_event (RtcModel           *model,
           KymoTime            ts,
           const PendingEvent *event)
{
  KymoTrack *track = kymo_trace_get_track (model->trace, event->track);

  switch (event->kind)
    {
    case PENDING_SAMPLE:
      kymo_rtc_samples_push (model->decoder, samples_for (model, event->track), ts, event->value);
      break;
    case PENDING_INSTANT:
      kymo_track_add_instant (track, ts, event->name, 0, event->source);
      break;
    case PENDING_LINE:
      kymo_track_add_annotation (track, ts, ts, event->name, event->text, event->source);
      break;
    }
}

/* At @ts, or at their byte offsets when @by_offset. */
static void
flush_pending (RtcModel *model,
               KymoTime  ts,
               gboolean  by_offset)
{
  for (guint i = 0; i < model->pending->len; i++)
    {
      const PendingEvent *event = &g_array_index (model->pending, PendingEvent, i);

      add_event (model, by_offset ? (KymoTime) event->offset : ts, event);
    }
  g_array_set_size (model->pending, 0);
}

/* Events are stamped with their stream's clock, or else with the latest
 * time any clock gave; until some clock has spoken they wait. */
static void
emit (RtcModel    *model,
      KymoTime     ts,
      PendingEvent event)
{
  if (ts == KYMO_TIME_NONE)
    ts = model->decoder->last_time;
  if (ts != KYMO_TIME_NONE)
    {
      add_event (model, ts, &event);
      return;
    }
  if (event.kind == PENDING_LINE)
    event.text = kymo_trace_store_text (model->trace, event.text);
  g_array_append_val (model->pending, event);
}

static void
emit_line (RtcModel    *model,
           RtcStream   *s,
           KymoTime     ts,
           const char  *text,
           gsize        len,
           guint32      source,
           guint64      offset)
{
  PendingEvent event = { s->track, PENDING_LINE, s->name_id, source, 0, NULL, offset };
  GString *scratch = model->scratch;

  while (len > 0 && text[len - 1] == '\r')
    len--;
  g_string_truncate (scratch, 0);
  if (g_utf8_validate_len (text, len, NULL))
    g_string_append_len (scratch, text, (gssize) len);
  else
    {
      g_autofree char *valid = g_utf8_make_valid (text, (gssize) len);
      g_string_append (scratch, valid);
    }
  /* A NUL inside the text would cut the stored copy short anyway. */
  event.text = scratch->str;
  emit (model, ts, event);
}

static void
on_text (RtcModel       *model,
         RtcStream      *s,
         const RtcValue *v,
         KymoTime        ts)
{
  const char *text = (const char *) v->data;
  gsize len = v->len, start = 0;
  guint32 source = record_value (model, s, v);

  if (!s->cont)
    {
      /* One value is one entry; a trailing newline ends it. */
      while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
      emit_line (model, s, ts, text, len, source, v->offset);
      return;
    }

  /* `cont` streams are a byte stream of text: lines end at newlines. */
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] != '\n')
        continue;
      if (s->line != NULL && s->line->len > 0)
        {
          g_string_append_len (s->line, text + start, (gssize) (i - start));
          emit_line (model, s, s->line_ts, s->line->str, s->line->len, s->line_source, v->offset);
          g_string_truncate (s->line, 0);
        }
      else
        emit_line (model, s, ts, text + start, i - start, source, v->offset);
      start = i + 1;
    }
  if (start < len)
    {
      if (s->line == NULL)
        s->line = g_string_new (NULL);
      if (s->line->len == 0)
        {
          s->line_ts = ts;
          s->line_source = source;
        }
      g_string_append_len (s->line, text + start, (gssize) (len - start));
    }
}

static void
note_clock (RtcModel  *model,
            RtcStream *clock)
{
  RtcStream *root = clock;

  if (clock->delta_name)
    {
      if (clock->delta_base == NULL)
        return;
      root = clock->delta_base;
    }
  for (guint i = 0; i < model->clocks->len; i++)
    if (strcmp (((RtcStream *) model->clocks->pdata[i])->name, root->name) == 0)
      return;
  g_ptr_array_add (model->clocks, root);
}

static void
on_clock (gpointer   user,
          RtcStream *s,
          KymoTime   ts)
{
  RtcModel *model = user;

  /* The decoder sets its last_time to @ts after this call. */
  if (G_UNLIKELY (model->decoder->last_time == KYMO_TIME_NONE))
    flush_pending (model, ts, FALSE);
  if (G_UNLIKELY (!s->clock_noted))
    {
      note_clock (model, s);
      s->clock_noted = s->delta_name == NULL || s->delta_base != NULL;
    }
}

static void
on_value (gpointer        user,
          RtcStream      *s,
          const RtcValue *v)
{
  RtcModel *model = user;

  if (s->is_clock)
    {
      if (v->ts != KYMO_TIME_NONE)
        on_clock (model, s, v->ts);
      return;
    }

  if (s->annotate)
    {
      RtcStream *target = NULL;
      g_autofree char *text = NULL;
      guint track;

      if (s->target_name)
        target = g_hash_table_lookup (model->decoder->by_name, s->target_name);
      if (target != NULL && !target->is_clock && !target->annotate)
        track = ensure_track (model, target);
      else
        track = ensure_track (model, s);
      s->name_id = kymo_trace_intern (model->trace, s->name);
      text = kymo_rtc_value_to_text (s, model->data->big_endian, v->data, v->len);
      kymo_track_add_annotation (kymo_trace_get_track (model->trace, track), v->ts, v->ts,
                                 s->name_id, text, record_value (model, s, v));
      return;
    }

  ensure_track (model, s);

  switch (s->format.kind)
    {
    case RTC_FMT_INT:
    case RTC_FMT_FLOAT:
    case RTC_FMT_LEB128:
      {
        PendingEvent event = { s->track, PENDING_SAMPLE, 0, KYMO_NO_SOURCE, 0, NULL, v->offset };
        gsize pos = 0;
        RtcNumber number;

        while (pos < v->len)
          {
            if (!kymo_rtc_read_number (&s->format, model->data->big_endian, v->data, v->len, &pos, &number))
              {
                g_autofree char *reason = g_strdup_printf ("stream \"%s\": %zu bytes are not a %s value",
                                                           s->name, v->len, s->format_name);
                on_invalid (model, v->offset, reason);
                break;
              }
            event.value = kymo_rtc_scaled (s, &number);
            emit (model, v->ts, event);
          }
        break;
      }

    case RTC_FMT_TIMESPEC:
      {
        PendingEvent event = { s->track, PENDING_SAMPLE, 0, KYMO_NO_SOURCE, 0, NULL, v->offset };
        KymoTime ns;
        gsize used;

        if (kymo_rtc_read_timespec (model->data->big_endian, v->data, v->len, &used, &ns))
          {
            event.value = (double) ns / 1e9;
            emit (model, v->ts, event);
          }
        break;
      }

    case RTC_FMT_UTF8:
      on_text (model, s, v, v->ts);
      break;

    case RTC_FMT_RAW:
    case RTC_FMT_INDEX:
    case RTC_FMT_JSON:
    case RTC_FMT_PLATFORM:
    case RTC_FMT_UNKNOWN:
    default:
      {
        PendingEvent event = { s->track, PENDING_INSTANT, s->name_id, 0, 0, NULL, v->offset };

        event.source = record_value (model, s, v);
        emit (model, v->ts, event);
        break;
      }
    }
}

/* The hot path: one number per frame, straight into its counter. */
static void
on_sample (gpointer   user,
           RtcStream *s,
           KymoTime   ts,
           double     value,
           guint64    offset)
{
  RtcModel *model = user;

  if (G_UNLIKELY (s->samples == NULL))
    s->samples = samples_for (model, ensure_track (model, s));
  if (G_UNLIKELY (ts == KYMO_TIME_NONE))
    {
      PendingEvent event = { s->track, PENDING_SAMPLE, 0, KYMO_NO_SOURCE, value, NULL, offset };

      emit (model, ts, event);
      return;
    }
  kymo_rtc_samples_push (model->decoder, s->samples, ts, value);
}

/* CRC mismatches come through on_invalid, with the Unit's extent. */
static const RtcCallbacks model_callbacks = {
  .invalid = on_invalid,
  .platform = on_platform,
  .value = on_value,
  .sample = on_sample,
  .clock = on_clock,
};

static void
finish (RtcModel *model)
{
  KymoTrace *trace = model->trace;
  RtcDecoder *d = model->decoder;
  g_autoptr(GString) clocks = g_string_new (NULL);
  char number[32];

  /* Text of `cont` streams that no newline ended. */
  for (guint i = RTC_FIRST_USER_ID; i < d->defs->len; i++)
    {
      RtcStream *s = d->defs->pdata[i];

      if (s->line != NULL && s->line->len > 0)
        {
          g_autofree char *line = g_strdup (s->line->str);
          emit_line (model, s, s->line_ts, line, strlen (line), s->line_source, 0);
          g_string_truncate (s->line, 0);
        }
    }

  if (model->pending->len > 0)
    {
      kymo_trace_set_metadata (trace, "clock", "none: times are byte offsets");
      flush_pending (model, KYMO_TIME_NONE, TRUE);
    }

  for (guint i = 0; i < model->clocks->len; i++)
    {
      RtcStream *clock = model->clocks->pdata[i];

      if (clocks->len)
        g_string_append (clocks, ", ");
      g_string_append_printf (clocks, "%s (%s)", clock->name,
                              clock->epoch ? "Unix epoch" : "unknown epoch, shown relative");
    }
  if (clocks->len)
    kymo_trace_set_metadata (trace, "clocks", clocks->str);
  if (model->clocks->len > 1)
    kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                            "%u unrelated clocks (%s) share one time axis: how they relate is not known",
                            model->clocks->len, clocks->str);
  if (model->clocks->len > 0 && ((RtcStream *) model->clocks->pdata[0])->epoch)
    kymo_trace_set_wallclock (trace, 0, 0);

  kymo_trace_set_variant (trace, model->data->big_endian ? "big-endian" : "little-endian");
  kymo_trace_set_metadata (trace, "byte order", model->data->big_endian ? "big-endian" : "little-endian");
  g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, d->unit_size);
  kymo_trace_set_metadata (trace, "Unit size", number);
  g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, d->minor_size);
  kymo_trace_set_metadata (trace, "unit size", number);
  g_snprintf (number, sizeof number, "%u", d->n_units);
  kymo_trace_set_metadata (trace, "Units", number);
  if (d->n_bad_units)
    {
      g_snprintf (number, sizeof number, "%u", d->n_bad_units);
      kymo_trace_set_metadata (trace, "Units skipped (bad CRC)", number);
    }
  if (model->n_dropped_warnings)
    kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                            "%u more problems not listed", model->n_dropped_warnings);
  hand_over_samples (model);
}

gboolean
kymo_rtc_load (KymoLoadJob  *job,
               KymoTrace    *trace,
               GError      **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  RtcDecoder decoder;
  RtcModel model = { 0 };
  RtcData *data = g_new0 (RtcData, 1);
  gboolean ok;

  data->values = g_array_new (FALSE, FALSE, sizeof (RtcValueRef));
  data->pieces = g_array_new (FALSE, FALSE, sizeof (RtcPiece));
  model.trace = trace;
  model.decoder = &decoder;
  model.data = data;
  model.pending = g_array_new (FALSE, FALSE, sizeof (PendingEvent));
  model.tracks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  model.clocks = g_ptr_array_new ();
  model.samples = g_ptr_array_new ();
  model.scratch = g_string_new (NULL);

  kymo_rtc_decoder_init (&decoder, job, input->main.data, input->main.size, &model_callbacks, &model);
  ok = kymo_rtc_decoder_run (&decoder, error);
  finish (&model);

  data->defs = g_steal_pointer (&decoder.defs);
  kymo_rtc_decoder_clear (&decoder);
  kymo_trace_set_format_data (trace, data, rtc_data_free);

  g_array_unref (model.pending);
  g_hash_table_unref (model.tracks);
  g_ptr_array_unref (model.clocks);
  g_ptr_array_unref (model.samples);
  g_string_free (model.scratch, TRUE);
  return ok;
}

JsonObject *
kymo_rtc_describe (KymoTrace          *trace,
                   const KymoEventRef *ref)
{
  RtcData *data = kymo_trace_get_format_data (trace);
  KymoInput *input = kymo_trace_get_input (trace);
  KymoTrack *track;
  const RtcValueRef *value;
  const RtcStream *s;
  g_autoptr(GByteArray) bytes = NULL;
  JsonObject *object;
  JsonNode *node;
  guint32 source;
  gsize n;

  if (data == NULL || input == NULL || ref->track >= kymo_trace_get_n_tracks (trace))
    return NULL;
  track = kymo_trace_get_track (trace, ref->track);

  switch (ref->kind)
    {
    case KYMO_EVENT_KIND_INSTANT:
      {
        const KymoInstant *instants = kymo_track_get_instants (track, &n);
        if (ref->index >= n)
          return NULL;
        source = instants[ref->index].source;
        break;
      }
    case KYMO_EVENT_KIND_ANNOTATION:
      {
        const KymoAnnotation *annotations = kymo_track_get_annotations (track, &n);
        if (ref->index >= n)
          return NULL;
        source = annotations[ref->index].source;
        break;
      }
    case KYMO_EVENT_KIND_SAMPLE:
      {
        const KymoSample *samples = kymo_track_get_samples (track, &n);
        guint64 def = kymo_track_get_tag (track);

        if (ref->index >= n || def >= data->defs->len)
          return NULL;
        s = data->defs->pdata[def];
        object = json_object_new ();
        json_object_set_string_member (object, "stream", s->name);
        json_object_set_string_member (object, "format", s->format_name);
        json_object_set_double_member (object, "value", samples[ref->index].value);
        if (s->unit)
          json_object_set_string_member (object, "unit", s->unit);
        return object;
      }
    default:
      return NULL;
    }

  if (source >= data->values->len)
    return NULL;
  value = &g_array_index (data->values, RtcValueRef, source);
  if (value->def >= data->defs->len)
    return NULL;
  s = data->defs->pdata[value->def];

  bytes = g_byte_array_new ();
  for (guint i = 0; i < value->n_pieces; i++)
    {
      const RtcPiece *piece = &g_array_index (data->pieces, RtcPiece, value->first_piece + i);

      if (piece->offset > input->main.size || input->main.size - piece->offset < piece->len)
        return NULL;
      g_byte_array_append (bytes, input->main.data + piece->offset, piece->len);
    }

  object = json_object_new ();
  json_object_set_string_member (object, "stream", s->name);
  json_object_set_string_member (object, "format", s->format_name);
  if (value->n_pieces > 0)
    json_object_set_int_member (object, "offset",
                                (gint64) g_array_index (data->pieces, RtcPiece, value->first_piece).offset);
  if (value->n_pieces > 1)
    json_object_set_int_member (object, "frames", value->n_pieces);

  {
    const guint8 *p = bytes->data;
    gsize len = bytes->len;

    if (s->annotate && len >= 12)
      {
        KymoTime ns;
        gsize used;

        if (kymo_rtc_read_timespec (data->big_endian, p, 12, &used, &ns))
          json_object_set_int_member (object, "time_ns", ns);
        p += 12;
        len -= 12;
      }
    json_object_set_int_member (object, "size", (gint64) len);
    node = kymo_rtc_value_to_json (s, data->big_endian, p, len);
    if (node)
      json_object_set_member (object, "value", node);
  }
  if (s->target_name)
    json_object_set_string_member (object, "about", s->target_name);

  /* Keys the writer's application added pass through. */
  if (s->object)
    {
      g_autoptr(GList) members = json_object_get_members (s->object);

      for (GList *l = members; l; l = l->next)
        if (kymo_rtc_is_extra_key (l->data) && !json_object_has_member (object, l->data))
          json_object_set_member (object, l->data,
                                  json_node_copy (json_object_get_member (s->object, l->data)));
    }
  return object;
}
