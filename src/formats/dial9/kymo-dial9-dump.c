/* kymo-dial9-dump.c: every dial9 frame as a JSON line (CLI.md)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include "kymo-dial9-private.h"
#include "kymo-dial9-files.h"

typedef struct {
  KymoJsonWriter *w;
  D9Data         *d;
} D9Dump;

static void
write_stack (KymoJsonWriter *w,
             const guint8   *frames,
             guint32         count)
{
  kymo_json_writer_begin_array (w);
  for (guint32 i = 0; i < count; i++)
    kymo_json_writer_uint (w, d9_u64 (frames + (gsize) i * 8));
  kymo_json_writer_end_array (w);
}

static void
write_pool_id (KymoJsonWriter *w,
               guint32         id)
{
  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "pool_id");
  kymo_json_writer_uint (w, id);
  kymo_json_writer_end_object (w);
}

/* Writes one value already checked by d9_skip_value(), advancing *pos. */
static void
write_value (D9Dump *dd,
             gsize  *pos,
             guint8  type)
{
  KymoJsonWriter *w = dd->w;
  const guint8 *data = dd->d->data;
  gsize p = *pos;
  guint32 n;

  if (type & D9_OPTIONAL)
    {
      if (data[p++] == 0)
        {
          kymo_json_writer_null (w);
          *pos = p;
          return;
        }
      type &= ~D9_OPTIONAL;
    }

  switch (type)
    {
    case D9_I64:
      kymo_json_writer_int (w, (gint64) d9_u64 (data + p));
      p += 8;
      break;
    case D9_F64:
      {
        guint64 bits = d9_u64 (data + p);
        double v;
        memcpy (&v, &bits, sizeof v);
        kymo_json_writer_double (w, v);
        p += 8;
      }
      break;
    case D9_BOOL:
      kymo_json_writer_bool (w, data[p++] != 0);
      break;
    case D9_U8:
      kymo_json_writer_uint (w, data[p++]);
      break;
    case D9_U16:
      kymo_json_writer_uint (w, d9_u16 (data + p));
      p += 2;
      break;
    case D9_U32:
      kymo_json_writer_uint (w, d9_u32 (data + p));
      p += 4;
      break;
    case D9_VARINT:
      {
        guint64 v = 0;
        d9_varint (data, dd->d->size, &p, &v);
        kymo_json_writer_uint (w, v);
      }
      break;
    case D9_STRING:
    case D9_BYTES:
      n = d9_u32 (data + p);
      if (type == D9_STRING)
        kymo_json_writer_string (w, (const char *) data + p + 4, n);
      else
        kymo_json_writer_hex (w, data + p + 4, n);
      p += 4 + (gsize) n;
      break;
    case D9_POOLED_STRING:
      {
        const D9PoolString *s = d9_data_pool_string (dd->d, dd->d->reg.segment, d9_u32 (data + p));
        if (s != NULL)
          kymo_json_writer_string (w, (const char *) s->data, s->len);
        else
          write_pool_id (w, d9_u32 (data + p));
        p += 4;
      }
      break;
    case D9_POOLED_STACK:
      {
        const D9PoolStack *s = d9_data_pool_stack (dd->d, dd->d->reg.segment, d9_u32 (data + p));
        if (s != NULL)
          write_stack (w, s->frames, s->count);
        else
          write_pool_id (w, d9_u32 (data + p));
        p += 4;
      }
      break;
    case D9_STACK:
      n = d9_u32 (data + p);
      write_stack (w, data + p + 4, n);
      p += 4 + (gsize) n * 8;
      break;
    case D9_STRING_MAP:
      n = d9_u32 (data + p);
      p += 4;
      kymo_json_writer_begin_array (w);
      for (guint32 i = 0; i < n; i++)
        {
          kymo_json_writer_begin_array (w);
          for (guint k = 0; k < 2; k++)
            {
              guint32 len = d9_u32 (data + p);
              kymo_json_writer_string (w, (const char *) data + p + 4, len);
              p += 4 + (gsize) len;
            }
          kymo_json_writer_end_array (w);
        }
      kymo_json_writer_end_array (w);
      break;
    case D9_LIST:
    case D9_MAP:
      n = d9_u32 (data + p);
      p += 4;
      kymo_json_writer_begin_array (w);
      for (guint32 i = 0; i < n; i++)
        {
          if (type == D9_MAP)
            {
              kymo_json_writer_begin_array (w);
              p++;
              write_value (dd, &p, data[p - 1]);
            }
          p++;
          write_value (dd, &p, data[p - 1]);
          if (type == D9_MAP)
            kymo_json_writer_end_array (w);
        }
      kymo_json_writer_end_array (w);
      break;
    default:
      g_assert_not_reached ();
    }
  *pos = p;
}

