/* kymo-dial9-side.c: records and sampled stacks for analyses
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kymo-dial9-side.h"
#include "kymo-dial9-decode.h"
#include "kymo-parts.h"
#include "kymo-pivot.h"
#include "kymo-run-sort.h"
#include "kymo-short-path.h"

/* Kinds of the records as taken, before they are interned. */
enum {
  REC_POLL = 1,
  REC_WAKE,
  REC_SPAWN,
  REC_TERMINATE,
  REC_UNPARK,
  REC_CPU,     /* the CPU clock at a park or unpark (name: which) */
  REC_PARK,    /* interned only: a "cpu" record's name */
  N_REC,
};

static const char * const field_names[D9_N_SIDE_FIELDS] = {
  "worker_id", "task_id", "local_queue", "waker_task_id", "woken_task_id",
  "instrumented", "sched_wait_ns", "cpu_time_ns", "source", "callchain",
};

enum {
  CHAIN_NONE,
  CHAIN_POOLED,  /* chain: segment << 32 | pool id */
  CHAIN_INLINE,  /* chain: offset of a u32 count and the addresses */
};

/* A CPU or scheduler sample, symbolised once the whole stream is read. */
typedef struct {
  KymoTime ts;
  guint64  chain;
  guint64  worker;   /* worker id */
  guint32  source;
  guint8   chain_kind;
  guint8   sched;
} D9SideSample;

/* A run of records and samples in file order: the loader's own
 * [from, to), or a merged part's whole arrays (owned). */
typedef struct {
  D9Vec   *records;
  D9Vec   *samples;
  gsize    records_from;
  gsize    records_to;
  gsize    samples_from;
  gsize    samples_to;
  guint32  ordinal_base;
  guint32  segment_base;
  gboolean own;
} D9SideRun;

