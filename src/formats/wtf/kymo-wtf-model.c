/* kymo-wtf-model.c: zones, scopes, markers, ranges, frames and flows
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-wtf"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kymo-wtf-private.h"

#define MAX_BUILTIN_ARGS 8
#define NO_NAME G_MAXUINT32
#define MAX_RANGE_DEPTH 64

/* Kept with the trace so describe can decode an event again. */
typedef struct {
  guint64 start;
  guint64 end;
  guint64 strtab_start;
  guint64 strtab_size;
  guint8  enc;
} WtfBufferInfo;

typedef struct {
  guint32 target;   /* source of the span */
  guint32 append;   /* source of the appendData event */
} WtfAppend;

typedef struct {
  WtfTypeTable *types;
  GArray       *buffers;   /* of WtfBufferInfo, in file order */
  GArray       *appends;   /* of WtfAppend, sorted by target */
} WtfFormatData;

typedef struct {
  KymoTime start;
  guint32  name;
  guint32  source;
  guint16  flags;
  guint16  visible;
  guint    depth;
} Scope;

typedef struct {
  guint16    id;
  guint      group;
  guint      thread;
  KymoTrack *track;
  GArray    *stack;        /* of Scope */
  guint      depth;        /* visible scopes open */
} Zone;

typedef struct {
  KymoTime start;
  guint32  name;
  guint32  source;
  guint    depth;
} Range;

typedef struct {
  guint    track;
  KymoTime ts;
} FlowPoint;

typedef struct {
  KymoTrace     *trace;
  gboolean       show_internal;
  WtfFormatData *fd;

  GPtrArray     *zones;        /* of Zone*, owned */
  Zone          *by_id[65536];
  Zone          *current;

  gboolean       have_time;
  gint64         last_time;    /* unwrapped µs */
  KymoTime       max_ts;

  KymoTrack     *markers;
  KymoTrack     *ranges;
  KymoTrack     *frames;
  GHashTable    *open_ranges;  /* id → Range* */
  GArray        *range_depths; /* of gboolean: depth in use */
  GHashTable    *open_frames;  /* number → Range* */
  GHashTable    *flows;        /* id → FlowPoint* */

  /* Names of the current buffer's string table, by ordinal. */
  guint32       *ordinal_names;
  guint          n_ordinals;

  guint32        default_flow_name;
} Model;

static void
format_data_free (gpointer data)
{
  WtfFormatData *fd = data;

  wtf_type_table_free (fd->types);
  g_array_unref (fd->buffers);
  g_array_unref (fd->appends);
  g_free (fd);
}

static void
zone_free (gpointer data)
{
  Zone *zone = data;

  g_array_unref (zone->stack);
  g_free (zone);
}

static inline guint32
source_of (guint64 offset)
{
  return offset < KYMO_NO_SOURCE ? (guint32) offset : KYMO_NO_SOURCE;
}

static Zone *
zone_new (Model      *model,
          guint16     id,
          const char *name)
{
  Zone *zone = g_new0 (Zone, 1);
  KymoTrack *group;

  zone->id = id;
  zone->group = kymo_trace_add_track (model->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, name);
  group = kymo_trace_get_track (model->trace, zone->group);
  kymo_track_set_group_kind (group, "zone");
  kymo_track_set_tag (group, id);
  kymo_track_set_sort_key (group, model->zones->len);
  zone->thread = kymo_trace_add_track (model->trace, zone->group, KYMO_TRACK_THREAD, "Events");
  zone->track = kymo_trace_get_track (model->trace, zone->thread);
  kymo_track_set_tag (zone->track, id);
  zone->stack = g_array_new (FALSE, FALSE, sizeof (Scope));
  g_ptr_array_add (model->zones, zone);
  return zone;
}

static Zone *
current_zone (Model *model)
{
  /* Events before any zone#set belong to a default zone. */
  if (G_UNLIKELY (model->current == NULL))
    model->current = zone_new (model, 0, "Default");
  return model->current;
}

static KymoTrack *
top_track (Model         *model,
           KymoTrack    **slot,
           KymoTrackKind  kind,
           const char    *name,
           gint64         sort_key)
{
  if (*slot == NULL)
    {
      guint id = kymo_trace_add_track (model->trace, KYMO_NO_TRACK, kind, name);
      *slot = kymo_trace_get_track (model->trace, id);
      kymo_track_set_sort_key (*slot, sort_key);
    }
  return *slot;
}