static void
write_schema (D9Dump         *dd,
              const D9Schema *schema)
{
  KymoJsonWriter *w = dd->w;

  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "kind");
  kymo_json_writer_string (w, "schema", -1);
  kymo_json_writer_key (w, "type_id");
  kymo_json_writer_uint (w, schema->type_id);
  kymo_json_writer_key (w, "name");
  kymo_json_writer_string (w, (const char *) schema->name, schema->name_len);
  kymo_json_writer_key (w, "has_timestamp");
  kymo_json_writer_bool (w, schema->has_ts);
  kymo_json_writer_key (w, "fields");
  kymo_json_writer_begin_array (w);
  for (guint i = 0; i < schema->n_fields; i++)
    {
      const D9Field *f = d9_schema_field (&dd->d->reg, schema, i);

      kymo_json_writer_begin_object (w);
      kymo_json_writer_key (w, "name");
      kymo_json_writer_string (w, (const char *) f->name, f->name_len);
      kymo_json_writer_key (w, "type");
      kymo_json_writer_string (w, d9_type_name (f->type), -1);
      if (f->type & D9_OPTIONAL)
        {
          kymo_json_writer_key (w, "optional");
          kymo_json_writer_bool (w, TRUE);
        }
      kymo_json_writer_end_object (w);
    }
  kymo_json_writer_end_array (w);
  kymo_json_writer_end_object (w);
  kymo_json_writer_end_line (w);
}

static void
write_pool (D9Dump  *dd,
            gsize    p,
            guint32  count,
            gboolean stacks)
{
  KymoJsonWriter *w = dd->w;
  const guint8 *data = dd->d->data;
  guint64 seg = (guint64) dd->d->reg.segment << 32;

  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "kind");
  kymo_json_writer_string (w, stacks ? "stack_pool" : "string_pool", -1);
  kymo_json_writer_key (w, "entries");
  kymo_json_writer_begin_array (w);
  p += 4;
  for (guint32 i = 0; i < count; i++)
    {
      guint32 id = d9_u32 (data + p), len = d9_u32 (data + p + 4);

      kymo_json_writer_begin_array (w);
      kymo_json_writer_uint (w, id);
      if (stacks)
        {
          D9PoolStack s = { data + p + 8, len };
          write_stack (w, s.frames, s.count);
          d9_map_insert (&dd->d->stack_map, seg | id, dd->d->pool_stacks->len);
          g_array_append_val (dd->d->pool_stacks, s);
          p += 8 + (gsize) len * 8;
        }
      else
        {
          D9PoolString s = { data + p + 8, len, 0 };
          kymo_json_writer_string (w, (const char *) s.data, s.len);
          d9_map_insert (&dd->d->string_map, seg | id, dd->d->pool_strings->len);
          g_array_append_val (dd->d->pool_strings, s);
          p += 8 + (gsize) len;
        }
      kymo_json_writer_end_array (w);
    }
  kymo_json_writer_end_array (w);
  kymo_json_writer_end_object (w);
  kymo_json_writer_end_line (w);
}

