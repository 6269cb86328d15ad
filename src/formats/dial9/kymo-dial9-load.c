/* kymo-dial9-load.c: one pass over the frames, collecting what the model needs
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <stdlib.h>

#include "kymo-dial9-files.h"
#include "kymo-dial9-gzip.h"
#include "kymo-dial9-pair.h"
#include "kymo-dial9-side.h"
#include "kymo-parts.h"

#define PROGRESS_BYTES (1 << 16)

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

/* Later segments are decoded speculatively on other threads while the
 * first is decoded for real (see d9_load): a part is everything from one
 * "TRC\0\1" candidate to the next one its decoder reaches exactly at a
 * frame boundary. Such a decoder has no trace: it interns names into a
 * table of its own, and stops ("bails") at anything that would change the
 * trace directly; the merge replays what it found in file order. */
typedef struct {
  const guint8 *data;
  gsize         size;
  gsize        *cands;       /* candidate offsets, ascending */
  guint         n_cands;
  GCancellable *cancellable; /* the job's, seen by the parts */
  gint          cancel;      /* atomic: the load was cancelled */
  gint          abandon;     /* atomic: the parts are not needed after all */
  gint          done_kb;     /* atomic: bytes decoded / 1024, for progress */
  D9Loader    **parts;       /* per candidate, once decoded (or NULL) */
  KymoLoadJob  *job;
  gboolean      streaming;   /* as the loader decodes */
} D9Shared;

typedef struct {
  guint32 pos;               /* flows of the part before it */
  guint32 order;             /* the poll's source in the part */
  D9Flow  flow;
} D9Insert;

struct _D9Spec {
  gboolean    complete;      /* decoded cleanly up to end_cand or the end */
  guint       end_cand;      /* G_MAXUINT: the end of the data */
  gboolean    bail;
  gboolean    probe;         /* d9_probe_damaged(): never bails */
  gboolean    has_order;
  KymoTime    first_order_ts;
  GHashTable *names;         /* name → local id + 1 */
  GPtrArray  *strings;       /* local id → name */
  GArray     *notes;         /* D9TaskNote, per task */
  D9Map       unknown_wakers; /* task ids that woke while not known polled here */
  /* Metadata the merge applies to the trace, in file order: the entries'
   * offsets of the metadata events, and the first clock sync. */
  GArray     *metas;         /* guint64 */
  gboolean    has_clock;
  KymoTime    clock_ts;
  gint64      clock_real;
  /* Set by the merge. */
  guint32     ordinal_base;
  guint32    *name_map;
  guint32    *worker_map;
  guint32    *task_map;
  GArray     *inserts;       /* D9Insert, by pos */
};

static guint32
intern_len (D9Loader   *l,
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

static inline void
spec_bail (D9Loader *l)
{
  /* A probe only walks the frames: it takes no event, so needs none. */
  if (!l->spec->probe)
    l->spec->bail = TRUE;
}

static D9TaskNote *
d9_spec_task_note (D9Loader *l,
                   guint32   task)
{
  GArray *notes = l->spec->notes;

  if (task >= notes->len)
    g_array_set_size (notes, l->d->tasks->len);
  return &g_array_index (notes, D9TaskNote, task);
}

void
d9_spec_unknown_waker (D9Loader *l,
                       guint64   waker)
{
  if (d9_map_lookup (&l->spec->unknown_wakers, waker) == G_MAXUINT32)
    d9_map_insert (&l->spec->unknown_wakers, waker, 0);
}

/* A task's first poll in a part: where a wake pending from an earlier part
 * would make its flow. */
void
d9_spec_first_poll (D9Loader     *l,
                    guint32       task,
                    guint         worker,
                    const D9Edge *e,
                    gboolean      had_flow)
{
  D9TaskNote *note = d9_spec_task_note (l, task);

  note->flags |= D9_TASK_POLLED | (had_flow ? D9_TASK_HAD_FLOW : 0);
  note->flow_pos = (guint32) l->flows->len;
  note->poll_source = e->source;
  note->poll_worker = worker;
  note->poll_ts = e->ts;
}

static gboolean
bytes_eq (const guint8 *data,
          gsize         len,
          const char   *str)
{
  return strlen (str) == len && memcmp (data, str, len) == 0;
}

static void
compile_plan (D9Registry     *reg,
              const D9Schema *schema,
              D9Model        *model)
{
  guint32 max = 0;

  model->has_plan = FALSE;
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
        default:
          /* Stacks, string maps, lists and maps take the generic loop. */
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
}

/* Reads the fields of an event at @p by its plan, given at least
 * model->plan_max bytes there: only string bodies need a check, against
 * the bytes beyond what the other fields can take. Returns the end, or 0
 * when the generic loop must read the event (it then reports the damage:
 * a bad optional marker, a varint longer than ten bytes, a string past the
 * end). Values and absent bits are as d9_read_scalar gives them. */
static inline gsize
run_plan (const D9Model *model,
          const guint8  *data,
          gsize          size,
          gsize          p,
          guint64       *vals,
          guint64       *absent)
{
  const guint8 *q = data + p;
  gsize slack = size - p - model->plan_max;
  guint n = model->n_ops;

  for (guint i = 0; i < n; i++)
    {
      guint8 op = model->ops[i];

      if (G_UNLIKELY (op & D9_OP_OPTIONAL))
        {
          if (*q == 0)
            {
              vals[i] = 0;
              *absent |= (guint64) 1 << i;
              q++;
              continue;
            }
          if (*q != 1)
            return 0;
          q++;
          op &= ~D9_OP_OPTIONAL;
        }
      switch ((D9Op) op)
        {
        case D9_OP_U8:
          vals[i] = q[0];
          q += 1;
          break;
        case D9_OP_U16:
          vals[i] = d9_u16 (q);
          q += 2;
          break;
        case D9_OP_U32:
          vals[i] = d9_u32 (q);
          q += 4;
          break;
        case D9_OP_U64:
          vals[i] = d9_u64 (q);
          q += 8;
          break;
        case D9_OP_STRING:
          {
            guint32 len = d9_u32 (q);

            if (G_UNLIKELY (len > slack))
              return 0;
            slack -= len;
            vals[i] = q - data;
            q += 4 + (gsize) len;
          }
          break;
        case D9_OP_VARINT:
        default:
          if (G_LIKELY (q[0] < 0x80))
            {
              vals[i] = q[0];
              q += 1;
            }
          else
            {
              guint64 v = 0;
              guint k;

              /* As d9_varint: ten bytes at most, bits past 64 dropped. */
              for (k = 0; k < 10; k++)
                {
                  v |= (guint64) (q[k] & 0x7F) << (7 * k);
                  if ((q[k] & 0x80) == 0)
                    break;
                }
              if (G_UNLIKELY (k == 10))
                return 0;
              vals[i] = v;
              q += k + 1;
            }
          break;
        }
    }
  return q - data;
}

static void
classify (D9Loader       *l,
          const D9Schema *schema,
          D9Model        *model)
{
  D9Registry *reg = &l->d->reg;
  g_autofree char *name = g_strndup ((const char *) schema->name, schema->name_len);

  memset (model, 0, sizeof *model);
  memset (model->field, -1, sizeof model->field);
  model->kind = D9_KIND_GENERIC;
  model->name = intern_len (l, (const char *) schema->name, schema->name_len);
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
          model->alt_name = intern_len (l, name + strlen (known[k].name), -1);
        }
      break;
    }
  model->unclocked = model->kind == D9_KIND_SYMBOL || model->kind == D9_KIND_CALLFRAME;
  compile_plan (reg, schema, model);
  d9_side_classify (reg, schema, model);
}

D9Worker *
d9_loader_worker (D9Loader *l,
                  guint64   id)
{
  guint32 index = id < 256 ? l->small_workers[id] - 1 : d9_map_lookup (&l->worker_map, id);
  D9Worker *w;

  if (G_LIKELY (index != G_MAXUINT32))
    return g_ptr_array_index (l->workers, index);

  w = g_new0 (D9Worker, 1);
  w->id = id;
  w->edges = g_array_new (FALSE, FALSE, sizeof (D9Edge));
  w->instants = g_array_new (FALSE, FALSE, sizeof (KymoInstant));
  w->wakes = d9_vec_new ();
  w->stack = g_array_new (FALSE, FALSE, sizeof (D9Open));
  w->deep = g_array_new (FALSE, FALSE, sizeof (D9DeepSpan));
  w->spans0 = d9_vec_new ();
  w->lq_samples = d9_vec_new ();
  /* A part's runs are joined in by moving their pages: see copy_part(). */
  w->wakes->map_from = w->spans0->map_from = w->lq_samples->map_from = l->map_from;
  w->track = KYMO_NO_TRACK;
  w->lq_track = KYMO_NO_TRACK;
  index = l->workers->len;
  w->index = index;
  g_ptr_array_add (l->workers, w);
  if (id < 256)
    l->small_workers[id] = index + 1;
  else
    d9_map_insert (&l->worker_map, id, index);
  return w;
}

guint32
d9_loader_task (D9Loader *l,
                guint64   id)
{
  guint32 index = d9_loader_find_task (l, id);
  D9Task task;

  if (G_LIKELY (index != G_MAXUINT32))
    return index;
  task.id = id;
  task.spawn = KYMO_TIME_NONE;
  task.terminate = KYMO_TIME_NONE;
  task.spawn_loc = G_MAXUINT32;
  task.worker = G_MAXUINT32;
  task.polls = 0;
  task.wake_source = KYMO_NO_SOURCE;
  task.wake_track = KYMO_NO_TRACK;
  task.wake_ts = 0;
  index = l->d->tasks->len;
  g_array_append_val (l->d->tasks, task);
  d9_map_insert (&l->d->task_map, id, index);
  /* Grow the direct table while the ids stay dense (bounded by the number
   * of tasks, so a hostile id costs nothing). */
  if (id >= l->n_task_direct && id < MIN ((guint64) l->d->tasks->len * 8 + 65536, G_MAXUINT32))
    {
      gsize n = MAX (l->n_task_direct, 4096);

      while (n <= id)
        n *= 2;
      l->task_direct = g_renew (guint32, l->task_direct, n);
      memset (l->task_direct + l->n_task_direct, 0, (n - l->n_task_direct) * sizeof (guint32));
      l->n_task_direct = n;
    }
  if (id < l->n_task_direct)
    l->task_direct[id] = index + 1;
  return index;
}

guint
d9_loader_name_track (D9Loader      *l,
                      guint32        name,
                      KymoTrackKind  kind)
{
  gpointer v = g_hash_table_lookup (l->tracks_by_name, GUINT_TO_POINTER (name));
  guint track;

  if (v != NULL)
    return GPOINTER_TO_UINT (v) - 1;
  track = kymo_trace_add_track (l->trace, KYMO_NO_TRACK, kind, kymo_trace_get_name (l->trace, name));
  /* After the runtimes. */
  kymo_track_set_sort_key (kymo_trace_get_track (l->trace, track), 1000);
  g_hash_table_insert (l->tracks_by_name, GUINT_TO_POINTER (name), GUINT_TO_POINTER (track + 1));
  return track;
}

/* Interned name of a pooled string, once per pool entry. */
static guint32
pool_name (D9Loader *l,
           guint64   pool_id,
           guint32   fallback)
{
  D9PoolString *s;
  guint32 i;

  if (G_LIKELY (pool_id < G_N_ELEMENTS (l->pool_names)) && l->pool_names[pool_id] != 0)
    return l->pool_names[pool_id] - 1;
  i = d9_map_lookup (&l->d->string_map, (guint64) l->d->reg.segment << 32 | (guint32) pool_id);
  if (i == G_MAXUINT32)
    return fallback;
  s = &g_array_index (l->d->pool_strings, D9PoolString, i);
  if (G_UNLIKELY (s->name == G_MAXUINT32))
    s->name = intern_len (l, (const char *) s->data, s->len);
  if (pool_id < G_N_ELEMENTS (l->pool_names))
    l->pool_names[pool_id] = s->name + 1;
  return s->name;
}

