/* kymo-dial9-side.c: records and sampled stacks for analyses
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>

#include "kymo-dial9-side.h"
#include "kymo-short-path.h"

/* Below this many events one thread reads them all. */
#define SIDE_THREAD_MIN 200000
#define SIDE_MAX_THREADS 8

typedef enum {
  SIDE_NONE,
  SIDE_POLL,
  SIDE_WAKE,
  SIDE_SPAWN,
  SIDE_TERMINATE,
  SIDE_UNPARK,
  SIDE_CPU,
  SIDE_PARK,
  SIDE_CPU_TIME,   /* a record only: the CPU clock at a park or unpark */
  N_SIDE_KINDS,
} SideKind;

enum {
  F_WORKER,
  F_TASK,
  F_LOCAL_QUEUE,
  F_WAKER,
  F_WOKEN,
  F_SPAWN_LOC,
  F_INSTRUMENTED,
  F_SCHED_WAIT,
  F_SOURCE,
  F_CALLCHAIN,
  F_CPU_TIME,
  N_F,
};

static const char * const field_names[N_F] = {
  "worker_id", "task_id", "local_queue", "waker_task_id", "woken_task_id",
  "spawn_loc", "instrumented", "sched_wait_ns", "source", "callchain", "cpu_time_ns",
};

typedef struct {
  SideKind kind;
  gint     field[N_F];
  guint    n_roles;                 /* fields before the last one kept */
  gint8    role_of[D9_MAX_KEPT_FIELDS]; /* per field: its role, or -1 */
} SidePlan;

/* A CPU or scheduler sample, symbolised once every chunk is read. */
typedef struct {
  KymoTime ts;
  guint64  chain;    /* pool stack index, or offset of an inline chain */
  guint32  track;
  guint32  source;
  guint8   inline_chain;
  guint8   sched;
  guint8   known;    /* FALSE: a pool id never defined */
} SideSample;

typedef struct {
  D9Loader       *l;
  const SidePlan *plans;
  guint           first_cp;  /* checkpoint to start from */
  guint64         end;       /* ordinal to stop before */
  GArray         *records;   /* KymoRecord; spawn names are pool string indexes + 1 */
  GArray         *samples;   /* SideSample */
  GCancellable   *cancellable;
} SideChunk;