static D9SideKind
kind_of (const D9Schema *schema)
{
  static const struct { const char *name; D9SideKind kind; } names[] = {
    { "PollStartEvent", D9_SIDE_POLL },
    { "WakeEventEvent", D9_SIDE_WAKE },
    { "TaskSpawnEvent", D9_SIDE_SPAWN },
    { "TaskTerminateEvent", D9_SIDE_TERMINATE },
    { "WorkerParkEvent", D9_SIDE_PARK },
    { "WorkerUnparkEvent", D9_SIDE_UNPARK },
    { "CpuSampleEvent", D9_SIDE_SAMPLE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (schema->name_len == strlen (names[i].name) &&
        memcmp (schema->name, names[i].name, schema->name_len) == 0)
      return names[i].kind;
  return D9_SIDE_NONE;
}

void
d9_side_classify (D9Registry     *reg,
                  const D9Schema *schema,
                  D9Model        *model)
{
  memset (model->side_field, -1, sizeof model->side_field);
  model->side_chain_type = 0;
  model->side_kind = kind_of (schema);
  if (model->side_kind == D9_SIDE_NONE)
    return;
  for (guint k = 0; k < MIN (schema->n_fields, D9_MAX_KEPT_FIELDS); k++)
    {
      const D9Field *field = d9_schema_field (reg, schema, k);

      for (guint f = 0; f < D9_N_SIDE_FIELDS; f++)
        if (model->side_field[f] < 0 && field->name_len == strlen (field_names[f]) &&
            memcmp (field->name, field_names[f], field->name_len) == 0)
          {
            model->side_field[f] = (gint8) k;
            if (f == D9_SF_CALLCHAIN)
              model->side_chain_type = field->type & ~D9_OPTIONAL;
            break;
          }
    }
}

void
d9_side_init (D9Loader *l)
{
  l->side_records = d9_vec_new ();
  l->side_samples = d9_vec_new ();
  /* A part's are joined by moving their pages: see d9_side_join(). */
  l->side_records->map_from = l->side_samples->map_from = l->map_from;
  l->side_runs = NULL;
}

static void
run_clear (gpointer data)
{
  D9SideRun *run = data;

  if (!run->own)
    {
      d9_vec_free (run->records);
      d9_vec_free (run->samples);
    }
}

void
d9_side_clear (D9Loader *l)
{
  g_clear_pointer (&l->side_runs, g_array_unref);
  g_clear_pointer (&l->side_records, d9_vec_free);
  g_clear_pointer (&l->side_samples, d9_vec_free);
}

static inline void
push_record (D9Loader *l,
             guint64   ts,
             guint32   kind,
             guint64   key,
             guint64   value,
             guint32   source)
{
  KymoRecord *r = d9_vec_push (l->side_records, sizeof (KymoRecord));

  r->ts = (KymoTime) ts;
  r->key = key;
  r->value = value;
  r->kind = kind;
  r->name = 0;
  r->track = KYMO_NO_TRACK;
  r->source = source;
}

void
d9_side_take_event (D9Loader      *l,
                    const D9Model *model,
                    guint64        ts,
                    const guint64 *vals,
                    guint64        absent,
                    guint32        segment,
                    guint32        source)
{
#define HAS(f) (model->side_field[f] >= 0 && !(absent >> model->side_field[f] & 1))
#define VAL(f) (vals[model->side_field[f]])
  switch ((D9SideKind) model->side_kind)
    {
    case D9_SIDE_POLL:
      if (HAS (D9_SF_TASK) && HAS (D9_SF_WORKER))
        {
          KymoRecord *r;
          guint64 worker = VAL (D9_SF_WORKER);

          push_record (l, ts, REC_POLL, VAL (D9_SF_TASK), HAS (D9_SF_LOCAL_QUEUE) ? VAL (D9_SF_LOCAL_QUEUE) : 0, source);
          /* The worker's track is known once every worker is: its id
           * waits in name and track. */
          r = (KymoRecord *) (gpointer) l->side_records->data + l->side_records->len - 1;
          r->name = (guint32) (worker >> 32);
          r->track = (guint32) worker;
        }
      break;
    case D9_SIDE_WAKE:
      if (HAS (D9_SF_WOKEN))
        push_record (l, ts, REC_WAKE, VAL (D9_SF_WOKEN), HAS (D9_SF_WAKER) ? VAL (D9_SF_WAKER) : 0, source);
      break;
    case D9_SIDE_SPAWN:
      if (HAS (D9_SF_TASK))
        push_record (l, ts, REC_SPAWN, VAL (D9_SF_TASK),
                     HAS (D9_SF_INSTRUMENTED) ? VAL (D9_SF_INSTRUMENTED) != 0 : 1, source);
      break;
    case D9_SIDE_TERMINATE:
      if (HAS (D9_SF_TASK))
        push_record (l, ts, REC_TERMINATE, VAL (D9_SF_TASK), 0, source);
      break;
    case D9_SIDE_UNPARK:
      if (HAS (D9_SF_WORKER) && HAS (D9_SF_SCHED_WAIT))
        push_record (l, ts, REC_UNPARK, VAL (D9_SF_WORKER), VAL (D9_SF_SCHED_WAIT), source);
      G_GNUC_FALLTHROUGH;
    case D9_SIDE_PARK:
      /* Older files have no CPU clock: no share is better than a wrong one. */
      if (HAS (D9_SF_WORKER) && HAS (D9_SF_CPU_TIME))
        {
          push_record (l, ts, REC_CPU, VAL (D9_SF_WORKER), VAL (D9_SF_CPU_TIME), source);
          ((KymoRecord *) (gpointer) l->side_records->data)[l->side_records->len - 1].name =
            model->side_kind == D9_SIDE_PARK ? REC_PARK : REC_UNPARK;
        }
      break;
    case D9_SIDE_SAMPLE:
      {
        D9SideSample *s = d9_vec_push (l->side_samples, sizeof (D9SideSample));

        s->ts = (KymoTime) ts;
        s->worker = HAS (D9_SF_WORKER) ? VAL (D9_SF_WORKER) : D9_WORKER_NONE;
        s->source = source;
        s->sched = HAS (D9_SF_SOURCE) && VAL (D9_SF_SOURCE) == 1;
        s->chain_kind = CHAIN_NONE;
        s->chain = 0;
        if (HAS (D9_SF_CALLCHAIN) && model->side_chain_type == D9_POOLED_STACK)
          {
            s->chain_kind = CHAIN_POOLED;
            s->chain = (guint64) segment << 32 | (guint32) VAL (D9_SF_CALLCHAIN);
          }
        else if (HAS (D9_SF_CALLCHAIN) && model->side_chain_type == D9_STACK)
          {
            s->chain_kind = CHAIN_INLINE;
            s->chain = VAL (D9_SF_CALLCHAIN);
          }
      }
      break;
    case D9_SIDE_NONE:
    default:
      break;
    }
#undef HAS
#undef VAL
}

/* Ends the loader's own run where its arrays are now. */
static void
close_own_run (D9Loader *l)
{
  D9SideRun run = { l->side_records, l->side_samples, 0, l->side_records->len, 0, l->side_samples->len, 0, 0, TRUE };

  if (l->side_runs == NULL)
    {
      l->side_runs = g_array_new (FALSE, FALSE, sizeof (D9SideRun));
      g_array_set_clear_func (l->side_runs, run_clear);
    }
  for (guint i = l->side_runs->len; i-- > 0;)
    {
      const D9SideRun *prev = &g_array_index (l->side_runs, D9SideRun, i);

      if (prev->own)
        {
          run.records_from = prev->records_to;
          run.samples_from = prev->samples_to;
          break;
        }
    }
  if (run.records_from < run.records_to || run.samples_from < run.samples_to)
    g_array_append_val (l->side_runs, run);
}

void
d9_side_merge_part (D9Loader *l,
                    D9Loader *c,
                    guint32   ordinal_base,
                    guint32   segment_base)
{
  D9SideRun run = { c->side_records, c->side_samples, 0, c->side_records->len, 0, c->side_samples->len,
                    ordinal_base, segment_base, FALSE };

  close_own_run (l);
  c->side_records = d9_vec_new ();
  c->side_samples = d9_vec_new ();
  g_array_append_val (l->side_runs, run);
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

static guint32
sample_stack (Symboliser         *s,
              KymoStacks         *stacks,
              GHashTable         *inline_ids,
              guint32            *pool_ids,
              const D9SideSample *x,
              guint32             segment_base)
{
  D9Data *d = s->d;

  if (x->chain_kind == CHAIN_POOLED)
    {
      guint32 index = d9_data_stack_index (d, (guint32) (x->chain >> 32) + segment_base, (guint32) x->chain);

      if (index == G_MAXUINT32 || index >= d->pool_stacks->len)
        return KYMO_NO_STACK;
      if (pool_ids[index] == G_MAXUINT32 - 1)
        {
          const D9PoolStack *ps = &g_array_index (d->pool_stacks, D9PoolStack, index);
          pool_ids[index] = add_stack (s, stacks, ps->frames, ps->count);
        }
      return pool_ids[index];
    }
  if (x->chain_kind == CHAIN_INLINE)
    {
      const guint8 *chain = d->data + x->chain;
      gpointer v;
      guint32 stack;

      if (g_hash_table_lookup_extended (inline_ids, chain, NULL, &v))
        return GPOINTER_TO_UINT (v);
      stack = add_stack (s, stacks, chain + 4, d9_u32 (chain));
      g_hash_table_insert (inline_ids, (gpointer) chain, GUINT_TO_POINTER (stack));
      return stack;
    }
  return KYMO_NO_STACK;
}

/* Below this many samples they are sorted in one piece. */
#define SPLIT_MIN ((gsize) 1 << 16)

static int
compare_times (gconstpointer a,
               gconstpointer b)
{
  KymoTime x = *(const KymoTime *) a, y = *(const KymoTime *) b;

  return x < y ? -1 : x > y;
}

/* The side runs' samples read as one array: the pivot's probes come in
 * order, so the runs are walked, not searched. */
typedef struct {
  GArray *runs;
  guint   run;
  gsize   at;   /* the position of the run's first sample */
} D9SampleCursor;

static void
read_sample_time (gsize    position,
                  gpointer key,
                  gpointer user_data)
{
  D9SampleCursor *c = user_data;
  const D9SideRun *run = &g_array_index (c->runs, D9SideRun, c->run);

  while (position - c->at >= run->samples_to - run->samples_from)
    {
      c->at += run->samples_to - run->samples_from;
      run = &g_array_index (c->runs, D9SideRun, ++c->run);
    }
  *(KymoTime *) key = ((const D9SideSample *) (gpointer) run->samples->data)[run->samples_from + position - c->at].ts;
}

/* A time about halfway through the samples' (all @n of them: a split
 * needs not be even to be right). */
static KymoTime
pivot_time (D9Loader *l,
            gsize     n)
{
  D9SampleCursor cursor = { l->side_runs, 0, 0 };
  KymoTime pivot = G_MAXINT64;

  kymo_pivot_from_probes (n, sizeof pivot, compare_times, read_sample_time, &cursor, &pivot);
  return pivot;
}

static void
add_samples (D9Loader      *l,
             D9SampleOrder *order)
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
  gsize n = 0, n_kept = 0, n_low = 0, low = 0, high;
  KymoTime pivot;
  KymoStackSample *out;

  for (guint i = 0; i <= d->pool_stacks->len; i++)
    pool_ids[i] = G_MAXUINT32 - 1;

  /* The samples go to the stacks in time order: those before the pivot
   * first, each in the order they came, then the rest, so that each of
   * the two sorted on its own (side by side) is all of them sorted. */
  for (guint r = 0; r < l->side_runs->len; r++)
    {
      const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);

      n += run->samples_to - run->samples_from;
    }
  pivot = n >= SPLIT_MIN ? pivot_time (l, n) : G_MAXINT64;
  for (guint r = 0; r < l->side_runs->len; r++)
    {
      const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);
      const D9SideSample *samples = (const D9SideSample *) (gpointer) run->samples->data;

      for (gsize i = run->samples_from; i < run->samples_to; i++)
        if (worker_track (l, samples[i].worker) != KYMO_NO_TRACK)
          {
            n_kept++;
            n_low += samples[i].ts < pivot;
          }
    }
  /* More than the stacks hold: none. */
  if (n_kept >= G_MAXUINT / 2)
    n_kept = n_low = 0;
  out = kymo_stacks_append_samples (stacks, n_kept);
  high = n_low;

  for (guint r = 0; r < l->side_runs->len && n_kept > 0; r++)
    {
      const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);
      const D9SideSample *samples = (const D9SideSample *) (gpointer) run->samples->data;

      for (gsize i = run->samples_from; i < run->samples_to; i++)
        {
          const D9SideSample *x = &samples[i];
          guint32 track = worker_track (l, x->worker);
          KymoStackSample *o;

          if (track == KYMO_NO_TRACK)
            continue;
          o = x->ts < pivot ? &out[low++] : &out[high++];
          o->ts = x->ts;
          o->track = track;
          o->stack = sample_stack (&s, stacks, inline_ids, pool_ids, x, run->segment_base);
          o->kind = x->sched ? kind_sched : kind_cpu;
          o->source = x->source + run->ordinal_base;
        }
    }
  g_hash_table_unref (s.by_addr);
  g_array_unref (s.cache);
  g_array_unref (s.lens);
  g_array_unref (s.frames);
  order->stacks = stacks;
  order->samples = out;
  order->n_low = n_low;
  order->n = n_kept;
}

