/* kymo-dial9-samples.c: CPU and scheduler samples, their stacks symbolised and in time order
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include "kymo-dial9-side-private.h"
#include "kymo-dial9-decode.h"
#include "kymo-mapped.h"
#include "kymo-pivot.h"
#include "kymo-run-sort.h"
#include "kymo-short-path.h"

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

D9SampleFill *
d9_sample_fill_new (D9Loader *l)
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

guint
d9_sample_fill_get_n_pieces (D9SampleFill *f)
{
  return f->pieces->len;
}

void
d9_sample_fill_free (D9SampleFill *f)
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
void
d9_sample_piece (D9SampleFill *f,
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
      guint32 track = d9_worker_track (l, x->worker);

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
void
d9_chains_piece (D9SampleFill *f)
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
void
d9_add_samples (D9Loader      *l,
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
  order->samples = kymo_stacks_append_samples (stacks, n_kept);
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
  g_clear_pointer (&order->fill, d9_sample_fill_free);
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
