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
#include "kymo-mapped.h"
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
  CHAIN_INLINE,  /* chain: its index in the run's D9Callchains */
};

/* A CPU or scheduler sample, symbolised once the whole stream is read. */
typedef struct {
  KymoTime ts;
  guint64  chain;    /* see the chain kinds; a pooled one's index in
                      * pool_stacks once its piece is done */
  guint64  worker;   /* worker id; its track once its piece is done */
  guint32  source;
  guint8   chain_kind;
  guint8   sched;
} D9SideSample;

/* A run of records and samples in file order: the loader's own
 * [from, to), or a merged part's whole arrays (owned). */
typedef struct {
  D9Vec        *records;
  D9Vec        *samples;
  D9Callchains *chains;
  gsize         records_from;
  gsize         records_to;
  gsize         samples_from;
  gsize         samples_to;
  guint32       ordinal_base;
  guint32       segment_base;
  gboolean      own;
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
  l->side_chains = d9_callchains_new (l->d->data);
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
      d9_callchains_free (run->chains);
    }
}

void
d9_side_clear (D9Loader *l)
{
  g_clear_pointer (&l->side_runs, g_array_unref);
  g_clear_pointer (&l->side_records, d9_vec_free);
  g_clear_pointer (&l->side_samples, d9_vec_free);
  g_clear_pointer (&l->side_chains, d9_callchains_free);
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
            /* Found among the part's while the bytes are in cache. */
            s->chain = d9_callchains_add (l->side_chains, VAL (D9_SF_CALLCHAIN));
            s->chain_kind = s->chain != G_MAXUINT32 ? CHAIN_INLINE : CHAIN_NONE;
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
  D9SideRun run = { l->side_records, l->side_samples, l->side_chains, 0, l->side_records->len, 0, l->side_samples->len,
                    0, 0, TRUE };

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
  D9SideRun run = { c->side_records, c->side_samples, c->side_chains, 0, c->side_records->len, 0,
                    c->side_samples->len, ordinal_base, segment_base, FALSE };

  close_own_run (l);
  c->side_records = d9_vec_new ();
  c->side_samples = d9_vec_new ();
  c->side_chains = d9_callchains_new (c->d->data);
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

/* The samples' chains as one set by their bytes (@all): every run's
 * inline chains (@maps: a run's index → @all's) and the pool stacks
 * (@pool_map), which the files of a folder define again and again; and
 * the stack each has once a kept sample met it (@stacks, G_MAXUINT32 - 1
 * before). G_MAXUINT32 in a map: a chain of its own. */
typedef struct {
  D9Callchains  *all;
  guint32      **maps;     /* per run; the loader's own runs share one */
  guint32       *own_map;
  guint32       *pool_map;
  guint32       *stacks;
} D9ChainStacks;

static void
chain_stacks_init (D9ChainStacks *cs,
                   D9Loader      *l)
{
  D9Callchains *own = l->side_chains;
  D9Data *d = l->d;

  cs->all = d9_callchains_new (d->data);
  cs->maps = g_new0 (guint32 *, l->side_runs->len + 1);
  cs->own_map = NULL;
  for (guint r = 0; r < l->side_runs->len; r++)
    {
      const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);
      guint32 *map;

      if (run->chains == own && cs->own_map != NULL)
        {
          cs->maps[r] = cs->own_map;
          continue;
        }
      map = g_new (guint32, run->chains->n + 1);
      /* Only the distinct chains of each part are read again here. */
      for (guint32 i = 0; i < run->chains->n; i++)
        map[i] = d9_callchains_add (cs->all, run->chains->at[i]);
      cs->maps[r] = map;
      if (run->chains == own)
        cs->own_map = map;
    }
  cs->pool_map = g_new (guint32, d->pool_stacks->len + 1);
  for (guint i = 0; i < d->pool_stacks->len; i++)
    {
      const D9PoolStack *ps = &g_array_index (d->pool_stacks, D9PoolStack, i);

      /* Defined as an inline chain is written: its count, then its frames. */
      cs->pool_map[i] = ps->frames >= d->data + 4 && d9_u32 (ps->frames - 4) == ps->count
                        ? d9_callchains_add (cs->all, (guint64) (ps->frames - 4 - d->data)) : G_MAXUINT32;
    }
  cs->stacks = g_new (guint32, cs->all->n + 1);
  for (guint32 i = 0; i <= cs->all->n; i++)
    cs->stacks[i] = G_MAXUINT32 - 1;
}

