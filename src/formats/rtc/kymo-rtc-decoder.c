/* kymo-rtc-decoder.c: Units, frames, continued values and clocks
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include "kymo-rtc-private.h"

/* A value continued over more frames than this is refused. */
#define MAX_VALUE_SIZE ((gsize) 64 << 20)
#define PROGRESS_STEP (64 * 1024)

typedef enum {
  FRAME_OK,
  FRAME_SKIP_UNIT,  /* damage: go on at the next Marker */
  FRAME_STOP,       /* truncated or cancelled: @error is set */
} FrameResult;

void
kymo_rtc_decoder_invalid (RtcDecoder *d,
                          guint64     offset,
                          const char *format,
                          ...)
{
  g_autofree char *reason = NULL;
  va_list args;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  if (d->cb->invalid)
    d->cb->invalid (d->user, offset, reason);
}

void
kymo_rtc_decoder_init (RtcDecoder         *d,
                       KymoLoadJob        *job,
                       const guint8       *data,
                       gsize               size,
                       const RtcCallbacks *callbacks,
                       gpointer            user)
{
  memset (d, 0, sizeof *d);
  d->job = job;
  d->data = data;
  d->size = size;
  d->cb = callbacks;
  d->user = user;
  d->defs = g_ptr_array_new_with_free_func ((GDestroyNotify) kymo_rtc_stream_free);
  d->table = g_ptr_array_new ();
  d->by_name = g_hash_table_new (g_str_hash, g_str_equal);
  d->unit_size = RTC_DEFAULT_UNIT_SIZE;
  d->minor_size = RTC_DEFAULT_MINOR_SIZE;
  d->first_unit = TRUE;
  d->last_time = KYMO_TIME_NONE;

  for (guint32 id = 0; id < RTC_FIRST_USER_ID; id++)
    {
      RtcStream *stream = kymo_rtc_stream_new_builtin (id);

      stream->def_index = d->defs->len;
      g_ptr_array_add (d->defs, stream);
      g_ptr_array_add (d->table, stream);
      d->builtin[id] = stream;
    }
}

void
kymo_rtc_decoder_clear (RtcDecoder *d)
{
  g_clear_pointer (&d->by_name, g_hash_table_unref);
  g_clear_pointer (&d->table, g_ptr_array_unref);
  g_clear_pointer (&d->defs, g_ptr_array_unref);
}

static void
reset_values (RtcDecoder *d)
{
  for (guint i = 0; i < d->defs->len; i++)
    {
      RtcStream *stream = d->defs->pdata[i];

      stream->continued = FALSE;
      g_byte_array_set_size (stream->pending, 0);
      g_array_set_size (stream->pieces, 0);
    }
}

static RtcStream *
lookup_clock (RtcDecoder *d,
              const char *name)
{
  RtcStream *clock = g_hash_table_lookup (d->by_name, name);

  return clock != NULL && clock->is_clock ? clock : NULL;
}

/* Streams name their clock; the clock may be redefined later. */
static RtcStream *
stream_clock (RtcDecoder *d,
              RtcStream  *stream)
{
  RtcStream *clock = stream->clock;

  if (stream->clock_name == NULL)
    return NULL;
  if (clock == NULL || d->table->pdata[clock->id] != clock)
    stream->clock = clock = lookup_clock (d, stream->clock_name);
  return clock;
}


static gboolean
update_clock (RtcDecoder *d,
              RtcStream  *s,
              RtcValue   *v)
{
  KymoTime ns;
  gboolean epoch = FALSE;

  if (s->format.kind == RTC_FMT_TIMESPEC)
    {
      gsize used;

      if (!kymo_rtc_read_timespec (d->big_endian, v->data, v->len, &used, &ns) || used != v->len)
        return FALSE;
      epoch = TRUE;
    }
  else if (kymo_rtc_is_numeric (&s->format))
    {
      RtcNumber number;
      gsize pos = 0;

      if (!kymo_rtc_read_number (&s->format, d->big_endian, v->data, v->len, &pos, &number) ||
          pos != v->len || !kymo_rtc_seconds_to_ns (s, &number, &ns))
        return FALSE;
    }
  else
    return FALSE;

  if (s->delta_name != NULL)
    {
      RtcStream *base = s->delta_base;

      if (base == NULL || d->table->pdata[base->id] != base)
        s->delta_base = base = lookup_clock (d, s->delta_name);
      if (base == NULL || base == s || !base->has_time)
        return TRUE;
      if ((ns > 0 && base->time > G_MAXINT64 - ns) || (ns < 0 && base->time < G_MININT64 + 1 - ns))
        return FALSE;
      ns += base->time;
      epoch = base->epoch;
    }
  s->time = ns;
  s->has_time = TRUE;
  s->epoch = epoch;
  v->ts = ns;
  return TRUE;
}

