/* kymo-rtc-private.h: what the RTC decoder's files share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-formats.h"
#include "kymo-byte-reader.h"

G_BEGIN_DECLS

/* A Marker is the frame header 0x04 (id 2) and 1024 × 0xB9. */
#define RTC_MARKER_HEADER  0x04
#define RTC_MARKER_BYTE    0xB9
#define RTC_MARKER_SIZE    1025
#define RTC_FRAME_MAX      1024
/* The Crc frame: header 0x10 (id 8) and a u32. */
#define RTC_CRC_HEADER     0x10
#define RTC_CRC_FRAME_SIZE 5
#define RTC_FIRST_USER_ID  9
/* Stream ids are dense from 0; a larger id in hostile meta is refused. */
#define RTC_MAX_STREAM_ID  65535
/* The writer's defaults, used until an Index gives the real sizes. */
#define RTC_DEFAULT_UNIT_SIZE  (G_GUINT64_CONSTANT (1) << 20)
#define RTC_DEFAULT_MINOR_SIZE (G_GUINT64_CONSTANT (1) << 17)
#define RTC_NO_POS G_MAXSIZE
#define RTC_HOT_CLOCK 0xFF

typedef enum {
  RTC_ID_NOP,
  RTC_ID_PADDING,
  RTC_ID_MARKER,
  RTC_ID_INDEX_FULL,   /* "Index" at a Marker */
  RTC_ID_INDEX,        /* "index" at a minor boundary */
  RTC_ID_META_FULL,    /* "Meta" */
  RTC_ID_META,         /* "meta" */
  RTC_ID_PLATFORM,
  RTC_ID_CRC,
} RtcBuiltinId;

typedef enum {
  RTC_FMT_RAW,
  RTC_FMT_INDEX,
  RTC_FMT_JSON,
  RTC_FMT_UTF8,
  RTC_FMT_INT,
  RTC_FMT_FLOAT,
  RTC_FMT_LEB128,
  RTC_FMT_TIMESPEC,
  RTC_FMT_PLATFORM,
  RTC_FMT_UNKNOWN,     /* shown as raw */
} RtcFormatKind;

typedef enum {
  RTC_ORDER_NATIVE,    /* the writer's, from the Platform frame */
  RTC_ORDER_LE,
  RTC_ORDER_BE,
} RtcOrder;

typedef struct {
  RtcFormatKind kind;
  guint8        size;       /* bytes of one int or float */
  gboolean      is_signed;
  RtcOrder      order;
} RtcFormat;

typedef struct {
  guint64 offset;           /* of the payload bytes in the input */
  guint32 len;
} RtcPiece;

typedef struct _RtcStream RtcStream;

/* The samples of one counter track, in the order they are read: built here
 * and handed to the track at the end, so that their pages can be populated
 * ahead (kymo-rtc-ahead.c). Streams of one name share one. */
typedef struct {
  KymoSample *data;
  gsize       len;
  gsize       cap;
  gsize       limit;  /* ≤ cap: where the decoder asks for more pages */
  gsize       asked;  /* pages were asked for up to here */
  guint       track;
} RtcSamples;

typedef struct _RtcAhead RtcAhead;

/* One stream definition. A redefinition of an id makes a new one; the old
 * one stays alive for the events that name it. */
struct _RtcStream
{
  guint32     id;
  guint32     def_index;     /* position in RtcDecoder.defs */
  char       *name;
  char       *format_name;
  RtcFormat   format;        /* for annotate/<fmt>: of <fmt> */
  gboolean    annotate;
  gint64      length;        /* fixed payload length, or -1 */
  gboolean    cont;
  gboolean    is_clock;
  gboolean    has_scale;     /* gain or offset given */
  double      gain;
  double      offset;
  char       *clock_name;    /* "clock": "<name>" */
  char       *delta_name;    /* a delta clock on "<name>" */
  char       *target_name;   /* "stream": the stream an annotation is about */
  char       *unit;
  JsonObject *object;        /* as written, for the extra keys */
  gint64      ns_step;       /* gain in whole ns per count, or 0 */
  gint64      ns_offset;     /* offset in ns */
  gboolean    fast;          /* one fixed-size number per value: no detour */

  /* Decoding state. */
  RtcStream  *clock;
  RtcStream  *delta_base;
  gboolean    has_time;      /* a clock that has a value */
  KymoTime    time;
  gboolean    epoch;         /* a clock relative to the Unix epoch */
  GByteArray *pending;       /* a value continued over several frames */
  GArray     *pieces;        /* of RtcPiece, for that value */
  gboolean    continued;
  guint64     value_offset;  /* of the continued value's first frame */