/* µs since the timebase, continuing across u32 wraps: the candidate nearest
 * to the previous event wins, so a jump back by more than half the range
 * is a wrap. */
static inline KymoTime
unwrap (Model   *model,
        guint32  time)
{
  gint64 t;

  if (G_UNLIKELY (!model->have_time))
    {
      model->have_time = TRUE;
      t = time;
    }
  else
    {
      t = (model->last_time & ~(gint64) G_MAXUINT32) | time;
      if (t - model->last_time > (gint64) G_MAXINT32)
        {
          if (t >= ((gint64) 1 << 32))
            t -= (gint64) 1 << 32;
        }
      else if (model->last_time - t > (gint64) G_MAXINT32)
        t += (gint64) 1 << 32;
    }
  model->last_time = t;
  t *= 1000;
  if (t > model->max_ts)
    model->max_ts = t;
  return t;
}

static guint
read_args (const WtfEvent *event,
           WtfValue       *values)
{
  const WtfEventType *type = event->type;
  guint n = MIN (type->n_args, MAX_BUILTIN_ARGS);
  gsize pos = event->args_pos;

  for (guint i = 0; i < n; i++)
    if (wtf_read_value (event->buffer, &type->args[i], &pos, &values[i]) != WTF_READ_OK)
      return i;
  return n;
}

static const WtfValue *
arg_named (const WtfEvent *event,
           const WtfValue *values,
           guint           n_values,
           const char     *name,
           guint           fallback)
{
  for (guint i = 0; i < n_values; i++)
    if (strcmp (event->type->args[i].name, name) == 0)
      return values[i].is_array ? NULL : &values[i];
  if (fallback < n_values && !values[fallback].is_array)
    return &values[fallback];
  return NULL;
}

static gboolean
value_is_string (const WtfValue *value)
{
  return value && !value->is_null &&
         (value->type == WTF_TYPE_ASCII || value->type == WTF_TYPE_UTF8 || value->type == WTF_TYPE_ANY);
}

static guint64
value_uint (const WtfValue *value)
{
  if (value == NULL || value->is_null || value_is_string (value) || value->type == WTF_TYPE_FLOAT32)
    return 0;
  return value->u;
}

/* Interns a string argument, cached per string-table ordinal. */
static guint32
intern_value (Model          *model,
              const WtfValue *value,
              guint32         fallback)
{
  guint32 id;

  if (!value_is_string (value))
    return fallback;
  if (value->s.ordinal < model->n_ordinals)
    {
      id = model->ordinal_names[value->s.ordinal];
      if (id == NO_NAME)
        id = model->ordinal_names[value->s.ordinal] =
          kymo_trace_intern_len (model->trace, value->s.str, (gssize) value->s.len);
      return id;
    }
  return kymo_trace_intern_len (model->trace, value->s.str, (gssize) value->s.len);
}

static void
push_scope (Model          *model,
            Zone           *zone,
            KymoTime        ts,
            guint32         name,
            guint           flags,
            gboolean        visible,
            const WtfEvent *event)
{
  Scope scope;

  scope.start = ts;
  scope.name = name;
  scope.source = source_of (event->offset);
  scope.flags = flags;
  scope.visible = visible;
  scope.depth = zone->depth;
  if (visible)
    zone->depth++;
  g_array_append_val (zone->stack, scope);
}

static void
close_scope (Zone     *zone,
             KymoTime  end,
             guint     extra_flags)
{
  Scope *scope = &g_array_index (zone->stack, Scope, zone->stack->len - 1);

  if (scope->visible)
    {
      kymo_track_add_span (zone->track, scope->start, MAX (end, scope->start), scope->name,
                           scope->depth, scope->flags | extra_flags, scope->source);
      zone->depth--;
    }
  g_array_set_size (zone->stack, zone->stack->len - 1);
}

static void
add_internal_instant (Model          *model,
                      KymoTime        ts,
                      const WtfEvent *event)
{
  if (model->show_internal)
    kymo_track_add_instant (current_zone (model)->track, ts, event->type->name_id,
                            KYMO_EVENT_INTERNAL, source_of (event->offset));
}

static void
add_marker (Model          *model,
            KymoTime        ts,
            guint32         name,
            const WtfValue *value,
            const WtfEvent *event)
{
  KymoTrack *track = top_track (model, &model->markers, KYMO_TRACK_MARKER, "Markers", -3);
  g_autofree char *text = NULL;

  if (value_is_string (value))
    text = g_strndup (value->s.str, value->s.len);
  kymo_track_add_annotation (track, ts, ts, name, text, source_of (event->offset));
}

