/* kymo-dial9-schema.c: what Kymo makes of a schema: kinds, roles, decode plans, annotations
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>
#include "kymo-dial9-decode.h"
#include "kymo-dial9-side.h"

typedef struct {
  const char *name;
  D9Role      role;
  guint8      want;    /* 'i' integer, 'p' pooled string, 's' string, 'm' string map */
} D9RoleField;

static gboolean
type_is (guint8 type,
         guint8 want)
{
  type &= ~D9_OPTIONAL;
  switch (want)
    {
    case 'i':
      return type == D9_VARINT || type == D9_U8 || type == D9_U16 || type == D9_U32 ||
             type == D9_I64 || type == D9_BOOL;
    case 'p':
      return type == D9_POOLED_STRING;
    case 's':
      return type == D9_STRING;
    case 'm':
      return type == D9_STRING_MAP;
    default:
      return FALSE;
    }
}

static const D9RoleField role_fields[] = {
  { "worker_id", D9_ROLE_WORKER, 'i' },
  { "task_id", D9_ROLE_TASK, 'i' },
  { "spawn_loc", D9_ROLE_SPAWN_LOC, 'p' },
  { "local_queue", D9_ROLE_LOCAL_QUEUE, 'i' },
  { "global_queue", D9_ROLE_GLOBAL_QUEUE, 'i' },
  { "waker_task_id", D9_ROLE_WAKER, 'i' },
  { "woken_task_id", D9_ROLE_WOKEN, 'i' },
  { "span_id", D9_ROLE_SPAN_ID, 'i' },
  { "span_name", D9_ROLE_SPAN_NAME, 'p' },
  { "realtime_ns", D9_ROLE_REALTIME, 'i' },
  { "entries", D9_ROLE_ENTRIES, 'm' },
  { "addr", D9_ROLE_ADDR, 'i' },
  { "address", D9_ROLE_ADDR, 'i' },
  { "size", D9_ROLE_SIZE, 'i' },
  { "symbol_name", D9_ROLE_SYMBOL, 'p' },
  { "symbol", D9_ROLE_SYMBOL, 's' },
  { "inline_depth", D9_ROLE_INLINE, 'i' },
  { "source_file", D9_ROLE_FILE, 'p' },
  { "location", D9_ROLE_FILE, 's' },
  { "source_line", D9_ROLE_LINE, 'i' },
  { "source", D9_ROLE_SOURCE, 'i' },
};

typedef struct {
  const char *name;
  gboolean    prefix;
  D9Kind      kind;
  D9Role      needs[3];
  guint       n_needs;
} D9KnownSchema;

static const D9KnownSchema known[] = {
  { "PollStartEvent", FALSE, D9_KIND_POLL_START, { D9_ROLE_WORKER }, 1 },
  { "PollEndEvent", FALSE, D9_KIND_POLL_END, { D9_ROLE_WORKER }, 1 },
  { "WorkerParkEvent", FALSE, D9_KIND_PARK, { D9_ROLE_WORKER }, 1 },
  { "WorkerUnparkEvent", FALSE, D9_KIND_UNPARK, { D9_ROLE_WORKER }, 1 },
  { "QueueSampleEvent", FALSE, D9_KIND_QUEUE, { D9_ROLE_GLOBAL_QUEUE }, 1 },
  { "TaskSpawnEvent", FALSE, D9_KIND_SPAWN, { D9_ROLE_TASK }, 1 },
  { "TaskTerminateEvent", FALSE, D9_KIND_TERMINATE, { D9_ROLE_TASK }, 1 },
  { "WakeEventEvent", FALSE, D9_KIND_WAKE, { D9_ROLE_WAKER, D9_ROLE_WOKEN }, 2 },
  { "CpuSampleEvent", FALSE, D9_KIND_CPU, { 0 }, 0 },
  { "SegmentMetadataEvent", FALSE, D9_KIND_META, { D9_ROLE_ENTRIES }, 1 },
  { "ClockSyncEvent", FALSE, D9_KIND_CLOCK, { D9_ROLE_REALTIME }, 1 },
  { "SymbolTableEntry", FALSE, D9_KIND_SYMBOL, { D9_ROLE_ADDR, D9_ROLE_SYMBOL }, 2 },
  { "CallframeDefEvent", FALSE, D9_KIND_CALLFRAME, { D9_ROLE_ADDR, D9_ROLE_SYMBOL }, 2 },
  { "TaskDumpEvent", FALSE, D9_KIND_TASK_DUMP, { D9_ROLE_TASK }, 1 },
  { "SpanEnter:", TRUE, D9_KIND_SPAN_ENTER, { D9_ROLE_WORKER, D9_ROLE_SPAN_ID }, 2 },
  { "SpanExit:", TRUE, D9_KIND_SPAN_EXIT, { D9_ROLE_WORKER, D9_ROLE_SPAN_ID }, 2 },
};

