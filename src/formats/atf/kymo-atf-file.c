/* kymo-atf-file.c: index.atf and detail.atf, read in place from the mapping
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include "kymo-atf-private.h"
#include "kymo-byte-reader.h"

void
_kymo_atf_damage_set (AtfDamage     *damage,
                      KymoLoadError  code,
                      guint64        offset,
                      const char    *format,
                      ...)
{
  va_list args;

  if (damage->message != NULL)
    return;
  damage->code = code;
  damage->offset = offset;
  va_start (args, format);
  damage->message = g_strdup_vprintf (format, args);
  va_end (args);
}

void
_kymo_atf_damage_clear (AtfDamage *damage)
{
  g_clear_pointer (&damage->message, g_free);
}

void
_kymo_atf_damage_to_error (const AtfDamage  *damage,
                           const char       *path,
                           GError          **error)
{
  if (damage->offset == KYMO_NO_OFFSET)
    g_set_error (error, KYMO_LOAD_ERROR, damage->code, "%s: %s", path, damage->message);
  else
    g_set_error (error, KYMO_LOAD_ERROR, damage->code, "%s: offset %" G_GUINT64_FORMAT ": %s",
                 path, damage->offset, damage->message);
}

GBytes *
_kymo_atf_map (const char  *path,
               GError     **error)
{
  return kymo_map_file (path, error);
}

gboolean
_kymo_atf_index_parse (AtfIndexFile *file,
                       const guint8 *data,
                       gsize         size,
                       AtfDamage    *damage)
{
  guint64 events_offset, footer_offset, available, count;
  guint32 event_size, header_count;

  memset (file, 0, sizeof *file);
  file->data = data;
  file->size = size;

  if (size < ATF_HEADER_SIZE)
    {
      if (size >= 4 && memcmp (data, "ATI2", 4) != 0)
        _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_CORRUPT, 0, "not an ATF index file (no “ATI2” magic)");
      else
        _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_TRUNCATED, 0,
                              "the file ends inside its 64-byte header (%" G_GSIZE_FORMAT " bytes)", size);
      return FALSE;
    }
  if (memcmp (data, "ATI2", 4) != 0)
    {
      _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_CORRUPT, 0, "not an ATF index file (no “ATI2” magic)");
      return FALSE;
    }
  if (data[4] != 1)
    {
      _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_UNSUPPORTED, 4,
                            "byte order %u is not little-endian (1)", data[4]);
      return FALSE;
    }

  file->arch = data[6];
  file->os = data[7];
  file->flags = kymo_read_u32le (data + 8);
  file->thread_id = kymo_read_u32le (data + 12);
  file->clock_type = data[16];
  event_size = kymo_read_u32le (data + 24);
  header_count = kymo_read_u32le (data + 28);
  events_offset = kymo_read_u64le (data + 32);
  footer_offset = kymo_read_u64le (data + 40);

  if (event_size != ATF_EVENT_SIZE)
    {
      _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_UNSUPPORTED, 24,
                            "event size %u is not 32", event_size);
      return FALSE;
    }
  if (events_offset < ATF_HEADER_SIZE || events_offset > size)
    {
      _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_CORRUPT, 32,
                            "events offset %" G_GUINT64_FORMAT " is outside the file", events_offset);
      return FALSE;
    }
  file->events = data + events_offset;
  available = size - events_offset;

  /* The footer is authoritative; a crashed writer leaves none, and then the
   * file size says how many events there are. */
  if (footer_offset >= events_offset && footer_offset <= size - ATF_FOOTER_SIZE &&
      size >= ATF_FOOTER_SIZE && memcmp (data + footer_offset, "2ITA", 4) == 0)
    {
      file->has_footer = TRUE;
      available = footer_offset - events_offset;
      count = kymo_read_u64le (data + footer_offset + 8);
    }
  else if (size >= events_offset + ATF_FOOTER_SIZE &&
           memcmp (data + size - ATF_FOOTER_SIZE, "2ITA", 4) == 0 &&
           (size - ATF_FOOTER_SIZE - events_offset) % ATF_EVENT_SIZE == 0)
    {
      file->has_footer = TRUE;
      available = size - ATF_FOOTER_SIZE - events_offset;
      count = kymo_read_u64le (data + size - ATF_FOOTER_SIZE + 8);
    }
  else
    count = header_count ? header_count : available / ATF_EVENT_SIZE;

  if (count > available / ATF_EVENT_SIZE)
    {
      guint64 have = available / ATF_EVENT_SIZE;

      _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_TRUNCATED, events_offset + have * ATF_EVENT_SIZE,
                            "the file ends after %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " events",
                            have, count);
      count = have;
    }
  else if (!file->has_footer && header_count == 0 && available % ATF_EVENT_SIZE != 0)
    _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_TRUNCATED, events_offset + count * ATF_EVENT_SIZE,
                          "the file ends inside an event (%" G_GUINT64_FORMAT " of 32 bytes)",
                          available % ATF_EVENT_SIZE);

  if (count >= ATF_NO_SEQ)
    {
      _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_UNSUPPORTED, events_offset + (guint64) (ATF_NO_SEQ - 1) * ATF_EVENT_SIZE,
                            "more than %u events in one file", ATF_NO_SEQ - 1);
      count = ATF_NO_SEQ - 1;
    }
  file->n_events = (guint32) count;
  return TRUE;
}

