/* kymo-dial9-pairing.c: each worker's edges paired on its own, on the
 * load's threads, beside the wakes (kymo-dial9-wakes.c)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <stdlib.h>

#include "kymo-dial9-chains.h"
#include "kymo-dial9-pair.h"
#include "kymo-dial9-pairing-private.h"
#include "kymo-mapped.h"
#include "kymo-parts.h"
#include "kymo-run-sort.h"

/* The order everything is paired in is one time-ordered pass over every
 * edge and wake: by time, then by the event's place in the file (an event
 * makes one edge or one wake, so no two elements tie; the place in its
 * array orders what a damaged file might repeat). A worker's spans
 * depend on its own edges alone, so each worker is paired on its own, on
 * the load's threads. What crosses workers is the tasks: a wake comes
 * from the worker polling its waker at its time, and a poll takes its
 * task's first wake since the task's previous poll (a flow). So each
 * worker notes its polls of tasks (the edges that start and end them),
 * and one pass in time order over those notes and the wakes replays just
 * that (d9_resolve_wakes()). */

KYMO_DEFINE_RUN_SORT (sort_edges, D9Edge, D9_TS_LESS)

/* Below this many edges and wakes, more threads cost more than they save. */
#define PAIR_THREAD_MIN (1 << 18)

/* Edges paired between two rounds of populating the outputs' pages. */
#define POPULATE_STEP ((gsize) 1 << 15)

/* Edges paired between two rounds of giving their pages back. */
#define RELEASE_STEP ((gsize) 1 << 18)

static gint reference_for_testing;

void
d9_pair_set_reference_for_testing (gboolean reference)
{
  g_atomic_int_set (&reference_for_testing, reference);
}

static inline void
pair_lq (D9WorkerPairing *p,
         gsize            i)
{
  const D9Edge *e = &p->edges[i];
  D9Worker *w = p->w;
  guint64 lq = e->aux >> 32;
  KymoSample s;

  if (lq == 0)
    return;
  s.ts = e->ts;
  s.value = (double) (lq - 1);
  if (w->lq_valid && w->last_lq == s.value)
    return;
  if (!w->lq_valid)
    p->first_lq = d9_key (e->ts, e->source, 0);
  *(KymoSample *) d9_vec_push (w->lq_samples, sizeof s) = s;
  w->lq_valid = TRUE;
  w->last_lq = s.value;
}

/* Closes the worker's open poll or park at edge @i. The task it polled is
 * left alone (w->open_task stays G_MAXUINT32): the poll is noted instead. */
static inline void
close_depth0 (D9WorkerPairing *p,
              gsize            i,
              guint            flags)
{
  if (p->open != G_MAXUINT32)
    {
      D9Poll *poll = &p->polls[p->open];

      poll->end_ts = p->edges[i].ts;
      poll->end_source = p->edges[i].source;
      poll->ended = TRUE;
      p->open = G_MAXUINT32;
    }
  d9_pair_close_depth0 (p->l, p->w, p->edges[i].ts, flags);
}

/* d9_pair_edge() without what crosses workers. */
static inline void
pair_edge (D9WorkerPairing *p,
           gsize            i)
{
  const D9Edge *e = &p->edges[i];
  D9Worker *w = p->w;

  switch (e->name_kind >> 24)
    {
    case D9_EDGE_POLL_START:
      {
        guint32 task = (guint32) e->aux;

        close_depth0 (p, i, KYMO_EVENT_INCOMPLETE);
        w->state = D9_EDGE_POLL_START;
        w->open_start = e->ts;
        w->open_name = e->name_kind & KYMO_NAME_MAX;
        w->open_source = e->source;
        if (task != G_MAXUINT32)
          {
            D9Poll poll = { e->ts, 0, e->source, 0, task, FALSE };

            p->open = p->n_polls;
            p->polls[p->n_polls++] = poll;
          }
        pair_lq (p, i);
      }
      break;

    case D9_EDGE_POLL_END:
      if (w->state == D9_EDGE_POLL_START)
        close_depth0 (p, i, 0);
      pair_lq (p, i);
      break;

    case D9_EDGE_PARK:
      close_depth0 (p, i, KYMO_EVENT_INCOMPLETE);
      w->state = D9_EDGE_PARK;
      w->open_start = e->ts;
      w->open_source = e->source;
      pair_lq (p, i);
      break;

    case D9_EDGE_UNPARK:
      if (w->state == D9_EDGE_PARK)
        close_depth0 (p, i, 0);
      pair_lq (p, i);
      break;

    case D9_EDGE_CUT:
      /* The poll it ends is noted as ended here, so the task is no longer
       * polled by this worker from the cut on. */
      close_depth0 (p, i, KYMO_EVENT_INCOMPLETE);
      d9_pair_close_stack (w, e->ts);
      break;

    default:
      /* Spans entered and exited: the worker's alone. */
      d9_pair_edge (p->l, p->index, w, e);
      break;
    }
}

