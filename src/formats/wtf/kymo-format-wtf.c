/* kymo-format-wtf.c: Google Web Tracing Framework traces (.wtf-trace)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Two binary formats share the extension: the legacy one (big-endian in
 * real files, little-endian as wtf-trace.md states it) and the chunked
 * file format v10 written by the current recorder and the C++ bindings.
 */
#define G_LOG_DOMAIN "kymo-format-wtf"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-byte-reader.h"
#include "kymo-formats.h"
#include "kymo-wtf-private.h"

static const char * const mime_types[] = { "application/x-wtf-trace", NULL };
static const char * const patterns[] = { "*.wtf-trace", NULL };

static guint
detect (KymoInput *input)
{
  const guint8 *data = input->main.data;
  gsize size = input->main.size;
  const char *variant;

  if (input->is_dir || data == NULL)
    return 0;
  variant = wtf_detect_variant (data, size);
  if (variant == NULL)
    return 0;
  /* The magic plus a known version is as good as it gets. */
  if (g_str_equal (variant, "chunked"))
    return 100;
  if (g_str_equal (variant, "legacy-be") ? kymo_read_u32be (data + 8) == 3
                                          : kymo_read_u32le (data + 8) == 3)
    return 100;
  return 60;
}

static gboolean
load (KymoLoadJob  *job,
      KymoTrace    *trace,
      GError      **error)
{
  return wtf_load_model (job, trace, error);
}

/* dump */

static const char *
class_name (guint16 klass)
{
  switch (klass)
    {
    case WTF_CLASS_INSTANCE:
      return "instance";
    case WTF_CLASS_SCOPE:
      return "scope";
    default:
      return NULL;
    }
}

static gboolean
dump_define (WtfWalker           *walker,
             const WtfEvent      *event,
             const WtfEventType  *type,
             gpointer             user_data,
             GError             **error)
{
  KymoJsonWriter *out = user_data;
  const char *klass = class_name (type->klass);

  kymo_json_writer_begin_object (out);
  kymo_json_writer_key (out, "kind");
  kymo_json_writer_string (out, "define", -1);
  kymo_json_writer_key (out, "offset");
  kymo_json_writer_uint (out, event->offset);
  kymo_json_writer_key (out, "ts");
  kymo_json_writer_uint (out, event->time);
  kymo_json_writer_key (out, "wire_id");
  kymo_json_writer_uint (out, type->wire_id);
  kymo_json_writer_key (out, "class");
  if (klass)
    kymo_json_writer_string (out, klass, -1);
  else
    kymo_json_writer_uint (out, type->klass);
  kymo_json_writer_key (out, "flags");
  kymo_json_writer_uint (out, type->flags);
  kymo_json_writer_key (out, "name");
  kymo_json_writer_string (out, type->name, -1);
  kymo_json_writer_key (out, "args");
  if (type->signature)
    kymo_json_writer_string (out, type->signature, -1);
  else
    kymo_json_writer_null (out);
  kymo_json_writer_end_object (out);
  kymo_json_writer_end_line (out);
  return TRUE;
}

static gboolean
dump_event (WtfWalker       *walker,
            const WtfEvent  *event,
            gpointer         user_data,
            GError         **error)
{
  KymoJsonWriter *out = user_data;
  const WtfEventType *type = event->type;
  gsize pos = event->args_pos;

  kymo_json_writer_begin_object (out);
  kymo_json_writer_key (out, "kind");
  kymo_json_writer_string (out, "event", -1);
  kymo_json_writer_key (out, "offset");
  kymo_json_writer_uint (out, event->offset);
  kymo_json_writer_key (out, "wire_id");
  kymo_json_writer_uint (out, event->wire_id);
  kymo_json_writer_key (out, "name");
  kymo_json_writer_string (out, type->name, -1);
  kymo_json_writer_key (out, "ts");
  kymo_json_writer_uint (out, event->time);
  kymo_json_writer_key (out, "args");
  kymo_json_writer_begin_object (out);
  for (guint i = 0; i < type->n_args; i++)
    {
      WtfValue value;

      /* The walker sized the event already, so every read succeeds. */
      if (wtf_read_value (event->buffer, &type->args[i], &pos, &value) != WTF_READ_OK)
        break;
      kymo_json_writer_key (out, type->args[i].name);
      wtf_value_write (event->buffer, &value, out);
    }
  kymo_json_writer_end_object (out);
  kymo_json_writer_end_object (out);
  kymo_json_writer_end_line (out);
  return TRUE;
}

static gboolean
dump (KymoLoadJob     *job,
      KymoJsonWriter  *out,
      GError         **error)
{
  static const WtfWalkerFuncs funcs = {
    .define = dump_define,
    .event = dump_event,
  };
  KymoInput *input = kymo_load_job_get_input (job);
  WtfWalker walker;
  gboolean ok;

  wtf_walker_init (&walker, job, input->main.data, input->main.size,
                   kymo_input_get_path (input), &funcs, out);
  ok = wtf_walker_run (&walker, error);
  wtf_walker_clear (&walker);
  return ok;
}

const KymoFormat kymo_format_wtf = {
  .name = "wtf",
  .title = N_("Web Tracing Framework trace"),
  .mime_types = mime_types,
  .patterns = patterns,
  .detect = detect,
  .load = load,
  .dump = dump,
  .describe = wtf_describe,
  .preview = KYMO_FORMAT_PREVIEW_PREFIX,
};
