/* kymo-dial9-poi.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-poi"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "kymo-dial9-poi.h"
#include "kymo-dial9-poi-private.h"
#include "kymo-dial9-sort-private.h"
#include "kymo-parts.h"

void
kymo_poi_thresholds_init_default (KymoPoiThresholds *thresholds)
{
  g_return_if_fail (thresholds != NULL);

  thresholds->long_poll_ns = KYMO_POI_DEFAULT_LONG_POLL_NS;
  thresholds->wake_delay_ns = KYMO_POI_DEFAULT_WAKE_DELAY_NS;
  thresholds->sched_delay_ns = KYMO_POI_DEFAULT_SCHED_DELAY_NS;
}

const char *
kymo_poi_kind_to_string (KymoPoiKind kind)
{
  switch (kind)
    {
    case KYMO_POI_SCHED_DELAY:
      return _("Kernel scheduling delay");
    case KYMO_POI_LONG_POLL:
      return _("Long poll");
    case KYMO_POI_CPU_SAMPLES:
      return _("Poll with CPU samples");
    case KYMO_POI_WAKE_DELAY:
      return _("Wake to poll delay");
    case KYMO_POI_UNINSTRUMENTED:
      return _("Poll of an uninstrumented task");
    case KYMO_POI_N_KINDS:
    default:
      return "";
    }
}

/* Signed to unsigned order. */
#define ORDERED(t) ((guint64) (t) ^ G_GUINT64_CONSTANT (0x8000000000000000))

/* Points in time order: by start, then kind, then track (ties are left
 * to the caller). */
static inline int
compare_timed (const KymoPoi *x,
               const KymoPoi *y)
{
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  if (x->track != y->track)
    return x->track < y->track ? -1 : 1;
  return 0;
}

/* A run of points in time order: a run of @pois, or a lane's polls of
 * uninstrumented tasks, whose points are made as they are merged. The
 * point at @at has the id @id_base + @order[@at] (@at without @order). */
typedef struct {
  const KymoPoi          *pois;
  const KymoDial9PoiLane *lane;           /* when @pois is NULL */
  guint32                 id_base;
  const guint32          *order;
  guint32                 first;
  guint32                 split;          /* where the second half starts */
  guint32                 last;           /* past the run's end */
} Run;

static inline KymoTime
run_start (const Run *r,
           guint32    at)
{
  return r->pois != NULL ? r->pois[at].start : r->lane->spans[r->lane->index[at]].start;
}

#define RUN_PREFETCH_AHEAD 16 /* points */

static inline void
lane_point (const KymoDial9PoiLane *lane,
            guint32                 at,
            KymoPoi                *p)
{
  const KymoSpan *span = &lane->spans[lane->index[at]];

  *p = (KymoPoi) { span->start, span->end, span->end - span->start, KYMO_POI_UNINSTRUMENTED, lane->track,
                   (guint32) (lane->first + lane->index[at]), 0 };
}

static inline void
run_point (const Run *r,
           guint32    at,
           KymoPoi   *p)
{
  const KymoDial9PoiLane *lane = r->lane;

  if (r->pois != NULL)
    {
      *p = r->pois[at];
      return;
    }
  /* A lane's polls of uninstrumented tasks are a few of its spans, far
   * apart, and several lanes' are read at a time: too many streams for
   * the hardware's prefetch. */
  if (G_LIKELY (at + RUN_PREFETCH_AHEAD < lane->n))
    __builtin_prefetch (&lane->spans[lane->index[at + RUN_PREFETCH_AHEAD]]);
  lane_point (lane, at, p);
}

static inline guint32
run_id (const Run *r,
        guint32    at)
{
  return r->id_base + (r->order != NULL ? r->order[at] : at);
}

/* A run's next point as the merge compares it: time, then kind and track;
 * a done run's comes after every point. */
typedef struct {
  guint64 time;                           /* ORDERED */
  guint64 rest;
} MergeKey;