  /* Model state (kymo-rtc-model.c). The decoder reads samples and
   * clock_noted to skip a callback per value on its hot path: samples of a
   * `fast` stream that have a time go straight into samples once the
   * model has set it, and a clock's ticks need no clock() call once the
   * model has noted the clock and some clock has given a time. */
  guint       track;
  RtcSamples *samples;
  guint64     n_samples;     /* added to samples by the decoder */
  gboolean    clock_noted;
  guint32     name_id;
  GString    *line;          /* a `cont` text line not ended yet */
  KymoTime    line_ts;
  guint32     line_source;
};

typedef struct {
  const guint8   *data;
  gsize           len;
  guint64         offset;    /* of the value's first frame header */
  const RtcPiece *pieces;
  guint           n_pieces;
  /* On the stream's clock; a clock's own new time; an annotation's own
   * time. KYMO_TIME_NONE when there is none yet. */
  KymoTime        ts;
} RtcValue;

typedef struct {
  void (*marker)   (gpointer user, guint64 offset);
  /* Damage that is skipped: decoding goes on. */
  void (*invalid)  (gpointer user, guint64 offset, const char *reason);
  void (*index)    (gpointer user, guint64 offset, gboolean full,
                    const guint8 *data, gsize len);
  void (*meta)     (gpointer user, guint64 offset, JsonArray *streams, gint64 next_id);
  void (*platform) (gpointer user, guint64 offset, gboolean big_endian);
  void (*crc)      (gpointer user, guint64 offset, gboolean ok);
  void (*value)    (gpointer user, RtcStream *stream, const RtcValue *value);
  /* Optional: a value of a `fast` stream, already scaled. */
  void (*sample)   (gpointer user, RtcStream *stream, KymoTime ts, double value,
                    guint64 offset);
  /* Optional, with sample: a clock's new time, instead of value(). */
  void (*clock)    (gpointer user, RtcStream *stream, KymoTime ts);
} RtcCallbacks;

typedef struct {
  const guint8       *data;
  gsize               size;
  KymoLoadJob        *job;
  const RtcCallbacks *cb;
  gpointer            user;

  RtcStream          *builtin[RTC_FIRST_USER_ID];
  GPtrArray          *defs;           /* every RtcStream, owned */
  GPtrArray          *table;          /* id → current RtcStream or NULL */
  GHashTable         *by_name;        /* name → current RtcStream */
  gboolean            big_endian;
  guint64             unit_size;      /* Unit: Marker to Marker */
  guint64             minor_size;     /* unit: index to index */
  gboolean            sizes_known;    /* from an Index, not the defaults */
  guint               n_units;
  guint               n_bad_units;
  gboolean            continuity_lost; /* a value may have begun before what we read */
  gboolean            first_unit;
  gboolean            seen_data;       /* in this Unit, after the Platform frame */
  gboolean            maybe_fragment;
  RtcPiece            single;

  /* The Unit being decoded. */
  gsize               marker;
  gsize               unit_end;       /* where the writer puts the Crc */
  gsize               next_minor;
  gboolean            after_platform;
  gsize               next_progress;

  /* The latest time any clock gave, or KYMO_TIME_NONE: set after the
   * clock() or value() callback of the clock, so those see the one
   * before. */
  KymoTime            last_time;
  /* By one-byte frame header (not continued): 1 + the payload length of
   * a `fast` stream's frame, or RTC_HOT_CLOCK for a variable-length clock,
   * or 0. Saves the hot path a load on the way to the next frame. */
  guint8              hot[0x80];
  /* CRCs and page faults on KymoParts workers, or NULL. */
  RtcAhead           *ahead;
} RtcDecoder;

/* A frame header: one byte, or a LEB128 when longer. */
static inline gboolean
kymo_rtc_read_header (RtcDecoder *d,
                      gsize      *pos,
                      gsize       end,
                      guint64    *out)
{
  KymoByteReader r;

  if (*pos < end && d->data[*pos] < 0x80)
    {
      *out = d->data[(*pos)++];
      return TRUE;
    }
  kymo_byte_reader_init (&r, d->data, end);
  r.pos = *pos;
  if (!kymo_byte_reader_uleb128 (&r, 10, 64, out))
    return FALSE;
  *pos = r.pos;
  return TRUE;
}

static inline void
kymo_rtc_decoder_set_geometry (RtcDecoder *d)
{
  d->unit_end = d->marker + d->unit_size - RTC_CRC_FRAME_SIZE;
  d->next_minor = d->marker + RTC_MARKER_SIZE + d->minor_size;
}

/* kymo-rtc-decoder.c */
void        kymo_rtc_decoder_invalid   (RtcDecoder   *decoder,
                                        guint64       offset,
                                        const char   *format,
                                        ...) G_GNUC_PRINTF (3, 4);
