/* wtf-writer.h: a small .wtf-trace writer for tests, the fuzz corpus and the
 * benchmark (legacy big- and little-endian, and chunked v10)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>
#include <glib.h>

typedef enum {
  WW_LEGACY_BE,
  WW_LEGACY_LE,
  WW_CHUNKED,
} WwForm;

/* Argument type letters for ww_arg(): the signature's types in order. */
typedef enum {
  WW_BOOL, WW_INT8, WW_UINT8, WW_INT16, WW_UINT16, WW_INT32, WW_UINT32,
  WW_FLOAT32, WW_ASCII, WW_UTF8, WW_CHAR, WW_WCHAR, WW_ANY, WW_FLOWID, WW_TIME32,
} WwType;

typedef struct {
  WwForm      form;
  gboolean    legacy_part;   /* chunked: this chunk's events use a legacy part */
  GByteArray *file;
  GByteArray *events;        /* the current buffer */
  GPtrArray  *strings;       /* the current chunk's string table */
  GHashTable *string_ids;
  guint       n_events;
} WwWriter;

static inline void
ww_raw (GByteArray *out, guint64 v, guint n, gboolean be)
{
  guint8 b[8];
  for (guint i = 0; i < n; i++)
    b[be ? n - 1 - i : i] = (guint8) (v >> (8 * i));
  g_byte_array_append (out, b, n);
}

static inline gboolean
ww_be (WwWriter *w)
{
  return w->form == WW_LEGACY_BE || (w->form == WW_CHUNKED && w->legacy_part);
}

static inline gboolean
ww_slots (WwWriter *w)
{
  return w->form == WW_CHUNKED && !w->legacy_part;
}

static inline void
ww_put (WwWriter *w, guint64 v, guint n)
{
  ww_raw (w->events, v, n, ww_be (w));
}

static inline guint32
ww_string_id (WwWriter *w, const char *s)
{
  gpointer id;

  if (g_hash_table_lookup_extended (w->string_ids, s, NULL, &id))
    return GPOINTER_TO_UINT (id);
  g_ptr_array_add (w->strings, g_strdup (s));
  g_hash_table_insert (w->string_ids, g_ptr_array_index (w->strings, w->strings->len - 1),
                       GUINT_TO_POINTER (w->strings->len - 1));
  return w->strings->len - 1;
}

static inline void
ww_header_string (GByteArray *out, const char *s, gboolean be)
{
  gsize len = s ? strlen (s) : 0;

  ww_raw (out, s ? g_utf8_strlen (s, -1) : 0, 2, be);
  if (s == NULL)
    return;
  ww_raw (out, len, 2, be);
  g_byte_array_append (out, (const guint8 *) s, len);
}

static inline WwWriter *
ww_new (WwForm      form,
        const char *context_json,
        const char *metadata_json,
        guint64     timebase_ms)
{
  WwWriter *w = g_new0 (WwWriter, 1);
  gboolean be = form == WW_LEGACY_BE;

  w->form = form;
  w->file = g_byte_array_new ();
  w->events = g_byte_array_new ();
  w->strings = g_ptr_array_new_with_free_func (g_free);
  w->string_ids = g_hash_table_new (g_str_hash, g_str_equal);

  ww_raw (w->file, 0xDEADBEEF, 4, form == WW_LEGACY_BE);
  ww_raw (w->file, 0x12345678, 4, be);
  ww_raw (w->file, form == WW_CHUNKED ? 10 : 3, 4, be);
  if (form != WW_CHUNKED)
    {
      ww_header_string (w->file, context_json, be);
      ww_raw (w->file, 1, 4, be);
      ww_raw (w->file, timebase_ms & 0xFFFFFFFF, 4, be);
      ww_raw (w->file, timebase_ms >> 32, 4, be);
      ww_header_string (w->file, metadata_json, be);
    }
  else
    {
      g_autofree char *json =
        g_strdup_printf ("{\"type\":\"file_header\",\"timebase\":%" G_GUINT64_FORMAT ","
                         "\"flags\":[\"has_high_resolution_times\"],\"contextInfo\":%s,\"metadata\":%s}",
                         timebase_ms, context_json ? context_json : "null",
                         metadata_json ? metadata_json : "null");
      gsize len = strlen (json), padded = (len + 3) & ~(gsize) 3;

      ww_raw (w->file, 1, 4, FALSE);              /* id */
      ww_raw (w->file, 1, 4, FALSE);              /* file header */
      ww_raw (w->file, 24 + 12 + padded, 4, FALSE);
      ww_raw (w->file, 0xFFFFFFFF, 4, FALSE);
      ww_raw (w->file, 0xFFFFFFFF, 4, FALSE);
      ww_raw (w->file, 1, 4, FALSE);
      ww_raw (w->file, 0x10000, 4, FALSE);
      ww_raw (w->file, 0, 4, FALSE);
      ww_raw (w->file, len, 4, FALSE);
      g_byte_array_append (w->file, (const guint8 *) json, len);
      for (gsize i = len; i < padded; i++)
        g_byte_array_append (w->file, (const guint8 *) "", 1);
    }
  return w;
}