static guint
take_range_depth (Model *model)
{
  guint depth;

  /* Lanes are capped so that a file opening ranges without end cannot make
   * this scan quadratic; past the cap ranges share the last lane. */
  for (depth = 0; depth < model->range_depths->len; depth++)
    if (!g_array_index (model->range_depths, gboolean, depth))
      break;
  if (depth >= MAX_RANGE_DEPTH)
    return MAX_RANGE_DEPTH - 1;
  if (depth == model->range_depths->len)
    g_array_set_size (model->range_depths, depth + 1);
  g_array_index (model->range_depths, gboolean, depth) = TRUE;
  return depth;
}

static void
flow_to (Model          *model,
         guint32         id,
         KymoTime        ts,
         guint32         name,
         gboolean        keep,
         const WtfEvent *event)
{
  FlowPoint *last = g_hash_table_lookup (model->flows, GUINT_TO_POINTER (id));
  guint track = current_zone (model)->thread;

  if (last)
    kymo_trace_add_flow (model->trace, last->track, last->ts, track, ts, name,
                         source_of (event->offset));
  if (!keep)
    {
      g_hash_table_remove (model->flows, GUINT_TO_POINTER (id));
      return;
    }
  if (last == NULL)
    {
      last = g_new (FlowPoint, 1);
      g_hash_table_insert (model->flows, GUINT_TO_POINTER (id), last);
    }
  last->track = track;
  last->ts = ts;
}

