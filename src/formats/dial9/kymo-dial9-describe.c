/* kymo-dial9-describe.c: one event's fields, decoded again from the stream
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include "kymo-dial9-private.h"

static JsonNode *
uint_node (guint64 v)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);

  /* JSON numbers lose precision past 2^53 in most readers; json-glib
   * holds gint64. Larger values (addresses) stay exact as strings. */
  if (v <= G_MAXINT64)
    json_node_set_int (node, (gint64) v);
  else
    {
      char buf[32];
      g_snprintf (buf, sizeof buf, "%" G_GUINT64_FORMAT, v);
      json_node_set_string (node, buf);
    }
  return node;
}

static JsonNode *
string_node (const guint8 *data,
             gsize         len)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  g_autofree char *text = g_utf8_make_valid ((const char *) data, len);

  json_node_set_string (node, text);
  return node;
}

static char *
frame_text (D9Data  *d,
            guint64  addr)
{
  const D9Symbol *syms;
  guint n = d9_data_symbolize (d, addr, &syms);
  GString *s;

  if (n == 0)
    return g_strdup_printf ("0x%016" G_GINT64_MODIFIER "x", addr);
  s = g_string_new (NULL);
  /* Outermost inline frame last, the way a backtrace reads. */
  for (guint i = n; i-- > 0;)
    {
      g_autofree char *name = g_utf8_make_valid ((const char *) syms[i].name, syms[i].name_len);

      if (s->len)
        g_string_append (s, " ← ");
      g_string_append (s, name);
      if (syms[i].file_len > 0)
        {
          g_autofree char *file = g_utf8_make_valid ((const char *) syms[i].file, syms[i].file_len);
          g_string_append_printf (s, " (%s", file);
          if (syms[i].line > 0)
            g_string_append_printf (s, ":%" G_GUINT64_FORMAT, syms[i].line);
          g_string_append_c (s, ')');
        }
    }
  return g_string_free (s, FALSE);
}

static JsonNode *
stack_node (D9Data       *d,
            const guint8 *frames,
            guint32       count)
{
  JsonArray *array = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);

  for (guint32 i = 0; i < count; i++)
    {
      g_autofree char *text = frame_text (d, d9_u64 (frames + (gsize) i * 8));
      json_array_add_string_element (array, text);
    }
  json_node_take_array (node, array);
  return node;
}

static JsonNode *
pool_id_node (guint32 id)
{
  JsonObject *obj = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_int_member (obj, "pool_id", id);
  json_node_take_object (node, obj);
  return node;
}

/* One value checked by d9_skip_value(); advances *pos. */
static JsonNode *
value_node (D9Data  *d,
            guint32  segment,
            gsize   *pos,
            guint8   type)
{
  const guint8 *data = d->data;
  gsize p = *pos;
  JsonNode *node = NULL;
  guint32 n;

  if (type & D9_OPTIONAL)
    {
      if (data[p++] == 0)
        {
          *pos = p;
          return json_node_new (JSON_NODE_NULL);
        }
      type &= ~D9_OPTIONAL;
    }

  switch (type)
    {
    case D9_I64:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (node, (gint64) d9_u64 (data + p));
      p += 8;
      break;
    case D9_F64:
      {
        guint64 bits = d9_u64 (data + p);
        double v;

        memcpy (&v, &bits, sizeof v);
        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_double (node, v);
        p += 8;
      }
      break;
    case D9_BOOL:
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, data[p++] != 0);
      break;
    case D9_U8:
      node = uint_node (data[p++]);
      break;
    case D9_U16:
      node = uint_node (d9_u16 (data + p));
      p += 2;
      break;
    case D9_U32:
      node = uint_node (d9_u32 (data + p));
      p += 4;
      break;
    case D9_VARINT:
      {
        guint64 v = 0;
        d9_varint (data, d->size, &p, &v);
        node = uint_node (v);
      }
      break;
    case D9_STRING:
      n = d9_u32 (data + p);
      node = string_node (data + p + 4, n);
      p += 4 + (gsize) n;
      break;
    case D9_BYTES:
      {
        GString *hex;

        n = d9_u32 (data + p);
        hex = g_string_sized_new (2 * MIN (n, 4096));
        for (guint32 i = 0; i < n; i++)
          g_string_append_printf (hex, "%02x", data[p + 4 + i]);
        node = json_node_new (JSON_NODE_VALUE);
        json_node_set_string (node, hex->str);
        g_string_free (hex, TRUE);
        p += 4 + (gsize) n;
      }
      break;
    case D9_POOLED_STRING:
      {
        const D9PoolString *s = d9_data_pool_string (d, segment, d9_u32 (data + p));
        node = s ? string_node (s->data, s->len) : pool_id_node (d9_u32 (data + p));
        p += 4;
      }
      break;
    case D9_POOLED_STACK:
      {
        const D9PoolStack *s = d9_data_pool_stack (d, segment, d9_u32 (data + p));
        node = s ? stack_node (d, s->frames, s->count) : pool_id_node (d9_u32 (data + p));
        p += 4;
      }
      break;
    case D9_STACK:
      n = d9_u32 (data + p);
      node = stack_node (d, data + p + 4, n);
      p += 4 + (gsize) n * 8;
      break;
    case D9_STRING_MAP:
    case D9_LIST:
    case D9_MAP:
      {
        JsonArray *array = json_array_new ();

        n = d9_u32 (data + p);
        p += 4;
        for (guint32 i = 0; i < n; i++)
          {
            if (type == D9_LIST)
              {
                p++;
                json_array_add_element (array, value_node (d, segment, &p, data[p - 1]));
              }
            else
              {
                JsonArray *pair = json_array_new ();

                for (guint k = 0; k < 2; k++)
                  {
                    guint8 t = D9_STRING;
                    if (type == D9_MAP)
                      t = data[p++];
                    json_array_add_element (pair, value_node (d, segment, &p, t));
                  }
                json_array_add_array_element (array, pair);
              }
          }
        node = json_node_new (JSON_NODE_ARRAY);
        json_node_take_array (node, array);
      }
      break;
    default:
      g_assert_not_reached ();
    }
  *pos = p;
  return node;
}

