/* kymo-dial9-build.c: runtimes, workers, paired spans and wake flows
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "kymo-dial9-pair.h"
#include "kymo-page-queue.h"
#include "kymo-parts.h"
#include "kymo-run-sort.h"
#define MAX_LANES      64

static guint
default_group (D9Loader *l)
{
  if (l->default_group == KYMO_NO_TRACK)
    {
      const char *service = kymo_trace_get_metadata (l->trace, "service");
      const char *name = l->runtimes->len > 0 ? "other workers"
                         : service != NULL && *service ? service : "Tokio runtime";

      l->default_group = kymo_trace_add_track (l->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, name);
      kymo_track_set_group_kind (kymo_trace_get_track (l->trace, l->default_group), "runtime");
    }
  return l->default_group;
}

/* Orders by time, then by the event's place in the file. */
#define TS_LESS(x, y) ((x)->ts < (y)->ts || ((x)->ts == (y)->ts && (x)->source < (y)->source))
#define DEEP_LESS(x, y)                                                                 \
  ((x)->span.start < (y)->span.start ||                                                 \
   ((x)->span.start == (y)->span.start && (x)->span.source < (y)->span.source))
#define SPAN_LESS(x, y) ((x)->start < (y)->start || ((x)->start == (y)->start && (x)->source < (y)->source))

/* Below this many edges and wakes, sorting on a second thread costs more
 * than it saves. */
#define SORT_THREAD_MIN (1 << 18)

KYMO_DEFINE_RUN_SORT (sort_edges, D9Edge, TS_LESS)
KYMO_DEFINE_RUN_SORT (sort_wakes, D9Wake, TS_LESS)
KYMO_DEFINE_RUN_SORT (sort_instants, KymoInstant, TS_LESS)
KYMO_DEFINE_RUN_SORT (sort_deep, D9DeepSpan, DEEP_LESS)
KYMO_DEFINE_RUN_SORT (sort_spans, KymoSpan, SPAN_LESS)

static int
compare_symbols (gconstpointer a,
                 gconstpointer b)
{
  const D9Symbol *x = a, *y = b;

  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return x->inline_depth < y->inline_depth ? -1 : x->inline_depth > y->inline_depth;
}

/* Sorts by address and inline depth and keeps one entry of each: rotated
 * segments each carry a symbol table, mostly of the same addresses, and a
 * copy per table would repeat every frame of a stack once per table. The
 * sort is stable, so the last table's entry is the one kept. */
static void
unique_symbols (GArray *symbols)
{
  D9Symbol *syms = (D9Symbol *) (gpointer) symbols->data;
  guint n = 0;

  g_array_sort (symbols, compare_symbols);
  for (guint i = 0; i < symbols->len; i++)
    {
      if (n > 0 && compare_symbols (&syms[n - 1], &syms[i]) == 0)
        n--;
      syms[n++] = syms[i];
    }
  g_array_set_size (symbols, n);
}

static int
compare_worker_ids (gconstpointer a,
                    gconstpointer b)
{
  const D9Worker *x = *(D9Worker * const *) a, *y = *(D9Worker * const *) b;
  return x->id < y->id ? -1 : x->id > y->id;
}

static guint
group_for_worker (D9Loader *l,
                  guint64   id,
                  guint    *groups)
{
  for (guint r = 0; r < l->runtimes->len; r++)
    {
      D9Runtime *rt = g_ptr_array_index (l->runtimes, r);
      for (guint k = 0; k < rt->workers->len; k++)
        if (g_array_index (rt->workers, guint64, k) == id)
          return groups[r];
    }
  return default_group (l);
}

static void
create_worker_tracks (D9Loader *l)
{
  g_autofree guint *groups = g_new (guint, l->runtimes->len + 1);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

  for (guint r = 0; r < l->runtimes->len; r++)
    {
      D9Runtime *rt = g_ptr_array_index (l->runtimes, r);
      groups[r] = kymo_trace_add_track (l->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, rt->name);
      kymo_track_set_group_kind (kymo_trace_get_track (l->trace, groups[r]), "runtime");
    }

  for (guint i = 0; i < l->workers->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (l->workers, i));
  g_ptr_array_sort (sorted, compare_worker_ids);

  for (guint i = 0; i < sorted->len; i++)
    {
      D9Worker *w = g_ptr_array_index (sorted, i);
      g_autofree char *name = NULL;
      KymoTrack *track;

      if (w->id == D9_WORKER_BLOCKING)
        name = g_strdup ("blocking pool");
      else if (w->id == D9_WORKER_NONE)
        name = g_strdup ("other threads");
      else
        name = g_strdup_printf ("worker %" G_GUINT64_FORMAT, w->id);
      w->track = kymo_trace_add_track (l->trace, group_for_worker (l, w->id, groups), KYMO_TRACK_THREAD, name);
      track = kymo_trace_get_track (l->trace, w->track);
      kymo_track_set_tag (track, w->id);
      kymo_track_set_sort_key (track, (gint64) MIN (w->id, (guint64) G_MAXINT64 / 4) * 2);
    }
}