static SideKind
kind_of (const D9Schema *schema)
{
  static const struct { const char *name; SideKind kind; } names[] = {
    { "PollStartEvent", SIDE_POLL },
    { "WakeEventEvent", SIDE_WAKE },
    { "TaskSpawnEvent", SIDE_SPAWN },
    { "TaskTerminateEvent", SIDE_TERMINATE },
    { "WorkerUnparkEvent", SIDE_UNPARK },
    { "WorkerParkEvent", SIDE_PARK },
    { "CpuSampleEvent", SIDE_CPU },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (schema->name_len == strlen (names[i].name) &&
        memcmp (schema->name, names[i].name, schema->name_len) == 0)
      return names[i].kind;
  return SIDE_NONE;
}

static SidePlan *
make_plans (D9Registry *reg)
{
  SidePlan *plans = g_new0 (SidePlan, reg->schemas->len + 1);

  for (guint i = 0; i < reg->schemas->len; i++)
    {
      const D9Schema *schema = d9_registry_get (reg, i);
      SidePlan *plan = &plans[i];

      for (guint f = 0; f < N_F; f++)
        plan->field[f] = -1;
      plan->kind = kind_of (schema);
      if (plan->kind == SIDE_NONE)
        continue;
      memset (plan->role_of, -1, sizeof plan->role_of);
      for (guint k = 0; k < MIN (schema->n_fields, D9_MAX_KEPT_FIELDS); k++)
        {
          const D9Field *field = d9_schema_field (reg, schema, k);

          for (guint f = 0; f < N_F; f++)
            if (plan->field[f] < 0 && field->name_len == strlen (field_names[f]) &&
                memcmp (field->name, field_names[f], field->name_len) == 0)
              {
                plan->field[f] = (gint) k;
                plan->role_of[k] = (gint8) f;
                plan->n_roles = k + 1;
              }
        }
    }
  return plans;
}

static guint32
worker_track (D9Loader *l,
              guint64   id)
{
  guint32 index = id < 256 ? l->small_workers[id] - 1 : d9_map_lookup (&l->worker_map, id);

  if (index == G_MAXUINT32)
    return KYMO_NO_TRACK;
  return ((D9Worker *) g_ptr_array_index (l->workers, index))->track;
}

/* One event of a kind we keep: its fields' values by role. */
static void
take_event (SideChunk      *c,
            const SidePlan *plan,
            guint32         segment,
            KymoTime        ts,
            guint32         ordinal,
            const guint64  *vals,
            const gboolean *has,
            const guint8   *types)
{
  D9Data *d = c->l->d;
  KymoRecord r = { ts, 0, 0, 0, 0, KYMO_NO_TRACK, ordinal };

#define V(f) (has[f] ? vals[f] : 0)
  switch (plan->kind)
    {
    case SIDE_POLL:
      if (!has[F_TASK] || !has[F_WORKER])
        return;
      r.kind = SIDE_POLL;
      r.key = vals[F_TASK];
      r.value = V (F_LOCAL_QUEUE);
      r.track = worker_track (c->l, vals[F_WORKER]);
      break;
    case SIDE_WAKE:
      if (!has[F_WOKEN])
        return;
      r.kind = SIDE_WAKE;
      r.key = vals[F_WOKEN];
      r.value = V (F_WAKER);
      break;
    case SIDE_SPAWN:
      if (!has[F_TASK])
        return;
      r.kind = SIDE_SPAWN;
      r.key = vals[F_TASK];
      r.value = has[F_INSTRUMENTED] ? vals[F_INSTRUMENTED] != 0 : 1;
      break;
    case SIDE_TERMINATE:
      if (!has[F_TASK])
        return;
      r.kind = SIDE_TERMINATE;
      r.key = vals[F_TASK];
      break;
    case SIDE_UNPARK:
    case SIDE_PARK:
      if (!has[F_WORKER])
        return;
      r.key = vals[F_WORKER];
      r.track = worker_track (c->l, vals[F_WORKER]);
      if (plan->kind == SIDE_UNPARK && has[F_SCHED_WAIT])
        {
          r.kind = SIDE_UNPARK;
          r.value = vals[F_SCHED_WAIT];
          g_array_append_val (c->records, r);
        }
      /* Older files have no CPU clock: no share is better than a wrong one. */
      if (!has[F_CPU_TIME])
        return;
      r.kind = SIDE_CPU_TIME;
      r.value = vals[F_CPU_TIME];
      /* Interned once the threads are joined. */
      r.name = plan->kind;
      break;
    case SIDE_CPU:
      {
        SideSample s = { ts, 0, KYMO_NO_TRACK, ordinal, FALSE, FALSE, FALSE };
        guint8 type = types[F_CALLCHAIN] & ~D9_OPTIONAL;

        s.track = worker_track (c->l, has[F_WORKER] ? vals[F_WORKER] : D9_WORKER_NONE);
        s.sched = has[F_SOURCE] && vals[F_SOURCE] == 1;
        if (has[F_CALLCHAIN] && type == D9_POOLED_STACK)
          {
            guint32 index = d9_map_lookup (&d->stack_map, (guint64) segment << 32 | (guint32) vals[F_CALLCHAIN]);
            s.known = index != G_MAXUINT32;
            s.chain = index;
          }
        else if (has[F_CALLCHAIN] && type == D9_STACK)
          {
            s.known = TRUE;
            s.inline_chain = TRUE;
            s.chain = vals[F_CALLCHAIN];
          }
        g_array_append_val (c->samples, s);
      }
      return;
    case SIDE_NONE:
    default:
      return;
    }
#undef V
  g_array_append_val (c->records, r);
}

/* Walks the stream from a checkpoint as describe does (load checked it:
 * any surprise ends the walk). */
static gpointer
read_chunk (gpointer data)
{
  SideChunk *c = data;
  D9Data *d = c->l->d;
  const D9Checkpoint *cp = &g_array_index (d->checkpoints, D9Checkpoint, c->first_cp);
  const guint8 *bytes = d->data;
  gsize size = d->size, p = cp->offset;
  guint64 base = cp->base, ordinal = cp->ordinal;
  guint32 segment = cp->segment;

  while (p < size && ordinal < c->end)
    {
      guint8 tag = bytes[p++];
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
          {
            guint n;

            if (size - p < 4)
              return NULL;
            p += 4 + d9_u16 (bytes + p + 2);
            if (p > size || size - p < 3)
              return NULL;
            n = d9_u16 (bytes + p + 1);
            p += 3;
            for (guint i = 0; i < n; i++)
              {
                if (size - p < 2)
                  return NULL;
                p += 2 + d9_u16 (bytes + p) + 1;
                if (p > size)
                  return NULL;
              }
          }
          break;
        case D9_TAG_STRING_POOL:
          if (d9_check_string_pool (bytes, size, &p, &count) != D9_OK)
            return NULL;
          break;
        case D9_TAG_STACK_POOL:
          if (d9_check_stack_pool (bytes, size, &p, &count) != D9_OK)
            return NULL;
          break;
        case D9_TAG_ANNOTATIONS:
          if (d9_check_annotations (bytes, size, &p, &type_id, &n16, &entries) != D9_OK)
            return NULL;
          break;
        case D9_TAG_TS_RESET:
          if (size - p < 8)
            return NULL;
          base = d9_u64 (bytes + p);
          p += 8;
          break;
        case D9_TAG_EVENT:
          {
            guint32 index;
            const D9Schema *schema;
            const D9Field *fields;
            const SidePlan *plan;
            guint64 vals[N_F] = { 0 };
            gboolean has[N_F] = { 0 };
            guint8 types[N_F] = { 0 };

            if (size - p < 2)
              return NULL;
            index = d9_map_lookup (&d->reg.by_segment, (guint64) segment << 16 | d9_u16 (bytes + p));
            if (index == G_MAXUINT32)
              return NULL;
            schema = d9_registry_get (&d->reg, index);
            fields = &g_array_index (d->reg.fields, D9Field, schema->first_field);
            plan = &c->plans[index];
            p += 2;
            if (schema->has_ts)
              {
                if (size - p < 3)
                  return NULL;
                base += bytes[p] | (guint32) bytes[p + 1] << 8 | (guint32) bytes[p + 2] << 16;
                p += 3;
              }
            for (guint i = 0; i < schema->n_fields; i++)
              {
                gint f = plan->kind != SIDE_NONE && i < plan->n_roles ? plan->role_of[i] : -1;

                if (f < 0)
                  {
                    if (d9_skip_value (bytes, size, &p, fields[i].type, 0) != D9_OK)
                      return NULL;
                  }
                else
                  {
                    types[f] = fields[i].type;
                    if (d9_read_scalar (bytes, size, &p, fields[i].type, &vals[f], &has[f]) != D9_OK)
                      return NULL;
                  }
              }
            if (plan->kind != SIDE_NONE)
              take_event (c, plan, segment, (KymoTime) base, (guint32) ordinal, vals, has, types);
            ordinal++;
            if (ordinal % 65536 == 0 && g_cancellable_is_cancelled (c->cancellable))
              return NULL;
          }
          break;
        default:
          return NULL;
        }
    }
  return NULL;
}