static void
add_task (D9Data     *d,
          JsonObject *obj,
          guint64     task_id)
{
  guint32 index = d9_map_lookup (&d->task_map, task_id);
  const D9Task *t;
  JsonObject *task;

  if (index == G_MAXUINT32)
    return;
  t = &g_array_index (d->tasks, D9Task, index);
  task = json_object_new ();
  json_object_set_int_member (task, "id", (gint64) MIN (t->id, (guint64) G_MAXINT64));
  if (t->spawn != KYMO_TIME_NONE)
    json_object_set_int_member (task, "spawned_ns", t->spawn);
  if (t->terminate != KYMO_TIME_NONE)
    json_object_set_int_member (task, "terminated_ns", t->terminate);
  if (t->spawn != KYMO_TIME_NONE && t->terminate != KYMO_TIME_NONE)
    json_object_set_int_member (task, "lifetime_ns", t->terminate - t->spawn);
  if (t->spawn_loc != G_MAXUINT32)
    {
      const D9PoolString *s = &g_array_index (d->pool_strings, D9PoolString, t->spawn_loc);
      json_object_set_member (task, "spawn_location", string_node (s->data, s->len));
    }
  json_object_set_int_member (task, "polls", t->polls);
  json_object_set_object_member (obj, "task", task);
}

/* Walks a stream that load already checked: bounds are still tested, and any
 * surprise ends the walk. */
static gboolean
skip_schema (const guint8 *data,
             gsize         size,
             gsize        *pos)
{
  gsize p = *pos;
  guint n;

  if (size - p < 4)
    return FALSE;
  p += 4 + d9_u16 (data + p + 2);
  if (p > size || size - p < 3)
    return FALSE;
  n = d9_u16 (data + p + 1);
  p += 3;
  for (guint i = 0; i < n; i++)
    {
      if (size - p < 2)
        return FALSE;
      p += 2 + d9_u16 (data + p) + 1;
      if (p > size)
        return FALSE;
    }
  *pos = p;
  return TRUE;
}