static void
write_annotations (D9Dump  *dd,
                   guint64  type_id,
                   gsize    p,
                   guint16  count)
{
  KymoJsonWriter *w = dd->w;

  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "kind");
  kymo_json_writer_string (w, "annotations", -1);
  kymo_json_writer_key (w, "type_id");
  kymo_json_writer_uint (w, type_id);
  kymo_json_writer_key (w, "entries");
  kymo_json_writer_begin_array (w);
  for (guint i = 0; i < count; i++)
    {
      const guint8 *key, *value;
      guint16 field, key_len;
      guint32 value_len;

      d9_annotation_entry (dd->d->data, &p, &field, &key, &key_len, &value, &value_len);
      kymo_json_writer_begin_array (w);
      kymo_json_writer_uint (w, field);
      kymo_json_writer_string (w, (const char *) key, key_len);
      kymo_json_writer_string (w, (const char *) value, value_len);
      kymo_json_writer_end_array (w);
    }
  kymo_json_writer_end_array (w);
  kymo_json_writer_end_object (w);
  kymo_json_writer_end_line (w);
}

static void
write_simple (KymoJsonWriter *w,
              const char     *kind,
              const char     *key,
              guint64         value)
{
  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "kind");
  kymo_json_writer_string (w, kind, -1);
  kymo_json_writer_key (w, key);
  kymo_json_writer_uint (w, value);
  kymo_json_writer_end_object (w);
  kymo_json_writer_end_line (w);
}

/* Returns the frame's status; on a stop, *pos is where the damage is. */
static D9Status
dump_frame (D9Dump      *dd,
            gsize       *pos,
            guint64     *base,
            const char **message)
{
  D9Data *d = dd->d;
  const guint8 *data = d->data;
  gsize size = d->size, frame = *pos, p = frame + 1;
  KymoJsonWriter *w = dd->w;
  guint8 tag = data[frame];
  D9Status st;

  *message = NULL;
  switch (tag)
    {
    case D9_TAG_HEADER:
      if (!d9_is_header (data, size, frame))
        {
          if (size - frame < D9_HEADER_SIZE && memcmp (data + frame, D9_MAGIC "\x01", size - frame) == 0)
            return D9_TRUNCATED;
          *message = memcmp (data + frame, D9_MAGIC, MIN (4, size - frame)) == 0
                     ? "segment header of an unsupported version" : "unknown frame tag 0x54";
          return D9_CORRUPT;
        }
      d9_registry_new_segment (&d->reg);
      *base = 0;
      write_simple (w, "header", "version", D9_VERSION);
      *pos = frame + D9_HEADER_SIZE;
      return D9_OK;

    case D9_TAG_SCHEMA:
      {
        guint32 index;
        gboolean is_new;

        st = d9_registry_parse (&d->reg, data, size, &p, &index, &is_new, message);
        if (st != D9_OK)
          {
            if (st == D9_CORRUPT && *message && g_str_has_prefix (*message, "unknown"))
              *pos = p;
            return st;
          }
        /* An identical re-registration prints as itself. */
        {
          D9Schema copy = *d9_registry_get (&d->reg, index);
          write_schema (dd, &copy);
        }
        *pos = p;
        return D9_OK;
      }

    case D9_TAG_EVENT:
      {
        const D9Schema *schema;
        const D9Field *fields;
        guint64 ts = *base;
        gsize values;

        if (size - p < 2)
          return D9_TRUNCATED;
        schema = d9_registry_lookup (&d->reg, d9_u16 (data + p));
        if (schema == NULL)
          {
            *message = "event of a type_id with no schema";
            return D9_CORRUPT;
          }
        p += 2;
        if (schema->has_ts)
          {
            if (size - p < 3)
              return D9_TRUNCATED;
            ts += data[p] | (guint32) data[p + 1] << 8 | (guint32) data[p + 2] << 16;
            p += 3;
          }
        values = p;
        fields = &g_array_index (d->reg.fields, D9Field, schema->first_field);
        for (guint i = 0; i < schema->n_fields; i++)
          if ((st = d9_skip_value (data, size, &p, fields[i].type, 0)) != D9_OK)
            {
              if (st == D9_CORRUPT)
                {
                  *message = "bad value in an event";
                  *pos = p;
                }
              return st;
            }

        if (schema->has_ts)
          *base = ts;
        kymo_json_writer_begin_object (w);
        kymo_json_writer_key (w, "kind");
        kymo_json_writer_string (w, "event", -1);
        kymo_json_writer_key (w, "type_id");
        kymo_json_writer_uint (w, schema->type_id);
        kymo_json_writer_key (w, "name");
        kymo_json_writer_string (w, (const char *) schema->name, schema->name_len);
        if (schema->has_ts)
          {
            kymo_json_writer_key (w, "ts");
            kymo_json_writer_uint (w, ts);
          }
        kymo_json_writer_key (w, "fields");
        kymo_json_writer_begin_object (w);
        for (guint i = 0; i < schema->n_fields; i++)
          {
            g_autofree char *name = g_strndup ((const char *) fields[i].name, fields[i].name_len);
            kymo_json_writer_key (w, name);
            write_value (dd, &values, fields[i].type);
          }
        kymo_json_writer_end_object (w);
        kymo_json_writer_end_object (w);
        kymo_json_writer_end_line (w);
        *pos = p;
        return D9_OK;
      }

    case D9_TAG_STRING_POOL:
    case D9_TAG_STACK_POOL:
      {
        guint32 count;

        st = tag == D9_TAG_STRING_POOL ? d9_check_string_pool (data, size, &p, &count)
                                       : d9_check_stack_pool (data, size, &p, &count);
        if (st != D9_OK)
          return st;
        write_pool (dd, frame + 1, count, tag == D9_TAG_STACK_POOL);
        *pos = p;
        return D9_OK;
      }

    case D9_TAG_TS_RESET:
      if (size - p < 8)
        return D9_TRUNCATED;
      *base = d9_u64 (data + p);
      write_simple (w, "timestamp_reset", "ts", *base);
      *pos = p + 8;
      return D9_OK;

    case D9_TAG_ANNOTATIONS:
      {
        guint64 type_id;
        guint16 count;
        gsize entries;

        st = d9_check_annotations (data, size, &p, &type_id, &count, &entries);
        if (st != D9_OK)
          {
            *message = "bad type_id in schema annotations";
            return st;
          }
        write_annotations (dd, type_id, entries, count);
        *pos = p;
        return D9_OK;
      }

    default:
      *message = "unknown frame tag";
      return D9_CORRUPT;
    }
}