/* Nothing reads a worker's edges once they are paired: their memory goes
 * back before the next worker's spans take more. */
static void
free_worker_edges (D9WorkerPairing *p)
{
  g_array_unref (p->w->edges);
  p->w->edges = g_array_new (FALSE, FALSE, sizeof (D9Edge));
  p->edges = NULL;
}

/* Counts @n more edges paired; the loading thread reports how far all
 * threads are. FALSE once the load is cancelled. */
static gboolean
pairing_progress (D9Pairing *pg,
                  gsize      n)
{
  gsize done = (gsize) g_atomic_pointer_add (&pg->done, n) + n;

  if (g_thread_self () == pg->loading &&
      !kymo_load_job_progress (pg->l->job, D9_PROGRESS_PAIRED - (D9_PROGRESS_PAIRED - D9_PROGRESS_DECODED) * (pg->total - MIN (done, pg->total)) / MAX (pg->total, 1),
                               "Building the timeline", pg->error))
    g_atomic_int_set (&pg->cancel, 1);
  return !g_atomic_int_get (&pg->cancel);
}

/* Room for all the walk writes, from what each edge can make at most: a
 * poll of a task (a poll start), a span at depth 0 (a poll start or a
 * park, and the one open before) and a deeper span (an enter): arrays
 * that never grow are never copied. Room not written costs no memory. The
 * spans at depth 0 get room for the deeper ones after them too, where the
 * track puts those (see d9_finish_worker_spans). */
static void
reserve_outputs (D9WorkerPairing *p)
{
  D9Worker *w = p->w;
  D9Vec *spans0 = w->spans0;
  gsize n = p->n_edges, deep = w->deep->len, room;

  p->polls = g_new (D9Poll, MAX (n, 1));
  p->n_polls = 0;
  room = spans0->len + deep + w->stack->len + n + 1;
  if (spans0->map_bytes == 0 && room > spans0->cap)
    {
      spans0->data = g_realloc_n (spans0->data, room, sizeof (KymoSpan));
      spans0->cap = room;
    }
  /* A GArray keeps the room it grew to. */
  g_array_set_size (w->deep, deep + n);
  g_array_set_size (w->deep, deep);
}

/* An array the walk writes in order, populated ahead of the writes. */
typedef struct {
  guint8 *data;
  gsize   size;
  gsize   cap;
  gsize   populated;  /* bytes */
} D9Ahead;

/* Populates the pages that the next POPULATE_STEP edges will fill, at
 * the rate the @steps edges so far filled @len elements (and an eighth
 * more): in one call rather than a fault per page. Pages populated and
 * then not written go back with the array. */
static void
populate_ahead (D9Ahead *a,
                guint8  *data,
                gsize    len,
                gsize    steps)
{
  gsize written = len * a->size, want;

  if (data != a->data)
    {
      /* Moved (it never should: its room was reserved): start again. */
      a->data = data;
      a->populated = written;
    }
  want = MIN (a->cap * a->size, written + written / steps * POPULATE_STEP + written / steps * POPULATE_STEP / 8);
  if (want > MAX (a->populated, written))
    {
      gsize from = MAX (a->populated, written);

      kymo_mapped_populate (data + from, want - from);
      a->populated = want;
    }
}

/* Pairs the worker's edges in time order: its chains merged through a
 * tournament (a few chains, so a few levels), each edge paired as it
 * comes, nothing copied. */