static void
chain_stacks_clear (D9ChainStacks *cs,
                    D9Loader      *l)
{
  for (guint r = 0; r < l->side_runs->len; r++)
    if (cs->maps[r] != cs->own_map)
      g_free (cs->maps[r]);
  g_free (cs->own_map);
  g_free (cs->maps);
  g_free (cs->pool_map);
  g_free (cs->stacks);
  d9_callchains_free (cs->all);
}

/* The stack of chain @index of @cs, added on first use. */
static guint32
chain_stack (D9ChainStacks *cs,
             Symboliser    *s,
             KymoStacks    *stacks,
             guint32        index)
{
  if (cs->stacks[index] == G_MAXUINT32 - 1)
    {
      const guint8 *chain = s->d->data + cs->all->at[index];

      cs->stacks[index] = add_stack (s, stacks, chain + 4, d9_u32 (chain));
    }
  return cs->stacks[index];
}

/* A kept sample's stack, once the end added them all (on any thread). */
static inline guint32
sample_stack (const D9ChainStacks *cs,
              const guint32       *pool_ids,
              const D9SideSample  *x,
              guint                run)
{
  if (x->chain_kind == CHAIN_POOLED)
    return pool_ids[x->chain];
  if (x->chain_kind == CHAIN_INLINE)
    {
      guint32 index = cs->maps[run][x->chain];

      return index == G_MAXUINT32 ? KYMO_NO_STACK : cs->stacks[index];
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

/* Samples a piece makes final at most (a merged part's are a piece each). */
#define PIECE_SAMPLES ((gsize) 1 << 16)
/* No kept sample has the chain (yet). */
#define NOT_MET G_MAXSIZE

/* Samples [from, to) of a run, the samples [@at, …) of them all: their
 * tracks found and their pooled chains' indexes, beside the pairing; how
 * many are kept (their worker has a track), and of those how many come
 * before the pivot. */
typedef struct {
  guint run;
  gsize from;
  gsize to;
  gsize at;
  gsize n_kept;
  gsize n_low;
} D9SamplePiece;

/* The samples from the pieces to the two halves, through the end. */
struct _D9SampleFill {
  D9Loader       *l;
  GArray         *pieces;         /* D9SamplePiece */
  gsize           n;
  /* The samples go to the stacks in time order: those before the pivot
   * first, each in the order they came, then the rest, so that each of
   * the two sorted on its own (side by side) is all of them sorted. */
  KymoTime        pivot;
  /* Where a kept sample first has each pool stack, and each inline chain
   * of a run (the loader's own runs share theirs), or NOT_MET: the end
   * adds the stacks in that order, as the names were always interned,
   * without reading the samples again. */
  gsize          *pool_first;
  gsize         **chain_first;
  gsize          *own_first;
  /* By the chains' piece: the chains as one set. By the end: the stack
   * of each pool stack and inline chain a kept sample has, and the
   * samples' kinds. */
  gboolean        chains_done;
  D9ChainStacks   chain_stacks;
  guint32        *pool_ids;
  guint32         kind_cpu;
  guint32         kind_sched;
};

static gsize *
not_met_new (gsize n)
{
  gsize *first = g_new (gsize, n + 1);

  for (gsize i = 0; i <= n; i++)
    first[i] = NOT_MET;
  return first;
}

static D9SampleFill *
sample_fill_new (D9Loader *l)
{
  D9SampleFill *f = g_new0 (D9SampleFill, 1);

  f->l = l;
  f->pieces = g_array_new (FALSE, FALSE, sizeof (D9SamplePiece));
  f->chain_first = g_new0 (gsize *, l->side_runs->len + 1);
  for (guint r = 0; r < l->side_runs->len; r++)
    {
      const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);

      for (gsize from = run->samples_from; from < run->samples_to; from += PIECE_SAMPLES)
        {
          D9SamplePiece piece = { r, from, MIN (from + PIECE_SAMPLES, run->samples_to), f->n + from - run->samples_from,
                                  0, 0 };
          g_array_append_val (f->pieces, piece);
        }
      f->n += run->samples_to - run->samples_from;
      if (run->chains != l->side_chains)
        f->chain_first[r] = not_met_new (run->chains->n);
      else
        {
          if (f->own_first == NULL)
            f->own_first = not_met_new (run->chains->n);
          f->chain_first[r] = f->own_first;
        }
    }
  f->pool_first = not_met_new (l->d->pool_stacks->len);
  f->pivot = f->n >= SPLIT_MIN ? pivot_time (l, f->n) : G_MAXINT64;
  return f;
}

static void
sample_fill_free (D9SampleFill *f)
{
  if (f == NULL)
    return;
  for (guint r = 0; r < f->l->side_runs->len; r++)
    if (f->chain_first[r] != f->own_first)
      g_free (f->chain_first[r]);
  g_free (f->own_first);
  g_free (f->chain_first);
  g_free (f->pool_first);
  if (f->chains_done)
    chain_stacks_clear (&f->chain_stacks, f->l);
  g_free (f->pool_ids);
  g_array_unref (f->pieces);
  g_free (f);
}

/* Pieces write only where they are first: a later sample with the same
 * chain reads and moves on. */
static inline void
meet_first (gsize *first,
            gsize  at)
{
  gsize seen = __atomic_load_n (first, __ATOMIC_RELAXED);

  while (at < seen && !__atomic_compare_exchange_n (first, &seen, at, TRUE, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

/* On any thread: each sample's worker becomes its track, a pooled chain
 * its index in the pool stacks (none when it has none). */
static void
sample_piece (D9SampleFill *f,
              guint         index)
{
  D9Loader *l = f->l;
  D9Data *d = l->d;
  D9SamplePiece *piece = &g_array_index (f->pieces, D9SamplePiece, index);
  const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, piece->run);
  D9SideSample *samples = (D9SideSample *) (gpointer) run->samples->data;
  gsize *chain_first = f->chain_first[piece->run];
  gsize n_kept = 0, n_low = 0;

  for (gsize i = piece->from; i < piece->to; i++)
    {
      D9SideSample *x = &samples[i];
      guint32 track = worker_track (l, x->worker);

      x->worker = track;
      if (track == KYMO_NO_TRACK)
        continue;
      n_kept++;
      n_low += x->ts < f->pivot;
      if (x->chain_kind == CHAIN_POOLED)
        {
          guint32 stack = d9_data_stack_index (d, (guint32) (x->chain >> 32) + run->segment_base, (guint32) x->chain);

          x->chain = stack;
          if (stack == G_MAXUINT32 || stack >= d->pool_stacks->len)
            x->chain_kind = CHAIN_NONE;
          else
            meet_first (&f->pool_first[stack], piece->at + i - piece->from);
        }
      else if (x->chain_kind == CHAIN_INLINE)
        meet_first (&chain_first[x->chain], piece->at + i - piece->from);
    }
  piece->n_kept = n_kept;
  piece->n_low = n_low;
}

/* On any thread, beside the samples' pieces: every run's inline chains
 * and the pool stacks as one set (by the chains' bytes, not their
 * offsets: older files repeat the same inline chain in every sample, and
 * symbolising each copy again cost more than the rest of the load). */
static void
chains_piece (D9SampleFill *f)
{
  chain_stacks_init (&f->chain_stacks, f->l);
  f->chains_done = TRUE;
}

/* A chain first met by a kept sample, at @at of all: a pool stack's index
 * (@run G_MAXUINT), or a run's inline chain. */
typedef struct {
  gsize   at;
  guint32 chain;
  guint   run;
} D9Met;

#define MET_LESS(x, y) ((x)->at < (y)->at)

KYMO_DEFINE_RUN_SORT (sort_met, D9Met, MET_LESS)

/* Once every piece is done, on the loading thread: the stacks of the
 * chains kept samples have, added in the order the samples first have
 * them. */
static void
add_samples (D9Loader      *l,
             D9SampleFill  *f,
             D9SampleOrder *order)
{
  KymoStacks *stacks = kymo_trace_get_stacks (l->trace);
  D9Data *d = l->d;
  Symboliser s = { l->trace, d, g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
                   g_array_new (FALSE, FALSE, sizeof (KymoFrame)), g_array_new (FALSE, FALSE, sizeof (guint)),
                   g_array_new (FALSE, FALSE, sizeof (KymoFrame)) };
  g_autoptr(GArray) met = g_array_new (FALSE, FALSE, sizeof (D9Met));
  D9ChainStacks *cs = &f->chain_stacks;
  gsize n_kept = 0, n_low = 0;
  gboolean own_met = FALSE;

  g_assert (f->chains_done);
  f->kind_cpu = kymo_trace_intern (l->trace, "cpu");
  f->kind_sched = kymo_trace_intern (l->trace, "sched");
  f->pool_ids = g_new (guint32, d->pool_stacks->len + 1);
  for (guint i = 0; i <= d->pool_stacks->len; i++)
    f->pool_ids[i] = G_MAXUINT32 - 1;

  for (guint i = 0; i < f->pieces->len; i++)
    {
      const D9SamplePiece *piece = &g_array_index (f->pieces, D9SamplePiece, i);

      n_kept += piece->n_kept;
      n_low += piece->n_low;
    }
  /* More than the stacks hold: none. */
  if (n_kept >= G_MAXUINT / 2)
    n_kept = n_low = 0;

  if (n_kept > 0)
    {
      for (guint i = 0; i < d->pool_stacks->len; i++)
        if (f->pool_first[i] != NOT_MET)
          {
            D9Met m = { f->pool_first[i], i, G_MAXUINT };
            g_array_append_val (met, m);
          }
      for (guint r = 0; r < l->side_runs->len; r++)
        {
          const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);
          const gsize *first = f->chain_first[r];

          /* The loader's own runs share their chains: taken once. */
          if (first == f->own_first && own_met)
            continue;
          own_met |= first == f->own_first;
          for (guint32 c = 0; c < run->chains->n; c++)
            if (first[c] != NOT_MET)
              {
                D9Met m = { first[c], c, r };
                g_array_append_val (met, m);
              }
        }
      sort_met ((D9Met *) (gpointer) met->data, met->len);
    }
  for (guint i = 0; i < met->len; i++)
    {
      const D9Met *m = &g_array_index (met, D9Met, i);
      guint32 index;

      if (m->run != G_MAXUINT)
        {
          index = cs->maps[m->run][m->chain];
          if (index != G_MAXUINT32)
            chain_stack (cs, &s, stacks, index);
        }
      else
        {
          const D9PoolStack *ps = &g_array_index (d->pool_stacks, D9PoolStack, m->chain);

          index = cs->pool_map[m->chain];
          f->pool_ids[m->chain] = index != G_MAXUINT32 ? chain_stack (cs, &s, stacks, index)
                                  : add_stack (&s, stacks, ps->frames, ps->count);
        }
    }
  g_hash_table_unref (s.by_addr);
  g_array_unref (s.cache);
  g_array_unref (s.lens);
  g_array_unref (s.frames);
  order->stacks = stacks;
  /* Not before the pairing is over, which holds the most memory; each
   * half's pages are populated by the thread that fills it. */
  order->samples = kymo_stacks_append_samples_unpopulated (stacks, n_kept);
  order->n_low = n_low;
  order->n = n_kept;
  order->fill = f;
}

void
d9_sample_order_fill (D9SampleOrder *order,
                      guint          half)
{
  D9SampleFill *f = order->fill;
  D9Loader *l;
  KymoStackSample *out = order->samples;
  gsize at = half == 0 ? 0 : order->n_low, to = half == 0 ? order->n_low : order->n;
  gboolean low = half == 0;

  if (f == NULL || at == to)
    return;
  l = f->l;
  kymo_mapped_populate (out + at, (to - at) * sizeof (KymoStackSample));
  for (guint i = 0; i < f->pieces->len && at < to; i++)
    {
      const D9SamplePiece *piece = &g_array_index (f->pieces, D9SamplePiece, i);
      const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, piece->run);
      const D9SideSample *samples = (const D9SideSample *) (gpointer) run->samples->data;

      if ((low ? piece->n_low : piece->n_kept - piece->n_low) == 0)
        continue;
      for (gsize k = piece->from; k < piece->to; k++)
        {
          const D9SideSample *x = &samples[k];
          KymoStackSample *o;

          if (x->worker == KYMO_NO_TRACK || (x->ts < f->pivot) != low)
            continue;
          o = &out[at++];
          o->ts = x->ts;
          o->track = (guint32) x->worker;
          o->stack = sample_stack (&f->chain_stacks, f->pool_ids, x, piece->run);
          o->kind = x->sched ? f->kind_sched : f->kind_cpu;
          o->source = x->source + run->ordinal_base;
        }
    }
  g_assert (at == to);
}

void
d9_sample_order_clear (D9SampleOrder *order)
{
  g_clear_pointer (&order->fill, sample_fill_free);
}

#define SAMPLE_LESS(x, y) ((x)->ts < (y)->ts)

KYMO_DEFINE_RUN_SORT (sort_samples, KymoStackSample, SAMPLE_LESS)

void
d9_sample_order_sort (D9SampleOrder *order,
                      guint          half)
{
  gsize from = half == 0 ? 0 : order->n_low, to = half == 0 ? order->n_low : order->n;

  d9_sample_order_fill (order, half);
  if (order->samples != NULL)
    sort_samples (order->samples + from, to - from);
  /* The last half done ends the stacks (which then find them in order). */
  if (g_atomic_int_dec_and_test (&order->left))
    {
      d9_sample_order_clear (order);
      kymo_stacks_finish (order->stacks);
    }
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

/* A spawn's location: where it is, and the pool string its task was
 * spawned at (G_MAXUINT32: none), found while its piece is made final. */
typedef struct {
  gsize   at;
  guint32 loc;
} D9Spawn;

static guint32
spawn_loc (D9Loader *l,
           guint64   task)
{
  D9Data *d = l->d;
  /* Pool ids may be defined again later in a segment (the symbolizer
   * appends its strings): the location is the one decoding resolved. */
  guint32 index = d9_map_lookup (&d->task_map, task);

  return index != G_MAXUINT32 ? g_array_index (d->tasks, D9Task, index).spawn_loc : G_MAXUINT32;
}

/* Interns a spawn's location, once per pool string (@names: its name + 1,
 * or 0). */
static void
finish_spawn (D9Loader      *l,
              KymoRecord    *r,
              guint32        loc,
              guint32       *names)
{
  if (loc == G_MAXUINT32)
    return;
  if (names[loc] == 0)
    {
      const D9PoolString *ps = &g_array_index (l->d->pool_strings, D9PoolString, loc);
      g_autofree char *name = g_utf8_make_valid ((const char *) ps->data, ps->len);

      names[loc] = kymo_trace_intern (l->trace, name) + 1;
    }
  r->name = names[loc] - 1;
}

/* Records a piece makes final when the loader decoded alone, in place. */
#define PIECE_RECORDS ((gsize) 1 << 18)

/* Records [from, to) of a run, made final into @at of the joined array. */
typedef struct {
  guint    run;
  gsize    from;
  gsize    to;
  gsize    at;
  GArray  *spawns;   /* D9Spawn, or NULL */
  /* The sources it made, in order or not, and its first and last. */
  gboolean ordered;
  guint32  first_source;
  guint32  last_source;
} D9SidePiece;

struct _D9SideBuild {
  D9Loader     *l;
  guint32       kinds[N_REC];
  KymoRecord   *records;
  gsize         n_records;
  gboolean      in_place;  /* @records is the loader's own array */
  GArray       *pieces;    /* D9SidePiece; the samples' pieces come after */
  D9SampleFill *samples;
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
  b->samples = sample_fill_new (l);
  *n_pieces = b->pieces->len + b->samples->pieces->len + 1;
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
          D9Spawn spawn = { (gsize) (to - b->records), spawn_loc (b->l, r.key) };

          if (f->piece->spawns == NULL)
            f->piece->spawns = g_array_new (FALSE, FALSE, sizeof (D9Spawn));
          g_array_append_val (f->piece->spawns, spawn);
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
  D9SidePiece *piece;
  const D9SideRun *run;
  const guint8 *in;
  D9Finish f;
  gsize n, move_min, map_from;

  if (index >= b->pieces->len)
    {
      index -= b->pieces->len;
      if (index < b->samples->pieces->len)
        sample_piece (b->samples, index);
      else
        chains_piece (b->samples);
      return;
    }
  piece = &g_array_index (b->pieces, D9SidePiece, index);
  run = &g_array_index (l->side_runs, D9SideRun, piece->run);
  in = run->records->data + piece->from * sizeof (KymoRecord);
  f = (D9Finish) { b, piece, b->in_place ? 0 : run->ordinal_base, 0, TRUE };
  n = piece->to - piece->from;

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
      g_autofree guint32 *names = NULL;

      /* In record order, as their names were always interned. */
      for (guint i = 0; i < b->pieces->len; i++)
        {
          GArray *spawns = g_array_index (b->pieces, D9SidePiece, i).spawns;

          if (spawns != NULL && names == NULL)
            names = g_new0 (guint32, l->d->pool_strings->len + 1);
          for (guint k = 0; spawns != NULL && k < spawns->len; k++)
            {
              const D9Spawn *spawn = &g_array_index (spawns, D9Spawn, k);

              finish_spawn (l, &b->records[spawn->at], spawn->loc, names);
            }
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
  *order = (D9SampleOrder) { kymo_trace_get_stacks (l->trace), NULL, 0, 0, 2, NULL };
  if (b->samples != NULL)
    add_samples (l, g_steal_pointer (&b->samples), order);
  d9_side_build_free (b);
}

void
d9_side_build_free (D9SideBuild *b)
{
  for (guint i = 0; i < b->pieces->len; i++)
    g_clear_pointer (&g_array_index (b->pieces, D9SidePiece, i).spawns, g_array_unref);
  g_array_unref (b->pieces);
  sample_fill_free (b->samples);
  if (!b->in_place)
    g_free (b->records);
  g_free (b);
}