#define SAMPLE_LESS(x, y) ((x)->ts < (y)->ts)

KYMO_DEFINE_RUN_SORT (sort_samples, KymoStackSample, SAMPLE_LESS)

void
d9_sample_order_sort (D9SampleOrder *order,
                      guint          half)
{
  gsize from = half == 0 ? 0 : order->n_low, to = half == 0 ? order->n_low : order->n;

  if (order->samples != NULL)
    sort_samples (order->samples + from, to - from);
  /* The last half done ends the stacks (which then find them in order). */
  if (g_atomic_int_dec_and_test (&order->left))
    kymo_stacks_finish (order->stacks);
}

/* A record as taken made final: its kind interned, its track found, in
 * the loader's numbering. A spawn's location is left to finish_spawn(),
 * which interns: this runs on any thread. */
static inline void
finish_record (D9Loader      *l,
               KymoRecord    *r,
               const guint32 *kinds,
               guint32        ordinal_base)
{
  switch (r->kind)
    {
    case REC_POLL:
      r->track = worker_track (l, (guint64) r->name << 32 | r->track);
      r->name = 0;
      break;
    case REC_CPU:
      r->name = kinds[r->name];
      G_GNUC_FALLTHROUGH;
    case REC_UNPARK:
      r->track = worker_track (l, r->key);
      break;
    default:
      break;
    }
  r->kind = kinds[r->kind];
  r->source += ordinal_base;
}