/* The frames of one address, outermost first, appended to @frames. */
static void
symbolise (KymoTrace *trace,
           D9Data    *d,
           guint64    addr,
           GArray    *frames)
{
  const D9Symbol *syms;
  guint n = d9_data_symbolize (d, addr, &syms);

  if (n == 0)
    {
      char buf[32];
      KymoFrame f;

      g_snprintf (buf, sizeof buf, "0x%" G_GINT64_MODIFIER "x", addr);
      f.name = kymo_trace_intern (trace, buf);
      f.location = 0;
      g_array_append_val (frames, f);
      return;
    }
  /* Inline depth 0 is the function the address is in; deeper entries are
   * inlined into it (sorted by depth). */
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_utf8_make_valid ((const char *) syms[i].name, syms[i].name_len);
      KymoFrame f = { kymo_trace_intern (trace, name), 0 };

      if (syms[i].file_len > 0)
        {
          g_autofree char *file = g_utf8_make_valid ((const char *) syms[i].file, syms[i].file_len);

          if (!g_str_equal (file, "<no location>"))
            {
              g_autofree char *loc = syms[i].line > 0
                                     ? g_strdup_printf ("%s:%" G_GUINT64_FORMAT, kymo_short_path (file), syms[i].line)
                                     : g_strdup (kymo_short_path (file));
              f.location = kymo_trace_intern (trace, loc);
            }
        }
      g_array_append_val (frames, f);
    }
}

