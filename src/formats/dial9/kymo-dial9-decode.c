/* kymo-dial9-decode.c: one pass over the frames, collecting what the model needs
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>
#include "kymo-dial9-decode.h"
#include "kymo-dial9-pair.h"
#include "kymo-dial9-side.h"

#define PROGRESS_BYTES (1 << 16)

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
        case D9_OP_STACK:
          {
            /* A count of bytes, or of 8-byte frames. */
            guint64 len = (guint64) d9_u32 (q) * (op == D9_OP_STACK ? 8 : 1);

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

/* One varint of a plan, as run_plan() reads it; NULL past ten bytes. */
static inline const guint8 *
shape_varint (const guint8 *q,
              guint64      *out)
{
  guint64 v = 0;
  guint k;

  if (G_LIKELY (q[0] < 0x80))
    {
      *out = q[0];
      return q + 1;
    }
  for (k = 0; k < 10; k++)
    {
      v |= (guint64) (q[k] & 0x7F) << (7 * k);
      if ((q[k] & 0x80) == 0)
        break;
    }
  if (G_UNLIKELY (k == 10))
    return NULL;
  *out = v;
  return q + k + 1;
}

/* run_plan() for a model with a shape, given model->plan_max bytes at
 * @p: the same values and end, without a dispatch per field. */
static inline gsize
run_shape (const D9Model *model,
           const guint8  *data,
           gsize          p,
           guint64       *vals)
{
  const guint8 *q = data + p;

  if (G_UNLIKELY ((q = shape_varint (q, &vals[0])) == NULL))
    return 0;
  switch ((D9Shape) model->shape)
    {
    case D9_SHAPE_V:
      break;
    case D9_SHAPE_V_V_U8:
      if (G_UNLIKELY ((q = shape_varint (q, &vals[1])) == NULL))
        return 0;
      vals[2] = q[0];
      q += 1;
      break;
    case D9_SHAPE_V_U8_V_U32:
      vals[1] = q[0];
      if (G_UNLIKELY ((q = shape_varint (q + 1, &vals[2])) == NULL))
        return 0;
      vals[3] = d9_u32 (q);
      q += 4;
      break;
    case D9_SHAPE_V_U8_V_V_U32:
      vals[1] = q[0];
      if (G_UNLIKELY ((q = shape_varint (q + 1, &vals[2])) == NULL ||
                      (q = shape_varint (q, &vals[3])) == NULL))
        return 0;
      vals[4] = d9_u32 (q);
      q += 4;
      break;
    case D9_SHAPE_V_U8_V:
      vals[1] = q[0];
      if (G_UNLIKELY ((q = shape_varint (q + 1, &vals[2])) == NULL))
        return 0;
      break;
    case D9_SHAPE_V_U8_V_V:
      vals[1] = q[0];
      if (G_UNLIKELY ((q = shape_varint (q + 1, &vals[2])) == NULL ||
                      (q = shape_varint (q, &vals[3])) == NULL))
        return 0;
      break;
    case D9_SHAPE_NONE:
    default:
      g_assert_not_reached ();
    }
  return q - data;
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
    s->name = d9_intern_len (l, (const char *) s->data, s->len);
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
  if (w->part_edges != NULL)
    {
      /* Field by field: a struct built on the stack and copied whole is
       * read back in wider loads than it was written in, which stalls
       * each copy. */
      D9Edge *e = d9_vec_push (w->part_edges, sizeof *e);

      e->ts = ts;
      e->aux = aux;
      e->source = source;
      e->name_kind = (name & KYMO_NAME_MAX) | (guint32) kind << 24;
    }
  else
    {
      D9Edge e = { ts, aux, source, (name & KYMO_NAME_MAX) | (guint32) kind << 24 };

      g_array_append_val (w->edges, e);
    }
}