/* Errors name @file (one of several) when given, else the input. */
static void G_GNUC_PRINTF (6, 7)
dump_error (KymoLoadJob    *job,
            const char     *file,
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
  if (file == NULL)
    kymo_load_job_set_error (job, error, code, offset, "%s", message);
  else
    g_set_error (error, KYMO_LOAD_ERROR, code, "%s: offset %" G_GUINT64_FORMAT ": %s", file, offset, message);
}

/* Dumps one stream; takes @bytes. */
static gboolean
dump_stream (KymoLoadJob     *job,
             KymoJsonWriter  *out,
             GBytes          *bytes,
             const char      *file,
             const char      *gz_warning,
             GError         **error)
{
  D9Data *d;
  D9Dump dd;
  gsize pos = 0;
  guint64 base = 0;
  D9Status st = D9_OK;
  const char *message = NULL;
  gboolean ok = TRUE;

  d = d9_data_new ();
  d->bytes = bytes;
  d->data = g_bytes_get_data (bytes, &d->size);
  dd.w = out;
  dd.d = d;

  if (d->size >= 4 && memcmp (d->data, D9_MAGIC, 4) != 0)
    {
      dump_error (job, file, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, 0, "not a dial9 trace (no TRC header)");
      d9_data_free (d);
      return FALSE;
    }
  if (d->size >= D9_HEADER_SIZE && d->data[4] != D9_VERSION)
    {
      dump_error (job, file, error, KYMO_LOAD_ERROR_UNSUPPORTED, 4,
                               "dial9 format version %u is not supported", d->data[4]);
      d9_data_free (d);
      return FALSE;
    }

  if (d->size < D9_HEADER_SIZE)
    {
      if (d->size == 0 || memcmp (d->data, D9_MAGIC "\x01", d->size) == 0)
        dump_error (job, file, error, KYMO_LOAD_ERROR_TRUNCATED, 0, "the input ends inside the dial9 header");
      else
        dump_error (job, file, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, 0, "not a dial9 trace (no TRC header)");
      d9_data_free (d);
      return FALSE;
    }

  /* The first header is dumped (and checked) like every later one. */
  d->reg.segment = G_MAXUINT32;
  while (pos < d->size)
    {
      gsize frame = pos;

      st = dump_frame (&dd, &pos, &base, &message);
      if (st != D9_OK)
        {
          if (st == D9_TRUNCATED)
            pos = frame;
          break;
        }
    }

  if (st == D9_TRUNCATED)
    {
      dump_error (job, file, error, KYMO_LOAD_ERROR_TRUNCATED, pos, "the input ends inside a frame");
      ok = FALSE;
    }
  else if (st == D9_CORRUPT)
    {
      dump_error (job, file, error, KYMO_LOAD_ERROR_CORRUPT, pos, "%s", message ? message : "corrupt frame");
      ok = FALSE;
    }
  else if (gz_warning != NULL && g_str_has_prefix (gz_warning, "the gzip stream ends early"))
    {
      dump_error (job, file, error, KYMO_LOAD_ERROR_TRUNCATED, d->size, "%s", gz_warning);
      ok = FALSE;
    }
  d9_data_free (d);
  return ok;
}