static void
finish_spawn (D9Loader   *l,
              KymoRecord *r)
{
  D9Data *d = l->d;
  /* Pool ids may be defined again later in a segment (the symbolizer
   * appends its strings): the location is the one decoding resolved. */
  guint32 index = d9_map_lookup (&d->task_map, r->key);
  const D9Task *t = index != G_MAXUINT32 ? &g_array_index (d->tasks, D9Task, index) : NULL;

  if (t != NULL && t->spawn_loc != G_MAXUINT32)
    {
      const D9PoolString *ps = &g_array_index (d->pool_strings, D9PoolString, t->spawn_loc);
      g_autofree char *loc = g_utf8_make_valid ((const char *) ps->data, ps->len);

      r->name = kymo_trace_intern (l->trace, loc);
    }
}

/* Records a piece makes final when the loader decoded alone, in place. */
#define PIECE_RECORDS ((gsize) 1 << 18)

/* Records [from, to) of a run, made final into @at of the joined array. */
typedef struct {
  guint    run;
  gsize    from;
  gsize    to;
  gsize    at;
  GArray  *spawns;   /* gsize: where its spawns are, or NULL */
  /* The sources it made, in order or not, and its first and last. */
  gboolean ordered;
  guint32  first_source;
  guint32  last_source;
} D9SidePiece;

