/* kymo-atf-dump.c: every index and detail record as JSON lines (CLI.md)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include "kymo-atf-private.h"
#include "kymo-byte-reader.h"

/* function_id → name from one manifest (keys point into @manifest). */
static GHashTable *
symbol_table (AtfManifest *manifest)
{
  GHashTable *table = g_hash_table_new (g_int64_hash, g_int64_equal);

  for (guint i = 0; i < manifest->function_ids->len; i++)
    {
      guint64 *key = &g_array_index (manifest->function_ids, guint64, i);

      if (!g_hash_table_contains (table, key))
        g_hash_table_insert (table, key, g_ptr_array_index (manifest->names, i));
    }
  return table;
}

static void
load_symbols (AtfProcessSource *process,
              AtfManifest      *manifest)
{
  g_autoptr(GBytes) bytes = NULL;
  const char *data;
  gsize size;

  if (process->manifest_path == NULL)
    return;
  bytes = _kymo_atf_map (process->manifest_path, NULL);
  data = bytes ? g_bytes_get_data (bytes, &size) : NULL;
  if (data != NULL)
    _kymo_atf_manifest_parse (manifest, data, size, NULL);
}

static void
begin_record (KymoJsonWriter   *out,
              const char       *kind,
              AtfProcessSource *process,
              guint             thread)
{
  kymo_json_writer_begin_object (out);
  kymo_json_writer_key (out, "kind");
  kymo_json_writer_string (out, kind, -1);
  if (process->pid >= 0)
    {
      kymo_json_writer_key (out, "pid");
      kymo_json_writer_int (out, process->pid);
    }
  kymo_json_writer_key (out, "thread");
  kymo_json_writer_uint (out, thread);
}

static void
dump_index (KymoJsonWriter     *out,
            AtfProcessSource   *process,
            guint               thread,
            const AtfIndexFile *index,
            GHashTable         *symbols)
{
  for (guint32 seq = 0; seq < index->n_events; seq++)
    {
      const guint8 *e = _kymo_atf_index_event (index, seq);
      guint64 fid = kymo_read_u64le (e + 8);
      guint32 kind = kymo_read_u32le (e + 20);
      guint32 dseq = kymo_read_u32le (e + 28);
      const char *event = _kymo_atf_event_name (kind);
      const char *function = g_hash_table_lookup (symbols, &fid);

      begin_record (out, "index", process, thread);
      kymo_json_writer_key (out, "seq");
      kymo_json_writer_uint (out, seq);
      kymo_json_writer_key (out, "ts");
      kymo_json_writer_uint (out, kymo_read_u64le (e));
      kymo_json_writer_key (out, "function_id");
      kymo_json_writer_uint (out, fid);
      if (function)
        {
          kymo_json_writer_key (out, "function");
          kymo_json_writer_string (out, function, -1);
        }
      kymo_json_writer_key (out, "event");
      if (event)
        kymo_json_writer_string (out, event, -1);
      else
        kymo_json_writer_uint (out, kind);
      kymo_json_writer_key (out, "depth");
      kymo_json_writer_uint (out, kymo_read_u32le (e + 24));
      kymo_json_writer_key (out, "detail_seq");
      if (dseq == ATF_NO_SEQ)
        kymo_json_writer_null (out);
      else
        kymo_json_writer_uint (out, dseq);
      kymo_json_writer_end_object (out);
      kymo_json_writer_end_line (out);
    }
}