static void
deliver (RtcDecoder *d,
         RtcStream  *s,
         RtcValue   *v)
{
  v->ts = KYMO_TIME_NONE;
  if (s->is_clock)
    {
      if (!update_clock (d, s, v))
        {
          if (d->maybe_fragment)
            kymo_rtc_decoder_invalid (d, v->offset, "clock \"%s\": the rest of a value begun before the data read", s->name);
          else
            kymo_rtc_decoder_invalid (d, v->offset, "clock \"%s\": %zu bytes are not a %s value",
                     s->name, v->len, s->format_name);
          return;
        }
    }
  else if (s->annotate)
    {
      gsize used;

      if (!kymo_rtc_read_timespec (d->big_endian, v->data, MIN (v->len, 12), &used, &v->ts))
        {
          kymo_rtc_decoder_invalid (d, v->offset, "annotation \"%s\" does not start with a timespec", s->name);
          return;
        }
      v->data += used;
      v->len -= used;
    }
  else
    {
      RtcStream *clock = stream_clock (d, s);

      if (clock != NULL && clock->has_time)
        v->ts = clock->time;
    }
  if (d->cb->value)
    d->cb->value (d->user, s, v);
  if (s->is_clock && v->ts != KYMO_TIME_NONE)
    d->last_time = v->ts;
}

/* Joins continued frames. TRUE when @v holds a complete value. */
static gboolean
collect (RtcDecoder   *d,
         RtcStream    *s,
         gsize         header,
         gsize         payload,
         gsize         len,
         gboolean      more,
         RtcValue     *v)
{
  if (!more && !s->continued)
    {
      d->single.offset = payload;
      d->single.len = (guint32) len;
      v->data = d->data + payload;
      v->len = len;
      v->offset = header;
      v->pieces = &d->single;
      v->n_pieces = 1;
      return TRUE;
    }

  if (!s->continued)
    {
      g_byte_array_set_size (s->pending, 0);
      g_array_set_size (s->pieces, 0);
      s->value_offset = header;
    }
  if (s->pending->len + len > MAX_VALUE_SIZE)
    {
      kymo_rtc_decoder_invalid (d, s->value_offset, "a value of stream \"%s\" continues past %zu bytes; dropped",
               s->name, (gsize) MAX_VALUE_SIZE);
      s->continued = FALSE;
      g_byte_array_set_size (s->pending, 0);
      g_array_set_size (s->pieces, 0);
      return FALSE;
    }
  g_byte_array_append (s->pending, d->data + payload, (guint) len);
  {
    RtcPiece piece = { payload, (guint32) len };
    g_array_append_val (s->pieces, piece);
  }
  s->continued = more;
  if (more)
    return FALSE;
  v->data = s->pending->data;
  v->len = s->pending->len;
  v->offset = s->value_offset;
  v->pieces = (const RtcPiece *) (gpointer) s->pieces->data;
  v->n_pieces = s->pieces->len;
  return TRUE;
}

/* The payload length of a frame of a fixed-length stream: the rest of the
 * value, cut where the writer had to stop at a unit or Unit boundary. */
static gsize
fixed_length (RtcDecoder *d,
              RtcStream  *s,
              gsize       header,
              gsize       payload,
              gboolean    more,
              gsize      *minor)
{
  gsize expected = (gsize) s->length;

  if (s->continued && s->length > 0)
    expected = (gsize) s->length - s->pending->len % (gsize) s->length;
  expected = MIN (expected, RTC_FRAME_MAX);

  if (more && header < d->unit_end && s->id != RTC_ID_MARKER)
    {
      gsize boundary;

      while (header >= *minor)
        *minor += d->minor_size;
      boundary = MIN (*minor, d->unit_end);
      if (payload < boundary && expected > boundary - payload)
        expected = boundary - payload;
    }
  return expected;
}


static FrameResult
overrun (RtcDecoder  *d,
         gsize        header,
         gsize        end,
         RtcStream   *s,
         GError     **error)
{
  if (end == d->size)
    {
      kymo_load_job_set_error (d->job, error, KYMO_LOAD_ERROR_TRUNCATED, header,
                               "the input ends inside a %s frame",
                               s ? s->name : "RTC");
      return FRAME_STOP;
    }
  kymo_rtc_decoder_invalid (d, header, "a frame runs into the next Marker; %zu bytes skipped", end - header);
  return FRAME_SKIP_UNIT;
}