static JsonObject *
describe_source (D9Data  *d,
                 guint32  source)
{
  const D9Checkpoint *cp;
  const guint8 *data = d->data;
  gsize size = d->size, p;
  guint64 base;
  guint32 segment, skip;

  if (source == KYMO_NO_SOURCE || source >= d->n_events || d->checkpoints->len == 0)
    return NULL;
  /* The last checkpoint at or before the event. */
  {
    guint lo = 0, hi = d->checkpoints->len;

    while (hi - lo > 1)
      {
        guint mid = lo + (hi - lo) / 2;

        if (g_array_index (d->checkpoints, D9Checkpoint, mid).ordinal <= source)
          lo = mid;
        else
          hi = mid;
      }
    cp = &g_array_index (d->checkpoints, D9Checkpoint, lo);
  }
  if (cp->ordinal > source)
    return NULL;
  p = cp->offset;
  base = cp->base;
  segment = cp->segment;
  skip = source - cp->ordinal;

  while (p < size)
    {
      guint8 tag = data[p++];
      guint32 count;
      guint64 type_id;
      guint16 n16;
      gsize entries;

      switch (tag)
        {
        case D9_TAG_HEADER:
          p += D9_HEADER_SIZE - 1;
          segment++;
          base = 0;
          break;
        case D9_TAG_SCHEMA:
          if (!skip_schema (data, size, &p))
            return NULL;
          break;
        case D9_TAG_STRING_POOL:
          if (d9_check_string_pool (data, size, &p, &count) != D9_OK)
            return NULL;
          break;
        case D9_TAG_STACK_POOL:
          if (d9_check_stack_pool (data, size, &p, &count) != D9_OK)
            return NULL;
          break;
        case D9_TAG_ANNOTATIONS:
          if (d9_check_annotations (data, size, &p, &type_id, &n16, &entries) != D9_OK)
            return NULL;
          break;
        case D9_TAG_TS_RESET:
          if (size - p < 8)
            return NULL;
          base = d9_u64 (data + p);
          p += 8;
          break;
        case D9_TAG_EVENT:
          {
            guint32 index;
            const D9Schema *schema;
            const D9Field *fields;
            guint64 ts = base;
            JsonObject *obj;

            if (size - p < 2)
              return NULL;
            index = d9_map_lookup (&d->reg.by_segment, (guint64) segment << 16 | d9_u16 (data + p));
            if (index == G_MAXUINT32)
              return NULL;
            schema = d9_registry_get (&d->reg, index);
            fields = &g_array_index (d->reg.fields, D9Field, schema->first_field);
            p += 2;
            if (schema->has_ts)
              {
                if (size - p < 3)
                  return NULL;
                ts += data[p] | (guint32) data[p + 1] << 8 | (guint32) data[p + 2] << 16;
                base = ts;
                p += 3;
              }
            if (skip > 0)
              {
                for (guint i = 0; i < schema->n_fields; i++)
                  if (d9_skip_value (data, size, &p, fields[i].type, 0) != D9_OK)
                    return NULL;
                skip--;
                break;
              }

            /* Check the whole event before building anything from it. */
            {
              gsize q = p;
              for (guint i = 0; i < schema->n_fields; i++)
                if (d9_skip_value (data, size, &q, fields[i].type, 0) != D9_OK)
                  return NULL;
            }
            obj = json_object_new ();
            json_object_set_member (obj, "event", string_node (schema->name, schema->name_len));
            if (schema->has_ts)
              json_object_set_member (obj, "ts", uint_node (ts));
            for (guint i = 0; i < schema->n_fields; i++)
              {
                g_autofree char *name = g_strndup ((const char *) fields[i].name, fields[i].name_len);
                gboolean is_task = g_str_equal (name, "task_id") && fields[i].type == D9_VARINT;
                gsize start = p;
                JsonNode *node = value_node (d, segment, &p, fields[i].type);

                if (is_task && JSON_NODE_HOLDS_VALUE (node))
                  {
                    guint64 id = 0;
                    d9_varint (data, size, &start, &id);
                    add_task (d, obj, id);
                  }
                json_object_set_member (obj, name, node);
              }
            return obj;
          }
        default:
          return NULL;
        }
    }
  return NULL;
}

JsonObject *
d9_describe (KymoTrace          *trace,
             const KymoEventRef *ref)
{
  D9Data *d = kymo_trace_get_format_data (trace);
  KymoTrack *track;
  guint32 source = KYMO_NO_SOURCE;
  gsize n;

  if (d == NULL || !kymo_trace_is_sealed (trace))
    return NULL;
  track = kymo_trace_get_track (trace, ref->track);
  if (ref->kind == KYMO_EVENT_KIND_SPAN)
    {
      const KymoSpan *spans = kymo_track_get_spans (track, &n);
      if (ref->index < n)
        source = spans[ref->index].source;
    }
  else if (ref->kind == KYMO_EVENT_KIND_INSTANT)
    {
      const KymoInstant *instants = kymo_track_get_instants (track, &n);
      if (ref->index < n)
        source = instants[ref->index].source;
    }
  return describe_source (d, source);
}