static void
dump_detail (KymoJsonWriter      *out,
             AtfProcessSource    *process,
             guint                thread,
             const AtfDetailFile *detail,
             guint8               arch)
{
  for (guint32 j = 0; j < detail->n_records; j++)
    {
      const char *names[ATF_MAX_REGS];
      guint64 values[ATF_MAX_REGS];
      AtfDetailRecord r;
      guint n;

      _kymo_atf_detail_get (detail, j, &r);
      begin_record (out, "detail", process, thread);
      kymo_json_writer_key (out, "seq");
      kymo_json_writer_uint (out, j);
      kymo_json_writer_key (out, "index_seq");
      kymo_json_writer_uint (out, r.index_seq);
      kymo_json_writer_key (out, "ts");
      kymo_json_writer_uint (out, r.ts);
      kymo_json_writer_key (out, "event_type");
      kymo_json_writer_uint (out, r.event_type);
      kymo_json_writer_key (out, "flags");
      kymo_json_writer_uint (out, r.flags);
      kymo_json_writer_key (out, "length");
      kymo_json_writer_uint (out, r.length);
      if (r.has_payload)
        {
          kymo_json_writer_key (out, "function_id");
          kymo_json_writer_uint (out, r.function_id);
          kymo_json_writer_key (out, "regs");
          kymo_json_writer_begin_object (out);
          n = _kymo_atf_detail_regs (arch, &r, names, values);
          for (guint i = 0; i < n; i++)
            {
              kymo_json_writer_key (out, names[i]);
              kymo_json_writer_uint (out, values[i]);
            }
          kymo_json_writer_end_object (out);
          kymo_json_writer_key (out, "stack");
          kymo_json_writer_hex (out, r.stack, r.stack_len);
        }
      kymo_json_writer_end_object (out);
      kymo_json_writer_end_line (out);
    }
}

static void
keep_first (GError    **first,
            AtfDamage  *damage,
            const char *path)
{
  if (damage->message != NULL && *first == NULL)
    _kymo_atf_damage_to_error (damage, path, first);
  _kymo_atf_damage_clear (damage);
}

gboolean
_kymo_atf_dump (KymoLoadJob     *job,
                KymoJsonWriter  *out,
                GError         **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  g_autoptr(GPtrArray) processes = _kymo_atf_discover (input, error);
  g_autoptr(GError) first = NULL;

  if (processes == NULL)
    return FALSE;

  for (guint p = 0; p < processes->len; p++)
    {
      AtfProcessSource *process = g_ptr_array_index (processes, p);
      g_autoptr(GHashTable) symbols = NULL;
      AtfManifest manifest;

      _kymo_atf_manifest_init (&manifest);
      load_symbols (process, &manifest);
      symbols = symbol_table (&manifest);

      for (guint i = 0; i < process->threads->len; i++)
        {
          AtfThreadSource *source = g_ptr_array_index (process->threads, i);
          g_autoptr(GBytes) index_bytes = NULL;
          g_autoptr(GBytes) detail_bytes = NULL;
          g_autoptr(GError) local_error = NULL;
          AtfDamage damage = { 0 };
          AtfIndexFile index = { 0 };
          AtfDetailFile detail = { 0 };
          guint8 arch = 0;

          index_bytes = source->index_bytes ? g_bytes_ref (source->index_bytes)
                      : source->index_path ? _kymo_atf_map (source->index_path, &local_error) : NULL;
          if (index_bytes)
            {
              gsize size;
              const guint8 *data = g_bytes_get_data (index_bytes, &size);

              if (_kymo_atf_index_parse (&index, data, size, &damage))
                {
                  arch = index.arch;
                  dump_index (out, process, source->number, &index, symbols);
                }
            }
          else if (local_error && first == NULL)
            first = g_error_new (KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO, "%s", local_error->message);
          keep_first (&first, &damage, source->index_path);
          g_clear_error (&local_error);

          detail_bytes = source->detail_bytes ? g_bytes_ref (source->detail_bytes)
                       : source->detail_path ? _kymo_atf_map (source->detail_path, &local_error) : NULL;
          if (detail_bytes)
            {
              gsize size;
              const guint8 *data = g_bytes_get_data (detail_bytes, &size);

              if (_kymo_atf_detail_parse (&detail, data, size, &damage))
                dump_detail (out, process, source->number, &detail, detail.arch ? detail.arch : arch);
              _kymo_atf_detail_clear (&detail);
            }
          else if (local_error && first == NULL)
            first = g_error_new (KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO, "%s", local_error->message);
          keep_first (&first, &damage, source->detail_path);
          kymo_json_writer_flush (out);
        }
      _kymo_atf_manifest_clear (&manifest);
    }

  if (first != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&first));
      return FALSE;
    }
  return TRUE;
}