/* Chunked: writes the pending events as one event-data chunk (string table
 * part, then the event part) and starts the next one; @extra_part adds an
 * unknown part type that readers must skip. */
static inline void
ww_flush_chunk (WwWriter *w,
                gboolean  extra_part)
{
  GByteArray *strtab;
  gsize strtab_len, strtab_pad, ev_len, n_parts, body;

  if (w->form != WW_CHUNKED)
    return;
  strtab = g_byte_array_new ();
  for (guint i = 0; i < w->strings->len; i++)
    {
      const char *s = g_ptr_array_index (w->strings, i);
      g_byte_array_append (strtab, (const guint8 *) s, strlen (s) + 1);
    }
  strtab_len = strtab->len;
  strtab_pad = (strtab_len + 3) & ~(gsize) 3;
  ev_len = w->events->len;
  n_parts = extra_part ? 3 : 2;
  body = strtab_pad + ((ev_len + 3) & ~(gsize) 3) + (extra_part ? 4 : 0);

  ww_raw (w->file, 2, 4, FALSE);
  ww_raw (w->file, 2, 4, FALSE);
  ww_raw (w->file, 24 + 12 * n_parts + body, 4, FALSE);
  ww_raw (w->file, 0, 4, FALSE);
  ww_raw (w->file, 0, 4, FALSE);
  ww_raw (w->file, n_parts, 4, FALSE);
  if (extra_part)
    {
      ww_raw (w->file, 0x77777, 4, FALSE);
      ww_raw (w->file, body - 4, 4, FALSE);
      ww_raw (w->file, 4, 4, FALSE);
    }
  ww_raw (w->file, 0x30000, 4, FALSE);
  ww_raw (w->file, 0, 4, FALSE);
  ww_raw (w->file, strtab_len, 4, FALSE);
  ww_raw (w->file, w->legacy_part ? 0x20001 : 0x20002, 4, FALSE);
  ww_raw (w->file, strtab_pad, 4, FALSE);
  ww_raw (w->file, ev_len, 4, FALSE);
  g_byte_array_append (w->file, strtab->data, strtab->len);
  for (gsize i = strtab_len; i < strtab_pad; i++)
    g_byte_array_append (w->file, (const guint8 *) "", 1);
  g_byte_array_append (w->file, w->events->data, w->events->len);
  for (gsize i = ev_len; i < ((ev_len + 3) & ~(gsize) 3); i++)
    g_byte_array_append (w->file, (const guint8 *) "", 1);
  if (extra_part)
    ww_raw (w->file, 0xABCDEF01, 4, FALSE);
  g_byte_array_unref (strtab);

  g_byte_array_set_size (w->events, 0);
  g_hash_table_remove_all (w->string_ids);
  g_ptr_array_set_size (w->strings, 0);
}

/* Chunked: an unknown chunk type, to be skipped by its length. */
static inline void
ww_unknown_chunk (WwWriter *w)
{
  ww_raw (w->file, 9, 4, FALSE);
  ww_raw (w->file, 77, 4, FALSE);
  ww_raw (w->file, 32, 4, FALSE);
  ww_raw (w->file, 0, 4, FALSE);
  ww_raw (w->file, 0, 4, FALSE);
  ww_raw (w->file, 5, 4, FALSE);   /* nonsense part count: never read */
  ww_raw (w->file, 0xFFFFFFFFFFFFFFFF, 8, FALSE);
}