/* The merge takes each worker's edges and the wakes as the sorted runs
 * they already hold, so that nothing is sorted or copied. A file is
 * per-thread batches: the runs of one thread follow on from each other in
 * time, and are chained into one sorted sequence (a run goes after the
 * chain it follows most closely), which keeps the merge's tournament
 * small however many batches there are. Past this many chains in one
 * array it is sorted first. */
#define MAX_CHAINS 256

/* An element's place in the merge as one number: by time, then by the
 * event's place in the file, then by its place in its array (what a
 * stable sort keeps), compared without branches (the heads of copies that
 * overlap in time win in turn). Nothing live is ever D9_DONE. */
typedef unsigned __int128 D9Key;
#define D9_DONE (~(D9Key) 0)

/* A worker's edges, or the wakes. */
typedef struct {
  const guint8 *data;
  gsize         size;       /* of an element */
  gsize         source_at;  /* where its source is (its time is first) */
  gsize         len;
} D9Stream;

G_STATIC_ASSERT (G_STRUCT_OFFSET (D9Edge, ts) == 0 && G_STRUCT_OFFSET (D9Wake, ts) == 0);

static inline D9Key
stream_key (const D9Stream *s,
            gsize           i)
{
  const guint8 *e = s->data + i * s->size;
  guint64 ts;
  guint32 source;

  memcpy (&ts, e, sizeof ts);
  memcpy (&source, e + s->source_at, sizeof source);
  /* Signed times order as unsigned once the sign bit is flipped. */
  return (D9Key) (ts ^ G_GUINT64_CONSTANT (0x8000000000000000)) << 64 | (D9Key) source << 32 |
         MIN (i, (gsize) G_MAXUINT32 - 1);
}

/* A sorted run [from, to) of a stream, and the next run of its chain. */
typedef struct {
  gsize   from;
  gsize   to;
  guint32 next;      /* index in the stream's segs, or G_MAXUINT32 */
} D9Seg;

typedef struct {
  D9Stream  stream;
  GArray   *segs;    /* D9Seg */
  GArray   *heads;   /* guint32: each chain's first run */
} D9StreamRuns;

/* Finds @s's runs and chains them; FALSE past MAX_CHAINS chains. */
static gboolean
chain_runs (D9StreamRuns *s)
{
  D9Key last[MAX_CHAINS];
  guint32 tail[MAX_CHAINS];
  guint n_chains = 0;
  gsize n = s->stream.len, from = 0;
  D9Key first = 0, prev = 0;

  for (gsize i = 0; i <= n; i++)
    {
      D9Key key = i < n ? stream_key (&s->stream, i) : 0;

      if (i == n || (i > from && key < prev))
        {
          D9Seg seg = { from, i, G_MAXUINT32 };
          guint32 index = s->segs->len;
          guint best = G_MAXUINT;

          if (i == from)
            break;
          for (guint c = 0; c < n_chains; c++)
            if (last[c] < first && (best == G_MAXUINT || last[c] > last[best]))
              best = c;
          if (best != G_MAXUINT)
            g_array_index (s->segs, D9Seg, tail[best]).next = index;
          else if (n_chains == MAX_CHAINS)
            return FALSE;
          else
            {
              best = n_chains++;
              g_array_append_val (s->heads, index);
            }
          g_array_append_val (s->segs, seg);
          tail[best] = index;
          last[best] = prev;
          from = i;
          first = key;
        }
      else if (i == from)
        first = key;
      prev = key;
    }
  return TRUE;
}

/* The runs of stream i (worker i's edges, or the wakes as the last),
 * found, and the array sorted when they make too many chains, as parts,
 * one stream each. */
typedef struct {
  D9Loader     *l;
  D9StreamRuns *streams;
} D9RunScan;

static void
scan_part (guint    index,
           gpointer data)
{
  D9RunScan *scan = data;
  D9Loader *l = scan->l;
  D9StreamRuns *s = &scan->streams[index];
  D9Seg whole = { 0, s->stream.len, G_MAXUINT32 };
  guint32 zero = 0;

  if (chain_runs (s))
    return;
  if (index < l->workers->len)
    sort_edges ((D9Edge *) (gpointer) s->stream.data, s->stream.len);
  else
    sort_wakes ((D9Wake *) (gpointer) s->stream.data, s->stream.len);
  g_array_set_size (s->segs, 0);
  g_array_set_size (s->heads, 0);
  g_array_append_val (s->segs, whole);
  g_array_append_val (s->heads, zero);
}

static void
scan_runs (D9Loader     *l,
           D9StreamRuns *streams)
{
  D9RunScan scan = { l, streams };
  gsize n = 0;

  for (guint i = 0; i <= l->workers->len; i++)
    {
      gboolean wakes = i == l->workers->len;
      GArray *array = wakes ? l->wakes : ((D9Worker *) g_ptr_array_index (l->workers, i))->edges;
      D9StreamRuns *s = &streams[i];

      s->stream.data = (const guint8 *) array->data;
      s->stream.size = wakes ? sizeof (D9Wake) : sizeof (D9Edge);
      s->stream.source_at = wakes ? G_STRUCT_OFFSET (D9Wake, source) : G_STRUCT_OFFSET (D9Edge, source);
      s->stream.len = array->len;
      s->segs = g_array_new (FALSE, FALSE, sizeof (D9Seg));
      s->heads = g_array_new (FALSE, FALSE, sizeof (guint32));
      n += array->len;
    }
  kymo_parts_run (kymo_load_job_get_options (l->job), n, SORT_THREAD_MIN, l->workers->len + 1, 0,
                  scan_part, NULL, &scan);
}