static void
check_crc (RtcDecoder   *d,
           gsize         header,
           gsize         end,
           gboolean      verified,
           const guint8 *payload)
{
  gsize start = d->marker + RTC_MARKER_SIZE;
  gboolean ok = verified && header == end - RTC_CRC_FRAME_SIZE;

  if (!ok)
    {
      guint32 crc = kymo_rtc_crc (d->data + start, header - start);
      guint32 stored = d->big_endian ? kymo_read_u32be (payload) : kymo_read_u32le (payload);

      ok = crc == stored;
      if (!ok)
        kymo_rtc_decoder_invalid (d, d->marker, "CRC mismatch in the Unit of %zu bytes at offset %zu",
                 header - start, (gsize) d->marker);
    }
  if (d->cb->crc)
    d->cb->crc (d->user, header, ok);
}

/* One fixed-size int or float, scaled: what most frames of a data
 * logger hold. */
static inline double
fast_value (const RtcStream *s,
            gboolean         big_endian,
            const guint8    *p)
{
  const RtcFormat *f = &s->format;
  gboolean big = f->order == RTC_ORDER_NATIVE ? big_endian : f->order == RTC_ORDER_BE;
  guint64 raw = kymo_rtc_read_ordered (p, f->size, big);
  double v;

  if (f->kind == RTC_FMT_FLOAT)
    {
      if (f->size == 4)
        {
          guint32 bits = (guint32) raw;
          float x;

          memcpy (&x, &bits, sizeof x);
          v = x;
        }
      else
        memcpy (&v, &raw, sizeof v);
    }
  else if (f->is_signed)
    {
      guint shift = 64 - 8u * f->size;
      v = (double) ((gint64) (raw << shift) >> shift);
    }
  else
    v = (double) raw;
  return v * s->gain + s->offset;
}

/* A clock tick of an unsigned LEB128 counter in whole nanoseconds, as
 * delta clocks are: decoded without the detour through RtcValue. FALSE
 * leaves the frame to the general path. */
static inline gboolean
fast_clock (RtcDecoder   *d,
            RtcStream    *s,
            RtcStream   **table,
            const guint8 *p,
            gsize         len)
{
  guint64 raw = 0;
  gint64 ns;
  gsize i = 0;
  guint shift = 0;

  if (s->format.kind != RTC_FMT_LEB128 || s->format.is_signed || s->ns_step == 0 || len > 9)
    return FALSE;
  for (;;)
    {
      if (i >= len)
        return FALSE;
      raw |= (guint64) (p[i] & 0x7F) << shift;
      shift += 7;
      if ((p[i++] & 0x80) == 0)
        break;
    }
  if (i != len || raw > (guint64) G_MAXINT64 ||
      __builtin_mul_overflow ((gint64) raw, s->ns_step, &ns) ||
      __builtin_add_overflow (ns, s->ns_offset, &ns))
    return FALSE;
  if (s->delta_name != NULL)
    {
      RtcStream *base = s->delta_base;

      if (base == NULL || table[base->id] != base)
        s->delta_base = base = lookup_clock (d, s->delta_name);
      if (base == NULL || base == s || !base->has_time ||
          __builtin_add_overflow (ns, base->time, &ns))
        return FALSE;
      s->epoch = base->epoch;
    }
  s->time = ns;
  s->has_time = TRUE;
  if (G_UNLIKELY (d->last_time == KYMO_TIME_NONE || !s->clock_noted))
    d->cb->clock (d->user, s, ns);
  d->last_time = ns;
  return TRUE;
}

/* A value of a `fast` stream: into its track when the model gave one and
 * the value has a time, as nearly all have; through the callback else. */
static inline void
fast_sample (RtcDecoder   *d,
             RtcStream    *s,
             RtcStream   **table,
             const guint8 *p,
             gsize         header)
{
  RtcStream *clock = s->clock;
  KymoTime ts;
  double value;

  if (G_UNLIKELY (clock == NULL || table[clock->id] != clock))
    clock = stream_clock (d, s);
  ts = clock != NULL && clock->has_time ? clock->time : KYMO_TIME_NONE;
  value = fast_value (s, d->big_endian, p);
  if (G_LIKELY (s->samples != NULL && ts != KYMO_TIME_NONE))
    {
      kymo_rtc_samples_push (d, s->samples, ts, value);
      s->n_samples++;
    }
  else
    d->cb->sample (d->user, s, ts, value, header);
}