static gboolean
on_event (WtfWalker       *walker,
          const WtfEvent  *event,
          gpointer         user_data,
          GError         **error)
{
  Model *model = user_data;
  const WtfEventType *type = event->type;
  KymoTime ts = unwrap (model, event->time);
  WtfValue values[MAX_BUILTIN_ARGS];
  const WtfValue *v;
  guint n;

  switch (type->kind)
    {
    case WTF_KIND_GENERIC:
      {
        gboolean internal = (type->flags & WTF_FLAG_INTERNAL) != 0;
        gboolean visible = !internal || model->show_internal;
        guint flags = internal ? KYMO_EVENT_INTERNAL : 0;
        Zone *zone = current_zone (model);

        if (type->klass == WTF_CLASS_SCOPE)
          push_scope (model, zone, ts, type->name_id, flags, visible, event);
        else if (visible)
          kymo_track_add_instant (zone->track, ts, type->name_id, flags, source_of (event->offset));
      }
      break;

    case WTF_KIND_SCOPE_ENTER:
      {
        gsize pos = event->args_pos;

        /* Only the first argument (the name) matters here. */
        v = NULL;
        if (type->n_args > 0 && wtf_read_value (event->buffer, &type->args[0], &pos, &values[0]) == WTF_READ_OK)
          v = &values[0];
      }
      push_scope (model, current_zone (model), ts, intern_value (model, v, type->name_id), 0, TRUE, event);
      break;

    case WTF_KIND_SCOPE_ENTER_TRACING:
      push_scope (model, current_zone (model), ts, type->name_id, KYMO_EVENT_OVERHEAD, TRUE, event);
      break;

    case WTF_KIND_SCOPE_LEAVE:
      {
        Zone *zone = current_zone (model);

        add_internal_instant (model, ts, event);
        if (zone->stack->len > 0)
          close_scope (zone, ts, 0);
      }
      break;

    case WTF_KIND_APPEND_DATA:
      {
        Zone *zone = current_zone (model);

        add_internal_instant (model, ts, event);
        if (zone->stack->len > 0 && event->offset < KYMO_NO_SOURCE)
          {
            WtfAppend append;

            append.target = g_array_index (zone->stack, Scope, zone->stack->len - 1).source;
            append.append = (guint32) event->offset;
            if (append.target != KYMO_NO_SOURCE)
              g_array_append_val (model->fd->appends, append);
          }
      }
      break;

    case WTF_KIND_ZONE_CREATE:
      {
        const WtfValue *name;
        guint16 id;
        g_autofree char *label = NULL;

        n = read_args (event, values);
        id = (guint16) value_uint (arg_named (event, values, n, "zoneId", 0));
        name = arg_named (event, values, n, "name", 1);
        label = value_is_string (name) ? g_utf8_make_valid (name->s.str, (gssize) name->s.len)
                                       : g_strdup_printf ("Zone %u", id);
        model->by_id[id] = zone_new (model, id, label);
        add_internal_instant (model, ts, event);
      }
      break;

    case WTF_KIND_ZONE_SET:
      {
        guint16 id;

        n = read_args (event, values);
        id = (guint16) value_uint (arg_named (event, values, n, "zoneId", 0));
        if (model->by_id[id] == NULL)
          {
            g_autofree char *label = g_strdup_printf ("Zone %u", id);
            model->by_id[id] = zone_new (model, id, label);
          }
        model->current = model->by_id[id];
        add_internal_instant (model, ts, event);
      }
      break;

    case WTF_KIND_ZONE_DELETE:
    case WTF_KIND_FLOW_APPEND:
    case WTF_KIND_DEFINE:
      add_internal_instant (model, ts, event);
      break;

    case WTF_KIND_DISCONTINUITY:
      add_marker (model, ts, type->name_id, NULL, event);
      break;

    case WTF_KIND_MARK:
    case WTF_KIND_TIMESTAMP:
      n = read_args (event, values);
      v = arg_named (event, values, n, "name", 0);
      add_marker (model, ts, intern_value (model, v, type->name_id),
                  arg_named (event, values, n, "value", 1), event);
      break;

    case WTF_KIND_TIME_RANGE_BEGIN:
      {
        Range *range = g_new (Range, 1);
        guint32 id;

        n = read_args (event, values);
        id = (guint32) value_uint (arg_named (event, values, n, "id", 0));
        v = arg_named (event, values, n, "name", 1);
        range->start = ts;
        range->name = intern_value (model, v, type->name_id);
        range->source = source_of (event->offset);
        range->depth = take_range_depth (model);
        top_track (model, &model->ranges, KYMO_TRACK_THREAD, "Time ranges", -2);
        /* A begin again with an open id: the older one stays open. */
        if (g_hash_table_lookup (model->open_ranges, GUINT_TO_POINTER (id)))
          {
            Range *old = g_hash_table_lookup (model->open_ranges, GUINT_TO_POINTER (id));
            kymo_track_add_span (model->ranges, old->start, ts, old->name, old->depth,
                                 KYMO_EVENT_INCOMPLETE, old->source);
            g_array_index (model->range_depths, gboolean, old->depth) = FALSE;
          }
        g_hash_table_insert (model->open_ranges, GUINT_TO_POINTER (id), range);
      }
      break;

    case WTF_KIND_TIME_RANGE_END:
      {
        Range *range;
        guint32 id;

        n = read_args (event, values);
        id = (guint32) value_uint (arg_named (event, values, n, "id", 0));
        range = g_hash_table_lookup (model->open_ranges, GUINT_TO_POINTER (id));
        if (range)
          {
            kymo_track_add_span (model->ranges, range->start, MAX (ts, range->start), range->name,
                                 range->depth, 0, range->source);
            g_array_index (model->range_depths, gboolean, range->depth) = FALSE;
            g_hash_table_remove (model->open_ranges, GUINT_TO_POINTER (id));
          }
      }
      break;

    case WTF_KIND_FRAME_START:
      {
        Range *frame = g_new (Range, 1);
        guint32 number;

        n = read_args (event, values);
        number = (guint32) value_uint (arg_named (event, values, n, "number", 0));
        frame->start = ts;
        frame->source = source_of (event->offset);
        frame->depth = 0;
        {
          g_autofree char *label = g_strdup_printf ("Frame %u", number);
          frame->name = kymo_trace_intern (model->trace, label);
        }
        top_track (model, &model->frames, KYMO_TRACK_THREAD, "Frames", -1);
        g_hash_table_replace (model->open_frames, GUINT_TO_POINTER (number), frame);
      }
      break;

    case WTF_KIND_FRAME_END:
      {
        Range *frame;
        guint32 number;

        n = read_args (event, values);
        number = (guint32) value_uint (arg_named (event, values, n, "number", 0));
        frame = g_hash_table_lookup (model->open_frames, GUINT_TO_POINTER (number));
        if (frame)
          {
            kymo_track_add_span (model->frames, frame->start, MAX (ts, frame->start), frame->name,
                                 0, 0, frame->source);
            g_hash_table_remove (model->open_frames, GUINT_TO_POINTER (number));
          }
      }
      break;

    case WTF_KIND_FLOW_BRANCH:
      {
        guint32 id, parent;

        n = read_args (event, values);
        id = (guint32) value_uint (arg_named (event, values, n, "id", 0));
        parent = (guint32) value_uint (arg_named (event, values, n, "parentId", 1));
        v = arg_named (event, values, n, "name", 2);
        add_internal_instant (model, ts, event);
        if (parent != id && g_hash_table_contains (model->flows, GUINT_TO_POINTER (parent)))
          flow_to (model, parent, ts, intern_value (model, v, model->default_flow_name), TRUE, event);
        flow_to (model, id, ts, 0, TRUE, event);
      }
      break;

    case WTF_KIND_FLOW_EXTEND:
      n = read_args (event, values);
      v = arg_named (event, values, n, "name", 1);
      add_internal_instant (model, ts, event);
      flow_to (model, (guint32) value_uint (arg_named (event, values, n, "id", 0)), ts,
               intern_value (model, v, model->default_flow_name), TRUE, event);
      break;

    case WTF_KIND_FLOW_TERMINATE:
      n = read_args (event, values);
      add_internal_instant (model, ts, event);
      flow_to (model, (guint32) value_uint (arg_named (event, values, n, "id", 0)), ts,
               model->default_flow_name, FALSE, event);
      break;

    default:
      break;
    }
  return TRUE;
}

