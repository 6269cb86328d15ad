/* kymo-atf-builder.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-atf-builder"

#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "kymo-atf-builder.h"

#define HEADER_SIZE 64
#define EVENT_SIZE  32
#define RING_PAYLOAD 516
#define SPEC_PAYLOAD 100

static void
put_u16 (guint8 *p, guint16 v)
{
  p[0] = v & 0xFF;
  p[1] = v >> 8;
}

static void
put_u32 (guint8 *p, guint32 v)
{
  for (guint i = 0; i < 4; i++)
    p[i] = (v >> (8 * i)) & 0xFF;
}

static void
put_u64 (guint8 *p, guint64 v)
{
  for (guint i = 0; i < 8; i++)
    p[i] = (v >> (8 * i)) & 0xFF;
}

void
kymo_atf_builder_init (KymoAtfThreadBuilder *self,
                       guint                 thread_id,
                       guint8                arch)
{
  memset (self, 0, sizeof *self);
  self->thread_id = thread_id;
  self->arch = arch;
  self->os = 4;
  self->index = g_byte_array_new ();
  g_byte_array_set_size (self->index, HEADER_SIZE);
  memset (self->index->data, 0, HEADER_SIZE);
}

void
kymo_atf_builder_clear (KymoAtfThreadBuilder *self)
{
  g_clear_pointer (&self->index, g_byte_array_unref);
  g_clear_pointer (&self->detail, g_byte_array_unref);
}

guint32
kymo_atf_builder_add_index (KymoAtfThreadBuilder *self,
                            guint64               ts,
                            guint64               function_id,
                            guint32               kind,
                            guint32               call_depth,
                            guint32               detail_seq)
{
  guint8 e[EVENT_SIZE];

  put_u64 (e, ts);
  put_u64 (e + 8, function_id);
  put_u32 (e + 16, self->thread_id);
  put_u32 (e + 20, kind);
  put_u32 (e + 24, call_depth);
  put_u32 (e + 28, detail_seq);
  g_byte_array_append (self->index, e, sizeof e);
  if (self->n_index == 0)
    self->index_first_ts = ts;
  self->index_last_ts = ts;
  return self->n_index++;
}

guint32
kymo_atf_builder_add_detail (KymoAtfThreadBuilder *self,
                             KymoAtfPayloadLayout  layout,
                             guint32               index_seq,
                             guint32               kind,
                             guint64               ts,
                             guint64               function_id,
                             guint32               call_depth,
                             const KymoAtfRegs    *regs,
                             const guint8         *stack,
                             gsize                 stack_len)
{
  static const KymoAtfRegs no_regs;
  gsize payload_len, start;
  guint8 *h, *p;

  if (regs == NULL)
    regs = &no_regs;
  if (self->detail == NULL)
    {
      self->detail = g_byte_array_new ();
      g_byte_array_set_size (self->detail, HEADER_SIZE);
      memset (self->detail->data, 0, HEADER_SIZE);
    }

  if (layout == KYMO_ATF_PAYLOAD_RING)
    {
      stack_len = MIN (stack_len, 128);
      payload_len = RING_PAYLOAD;
    }
  else
    {
      stack_len = MIN (stack_len, 256);
      payload_len = SPEC_PAYLOAD + stack_len;
    }

  start = self->detail->len;
  g_byte_array_set_size (self->detail, start + 24 + payload_len);
  h = self->detail->data + start;
  memset (h, 0, 24 + payload_len);
  put_u32 (h, 24 + payload_len);
  put_u16 (h + 4, kind == KYMO_ATF_RETURN ? KYMO_ATF_DETAIL_RETURN : KYMO_ATF_DETAIL_CALL);
  put_u16 (h + 6, 0);
  put_u32 (h + 8, index_seq);
  put_u32 (h + 12, self->thread_id);
  put_u64 (h + 16, ts);
  p = h + 24;

  if (layout == KYMO_ATF_PAYLOAD_RING)
    {
      put_u64 (p, ts);
      put_u64 (p + 8, function_id);
      put_u32 (p + 16, self->thread_id);
      put_u32 (p + 20, kind);
      put_u32 (p + 24, call_depth);
      for (guint i = 0; i < 8; i++)
        put_u64 (p + 32 + 8 * i, regs->x[i]);
      put_u64 (p + 96, regs->lr);
      put_u64 (p + 104, regs->fp);
      put_u64 (p + 112, regs->sp);
      if (stack_len)
        memcpy (p + 120, stack, stack_len);
      put_u32 (p + 248, (guint32) stack_len);
    }
  else
    {
      put_u64 (p, function_id);
      for (guint i = 0; i < 8; i++)
        put_u64 (p + 8 + 8 * i, regs->x[i]);
      put_u64 (p + 72, regs->lr);
      put_u64 (p + 80, regs->fp);
      put_u64 (p + 88, regs->sp);
      put_u16 (p + 96, (guint16) stack_len);
      if (stack_len)
        memcpy (p + 100, stack, stack_len);
    }

  if (self->n_detail == 0)
    self->detail_first_ts = ts;
  self->detail_last_ts = ts;
  return self->n_detail++;
}

guint32
kymo_atf_builder_add_linked (KymoAtfThreadBuilder *self,
                             KymoAtfPayloadLayout  layout,
                             guint64               ts,
                             guint64               function_id,
                             guint32               kind,
                             guint32               call_depth,
                             const KymoAtfRegs    *regs,
                             const guint8         *stack,
                             gsize                 stack_len)
{
  guint32 index_seq = self->n_index;
  guint32 detail_seq = self->n_detail;

  kymo_atf_builder_add_index (self, ts, function_id, kind, call_depth, detail_seq);
  kymo_atf_builder_add_detail (self, layout, index_seq, kind, ts, function_id, call_depth,
                               regs, stack, stack_len);
  return index_seq;
}

GBytes *
kymo_atf_builder_index_bytes (KymoAtfThreadBuilder *self,
                              gboolean              footer)
{
  gsize events_len = (gsize) self->n_index * EVENT_SIZE;
  gsize size = HEADER_SIZE + events_len + (footer ? 64 : 0);
  guint8 *out = g_malloc0 (size);

  memcpy (out, self->index->data, HEADER_SIZE + events_len);
  memcpy (out, "ATI2", 4);
  out[4] = 1;
  out[5] = 1;
  out[6] = self->arch;
  out[7] = self->os;
  put_u32 (out + 8, self->detail != NULL ? 1 : 0);
  put_u32 (out + 12, self->thread_id);
  out[16] = 1;
  put_u32 (out + 24, EVENT_SIZE);
  put_u64 (out + 32, HEADER_SIZE);
  put_u64 (out + 48, self->index_first_ts);
  put_u64 (out + 56, self->index_last_ts);
  if (footer)
    {
      guint8 *f = out + HEADER_SIZE + events_len;

      put_u32 (out + 28, self->n_index);
      put_u64 (out + 40, HEADER_SIZE + events_len);
      memcpy (f, "2ITA", 4);
      put_u64 (f + 8, self->n_index);
      put_u64 (f + 16, self->index_first_ts);
      put_u64 (f + 24, self->index_last_ts);
      put_u64 (f + 32, events_len);
    }
  else
    {
      /* What a crashed writer leaves behind. */
      put_u32 (out + 28, 0);
      put_u64 (out + 40, HEADER_SIZE);
    }
  return g_bytes_new_take (out, size);
}