/* The frames a data logger writes most, back to back: one-byte headers of
 * `fast` streams holding one number, and of clock ticks (see build_hot).
 * Returns where the first other frame is, or @stop; that frame goes the
 * general way, which gives the same result for any frame this leaves. A
 * loop of its own, with the decoder's fields it needs in locals: the
 * stores of samples would make the compiler load them again per frame. */
static gsize
hot_frames (RtcDecoder  *d,
            RtcStream  **table,
            gsize        pos,
            gsize        stop,
            gsize        end)
{
  const guint8 *data = d->data;
  const guint8 *hot = d->hot;
  const gboolean big_endian = d->big_endian;

  while (pos < stop)
    {
      guint h = data[pos], step;
      RtcStream *s;

      if (h >= 0x80 || (step = hot[h]) == 0 || (s = table[h >> 1])->continued)
        break;
      if (step != RTC_HOT_CLOCK)
        {
          RtcStream *clock = s->clock;
          RtcSamples *samples = s->samples;

          /* A clock not looked up yet or redefined, no time yet, or no
           * array yet: fast_sample() sees to those. */
          if (G_UNLIKELY (end - pos < step || clock == NULL || table[clock->id] != clock ||
                          !clock->has_time || samples == NULL))
            break;
          kymo_rtc_samples_push (d, samples, clock->time, fast_value (s, big_endian, data + pos + 1));
          s->n_samples++;
          pos += step;
        }
      else
        {
          gsize len;

          if (end - pos <= 2 || data[pos + 1] >= 0x80)
            break;
          len = data[pos + 1];
          if (end - pos - 2 < len || !fast_clock (d, s, table, data + pos + 2, len))
            break;
          pos += 2 + len;
        }
    }
  return pos;
}