/* The per-event lookups' common case, inline. */
static inline D9Worker *
loader_worker (D9Loader *l,
               guint64   id)
{
  if (G_LIKELY (id < 256) && l->small_workers[id] != 0)
    return g_ptr_array_index (l->workers, l->small_workers[id] - 1);
  return d9_loader_worker (l, id);
}

static inline guint32
loader_task (D9Loader *l,
             guint64   id)
{
  if (G_LIKELY (id < l->n_task_direct) && l->task_direct[id] != 0)
    return l->task_direct[id] - 1;
  return d9_loader_task (l, id);
}

static inline guint32
pool_name_fast (D9Loader *l,
                guint64   pool_id,
                guint32   fallback)
{
  if (G_LIKELY (pool_id < G_N_ELEMENTS (l->pool_names)) && l->pool_names[pool_id] != 0)
    return l->pool_names[pool_id] - 1;
  return pool_name (l, pool_id, fallback);
}

static inline void
push_edge (D9Worker   *w,
           KymoTime    ts,
           D9EdgeKind  kind,
           guint32     name,
           guint64     aux,
           guint32     source)
{
  D9Edge e = { ts, aux, source, (name & KYMO_NAME_MAX) | (guint32) kind << 24 };
  g_array_append_val (w->edges, e);
}

static void
add_instant (D9Loader *l,
             guint     track,
             KymoTime  ts,
             guint32   name,
             guint32   source)
{
  D9Pending p = { { ts, MIN (name, KYMO_NAME_MAX), source }, track, 0 };
  g_array_append_val (l->pending, p);
}

/* Streaming holds while span and wake events come in time order (then file
 * order is the merge's (ts, source) order). */
static inline gboolean
in_order (D9Loader *l,
          KymoTime  ts,
          guint32   source)
{
  if (G_UNLIKELY (ts < l->order_ts || source == KYMO_NO_SOURCE))
    {
      l->disorder = TRUE;
      return FALSE;
    }
  if (G_UNLIKELY (l->spec != NULL) && !l->spec->has_order)
    {
      l->spec->has_order = TRUE;
      l->spec->first_order_ts = ts;
    }
  l->order_ts = ts;
  return TRUE;
}

static inline void
edge (D9Loader   *l,
      D9Worker   *w,
      KymoTime    ts,
      D9EdgeKind  kind,
      guint32     name,
      guint64     aux,
      guint32     source)
{
  if (l->streaming)
    {
      D9Edge e = { ts, aux, source, (name & KYMO_NAME_MAX) | (guint32) kind << 24 };

      if (in_order (l, ts, source))
        {
          if (G_UNLIKELY (l->spec != NULL) && kind <= D9_EDGE_UNPARK && w->first_source[kind - 1] == 0)
            {
              w->first_source[kind - 1] = source + 1;
              w->first_ts[kind - 1] = ts;
            }
          d9_pair_edge (l, w->index, w, &e);
        }
    }
  else
    push_edge (w, ts, kind, name, aux, source);
}

static guint
model_track (D9Loader *l,
             D9Model  *model)
{
  if (model->track == KYMO_NO_TRACK)
    model->track = d9_loader_name_track (l, model->name, KYMO_TRACK_INSTANT);
  return model->track;
}

static gboolean
field_present (const D9Model *model,
               D9Role         role,
               guint64        absent)
{
  gint8 f = model->field[role];
  return f >= 0 && !(absent >> f & 1);
}

/* The entries of a metadata event at @p (checked when the frame was
 * decoded). */
static void
meta_entries (D9Loader *l,
              gsize     p)
{
  const guint8 *data = l->d->data;
  guint32 n;

  n = d9_u32 (data + p);
  p += 4;
  for (guint32 i = 0; i < n; i++)
    {
      guint32 klen = d9_u32 (data + p), vlen;
      g_autofree char *key = g_strndup ((const char *) data + p + 4, klen);
      g_autofree char *value = NULL;

      p += 4 + klen;
      vlen = d9_u32 (data + p);
      value = g_strndup ((const char *) data + p + 4, vlen);
      p += 4 + vlen;
      kymo_trace_set_metadata (l->trace, key, value);

      if (g_str_has_prefix (key, "runtime.") && key[8] != '\0')
        {
          D9Runtime *rt = NULL;
          g_auto(GStrv) ids = g_strsplit (value, ",", -1);

          for (guint r = 0; r < l->runtimes->len && rt == NULL; r++)
            if (g_str_equal (((D9Runtime *) g_ptr_array_index (l->runtimes, r))->name, key + 8))
              rt = g_ptr_array_index (l->runtimes, r);
          if (rt == NULL)
            {
              rt = g_new0 (D9Runtime, 1);
              rt->name = g_strdup (key + 8);
              rt->workers = g_array_new (FALSE, FALSE, sizeof (guint64));
              g_ptr_array_add (l->runtimes, rt);
            }
          for (guint k = 0; ids[k] != NULL && rt->workers->len < 4096; k++)
            {
              guint64 id;
              if (g_ascii_string_to_unsigned (g_strstrip (ids[k]), 10, 0, G_MAXUINT64, &id, NULL))
                g_array_append_val (rt->workers, id);
            }
        }
    }
}

static void
handle_meta (D9Loader      *l,
             const D9Model *model,
             const guint64 *vals,
             guint64        absent)
{
  if (!field_present (model, D9_ROLE_ENTRIES, absent))
    return;
  /* A part decoded on its own has no trace: the merge applies them. */
  if (l->spec != NULL)
    {
      guint64 p = vals[model->field[D9_ROLE_ENTRIES]];

      if (!l->spec->probe)
        g_array_append_val (l->spec->metas, p);
      return;
    }
  meta_entries (l, vals[model->field[D9_ROLE_ENTRIES]]);
}

static void
handle_symbol (D9Loader      *l,
               const D9Model *model,
               const guint64 *vals,
               guint64        absent)
{
  D9Symbol sym = { 0 };
  const guint8 *data = l->d->data;

  sym.addr = vals[model->field[D9_ROLE_ADDR]];
  if (field_present (model, D9_ROLE_SIZE, absent))
    sym.size = vals[model->field[D9_ROLE_SIZE]];
  if (field_present (model, D9_ROLE_INLINE, absent))
    sym.inline_depth = (guint32) MIN (vals[model->field[D9_ROLE_INLINE]], G_MAXUINT32);
  if (field_present (model, D9_ROLE_LINE, absent))
    sym.line = vals[model->field[D9_ROLE_LINE]];

  if (model->kind == D9_KIND_SYMBOL)
    {
      const D9PoolString *s;

      if (field_present (model, D9_ROLE_SYMBOL, absent) &&
          (s = d9_data_pool_string (l->d, l->d->reg.segment, (guint32) vals[model->field[D9_ROLE_SYMBOL]])))
        {
          sym.name = s->data;
          sym.name_len = s->len;
        }
      if (field_present (model, D9_ROLE_FILE, absent) &&
          (s = d9_data_pool_string (l->d, l->d->reg.segment, (guint32) vals[model->field[D9_ROLE_FILE]])))
        {
          sym.file = s->data;
          sym.file_len = s->len;
        }
    }
  else
    {
      if (field_present (model, D9_ROLE_SYMBOL, absent))
        {
          gsize p = vals[model->field[D9_ROLE_SYMBOL]];
          sym.name_len = d9_u32 (data + p);
          sym.name = data + p + 4;
        }
      if (field_present (model, D9_ROLE_FILE, absent))
        {
          gsize p = vals[model->field[D9_ROLE_FILE]];
          sym.file_len = d9_u32 (data + p);
          sym.file = data + p + 4;
        }
    }
  if (sym.name != NULL)
    g_array_append_val (l->d->symbols, sym);
}

static void
add_late (D9Loader *l,
          D9Model  *model,
          KymoTime  ts,
          guint32   source)
{
  D9Late late = { ts, model_track (l, model), model->name, source, !model->unclocked };
  g_array_append_val (l->late, late);
}

static void
handle_single_event_span (D9Loader      *l,
                          D9Model       *model,
                          KymoTime       ts,
                          const guint64 *vals,
                          guint64        absent,
                          guint32        source)
{
  KymoSpan span;
  guint32 name = model->name;
  double v;

  if (model->se_track == G_MAXUINT)
    {
      guint32 track_name = model->se_type != G_MAXUINT32 ? model->se_type : model->name;
      guint track = d9_loader_name_track (l, track_name, KYMO_TRACK_THREAD);

      model->se_track = G_MAXUINT;
      for (guint i = 0; i < l->se_tracks->len; i++)
        if (g_array_index (l->se_tracks, guint, i) == track)
          model->se_track = i;
      if (model->se_track == G_MAXUINT)
        {
          model->se_track = l->se_tracks->len;
          g_array_append_val (l->se_tracks, track);
          g_ptr_array_add (l->se_spans, g_array_new (FALSE, FALSE, sizeof (KymoSpan)));
        }
    }

  if (field_present (model, D9_ROLE_SE_NAME, absent))
    {
      guint64 at = vals[model->field[D9_ROLE_SE_NAME]];

      if (model->se_name_type == D9_POOLED_STRING)
        name = pool_name (l, at, model->name);
      else if (model->se_name_type == D9_STRING)
        name = intern_len (l, (const char *) l->d->data + at + 4, d9_u32 (l->d->data + at));
    }

  span.end = ts;
  span.start = ts;
  if (field_present (model, D9_ROLE_SE_DURATION, absent))
    {
      v = (double) vals[model->field[D9_ROLE_SE_DURATION]] * model->se_scale;
      span.start = ts - (KymoTime) MIN (v, (double) G_MAXINT32 * 1e9);
    }
  else if (field_present (model, D9_ROLE_SE_START, absent))
    {
      v = (double) vals[model->field[D9_ROLE_SE_START]] * model->se_scale;
      span.start = (KymoTime) MIN (v, (double) ts);
    }
  span.name_flags = name;
  span.source = source;
  g_array_append_val (g_ptr_array_index (l->se_spans, model->se_track), span);
}