static gboolean
on_define (WtfWalker           *walker,
           const WtfEvent      *event,
           const WtfEventType  *type,
           gpointer             user_data,
           GError             **error)
{
  Model *model = user_data;

  ((WtfEventType *) type)->name_id = kymo_trace_intern (model->trace, type->name);
  /* A define has a time too: it belongs to the clock. */
  unwrap (model, event->time);
  return TRUE;
}

static void
on_buffer (WtfWalker       *walker,
           const WtfBuffer *buffer,
           gpointer         user_data)
{
  Model *model = user_data;
  WtfBufferInfo info;

  info.start = buffer->start;
  info.end = buffer->end;
  info.strtab_start = buffer->strtab_start;
  info.strtab_size = buffer->str_offsets ? buffer->strtab_size : 0;
  info.enc = buffer->enc;
  g_array_append_val (model->fd->buffers, info);

  g_free (model->ordinal_names);
  model->n_ordinals = buffer->str_offsets ? buffer->n_strings : 0;
  model->ordinal_names = g_new (guint32, MAX (model->n_ordinals, 1));
  memset (model->ordinal_names, 0xFF, sizeof (guint32) * MAX (model->n_ordinals, 1));
}

static void
set_json_metadata (KymoTrace  *trace,
                   const char *prefix,
                   JsonNode   *node)
{
  JsonObject *object;
  g_autoptr(GList) members = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return;
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l; l = l->next)
    {
      JsonNode *member = json_object_get_member (object, l->data);
      g_autofree char *key = g_strdup_printf ("%s.%s", prefix, (const char *) l->data);
      g_autofree char *text = NULL;

      if (JSON_NODE_HOLDS_NULL (member))
        continue;
      if (json_node_get_value_type (member) == G_TYPE_STRING)
        text = g_strdup (json_node_get_string (member));
      else
        text = json_to_string (member, FALSE);
      kymo_trace_set_metadata (trace, key, text);
    }
}

static void
set_json_text_metadata (KymoTrace  *trace,
                        const char *prefix,
                        const char *json,
                        gsize       len)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();

  if (json == NULL || len > G_MAXSSIZE)
    return;
  if (json_parser_load_from_data (parser, json, (gssize) len, NULL))
    set_json_metadata (trace, prefix, json_parser_get_root (parser));
}

static void
on_header (WtfWalker  *walker,
           const char *variant,
           guint32     wtf_version,
           guint32     flags,
           gint64      timebase_ms,
           const char *context_json,
           gsize       context_len,
           const char *metadata_json,
           gsize       metadata_len,
           JsonObject *cff_header,
           gpointer    user_data)
{
  Model *model = user_data;
  KymoTrace *trace = model->trace;
  g_autofree char *version = g_strdup_printf ("0x%08x", wtf_version);
  g_autofree char *timebase = g_strdup_printf ("%" G_GINT64_FORMAT, timebase_ms);

  kymo_trace_set_variant (trace, variant);
  kymo_trace_set_metadata (trace, "wtf.version", version);
  kymo_trace_set_metadata (trace, "wtf.timebase_ms", timebase);
  kymo_trace_set_metadata (trace, "wtf.high_resolution_times", flags & 1 ? "true" : "false");
  if (timebase_ms > 0 && timebase_ms < G_MAXINT64 / 1000000)
    kymo_trace_set_wallclock (trace, 0, timebase_ms * 1000000);

  set_json_text_metadata (trace, "context", context_json, context_len);
  set_json_text_metadata (trace, "metadata", metadata_json, metadata_len);
  if (cff_header)
    {
      set_json_metadata (trace, "context", json_object_get_member (cff_header, "contextInfo"));
      set_json_metadata (trace, "metadata", json_object_get_member (cff_header, "metadata"));
    }
}