static FrameResult
decode_unit (RtcDecoder  *d,
             gsize        end,
             gboolean     verified,
             GError     **error)
{
  const guint8 *data = d->data;
  gsize pos = d->marker + RTC_MARKER_SIZE;
  const gboolean can_hot = d->cb->sample != NULL && d->cb->clock != NULL;
  /* Only a Meta frame changes the table. */
  RtcStream **table = (RtcStream **) d->table->pdata;
  guint n_table = d->table->len;

  d->seen_data = FALSE;
  while (pos < end)
    {
      gsize header = pos, payload, len;
      guint64 hdr, id;
      gboolean more;
      RtcStream *s;
      RtcValue v;

      if (G_UNLIKELY (header >= d->next_progress))
        {
          d->next_progress = header + PROGRESS_STEP;
          if (d->job && !kymo_load_job_progress (d->job, (double) header / (double) d->size, NULL, error))
            return FRAME_STOP;
        }

      if (G_LIKELY (can_hot && d->seen_data))
        {
          gsize next = hot_frames (d, table, pos, MIN (end, d->next_progress), end);

          if (next != pos)
            {
              pos = next;
              continue;
            }
        }

      /* A run of Nop frames, as a preallocated or crashed writer leaves. */
      if (G_UNLIKELY (data[pos] == 0) && n_table > RTC_ID_NOP && table[RTC_ID_NOP] != NULL &&
          table[RTC_ID_NOP]->id == RTC_ID_NOP && table[RTC_ID_NOP]->length == 0 &&
          !table[RTC_ID_NOP]->continued && !d->continuity_lost)
        {
          gsize to = MIN (end, d->next_progress);

          if (to - pos > 1)
            {
              pos = kymo_skip_zeros (data, pos, to);
              continue;
            }
        }

      if (G_LIKELY (data[pos] < 0x80))
        hdr = data[pos++];
      else if (!kymo_rtc_read_header (d, &pos, end, &hdr))
        return overrun (d, header, end, NULL, error);
      id = hdr >> 1;
      more = hdr & 1;
      if (G_UNLIKELY (id >= n_table || (s = table[id]) == NULL))
        {
          kymo_rtc_decoder_invalid (d, header, "frame of unknown stream %" G_GUINT64_FORMAT "; %zu bytes skipped",
                   id, end - header);
          return FRAME_SKIP_UNIT;
        }

      if (G_LIKELY (s->length >= 0 && !more && !s->continued && !d->continuity_lost))
        {
          len = MIN ((gsize) s->length, RTC_FRAME_MAX);
          if (G_UNLIKELY (len > end - pos))
            return overrun (d, header, end, s, error);
        }
      else if (s->length >= 0)
        {
          gboolean fragment = FALSE;

          len = fixed_length (d, s, header, pos, more, &d->next_minor);
          if (G_UNLIKELY (d->continuity_lost && !d->seen_data && s->id >= RTC_FIRST_USER_ID &&
                          !s->continued && pos <= end))
            len = kymo_rtc_decoder_trial_length (d, pos, len, end, &fragment);
          if (len > end - pos)
            return overrun (d, header, end, s, error);
          if (G_UNLIKELY (fragment))
            {
              /* The head of this value was before where we began. */
              kymo_rtc_decoder_invalid (d, header, "the rest of a \"%s\" value begun before the first Marker read",
                       s->name);
              pos += len;
              d->seen_data = TRUE;
              d->continuity_lost = FALSE;
              continue;
            }
        }
      else
        {
          guint64 n;

          if (G_LIKELY (pos < end && data[pos] < 0x80))
            n = data[pos++];
          else
            {
              KymoByteReader r;

              kymo_byte_reader_init (&r, data, end);
              r.pos = pos;
              if (!kymo_byte_reader_uleb128 (&r, 10, 64, &n))
                return overrun (d, header, end, s, error);
              pos = r.pos;
            }
          if (n > end - pos)
            return overrun (d, header, end, s, error);
          len = (gsize) n;
        }
      payload = pos;
      pos += len;

      if (G_LIKELY (s->id >= RTC_FIRST_USER_ID))
        {
          if (G_UNLIKELY (!d->seen_data))
            {
              /* The first value after a lost start may be the tail of one. */
              d->maybe_fragment = d->continuity_lost && !more && !s->continued;
              d->seen_data = TRUE;
              d->continuity_lost = FALSE;
              if (collect (d, s, header, payload, len, more, &v))
                deliver (d, s, &v);
              d->maybe_fragment = FALSE;
              continue;
            }
          if (G_LIKELY (s->fast && !more && !s->continued && len == s->format.size && d->cb->sample))
            {
              fast_sample (d, s, table, data + payload, header);
              continue;
            }
          if (s->is_clock && !more && !s->continued && d->cb->clock != NULL &&
              fast_clock (d, s, table, data + payload, len))
            continue;
          if (collect (d, s, header, payload, len, more, &v))
            deliver (d, s, &v);
          continue;
        }

      switch (s->id)
        {
        case RTC_ID_NOP:
        case RTC_ID_PADDING:
          break;

        case RTC_ID_MARKER:
          /* Whole Markers end the Unit before this; this one is damaged. */
          kymo_rtc_decoder_invalid (d, header, "a damaged Marker; %zu bytes skipped", end - header);
          return FRAME_SKIP_UNIT;

        case RTC_ID_INDEX_FULL:
        case RTC_ID_INDEX:
        case RTC_ID_META_FULL:
        case RTC_ID_META:
          if (!collect (d, s, header, payload, len, more, &v))
            break;
          if (s->id == RTC_ID_INDEX_FULL || s->id == RTC_ID_INDEX)
            kymo_rtc_decoder_index (d, v.offset, v.data, v.len, s->id == RTC_ID_INDEX_FULL);
          else
            {
              kymo_rtc_decoder_meta (d, v.offset, v.data, v.len);
              table = (RtcStream **) d->table->pdata;
              n_table = d->table->len;
            }
          break;

        case RTC_ID_PLATFORM:
          if (len == 4 && (kymo_read_u32le (data + payload) == 0x01020304 ||
                           kymo_read_u32be (data + payload) == 0x01020304))
            {
              d->big_endian = kymo_read_u32be (data + payload) == 0x01020304;
              if (d->cb->platform)
                d->cb->platform (d->user, header, d->big_endian);
            }
          else
            kymo_rtc_decoder_invalid (d, header, "a Platform frame without 0x01020304");
          break;

        case RTC_ID_CRC:
          if (len == 4)
            check_crc (d, header, end, verified, data + payload);
          break;

        default:
          g_assert_not_reached ();
        }
    }
  return FRAME_OK;
}