GBytes *
kymo_atf_builder_detail_bytes (KymoAtfThreadBuilder *self,
                               gboolean              footer)
{
  gsize events_len, size;
  guint8 *out;

  if (self->detail == NULL)
    return NULL;
  events_len = self->detail->len - HEADER_SIZE;
  size = self->detail->len + (footer ? 64 : 0);
  out = g_malloc0 (size);
  memcpy (out, self->detail->data, self->detail->len);
  memcpy (out, "ATD2", 4);
  out[4] = 1;
  out[5] = 1;
  out[6] = self->arch;
  out[7] = self->os;
  put_u32 (out + 12, self->thread_id);
  put_u64 (out + 20, HEADER_SIZE);
  if (footer)
    {
      guint8 *f = out + self->detail->len;

      put_u64 (out + 28, self->n_detail);
      put_u64 (out + 36, events_len);
      memcpy (f, "2DTA", 4);
      put_u64 (f + 8, self->n_detail);
      put_u64 (f + 16, events_len);
      put_u64 (f + 24, self->detail_first_ts);
      put_u64 (f + 32, self->detail_last_ts);
    }
  return g_bytes_new_take (out, size);
}

static gboolean
write_bytes (const char  *path,
             GBytes      *bytes,
             GError     **error)
{
  gsize size;
  const char *data = g_bytes_get_data (bytes, &size);

  return g_file_set_contents (path, data, size, error);
}

gboolean
kymo_atf_builder_write (KymoAtfThreadBuilder *self,
                        const char           *pid_dir,
                        gboolean              footer,
                        GError              **error)
{
  g_autofree char *name = g_strdup_printf ("thread_%u", self->thread_id);
  g_autofree char *dir = g_build_filename (pid_dir, name, NULL);
  g_autofree char *index_path = g_build_filename (dir, "index.atf", NULL);
  g_autoptr(GBytes) index = NULL;

  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_FAILED, "%s: cannot create the folder", dir);
      return FALSE;
    }
  index = kymo_atf_builder_index_bytes (self, footer);
  if (!write_bytes (index_path, index, error))
    return FALSE;
  if (self->detail != NULL)
    {
      g_autofree char *detail_path = g_build_filename (dir, "detail.atf", NULL);
      g_autoptr(GBytes) detail = kymo_atf_builder_detail_bytes (self, footer);

      if (!write_bytes (detail_path, detail, error))
        return FALSE;
    }
  return TRUE;
}

guint32
kymo_atf_module_id (const char *path)
{
  guint32 hash = 0x811C9DC5u;

  for (const char *p = path; *p; p++)
    {
      hash ^= (guint8) g_ascii_tolower (*p);
      hash *= 0x01000193u;
    }
  return hash ? hash : 0x9E3779B9u;
}