gboolean
_kymo_atf_detail_parse (AtfDetailFile *file,
                        const guint8  *data,
                        gsize          size,
                        AtfDamage     *damage)
{
  g_autoptr(GArray) offsets = NULL;
  guint64 pos, end;

  memset (file, 0, sizeof *file);
  file->data = data;
  file->size = size;

  if (size < ATF_HEADER_SIZE || memcmp (data, "ATD2", 4) != 0)
    {
      if (size >= 4 && memcmp (data, "ATD2", 4) != 0)
        _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_CORRUPT, 0, "not an ATF detail file (no “ATD2” magic)");
      else
        _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_TRUNCATED, 0,
                              "the file ends inside its 64-byte header (%" G_GSIZE_FORMAT " bytes)", size);
      return FALSE;
    }
  if (data[4] != 1)
    {
      _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_UNSUPPORTED, 4,
                            "byte order %u is not little-endian (1)", data[4]);
      return FALSE;
    }
  file->arch = data[6];
  file->thread_id = kymo_read_u32le (data + 12);
  pos = kymo_read_u64le (data + 20);
  if (pos < ATF_HEADER_SIZE || pos > size)
    {
      _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_CORRUPT, 20,
                            "events offset %" G_GUINT64_FORMAT " is outside the file", pos);
      return FALSE;
    }

  end = size;
  if (size - pos >= ATF_FOOTER_SIZE && memcmp (data + size - ATF_FOOTER_SIZE, "2DTA", 4) == 0)
    {
      file->has_footer = TRUE;
      end = size - ATF_FOOTER_SIZE;
    }

  offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  while (pos < end)
    {
      guint32 length;

      if (end - pos < ATF_DETAIL_HEAD)
        {
          _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_TRUNCATED, pos,
                                "the file ends inside a detail record header (%" G_GUINT64_FORMAT " of 24 bytes)",
                                end - pos);
          break;
        }
      length = kymo_read_u32le (data + pos);
      if (length < ATF_DETAIL_HEAD)
        {
          _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_CORRUPT, pos,
                                "detail record length %u is shorter than its 24-byte header", length);
          break;
        }
      if (length > end - pos)
        {
          _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_TRUNCATED, pos,
                                "detail record of %u bytes runs past the end (%" G_GUINT64_FORMAT " bytes left)",
                                length, end - pos);
          break;
        }
      if (offsets->len >= ATF_NO_SEQ - 1)
        {
          _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_UNSUPPORTED, pos,
                                "more than %u detail records in one file", ATF_NO_SEQ - 1);
          break;
        }
      g_array_append_val (offsets, pos);
      pos += length;
    }

  file->n_records = offsets->len;
  file->offsets = (guint64 *) (gpointer) g_array_free (g_steal_pointer (&offsets), FALSE);
  return TRUE;
}

void
_kymo_atf_detail_clear (AtfDetailFile *file)
{
  g_clear_pointer (&file->offsets, g_free);
  file->n_records = 0;
}

