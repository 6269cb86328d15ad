/* kymo-wtf-wire.c: file headers, CFF chunks and parts, and the event walk
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-wtf"

#include "config.h"

#include <string.h>

#include "kymo-byte-reader.h"
#include "kymo-wtf-private.h"

#define CFF_VERSION     10
#define LEGACY_VERSION  3

#define CHUNK_FILE_HEADER 1
#define CHUNK_EVENT_DATA  2

#define PART_FILE_HEADER          0x10000
#define PART_JSON_EVENT_BUFFER    0x20000
#define PART_LEGACY_EVENT_BUFFER  0x20001
#define PART_BINARY_EVENT_BUFFER  0x20002
#define PART_STRING_TABLE         0x30000

#define PROGRESS_EVERY 8192

const char *
wtf_detect_variant (const guint8 *data,
                    gsize         size)
{
  if (size < 12)
    return NULL;
  if (memcmp (data, "\xDE\xAD\xBE\xEF", 4) == 0)
    return "legacy-be";
  if (memcmp (data, "\xEF\xBE\xAD\xDE", 4) == 0)
    return kymo_read_u32le (data + 8) == CFF_VERSION ? "chunked" : "legacy-le";
  return NULL;
}

void
wtf_walker_init (WtfWalker            *walker,
                 KymoLoadJob          *job,
                 const guint8         *data,
                 gsize                 size,
                 const char           *path,
                 const WtfWalkerFuncs *funcs,
                 gpointer              user_data)
{
  memset (walker, 0, sizeof *walker);
  walker->job = job;
  walker->data = data;
  walker->size = size;
  walker->path = path ? path : "";
  walker->funcs = funcs;
  walker->user_data = user_data;
  walker->types = wtf_type_table_new ();
  walker->str_offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
}

void
wtf_walker_clear (WtfWalker *walker)
{
  g_clear_pointer (&walker->types, wtf_type_table_free);
  g_clear_pointer (&walker->str_offsets, g_array_unref);
}

void
wtf_walker_error (WtfWalker      *walker,
                  GError        **error,
                  KymoLoadError   code,
                  guint64         offset,
                  const char     *format,
                  ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (walker->job)
    kymo_load_job_set_error (walker->job, error, code, offset, "%s", message);
  else
    g_set_error (error, KYMO_LOAD_ERROR, code, "%s: offset %" G_GUINT64_FORMAT ": %s",
                 walker->path, offset, message);
}

/* A header string: u16 character count (0 = none), u16 byte count, bytes.
 * wtf-trace.md describes a single u16 length before the JSON; that form is
 * recognised when the second field cannot be a byte count but the JSON starts
 * right there. */
static gboolean
read_header_string (KymoByteReader  *r,
                    WtfEncoding      enc,
                    const char     **str,
                    gsize           *len)
{
  guint16 chars, bytes;
  const guint8 *p;

  if (!(enc == WTF_ENC_LEGACY_BE ? kymo_byte_reader_u16be (r, &chars) : kymo_byte_reader_u16le (r, &chars)))
    return FALSE;
  *str = NULL;
  *len = 0;
  if (chars == 0)
    return TRUE;
  if (kymo_byte_reader_remaining (r) < 2)
    return FALSE;
  p = r->data + r->pos;
  bytes = enc == WTF_ENC_LEGACY_BE ? kymo_read_u16be (p) : kymo_read_u16le (p);
  if ((bytes < chars || bytes > kymo_byte_reader_remaining (r) - 2) && p[0] == '{')
    bytes = chars;
  else if (!kymo_byte_reader_skip (r, 2))
    return FALSE;
  if (!kymo_byte_reader_bytes (r, bytes, &p))
    return FALSE;
  *str = (const char *) p;
  *len = bytes;
  return TRUE;
}

static gboolean
report_progress (WtfWalker  *walker,
                 gsize       pos,
                 GError    **error)
{
  if (walker->job == NULL)
    return TRUE;
  return kymo_load_job_progress (walker->job, walker->size ? (double) pos / walker->size : 1.0,
                                 NULL, error);
}

static const WtfValue *
find_arg (const WtfEventType *type,
          const WtfValue     *values,
          guint               n_values,
          const char         *name,
          guint               fallback)
{
  for (guint i = 0; i < n_values; i++)
    if (strcmp (type->args[i].name, name) == 0)
      return &values[i];
  return fallback < n_values ? &values[fallback] : NULL;
}