static inline GBytes *
ww_finish (WwWriter *w)
{
  GBytes *bytes;

  if (w->form == WW_CHUNKED)
    {
      if (w->events->len > 0)
        ww_flush_chunk (w, FALSE);
    }
  else
    g_byte_array_append (w->file, w->events->data, w->events->len);
  bytes = g_byte_array_free_to_bytes (w->file);
  g_byte_array_unref (w->events);
  g_ptr_array_unref (w->strings);
  g_hash_table_unref (w->string_ids);
  g_free (w);
  return bytes;
}

static inline void
ww_event (WwWriter *w, guint wire_id, guint32 time)
{
  ww_put (w, wire_id, ww_slots (w) ? 4 : 2);
  ww_put (w, time, 4);
  w->n_events++;
}

static inline guint
ww_size (WwType type)
{
  switch (type)
    {
    case WW_BOOL: case WW_INT8: case WW_UINT8: case WW_CHAR:
      return 1;
    case WW_INT16: case WW_UINT16: case WW_WCHAR:
      return 2;
    default:
      return 4;
    }
}

static inline void
ww_int (WwWriter *w, WwType type, gint64 v)
{
  if (ww_slots (w))
    ww_put (w, (guint64) v & (ww_size (type) == 1 ? 0xFF : ww_size (type) == 2 ? 0xFFFF : 0xFFFFFFFF), 4);
  else
    ww_put (w, (guint64) v, ww_size (type));
}

static inline void
ww_float (WwWriter *w, float f)
{
  guint32 bits;
  memcpy (&bits, &f, 4);
  /* float32 is little-endian even in big-endian legacy files. */
  ww_raw (w->events, bits, 4, FALSE);
}

/* ascii / utf8 / any; NULL is null. */
static inline void
ww_string (WwWriter *w, WwType type, const char *s)
{
  gsize len = s ? strlen (s) : 0;

  if (ww_slots (w))
    {
      ww_put (w, s == NULL ? 0xFFFFFFFF : len == 0 ? 0xFFFFFFFE : ww_string_id (w, s), 4);
      return;
    }
  if (s == NULL)
    {
      ww_put (w, 0, 2);
      return;
    }
  if (w->form == WW_CHUNKED)
    {
      /* Legacy parts in a chunked file refer to the chunk's string table. */
      ww_put (w, 0xFFFF, 2);
      ww_put (w, ww_string_id (w, s), 4);
      return;
    }
  if (type == WW_ASCII)
    ww_put (w, len, 2);
  else
    {
      ww_put (w, g_utf8_strlen (s, -1), 2);
      ww_put (w, len, 2);
    }
  g_byte_array_append (w->events, (const guint8 *) s, len);
}

/* An array of integers of @type; @n == -1 writes a null array. */
static inline void
ww_int_array (WwWriter *w, WwType type, const gint64 *v, gint n)
{
  guint size = ww_size (type);

  ww_put (w, n < 0 ? 0xFFFFFFFF : (guint) n, 4);
  if (n < 0)
    return;
  for (gint i = 0; i < n; i++)
    {
      if (type == WW_FLOAT32)
        ww_float (w, (float) v[i]);
      else
        ww_raw (w->events, (guint64) v[i], size, ww_be (w));
    }
  if (ww_slots (w))
    for (guint pad = (n * size) % 4; pad && pad < 4; pad++)
      g_byte_array_append (w->events, (const guint8 *) "", 1);
}

static inline void
ww_string_array (WwWriter *w, const char * const *v, guint n)
{
  ww_put (w, n, 4);
  for (guint i = 0; i < n; i++)
    ww_string (w, WW_ASCII, v[i]);
}

/* wtf.event#define (wire id 1). */
static inline void
ww_define (WwWriter *w, guint32 time, guint wire_id, guint klass, guint flags,
           const char *name, const char *args)
{
  ww_event (w, 1, time);
  ww_int (w, WW_UINT16, wire_id);
  ww_int (w, WW_UINT16, klass);
  ww_int (w, WW_UINT32, flags);
  ww_string (w, WW_ASCII, name);
  ww_string (w, WW_ASCII, args);
}