static inline void
merge_key (MergeKey      *key,
           const KymoPoi *p)
{
  key->time = ORDERED (p->start);
  key->rest = (guint64) p->kind << 32 | p->track;
}

static inline void
merge_key_done (MergeKey *key)
{
  key->time = G_MAXUINT64;
  key->rest = G_MAXUINT64;
}

/* Whether run @x's next point comes first, ties to the earlier run.
 * Which run's does is as good as random when lanes interleave: computed
 * without branches, which would mispredict half the time. */
static inline gboolean
run_before (const MergeKey *keys,
            guint           x,
            guint           y)
{
  const MergeKey *a = &keys[x], *b = &keys[y];

  return (a->time < b->time) | ((a->time == b->time) & ((a->rest < b->rest) | ((a->rest == b->rest) & (x < y))));
}

static void sort_timed (const KymoPoi *pois,
                        guint32        n,
                        guint32       *timed);

/* A stretch of points, as found, gives its first MAX_RUNS - 1 runs in
 * time order as they are; what follows (the delays, in the order of
 * their records) is sorted as one more run. */
#define MAX_RUNS 64

/* The runs the points come in, for merging them. */
typedef struct {
  Run     *runs;
  guint    n_runs;
  guint32  at[2];                         /* where each half's output starts */
  guint32 *out;                           /* ids */
  guint64 *severity;                      /* per position in out, ORDERED */
  guint64  least[2];                      /* the least of each half */
} Merge;

/* The points of @half of every run in time order, into @m's out: a tree
 * of losers over the runs' next points, ties to the earlier run, which
 * is what a stable sort of the points as found gives. */
static void
merge_half (guint    half,
            gpointer user_data)
{
  Merge *m = user_data;
  guint n_runs = m->n_runs, k = 1, w;
  g_autofree guint32 *at = g_new (guint32, n_runs + 1);
  g_autofree guint32 *end = g_new (guint32, n_runs + 1);
  g_autofree KymoPoi *next = g_new (KymoPoi, n_runs + 1);
  g_autofree MergeKey *keys = g_new (MergeKey, n_runs + 1);
  g_autofree guint *tree = NULL, *winners = NULL;
  guint32 n = 0;
  guint32 *out = m->out + m->at[half];
  guint64 *severity = m->severity + m->at[half], least = G_MAXUINT64;

  for (guint r = 0; r < n_runs; r++)
    {
      const Run *run = &m->runs[r];

      at[r] = half == 0 ? run->first : run->split;
      end[r] = half == 0 ? run->split : run->last;
      n += end[r] - at[r];
      if (at[r] < end[r])
        {
          run_point (run, at[r], &next[r]);
          merge_key (&keys[r], &next[r]);
        }
      else
        merge_key_done (&keys[r]);
    }
  /* The padding's run: done from the start. */
  at[n_runs] = end[n_runs] = 0;
  merge_key_done (&keys[n_runs]);
  while (k < n_runs)
    k *= 2;
  tree = g_new (guint, k);
  winners = g_new (guint, 2 * k);
  for (guint j = 0; j < k; j++)
    winners[k + j] = MIN (j, n_runs);
  for (guint node = k - 1; node > 0; node--)
    {
      guint x = winners[2 * node], y = winners[2 * node + 1];
      gboolean xw = run_before (keys, x, y);

      winners[node] = xw ? x : y;
      tree[node] = xw ? y : x;
    }
  w = winners[1];
  for (guint32 o = 0; o < n; o++)
    {
      out[o] = run_id (&m->runs[w], at[w]);
      /* For the worst first, while the point is at hand. */
      severity[o] = ORDERED (next[w].severity);
      least = MIN (least, severity[o]);
      if (++at[w] < end[w])
        {
          run_point (&m->runs[w], at[w], &next[w]);
          merge_key (&keys[w], &next[w]);
        }
      else
        merge_key_done (&keys[w]);
      for (guint node = (k + w) >> 1; node > 0; node >>= 1)
        {
          guint l = tree[node];
          gboolean lw = run_before (keys, l, w);

          tree[node] = lw ? w : l;
          w = lw ? l : w;
        }
    }
  m->least[half] = least;
}