static int
compare_append (gconstpointer a,
                gconstpointer b)
{
  const WtfAppend *x = a, *y = b;

  if (x->target != y->target)
    return x->target < y->target ? -1 : 1;
  return x->append < y->append ? -1 : x->append > y->append;
}

static void
finish (Model *model)
{
  GHashTableIter iter;
  gpointer value;

  /* What never closed runs to the end of the trace. */
  for (guint i = 0; i < model->zones->len; i++)
    {
      Zone *zone = g_ptr_array_index (model->zones, i);
      while (zone->stack->len > 0)
        close_scope (zone, model->max_ts, KYMO_EVENT_INCOMPLETE);
    }
  g_hash_table_iter_init (&iter, model->open_ranges);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Range *range = value;
      kymo_track_add_span (model->ranges, range->start, MAX (model->max_ts, range->start),
                           range->name, range->depth, KYMO_EVENT_INCOMPLETE, range->source);
    }
  g_hash_table_iter_init (&iter, model->open_frames);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      Range *frame = value;
      kymo_track_add_span (model->frames, frame->start, MAX (model->max_ts, frame->start),
                           frame->name, 0, KYMO_EVENT_INCOMPLETE, frame->source);
    }
  g_array_sort (model->fd->appends, compare_append);
}

gboolean
wtf_load_model (KymoLoadJob  *job,
                KymoTrace    *trace,
                GError      **error)
{
  static const WtfWalkerFuncs funcs = {
    .define = on_define,
    .event = on_event,
    .header = on_header,
    .buffer = on_buffer,
  };
  KymoInput *input = kymo_load_job_get_input (job);
  g_autofree Model *model = g_new0 (Model, 1);
  WtfWalker walker;
  gboolean ok;

  model->trace = trace;
  model->show_internal = kymo_load_job_get_options (job)->show_internal;
  model->fd = g_new0 (WtfFormatData, 1);
  model->fd->buffers = g_array_new (FALSE, FALSE, sizeof (WtfBufferInfo));
  model->fd->appends = g_array_new (FALSE, FALSE, sizeof (WtfAppend));
  model->zones = g_ptr_array_new_with_free_func (zone_free);
  model->open_ranges = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  model->open_frames = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  model->flows = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  model->range_depths = g_array_new (FALSE, TRUE, sizeof (gboolean));
  model->default_flow_name = kymo_trace_intern (trace, "flow");

  wtf_walker_init (&walker, job, input->main.data, input->main.size,
                   kymo_input_get_path (input), &funcs, model);
  ok = wtf_walker_run (&walker, error);
  finish (model);

  model->fd->types = g_steal_pointer (&walker.types);
  kymo_trace_set_format_data (trace, model->fd, format_data_free);
  wtf_walker_clear (&walker);

  g_ptr_array_unref (model->zones);
  g_hash_table_unref (model->open_ranges);
  g_hash_table_unref (model->open_frames);
  g_hash_table_unref (model->flows);
  g_array_unref (model->range_depths);
  g_free (model->ordinal_names);
  return ok;
}

/* describe */

static gboolean
buffer_for (KymoTrace     *trace,
            WtfFormatData *fd,
            guint64        offset,
            WtfBuffer     *buffer,
            GArray        *offsets)
{
  KymoInput *input = kymo_trace_get_input (trace);
  guint lo = 0, hi = fd->buffers->len;

  if (input == NULL)
    return FALSE;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      const WtfBufferInfo *info = &g_array_index (fd->buffers, WtfBufferInfo, mid);

      if (offset < info->start)
        hi = mid;
      else if (offset >= info->end)
        lo = mid + 1;
      else
        {
          if (info->end > input->main.size)
            return FALSE;
          memset (buffer, 0, sizeof *buffer);
          buffer->data = input->main.data;
          buffer->start = info->start;
          buffer->end = info->end;
          buffer->enc = info->enc;
          if (info->strtab_size > 0 || info->strtab_start > 0)
            wtf_buffer_set_strings (buffer, info->strtab_start, info->strtab_size, offsets);
          return TRUE;
        }
    }
  return FALSE;
}