typedef struct {
  KymoLoadJob    *job;
  KymoJsonWriter *out;
  GError         *first_error;  /* the damage the dump stops with */
  guint           passed;       /* warnings of the set handed on */
} D9FolderDump;

/* The set's new warnings go to the caller as they come: the library never
 * prints (kymo-cli puts them on standard error). */
static void
pass_warnings (D9FolderDump *fd,
               D9FileSet    *files)
{
  for (; fd->passed < files->warnings->len; fd->passed++)
    kymo_load_job_add_warning (fd->job, "%s", (const char *) g_ptr_array_index (files->warnings, fd->passed));
}

static gboolean
dump_file (D9FileSet  *files,
           guint       index,
           GBytes     *stream,
           gpointer    user_data,
           GError    **error)
{
  D9FolderDump *fd = user_data;
  D9File *f = &g_array_index (files->files, D9File, index);
  g_autoptr(GError) local = NULL;

  pass_warnings (fd, files);
  if (!dump_stream (fd->job, fd->out, stream, f->path, NULL, &local))
    {
      /* Only the first damage is the dump's error; later ones are heard. */
      if (fd->first_error == NULL)
        fd->first_error = g_steal_pointer (&local);
      else
        kymo_load_job_add_warning (fd->job, "%s", local->message);
    }
  return TRUE;
}

gboolean
d9_dump (KymoLoadJob     *job,
         KymoJsonWriter  *out,
         GError         **error)
{
  g_autofree char *gz_warning = NULL;
  g_autoptr(GError) gz_error = NULL;
  D9FileSet *files;
  GBytes *bytes;
  gboolean ok;

  if (!d9_files_wanted (kymo_load_job_get_input (job)))
    {
      bytes = d9_open_stream (job, &gz_warning, &gz_error);
      if (bytes == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&gz_error));
          return FALSE;
        }
      if (!dump_stream (job, out, bytes, NULL, gz_warning, error))
        return FALSE;
      if (gz_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&gz_error));
          return FALSE;
        }
      return TRUE;
    }

  /* Each file in turn, offsets within it; damage in one does not stop
   * the others, and the first is what the dump reports. */
  files = d9_files_list (job, error);
  if (files == NULL)
    return FALSE;
  {
    D9FolderDump fd = { job, out, NULL, 0 };

    ok = d9_files_foreach (files, job, dump_file, &fd, error);
    pass_warnings (&fd, files);
    if (ok && fd.first_error != NULL)
      {
        g_propagate_error (error, g_steal_pointer (&fd.first_error));
        ok = FALSE;
      }
    g_clear_error (&fd.first_error);
  }
  d9_file_set_free (files);
  return ok;
}