typedef struct {
  KymoTrace  *trace;
  D9Data     *d;
  GHashTable *by_addr;   /* address → first frame in @cache + 1 (count in the next) */
  GArray     *cache;     /* KymoFrame runs */
  GArray     *lens;      /* guint per run */
  GArray     *frames;    /* scratch */
} Symboliser;

static void
push_address (Symboliser *s,
              guint64     addr)
{
  gpointer v;
  guint first, n;

  if (!g_hash_table_lookup_extended (s->by_addr, &addr, NULL, &v))
    {
      guint64 *key = g_new (guint64, 1);

      *key = addr;
      first = s->cache->len;
      symbolise (s->trace, s->d, addr, s->cache);
      n = s->cache->len - first;
      v = GUINT_TO_POINTER (s->lens->len + 1);
      g_array_append_val (s->lens, first);
      g_array_append_val (s->lens, n);
      g_hash_table_insert (s->by_addr, key, v);
    }
  first = g_array_index (s->lens, guint, GPOINTER_TO_UINT (v) - 1);
  n = g_array_index (s->lens, guint, GPOINTER_TO_UINT (v));
  g_array_append_vals (s->frames, &g_array_index (s->cache, KymoFrame, first), n);
}

/* Addresses are stored leaf first: the stack reads outermost first. */
static guint32
add_stack (Symboliser   *s,
           KymoStacks   *stacks,
           const guint8 *addrs,
           guint32       count)
{
  g_array_set_size (s->frames, 0);
  for (guint32 i = count; i-- > 0;)
    push_address (s, d9_u64 (addrs + (gsize) i * 8));
  return kymo_stacks_add (stacks, (const KymoFrame *) (gpointer) s->frames->data, s->frames->len);
}

/* An inline call chain in the input: a u32 count, then count u64 addresses. */
static guint
chain_hash (gconstpointer data)
{
  const guint8 *chain = data;
  guint32 n = d9_u32 (chain);
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325) ^ n;

  /* A word at a time: chains are dozens of addresses long. */
  for (guint32 i = 0; i < n; i++)
    {
      guint64 addr;

      memcpy (&addr, chain + 4 + (gsize) i * 8, 8);
      h = (h ^ addr) * G_GUINT64_CONSTANT (0x100000001b3);
      h ^= h >> 29;
    }
  return (guint) (h ^ (h >> 32));
}

static gboolean
chain_equal (gconstpointer a,
             gconstpointer b)
{
  guint32 n = d9_u32 (a);

  return n == d9_u32 (b) && memcmp ((const guint8 *) a + 4, (const guint8 *) b + 4, (gsize) n * 8) == 0;
}