guint
d9_loader_lq_track (D9Loader *l,
                    D9Worker *w)
{
  if (w->lq_track == KYMO_NO_TRACK)
    {
      KymoTrack *wt = kymo_trace_get_track (l->trace, w->track);
      g_autofree char *name = g_strdup_printf ("%s local queue", kymo_track_get_name (wt));
      KymoTrack *track;

      w->lq_track = kymo_trace_add_track (l->trace, kymo_track_get_parent (wt), KYMO_TRACK_COUNTER, name);
      track = kymo_trace_get_track (l->trace, w->lq_track);
      kymo_track_set_tag (track, w->id);
      kymo_track_set_sort_key (track, kymo_track_get_sort_key (wt) + 1);
    }
  return w->lq_track;
}

guint
d9_loader_wakes_track (D9Loader *l)
{
  if (l->wakes_track == KYMO_NO_TRACK)
    {
      l->wakes_track = kymo_trace_add_track (l->trace, default_group (l), KYMO_TRACK_INSTANT, "wakes");
      kymo_track_set_sort_key (kymo_trace_get_track (l->trace, l->wakes_track), G_MAXINT64 - 1);
    }
  return l->wakes_track;
}

/* A place in a chain: a run (index in the stream's segs) and an element
 * of it. A run's end is written as the next run's start, so that a place
 * has one form; a chain's end is its last run's end. */
typedef struct {
  guint32 seg;
  gsize   pos;
} D9Pos;

static inline void
pos_normalize (const D9StreamRuns *s,
               D9Pos              *p)
{
  const D9Seg *seg = &g_array_index (s->segs, D9Seg, p->seg);

  if (p->pos == seg->to && seg->next != G_MAXUINT32)
    {
      p->seg = seg->next;
      p->pos = g_array_index (s->segs, D9Seg, p->seg).from;
    }
}

/* The merge is cut into parts by key: a part is every chain's elements
 * between two keys. The load's threads order the parts' elements (the
 * tournament) while the loading thread pairs those of the parts before,
 * in order: the pairing is what must stay in one thread. */
#define MERGE_PART   ((gsize) 1 << 17)
/* One key in this many picks where the parts are cut. */
#define MERGE_SAMPLE 512
/* Parts ordered ahead of the pairing (each holds MERGE_PART steps). */
#define MERGE_AHEAD  4

/* One element in merge order. */
typedef struct {
  guint64 index;
  guint32 stream;
} D9Step;

typedef struct {
  const guint8 *ptr;   /* the chain's pages before this are given back */
  guint32       seg;
} D9Released;

typedef struct {
  D9Loader     *l;
  D9StreamRuns *streams;
  guint         n_chains;
  guint32      *chain_stream;  /* per chain */
  D9Pos        *bounds;        /* (n_parts + 1) × n_chains: where part i starts */
  guint         n_parts;
  GArray      **steps;         /* per part: D9Step */
  D9Released   *released;      /* per chain */
  GMutex        lock;
  GPtrArray    *spare;         /* step arrays paired and emptied: their
                                * pages are in memory already */
} D9Order;

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  const D9Key *x = a, *y = b;

  return *x < *y ? -1 : *x > *y;
}

/* Where each part starts in each chain, from a sample of the keys. */
static void
cut_parts (D9Order *o,
           gsize    total)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (D9Key));
  g_autofree D9Key *cuts = NULL;

  for (guint c = 0; c < o->n_chains; c++)
    {
      const D9StreamRuns *s = &o->streams[o->chain_stream[c]];
      D9Pos start = o->bounds[c];

      for (guint32 k = start.seg; k != G_MAXUINT32; k = g_array_index (s->segs, D9Seg, k).next)
        {
          const D9Seg *seg = &g_array_index (s->segs, D9Seg, k);

          for (gsize i = seg->from; i < seg->to; i += MERGE_SAMPLE)
            {
              D9Key key = stream_key (&s->stream, i);
              g_array_append_val (samples, key);
            }
          o->bounds[o->n_chains + c] = (D9Pos) { k, seg->to };
        }
    }
  g_array_sort (samples, compare_keys);
  o->n_parts = (guint) CLAMP (total / MERGE_PART, 1, MAX (samples->len, 1));
  cuts = g_new (D9Key, o->n_parts);
  for (guint k = 1; k < o->n_parts; k++)
    cuts[k] = g_array_index (samples, D9Key, (gsize) k * samples->len / o->n_parts);

  for (guint c = 0; c < o->n_chains; c++)
    {
      const D9StreamRuns *s = &o->streams[o->chain_stream[c]];
      D9Pos p = o->bounds[c], end = o->bounds[o->n_chains + c];

      for (guint k = 1; k < o->n_parts; k++)
        {
          for (;;)
            {
              const D9Seg *seg = &g_array_index (s->segs, D9Seg, p.seg);
              gsize lo = p.pos, hi = seg->to;

              if (stream_key (&s->stream, seg->to - 1) >= cuts[k] || seg->next == G_MAXUINT32)
                {
                  /* The first element at or after the cut. */
                  while (lo < hi)
                    {
                      gsize mid = lo + (hi - lo) / 2;

                      if (stream_key (&s->stream, mid) < cuts[k])
                        lo = mid + 1;
                      else
                        hi = mid;
                    }
                  p.pos = lo;
                  pos_normalize (s, &p);
                  break;
                }
              p.seg = seg->next;
              p.pos = g_array_index (s->segs, D9Seg, p.seg).from;
            }
          o->bounds[(gsize) k * o->n_chains + c] = p;
        }
      /* Where the chain ends, noted while there was one part. */
      o->bounds[(gsize) o->n_parts * o->n_chains + c] = end;
    }
}