/* kymo-rtc-meta.c */
void        kymo_rtc_decoder_meta      (RtcDecoder   *decoder,
                                        guint64       offset,
                                        const guint8 *data,
                                        gsize         len);
void        kymo_rtc_decoder_index     (RtcDecoder   *decoder,
                                        guint64       offset,
                                        const guint8 *data,
                                        gsize         len,
                                        gboolean      full);
/* kymo-rtc-walk.c: the payload length that lets the rest of the Unit
 * parse (*fragment: shorter than @expected, the rest of a cut value). */
gsize       kymo_rtc_decoder_trial_length (RtcDecoder *decoder,
                                           gsize       payload,
                                           gsize       expected,
                                           gsize       end,
                                           gboolean   *fragment);

/* kymo-rtc-ahead.c */
/* NULL when one thread does all: @options->threads 1 (or a small input
 * when 0); any other number starts workers, which changes nothing in the
 * result (tests compare them). */
RtcAhead   *kymo_rtc_ahead_start       (const guint8          *data,
                                        gsize                  size,
                                        gsize                  first_marker,
                                        const KymoLoadOptions *options);
void        kymo_rtc_ahead_stop        (RtcAhead     *ahead);
/* The CRC of @len bytes at @start when a worker found that Unit; FALSE
 * when the caller must compute it. Asked for in file order. */
gboolean    kymo_rtc_ahead_crc         (RtcAhead     *ahead,
                                        gsize         start,
                                        gsize         len,
                                        guint32      *crc);
/* @samples reached its limit: has the pages after it populated, and sets
 * the next limit. */
void        kymo_rtc_ahead_want_pages  (RtcAhead     *ahead,
                                        RtcSamples   *samples);
/* Before an array that was given to populate moves. */
void        kymo_rtc_ahead_forget_pages (RtcAhead    *ahead);

/* kymo-rtc-decoder.c: sample arrays, grown by doubling as samples come,
 * never from what the input's size promises */
void        kymo_rtc_samples_more      (RtcDecoder   *decoder,
                                        RtcSamples   *samples);

static inline void
kymo_rtc_samples_push (RtcDecoder *decoder,
                       RtcSamples *samples,
                       KymoTime    ts,
                       double      value)
{
  KymoSample *sample;

  if (G_UNLIKELY (samples->len == samples->limit))
    kymo_rtc_samples_more (decoder, samples);
  sample = &samples->data[samples->len++];
  sample->ts = ts;
  sample->value = value;
}

/* kymo-rtc-crc.c */
guint32     kymo_rtc_crc               (const guint8 *data,
                                        gsize         len);

/* kymo-rtc-marker.c */
gboolean    kymo_rtc_is_marker         (const guint8 *data,
                                        gsize         size,
                                        gsize         at);
/* The first Marker starting at or after @from and before @limit, or RTC_NO_POS. */
gsize       kymo_rtc_find_marker       (const guint8 *data,
                                        gsize         size,
                                        gsize         from,
                                        gsize         limit);
/* TRUE when data[at..size) is 0x04 and only 0xB9 bytes: a Marker cut short. */
gboolean    kymo_rtc_is_cut_marker     (const guint8 *data,
                                        gsize         size,
                                        gsize         at);

/* kymo-rtc-stream.c */
RtcStream  *kymo_rtc_stream_new_builtin (guint32      id);
RtcStream  *kymo_rtc_stream_new_from_json (JsonObject *object,
                                           GError    **error);
void        kymo_rtc_stream_free       (RtcStream    *stream);
gboolean    kymo_rtc_stream_same       (const RtcStream *a,
                                        const RtcStream *b);
gboolean    kymo_rtc_parse_format      (const char   *name,
                                        RtcFormat    *format);
/* Parses meta JSON; accepts the bare keys of old writers ({id:9,…}). */
JsonNode   *kymo_rtc_parse_json        (const guint8 *data,
                                        gsize         len,
                                        GError      **error);
gboolean    kymo_rtc_is_extra_key      (const char   *key);

/* kymo-rtc-value.c: numbers and times inside values */
typedef enum {
  RTC_NUM_INT,
  RTC_NUM_UINT,
  RTC_NUM_DOUBLE,
} RtcNumberType;

typedef struct {
  RtcNumberType type;
  union {
    gint64  i;
    guint64 u;
    double  d;
  };
} RtcNumber;

gboolean    kymo_rtc_is_numeric        (const RtcFormat *format);
/* Reads one number at *pos; advances. FALSE when the bytes do not hold one.
 * Inline: it is on the path of every sample. */
static inline guint64
kymo_rtc_read_ordered (const guint8 *p,
              guint         size,
              gboolean      big)
{
  switch (size)
    {
    case 1: return p[0];
    case 2: return big ? kymo_read_u16be (p) : kymo_read_u16le (p);
    case 4: return big ? kymo_read_u32be (p) : kymo_read_u32le (p);
    default: return big ? kymo_read_u64be (p) : kymo_read_u64le (p);
    }
}