struct _D9SideBuild {
  D9Loader   *l;
  guint32     kinds[N_REC];
  KymoRecord *records;
  gsize       n_records;
  gboolean    in_place;  /* @records is the loader's own array */
  GArray     *pieces;    /* D9SidePiece */
};

D9SideBuild *
d9_side_build_begin (D9Loader  *l,
                     guint     *n_pieces,
                     GError   **error)
{
  GCancellable *cancellable = kymo_load_job_get_cancellable (l->job);
  D9SideBuild *b;
  gsize at = 0;

  *n_pieces = 0;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  b = g_new0 (D9SideBuild, 1);
  b->l = l;
  b->pieces = g_array_new (FALSE, FALSE, sizeof (D9SidePiece));
  if (l->d->n_events == 0)
    return b;
  close_own_run (l);

  b->kinds[0] = 0;
  b->kinds[REC_POLL] = kymo_trace_intern (l->trace, "poll");
  b->kinds[REC_WAKE] = kymo_trace_intern (l->trace, "wake");
  b->kinds[REC_SPAWN] = kymo_trace_intern (l->trace, "spawn");
  b->kinds[REC_TERMINATE] = kymo_trace_intern (l->trace, "terminate");
  b->kinds[REC_UNPARK] = kymo_trace_intern (l->trace, "unpark");
  b->kinds[REC_PARK] = kymo_trace_intern (l->trace, "park");
  b->kinds[REC_CPU] = kymo_trace_intern (l->trace, "cpu");

  for (guint r = 0; r < l->side_runs->len; r++)
    {
      const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);

      b->n_records += run->records_to - run->records_from;
    }
  b->in_place = l->side_runs->len == 1 && g_array_index (l->side_runs, D9SideRun, 0).own &&
                g_array_index (l->side_runs, D9SideRun, 0).records_from == 0;
  if (b->in_place)
    {
      /* Decoded here alone: the records are made final where they are. */
      b->records = (KymoRecord *) (gpointer) l->side_records->data;
      for (gsize from = 0; from < b->n_records; from += PIECE_RECORDS)
        {
          D9SidePiece piece = { 0, from, MIN (from + PIECE_RECORDS, b->n_records), from, NULL, TRUE, 0, 0 };
          g_array_append_val (b->pieces, piece);
        }
    }
  else
    {
      b->records = g_new (KymoRecord, MAX (b->n_records, 1));
      for (guint r = 0; r < l->side_runs->len; r++)
        {
          const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);
          D9SidePiece piece = { r, run->records_from, run->records_to, at, NULL, TRUE, 0, 0 };

          g_array_append_val (b->pieces, piece);
          at += run->records_to - run->records_from;
        }
    }
  *n_pieces = b->pieces->len;
  return b;
}

/* What making a piece's records final carries from one stretch of them
 * to the next (d9_place_run() hands them over in several). */
typedef struct {
  D9SideBuild *b;
  D9SidePiece *piece;
  guint32      base;
  guint32      prev;
  gboolean     ordered;
} D9Finish;

