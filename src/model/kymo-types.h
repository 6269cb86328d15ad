/* kymo-types.h: the plain records every format loads into
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Every time in the model is in nanoseconds on the trace's own clock. */
typedef gint64 KymoTime;

#define KYMO_TIME_NONE G_MININT64
#define KYMO_NO_SOURCE G_MAXUINT32
#define KYMO_NO_TRACK  G_MAXUINT
#define KYMO_NO_OFFSET G_MAXUINT64

/* Name ids are 24 bits so that a span stays 24 bytes; the high byte holds flags. */
#define KYMO_NAME_MAX 0xFFFFFFu

typedef enum {
  KYMO_EVENT_INCOMPLETE = 1 << 0, /* never closed: runs to the end of the trace */
  KYMO_EVENT_OVERHEAD   = 1 << 1, /* tracing overhead (WTF enterTracing) */
  KYMO_EVENT_INTERNAL   = 1 << 2, /* hidden unless the user asks */
  KYMO_EVENT_LINKED     = 1 << 3, /* has a linked record (ATF index <-> detail) */
  KYMO_EVENT_WARNING    = 1 << 4, /* drawn as a problem (dropped events, bad frame) */
  KYMO_EVENT_STATE      = 1 << 5, /* a state lane segment rather than a call */
  KYMO_EVENT_USER1      = 1 << 6, /* free for the format */
  KYMO_EVENT_USER2      = 1 << 7,
} KymoEventFlags;

/* 24 bytes: depth is implied by the depth run the span is stored in. */
typedef struct {
  KymoTime start;
  KymoTime end;
  guint32  name_flags;  /* name id (low 24 bits) | KymoEventFlags << 24 */
  guint32  source;      /* format-defined reference to the source record */
} KymoSpan;

static inline guint32
kymo_span_name (const KymoSpan *span)
{
  return span->name_flags & KYMO_NAME_MAX;
}

static inline guint
kymo_span_flags (const KymoSpan *span)
{
  return span->name_flags >> 24;
}

typedef struct {
  KymoTime ts;
  guint32  name_flags;  /* as in KymoSpan */
  guint32  source;
} KymoInstant;

typedef struct {
  KymoTime ts;
  double   value;
} KymoSample;

typedef struct {
  KymoTime    start;
  KymoTime    end;      /* == start for a point */
  guint32     name;     /* a short label (interned) */
  guint32     source;
  const char *text;     /* owned by the trace */
} KymoAnnotation;

typedef struct {
  guint    from_track;
  guint    to_track;
  KymoTime from_ts;
  KymoTime to_ts;
  guint32  name;
  guint32  source;
} KymoFlow;

typedef struct {
  guint64  offset;      /* byte offset in the input, or KYMO_NO_OFFSET */
  KymoTime ts;          /* where to show it on the timeline, or KYMO_TIME_NONE */
  char    *message;
} KymoWarning;

typedef enum {
  KYMO_TRACK_GROUP,       /* process / zone / core / runtime: holds other tracks */
  KYMO_TRACK_THREAD,      /* nested spans and instants */
  KYMO_TRACK_COUNTER,     /* samples */
  KYMO_TRACK_INSTANT,     /* instants only */
  KYMO_TRACK_MARKER,      /* markers and ranges with text */
  KYMO_TRACK_ANNOTATION,  /* annotations with text */
  KYMO_TRACK_LOG,         /* text lines over time */
} KymoTrackKind;

typedef enum {
  KYMO_EVENT_KIND_NONE,
  KYMO_EVENT_KIND_SPAN,
  KYMO_EVENT_KIND_INSTANT,
  KYMO_EVENT_KIND_SAMPLE,
  KYMO_EVENT_KIND_ANNOTATION,
} KymoEventKind;

/* Names one event in a sealed trace. For spans, @index is the position in the
 * track's span array (all depths, see kymo_track_get_spans()). */
typedef struct {
  guint         track;
  KymoEventKind kind;
  guint         index;
} KymoEventRef;

const char *kymo_track_kind_to_string (KymoTrackKind kind);

G_END_DECLS