static gboolean
handle_define (WtfWalker       *walker,
               const WtfEvent  *event,
               GError         **error)
{
  const WtfEventType *type = event->type;
  WtfValue values[8];
  const WtfValue *wire, *klass, *flags, *name, *args;
  guint n = MIN (type->n_args, G_N_ELEMENTS (values));
  gsize pos = event->args_pos;
  WtfEventType *defined;

  for (guint i = 0; i < n; i++)
    if (wtf_read_value (event->buffer, &type->args[i], &pos, &values[i]) != WTF_READ_OK)
      return TRUE;  /* sized already: cannot happen */

  wire = find_arg (type, values, n, "wireId", 0);
  klass = find_arg (type, values, n, "eventClass", 1);
  flags = find_arg (type, values, n, "flags", 2);
  name = find_arg (type, values, n, "name", 3);
  args = find_arg (type, values, n, "args", 4);
  if (wire == NULL || wire->is_array || wire->u == 0 || wire->u > G_MAXUINT16)
    {
      wtf_walker_error (walker, error, KYMO_LOAD_ERROR_CORRUPT, event->offset,
                        "a wtf.event#define has no valid wire id");
      return FALSE;
    }

  defined = wtf_type_table_define (walker->types, (guint16) wire->u,
                                   klass && !klass->is_array ? (guint16) klass->u : 0,
                                   flags && !flags->is_array ? (guint32) flags->u : 0,
                                   name && !name->is_null && !name->is_array ? name->s.str : NULL,
                                   name && !name->is_null && !name->is_array ? (gssize) name->s.len : 0,
                                   args && !args->is_null && !args->is_array ? args->s.str : NULL,
                                   args && !args->is_null && !args->is_array ? (gssize) args->s.len : 0,
                                   event->offset);
  if (walker->funcs->define)
    return walker->funcs->define (walker, event, defined, walker->user_data, error);
  return TRUE;
}