static void
pair_worker (D9WorkerPairing *p)
{
  g_autoptr(GArray) segs = g_array_new (FALSE, FALSE, sizeof (D9Seg));
  g_autoptr(GArray) heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree D9Leaf *leaves = NULL;
  D9Tourney t;
  gsize steps = 0;
  guint top;
  D9Ahead ahead[3];

  D9Stream s = { (const guint8 *) p->edges, sizeof (D9Edge), G_STRUCT_OFFSET (D9Edge, source) };

  p->w->open_task = G_MAXUINT32;
  reserve_outputs (p);
  if (!d9_chain_runs (&s, p->n_edges, segs, heads))
    {
      D9Seg whole = { 0, p->n_edges, G_MAXUINT32 };
      guint32 zero = 0;

      sort_edges ((D9Edge *) p->edges, p->n_edges);
      g_array_set_size (segs, 0);
      g_array_set_size (heads, 0);
      g_array_append_val (segs, whole);
      g_array_append_val (heads, zero);
    }
  ahead[0] = (D9Ahead) { (guint8 *) p->polls, sizeof (D9Poll), MAX (p->n_edges, 1), 0 };
  ahead[1] = (D9Ahead) { p->w->spans0->data, sizeof (KymoSpan), p->w->spans0->cap, p->w->spans0->len * sizeof (KymoSpan) };
  ahead[2] = (D9Ahead) { (guint8 *) p->w->deep->data, sizeof (D9DeepSpan), p->w->deep->len + p->n_edges,
                         p->w->deep->len * sizeof (D9DeepSpan) };
  leaves = d9_leaves_new (segs, heads, &t);
  for (guint c = 0; c < heads->len; c++)
    {
      leaves[c].released = (const guint8 *) (p->edges + leaves[c].next);
      t.keys[c] = d9_edge_key (p->edges, leaves[c].next);
    }
  d9_tourney_build (&t);
  top = t.tree[0];
  while (t.keys[top] != D9_DONE)
    {
      D9Leaf *leaf = &leaves[top];

      /* With dozens of chains the hardware follows too few streams: each
       * chain's next lines are asked for well before its turn comes. */
      __builtin_prefetch (p->edges + leaf->next + D9_PREFETCH_AHEAD);
      pair_edge (p, leaf->next);
      if (G_UNLIKELY (++steps % POPULATE_STEP == 0))
        {
          populate_ahead (&ahead[0], (guint8 *) p->polls, p->n_polls, steps);
          populate_ahead (&ahead[1], p->w->spans0->data, p->w->spans0->len, steps);
          populate_ahead (&ahead[2], (guint8 *) p->w->deep->data, p->w->deep->len, steps);
        }
      if (G_UNLIKELY (steps % RELEASE_STEP == 0))
        {
          for (guint c = 0; c < heads->len; c++)
            d9_release_leaf ((const guint8 *) p->edges, sizeof (D9Edge), segs, &leaves[c]);
          if (!pairing_progress (p->pg, RELEASE_STEP))
            break;
        }
      top = d9_tourney_replace (&t, d9_leaf_next (leaf, segs) ? d9_edge_key (p->edges, leaf->next) : D9_DONE);
    }
  d9_tourney_clear (&t);
  free_worker_edges (p);
  g_mutex_lock (&p->pg->lock);
  p->pg->walked[p->pg->n_walked++] = p->index;
  g_cond_broadcast (&p->pg->cond);
  g_mutex_unlock (&p->pg->lock);
}

static D9WorkerPairing *
take_walked (D9Pairing *pg)
{
  guint index;

  g_mutex_lock (&pg->lock);
  while (pg->n_taken == pg->n_walked)
    g_cond_wait (&pg->cond, &pg->lock);
  index = pg->walked[pg->n_taken++];
  g_mutex_unlock (&pg->lock);
  return &pg->workers[index];
}

/* The tracks made on first use, in the order of their first use. */
static void
create_tracks (D9Pairing *pg)
{
  D9Loader *l = pg->l;
  g_autoptr(GArray) creations = g_array_new (FALSE, FALSE, sizeof (D9Creation));

  for (guint i = 0; i < pg->n_workers; i++)
    if (pg->workers[i].w->lq_samples->len > 0)
      {
        D9Creation c = { pg->workers[i].first_lq, i };
        g_array_append_val (creations, c);
      }
  if (l->wake_instants->len > 0)
    {
      D9Creation c = { pg->first_wake, D9_FROM_WAKES };
      g_array_append_val (creations, c);
    }
  d9_create_tracks_in_order (l, creations);
}