/* A chain within a part, as the tournament reads it: its current run's
 * elements [next, end) (end cut at the part's end in its last run). */
typedef struct {
  gsize   next;
  gsize   end;
  guint32 seg;
  guint32 stream;
} D9Leaf;

static inline gboolean
leaf_start (D9Leaf             *leaf,
            const D9StreamRuns *s,
            const D9Pos        *to)
{
  leaf->end = leaf->seg == to->seg ? to->pos : g_array_index (s->segs, D9Seg, leaf->seg).to;
  return leaf->next < leaf->end;
}

/* Orders part @index's elements (on any thread). */
static void
order_part (guint    index,
            gpointer data)
{
  D9Order *o = data;
  guint size = 1;
  g_autofree D9Leaf *leaves = NULL;
  g_autofree D9Key *keys = NULL;
  g_autofree guint *tree = NULL;
  g_autofree guint *win = NULL;
  const D9Pos *from = o->bounds + (gsize) index * o->n_chains, *to = from + o->n_chains;
  GArray *steps;
  D9Step *out;
  gsize n_out = 0;

  g_mutex_lock (&o->lock);
  steps = o->spare->len > 0 ? g_ptr_array_steal_index_fast (o->spare, o->spare->len - 1) : NULL;
  g_mutex_unlock (&o->lock);
  if (steps == NULL)
    steps = g_array_new (FALSE, FALSE, sizeof (D9Step));

  while (size < o->n_chains)
    size *= 2;
  leaves = g_new0 (D9Leaf, size);
  keys = g_new (D9Key, size);
  for (guint c = 0; c < size; c++)
    {
      keys[c] = D9_DONE;
      if (c < o->n_chains)
        {
          const D9StreamRuns *s = &o->streams[o->chain_stream[c]];

          leaves[c].stream = o->chain_stream[c];
          leaves[c].seg = from[c].seg;
          leaves[c].next = from[c].pos;
          if ((from[c].seg != to[c].seg || from[c].pos != to[c].pos) && leaf_start (&leaves[c], s, &to[c]))
            {
              keys[c] = stream_key (&s->stream, from[c].pos);
              n_out += to[c].seg == from[c].seg ? to[c].pos - from[c].pos : 0;
            }
        }
    }
  /* Room for every step (a chain's count is exact when the part stays in
   * one of its runs, and the array grows otherwise). */
  g_array_set_size (steps, MAX (n_out, MERGE_PART));
  out = (D9Step *) (gpointer) steps->data;
  n_out = 0;

  /* tree[0] is the winner, tree[node] the loser at each inner node. */
  tree = g_new (guint, size);
  win = g_new (guint, 2 * (gsize) size);
  for (guint i = 0; i < size; i++)
    win[size + i] = i;
  for (guint node = size; node-- > 1;)
    {
      guint a = win[2 * node], b = win[2 * node + 1];
      gboolean a_first = keys[a] < keys[b];

      win[node] = a_first ? a : b;
      tree[node] = a_first ? b : a;
    }
  tree[0] = size > 1 ? win[1] : 0;

  while (keys[tree[0]] != D9_DONE)
    {
      guint top = tree[0], winner = top;
      D9Leaf *leaf = &leaves[top];
      const D9StreamRuns *s = &o->streams[leaf->stream];
      D9Key key;

      if (G_UNLIKELY (n_out == steps->len))
        {
          g_array_set_size (steps, steps->len * 2);
          out = (D9Step *) (gpointer) steps->data;
        }
      out[n_out].index = leaf->next;
      out[n_out++].stream = leaf->stream;
      if (++leaf->next < leaf->end)
        key = stream_key (&s->stream, leaf->next);
      else if (leaf->seg == to[top].seg)
        key = D9_DONE;
      else
        {
          leaf->seg = g_array_index (s->segs, D9Seg, leaf->seg).next;
          leaf->next = g_array_index (s->segs, D9Seg, leaf->seg).from;
          key = leaf_start (leaf, s, &to[top]) ? stream_key (&s->stream, leaf->next) : D9_DONE;
        }
      keys[top] = key;

      for (guint node = (top + size) / 2; node > 0; node /= 2)
        {
          guint other = tree[node];
          D9Key other_key = keys[other];
          gboolean swap = other_key < key;

          tree[node] = swap ? winner : other;
          winner = swap ? other : winner;
          key = swap ? other_key : key;
        }
      tree[0] = winner;
    }
  g_array_set_size (steps, n_out);
  o->steps[index] = steps;
}