static inline gboolean
kymo_rtc_read_number (const RtcFormat *format,
                      gboolean         big_endian,
                      const guint8    *data,
                      gsize            len,
                      gsize           *pos,
                      RtcNumber       *out)
{
  gboolean big = format->order == RTC_ORDER_NATIVE ? big_endian : format->order == RTC_ORDER_BE;
  guint64 raw;

  if (*pos >= len)
    return FALSE;

  if (format->kind == RTC_FMT_LEB128)
    {
      guint64 v = 0;
      guint shift = 0;
      gsize p = *pos;
      guint8 b;

      do
        {
          if (p >= len || shift >= 70)
            return FALSE;
          b = data[p++];
          if (shift < 64)
            v |= (guint64) (b & 0x7F) << shift;
          shift += 7;
        }
      while (b & 0x80);
      *pos = p;
      if (format->is_signed)
        {
          if (shift < 64 && (b & 0x40))
            v |= G_MAXUINT64 << shift;
          out->type = RTC_NUM_INT;
          out->i = (gint64) v;
        }
      else
        {
          out->type = RTC_NUM_UINT;
          out->u = v;
        }
      return TRUE;
    }

  if (format->size == 0 || len - *pos < format->size)
    return FALSE;
  raw = kymo_rtc_read_ordered (data + *pos, format->size, big);
  *pos += format->size;

  if (format->kind == RTC_FMT_FLOAT)
    {
      out->type = RTC_NUM_DOUBLE;
      if (format->size == 4)
        {
          guint32 bits = (guint32) raw;
          float f;
          memcpy (&f, &bits, sizeof f);
          out->d = f;
        }
      else
        memcpy (&out->d, &raw, sizeof out->d);
    }
  else if (format->is_signed)
    {
      guint shift = 64 - 8u * format->size;
      out->type = RTC_NUM_INT;
      out->i = shift ? (gint64) (raw << shift) >> shift : (gint64) raw;
    }
  else
    {
      out->type = RTC_NUM_UINT;
      out->u = raw;
    }
  return TRUE;
}

static inline double
kymo_rtc_number_to_double (const RtcNumber *number)
{
  switch (number->type)
    {
    case RTC_NUM_INT: return (double) number->i;
    case RTC_NUM_UINT: return (double) number->u;
    default: return number->d;
    }
}

static inline double
kymo_rtc_scaled (const RtcStream *stream,
                 const RtcNumber *number)
{
  return kymo_rtc_number_to_double (number) * stream->gain + stream->offset;
}

/* A timespec (u64 sec, u32 nsec; 12 or 16 bytes) in ns. */
gboolean    kymo_rtc_read_timespec     (gboolean         big_endian,
                                        const guint8    *data,
                                        gsize            len,
                                        gsize           *consumed,
                                        KymoTime        *ns);
/* round((value × gain + offset) × 1e9), exact for integer nanoseconds. */
gboolean    kymo_rtc_seconds_to_ns     (const RtcStream *stream,
                                        const RtcNumber *number,
                                        KymoTime        *ns);
/* The value as JSON for dump and details (NULL when it does not decode). */
JsonNode   *kymo_rtc_value_to_json     (const RtcStream *stream,
                                        gboolean         big_endian,
                                        const guint8    *data,
                                        gsize            len);
/* Text for an annotation or a log line. */
char       *kymo_rtc_value_to_text     (const RtcStream *stream,
                                        gboolean         big_endian,
                                        const guint8    *data,
                                        gsize            len);

/* kymo-rtc-decoder.c */
void        kymo_rtc_decoder_init      (RtcDecoder         *decoder,
                                        KymoLoadJob        *job,
                                        const guint8       *data,
                                        gsize               size,
                                        const RtcCallbacks *callbacks,
                                        gpointer            user);
void        kymo_rtc_decoder_clear     (RtcDecoder         *decoder);
/* FALSE with @error when the input ends inside a record or the load was
 * cancelled; everything before is delivered. */
gboolean    kymo_rtc_decoder_run       (RtcDecoder         *decoder,
                                        GError            **error);

/* kymo-rtc-model.c */
gboolean    kymo_rtc_load              (KymoLoadJob        *job,
                                        KymoTrace          *trace,
                                        GError            **error);
JsonObject *kymo_rtc_describe          (KymoTrace          *trace,
                                        const KymoEventRef *ref);

/* kymo-rtc-dump.c */
gboolean    kymo_rtc_dump              (KymoLoadJob        *job,
                                        KymoJsonWriter     *out,
                                        GError            **error);

G_END_DECLS