static void
add_samples (D9Loader *l,
             GArray   *samples)
{
  KymoStacks *stacks = kymo_trace_get_stacks (l->trace);
  D9Data *d = l->d;
  guint32 kind_cpu = kymo_trace_intern (l->trace, "cpu");
  guint32 kind_sched = kymo_trace_intern (l->trace, "sched");
  g_autofree guint32 *pool_ids = g_new (guint32, d->pool_stacks->len + 1);
  /* Keyed by the chain's bytes, not its offset: older files repeat the
   * same inline chain in every sample, and symbolising each copy again
   * cost more than the rest of the load. */
  g_autoptr(GHashTable) inline_ids = g_hash_table_new (chain_hash, chain_equal);
  Symboliser s = { l->trace, d, g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
                   g_array_new (FALSE, FALSE, sizeof (KymoFrame)), g_array_new (FALSE, FALSE, sizeof (guint)),
                   g_array_new (FALSE, FALSE, sizeof (KymoFrame)) };

  for (guint i = 0; i <= d->pool_stacks->len; i++)
    pool_ids[i] = G_MAXUINT32 - 1;

  for (guint i = 0; i < samples->len; i++)
    {
      const SideSample *x = &g_array_index (samples, SideSample, i);
      guint32 stack = KYMO_NO_STACK;

      if (!x->known || x->track == KYMO_NO_TRACK)
        ;
      else if (!x->inline_chain)
        {
          if (x->chain < d->pool_stacks->len)
            {
              if (pool_ids[x->chain] == G_MAXUINT32 - 1)
                {
                  const D9PoolStack *ps = &g_array_index (d->pool_stacks, D9PoolStack, x->chain);
                  pool_ids[x->chain] = add_stack (&s, stacks, ps->frames, ps->count);
                }
              stack = pool_ids[x->chain];
            }
        }
      else
        {
          gpointer v;

          const guint8 *chain = d->data + x->chain;

          if (g_hash_table_lookup_extended (inline_ids, chain, NULL, &v))
            stack = GPOINTER_TO_UINT (v);
          else
            {
              stack = add_stack (&s, stacks, chain + 4, d9_u32 (chain));
              g_hash_table_insert (inline_ids, (gpointer) chain, GUINT_TO_POINTER (stack));
            }
        }
      if (x->track != KYMO_NO_TRACK)
        kymo_stacks_add_sample (stacks, x->track, x->ts, stack, x->sched ? kind_sched : kind_cpu, x->source);
    }
  g_hash_table_unref (s.by_addr);
  g_array_unref (s.cache);
  g_array_unref (s.lens);
  g_array_unref (s.frames);
}