/* Gives back the whole pages of @s's bytes [@from, @to), which nothing
 * reads again (the array is freed whole after the merge); returns where
 * that stopped. */
static const guint8 *
release_pages (const guint8 *from,
               const guint8 *to)
{
  gsize page = kymo_page_size ();
  const guint8 *a = (const guint8 *) (((guintptr) from + page - 1) & ~(guintptr) (page - 1));
  const guint8 *b = (const guint8 *) ((guintptr) to & ~(guintptr) (page - 1));

  if (b <= a)
    return from;
#if defined(__linux__) && defined(MADV_DONTNEED)
  madvise ((void *) a, b - a, MADV_DONTNEED);
#endif
  return b;
}

/* Pairs part @index's elements in order, on the loading thread, then
 * gives back the pages of the runs they were read from: the spans the
 * pairing builds take the room of the edges they come from, rather than
 * adding to them at the peak. (Pages that runs share are left.) */
static gboolean
pair_part (guint    index,
           gpointer data)
{
  D9Order *o = data;
  D9Loader *l = o->l;
  GArray *steps = o->steps[index];
  const D9Step *step = (const D9Step *) (gpointer) steps->data;
  const D9Pos *to = o->bounds + (gsize) (index + 1) * o->n_chains;

  /* Stop at a cancel: what was paired is only freed then. The merge is
   * most of building the tracks. */
  if (!kymo_load_job_progress (l->job, D9_PROGRESS_DECODED + (0.95 - D9_PROGRESS_DECODED) * index / o->n_parts,
                               "Building the timeline", NULL))
    return FALSE;
  for (guint i = 0; i < steps->len; i++)
    {
      const D9Stream *s = &o->streams[step[i].stream].stream;

      if (step[i].stream == l->workers->len)
        d9_pair_wake (l, (const D9Wake *) (gconstpointer) s->data + step[i].index);
      else
        d9_pair_edge (l, step[i].stream, g_ptr_array_index (l->workers, step[i].stream),
                      (const D9Edge *) (gconstpointer) s->data + step[i].index);
    }
  g_array_set_size (steps, 0);
  g_mutex_lock (&o->lock);
  g_ptr_array_add (o->spare, g_steal_pointer (&o->steps[index]));
  g_mutex_unlock (&o->lock);

  for (guint c = 0; c < o->n_chains; c++)
    {
      const D9StreamRuns *s = &o->streams[o->chain_stream[c]];
      D9Released *r = &o->released[c];

      while (r->seg != to[c].seg)
        {
          const D9Seg *seg = &g_array_index (s->segs, D9Seg, r->seg);

          release_pages (MAX (r->ptr, s->stream.data + seg->from * s->stream.size),
                         s->stream.data + seg->to * s->stream.size);
          r->seg = seg->next;
          r->ptr = s->stream.data + g_array_index (s->segs, D9Seg, r->seg).from * s->stream.size;
        }
      r->ptr = release_pages (r->ptr, s->stream.data + to[c].pos * s->stream.size);
    }
  return TRUE;
}

/* A merge of every chain of the workers' edges and of the wakes, in time
 * order, through a tournament (loser) tree: a wake needs to know which
 * task each worker polls at its time. One comparison per level and
 * element, and no copy of the edges: sorting each array first cost a
 * pass over it per doubling of its runs, and as much memory again. */
static void
merge (D9Loader *l)
{
  guint n_streams = l->workers->len + 1, c = 0;
  g_autofree D9StreamRuns *streams = g_new0 (D9StreamRuns, n_streams);
  D9Order o = { l, streams, 0, NULL, NULL, 1, NULL, NULL, { 0 }, NULL };
  gsize total = 0;

  scan_runs (l, streams);
  for (guint s = 0; s < n_streams; s++)
    {
      o.n_chains += streams[s].heads->len;
      total += streams[s].stream.len;
    }

  if (total > 0)
    {
      o.chain_stream = g_new (guint32, o.n_chains);
      o.released = g_new (D9Released, o.n_chains);
      /* Room for the parts' bounds once their number is known. */
      o.bounds = g_new (D9Pos, ((gsize) MAX (total / MERGE_PART, 1) + 1) * o.n_chains);
      for (guint s = 0; s < n_streams; s++)
        for (guint k = 0; k < streams[s].heads->len; k++, c++)
          {
            guint32 head = g_array_index (streams[s].heads, guint32, k);
            const D9Seg *seg = &g_array_index (streams[s].segs, D9Seg, head);

            o.chain_stream[c] = s;
            o.bounds[c] = (D9Pos) { head, seg->from };
            o.released[c] = (D9Released) { streams[s].stream.data + seg->from * streams[s].stream.size, head };
          }
      cut_parts (&o, total);
      o.steps = g_new0 (GArray *, o.n_parts);
      o.spare = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      g_mutex_init (&o.lock);
      kymo_parts_run (kymo_load_job_get_options (l->job), total, SORT_THREAD_MIN, o.n_parts, MERGE_AHEAD,
                      order_part, pair_part, &o);
      for (guint k = 0; k < o.n_parts; k++)
        g_clear_pointer (&o.steps[k], g_array_unref);
      g_free (o.steps);
      g_ptr_array_unref (o.spare);
      g_mutex_clear (&o.lock);
      g_free (o.bounds);
      g_free (o.released);
      g_free (o.chain_stream);
    }
  for (guint s = 0; s < n_streams; s++)
    {
      g_array_unref (streams[s].segs);
      g_array_unref (streams[s].heads);
    }

  /* Done with: their memory goes back before the tracks are built. */
  for (guint i = 0; i < l->workers->len; i++)
    {
      D9Worker *w = g_ptr_array_index (l->workers, i);

      g_array_unref (w->edges);
      w->edges = g_array_new (FALSE, FALSE, sizeof (D9Edge));
    }
  g_array_unref (l->wakes);
  l->wakes = g_array_new (FALSE, FALSE, sizeof (D9Wake));
}