/* A stretch of points as found, as one run in time order, and what it
 * holds. */
typedef struct {
  KymoPoi *tail;                          /* the sorted tail's points */
  guint32 *tail_order;                    /* their positions past the runs */
  KymoPoi *merged;                        /* every point of the stretch, in time order */
  guint32 *ids;                           /* their ids */
} Stretch;

static void
stretch_clear (Stretch *st)
{
  g_free (st->tail);
  g_free (st->tail_order);
  g_free (st->merged);
  g_free (st->ids);
}

static void merge_timed (GArray   *runs,
                         guint32   n,
                         gsize     parallel_min,
                         guint32  *out,
                         guint64  *severity,
                         guint64  *least);

/* The @n points as found at @pois (ids from @id_base) as one run into
 * @runs: their first MAX_RUNS - 1 runs in time order as they are, the
 * points past them sorted, then all of it merged here. The few points a
 * stretch holds are then one run for the merge with the lanes' many,
 * rather than dozens of short runs each of the lanes' points is compared
 * against. */
static void
add_stretch (GArray        *runs,
             const KymoPoi *pois,
             guint32        n,
             guint32        id_base,
             Stretch       *st)
{
  g_autoptr(GArray) own = g_array_new (FALSE, FALSE, sizeof (Run));
  g_autofree guint64 *severity = NULL;
  guint n_runs = 0;
  guint64 least;
  guint32 i = 0;
  Run run = { pois, NULL, id_base, NULL, 0, 0, 0 };

  while (i < n && n_runs < MAX_RUNS - 1)
    {
      run.first = i;
      for (i++; i < n && compare_timed (&pois[i - 1], &pois[i]) <= 0; i++)
        ;
      run.last = i;
      g_array_append_val (own, run);
      n_runs++;
    }
  if (i < n)
    {
      guint32 *order = st->tail_order = g_new (guint32, n - i);

      sort_timed (&pois[i], n - i, order);
      st->tail = g_new (KymoPoi, n - i);
      for (guint32 j = 0; j < n - i; j++)
        st->tail[j] = pois[i + order[j]];
      run = (Run) { st->tail, NULL, id_base + i, order, 0, 0, n - i };
      g_array_append_val (own, run);
    }
  if (own->len <= 1)
    {
      g_array_append_vals (runs, own->data, own->len);
      return;
    }
  st->ids = g_new (guint32, n);
  severity = g_new (guint64, n);
  merge_timed (own, n, G_MAXSIZE, st->ids, severity, &least);
  st->merged = g_new (KymoPoi, n);
  for (guint32 j = 0; j < n; j++)
    st->merged[j] = pois[st->ids[j] - id_base];
  run = (Run) { st->merged, NULL, 0, st->ids, 0, 0, n };
  g_array_append_val (runs, run);
}