static inline void
push_instant (D9Worker          *w,
              const KymoInstant *instant)
{
  if (w->part_instants != NULL)
    {
      /* As push_edge(). */
      KymoInstant *out = d9_vec_push (w->part_instants, sizeof *out);

      out->ts = instant->ts;
      out->name_flags = instant->name_flags;
      out->source = instant->source;
    }
  else
    g_array_append_vals (w->instants, instant, 1);
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

  if (d9_field_present (model, D9_ROLE_SE_NAME, absent))
    {
      guint64 at = vals[model->field[D9_ROLE_SE_NAME]];

      if (model->se_name_type == D9_POOLED_STRING)
        name = pool_name (l, at, model->name);
      else if (model->se_name_type == D9_STRING)
        name = d9_intern_len (l, (const char *) l->d->data + at + 4, d9_u32 (l->d->data + at));
    }

  span.end = ts;
  span.start = ts;
  if (d9_field_present (model, D9_ROLE_SE_DURATION, absent))
    {
      v = (double) vals[model->field[D9_ROLE_SE_DURATION]] * model->se_scale;
      span.start = ts - (KymoTime) MIN (v, (double) G_MAXINT32 * 1e9);
    }
  else if (d9_field_present (model, D9_ROLE_SE_START, absent))
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
      if (model->kind == D9_KIND_SYMBOL || model->kind == D9_KIND_CALLFRAME)
        d9_symbol_event (l, model, vals, absent);
      else if (model->kind == D9_KIND_META)
        d9_meta_event (l, model, vals, absent);
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
      if (!d9_field_present (model, D9_ROLE_WORKER, absent))
        break;
      w = loader_worker (l, vals[model->field[D9_ROLE_WORKER]]);
      task = d9_field_present (model, D9_ROLE_TASK, absent)
             ? loader_task (l, vals[model->field[D9_ROLE_TASK]]) : G_MAXUINT32;
      lq = d9_field_present (model, D9_ROLE_LOCAL_QUEUE, absent)
           ? MIN (vals[model->field[D9_ROLE_LOCAL_QUEUE]], G_MAXUINT32 - 1) + 1 : 0;
      {
        guint32 name = l->name_poll;
        if (d9_field_present (model, D9_ROLE_SPAWN_LOC, absent))
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
      if (!d9_field_present (model, D9_ROLE_WORKER, absent))
        break;
      w = loader_worker (l, vals[model->field[D9_ROLE_WORKER]]);
      lq = d9_field_present (model, D9_ROLE_LOCAL_QUEUE, absent)
           ? MIN (vals[model->field[D9_ROLE_LOCAL_QUEUE]], G_MAXUINT32 - 1) + 1 : 0;
      edge (l, w, ts,
            model->kind == D9_KIND_POLL_END ? D9_EDGE_POLL_END :
            model->kind == D9_KIND_PARK ? D9_EDGE_PARK : D9_EDGE_UNPARK,
            model->kind == D9_KIND_POLL_END ? 0 : l->name_parked, lq << 32, source);
      return;

    case D9_KIND_SPAN_ENTER:
    case D9_KIND_SPAN_EXIT:
      if (!d9_field_present (model, D9_ROLE_WORKER, absent) || !d9_field_present (model, D9_ROLE_SPAN_ID, absent))
        break;
      w = loader_worker (l, vals[model->field[D9_ROLE_WORKER]]);
      edge (l, w, ts, model->kind == D9_KIND_SPAN_ENTER ? D9_EDGE_ENTER : D9_EDGE_EXIT,
            d9_field_present (model, D9_ROLE_SPAN_NAME, absent)
            ? pool_name_fast (l, vals[model->field[D9_ROLE_SPAN_NAME]], model->alt_name)
            : model->alt_name,
            vals[model->field[D9_ROLE_SPAN_ID]], source);
      return;

    case D9_KIND_QUEUE:
      if (d9_field_present (model, D9_ROLE_GLOBAL_QUEUE, absent))
        {
          KymoSample s = { ts, (double) vals[model->field[D9_ROLE_GLOBAL_QUEUE]] };
          g_array_append_val (l->queue, s);
        }
      return;

    case D9_KIND_WAKE:
      if (d9_field_present (model, D9_ROLE_WAKER, absent))
        {
          guint64 waker = vals[model->field[D9_ROLE_WAKER]];
          guint32 woken = d9_field_present (model, D9_ROLE_WOKEN, absent)
                          ? loader_task (l, vals[model->field[D9_ROLE_WOKEN]]) : G_MAXUINT32;

          if (!l->streaming && l->part_wakes != NULL)
            {
              /* As push_edge(). */
              D9Wake *out = d9_vec_push (l->part_wakes, sizeof *out);

              out->ts = ts;
              out->waker = waker;
              out->woken = woken;
              out->source = source;
            }
          else
            {
              D9Wake wake = { ts, waker, woken, source };

              if (!l->streaming)
                g_array_append_val (l->wakes, wake);
              else if (in_order (l, ts, source))
                d9_pair_wake (l, &wake);
            }
          return;
        }
      break;

    case D9_KIND_SPAWN:
    case D9_KIND_TERMINATE:
      if (d9_field_present (model, D9_ROLE_TASK, absent))
        {
          /* The lookup may grow the array: index it afterwards. */
          guint32 index = loader_task (l, vals[model->field[D9_ROLE_TASK]]);
          D9Task *t = &g_array_index (l->d->tasks, D9Task, index);
          if (model->kind == D9_KIND_SPAWN)
            {
              t->spawn = ts;
              if (d9_field_present (model, D9_ROLE_SPAWN_LOC, absent))
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
      w = loader_worker (l, d9_field_present (model, D9_ROLE_WORKER, absent)
                               ? vals[model->field[D9_ROLE_WORKER]] : D9_WORKER_NONE);
      {
        KymoInstant instant = { ts,
                                d9_field_present (model, D9_ROLE_SOURCE, absent) &&
                                vals[model->field[D9_ROLE_SOURCE]] == 1 ? l->name_sched : l->name_cpu,
                                source };
        push_instant (w, &instant);
      }
      return;

    case D9_KIND_META:
      d9_meta_event (l, model, vals, absent);
      return;

    case D9_KIND_CLOCK:
      if (!l->has_wallclock && d9_field_present (model, D9_ROLE_REALTIME, absent))
        {
          l->has_wallclock = TRUE;
          l->wall_offset = (gint64) vals[model->field[D9_ROLE_REALTIME]] - ts;
          if (l->spec != NULL)
            l->spec->wall_ts = ts;
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
          handle_single_event_span (l, model, ts, vals, absent, source);
          return;
        }
      if (d9_field_present (model, D9_ROLE_WORKER, absent))
        {
          KymoInstant instant = { ts, model->name, source };
          w = loader_worker (l, vals[model->field[D9_ROLE_WORKER]]);
          push_instant (w, &instant);
          return;
        }
      break;

    case D9_KIND_SYMBOL:
    case D9_KIND_CALLFRAME:
      break;
    }

  /* Named tracks are made in file order: a part decoded on its own
   * numbers its own, which the merge maps (d9_merge_part). */
  add_instant (l, model_track (l, model), ts, model->name, source);
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
  if (!kymo_load_job_progress (l->job, D9_PROGRESS_DECODING (fraction), "Decoding", error))
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
gboolean
d9_decode (D9Loader  *l,
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
              gsize end = model->shape != D9_SHAPE_NONE ? run_shape (model, data, p, vals)
                                                        : run_plan (model, data, size, p, vals, &absent);

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
          if (G_UNLIKELY (l->disorder))
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

                d9_classify (l, schema, &model);
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
              d9_apply_annotations (l, &g_array_index (l->models, D9Model, schema->model), schema, entries, count);
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