typedef struct {
  guint32 source;
  guint32 worker;     /* or D9_FROM_WAKES */
} D9Creation;

static int
compare_creations (gconstpointer a,
                   gconstpointer b)
{
  const D9Creation *x = a, *y = b;
  return x->source < y->source ? -1 : x->source > y->source;
}

/* What merge() would have done for a streamed (time-ordered) input: the
 * tracks it creates on first use, in the same order (from what the arrays
 * will hold once the merged parts' are joined in: the flows need only the
 * tracks, so they can be replayed meanwhile). */
static void
create_stream_tracks (D9Loader *l)
{
  g_autoptr(GArray) creations = g_array_new (FALSE, FALSE, sizeof (D9Creation));

  for (guint i = 0; i < l->workers->len; i++)
    {
      D9Worker *w = g_ptr_array_index (l->workers, i);
      if (d9_loader_lq_len (l, w) > 0)
        {
          D9Creation c = { w->lq_first, i };
          g_array_append_val (creations, c);
        }
    }
  if (d9_loader_wake_instants_len (l) > 0)
    {
      D9Creation c = { l->wakes_first, D9_FROM_WAKES };
      g_array_append_val (creations, c);
    }
  g_array_sort (creations, compare_creations);

  for (guint i = 0; i < creations->len; i++)
    {
      const D9Creation *c = &g_array_index (creations, D9Creation, i);

      if (c->worker == D9_FROM_WAKES)
        d9_loader_wakes_track (l);
      else
        d9_loader_lq_track (l, g_ptr_array_index (l->workers, c->worker));
    }
}

/* Then their events (the arrays joined by now). */
static void
fill_stream_tracks (D9Loader *l)
{
  if (l->wake_instants->len > 0)
    {
      KymoTrack *track = kymo_trace_get_track (l->trace, l->wakes_track);

      kymo_track_reserve_instants (track, l->wake_instants->len);
      for (guint k = 0; k < l->wake_instants->len; k++)
        {
          const KymoInstant *in = (const KymoInstant *) (gpointer) l->wake_instants->data + k;
          kymo_track_add_instant (track, in->ts, in->name_flags, 0, in->source);
        }
      l->wake_instants->len = 0;
    }
  for (guint i = 0; i < l->workers->len; i++)
    {
      D9Worker *w = g_ptr_array_index (l->workers, i);

      if (w->lq_samples->len > 0)
        {
          KymoTrack *track = kymo_trace_get_track (l->trace, w->lq_track);
          /* The track adopts the array: no copy of the samples. */
          gsize n = w->lq_samples->len;

          kymo_track_take_samples (track, d9_vec_steal (w->lq_samples, sizeof (KymoSample)), n);
        }
    }
}

/* The flows, joined and turned into the trace's in place (a D9Flow and a
 * KymoFlow take the same room): the trace adopts the array. */
static void
replay_flows (D9Loader *l)
{
  gsize n;
  D9Flow *flows = d9_loader_join_flows (l, &n);
  KymoFlow *out = (KymoFlow *) (gpointer) flows;

  G_STATIC_ASSERT (sizeof (KymoFlow) == sizeof (D9Flow));
  if (flows == NULL)
    return;
  for (gsize i = 0; i < n; i++)
    {
      D9Flow f = flows[i];
      KymoFlow k;

      /* In runs, so that a join on another thread stops soon after a cancel. */
      if (i % 65536 == 0 && g_atomic_int_get (&l->stop_flows))
        {
          g_free (flows);
          return;
        }
      k.from_track = f.from == D9_FROM_WAKES ? l->wakes_track
                     : ((D9Worker *) g_ptr_array_index (l->workers, f.from))->track;
      k.to_track = ((D9Worker *) g_ptr_array_index (l->workers, f.to))->track;
      k.from_ts = f.from_ts;
      k.to_ts = f.to_ts;
      k.name = l->name_wake;
      k.source = f.source;
      out[i] = k;
    }
  kymo_trace_take_flows (l->trace, out, n);
}