static gboolean
walk_buffer (WtfWalker        *walker,
             const WtfBuffer  *buffer,
             gboolean          at_eof,
             GError          **error)
{
  WtfEventType **by_wire = walker->types->by_wire;
  const WtfWalkerFuncs *funcs = walker->funcs;
  gsize pos = buffer->start;
  guint count = 0;
  WtfEvent event;

  event.buffer = buffer;
  if (funcs->buffer)
    funcs->buffer (walker, buffer, walker->user_data);

  while (pos < buffer->end)
    {
      WtfReadStatus status;

      event.offset = pos;
      if (G_LIKELY (buffer->enc == WTF_ENC_BINARY && buffer->end - pos >= 8))
        {
          /* The common case inline: C++ files are all binary parts. */
          event.wire_id = kymo_read_u32le (buffer->data + pos);
          event.time = kymo_read_u32le (buffer->data + pos + 4);
          pos += 8;
        }
      else if (!wtf_read_event_header (buffer, &pos, &event.wire_id, &event.time))
        {
          wtf_walker_error (walker, error,
                            at_eof ? KYMO_LOAD_ERROR_TRUNCATED : KYMO_LOAD_ERROR_CORRUPT,
                            event.offset, at_eof ? "the file ends inside an event header"
                                                 : "an event header runs past the end of its part");
          return FALSE;
        }
      event.type = event.wire_id < 65536 ? by_wire[event.wire_id] : NULL;
      if (G_UNLIKELY (event.type == NULL))
        {
          wtf_walker_error (walker, error, KYMO_LOAD_ERROR_CORRUPT, event.offset,
                            "event with undefined wire id %u", event.wire_id);
          return FALSE;
        }
      if (G_UNLIKELY (!event.type->sizable))
        {
          wtf_walker_error (walker, error, KYMO_LOAD_ERROR_CORRUPT, event.offset,
                            "event “%s” cannot be sized: its define uses an unknown argument type (“%s”)",
                            event.type->name, event.type->signature);
          return FALSE;
        }
      event.args_pos = pos;
      if (G_LIKELY (buffer->enc == WTF_ENC_BINARY && event.type->fixed_binary >= 0 &&
                    buffer->end - pos >= (gsize) event.type->fixed_binary))
        {
          pos += event.type->fixed_binary;
          status = WTF_READ_OK;
        }
      else
        status = wtf_skip_args (buffer, event.type, &pos);
      if (G_UNLIKELY (status != WTF_READ_OK))
        {
          if (status == WTF_READ_BAD_STRING)
            wtf_walker_error (walker, error, KYMO_LOAD_ERROR_CORRUPT, event.offset,
                              "event “%s” refers to a string the chunk's string table does not hold",
                              event.type->name);
          else
            wtf_walker_error (walker, error,
                              at_eof ? KYMO_LOAD_ERROR_TRUNCATED : KYMO_LOAD_ERROR_CORRUPT,
                              event.offset, at_eof ? "the file ends inside event “%s”"
                                                   : "event “%s” runs past the end of its part",
                              event.type->name);
          return FALSE;
        }
      event.args_end = pos;

      if (event.type->kind == WTF_KIND_DEFINE)
        {
          if (!handle_define (walker, &event, error))
            return FALSE;
        }
      else if (funcs->event && !funcs->event (walker, &event, walker->user_data, error))
        return FALSE;

      if (G_UNLIKELY (++count % PROGRESS_EVERY == 0) && !report_progress (walker, pos, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
walk_legacy (WtfWalker    *walker,
             WtfEncoding   enc,
             GError      **error)
{
  KymoByteReader r;
  guint32 wtf_version, format_version, flags, low, high;
  const char *context, *metadata;
  gsize context_len, metadata_len;
  WtfBuffer buffer = { 0 };
  gboolean be = enc == WTF_ENC_LEGACY_BE;

  kymo_byte_reader_init (&r, walker->data, walker->size);
  kymo_byte_reader_skip (&r, 4);
  if (!(be ? kymo_byte_reader_u32be (&r, &wtf_version) : kymo_byte_reader_u32le (&r, &wtf_version)) ||
      !(be ? kymo_byte_reader_u32be (&r, &format_version) : kymo_byte_reader_u32le (&r, &format_version)))
    goto truncated;
  if (format_version != LEGACY_VERSION)
    {
      wtf_walker_error (walker, error, KYMO_LOAD_ERROR_UNSUPPORTED, 8,
                        "legacy format version %u is not supported (only %u)",
                        format_version, LEGACY_VERSION);
      return FALSE;
    }
  if (!read_header_string (&r, enc, &context, &context_len))
    goto truncated;
  if (!(be ? kymo_byte_reader_u32be (&r, &flags) : kymo_byte_reader_u32le (&r, &flags)) ||
      !(be ? kymo_byte_reader_u32be (&r, &low) : kymo_byte_reader_u32le (&r, &low)) ||
      !(be ? kymo_byte_reader_u32be (&r, &high) : kymo_byte_reader_u32le (&r, &high)))
    goto truncated;
  if (!read_header_string (&r, enc, &metadata, &metadata_len))
    goto truncated;

  if (walker->funcs->header)
    walker->funcs->header (walker, be ? "legacy-be" : "legacy-le", wtf_version, flags,
                           (gint64) ((guint64) high << 32 | low),
                           context, context_len, metadata, metadata_len, NULL,
                           walker->user_data);

  buffer.data = walker->data;
  buffer.start = r.pos;
  buffer.end = walker->size;
  buffer.enc = enc;
  return walk_buffer (walker, &buffer, TRUE, error);

truncated:
  wtf_walker_error (walker, error, KYMO_LOAD_ERROR_TRUNCATED, r.pos,
                    "the file ends inside its header");
  return FALSE;
}

static void
cff_file_header (WtfWalker    *walker,
                 guint32       wtf_version,
                 const guint8 *json,
                 gsize         len)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonNode *root;
  JsonObject *object = NULL;
  gint64 timebase = 0;
  guint32 flags = 0;

  if (walker->funcs->header == NULL)
    return;
  if (len <= G_MAXSSIZE && json_parser_load_from_data (parser, (const char *) json, (gssize) len, NULL))
    {
      root = json_parser_get_root (parser);
      if (root && JSON_NODE_HOLDS_OBJECT (root))
        object = json_node_get_object (root);
    }
  if (object)
    {
      JsonNode *node = json_object_get_member (object, "timebase");
      JsonNode *list = json_object_get_member (object, "flags");

      if (node && JSON_NODE_HOLDS_VALUE (node))
        timebase = (gint64) json_node_get_double (node);
      if (list && JSON_NODE_HOLDS_ARRAY (list))
        {
          JsonArray *array = json_node_get_array (list);
          for (guint i = 0; i < json_array_get_length (array); i++)
            {
              const char *flag = json_array_get_string_element (array, i);
              if (g_strcmp0 (flag, "has_high_resolution_times") == 0)
                flags |= 1;
              else if (g_strcmp0 (flag, "times_as_count") == 0)
                flags |= 2;
            }
        }
    }
  walker->funcs->header (walker, "chunked", wtf_version, flags, timebase,
                         NULL, 0, NULL, 0, object, walker->user_data);
}

static gboolean
walk_chunked (WtfWalker  *walker,
              GError    **error)
{
  const guint8 *data = walker->data;
  gsize size = walker->size, pos = 12;
  guint32 wtf_version = kymo_read_u32le (data + 4);

  while (pos < size)
    {
      guint32 type, length, n_parts;
      gsize chunk_end, parts_base;
      WtfBuffer buffer = { 0 };
      const guint8 *h = data + pos;

      if (size - pos < 24)
        {
          wtf_walker_error (walker, error, KYMO_LOAD_ERROR_TRUNCATED, pos,
                            "the file ends inside a chunk header");
          return FALSE;
        }
      type = kymo_read_u32le (h + 4);
      length = kymo_read_u32le (h + 8);
      n_parts = kymo_read_u32le (h + 20);
      if (length < 24)
        {
          wtf_walker_error (walker, error, KYMO_LOAD_ERROR_CORRUPT, pos,
                            "chunk length %u is shorter than its header", length);
          return FALSE;
        }
      if (length > size - pos)
        {
          wtf_walker_error (walker, error, KYMO_LOAD_ERROR_TRUNCATED, pos,
                            "the file ends inside a chunk of %u bytes", length);
          return FALSE;
        }
      chunk_end = pos + length;
      if (type != CHUNK_FILE_HEADER && type != CHUNK_EVENT_DATA)
        {
          /* Unknown chunk types are skipped whole. */
          pos = chunk_end;
          continue;
        }
      if (n_parts > (length - 24) / 12)
        {
          wtf_walker_error (walker, error, KYMO_LOAD_ERROR_CORRUPT, pos + 20,
                            "a chunk of %u bytes cannot hold %u parts", length, n_parts);
          return FALSE;
        }
      parts_base = pos + 24 + (gsize) n_parts * 12;

      /* Check every part first, and find the string table the event
       * buffers refer to. */
      for (guint32 i = 0; i < n_parts; i++)
        {
          const guint8 *p = data + pos + 24 + i * 12;
          guint32 part_type = kymo_read_u32le (p);
          guint32 offset = kymo_read_u32le (p + 4);
          guint32 part_len = kymo_read_u32le (p + 8);

          if ((guint64) offset + part_len > chunk_end - parts_base)
            {
              wtf_walker_error (walker, error, KYMO_LOAD_ERROR_CORRUPT, pos + 24 + i * 12,
                                "part %u (%u bytes at %u) lies outside its chunk",
                                i, part_len, offset);
              return FALSE;
            }
          if (part_type == PART_STRING_TABLE && buffer.str_offsets == NULL)
            {
              buffer.data = data;
              wtf_buffer_set_strings (&buffer, parts_base + offset, part_len, walker->str_offsets);
            }
        }

      for (guint32 i = 0; i < n_parts; i++)
        {
          const guint8 *p = data + pos + 24 + i * 12;
          guint32 part_type = kymo_read_u32le (p);
          gsize start = parts_base + kymo_read_u32le (p + 4);
          gsize part_len = kymo_read_u32le (p + 8);

          if (type == CHUNK_FILE_HEADER && part_type == PART_FILE_HEADER)
            cff_file_header (walker, wtf_version, data + start, part_len);
          else if (type == CHUNK_EVENT_DATA &&
                   (part_type == PART_BINARY_EVENT_BUFFER || part_type == PART_LEGACY_EVENT_BUFFER))
            {
              buffer.data = data;
              buffer.start = start;
              buffer.end = start + part_len;
              buffer.enc = part_type == PART_BINARY_EVENT_BUFFER ? WTF_ENC_BINARY : WTF_ENC_LEGACY_BE;
              if (!walk_buffer (walker, &buffer, FALSE, error))
                return FALSE;
            }
          /* JSON event buffers, resources and unknown parts: skipped. */
        }
      pos = chunk_end;
      if (!report_progress (walker, pos, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
wtf_walker_run (WtfWalker  *walker,
                GError    **error)
{
  const char *variant = wtf_detect_variant (walker->data, walker->size);

  if (variant == NULL)
    {
      if (walker->size >= 4 && (memcmp (walker->data, "\xDE\xAD\xBE\xEF", 4) == 0 ||
                                memcmp (walker->data, "\xEF\xBE\xAD\xDE", 4) == 0))
        wtf_walker_error (walker, error, KYMO_LOAD_ERROR_TRUNCATED, 0,
                          "the file ends inside its header");
      else
        wtf_walker_error (walker, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, 0,
                          "not a Web Tracing Framework trace (no 0xDEADBEEF magic)");
      return FALSE;
    }
  if (strcmp (variant, "chunked") == 0)
    return walk_chunked (walker, error);
  return walk_legacy (walker, strcmp (variant, "legacy-be") == 0 ? WTF_ENC_LEGACY_BE : WTF_ENC_LEGACY_LE,
                      error);
}