/* The parts, in the order the threads take them. With threads to spare:
 * the wakes' chains and where they split in two, the caller's (short),
 * the wakes' two halves put in order, each worker's pairing (the
 * largest first), then what @paired does with each worker and the
 * caller's end, which overlap the wakes' pass (on the loading thread,
 * once every worker is paired), then the caller's parts after its end.
 * On one thread, where nothing overlaps, the order that holds the least
 * memory at once: each worker paired and handed over, the wakes' sort
 * and pass, then the caller's parts, end and parts after it. */
typedef enum {
  PART_EXTRA,
  PART_WAKES_PREPARE,
  PART_WAKES,     /* a half, or on one thread (*i == 2) the whole */
  PART_PAIR,      /* and, on one thread, @paired */
  PART_PAIRED,
  PART_END,       /* @extra_end, with threads to spare */
  PART_AFTER,
} PartKind;

static guint
n_parts (const D9Pairing *pg)
{
  return pg->n_extra + 1 + (pg->beside ? 2 * pg->n_workers + 3 : pg->n_workers) + pg->n_after;
}

/* What part @index is, and which of its kind (*@i). */
static PartKind
part_kind (const D9Pairing *pg,
           guint            index,
           guint           *i)
{
  guint nw = pg->n_workers;

  if (!pg->beside)
    {
      *i = index < nw ? index : index == nw ? 2 : index <= nw + pg->n_extra ? index - nw - 1
           : index - nw - 1 - pg->n_extra;
      return index < nw ? PART_PAIR : index == nw ? PART_WAKES : index <= nw + pg->n_extra ? PART_EXTRA : PART_AFTER;
    }
  *i = 0;
  if (index == 0)
    return PART_WAKES_PREPARE;
  if (--index < pg->n_extra)
    {
      *i = index;
      return PART_EXTRA;
    }
  index -= pg->n_extra;
  if (index < 2)
    {
      *i = index;
      return PART_WAKES;
    }
  index -= 2;
  *i = index < 2 * nw ? index % nw : index == 2 * nw ? 0 : index - 2 * nw - 1;
  return index < nw ? PART_PAIR : index < 2 * nw ? PART_PAIRED : index == 2 * nw ? PART_END : PART_AFTER;
}

/* Runs the caller's end unless the load is cancelled; the parts after it
 * may start either way. */
static void
end_extra (D9Pairing *pg)
{
  if (pg->extra_end != NULL && !g_atomic_int_get (&pg->cancel))
    pg->extra_end (pg->extra_data);
  g_mutex_lock (&pg->lock);
  pg->end_done = TRUE;
  g_cond_broadcast (&pg->cond);
  g_mutex_unlock (&pg->lock);
}

static void
run_paired (D9Pairing       *pg,
            D9WorkerPairing *p)
{
  if (!g_atomic_int_get (&pg->cancel))
    pg->paired (p->l, p->w, p->track);
}

static void
pairing_part (guint    index,
              gpointer data)
{
  D9Pairing *pg = data;
  guint i;

  switch (part_kind (pg, index, &i))
    {
    case PART_EXTRA:
      pg->extra (i, pg->extra_data);
      g_mutex_lock (&pg->lock);
      pg->n_extra_done++;
      g_cond_broadcast (&pg->cond);
      g_mutex_unlock (&pg->lock);
      break;
    case PART_WAKES_PREPARE:
      d9_wake_order_prepare (pg);
      break;
    case PART_WAKES:
      if (i == 2)
        {
          d9_wake_order_prepare (pg);
          d9_wake_order_half (pg, 0);
          d9_wake_order_half (pg, 1);
        }
      else
        d9_wake_order_half (pg, i);
      break;
    case PART_PAIR:
      pair_worker (&pg->workers[pg->order[i]]);
      if (!pg->beside)
        run_paired (pg, take_walked (pg));
      break;
    case PART_PAIRED:
      run_paired (pg, take_walked (pg));
      break;
    case PART_END:
      /* Once the caller's parts are done, and every worker paired: what
       * it then takes does not add to what the edges held. Beside the
       * wakes' pass, which interns no name. */
      g_mutex_lock (&pg->lock);
      while (pg->n_extra_done < pg->n_extra || pg->n_walked < pg->n_workers)
        g_cond_wait (&pg->cond, &pg->lock);
      g_mutex_unlock (&pg->lock);
      end_extra (pg);
      break;
    case PART_AFTER:
      /* A thread that would wait for the end to join it waits here
       * instead, and then does this beside whatever else is left. */
      g_mutex_lock (&pg->lock);
      while (!pg->end_done)
        g_cond_wait (&pg->cond, &pg->lock);
      g_mutex_unlock (&pg->lock);
      if (!g_atomic_int_get (&pg->cancel))
        pg->after (i, pg->extra_data);
      break;
    }
}