gboolean
d9_side_build (D9Loader  *l,
               GError   **error)
{
  D9Data *d = l->d;
  GCancellable *cancellable = kymo_load_job_get_cancellable (l->job);
  g_autofree SidePlan *plans = NULL;
  g_autofree SideChunk *chunks = NULL;
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  g_autofree KymoRecord *records = NULL;
  gsize n_records = 0;
  g_autoptr(GArray) samples = NULL;
  guint32 kinds[N_SIDE_KINDS - 1];
  guint n_chunks, n_cps = d->checkpoints->len;

  if (n_cps == 0 || d->n_events == 0)
    return TRUE;

  plans = make_plans (&d->reg);
  /* As many threads as the load option gives the rest of the load: the
   * records come out the same, whatever the count. */
  n_chunks = kymo_load_options_get_threads (kymo_load_job_get_options (l->job), d->n_events, SIDE_THREAD_MIN);
  n_chunks = CLAMP (n_chunks, 1, SIDE_MAX_THREADS);
  n_chunks = MIN (n_chunks, n_cps);
  chunks = g_new0 (SideChunk, n_chunks);
  for (guint i = 0; i < n_chunks; i++)
    {
      SideChunk *c = &chunks[i];

      c->l = l;
      c->plans = plans;
      c->first_cp = (guint) ((guint64) n_cps * i / n_chunks);
      c->records = NULL;
      c->samples = NULL;
      c->cancellable = cancellable;
    }
  for (guint i = 0; i < n_chunks; i++)
    {
      SideChunk *c = &chunks[i];
      guint64 n_events;

      c->end = i + 1 < n_chunks ? g_array_index (d->checkpoints, D9Checkpoint, chunks[i + 1].first_cp).ordinal
                                : d->n_events;
      /* Room for every event: large blocks are mapped, and only the pages
       * written cost memory, so the arrays never grow by copying. */
      n_events = c->end - g_array_index (d->checkpoints, D9Checkpoint, c->first_cp).ordinal;
      c->records = g_array_sized_new (FALSE, FALSE, sizeof (KymoRecord), (guint) MIN (n_events + 1, G_MAXUINT32));
      c->samples = g_array_sized_new (FALSE, FALSE, sizeof (SideSample), (guint) MIN (n_events + 1, G_MAXUINT32));
    }
  for (guint i = 1; i < n_chunks; i++)
    g_ptr_array_add (threads, g_thread_new ("dial9-side", read_chunk, &chunks[i]));
  read_chunk (&chunks[0]);
  for (guint i = 0; i < threads->len; i++)
    g_thread_join (g_ptr_array_index (threads, i));

  /* One copy of the records, into the block the model adopts. */
  {
    gsize total = 0, at = 0;

    for (guint i = 0; i < n_chunks; i++)
      total += chunks[i].records->len;
    records = g_new (KymoRecord, MAX (total, 1));
    for (guint i = 0; i < n_chunks; i++)
      {
        memcpy (records + at, chunks[i].records->data, chunks[i].records->len * sizeof (KymoRecord));
        at += chunks[i].records->len;
        g_array_unref (chunks[i].records);
      }
    n_records = total;
  }
  samples = chunks[0].samples;
  for (guint i = 1; i < n_chunks; i++)
    {
      g_array_append_vals (samples, chunks[i].samples->data, chunks[i].samples->len);
      g_array_unref (chunks[i].samples);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  kinds[SIDE_POLL - 1] = kymo_trace_intern (l->trace, "poll");
  kinds[SIDE_WAKE - 1] = kymo_trace_intern (l->trace, "wake");
  kinds[SIDE_SPAWN - 1] = kymo_trace_intern (l->trace, "spawn");
  kinds[SIDE_TERMINATE - 1] = kymo_trace_intern (l->trace, "terminate");
  kinds[SIDE_UNPARK - 1] = kymo_trace_intern (l->trace, "unpark");
  kinds[SIDE_PARK - 1] = kymo_trace_intern (l->trace, "park");
  kinds[SIDE_CPU_TIME - 1] = kymo_trace_intern (l->trace, "cpu");
  for (gsize i = 0; i < n_records; i++)
    {
      KymoRecord *r = &records[i];

      /* Pool ids may be defined again later in a segment (the symbolizer
       * appends its strings): the location is the one decoding resolved. */
      if (r->kind == SIDE_SPAWN)
        {
          guint32 index = d9_map_lookup (&d->task_map, r->key);
          const D9Task *t = index != G_MAXUINT32 ? &g_array_index (d->tasks, D9Task, index) : NULL;

          if (t != NULL && t->spawn_loc != G_MAXUINT32)
            {
              const D9PoolString *ps = &g_array_index (d->pool_strings, D9PoolString, t->spawn_loc);
              g_autofree char *loc = g_utf8_make_valid ((const char *) ps->data, ps->len);

              r->name = kymo_trace_intern (l->trace, loc);
            }
        }
      else if (r->kind == SIDE_CPU_TIME)
        r->name = kinds[r->name - 1];
      r->kind = kinds[r->kind - 1];
    }
  kymo_records_take (kymo_trace_get_records (l->trace), g_steal_pointer (&records), n_records);
  add_samples (l, samples);
  return TRUE;
}