/* Handles one decoded event. @vals holds the first fields' values. */
static void
handle_event (D9Loader      *l,
              D9Model       *model,
              KymoTime       ts,
              const guint64 *vals,
              guint64        absent,
              guint32        source)
{
  D9Worker *w;
  guint64 lq;
  guint32 task;

  if (G_UNLIKELY (model->unclocked || ts >= D9_WALLCLOCK_MIN))
    {
      /* A part decoded on its own takes symbols and metadata (its symbols
       * point into the stream; the merge applies the metadata), but the
       * late events would make tracks. */
      if (l->spec != NULL && !d9_kind_is_metadata (model->kind))
        {
          spec_bail (l);
          return;
        }
      if (model->kind == D9_KIND_SYMBOL || model->kind == D9_KIND_CALLFRAME)
        handle_symbol (l, model, vals, absent);
      else if (model->kind == D9_KIND_META)
        handle_meta (l, model, vals, absent);
      /* Metadata feeds the model; it is not drawn. */
      if (!d9_kind_is_metadata (model->kind))
        add_late (l, model, ts, source);
      return;
    }

  if (ts < l->min_ts)
    l->min_ts = ts;
  if (ts > l->max_ts)
    l->max_ts = ts;

  switch (model->kind)
    {
    case D9_KIND_POLL_START:
      if (!field_present (model, D9_ROLE_WORKER, absent))
        break;
      w = loader_worker (l, vals[model->field[D9_ROLE_WORKER]]);
      task = field_present (model, D9_ROLE_TASK, absent)
             ? loader_task (l, vals[model->field[D9_ROLE_TASK]]) : G_MAXUINT32;
      lq = field_present (model, D9_ROLE_LOCAL_QUEUE, absent)
           ? MIN (vals[model->field[D9_ROLE_LOCAL_QUEUE]], G_MAXUINT32 - 1) + 1 : 0;
      {
        guint32 name = l->name_poll;
        if (field_present (model, D9_ROLE_SPAWN_LOC, absent))
          {
            guint64 pool_id = vals[model->field[D9_ROLE_SPAWN_LOC]];
            name = pool_name_fast (l, pool_id, l->name_poll);
            if (task != G_MAXUINT32)
              {
                D9Task *t = &g_array_index (l->d->tasks, D9Task, task);
                if (t->spawn_loc == G_MAXUINT32)
                  t->spawn_loc = d9_map_lookup (&l->d->string_map,
                                                (guint64) l->d->reg.segment << 32 | (guint32) pool_id);
              }
          }
        edge (l, w, ts, D9_EDGE_POLL_START, name, (guint64) task | lq << 32, source);
      }
      return;

    case D9_KIND_POLL_END:
    case D9_KIND_PARK:
    case D9_KIND_UNPARK:
      if (!field_present (model, D9_ROLE_WORKER, absent))
        break;
      w = loader_worker (l, vals[model->field[D9_ROLE_WORKER]]);
      lq = field_present (model, D9_ROLE_LOCAL_QUEUE, absent)
           ? MIN (vals[model->field[D9_ROLE_LOCAL_QUEUE]], G_MAXUINT32 - 1) + 1 : 0;
      edge (l, w, ts,
            model->kind == D9_KIND_POLL_END ? D9_EDGE_POLL_END :
            model->kind == D9_KIND_PARK ? D9_EDGE_PARK : D9_EDGE_UNPARK,
            model->kind == D9_KIND_POLL_END ? 0 : l->name_parked, lq << 32, source);
      return;

    case D9_KIND_SPAN_ENTER:
    case D9_KIND_SPAN_EXIT:
      if (!field_present (model, D9_ROLE_WORKER, absent) || !field_present (model, D9_ROLE_SPAN_ID, absent))
        break;
      w = loader_worker (l, vals[model->field[D9_ROLE_WORKER]]);
      edge (l, w, ts, model->kind == D9_KIND_SPAN_ENTER ? D9_EDGE_ENTER : D9_EDGE_EXIT,
            field_present (model, D9_ROLE_SPAN_NAME, absent)
            ? pool_name_fast (l, vals[model->field[D9_ROLE_SPAN_NAME]], model->alt_name)
            : model->alt_name,
            vals[model->field[D9_ROLE_SPAN_ID]], source);
      return;

    case D9_KIND_QUEUE:
      if (field_present (model, D9_ROLE_GLOBAL_QUEUE, absent))
        {
          KymoSample s = { ts, (double) vals[model->field[D9_ROLE_GLOBAL_QUEUE]] };
          g_array_append_val (l->queue, s);
        }
      return;

    case D9_KIND_WAKE:
      if (field_present (model, D9_ROLE_WAKER, absent))
        {
          D9Wake wake = { ts, vals[model->field[D9_ROLE_WAKER]], G_MAXUINT32, source };
          if (field_present (model, D9_ROLE_WOKEN, absent))
            wake.woken = loader_task (l, vals[model->field[D9_ROLE_WOKEN]]);
          if (!l->streaming)
            g_array_append_val (l->wakes, wake);
          else if (in_order (l, ts, source))
            d9_pair_wake (l, &wake);
          return;
        }
      break;

    case D9_KIND_SPAWN:
    case D9_KIND_TERMINATE:
      if (field_present (model, D9_ROLE_TASK, absent))
        {
          /* The lookup may grow the array: index it afterwards. */
          guint32 index = loader_task (l, vals[model->field[D9_ROLE_TASK]]);
          D9Task *t = &g_array_index (l->d->tasks, D9Task, index);
          if (model->kind == D9_KIND_SPAWN)
            {
              t->spawn = ts;
              if (field_present (model, D9_ROLE_SPAWN_LOC, absent))
                {
                  t->spawn_loc = d9_map_lookup (&l->d->string_map,
                                                (guint64) l->d->reg.segment << 32 |
                                                (guint32) vals[model->field[D9_ROLE_SPAWN_LOC]]);
                  if (G_UNLIKELY (l->spec != NULL))
                    d9_spec_task_note (l, index)->flags |= D9_TASK_LOC_SET;
                }
            }
          else
            t->terminate = ts;
        }
      break;

    case D9_KIND_CPU:
      w = loader_worker (l, field_present (model, D9_ROLE_WORKER, absent)
                               ? vals[model->field[D9_ROLE_WORKER]] : D9_WORKER_NONE);
      {
        KymoInstant instant = { ts,
                                field_present (model, D9_ROLE_SOURCE, absent) &&
                                vals[model->field[D9_ROLE_SOURCE]] == 1 ? l->name_sched : l->name_cpu,
                                source };
        g_array_append_val (w->instants, instant);
      }
      return;

    case D9_KIND_META:
      handle_meta (l, model, vals, absent);
      return;

    case D9_KIND_CLOCK:
      if (!l->has_wallclock && field_present (model, D9_ROLE_REALTIME, absent))
        {
          l->has_wallclock = TRUE;
          l->wall_offset = (gint64) vals[model->field[D9_ROLE_REALTIME]] - ts;
          if (l->spec != NULL)
            {
              l->spec->has_clock = TRUE;
              l->spec->clock_ts = ts;
              l->spec->clock_real = (gint64) vals[model->field[D9_ROLE_REALTIME]];
            }
          else
            kymo_trace_set_wallclock (l->trace, ts, (gint64) vals[model->field[D9_ROLE_REALTIME]]);
        }
      return;

    case D9_KIND_TASK_DUMP:
      /* Per-task stacks, read by describe: not a track of their own. */
      return;

    case D9_KIND_GENERIC:
      if (model->field[D9_ROLE_SE_DURATION] >= 0 || model->field[D9_ROLE_SE_START] >= 0)
        {
          if (l->spec != NULL)
            {
              spec_bail (l);
              return;
            }
          handle_single_event_span (l, model, ts, vals, absent, source);
          return;
        }
      if (field_present (model, D9_ROLE_WORKER, absent))
        {
          KymoInstant instant = { ts, model->name, source };
          w = loader_worker (l, vals[model->field[D9_ROLE_WORKER]]);
          g_array_append_val (w->instants, instant);
          return;
        }
      break;

    case D9_KIND_SYMBOL:
    case D9_KIND_CALLFRAME:
      break;
    }

  /* Named tracks are made in file order: the merge makes them for a part
   * decoded on its own, which only keeps the name. */
  add_instant (l, l->spec != NULL ? G_MAXUINT : model_track (l, model), ts, model->name, source);
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
static void
apply_annotations (D9Loader       *l,
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
        model->se_type = intern_len (l, (const char *) value, value_len);
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

static void
register_pool (D9Loader *l,
               gsize     p,
               guint32   count,
               gboolean  stacks)
{
  const guint8 *data = l->d->data;
  guint64 seg = (guint64) l->d->reg.segment << 32;

  p += 4;
  for (guint32 i = 0; i < count; i++)
    {
      guint32 id = d9_u32 (data + p), len = d9_u32 (data + p + 4);

      if (stacks)
        {
          D9PoolStack s = { data + p + 8, len };
          d9_map_insert (&l->d->stack_map, seg | id, l->d->pool_stacks->len);
          g_array_append_val (l->d->pool_stacks, s);
          p += 8 + (gsize) len * 8;
        }
      else
        {
          D9PoolString s = { data + p + 8, len, G_MAXUINT32 };
          /* A re-defined id names something else from now on. */
          if (id < G_N_ELEMENTS (l->pool_names))
            l->pool_names[id] = 0;
          d9_map_insert (&l->d->string_map, seg | id, l->d->pool_strings->len);
          g_array_append_val (l->d->pool_strings, s);
          p += 8 + (gsize) len;
        }
    }
}

typedef struct {
  D9Status status;
  gsize    offset;
  guint    end_cand;  /* stopped at this candidate (a segment), or G_MAXUINT */
  char     message[160];
} D9Stop;

/* Progress and cancellation every PROGRESS_BYTES: only a loader with a
 * job reports (on the thread that loads); the others see the cancel flag. */
static gboolean
decode_progress (D9Loader  *l,
                 D9Shared  *sh,
                 gsize      p,
                 GError   **error)
{
  double fraction;

  if (sh == NULL)
    fraction = (double) p / l->d->size;
  else
    {
      gint kb = g_atomic_int_add (&sh->done_kb, PROGRESS_BYTES / 1024) + PROGRESS_BYTES / 1024;

      fraction = MIN ((double) kb * 1024 / sh->size, 1.0);
      if (l->job == NULL)
        return !g_atomic_int_get (&sh->cancel) && !g_atomic_int_get (&sh->abandon) &&
               !g_cancellable_is_cancelled (sh->cancellable);
    }
  if (!kymo_load_job_progress (l->job, 0.5 + 0.4 * fraction, "Decoding", error))
    {
      if (sh != NULL)
        g_atomic_int_set (&sh->cancel, 1);
      return FALSE;
    }
  return TRUE;
}

/* Decodes the frames from @start (a segment header, or just after the
 * first one); stops at damage, and with @sh at the first candidate from
 * @next_cand on that it reaches at a frame boundary. Returns FALSE only
 * when cancelled. */
static gboolean
decode (D9Loader  *l,
        D9Shared  *sh,
        gsize      start,
        guint      next_cand,
        D9Stop    *stop,
        GError   **error)
{
  D9Data *d = l->d;
  D9Registry *reg = &d->reg;
  const guint8 *data = d->data;
  gsize size = d->size, p = start, next_progress = start + PROGRESS_BYTES;
  gsize stop_at = sh != NULL && next_cand < sh->n_cands ? sh->cands[next_cand] : G_MAXSIZE;
  gsize next_check = MIN (next_progress, stop_at);
  guint64 base = 0, ordinal = d->n_events;
  guint64 vals[D9_MAX_KEPT_FIELDS];

  stop->status = D9_OK;
  stop->end_cand = G_MAXUINT;
  while (p < size)
    {
      gsize frame = p;
      guint8 tag = data[p];

      if (G_UNLIKELY (p >= next_check))
        {
          if (p >= stop_at)
            {
              /* A candidate inside a frame was no segment: go on to the next. */
              while (next_cand < sh->n_cands && sh->cands[next_cand] < p)
                next_cand++;
              if (next_cand < sh->n_cands && sh->cands[next_cand] == p)
                {
                  /* The part from here is decoded on its own. */
                  stop->end_cand = next_cand;
                  break;
                }
              stop_at = next_cand < sh->n_cands ? sh->cands[next_cand] : G_MAXSIZE;
            }
          if (p >= next_progress)
            {
              if (!decode_progress (l, sh, p, error))
                return FALSE;
              next_progress = p + PROGRESS_BYTES;
            }
          next_check = MIN (next_progress, stop_at);
        }

      if (G_LIKELY (tag == D9_TAG_EVENT))
        {
          const D9Schema *schema;
          const D9Field *fields;
          D9Model *model;
          guint64 base_before = base, ts, absent = 0;
          D9Status st = D9_OK;
          guint n;

          if (G_UNLIKELY (size - p < 3))
            {
              stop->status = D9_TRUNCATED;
              break;
            }
          schema = d9_registry_lookup (reg, d9_u16 (data + p + 1));
          if (G_UNLIKELY (schema == NULL))
            {
              stop->status = D9_CORRUPT;
              g_snprintf (stop->message, sizeof stop->message,
                          "event of type_id %u, which has no schema", d9_u16 (data + p + 1));
              break;
            }
          p += 3;
          ts = base;
          if (schema->has_ts)
            {
              if (G_UNLIKELY (size - p < 3))
                {
                  stop->status = D9_TRUNCATED;
                  p = frame;
                  break;
                }
              ts = base + (data[p] | (guint32) data[p + 1] << 8 | (guint32) data[p + 2] << 16);
              p += 3;
            }

          model = &g_array_index (l->models, D9Model, schema->model);
          if (G_LIKELY (model->has_plan && size - p >= model->plan_max))
            {
              gsize end = run_plan (model, data, size, p, vals, &absent);

              if (G_LIKELY (end != 0))
                {
                  p = end;
                  goto decoded;
                }
              absent = 0;
            }
          fields = &g_array_index (reg->fields, D9Field, schema->first_field);
          n = schema->n_fields;
          for (guint i = 0; i < n; i++)
            {
              guint64 v;
              gboolean present;

              st = d9_read_scalar (data, size, &p, fields[i].type, &v, &present);
              if (G_UNLIKELY (st != D9_OK))
                break;
              if (i < D9_MAX_KEPT_FIELDS)
                {
                  vals[i] = v;
                  absent |= (guint64) !present << i;
                }
            }
          if (G_UNLIKELY (st != D9_OK))
            {
              stop->status = st;
              if (st == D9_CORRUPT)
                {
                  frame = p;
                  g_snprintf (stop->message, sizeof stop->message,
                              "bad value in an event of type_id %u", schema->type_id);
                }
              p = frame;
              break;
            }

        decoded:
          base = ts;
          if (ordinal % D9_CHECKPOINT_EVERY == 0)
            {
              D9Checkpoint cp = { frame, base_before, reg->segment, (guint32) MIN (ordinal, G_MAXUINT32) };
              g_array_append_val (d->checkpoints, cp);
            }
          d9_side_take (l, model, ts, vals, absent, reg->segment, (guint32) ordinal);
          handle_event (l, model,
                        (KymoTime) MIN (ts, (guint64) G_MAXINT64), vals, absent,
                        ordinal < G_MAXUINT32 ? (guint32) ordinal : KYMO_NO_SOURCE);
          ordinal++;
          if (G_UNLIKELY (l->disorder || (l->spec != NULL && l->spec->bail)))
            {
              d->n_events = ordinal;
              return TRUE;
            }
          continue;
        }

      p++;
      switch (tag)
        {
        case D9_TAG_HEADER:
          if (d9_is_header (data, size, frame))
            {
              d9_registry_new_segment (reg);
              memset (l->pool_names, 0, sizeof l->pool_names);
              base = 0;
              p = frame + D9_HEADER_SIZE;
              continue;
            }
          if (size - frame < D9_HEADER_SIZE &&
              memcmp (data + frame, D9_MAGIC "\x01", size - frame) == 0)
            stop->status = D9_TRUNCATED;
          else if (size - frame >= D9_HEADER_SIZE && memcmp (data + frame, D9_MAGIC, 4) == 0)
            {
              stop->status = D9_CORRUPT;
              g_snprintf (stop->message, sizeof stop->message,
                          "segment header of unsupported version %u", data[frame + 4]);
            }
          else
            {
              stop->status = D9_CORRUPT;
              g_snprintf (stop->message, sizeof stop->message, "unknown frame tag 0x%02x", tag);
            }
          break;

        case D9_TAG_SCHEMA:
          {
            const char *message;
            guint32 index;
            gboolean is_new;
            D9Status st = d9_registry_parse (reg, data, size, &p, &index, &is_new, &message);

            if (st != D9_OK)
              {
                stop->status = st;
                if (st == D9_CORRUPT)
                  {
                    g_strlcpy (stop->message, message, sizeof stop->message);
                    frame = message && g_str_has_prefix (message, "unknown") ? p : frame;
                  }
                break;
              }
            if (is_new)
              {
                D9Schema *schema = d9_registry_get (reg, index);
                D9Model model;

                classify (l, schema, &model);
                schema->model = l->models->len;
                g_array_append_val (l->models, model);
              }
            continue;
          }

        case D9_TAG_STRING_POOL:
        case D9_TAG_STACK_POOL:
          {
            guint32 count;
            gsize body = p;
            D9Status st = tag == D9_TAG_STRING_POOL ? d9_check_string_pool (data, size, &p, &count)
                                                    : d9_check_stack_pool (data, size, &p, &count);
            if (st != D9_OK)
              {
                stop->status = st;
                break;
              }
            register_pool (l, body, count, tag == D9_TAG_STACK_POOL);
            continue;
          }

        case D9_TAG_TS_RESET:
          if (size - p < 8)
            {
              stop->status = D9_TRUNCATED;
              break;
            }
          base = d9_u64 (data + p);
          p += 8;
          continue;

        case D9_TAG_ANNOTATIONS:
          {
            guint64 type_id;
            guint16 count;
            gsize entries;
            D9Status st = d9_check_annotations (data, size, &p, &type_id, &count, &entries);
            const D9Schema *schema;

            if (st != D9_OK)
              {
                stop->status = st;
                if (st == D9_CORRUPT)
                  g_strlcpy (stop->message, "bad type_id in schema annotations", sizeof stop->message);
                break;
              }
            /* Annotations for a type_id with no schema may be skipped. */
            if (type_id <= G_MAXUINT16 && (schema = d9_registry_lookup (reg, (guint16) type_id)) != NULL)
              apply_annotations (l, &g_array_index (l->models, D9Model, schema->model), schema, entries, count);
            continue;
          }

        default:
          stop->status = D9_CORRUPT;
          g_snprintf (stop->message, sizeof stop->message, "unknown frame tag 0x%02x", tag);
          break;
        }
      /* Only a stop gets here. */
      p = frame;
      break;
    }

  stop->offset = p;
  d->n_events = ordinal;
  return TRUE;
}

static void
loader_free_worker (gpointer data)
{
  D9Worker *w = data;

  g_array_unref (w->edges);
  g_array_unref (w->instants);
  d9_vec_free (w->wakes);
  g_array_unref (w->stack);
  g_array_unref (w->deep);
  d9_vec_free (w->spans0);
  d9_vec_free (w->lq_samples);
  g_free (w);
}

static void
loader_free_runtime (gpointer data)
{
  D9Runtime *rt = data;

  g_free (rt->name);
  g_array_unref (rt->workers);
  g_free (rt);
}

static void
loader_init (D9Loader    *l,
             KymoLoadJob *job,
             KymoTrace   *trace,
             D9Data      *d,
             GHashTable  *tracks_by_name,
             D9Spec      *spec)
{
  memset (l, 0, sizeof *l);
  l->spec = spec;
  l->job = job;
  l->trace = trace;
  l->d = d;
  l->models = g_array_new (FALSE, FALSE, sizeof (D9Model));
  l->workers = g_ptr_array_new_with_free_func (loader_free_worker);
  d9_map_init (&l->worker_map);
  l->wakes = g_array_new (FALSE, FALSE, sizeof (D9Wake));
  l->late = g_array_new (FALSE, FALSE, sizeof (D9Late));
  l->queue = g_array_new (FALSE, FALSE, sizeof (KymoSample));
  l->se_spans = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  l->se_tracks = g_array_new (FALSE, FALSE, sizeof (guint));
  l->tracks_by_name = tracks_by_name;
  l->pending = g_array_new (FALSE, FALSE, sizeof (D9Pending));
  l->flows = d9_vec_new ();
  l->wake_instants = d9_vec_new ();
  if (spec != NULL)
    d9_vec_move_limits (&l->move_min, &l->map_from);
  l->wake_instants->map_from = l->flows->map_from = l->map_from;
  l->runtimes = g_ptr_array_new_with_free_func (loader_free_runtime);
  d9_side_init (l);
  l->min_ts = G_MAXINT64;
  l->max_ts = G_MININT64;
  l->default_group = KYMO_NO_TRACK;
  l->wakes_track = KYMO_NO_TRACK;
  l->queue_track = KYMO_NO_TRACK;
  l->name_poll = intern_len (l, "poll", -1);
  l->name_parked = intern_len (l, "parked", -1);
  l->name_wake = intern_len (l, "wake", -1);
  l->name_cpu = intern_len (l, "CPU sample", -1);
  l->name_sched = intern_len (l, "scheduler event", -1);
}

static void kept_free (D9Kept *kept);

static void
loader_clear (D9Loader *l)
{
  g_clear_pointer (&l->kept, kept_free);
  g_array_unref (l->models);
  g_ptr_array_unref (l->workers);
  d9_map_clear (&l->worker_map);
  g_free (l->task_direct);
  g_array_unref (l->wakes);
  g_array_unref (l->late);
  g_array_unref (l->queue);
  g_ptr_array_unref (l->se_spans);
  g_array_unref (l->se_tracks);
  g_hash_table_unref (l->tracks_by_name);
  g_ptr_array_unref (l->runtimes);
  g_array_unref (l->pending);
  d9_vec_free (l->flows);
  d9_vec_free (l->wake_instants);
  d9_side_clear (l);
}

/* ---- Decoding later parts in parallel ---------------------------------- */

/* Below this a file is decoded on one thread. */
#define PARALLEL_MIN_BYTES (4 << 20)
/* Each page move splits a mapping or two; a process has some 65,000. */
#define MAX_PAGE_MOVES 4096
/* How far back from the end to look for the start of the last segment. */
#define LAST_SEGMENT_SEARCH ((gsize) 4 << 20)

static guint
parallel_threads (D9Loader *l)
{
  return kymo_load_options_get_threads (kymo_load_job_get_options (l->job), l->d->size, PARALLEL_MIN_BYTES);
}

/* Candidate segment starts: the first "TRC\0\1" in each of @n_regions
 * equal regions (a part may then hold several segments). Whether one is a
 * segment start at all is settled by the decoder before it. */
static void
find_candidates (D9Shared *sh,
                 guint     n_regions)
{
  static const guint8 magic[D9_HEADER_SIZE] = { 'T', 'R', 'C', 0, D9_VERSION };
  gsize region = sh->size / n_regions + 1;

  sh->cands = g_new (gsize, n_regions + 1);
  sh->n_cands = 0;
  for (guint r = 0; r < n_regions; r++)
    {
      gsize from = MAX ((gsize) r * region, D9_HEADER_SIZE);
      gsize to = MIN ((gsize) (r + 1) * region + D9_HEADER_SIZE - 1, sh->size);
      const guint8 *hit;

      if (sh->n_cands > 0 && sh->cands[sh->n_cands - 1] >= from)
        from = sh->cands[sh->n_cands - 1] + 1;
      if (from >= to || to - from < D9_HEADER_SIZE)
        continue;
      for (gsize at = from; to - at >= sizeof magic; at = hit - sh->data + 1)
        {
          hit = memchr (sh->data + at, magic[0], to - at - sizeof magic + 1);
          if (hit == NULL)
            break;
          if (memcmp (hit, magic, sizeof magic) == 0)
            {
              sh->cands[sh->n_cands++] = hit - sh->data;
              break;
            }
        }
    }

  /* The last segment is often the symbol table a symbolizer appends, which
   * a part cannot take over: on its own, only that part is decoded again. */
  if (sh->size > D9_HEADER_SIZE)
    {
      gsize floor = sh->size > LAST_SEGMENT_SEARCH ? sh->size - LAST_SEGMENT_SEARCH : 0;

      if (sh->n_cands > 0)
        floor = MAX (floor, sh->cands[sh->n_cands - 1] + 1);
      floor = MAX (floor, D9_HEADER_SIZE);
      for (gsize at = sh->size - sizeof magic + 1; at-- > floor;)
        if (sh->data[at] == magic[0] && memcmp (sh->data + at, magic, sizeof magic) == 0)
          {
            sh->cands[sh->n_cands++] = at;
            break;
          }
    }
}

static D9Loader *
spec_new (D9Shared *sh)
{
  D9Loader *l = g_new0 (D9Loader, 1);
  D9Spec *spec = g_new0 (D9Spec, 1);
  D9Data *d = d9_data_new ();

  d->data = sh->data;
  d->size = sh->size;
  spec->end_cand = G_MAXUINT;
  spec->names = g_hash_table_new (g_str_hash, g_str_equal);
  spec->strings = g_ptr_array_new_with_free_func (g_free);
  spec->notes = g_array_new (FALSE, TRUE, sizeof (D9TaskNote));
  spec->inserts = g_array_new (FALSE, FALSE, sizeof (D9Insert));
  spec->metas = g_array_new (FALSE, FALSE, sizeof (guint64));
  d9_map_init (&spec->unknown_wakers);
  /* No job: only the loading thread reports progress. */
  loader_init (l, NULL, NULL, d, g_hash_table_new (NULL, NULL), spec);
  l->streaming = sh->streaming;
  return l;
}

static void
spec_free (D9Loader *l)
{
  D9Spec *spec;
  D9Data *d;

  if (l == NULL)
    return;
  spec = l->spec;
  d = l->d;
  loader_clear (l);
  d9_data_free (d);
  g_hash_table_unref (spec->names);
  g_ptr_array_unref (spec->strings);
  g_array_unref (spec->notes);
  g_array_unref (spec->inserts);
  g_array_unref (spec->metas);
  d9_map_clear (&spec->unknown_wakers);
  g_free (spec->name_map);
  g_free (spec->worker_map);
  g_free (spec->task_map);
  g_free (spec);
  g_free (l);
}

static void
spec_decode (D9Shared *sh,
             guint     index)
{
  D9Loader *l = spec_new (sh);
  D9Stop stop;

  if (decode (l, sh, sh->cands[index], index + 1, &stop, NULL))
    {
      l->spec->complete = stop.status == D9_OK && !l->spec->bail && !l->disorder;
      l->spec->end_cand = stop.end_cand;
    }
  sh->parts[index] = l;
}

/* Decodes the part at candidate @index, on any thread. */
static void
spec_part (guint    index,
           gpointer data)
{
  D9Shared *sh = data;

  if (g_atomic_int_get (&sh->cancel) || g_atomic_int_get (&sh->abandon) ||
      g_cancellable_is_cancelled (sh->cancellable))
    return;
  spec_decode (sh, index);
}

/* The arrays that parts contribute to, per worker and for the loader. */
enum {
  K_SPANS0,
  K_LQ,
  K_WAKES,
  K_INSTANTS,
  K_DEEP,
  K_N_WORKER_KINDS,
  K_WAKE_INSTANTS = K_N_WORKER_KINDS,
  K_FLOWS,
  K_N_KINDS,
};

static const gsize kind_size[K_N_KINDS] = {
  sizeof (KymoSpan), sizeof (KymoSample), sizeof (KymoInstant), sizeof (KymoInstant),
  sizeof (D9DeepSpan), sizeof (KymoInstant), sizeof (D9Flow),
};

/* One run of elements in the final array: the loader's own [from, to), or
 * what a merged part decoded (from 1 when its first sample is dropped). */
typedef struct {
  D9Loader *part;
  guint     worker;
  gsize     from;
  gsize     to;
} D9Piece;

/* Slot 0 holds the loader's own arrays, slot 1 + i worker i's. */
typedef struct {
  GArray **pieces;   /* per slot: runs of D9Piece[K_N_KINDS] */
  gsize  (*marks)[K_N_KINDS];
  guint    n_slots;
  gsize    part_wake_instants;
} D9Merge;

static D9Vec *
kind_vec (D9Loader *l,
          guint     worker,
          guint     kind)
{
  D9Worker *w = worker != G_MAXUINT ? g_ptr_array_index (l->workers, worker) : NULL;

  switch (kind)
    {
    case K_SPANS0: return w->spans0;
    case K_LQ: return w->lq_samples;
    case K_WAKES: return w->wakes;
    case K_WAKE_INSTANTS: return l->wake_instants;
    case K_FLOWS: return l->flows;
    default: return NULL;
    }
}

static GArray *
kind_array (D9Loader *l,
            guint     worker,
            guint     kind)
{
  D9Worker *w = g_ptr_array_index (l->workers, worker);
  return kind == K_INSTANTS ? w->instants : w->deep;
}

static gsize
kind_len (D9Loader *l,
          guint     worker,
          guint     kind)
{
  D9Vec *v = kind_vec (l, worker, kind);
  return v != NULL ? v->len : kind_array (l, worker, kind)->len;
}

static GArray *
merge_slot (D9Merge *m,
            guint    slot)
{
  if (slot >= m->n_slots)
    {
      guint n = MAX (slot + 1, m->n_slots * 2);

      m->pieces = g_renew (GArray *, m->pieces, n);
      m->marks = g_realloc_n (m->marks, n, sizeof m->marks[0]);
      for (guint i = m->n_slots; i < n; i++)
        {
          m->pieces[i] = g_array_new (FALSE, FALSE, sizeof (D9Piece) * K_N_KINDS);
          memset (m->marks[i], 0, sizeof m->marks[i]);
        }
      m->n_slots = n;
    }
  return m->pieces[slot];
}

/* Ends the loader's own run in @slot and adds the part's after it
 * (@worker of the part, G_MAXUINT for slot 0). */
static void
add_piece (D9Merge  *m,
           D9Loader *l,
           guint     slot,
           D9Loader *part,
           guint     worker,
           gboolean  drop_first_lq)
{
  GArray *pieces = merge_slot (m, slot);
  D9Piece own[K_N_KINDS], theirs[K_N_KINDS];
  guint first = slot == 0 ? K_N_WORKER_KINDS : 0;
  guint last = slot == 0 ? K_N_KINDS : K_N_WORKER_KINDS;

  memset (own, 0, sizeof own);
  memset (theirs, 0, sizeof theirs);
  for (guint k = first; k < last; k++)
    {
      guint own_worker = slot == 0 ? G_MAXUINT : slot - 1;

      own[k].part = NULL;
      own[k].from = m->marks[slot][k];
      own[k].to = kind_len (l, own_worker, k);
      m->marks[slot][k] = own[k].to;
      theirs[k].part = part;
      theirs[k].worker = worker;
      theirs[k].from = k == K_LQ && drop_first_lq ? 1 : 0;
      theirs[k].to = kind_len (part, worker, k);
    }
  g_array_append_vals (pieces, own, 1);
  g_array_append_vals (pieces, theirs, 1);
}

enum {
  MERGE_OK,
  MERGE_REJECT,    /* decode the part for real instead */
  MERGE_DISORDER,  /* the file is not in time order: start again */
};

static guint32
map_name (const D9Spec *spec,
          guint32       name)
{
  return name < spec->strings->len ? spec->name_map[name] : name;
}

/* The edge of part @c that closes @gw's open poll or park: the first poll
 * start or park, or the first poll end (unpark) for a poll (park). Sets
 * *source to its source + 1 (0: none) and *kind. */
static void
resolving_edge (D9Loader       *c,
                const D9Worker *gw,
                guint32        *source,
                D9EdgeKind     *kind)
{
  guint64 id = gw->id;
  guint32 index = id < 256 ? c->small_workers[id] - 1 : d9_map_lookup (&c->worker_map, id);
  const D9Worker *lw;

  *source = 0;
  if (index == G_MAXUINT32 || gw->state == 0)
    return;
  lw = g_ptr_array_index (c->workers, index);
  for (guint k = D9_EDGE_POLL_START; k <= D9_EDGE_UNPARK; k++)
    {
      guint32 s = lw->first_source[k - 1];

      if (s == 0 || (k == D9_EDGE_POLL_END && gw->state != D9_EDGE_POLL_START) ||
          (k == D9_EDGE_UNPARK && gw->state != D9_EDGE_PARK))
        continue;
      if (*source == 0 || s < *source)
        {
          *source = s;
          if (kind != NULL)
            *kind = k;
        }
    }
}

/* Takes over what part @c decoded, as if @l had decoded it. Only cheap
 * per-task and per-worker work here; the event arrays are joined later by
 * assemble(). */
static int
merge_part (D9Loader *l,
            D9Loader *c,
            D9Merge  *m)
{
  D9Spec *spec = c->spec;
  D9Data *d = l->d, *cd = c->d;
  guint32 ordinal_base, segment_base, string_base, stack_base, schema_base, field_base;
  guint32 *task_map;

  if (c->disorder)
    return MERGE_DISORDER;
  if (!spec->complete)
    return MERGE_REJECT;
  if (spec->has_order && spec->first_order_ts < l->order_ts)
    return MERGE_DISORDER;
  if (d->n_events + cd->n_events >= G_MAXUINT32)
    return MERGE_REJECT;
  /* The part was decoded with every worker idle. A poll or park still open
   * here ends at the worker's first edge that closes it; until then its
   * task is being polled, which the part could not know of when that task
   * woke another: then (or for a task polled twice at once) decode it here. */
  for (guint i = 0; i < l->workers->len; i++)
    {
      D9Worker *gw = g_ptr_array_index (l->workers, i);
      guint32 end = 0;

      if (gw->state == D9_EDGE_POLL_START && gw->open_task != G_MAXUINT32)
        {
          const D9Task *t = &g_array_index (d->tasks, D9Task, gw->open_task);
          guint32 local = d9_map_lookup (&cd->task_map, t->id);

          if (d9_map_lookup (&spec->unknown_wakers, t->id) != G_MAXUINT32)
            return MERGE_REJECT;
          if (local != G_MAXUINT32 && local < spec->notes->len)
            {
              const D9TaskNote *note = &g_array_index (spec->notes, D9TaskNote, local);

              resolving_edge (c, gw, &end, NULL);
              if ((note->flags & D9_TASK_POLLED) && (end == 0 || note->poll_source + 1 < end))
                return MERGE_REJECT;
            }
        }
    }
  for (guint i = 0; i < c->workers->len; i++)
    {
      guint64 id = ((D9Worker *) g_ptr_array_index (c->workers, i))->id;
      guint32 index = id < 256 ? l->small_workers[id] - 1 : d9_map_lookup (&l->worker_map, id);

      if (index != G_MAXUINT32 && ((D9Worker *) g_ptr_array_index (l->workers, index))->stack->len > 0)
        return MERGE_REJECT;
    }

  /* Names, in the order the part met them: the order decoding it here
   * would have interned them in. */
  spec->name_map = g_new (guint32, spec->strings->len + 1);
  for (guint i = 0; i < spec->strings->len; i++)
    spec->name_map[i] = kymo_trace_intern (l->trace, g_ptr_array_index (spec->strings, i));
  ordinal_base = (guint32) d->n_events;
  spec->ordinal_base = ordinal_base;

  /* Schemas, pools and checkpoints: segment numbers follow on. */
  segment_base = d->reg.segment;
  schema_base = d->reg.schemas->len;
  field_base = d->reg.fields->len;
  g_array_append_vals (d->reg.fields, cd->reg.fields->data, cd->reg.fields->len);
  for (guint i = 0; i < cd->reg.schemas->len; i++)
    {
      D9Schema schema = g_array_index (cd->reg.schemas, D9Schema, i);

      schema.first_field += field_base;
      schema.segment += segment_base;
      schema.model = G_MAXUINT32;
      g_array_append_val (d->reg.schemas, schema);
      d9_map_insert (&d->reg.by_segment, (guint64) schema.segment << 16 | schema.type_id, schema_base + i);
    }
  d->reg.segment += cd->reg.segment;

  string_base = d->pool_strings->len;
  for (guint i = 0; i < cd->pool_strings->len; i++)
    {
      D9PoolString ps = g_array_index (cd->pool_strings, D9PoolString, i);

      if (ps.name != G_MAXUINT32)
        ps.name = map_name (spec, ps.name);
      g_array_append_val (d->pool_strings, ps);
    }
  for (gsize i = 0; i <= cd->string_map.mask; i++)
    if (cd->string_map.values[i])
      d9_map_insert (&d->string_map, cd->string_map.keys[i] + ((guint64) segment_base << 32),
                     cd->string_map.values[i] - 1 + string_base);
  stack_base = d->pool_stacks->len;
  g_array_append_vals (d->pool_stacks, cd->pool_stacks->data, cd->pool_stacks->len);
  for (gsize i = 0; i <= cd->stack_map.mask; i++)
    if (cd->stack_map.values[i])
      d9_map_insert (&d->stack_map, cd->stack_map.keys[i] + ((guint64) segment_base << 32),
                     cd->stack_map.values[i] - 1 + stack_base);
  d9_side_merge_part (l, c, ordinal_base, segment_base);
  g_array_append_vals (d->symbols, cd->symbols->data, cd->symbols->len);
  for (guint i = 0; i < spec->metas->len; i++)
    meta_entries (l, g_array_index (spec->metas, guint64, i));
  if (!l->has_wallclock && spec->has_clock)
    {
      l->has_wallclock = TRUE;
      l->wall_offset = c->wall_offset;
      kymo_trace_set_wallclock (l->trace, spec->clock_ts, spec->clock_real);
    }
  for (guint i = 0; i < cd->checkpoints->len; i++)
    {
      D9Checkpoint cp = g_array_index (cd->checkpoints, D9Checkpoint, i);

      cp.segment += segment_base;
      cp.ordinal += ordinal_base;
      g_array_append_val (d->checkpoints, cp);
    }

  /* Workers, then tasks, each in the order the part first met them. */
  spec->worker_map = g_new (guint32, c->workers->len + 1);
  for (guint i = 0; i < c->workers->len; i++)
    spec->worker_map[i] = d9_loader_worker (l, ((D9Worker *) g_ptr_array_index (c->workers, i))->id)->index;

  /* What was left open before ends first (as d9_pair_close_depth0()), and
   * before the tasks' polls here set where they run. */
  for (guint i = 0; i < c->workers->len; i++)
    {
      D9Worker *gw = g_ptr_array_index (l->workers, spec->worker_map[i]);
      D9Worker *lw = g_ptr_array_index (c->workers, i);
      guint32 end;
      D9EdgeKind kind = 0;

      resolving_edge (c, gw, &end, &kind);
      if (end != 0)
        {
          guint flags = kind == D9_EDGE_POLL_START || kind == D9_EDGE_PARK ? KYMO_EVENT_INCOMPLETE : 0;
          KymoTime ts = lw->first_ts[kind - 1];
          KymoSpan span;

          if (gw->state == D9_EDGE_POLL_START)
            {
              span.name_flags = MIN (gw->open_name, KYMO_NAME_MAX) | (guint32) (flags & 0xFF) << 24;
              if (gw->open_task != G_MAXUINT32)
                g_array_index (d->tasks, D9Task, gw->open_task).worker = G_MAXUINT32;
            }
          else
            span.name_flags = MIN (l->name_parked, KYMO_NAME_MAX) | (guint32) ((flags | KYMO_EVENT_STATE) & 0xFF) << 24;
          span.start = gw->open_start;
          span.end = MAX (ts, gw->open_start);
          span.source = gw->open_source;
          *(KymoSpan *) d9_vec_push (gw->spans0, sizeof span) = span;
          gw->state = 0;
        }
    }

  task_map = spec->task_map = g_new (guint32, cd->tasks->len + 1);
  for (guint i = 0; i < cd->tasks->len; i++)
    {
      const D9Task *lt = &g_array_index (cd->tasks, D9Task, i);
      D9TaskNote note = { 0 };
      D9Task *gt;
      gboolean keep_pending;

      task_map[i] = d9_loader_task (l, lt->id);
      gt = &g_array_index (d->tasks, D9Task, task_map[i]);
      if (i < spec->notes->len)
        note = g_array_index (spec->notes, D9TaskNote, i);

      gt->polls += lt->polls;
      if (lt->spawn != KYMO_TIME_NONE)
        gt->spawn = lt->spawn;
      if (lt->terminate != KYMO_TIME_NONE)
        gt->terminate = lt->terminate;
      /* A spawn event sets the location; a poll only when there is none. */
      if ((note.flags & D9_TASK_LOC_SET) || gt->spawn_loc == G_MAXUINT32)
        gt->spawn_loc = lt->spawn_loc != G_MAXUINT32 ? lt->spawn_loc + string_base : G_MAXUINT32;
      /* Only a poll here changes it (a poll open from before, closed
       * here, is handled with the workers). */
      if (note.flags & D9_TASK_POLLED)
        gt->worker = lt->worker != G_MAXUINT32 ? spec->worker_map[lt->worker] : G_MAXUINT32;

      /* A wake still pending from before makes the flow of the task's
       * first poll here (and a wake here before that poll did not count). */
      keep_pending = gt->wake_track != KYMO_NO_TRACK;
      if ((note.flags & D9_TASK_POLLED) && keep_pending)
        {
          if (note.flags & D9_TASK_HAD_FLOW)
            {
              D9Flow *f = (D9Flow *) (gpointer) c->flows->data + note.flow_pos;

              f->from = gt->wake_track;
              f->from_ts = gt->wake_ts;
              f->source = gt->wake_source;
              f->pad = 1;
            }
          else
            {
              D9Insert ins = { note.flow_pos, note.poll_source,
                               { gt->wake_ts, note.poll_ts, gt->wake_track, note.poll_worker, gt->wake_source, 1 } };
              g_array_append_val (spec->inserts, ins);
            }
          keep_pending = FALSE;
        }
      if (!keep_pending)
        {
          gt->wake_track = lt->wake_track;
          if (lt->wake_track != KYMO_NO_TRACK && lt->wake_track != D9_FROM_WAKES)
            gt->wake_track = spec->worker_map[lt->wake_track];
          gt->wake_ts = lt->wake_ts;
          gt->wake_source = lt->wake_track != KYMO_NO_TRACK ? lt->wake_source + ordinal_base : lt->wake_source;
        }
    }
  if (spec->inserts->len > 1)
    {
      /* By position, then in poll order. */
      for (guint i = 1; i < spec->inserts->len; i++)
        {
          D9Insert x = g_array_index (spec->inserts, D9Insert, i);
          guint j = i;

          while (j > 0 && (g_array_index (spec->inserts, D9Insert, j - 1).pos > x.pos ||
                           (g_array_index (spec->inserts, D9Insert, j - 1).pos == x.pos &&
                            g_array_index (spec->inserts, D9Insert, j - 1).order > x.order)))
            {
              g_array_index (spec->inserts, D9Insert, j) = g_array_index (spec->inserts, D9Insert, j - 1);
              j--;
            }
          g_array_index (spec->inserts, D9Insert, j) = x;
        }
    }

  for (guint i = 0; i < c->workers->len; i++)
    {
      D9Worker *lw = g_ptr_array_index (c->workers, i);
      D9Worker *gw = g_ptr_array_index (l->workers, spec->worker_map[i]);
      gboolean drop = FALSE;

      if (lw->state != 0)
        {
          gw->state = lw->state;
          gw->open_start = lw->open_start;
          gw->open_name = map_name (spec, lw->open_name);
          gw->open_source = lw->open_source + ordinal_base;
          gw->open_task = lw->open_task != G_MAXUINT32 ? task_map[lw->open_task] : G_MAXUINT32;
        }
      for (guint k = 0; k < lw->stack->len; k++)
        {
          D9Open open = g_array_index (lw->stack, D9Open, k);

          open.name = map_name (spec, open.name);
          open.source += ordinal_base;
          g_array_append_val (gw->stack, open);
        }
      if (lw->lq_samples->len > 0)
        {
          const KymoSample *first = (const KymoSample *) (gpointer) lw->lq_samples->data;

          drop = gw->lq_valid && gw->last_lq == first->value;
          if (!gw->lq_valid)
            gw->lq_first = lw->lq_first + ordinal_base;
        }
      if (lw->lq_valid)
        {
          gw->lq_valid = TRUE;
          gw->last_lq = lw->last_lq;
        }
      add_piece (m, l, 1 + gw->index, c, i, drop);
    }
  /* The first wake with no known waker makes its track. */
  if (c->wake_instants->len > 0 && l->wake_instants->len == 0 && m->part_wake_instants == 0)
    l->wakes_first = c->wakes_first + ordinal_base;
  m->part_wake_instants += c->wake_instants->len;
  add_piece (m, l, 0, c, G_MAXUINT, FALSE);
  g_array_append_vals (l->queue, c->queue->data, c->queue->len);
  for (guint i = 0; i < c->pending->len; i++)
    {
      D9Pending pending = g_array_index (c->pending, D9Pending, i);
      guint32 name = map_name (spec, pending.instant.name_flags);

      /* As model_track() would have made it, at first use. */
      pending.track = d9_loader_name_track (l, name, KYMO_TRACK_INSTANT);
      pending.instant.name_flags = MIN (name, KYMO_NAME_MAX);
      pending.instant.source += ordinal_base;
      g_array_append_val (l->pending, pending);
    }

  l->min_ts = MIN (l->min_ts, c->min_ts);
  l->max_ts = MAX (l->max_ts, c->max_ts);
  if (spec->has_order)
    l->order_ts = c->order_ts;
  d->n_events += cd->n_events;
  return MERGE_OK;
}

/* Out of time order, a part's edges and wakes are sorted and paired when
 * building, with the loader's: they join the loader's arrays now, in the
 * loader's numbering, as decoding the part here would have left them. */
static void
append_unordered (D9Loader *l,
                  D9Loader *c)
{
  const D9Spec *spec = c->spec;
  guint32 base = spec->ordinal_base;

  for (guint i = 0; i < c->workers->len; i++)
    {
      D9Worker *lw = g_ptr_array_index (c->workers, i);
      D9Worker *gw = g_ptr_array_index (l->workers, spec->worker_map[i]);
      const D9Edge *in = (const D9Edge *) (gpointer) lw->edges->data;
      gsize n = lw->edges->len, at = gw->edges->len;
      D9Edge *out;

      g_array_set_size (gw->edges, at + n);
      out = (D9Edge *) (gpointer) gw->edges->data + at;
      for (gsize k = 0; k < n; k++)
        {
          D9Edge e = in[k];
          guint32 kind = e.name_kind >> 24, name = e.name_kind & KYMO_NAME_MAX;

          /* A poll's end carries no name. */
          if (kind != D9_EDGE_POLL_END)
            name = map_name (spec, name);
          e.name_kind = (name & KYMO_NAME_MAX) | kind << 24;
          if (kind == D9_EDGE_POLL_START && (guint32) e.aux != G_MAXUINT32)
            e.aux = (e.aux & ~(guint64) G_MAXUINT32) | spec->task_map[(guint32) e.aux];
          e.source += base;
          out[k] = e;
        }
      g_array_unref (lw->edges);
      lw->edges = g_array_new (FALSE, FALSE, sizeof (D9Edge));
    }
  for (guint i = 0; i < c->wakes->len; i++)
    {
      D9Wake wake = g_array_index (c->wakes, D9Wake, i);

      if (wake.woken != G_MAXUINT32)
        wake.woken = spec->task_map[wake.woken];
      wake.source += base;
      g_array_append_val (l->wakes, wake);
    }
  g_array_set_size (c->wakes, 0);
}

static gsize
piece_len (const D9Piece *pc,
           guint          kind)
{
  gsize n = pc->to - pc->from;

  if (kind == K_FLOWS && pc->part != NULL)
    n += pc->part->spec->inserts->len;
  return n;
}

/* Writes @n elements of a part's run at @in to @out in the loader's
 * numbering. @out may overlap @in from below. */
static void
map_run (guint          kind,
         const D9Spec  *spec,
         guint8        *out,
         const guint8  *in,
         gsize          n)
{
  guint32 base = spec->ordinal_base;

  switch (kind)
    {
    case K_SPANS0:
      for (gsize i = 0; i < n; i++)
        {
          KymoSpan span = ((const KymoSpan *) (gconstpointer) in)[i];

          span.name_flags = map_name (spec, span.name_flags & KYMO_NAME_MAX) | (span.name_flags & ~KYMO_NAME_MAX);
          span.source += base;
          ((KymoSpan *) (gpointer) out)[i] = span;
        }
      break;

    case K_LQ:
      if (n > 0)
        memmove (out, in, n * sizeof (KymoSample));
      break;

    case K_WAKES:
    case K_INSTANTS:
    case K_WAKE_INSTANTS:
      for (gsize i = 0; i < n; i++)
        {
          KymoInstant instant = ((const KymoInstant *) (gconstpointer) in)[i];

          instant.name_flags = map_name (spec, instant.name_flags);
          instant.source += base;
          ((KymoInstant *) (gpointer) out)[i] = instant;
        }
      break;

    case K_DEEP:
      for (gsize i = 0; i < n; i++)
        {
          D9DeepSpan deep = ((const D9DeepSpan *) (gconstpointer) in)[i];

          deep.span.name_flags = map_name (spec, deep.span.name_flags & KYMO_NAME_MAX) |
                                 (deep.span.name_flags & ~KYMO_NAME_MAX);
          deep.span.source += base;
          ((D9DeepSpan *) (gpointer) out)[i] = deep;
        }
      break;

    case K_FLOWS:
      for (gsize i = 0; i < n; i++)
        {
          D9Flow f = ((const D9Flow *) (gconstpointer) in)[i];

          /* pad 1: the merge set where it comes from. */
          if (f.pad == 0)
            {
              if (f.from != D9_FROM_WAKES)
                f.from = spec->worker_map[f.from];
              f.source += base;
            }
          f.to = spec->worker_map[f.to];
          f.pad = 0;
          ((D9Flow *) (gpointer) out)[i] = f;
        }
      break;

    default:
      g_assert_not_reached ();
    }
}

/* The run of @n elements of @size at @in, now partly at @mv: maps its
 * elements to @out (at or below @mv->at) from the first up, so that no
 * element is overwritten before it is read. */
static void
map_moved_run (guint          kind,
               const D9Spec  *spec,
               guint8        *out,
               const guint8  *in,
               gsize          n,
               const D9Moved *mv)
{
  gsize size = kind_size[kind];
  gsize head = mv->lo / size, first = head, last = mv->hi / size;
  guint8 tmp[32];

  g_assert (size <= sizeof tmp);
  map_run (kind, spec, out, in, head);
  if (head * size < mv->lo)
    {
      /* Straddles the first moved page: its bytes from both places. */
      memcpy (tmp, in + head * size, mv->lo - head * size);
      memcpy (tmp + (mv->lo - head * size), mv->at + mv->lo, (head + 1) * size - mv->lo);
      map_run (kind, spec, out + head * size, tmp, 1);
      first = head + 1;
    }
  if (last > first)
    map_run (kind, spec, out + first * size, mv->at + first * size, last - first);
  if (last < n && last * size < mv->hi)
    {
      memcpy (tmp, mv->at + last * size, mv->hi - last * size);
      memcpy (tmp + (mv->hi - last * size), in + mv->hi, (last + 1) * size - mv->hi);
      map_run (kind, spec, out + last * size, tmp, 1);
      last++;
    }
  if (n > last)
    map_run (kind, spec, out + last * size, in + last * size, n - last);
}

/* Puts @n elements of a part's array @v at @in into place at @out, in the
 * loader's numbering: the whole pages of a large run are moved rather
 * than copied (no new memory to fault in, none to give back), then the
 * run is shifted down over them. */
static void
place_run (D9Loader      *l,
           guint          kind,
           D9Loader      *c,
           const D9Vec   *v,
           guint8        *out,
           const guint8  *in,
           gsize          n)
{
  D9Moved mv;

  if (v != NULL && v->map_bytes > 0 && n * kind_size[kind] >= c->move_min &&
      g_atomic_int_add (&l->moves_left, -1) > 0 &&
      d9_vec_move_pages (out, in, n * kind_size[kind], c->move_min, &mv))
    map_moved_run (kind, c->spec, out, in, n, &mv);
  else
    map_run (kind, c->spec, out, in, n);
}

/* Puts a part's run into place and frees the part's array. */
static void
copy_part (D9Loader      *l,
           guint          kind,
           guint8        *out,
           const D9Piece *pc)
{
  D9Loader *c = pc->part;
  gsize n = pc->to - pc->from;
  D9Vec *v = kind_vec (c, pc->worker, kind);
  const guint8 *in = v != NULL ? v->data : (const guint8 *) kind_array (c, pc->worker, kind)->data;

  if (in != NULL)
    in += pc->from * kind_size[kind];
  place_run (l, kind, c, v, out, in, n);

  /* Nothing else reads it: give the memory back now, on this thread. */
  if (v != NULL)
    d9_vec_clear (v);
  else
    {
      D9Worker *w = g_ptr_array_index (c->workers, pc->worker);
      GArray **slot = kind == K_INSTANTS ? &w->instants : &w->deep;

      g_array_unref (*slot);
      *slot = g_array_new (FALSE, FALSE, kind_size[kind]);
    }
}

/* Puts a part's run of flows, with those the merge inserted, into place
 * in the loader's numbering, then frees the part's flows. */
static void
place_part_flows (D9Loader      *l,
                  guint8        *out,
                  const D9Piece *pc)
{
  D9Loader *c = pc->part;
  const D9Spec *spec = c->spec;
  gsize n = pc->to - pc->from, i = 0, o = 0;
  const guint8 *in = n > 0 ? c->flows->data + pc->from * sizeof (D9Flow) : NULL;
  const D9Insert *ins = (const D9Insert *) (gpointer) spec->inserts->data;
  guint n_ins = spec->inserts->len, j = 0;

  for (;;)
    {
      gsize run_end = n;

      while (j < n_ins && ins[j].pos == i)
        {
          D9Flow f = ins[j++].flow;

          f.to = spec->worker_map[f.to];
          f.pad = 0;
          memcpy (out + o++ * sizeof (D9Flow), &f, sizeof f);
        }
      if (i == n)
        break;
      if (j < n_ins && ins[j].pos > i && ins[j].pos < n)
        run_end = ins[j].pos;
      place_run (l, K_FLOWS, c, c->flows, out + o * sizeof (D9Flow), in + i * sizeof (D9Flow), run_end - i);
      o += run_end - i;
      i = run_end;
    }
  /* The merge sorts its inserts by position, none past the end. */
  g_assert (o == n + n_ins);
  d9_vec_clear (c->flows);
}

/* What a merge leaves for building: the parts' flows. */
struct _D9Kept {
  D9Merge    m;
  D9Loader **parts;
  guint      n_parts;
  /* FALSE until d9_loader_assemble() has joined the parts' arrays (the
   * build makes the tracks first, so that the flows replay meanwhile). */
  gboolean   assembled;
};

static void
kept_free (D9Kept *kept)
{
  for (guint i = 0; i < kept->m.n_slots; i++)
    g_array_unref (kept->m.pieces[i]);
  g_free (kept->m.pieces);
  g_free (kept->m.marks);
  for (guint i = 0; i < kept->n_parts; i++)
    spec_free (kept->parts[i]);
  g_free (kept->parts);
  g_free (kept);
}

D9Flow *
d9_loader_join_flows (D9Loader *l,
                      gsize    *n_flows)
{
  D9Vec *v = l->flows;
  GArray *pieces = NULL;
  gsize own_from = 0, total, end, size = sizeof (D9Flow);
  guint8 *base;

  if (l->kept != NULL && l->kept->m.n_slots > 0)
    {
      pieces = l->kept->m.pieces[0];
      own_from = l->kept->m.marks[0][K_FLOWS];
    }
  total = v->len - own_from;
  for (guint i = 0; pieces != NULL && i < pieces->len; i++)
    total += piece_len (&g_array_index (pieces, D9Piece, i * K_N_KINDS) + K_FLOWS, K_FLOWS);
  *n_flows = total;
  if (total == 0)
    {
      v->len = 0;
      return NULL;
    }

  /* As assemble_one lays out the other arrays: the loader's runs between
   * the parts', then the rest of its own. */
  v->data = g_realloc_n (v->data, total, size);
  base = v->data;
  end = total - (v->len - own_from);
  if (v->len > own_from)
    memmove (base + end * size, base + own_from * size, (v->len - own_from) * size);
  for (guint i = pieces != NULL ? pieces->len : 0; i-- > 0;)
    {
      const D9Piece *pc = &g_array_index (pieces, D9Piece, i * K_N_KINDS) + K_FLOWS;
      gsize n = piece_len (pc, K_FLOWS);

      if (g_atomic_int_get (&l->stop_flows))
        {
          v->len = 0;
          return NULL;
        }
      end -= n;
      if (pc->part != NULL)
        place_part_flows (l, base + end * size, pc);
      else if (n > 0)
        memmove (base + end * size, base + pc->from * size, n * size);
    }
  g_assert (end == 0);
  v->len = v->cap = 0;
  return (D9Flow *) g_steal_pointer (&v->data);
}

void
d9_loader_release_parts (D9Loader *l)
{
  g_clear_pointer (&l->kept, kept_free);
}

/* The length of an array of @slot once the parts' runs are joined in. */
static gsize
assembled_len (D9Loader      *l,
               const D9Merge *m,
               guint          slot,
               guint          kind)
{
  GArray *pieces;
  gsize total;

  if (slot >= m->n_slots)
    return kind_len (l, slot == 0 ? G_MAXUINT : slot - 1, kind);
  pieces = m->pieces[slot];
  total = kind_len (l, slot == 0 ? G_MAXUINT : slot - 1, kind) - m->marks[slot][kind];
  for (guint i = 0; i < pieces->len; i++)
    total += piece_len (&g_array_index (pieces, D9Piece, i * K_N_KINDS) + kind, kind);
  return total;
}

gsize
d9_loader_lq_len (D9Loader *l,
                  D9Worker *w)
{
  if (l->kept == NULL || l->kept->assembled)
    return w->lq_samples->len;
  return assembled_len (l, &l->kept->m, 1 + w->index, K_LQ);
}

gsize
d9_loader_wake_instants_len (D9Loader *l)
{
  if (l->kept == NULL || l->kept->assembled)
    return l->wake_instants->len;
  return assembled_len (l, &l->kept->m, 0, K_WAKE_INSTANTS);
}

/* Joins the runs of one array: grown in place, the loader's own runs move
 * up and the parts' are copied in, from the last run down. */
static void
assemble_one (D9Loader *l,
              D9Merge  *m,
              guint     slot,
              guint     kind,
              gsize     room)
{
  GArray *pieces = m->pieces[slot];
  guint worker = slot == 0 ? G_MAXUINT : slot - 1;
  gsize size = kind_size[kind], own_len = kind_len (l, worker, kind);
  gsize own_from = m->marks[slot][kind], total = assembled_len (l, m, slot, kind), end;
  D9Vec *v = kind_vec (l, worker, kind);
  guint8 *base;

  if (v != NULL)
    {
      v->data = g_realloc_n (v->data, MAX (total + room, 1), size);
      v->len = total;
      v->cap = MAX (total + room, 1);
      base = v->data;
    }
  else
    {
      GArray *a = kind_array (l, worker, kind);

      g_array_set_size (a, total);
      base = (guint8 *) a->data;
    }

  end = total - (own_len - own_from);
  if (own_len > own_from)
    memmove (base + end * size, base + own_from * size, (own_len - own_from) * size);
  for (guint i = pieces->len; i-- > 0;)
    {
      const D9Piece *pc = &g_array_index (pieces, D9Piece, i * K_N_KINDS) + kind;
      gsize n = piece_len (pc, kind);

      end -= n;
      if (pc->part != NULL)
        copy_part (l, kind, base + end * size, pc);
      else if (n > 0)
        memmove (base + end * size, base + pc->from * size, n * size);
    }
  g_assert (end == 0);
}

typedef struct {
  D9Loader *l;
  D9Merge  *m;
  guint    *jobs;     /* slot << 8 | kind */
  gsize    *rooms;    /* per job: elements to make room for after its own */
  guint     n_jobs;
  gint      cancel;   /* atomic */
  GError  **error;
  /* Work of its own, as part 0 before the jobs' (NULL: none). */
  void    (*first) (D9Loader *l);
} D9Assembly;

static void
assemble_part (guint    index,
               gpointer data)
{
  D9Assembly *a = data;

  if (g_atomic_int_get (&a->cancel))
    return;
  if (a->first != NULL && index-- == 0)
    {
      a->first (a->l);
      return;
    }
  assemble_one (a->l, a->m, a->jobs[index] >> 8, a->jobs[index] & 0xFF, a->rooms[index]);
}

/* The loading thread checks for a cancel between parts; the parts see the
 * flag (and the flows' replay stop_flows). */
static gboolean
assemble_join (guint    index,
               gpointer data)
{
  D9Assembly *a = data;

  if (!kymo_load_job_progress (a->l->job, 0.9, "Building the timeline", a->error))
    {
      g_atomic_int_set (&a->cancel, 1);
      g_atomic_int_set (&a->l->stop_flows, 1);
      return FALSE;
    }
  return TRUE;
}

/* FALSE when cancelled (the arrays are then only fit to be freed). With
 * more than one thread, @first (if not NULL) runs as a part of its own
 * while the arrays are joined: *first_done then says so. */
static gboolean
assemble (D9Loader  *l,
          D9Merge   *m,
          void     (*first) (D9Loader *l),
          gboolean  *first_done,
          GError   **error)
{
  g_autofree guint *jobs = g_new (guint, (gsize) m->n_slots * K_N_KINDS + 1);
  g_autofree gsize *rooms = g_new (gsize, (gsize) m->n_slots * K_N_KINDS + 1);
  const KymoLoadOptions *options = kymo_load_job_get_options (l->job);
  D9Assembly a = { l, m, jobs, rooms, 0, 0, error, NULL };
  gboolean ok;

  for (guint slot = 0; slot < m->n_slots; slot++)
    if (m->pieces[slot]->len > 0)
      for (guint k = slot == 0 ? K_N_WORKER_KINDS : 0; k < (slot == 0 ? K_N_KINDS : K_N_WORKER_KINDS); k++)
        if (k != K_FLOWS) /* joined on their own: d9_loader_join_flows */
          {
            /* A block with pages moved into it would be copied to grow:
             * room for what building adds (a worker's instants to its
             * wakes; the polls and spans it closes, and its deeper spans
             * after the first level's). */
            rooms[a.n_jobs] = k == K_WAKES ? assembled_len (l, m, slot, K_INSTANTS) + 16
                              : k == K_SPANS0 ? assembled_len (l, m, slot, K_DEEP) + 16 +
                                                ((D9Worker *) g_ptr_array_index (l->workers, slot - 1))->stack->len
                              : 0;
            jobs[a.n_jobs++] = slot << 8 | k;
          }
  *first_done = first != NULL && kymo_load_options_get_threads (options, l->d->size, PARALLEL_MIN_BYTES) > 1;
  if (*first_done)
    a.first = first;
  ok = kymo_parts_run (options, l->d->size, PARALLEL_MIN_BYTES, a.n_jobs + (a.first != NULL), 0,
                       assemble_part, assemble_join, &a);
  return ok && !g_atomic_int_get (&a.cancel);
}

gboolean
d9_loader_assemble (D9Loader  *l,
                    void     (*first) (D9Loader *l),
                    gboolean  *first_done,
                    GError   **error)
{
  *first_done = FALSE;
  if (l->kept == NULL || l->kept->assembled)
    return TRUE;
  l->kept->assembled = TRUE;
  return assemble (l, &l->kept->m, first, first_done, error);
}

/* Decodes the first D9_PROBE_BYTES on a loader of its own (no trace, no
 * job) and tells whether they hold damage. A stream that is damaged at
 * once is then decoded on one thread, which stops at the damage, rather
 * than searched whole for segments to decode in parallel. */
gboolean
d9_probe_damaged (const guint8 *data,
                  gsize         size)
{
  D9Shared sh = { 0 };
  D9Loader *l;
  D9Stop stop;
  gboolean damaged;

  if (size < D9_HEADER_SIZE)
    return FALSE;
  sh.data = data;
  sh.size = MIN (size, D9_PROBE_BYTES);
  sh.streaming = TRUE;
  l = spec_new (&sh);
  l->spec->probe = TRUE;
  damaged = decode (l, &sh, 0, 0, &stop, NULL) && stop.status == D9_CORRUPT;
  spec_free (l);
  return damaged;
}

/* Decodes the whole stream after the first header into @l: with more than
 * one thread, the parts from each candidate segment on are decoded on
 * their own as KymoParts while the head is decoded here for real, then
 * they are merged in file order (or, when they cannot be, decoded here for
 * real). The result is the same either way. FALSE when cancelled. */
static gboolean
decode_all (D9Loader  *l,
            D9Stop    *stop,
            GError   **error)
{
  D9Data *d = l->d;
  guint n_threads = parallel_threads (l);
  D9Shared sh = { 0 };
  g_autoptr(KymoParts) parts = NULL;
  D9Merge m = { 0 };
  gboolean ok, merged = FALSE;
  guint cur;

  if (n_threads <= 1)
    return decode (l, NULL, D9_HEADER_SIZE, 0, stop, error);

  if (d9_probe_damaged (d->data, d->size))
    return decode (l, NULL, D9_HEADER_SIZE, 0, stop, error);

  sh.data = d->data;
  sh.size = d->size;
  sh.job = l->job;
  sh.cancellable = kymo_load_job_get_cancellable (l->job);
  sh.streaming = l->streaming;
  find_candidates (&sh, 4 * n_threads);
  if (sh.n_cands == 0)
    {
      g_free (sh.cands);
      return decode (l, NULL, D9_HEADER_SIZE, 0, stop, error);
    }
  sh.parts = g_new0 (D9Loader *, sh.n_cands);
  parts = kymo_parts_new (kymo_load_job_get_options (l->job), d->size, PARALLEL_MIN_BYTES,
                          sh.n_cands, 0, spec_part, &sh);

  ok = decode (l, &sh, D9_HEADER_SIZE, 0, stop, error);
  if (!ok || l->disorder || stop->status != D9_OK || stop->end_cand == G_MAXUINT)
    g_atomic_int_set (&sh.abandon, 1);

  cur = ok && !l->disorder && stop->status == D9_OK ? stop->end_cand : G_MAXUINT;
  while (cur != G_MAXUINT)
    {
      D9Loader *c;
      int r;

      kymo_parts_wait (parts, cur);
      /* A cancel seen while the part was decoded. */
      if (!kymo_load_job_progress (l->job, 0.5 + 0.4 * MIN ((double) g_atomic_int_get (&sh.done_kb) * 1024 / sh.size, 1.0),
                                   "Decoding", error))
        {
          g_atomic_int_set (&sh.cancel, 1);
          ok = FALSE;
          break;
        }
      c = sh.parts[cur];
      r = c != NULL ? merge_part (l, c, &m) : MERGE_REJECT;

      if (r == MERGE_OK)
        {
          if (!l->streaming)
            append_unordered (l, c);
          merged = TRUE;
          stop->status = D9_OK;
          stop->offset = d->size;
          stop->end_cand = G_MAXUINT;
          cur = c->spec->end_cand;
          continue;
        }
      if (r == MERGE_DISORDER)
        {
          l->disorder = TRUE;
          break;
        }
      {
        /* Decoding here would take the first wake with no known waker for
         * its own when the merged parts' are not in its array yet. */
        gboolean had_wakes = l->wake_instants->len > 0 || m.part_wake_instants > 0;
        guint32 wakes_first = l->wakes_first;

        ok = decode (l, &sh, sh.cands[cur], cur + 1, stop, error);
        if (had_wakes)
          l->wakes_first = wakes_first;
      }
      if (!ok || l->disorder || stop->status != D9_OK)
        break;
      cur = stop->end_cand;
    }

  /* Parts not merged are not needed: the workers stop after the ones
   * they are decoding. */
  g_atomic_int_set (&sh.abandon, 1);
  g_clear_pointer (&parts, kymo_parts_free);

  /* The parts' arrays are joined in when building: d9_loader_assemble. */
  {
    D9Kept *kept = g_new0 (D9Kept, 1);

    kept->m = m;
    kept->parts = g_steal_pointer (&sh.parts);
    kept->n_parts = sh.n_cands;
    if (ok && !l->disorder && merged)
      {
        l->kept = kept;
        l->moves_left = MAX_PAGE_MOVES;
      }
    else
      kept_free (kept);
  }
  g_free (sh.cands);
  return ok;
}

/* The first header decides whether this is a dial9 stream at all. */
static gboolean
check_first_header (KymoLoadJob   *job,
                    const guint8  *data,
                    gsize          size,
                    GError       **error)
{
  if (size >= 4 && memcmp (data, D9_MAGIC, 4) != 0)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, 0,
                               "not a dial9 trace (no TRC header)");
      return FALSE;
    }
  if (size < D9_HEADER_SIZE)
    {
      if (size > 0 && memcmp (data, D9_MAGIC "\x01", size) != 0)
        kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, 0,
                                 "not a dial9 trace (no TRC header)");
      else
        kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_TRUNCATED, 0,
                                 "the input ends inside the dial9 header");
      return FALSE;
    }
  if (data[4] != D9_VERSION)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNSUPPORTED, 4,
                               "dial9 format version %u is not supported", data[4]);
      return FALSE;
    }
  return TRUE;
}