/* The order a track's tree needs (kymo-span-tree.c): by start, longer
 * first. Pairing closes spans in time order, so only spans that start
 * together can be the wrong way round: a poll that another poll's start
 * cut short at once, before the one that then ran (copies of a trace
 * overlapping in time make that every time). Each moves back past the
 * few that start with it, as a stable sort would put it; past a budget
 * the rest is left to the track's sort at seal, which then has less to
 * do. */
#define SEAL_LESS(x, y) ((x)->start < (y)->start || ((x)->start == (y)->start && (x)->end > (y)->end))

static void
order_spans (KymoSpan *spans,
             gsize     n)
{
  gsize budget = n + 64;

  for (gsize i = 1; i < n; i++)
    if (G_UNLIKELY (SEAL_LESS (&spans[i], &spans[i - 1])))
      {
        KymoSpan t = spans[i];
        gsize j = i;

        do
          {
            spans[j] = spans[j - 1];
            j--;
          }
        while (j > 0 && SEAL_LESS (&t, &spans[j - 1]));
        spans[j] = t;
        if (budget <= i - j)
          return;
        budget -= i - j;
      }
}

static void
finish_worker (D9Loader *l,
               D9Worker *w)
{
  KymoTrack *track = kymo_trace_get_track (l->trace, w->track);

  d9_pair_close_depth0 (l, w, l->max_ts, KYMO_EVENT_INCOMPLETE);
  {
    /* Nothing is staged on the new track yet: it adopts the array, and
     * the deeper spans go into the room after it. */
    gsize n = w->spans0->len, cap;
    KymoSpan *spans;

    order_spans ((KymoSpan *) (gpointer) w->spans0->data, n);
    spans = d9_vec_steal_with_room (w->spans0, &cap);
    kymo_track_take_spans_with_room (track, 0, spans, n, cap);
  }
  for (guint j = w->stack->len; j-- > 0;)
    d9_pair_close_deep (w, j, l->max_ts, KYMO_EVENT_INCOMPLETE);
  g_array_set_size (w->stack, 0);

  if (w->deep->len > 0)
    {
      /* By depth, then by start: spans close in time order, so each
       * depth alone is in start order, or a few chains of it (copies
       * that overlap in time); all depths together are not, by far. */
      gsize n = w->deep->len, at[D9_MAX_SPAN_DEPTH + 2] = { 0 };
      const D9DeepSpan *in = (const D9DeepSpan *) (gpointer) w->deep->data;
      g_autofree D9DeepSpan *deep = g_new (D9DeepSpan, n);

      for (gsize i = 0; i < n; i++)
        at[MIN (in[i].depth, D9_MAX_SPAN_DEPTH) + 1]++;
      for (guint d = 0; d <= D9_MAX_SPAN_DEPTH; d++)
        at[d + 1] += at[d];
      for (gsize i = 0; i < n; i++)
        deep[at[MIN (in[i].depth, D9_MAX_SPAN_DEPTH)]++] = in[i];
      g_array_unref (w->deep);
      w->deep = g_array_new (FALSE, FALSE, sizeof (D9DeepSpan));
      for (gsize i = 0, from = 0; i < n; i++)
        if (i + 1 == n || deep[i + 1].depth != deep[from].depth)
          {
            sort_deep (deep + from, i + 1 - from);
            from = i + 1;
          }
      for (gsize i = 0; i < n; i++)
        kymo_track_add_span (track, deep[i].span.start, deep[i].span.end, kymo_span_name (&deep[i].span),
                             deep[i].depth, kymo_span_flags (&deep[i].span), deep[i].span.source);
    }

  /* Two sorted runs (samples in file order, wakes from the merge): merge
   * them so that the track needs no sort at seal. */
  sort_instants ((KymoInstant *) (gpointer) w->instants->data, w->instants->len);
  {
    /* Merged into the (larger) wakes array, from the end down: no second
     * array. Ties keep the samples first. Names are interned ids, so they
     * are packed as kymo_track_add_instant() would pack them (no flags). */
    const KymoInstant *a = (const KymoInstant *) (gpointer) w->instants->data;
    gsize na = w->instants->len, nb = w->wakes->len, n = na + nb;
    KymoInstant *out;

    w->wakes->data = g_realloc_n (w->wakes->data, MAX (n, 1), sizeof (KymoInstant));
    w->wakes->cap = MAX (n, 1);
    out = (KymoInstant *) (gpointer) w->wakes->data;
    while (na > 0)
      {
        if (nb > 0 && !TS_LESS (&out[nb - 1], &a[na - 1]))
          {
            out[na + nb - 1] = out[nb - 1];
            nb--;
          }
        else
          {
            out[na + nb - 1] = a[na - 1];
            na--;
          }
      }
    w->wakes->len = n;
    kymo_track_take_instants (track, d9_vec_steal (w->wakes, sizeof (KymoInstant)), n);
  }

  /* The edges are done with: give their memory back before the next worker. */
  g_array_set_size (w->edges, 0);
  g_array_set_size (w->deep, 0);
  g_array_set_size (w->instants, 0);
  w->wakes->len = 0;
}