/* The first position of @r at or after @first starting at or after @ts. */
static guint32
run_lower_bound (const Run *r,
                 KymoTime   ts)
{
  guint32 lo = r->first, hi = r->last;

  while (lo < hi)
    {
      guint32 mid = lo + (hi - lo) / 2;

      if (run_start (r, mid) < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The points in time order, merged from the runs they come in: each
 * lane's polls in span order, the delays sorted. The runs are cut in two
 * at a time, each half merged on a thread of its own: points of the same
 * time stay in one half, so the order is the one merging them all
 * gives. */
static void
merge_timed (GArray   *runs,
             guint32   n,
             gsize     parallel_min,
             guint32  *out,
             guint64  *severity,
             guint64  *least)
{
  Merge m = { (Run *) (gpointer) runs->data, runs->len, { 0 }, out, severity, { G_MAXUINT64, G_MAXUINT64 } };
  guint longest = 0;
  guint32 n_first = 0;
  KymoTime cut;

  /* Cut at the middle of the longest run: the others come near it in
   * time when they are long. */
  for (guint r = 1; r < m.n_runs; r++)
    if (m.runs[r].last - m.runs[r].first > m.runs[longest].last - m.runs[longest].first)
      longest = r;
  cut = m.n_runs > 0 && m.runs[longest].last > m.runs[longest].first
        ? run_start (&m.runs[longest], m.runs[longest].first + (m.runs[longest].last - m.runs[longest].first) / 2)
        : G_MININT64;
  for (guint r = 0; r < m.n_runs; r++)
    {
      m.runs[r].split = run_lower_bound (&m.runs[r], cut);
      n_first += m.runs[r].split - m.runs[r].first;
    }
  m.at[0] = 0;
  m.at[1] = n_first;
  kymo_parts_run (NULL, n, parallel_min, 2, 0, merge_half, NULL, &m);
  *least = MIN (m.least[0], m.least[1]);
}

/* Worst first falls in classes: by the bits a point's excess over the
 * least severe takes (0 to 64), the largest first. Within a class only
 * the bits below its top one are left to sort, and most points need no
 * sort at all: the polls of uninstrumented tasks, nearly all of them,
 * take no time, as the least severe do. */
#define N_CLASSES 65

/* What the passes of order_worst() share; the first ones work on half of
 * the points each, on a thread of its own, the last on a class each. */
typedef struct {
  guint32        n;
  guint          idx_bits;
  guint64        floor;                   /* the least severe of all */
  guint64       *severity;                /* per position in the time order, ORDERED */
  guint32        count[2][N_CLASSES];     /* each half's points per class */
  guint32        at[2][N_CLASSES];        /* where each half's next point of a class goes */
  guint32        first[N_CLASSES];        /* where each class starts, worst first */
  guint32        key_at[2][N_CLASSES];    /* the same in keys, for the classes to sort */
  guint32        key_first[N_CLASSES];
  guint64       *keys;
  guint64       *scratch;
  guint32       *worst;
} Worst;

static inline guint32
half_first (guint32 n,
            guint   half)
{
  return half == 0 ? 0 : n / 2;
}

static inline guint32
half_end (guint32 n,
          guint   half)
{
  return half == 0 ? n / 2 : n;
}

static void
classes_half (guint    half,
              gpointer user_data)
{
  Worst *w = user_data;
  guint32 *count = w->count[half];

  for (guint32 o = half_first (w->n, half); o < half_end (w->n, half); o++)
    count[_kymo_dial9_bits_for (w->severity[o] - w->floor)]++;
}

/* A class's bits below its top one, and whether they fit in a key above
 * the position. */
static inline guint
class_bits (guint c)
{
  return c > 0 ? c - 1 : 0;
}

static inline gboolean
class_is_wide (const Worst *w,
               guint        c)
{
  return class_bits (c) + w->idx_bits > 64;
}

/* Each point to its class, in time order: a key of how much less severe
 * than the class's most it is, above its position (a wide class: the
 * position alone, see sort_class()). A class with nothing left to sort
 * takes the positions as they come. */
static void
scatter_half (guint    half,
              gpointer user_data)
{
  Worst *w = user_data;
  guint32 *at = w->at[half], *key_at = w->key_at[half];
  guint idx_bits = w->idx_bits;

  for (guint32 o = half_first (w->n, half); o < half_end (w->n, half); o++)
    {
      guint64 excess = w->severity[o] - w->floor;
      guint c = _kymo_dial9_bits_for (excess);
      guint64 top = G_GUINT64_CONSTANT (1) << class_bits (c);

      if (class_bits (c) == 0)
        w->worst[at[c]++] = o;
      else if (class_is_wide (w, c))
        w->keys[key_at[c]++] = o;
      else
        w->keys[key_at[c]++] = ((top - 1) - (excess - top)) << idx_bits | o;
    }
}

/* A wide class (an excess of 2^(64 - index bits) or more: the far-off
 * delays of a damaged or stitched clock) sorts as 16-byte keys. */
static void
sort_wide (Worst *w,
           guint  c)
{
  guint32 first = w->first[c], n = w->count[0][c] + w->count[1][c];
  guint b = class_bits (c);
  guint64 top = G_GUINT64_CONSTANT (1) << b;
  g_autofree KymoDial9SortKey *keys = g_new (KymoDial9SortKey, n);
  g_autofree KymoDial9SortKey *scratch = g_new (KymoDial9SortKey, n);
  const KymoDial9SortKey *sorted;

  for (guint32 i = 0; i < n; i++)
    {
      guint32 o = (guint32) w->keys[w->key_first[c] + i];

      guint64 excess = w->severity[o] - w->floor;

      keys[i] = (KymoDial9SortKey) { (top - 1) - (excess - top), o, 0 };
    }
  sorted = _kymo_dial9_sort_indexed (keys, scratch, n);
  for (guint32 i = 0; i < n; i++)
    w->worst[first + i] = sorted[i].index;
}

static void
sort_class (guint    part,
            gpointer user_data)
{
  Worst *w = user_data;
  guint c = N_CLASSES - 1 - part;
  guint32 first = w->first[c], n = w->count[0][c] + w->count[1][c];
  guint64 mask = (G_GUINT64_CONSTANT (1) << w->idx_bits) - 1;
  const guint64 *sorted;

  if (n == 0 || class_bits (c) == 0)
    return;
  if (class_is_wide (w, c))
    {
      sort_wide (w, c);
      return;
    }
  sorted = _kymo_dial9_sort_key_bits (w->keys + w->key_first[c], w->scratch + w->key_first[c], n, w->idx_bits,
                                      w->idx_bits + class_bits (c));
  for (guint32 i = 0; i < n; i++)
    w->worst[first + i] = (guint32) (sorted[i] & mask);
}

/* Worst first as positions in the time order, stably: by severity, then
 * by position. The keys are made in time order, so that a sort by the
 * severity's bits alone keeps equals in it. */
static void
order_worst (guint32        n,
             gsize          parallel_min,
             guint64       *severity,
             guint64        least,
             guint32       *worst)
{
  Worst w = { n, MAX (_kymo_dial9_bits_for (n), 1), };
  g_autofree guint64 *keys = NULL, *wide_scratch = NULL;
  gboolean wide = FALSE;
  guint32 at = 0, key_at = 0;

  if (n == 0)
    return;
  w.severity = severity;
  w.floor = least;
  kymo_parts_run (NULL, n, parallel_min, 2, 0, classes_half, NULL, &w);
  /* Worst class first; in each, the first half's points before the
   * second's. */
  for (guint c = N_CLASSES; c-- > 0;)
    {
      w.first[c] = at;
      w.at[0][c] = at;
      w.at[1][c] = at + w.count[0][c];
      at += w.count[0][c] + w.count[1][c];
      if (class_bits (c) == 0)
        continue;
      wide |= class_is_wide (&w, c) && w.count[0][c] + w.count[1][c] > 0;
      w.key_first[c] = key_at;
      w.key_at[0][c] = key_at;
      w.key_at[1][c] = key_at + w.count[0][c];
      key_at += w.count[0][c] + w.count[1][c];
    }
  /* Keys only for the points to sort: a few percent of them. */
  keys = w.keys = g_new (guint64, MAX (key_at, 1));
  w.worst = worst;
  kymo_parts_run (NULL, n, parallel_min, 2, 0, scatter_half, NULL, &w);
  /* The severities are read: their room is the sorts' scratch, but for
   * a wide class's sort, which reads them (see sort_wide()). */
  w.scratch = severity;
  if (wide)
    w.scratch = wide_scratch = g_new (guint64, MAX (key_at, 1));
  kymo_parts_run (NULL, n, parallel_min, N_CLASSES, 0, sort_class, NULL, &w);
}

/* Time order by radix passes over 16-byte keys. A trace shorter than 52
 * days with fewer than 512 tracks (all of them, in practice) has start,
 * kind and track in one key, so one sort makes the time order. */
static void
sort_timed (const KymoPoi *pois,
            guint32        n,
            guint32       *timed)
{
  g_autofree KymoDial9SortKey *a = g_new (KymoDial9SortKey, MAX (n, 1));
  g_autofree KymoDial9SortKey *b = g_new (KymoDial9SortKey, MAX (n, 1));
  guint64 first = G_MAXUINT64, last = 0;
  guint32 max_track = 0;
  KymoDial9SortKey *sorted;

  for (guint32 i = 0; i < n; i++)
    {
      first = MIN (first, ORDERED (pois[i].start));
      last = MAX (last, ORDERED (pois[i].start));
      max_track = MAX (max_track, pois[i].track);
    }
  if (n > 0 && max_track < (1 << 9) && last - first < G_GUINT64_CONSTANT (1) << 52)
    {
      for (guint32 i = 0; i < n; i++)
        a[i] = (KymoDial9SortKey) { (ORDERED (pois[i].start) - first) << 12 | (guint64) pois[i].kind << 9 | pois[i].track,
                            i, 0 };
      sorted = _kymo_dial9_sort_indexed (a, b, n);
    }
  else
    {
      for (guint32 i = 0; i < n; i++)
        a[i] = (KymoDial9SortKey) { (guint64) pois[i].kind << 32 | pois[i].track, i, 0 };
      sorted = _kymo_dial9_sort_indexed (a, b, n);
      for (guint32 i = 0; i < n; i++)
        sorted[i].key = ORDERED (pois[sorted[i].index].start);
      sorted = _kymo_dial9_sort_indexed (sorted, sorted == a ? b : a, n);
    }
  for (guint32 i = 0; i < n; i++)
    timed[i] = sorted[i].index;
}

/* Time order (start, then kind, then track; else as found), then worst
 * first as positions in it: the time order stably sorted by severity,
 * longest first. Most points are a lane's polls of uninstrumented tasks,
 * found in time order: they are merged from the lanes' spans, as ids,
 * rather than made as found and then ordered (hundreds of thousands of
 * 40-byte points, mostly the page faults of memory written once and read
 * once). The severities are random, so a merge sort would take log2 (n)
 * passes: radix passes over keys. */
guint32 *
_kymo_dial9_pois_order (const KymoPoi          *found,
                        guint32                 n_found,
                        guint32                 lanes_at,
                        const KymoDial9PoiLane *lanes,
                        guint                   n_lanes,
                        gsize                   parallel_min,
                        guint32                *n_out,
                        guint32               **worst)
{
  g_autoptr(GArray) runs = g_array_new (FALSE, FALSE, sizeof (Run));
  Stretch before = { 0 }, after = { 0 };
  g_autofree guint64 *severity = NULL;
  guint64 least = G_MAXUINT64;
  guint32 n = n_found, *timed;

  g_return_val_if_fail (lanes_at <= n_found, NULL);
  add_stretch (runs, found, lanes_at, 0, &before);
  for (guint l = 0; l < n_lanes; l++)
    if (lanes[l].n > 0)
      {
        Run run = { NULL, &lanes[l], n, NULL, 0, 0, lanes[l].n };

        g_array_append_val (runs, run);
        n += lanes[l].n;
      }
  add_stretch (runs, found + lanes_at, n_found - lanes_at, lanes_at, &after);
  timed = g_new (guint32, MAX (n, 1));
  severity = g_new (guint64, MAX (n, 1));
  *worst = g_new (guint32, MAX (n, 1));
  merge_timed (runs, n, parallel_min, timed, severity, &least);
  order_worst (n, parallel_min, severity, least, *worst);
  stretch_clear (&before);
  stretch_clear (&after);
  *n_out = n;
  return timed;
}

void
_kymo_dial9_poi_from_id (const KymoPoi          *found,
                         guint32                 n_found,
                         const KymoDial9PoiLane *lanes,
                         guint32                 id,
                         KymoPoi                *poi)
{
  if (id < n_found)
    {
      *poi = found[id];
      return;
    }
  id -= n_found;
  while (id >= lanes->n)
    id -= lanes++->n;
  lane_point (lanes, id, poi);
}