/* Decodes @bytes into a new D9Data of @trace, starting again with the
 * merge when the events turn out not to be in time order. Decoding leaves
 * nothing in the trace but interned names and named tracks (reused), so a
 * later attempt may decode other bytes into the same trace. */
static gboolean
decode_stream (KymoLoadJob  *job,
               KymoTrace    *trace,
               GBytes       *bytes,
               GHashTable   *tracks_by_name,
               D9Loader     *loader,
               D9Stop       *stop,
               GError      **error)
{
  D9Data *d = d9_data_new ();

  d->bytes = g_bytes_ref (bytes);
  d->data = g_bytes_get_data (bytes, &d->size);
  kymo_trace_set_format_data (trace, d, d9_data_free);
  if (!check_first_header (job, d->data, d->size, error))
    {
      if (tracks_by_name != NULL)
        g_hash_table_unref (tracks_by_name);
      return FALSE;
    }

  loader_init (loader, job, trace, d, tracks_by_name ? tracks_by_name : g_hash_table_new (NULL, NULL), NULL);
  loader->streaming = TRUE;
  if (!decode_all (loader, stop, error))
    {
      loader_clear (loader);
      return FALSE;
    }
  if (loader->disorder)
    {
      /* Start again with the merge. */
      GHashTable *names = g_hash_table_ref (loader->tracks_by_name);

      loader_clear (loader);
      d = d9_data_new ();
      d->bytes = g_bytes_ref (bytes);
      d->data = g_bytes_get_data (bytes, &d->size);
      kymo_trace_set_format_data (trace, d, d9_data_free);
      loader_init (loader, job, trace, d, names, NULL);
      if (!decode_all (loader, stop, error))
        {
          loader_clear (loader);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
d9_load (KymoLoadJob  *job,
         KymoTrace    *trace,
         GError      **error)
{
  g_autofree char *gz_warning = NULL;
  g_autoptr(GError) gz_error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  D9FileSet *files = NULL;
  D9Loader loader;
  D9Stop stop;

  if (d9_files_wanted (kymo_load_job_get_input (job)))
    {
      files = d9_files_open (job, error);
      if (files == NULL)
        return FALSE;
      bytes = d9_files_join (files);
      kymo_trace_set_variant (trace, files->files->len == 1 ? "1 file" : "files");
    }
  else
    {
      bytes = d9_open_stream (job, &gz_warning, &gz_error);
      if (bytes == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&gz_error));
          return FALSE;
        }
      if (d9_is_gzip (kymo_load_job_get_input (job)->main.data, kymo_load_job_get_input (job)->main.size))
        kymo_trace_set_variant (trace, "gzip");
    }

  if (!decode_stream (job, trace, bytes, NULL, &loader, &stop, error))
    {
      d9_file_set_free (files);
      return FALSE;
    }
  if (files != NULL && stop.status != D9_OK)
    {
      /* A damaged file among several: each is cut where its damage starts
       * (the files after it still load) and the whole decodes again. */
      GHashTable *names = g_hash_table_ref (loader.tracks_by_name);

      loader_clear (&loader);
      d9_files_cut_damage (files);
      g_bytes_unref (bytes);
      bytes = d9_files_join (files);
      if (!decode_stream (job, trace, bytes, names, &loader, &stop, error))
        {
          d9_file_set_free (files);
          return FALSE;
        }
    }
  if (files != NULL)
    {
      for (guint i = 0; i < files->warnings->len; i++)
        kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE, "%s",
                                (const char *) g_ptr_array_index (files->warnings, i));
      d9_file_set_free (files);
    }
  if (!kymo_load_job_progress (job, 0.9, "Building the timeline", error))
    {
      loader_clear (&loader);
      return FALSE;
    }
  if (!d9_build_model (&loader, error) || !d9_side_build (&loader, error))
    {
      loader_clear (&loader);
      return FALSE;
    }
  loader_clear (&loader);

  if (gz_warning != NULL)
    kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE, "%s", gz_warning);

  if (stop.status == D9_TRUNCATED)
    kymo_trace_add_warning (trace, stop.offset, KYMO_TIME_NONE,
                            "offset %" G_GSIZE_FORMAT ": the trace ends inside a frame "
                            "(a trace still being written?)", stop.offset);
  else if (stop.status == D9_CORRUPT)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_CORRUPT, stop.offset, "%s", stop.message);
      return FALSE;
    }

  if (gz_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&gz_error));
      return FALSE;
    }
  return TRUE;
}