static gboolean
pairing_join (guint    index,
              gpointer data)
{
  D9Pairing *pg = data;
  guint i, n = n_parts (pg);
  PartKind kind = part_kind (pg, index, &i);
  /* The wakes' pass once the last worker's pairing is joined (and the
   * wakes sorted: they come before it, or just before the pass). */
  gboolean last_pair = pg->beside && pg->n_workers > 0 ? kind == PART_PAIR && i + 1 == pg->n_workers
                       : kind == PART_WAKES && (i == 1 || i == 2);

  if (g_atomic_int_get (&pg->cancel))
    return FALSE;
  if (last_pair)
    {
      if (!d9_resolve_wakes (pg))
        return FALSE;
      create_tracks (pg);
      pg->resolved = TRUE;
    }
  /* On one thread: once the caller's parts are joined, before the parts
   * after its end are decoded. */
  if (!pg->beside && index + 1 == n - pg->n_after)
    end_extra (pg);
  if (!pg->resolved)
    return TRUE;
  return kymo_load_job_progress (pg->l->job, D9_PROGRESS_RESOLVED + 0.02 * (index + 1) / n, "Building the timeline",
                                 pg->error);
}

/* One element of the reference pass: stream i < n_workers is worker i's
 * edges, the last the wakes. */
typedef struct {
  D9Key   key;
  guint32 stream;
} D9RefStep;

static int
compare_steps (const void *a,
               const void *b)
{
  const D9RefStep *x = a, *y = b;

  return x->key < y->key ? -1 : x->key > y->key;
}

static void
pair_reference (D9Loader *l)
{
  guint n_workers = l->workers->len;
  gsize n = l->wakes->len, k = 0;
  g_autofree D9RefStep *steps = NULL;

  for (guint i = 0; i < n_workers; i++)
    n += ((D9Worker *) g_ptr_array_index (l->workers, i))->edges->len;
  steps = g_new (D9RefStep, MAX (n, 1));
  for (guint i = 0; i <= n_workers; i++)
    {
      GArray *a = i < n_workers ? ((D9Worker *) g_ptr_array_index (l->workers, i))->edges : l->wakes;

      for (gsize j = 0; j < a->len; j++)
        {
          const D9Edge *e = &g_array_index (a, D9Edge, 0) + j;
          const D9Wake *wk = &g_array_index (a, D9Wake, 0) + j;

          steps[k].key = i < n_workers ? d9_key (e->ts, e->source, j) : d9_key (wk->ts, wk->source, j);
          steps[k++].stream = i;
        }
    }
  qsort (steps, n, sizeof *steps, compare_steps);
  for (gsize s = 0; s < n; s++)
    {
      gsize j = (gsize) (guint32) steps[s].key;

      if (steps[s].stream == n_workers)
        d9_pair_wake (l, &g_array_index (l->wakes, D9Wake, j));
      else
        d9_pair_edge (l, steps[s].stream, g_ptr_array_index (l->workers, steps[s].stream),
                      &g_array_index (((D9Worker *) g_ptr_array_index (l->workers, steps[s].stream))->edges,
                                      D9Edge, j));
    }
}