void
kymo_rtc_samples_more (RtcDecoder *d,
                       RtcSamples *samples)
{
  if (samples->len == samples->cap)
    {
      gsize n = MAX (samples->cap * 2, 256);

      /* The workers must not populate where the array was. */
      if (d->ahead != NULL)
        kymo_rtc_ahead_forget_pages (d->ahead);
      samples->data = g_realloc_n (samples->data, n, sizeof (KymoSample));
      samples->cap = n;
      samples->asked = samples->len;
    }
  if (d->ahead != NULL)
    kymo_rtc_ahead_want_pages (d->ahead, samples);
  else
    samples->limit = samples->cap;
}

/* From the first Marker on. */
static gboolean
decode_units (RtcDecoder  *d,
              gsize        marker,
              GError     **error)
{
  const guint8 *data = d->data;
  gsize size = d->size;

  while (marker != RTC_NO_POS)
    {
      gsize next = RTC_NO_POS, end, start = marker + RTC_MARKER_SIZE;
      gboolean verified = FALSE;
      FrameResult result;

      d->marker = marker;
      d->n_units++;
      if (d->cb->marker)
        d->cb->marker (d->user, marker);

      /* The next Marker ends the Unit: one Unit size on, once an Index gave
       * the size. Not before: a step of the writer's default size over
       * (say) 64 KiB Units read 16 of them as one, failed its CRC, and so
       * on to the end of the file. */
      if (d->sizes_known && d->unit_size <= size - marker &&
          kymo_rtc_is_marker (data, size, marker + d->unit_size))
        next = marker + d->unit_size;
      else
        next = kymo_rtc_find_marker (data, size, start, size);
      end = next == RTC_NO_POS ? size : next;

      /* A Unit ends with its Crc frame: check it before reading, so that a
       * damaged Unit is skipped whole. */
      if (end - start >= RTC_CRC_FRAME_SIZE && data[end - RTC_CRC_FRAME_SIZE] == RTC_CRC_HEADER)
        {
          gsize len = end - RTC_CRC_FRAME_SIZE - start;
          const guint8 *stored = data + end - 4;
          guint32 crc;

          if (d->ahead == NULL || !kymo_rtc_ahead_crc (d->ahead, start, len, &crc))
            crc = kymo_rtc_crc (data + start, len);

          if (crc == kymo_read_u32le (stored) || crc == kymo_read_u32be (stored))
            verified = TRUE;
          else if (next != RTC_NO_POS)
            {
              d->n_bad_units++;
              kymo_rtc_decoder_invalid (d, marker, "CRC mismatch in the Unit of %zu bytes at offset %zu; Unit skipped",
                       end - RTC_CRC_FRAME_SIZE - start, marker);
              reset_values (d);
              d->continuity_lost = TRUE;
              d->first_unit = FALSE;
              marker = next;
              continue;
            }
        }

      kymo_rtc_decoder_set_geometry (d);
      result = decode_unit (d, end, verified, error);
      d->first_unit = FALSE;
      if (result == FRAME_STOP)
        return FALSE;
      if (result == FRAME_SKIP_UNIT)
        {
          reset_values (d);
          d->continuity_lost = TRUE;
        }
      marker = next;
    }

  for (guint i = RTC_FIRST_USER_ID; i < d->defs->len; i++)
    {
      RtcStream *stream = d->defs->pdata[i];

      if (stream->continued)
        {
          kymo_load_job_set_error (d->job, error, KYMO_LOAD_ERROR_TRUNCATED, stream->value_offset,
                                   "the input ends inside a value of stream \"%s\"", stream->name);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
kymo_rtc_decoder_run (RtcDecoder  *d,
                      GError     **error)
{
  const guint8 *data = d->data;
  gsize size = d->size;
  gsize marker = kymo_rtc_find_marker (data, size, 0, size);
  gboolean ok;

  if (marker == RTC_NO_POS)
    {
      if (kymo_rtc_is_cut_marker (data, size, 0))
        {
          kymo_load_job_set_error (d->job, error, KYMO_LOAD_ERROR_TRUNCATED, 0,
                                   "the input ends inside the first Marker");
          return FALSE;
        }
      if (size > 0)
        kymo_rtc_decoder_invalid (d, 0, "%zu bytes without a Marker", size);
      return TRUE;
    }
  if (marker > 0)
    {
      kymo_rtc_decoder_invalid (d, 0, "%zu bytes before the first Marker", marker);
      d->continuity_lost = TRUE;
    }
  d->ahead = kymo_rtc_ahead_start (data, size, marker, d->job != NULL ? kymo_load_job_get_options (d->job) : NULL);
  ok = decode_units (d, marker, error);
  g_clear_pointer (&d->ahead, kymo_rtc_ahead_stop);
  return ok;
}