void
_kymo_atf_detail_get (const AtfDetailFile *file,
                      guint32              seq,
                      AtfDetailRecord     *r)
{
  const guint8 *h = file->data + file->offsets[seq];
  const guint8 *p = h + ATF_DETAIL_HEAD;
  gsize payload;

  memset (r, 0, sizeof *r);
  r->length = kymo_read_u32le (h);
  r->event_type = kymo_read_u16le (h + 4);
  r->flags = kymo_read_u16le (h + 6);
  r->index_seq = kymo_read_u32le (h + 8);
  r->thread_id = kymo_read_u32le (h + 12);
  r->ts = kymo_read_u64le (h + 16);
  payload = r->length - ATF_DETAIL_HEAD;

  /* Real writers store their whole 516-byte ring record; the spec (and
   * ADA's unit tests) a 100-byte DetailFunctionPayload before the stack. */
  if (r->length == ATF_RING_LENGTH)
    {
      guint32 stack_size = kymo_read_u32le (p + 248);

      r->has_payload = TRUE;
      r->ring_layout = TRUE;
      r->function_id = kymo_read_u64le (p + 8);
      r->has_depth = TRUE;
      r->depth = kymo_read_u32le (p + 24);
      for (guint i = 0; i < 8; i++)
        r->x[i] = kymo_read_u64le (p + 32 + 8 * i);
      r->lr = kymo_read_u64le (p + 96);
      r->fp = kymo_read_u64le (p + 104);
      r->sp = kymo_read_u64le (p + 112);
      r->stack = p + 120;
      r->stack_len = MIN (stack_size, 128);
    }
  else if (payload >= 100)
    {
      guint16 stack_size = kymo_read_u16le (p + 96);

      r->has_payload = TRUE;
      r->function_id = kymo_read_u64le (p);
      for (guint i = 0; i < 8; i++)
        r->x[i] = kymo_read_u64le (p + 8 + 8 * i);
      r->lr = kymo_read_u64le (p + 72);
      r->fp = kymo_read_u64le (p + 80);
      r->sp = kymo_read_u64le (p + 88);
      r->stack = p + 100;
      r->stack_len = MIN ((gsize) stack_size, payload - 100);
    }
}

guint
_kymo_atf_detail_regs (guint8                 arch,
                       const AtfDetailRecord *r,
                       const char           **names,
                       guint64               *values)
{
  static const char * const arm64[] = { "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7" };
  static const char * const x86_call[] = { "rdi", "rsi", "rdx", "rcx", "r8", "r9", "rbp", "rsp" };
  guint n = 0;

  if (!r->has_payload)
    return 0;

  if (arch == 1)
    {
      if (r->event_type == 4)
        {
          names[n] = "rax", values[n++] = r->x[0];
          names[n] = "rsp", values[n++] = r->sp;
          return n;
        }
      for (guint i = 0; i < 8; i++)
        names[n] = x86_call[i], values[n++] = r->x[i];
      return n;
    }

  for (guint i = 0; i < 8; i++)
    names[n] = arm64[i], values[n++] = r->x[i];
  names[n] = "lr", values[n++] = r->lr;
  names[n] = "fp", values[n++] = r->fp;
  names[n] = "sp", values[n++] = r->sp;
  return n;
}

const char *
_kymo_atf_event_name (guint32 kind)
{
  switch (kind)
    {
    case 1: return "call";
    case 2: return "return";
    case 3: return "exception";
    default: return NULL;
    }
}

gboolean
_kymo_atf_linked (const AtfThread *thread,
                  guint32          index_seq,
                  guint32          detail_seq)
{
  const guint8 *e;

  if (index_seq >= thread->index.n_events || detail_seq >= thread->detail.n_records)
    return FALSE;
  e = _kymo_atf_index_event (&thread->index, index_seq);
  if (kymo_read_u32le (e + 28) != detail_seq)
    return FALSE;
  return kymo_read_u32le (thread->detail.data + thread->detail.offsets[detail_seq] + 8) == index_seq;
}

char *
_kymo_atf_unresolved (guint64 function_id)
{
  return g_strdup_printf ("<0x%016" G_GINT64_MODIFIER "x>", function_id);
}