/* Streaming: the flows are added to the trace (no track is made
 * meanwhile) as one part while another finishes the workers' tracks. Only
 * the open polls' tasks are shared, so those are closed first. */
static void
finish_part (guint    index,
             gpointer data)
{
  D9Loader *l = data;

  if (index == 0)
    {
      replay_flows (l);
      return;
    }
  for (guint i = 0; i < l->workers->len; i++)
    finish_worker (l, g_ptr_array_index (l->workers, i));
}

static gboolean
finish_streamed (D9Loader  *l,
                 GError   **error)
{
  gboolean has_flows = d9_loader_has_flows (l), flows_done;

  /* The flows need only the tracks: replayed while the arrays are joined. */
  if (!d9_loader_assemble (l, has_flows ? replay_flows : NULL, &flows_done, error))
    return FALSE;
  fill_stream_tracks (l);
  for (guint i = 0; i < l->workers->len; i++)
    d9_pair_close_depth0 (l, g_ptr_array_index (l->workers, i), l->max_ts, KYMO_EVENT_INCOMPLETE);
  if (!flows_done && has_flows && l->workers->len > 0)
    kymo_parts_run (kymo_load_job_get_options (l->job), l->d->size, 0, 2, 0, finish_part, NULL, l);
  else
    {
      if (!flows_done)
        replay_flows (l);
      finish_part (1, l);
    }
  d9_loader_release_parts (l);
  return TRUE;
}

static void
add_single_event_spans (D9Loader *l)
{
  for (guint i = 0; i < l->se_spans->len; i++)
    {
      GArray *spans = g_ptr_array_index (l->se_spans, i);
      KymoTrack *track = kymo_trace_get_track (l->trace, g_array_index (l->se_tracks, guint, i));
      KymoTime lanes[MAX_LANES] = { 0 };
      guint n_lanes = 0;

      sort_spans ((KymoSpan *) (gpointer) spans->data, spans->len);
      for (guint k = 0; k < spans->len; k++)
        {
          const KymoSpan *s = &g_array_index (spans, KymoSpan, k);
          guint lane = 0;

          /* Overlapping spans (concurrent requests) go to the first free lane. */
          while (lane < n_lanes && lanes[lane] > s->start)
            lane++;
          if (lane == MAX_LANES)
            lane = MAX_LANES - 1;
          else if (lane == n_lanes)
            n_lanes++;
          lanes[lane] = MAX (lanes[lane], s->end);
          if (s->start < l->min_ts)
            l->min_ts = s->start;
          kymo_track_add_span (track, s->start, s->end, kymo_span_name (s), lane, 0, s->source);
        }
    }
}

static void
add_late (D9Loader *l)
{
  for (guint i = 0; i < l->late->len; i++)
    {
      const D9Late *late = &g_array_index (l->late, D9Late, i);
      KymoTime ts = l->min_ts;

      /* Wall-clock stamps land where the clock sync says, if that is inside
       * the trace; symbol tables have no meaningful time. */
      if (late->wall && l->has_wallclock)
        {
          KymoTime mono = late->ts - l->wall_offset;
          if (mono >= l->min_ts && mono <= l->max_ts)
            ts = mono;
        }
      kymo_track_add_instant (kymo_trace_get_track (l->trace, late->track), ts, late->name, 0, late->source);
    }
}

gboolean
d9_build_model (D9Loader  *l,
                GError   **error)
{
  unique_symbols (l->d->symbols);

  if (l->min_ts > l->max_ts)
    l->min_ts = l->max_ts = 0;

  for (guint i = 0; i < l->pending->len; i++)
    {
      const D9Pending *p = &g_array_index (l->pending, D9Pending, i);
      kymo_track_add_instant (kymo_trace_get_track (l->trace, p->track), p->instant.ts,
                              p->instant.name_flags, 0, p->instant.source);
    }

  create_worker_tracks (l);
  if (l->streaming)
    {
      create_stream_tracks (l);
      if (!finish_streamed (l, error))
        return FALSE;
    }
  else
    {
      gboolean first_done;

      /* The parts' instants join the loader's (their edges and wakes
       * already have). */
      if (!d9_loader_assemble (l, NULL, &first_done, error))
        return FALSE;
      d9_loader_release_parts (l);
      merge (l);
      for (guint i = 0; i < l->workers->len; i++)
        finish_worker (l, g_ptr_array_index (l->workers, i));
    }

  if (l->queue->len > 0)
    {
      KymoTrack *track;

      l->queue_track = kymo_trace_add_track (l->trace, default_group (l), KYMO_TRACK_COUNTER, "global queue");
      track = kymo_trace_get_track (l->trace, l->queue_track);
      kymo_track_set_sort_key (track, G_MAXINT64 - 2);
      for (guint i = 0; i < l->queue->len; i++)
        {
          const KymoSample *s = &g_array_index (l->queue, KymoSample, i);
          kymo_track_add_sample (track, s->ts, s->value);
        }
    }

  add_single_event_spans (l);
  add_late (l);
  kymo_trace_set_time_range (l->trace, l->min_ts, l->max_ts);
  return TRUE;
}