static void
free_edges (D9Loader *l)
{
  for (guint i = 0; i < l->workers->len; i++)
    {
      D9Worker *w = g_ptr_array_index (l->workers, i);

      g_array_unref (w->edges);
      w->edges = g_array_new (FALSE, FALSE, sizeof (D9Edge));
    }
  g_array_unref (l->wakes);
  l->wakes = g_array_new (FALSE, FALSE, sizeof (D9Wake));
}

static int
compare_sizes (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  const gsize *sizes = data;
  guint x = *(const guint *) a, y = *(const guint *) b;

  return sizes[x] > sizes[y] ? -1 : sizes[x] < sizes[y] ? 1 : (x > y) - (x < y);
}

gboolean
d9_pair_workers (D9Loader          *l,
                 guint              n_extra,
                 KymoPartFunc       extra,
                 KymoPartStartFunc  extra_end,
                 guint              n_after,
                 KymoPartFunc       after,
                 gpointer           extra_data,
                 D9PairedFunc       paired,
                 GError           **error)
{
  D9Pairing pg = { l, NULL, l->workers->len, g_thread_self (), 0, 0, 0, NULL, n_extra, extra, extra_end, n_after,
                   after, extra_data, paired, D9_DONE, FALSE, error };
  gsize total = l->wakes->len;
  g_autofree gsize *sizes = NULL;
  gboolean ok;

  g_return_val_if_fail (!l->streaming && l->spec == NULL, FALSE);
  g_return_val_if_fail (l->flows->len == 0 && l->wake_instants->len == 0, FALSE);

  if (g_atomic_int_get (&reference_for_testing))
    {
      pair_reference (l);
      free_edges (l);
      for (guint i = 0; i < l->workers->len; i++)
        {
          D9Worker *w = g_ptr_array_index (l->workers, i);

          paired (l, w, kymo_trace_get_track (l->trace, w->track));
        }
      for (guint i = 0; i < n_extra; i++)
        extra (i, extra_data);
      if (extra_end != NULL)
        extra_end (extra_data);
      for (guint i = 0; i < n_after; i++)
        after (i, extra_data);
      return TRUE;
    }

  pg.workers = g_new0 (D9WorkerPairing, pg.n_workers + 1);
  pg.wo.left = 2;
  pg.walked = g_new (guint, pg.n_workers + 1);
  g_mutex_init (&pg.lock);
  g_cond_init (&pg.cond);
  for (guint i = 0; i < pg.n_workers; i++)
    {
      D9WorkerPairing *p = &pg.workers[i];

      p->pg = &pg;
      p->l = l;
      p->w = g_ptr_array_index (l->workers, i);
      p->track = kymo_trace_get_track (l->trace, p->w->track);
      p->index = i;
      p->edges = (const D9Edge *) (gpointer) p->w->edges->data;
      p->n_edges = p->w->edges->len;
      p->open = G_MAXUINT32;
      p->first_lq = D9_DONE;
      g_return_val_if_fail (p->w->lq_samples->len == 0 && p->n_edges < G_MAXUINT32, FALSE);
      total += p->n_edges;
    }
  pg.total = total;
  /* The largest first, so that the threads end together. */
  sizes = g_new (gsize, pg.n_workers + 1);
  pg.order = g_new (guint, pg.n_workers + 1);
  for (guint i = 0; i < pg.n_workers; i++)
    {
      sizes[i] = pg.workers[i].n_edges;
      pg.order[i] = i;
    }
  g_qsort_with_data (pg.order, pg.n_workers, sizeof (guint), compare_sizes, sizes);

  pg.beside = kymo_load_options_get_threads (kymo_load_job_get_options (l->job), total, PAIR_THREAD_MIN) > 1;
  ok = kymo_parts_run_helped (kymo_load_job_get_options (l->job), total, PAIR_THREAD_MIN, n_parts (&pg),
                              pairing_part, pairing_join, NULL, &pg);
  g_assert (!ok || pg.resolved);

  for (guint i = 0; i < pg.n_workers; i++)
    g_free (pg.workers[i].polls);
  g_free (pg.workers);
  g_free (pg.order);
  g_free (pg.walked);
  g_mutex_clear (&pg.lock);
  g_cond_clear (&pg.cond);
  d9_wake_order_clear (&pg.wo);
  free_edges (l);
  return ok;
}