guint32
d9_intern_len (D9Loader   *l,
            const char *name,
            gssize      len)
{
  char *key;
  gpointer v;
  guint32 id;

  if (l->spec == NULL)
    return kymo_trace_intern_len (l->trace, name, len);
  /* As kymo_trace_intern_len() reads it. */
  key = len >= 0 ? g_strndup (name, len) : g_strdup (name);
  v = g_hash_table_lookup (l->spec->names, key);
  if (v != NULL)
    {
      g_free (key);
      return GPOINTER_TO_UINT (v) - 1;
    }
  id = l->spec->strings->len;
  g_ptr_array_add (l->spec->strings, key);
  g_hash_table_insert (l->spec->names, key, GUINT_TO_POINTER (id + 1));
  return id;
}

static gboolean
bytes_eq (const guint8 *data,
          gsize         len,
          const char   *str)
{
  return strlen (str) == len && memcmp (data, str, len) == 0;
}

static D9Shape
plan_shape (const D9Model *model)
{
  static const struct {
    D9Shape shape;
    guint8  n_ops;
    guint8  ops[5];
  } shapes[] = {
    { D9_SHAPE_V, 1, { D9_OP_VARINT } },
    { D9_SHAPE_V_V_U8, 3, { D9_OP_VARINT, D9_OP_VARINT, D9_OP_U8 } },
    { D9_SHAPE_V_U8_V_U32, 4, { D9_OP_VARINT, D9_OP_U8, D9_OP_VARINT, D9_OP_U32 } },
    { D9_SHAPE_V_U8_V_V_U32, 5, { D9_OP_VARINT, D9_OP_U8, D9_OP_VARINT, D9_OP_VARINT, D9_OP_U32 } },
    { D9_SHAPE_V_U8_V, 3, { D9_OP_VARINT, D9_OP_U8, D9_OP_VARINT } },
    { D9_SHAPE_V_U8_V_V, 4, { D9_OP_VARINT, D9_OP_U8, D9_OP_VARINT, D9_OP_VARINT } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (shapes); i++)
    if (shapes[i].n_ops == model->n_ops && memcmp (shapes[i].ops, model->ops, model->n_ops) == 0)
      return shapes[i].shape;
  return D9_SHAPE_NONE;
}

static void
compile_plan (D9Registry     *reg,
              const D9Schema *schema,
              D9Model        *model)
{
  guint32 max = 0;

  model->has_plan = FALSE;
  model->shape = D9_SHAPE_NONE;
  if (schema->n_fields > D9_MAX_KEPT_FIELDS)
    return;
  for (guint i = 0; i < schema->n_fields; i++)
    {
      guint8 type = d9_schema_field (reg, schema, i)->type;
      guint8 op;

      switch (type & ~D9_OPTIONAL)
        {
        case D9_U8:
        case D9_BOOL:
          op = D9_OP_U8;
          max += 1;
          break;
        case D9_U16:
          op = D9_OP_U16;
          max += 2;
          break;
        case D9_U32:
        case D9_POOLED_STRING:
        case D9_POOLED_STACK:
          op = D9_OP_U32;
          max += 4;
          break;
        case D9_I64:
        case D9_F64:
          op = D9_OP_U64;
          max += 8;
          break;
        case D9_VARINT:
          op = D9_OP_VARINT;
          max += 10;
          break;
        case D9_STRING:
        case D9_BYTES:
          /* The length; its bytes are checked as they come. */
          op = D9_OP_STRING;
          max += 4;
          break;
        case D9_STACK:
          /* The count; its frames are checked as they come (CPU
           * samples carry one). */
          op = D9_OP_STACK;
          max += 4;
          break;
        default:
          /* String maps, lists and maps take the generic loop. */
          return;
        }
      if (type & D9_OPTIONAL)
        {
          op |= D9_OP_OPTIONAL;
          max += 1;
        }
      model->ops[i] = op;
    }
  model->n_ops = (guint8) schema->n_fields;
  model->plan_max = max;
  model->has_plan = TRUE;
  model->shape = plan_shape (model);
}

/* Reads the fields of an event at @p by its plan, given at least
 * model->plan_max bytes there: only string bodies need a check, against
 * the bytes beyond what the other fields can take. Returns the end, or 0
 * when the generic loop must read the event (it then reports the damage:
 * a bad optional marker, a varint longer than ten bytes, a string past the
 * end). Values and absent bits are as d9_read_scalar gives them. */
void
d9_classify (D9Loader       *l,
          const D9Schema *schema,
          D9Model        *model)
{
  D9Registry *reg = &l->d->reg;
  g_autofree char *name = g_strndup ((const char *) schema->name, schema->name_len);

  memset (model, 0, sizeof *model);
  memset (model->field, -1, sizeof model->field);
  model->kind = D9_KIND_GENERIC;
  model->name = d9_intern_len (l, (const char *) schema->name, schema->name_len);
  model->alt_name = model->name;
  model->track = KYMO_NO_TRACK;
  model->se_track = G_MAXUINT;
  model->se_type = G_MAXUINT32;
  model->se_scale = 1;

  for (guint i = 0; i < MIN (schema->n_fields, D9_MAX_KEPT_FIELDS); i++)
    {
      const D9Field *f = d9_schema_field (reg, schema, i);

      for (guint r = 0; r < G_N_ELEMENTS (role_fields); r++)
        if (model->field[role_fields[r].role] < 0 &&
            bytes_eq (f->name, f->name_len, role_fields[r].name) &&
            type_is (f->type, role_fields[r].want))
          model->field[role_fields[r].role] = (gint8) i;
    }

  for (guint k = 0; k < G_N_ELEMENTS (known); k++)
    {
      gboolean match = known[k].prefix ? g_str_has_prefix (name, known[k].name)
                                       : g_str_equal (name, known[k].name);
      gboolean ok = match;

      for (guint n = 0; ok && n < known[k].n_needs; n++)
        ok = model->field[known[k].needs[n]] >= 0;
      if (!ok)
        continue;
      model->kind = known[k].kind;
      if (known[k].prefix)
        {
          /* SpanEnter:<target>::<name>:<file>:<line> and its SpanExit twin
           * name one span: both fall back to the same name. */
          model->alt_name = d9_intern_len (l, name + strlen (known[k].name), -1);
        }
      break;
    }
  model->unclocked = model->kind == D9_KIND_SYMBOL || model->kind == D9_KIND_CALLFRAME;
  compile_plan (reg, schema, model);
  d9_side_classify (reg, schema, model);
}

static double
unit_scale (const guint8 *value,
            guint32       len)
{
  if (bytes_eq (value, len, "us"))
    return 1e3;
  if (bytes_eq (value, len, "ms"))
    return 1e6;
  if (bytes_eq (value, len, "s"))
    return 1e9;
  return 1;
}

/* Schema annotations: dial9.role marks single-event spans (NOTES.md §1). */
void
d9_apply_annotations (D9Loader       *l,
                   D9Model        *model,
                   const D9Schema *schema,
                   gsize           p,
                   guint16         count)
{
  guint n_fields = schema->n_fields;
  const guint8 *data = l->d->data;
  gint unit_field[8];
  double unit_value[8];
  guint n_units = 0;

  for (guint i = 0; i < count; i++)
    {
      const guint8 *key, *value;
      guint16 field, key_len;
      guint32 value_len;

      d9_annotation_entry (data, &p, &field, &key, &key_len, &value, &value_len);
      if (bytes_eq (key, key_len, "dial9.span.type"))
        model->se_type = d9_intern_len (l, (const char *) value, value_len);
      if (field >= n_fields || field >= D9_MAX_KEPT_FIELDS)
        continue;
      if (bytes_eq (key, key_len, "unit") && n_units < G_N_ELEMENTS (unit_field))
        {
          unit_field[n_units] = field;
          unit_value[n_units++] = unit_scale (value, value_len);
        }
      else if (bytes_eq (key, key_len, "dial9.role"))
        {
          guint8 type = d9_schema_field (&l->d->reg, schema, field)->type;
          gboolean integer = type_is (type, 'i');

          if (integer && bytes_eq (value, value_len, "span.duration"))
            model->field[D9_ROLE_SE_DURATION] = (gint8) field;
          else if (integer && bytes_eq (value, value_len, "span.start"))
            model->field[D9_ROLE_SE_START] = (gint8) field;
          else if ((type_is (type, 'p') || type_is (type, 's')) && bytes_eq (value, value_len, "span.name"))
            {
              model->field[D9_ROLE_SE_NAME] = (gint8) field;
              model->se_name_type = type & ~D9_OPTIONAL;
            }
          else if (integer && bytes_eq (value, value_len, "tokio.worker_id") &&
                   model->kind == D9_KIND_GENERIC)
            model->field[D9_ROLE_WORKER] = (gint8) field;
        }
    }
  for (guint i = 0; i < n_units; i++)
    if (unit_field[i] == model->field[D9_ROLE_SE_DURATION] || unit_field[i] == model->field[D9_ROLE_SE_START])
      model->se_scale = unit_value[i];
}