/* A D9MapRun: @n records at @in made final at @out, which may be @in or
 * overlap it from below (each is read whole before it is written). */
static void
finish_run (gconstpointer  data,
            guint8        *out,
            const guint8  *in,
            gsize          n)
{
  D9Finish *f = (D9Finish *) data;
  D9SideBuild *b = f->b;

  for (gsize i = 0; i < n; i++)
    {
      KymoRecord r = ((const KymoRecord *) (gconstpointer) in)[i];
      KymoRecord *to = (KymoRecord *) (gpointer) out + i;

      if (G_UNLIKELY (r.kind == REC_SPAWN))
        {
          gsize at = (gsize) (to - b->records);

          if (f->piece->spawns == NULL)
            f->piece->spawns = g_array_new (FALSE, FALSE, sizeof (gsize));
          g_array_append_val (f->piece->spawns, at);
        }
      finish_record (b->l, &r, b->kinds, f->base);
      /* Sources wrap past 2^32 in the largest files: then seal sorts. */
      f->ordered &= r.source >= f->prev;
      f->prev = r.source;
      *to = r;
    }
}

void
d9_side_build_piece (D9SideBuild *b,
                     guint        index)
{
  D9Loader *l = b->l;
  D9SidePiece *piece = &g_array_index (b->pieces, D9SidePiece, index);
  const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, piece->run);
  const guint8 *in = run->records->data + piece->from * sizeof (KymoRecord);
  D9Finish f = { b, piece, b->in_place ? 0 : run->ordinal_base, 0, TRUE };
  gsize n = piece->to - piece->from, move_min, map_from;

  /* A part's records, in a mapping of their own, have their pages moved
   * into place and are made final as they are shifted down over them: one
   * pass, and no new memory to fault in. */
  d9_vec_move_limits (&move_min, &map_from);
  d9_place_run (in, n, !b->in_place && !run->own && run->records->map_bytes > 0, sizeof (KymoRecord),
                move_min, &l->moves_left, finish_run, &f, (guint8 *) (b->records + piece->at));
  piece->ordered = f.ordered;
  if (n > 0)
    {
      piece->first_source = b->records[piece->at].source;
      piece->last_source = f.prev;
    }
  /* A part's records are its own: given back once copied. */
  if (!b->in_place && !run->own)
    d9_vec_clear (run->records);
}

void
d9_side_build_end (D9SideBuild   *b,
                   D9SampleOrder *order)
{
  D9Loader *l = b->l;

  if (b->n_records > 0)
    {
      /* In record order, as their names were always interned. */
      for (guint i = 0; i < b->pieces->len; i++)
        {
          GArray *spawns = g_array_index (b->pieces, D9SidePiece, i).spawns;

          for (guint k = 0; spawns != NULL && k < spawns->len; k++)
            finish_spawn (l, &b->records[g_array_index (spawns, gsize, k)]);
        }
      gboolean ordered = TRUE;
      guint32 last = 0;

      for (guint i = 0; i < b->pieces->len; i++)
        {
          const D9SidePiece *piece = &g_array_index (b->pieces, D9SidePiece, i);

          if (piece->to == piece->from)
            continue;
          ordered &= piece->ordered && piece->first_source >= last;
          last = piece->last_source;
        }
      if (b->in_place)
        b->records = d9_vec_steal (l->side_records, sizeof (KymoRecord));
      if (ordered)
        kymo_records_take_sorted (kymo_trace_get_records (l->trace), g_steal_pointer (&b->records), b->n_records);
      else
        kymo_records_take (kymo_trace_get_records (l->trace), g_steal_pointer (&b->records), b->n_records);
    }
  *order = (D9SampleOrder) { kymo_trace_get_stacks (l->trace), NULL, 0, 0, 2 };
  if (l->d->n_events > 0)
    add_samples (l, order);
  d9_side_build_free (b);
}

void
d9_side_build_free (D9SideBuild *b)
{
  for (guint i = 0; i < b->pieces->len; i++)
    g_clear_pointer (&g_array_index (b->pieces, D9SidePiece, i).spawns, g_array_unref);
  g_array_unref (b->pieces);
  if (!b->in_place)
    g_free (b->records);
  g_free (b);
}