/* Decodes the event at @offset into @object; returns its type. */
static const WtfEventType *
describe_event (KymoTrace     *trace,
                WtfFormatData *fd,
                guint64        offset,
                JsonObject    *object,
                gboolean       as_append)
{
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
  WtfBuffer buffer;
  const WtfEventType *type;
  guint32 wire_id, time;
  gsize pos = offset;
  WtfValue name_value = { 0 };
  gboolean have_name = FALSE;

  if (!buffer_for (trace, fd, offset, &buffer, offsets))
    return NULL;
  if (!wtf_read_event_header (&buffer, &pos, &wire_id, &time))
    return NULL;
  type = wtf_type_table_lookup_at (fd->types, wire_id, offset);
  if (type == NULL || !type->sizable)
    return NULL;

  for (guint i = 0; i < type->n_args; i++)
    {
      WtfValue value;

      if (wtf_read_value (&buffer, &type->args[i], &pos, &value) != WTF_READ_OK)
        break;
      /* wtf.scope#appendData(name, value) adds one field named by `name`. */
      if (as_append && type->kind == WTF_KIND_APPEND_DATA && strcmp (type->name, "wtf.scope#appendData") == 0)
        {
          if (strcmp (type->args[i].name, "name") == 0 && !value.is_array && !value.is_null &&
              (value.type == WTF_TYPE_ASCII || value.type == WTF_TYPE_UTF8))
            {
              name_value = value;
              have_name = TRUE;
              continue;
            }
          if (strcmp (type->args[i].name, "value") == 0 && have_name)
            {
              g_autofree char *key = g_utf8_make_valid (name_value.s.str, (gssize) name_value.s.len);
              json_object_set_member (object, key, wtf_value_to_node (&buffer, &value));
              continue;
            }
        }
      json_object_set_member (object, type->args[i].name, wtf_value_to_node (&buffer, &value));
    }
  return type;
}

JsonObject *
wtf_describe (KymoTrace          *trace,
              const KymoEventRef *ref)
{
  WtfFormatData *fd = kymo_trace_get_format_data (trace);
  KymoTrack *track = kymo_trace_get_track (trace, ref->track);
  g_autoptr(JsonObject) object = NULL;
  guint32 source = KYMO_NO_SOURCE;
  gsize n;

  if (fd == NULL || track == NULL)
    return NULL;
  switch (ref->kind)
    {
    case KYMO_EVENT_KIND_SPAN:
      {
        const KymoSpan *spans = kymo_track_get_spans (track, &n);
        if (ref->index < n)
          source = spans[ref->index].source;
      }
      break;
    case KYMO_EVENT_KIND_INSTANT:
      {
        const KymoInstant *instants = kymo_track_get_instants (track, &n);
        if (ref->index < n)
          source = instants[ref->index].source;
      }
      break;
    case KYMO_EVENT_KIND_ANNOTATION:
      {
        const KymoAnnotation *annotations = kymo_track_get_annotations (track, &n);
        if (ref->index < n)
          source = annotations[ref->index].source;
      }
      break;
    case KYMO_EVENT_KIND_NONE:
    case KYMO_EVENT_KIND_SAMPLE:
    default:
      break;
    }
  if (source == KYMO_NO_SOURCE)
    return NULL;

  object = json_object_new ();
  if (describe_event (trace, fd, source, object, FALSE) == NULL)
    return NULL;

  if (ref->kind == KYMO_EVENT_KIND_SPAN && fd->appends->len > 0)
    {
      /* First append for this span, then every one after it. */
      guint lo = 0, hi = fd->appends->len;

      while (lo < hi)
        {
          guint mid = lo + (hi - lo) / 2;
          if (g_array_index (fd->appends, WtfAppend, mid).target < source)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (; lo < fd->appends->len && g_array_index (fd->appends, WtfAppend, lo).target == source; lo++)
        describe_event (trace, fd, g_array_index (fd->appends, WtfAppend, lo).append, object, TRUE);
    }
  return g_steal_pointer (&object);
}
