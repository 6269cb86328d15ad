/* kymo-dial9-wakes.c: the wakes of a pairing, put in time order and
 * resolved against the workers' polls
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include "kymo-dial9-pair.h"
#include "kymo-dial9-pairing-private.h"
#include "kymo-pivot.h"
#include "kymo-run-sort.h"

/* The wakes come as per-thread batches, as a worker's edges do: their
 * chains are merged into time order as two halves at once, split at a
 * key that about halves them, beside the workers' pairing, which needs
 * no wake. What crosses workers waits for one pass in time order, once
 * every worker is paired, over the wakes and the polls the workers noted:
 * the track each wake comes from, and the wake that scheduled each poll
 * (a flow). */

KYMO_DEFINE_RUN_SORT (sort_wakes, D9Wake, D9_TS_LESS)

/* Steps of the wakes' pass between progress reports. */
#define RESOLVE_STEP ((gsize) 1 << 18)

/* The waker's task index in place of its id (G_MAXUINT32 for none), so
 * that the wakes' pass, which runs alone, looks nothing up: what
 * d9_loader_find_task() finds, without filling its table of small ids.
 * The tasks are final once decoding is done, and nothing writes them
 * meanwhile. */
static inline void
index_waker (D9Loader *l,
             D9Wake   *wake)
{
  guint64 id = wake->waker;

  if (id == 0)
    wake->waker = G_MAXUINT32;
  else if (id < l->n_task_direct && l->task_direct[id] != 0)
    wake->waker = l->task_direct[id] - 1;
  else
    wake->waker = d9_map_lookup (&l->d->task_map, id);
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  D9Key x = *(const D9Key *) a, y = *(const D9Key *) b;

  return x < y ? -1 : x > y;
}

static void
read_wake_key (gsize    position,
               gpointer key,
               gpointer user_data)
{
  *(D9Key *) key = d9_wake_key (user_data, position);
}

/* The wakes' chains (the runs of each thread, as for a worker's edges),
 * and where each chain crosses a key that about halves the wakes: those
 * below it and those above can be merged side by side. */
void
d9_wake_order_prepare (D9Pairing *pg)
{
  D9Loader *l = pg->l;
  D9WakeOrder *wo = &pg->wo;
  const D9Wake *wakes = (const D9Wake *) (gpointer) l->wakes->data;
  D9Stream s = { (const guint8 *) wakes, sizeof (D9Wake), G_STRUCT_OFFSET (D9Wake, source) };
  gsize n = l->wakes->len;

  wo->segs = g_array_new (FALSE, FALSE, sizeof (D9Seg));
  wo->heads = g_array_new (FALSE, FALSE, sizeof (guint32));
  wo->chained = d9_chain_runs (&s, n, wo->segs, wo->heads);
  wo->merge = wo->chained && wo->segs->len > 1;
  if (wo->merge)
    {
      guint n_heads = wo->heads->len;

      kymo_pivot_from_probes (n, sizeof wo->pivot, compare_keys, read_wake_key, (gpointer) wakes, &wo->pivot);
      wo->high = g_new0 (D9Leaf, n_heads + 1);
      for (guint c = 0; c < n_heads; c++)
        {
          guint32 at = g_array_index (wo->heads, guint32, c);
          D9Leaf *leaf = &wo->high[c];

          /* Along the chain to the run that crosses the pivot. */
          leaf->seg = G_MAXUINT32;
          while (at != G_MAXUINT32)
            {
              const D9Seg *seg = &g_array_index (wo->segs, D9Seg, at);
              gsize lo = seg->from, hi = seg->to;

              while (lo < hi)
                {
                  gsize mid = lo + (hi - lo) / 2;

                  if (d9_wake_key (wakes, mid) < wo->pivot)
                    lo = mid + 1;
                  else
                    hi = mid;
                }
              wo->n_low += lo - seg->from;
              if (lo < seg->to)
                {
                  *leaf = (D9Leaf) { lo, seg->to, at, at, NULL };
                  break;
                }
              at = seg->next;
            }
        }
      wo->ordered = g_array_sized_new (FALSE, FALSE, sizeof (D9Wake), n);
      g_array_set_size (wo->ordered, n);
    }
  g_mutex_lock (&pg->lock);
  wo->ready = TRUE;
  g_cond_broadcast (&pg->cond);
  g_mutex_unlock (&pg->lock);
}

/* Half @half of the wakes merged into place, each waker's id made its
 * task index; the last half done puts them in the loader's place. */
void
d9_wake_order_half (D9Pairing *pg,
                    guint      half)
{
  D9Loader *l = pg->l;
  D9WakeOrder *wo = &pg->wo;
  D9Wake *wakes = (D9Wake *) (gpointer) l->wakes->data;
  gsize n = l->wakes->len;

  g_mutex_lock (&pg->lock);
  while (!wo->ready)
    g_cond_wait (&pg->cond, &pg->lock);
  g_mutex_unlock (&pg->lock);

  if (!wo->merge && half == 0)
    {
      /* Too many chains to merge, or one run: in order already. */
      if (!wo->chained)
        sort_wakes (wakes, n);
      for (gsize i = 0; i < n; i++)
        index_waker (l, &wakes[i]);
    }
  else if (wo->merge)
    {
      g_autofree D9Leaf *leaves = NULL;
      D9Wake *out = (D9Wake *) (gpointer) wo->ordered->data + (half == 0 ? 0 : wo->n_low);
      /* The first half stops at the pivot; the second starts there. */
      D9Key stop = half == 0 ? wo->pivot : D9_DONE;
      D9Tourney t;
      gsize k = 0;
      guint top;

      leaves = d9_leaves_new (wo->segs, wo->heads, &t);
      for (guint c = 0; c < wo->heads->len; c++)
        {
          if (half == 1)
            leaves[c] = wo->high[c];
          t.keys[c] = half == 1 && leaves[c].seg == G_MAXUINT32 ? D9_DONE : d9_wake_key (wakes, leaves[c].next);
          if (t.keys[c] >= stop)
            t.keys[c] = D9_DONE;
        }
      d9_tourney_build (&t);
      top = t.tree[0];
      while (t.keys[top] != D9_DONE)
        {
          D9Leaf *leaf = &leaves[top];
          D9Key key;

          __builtin_prefetch (wakes + leaf->next + D9_PREFETCH_AHEAD);
          out[k] = wakes[leaf->next];
          index_waker (l, &out[k++]);
          key = d9_leaf_next (leaf, wo->segs) ? d9_wake_key (wakes, leaf->next) : D9_DONE;
          top = d9_tourney_replace (&t, key < stop ? key : D9_DONE);
        }
      d9_tourney_clear (&t);
      g_assert (k == (half == 0 ? wo->n_low : n - wo->n_low));
    }
  if (g_atomic_int_dec_and_test (&wo->left) && wo->merge)
    {
      g_array_unref (l->wakes);
      l->wakes = g_steal_pointer (&wo->ordered);
    }
}

void
d9_wake_order_clear (D9WakeOrder *wo)
{
  g_clear_pointer (&wo->segs, g_array_unref);
  g_clear_pointer (&wo->heads, g_array_unref);
  g_clear_pointer (&wo->high, g_free);
  g_clear_pointer (&wo->ordered, g_array_unref);
}

/* A worker's next poll event (start of poll pos/2, or its end), or
 * D9_DONE. */
static inline D9Key
poll_event_key (const D9WorkerPairing *p,
                gsize                  pos)
{
  const D9Poll *poll;

  if (pos >= 2 * p->n_polls)
    return D9_DONE;
  poll = &p->polls[pos / 2];
  if (pos % 2 == 0)
    return d9_key (poll->start_ts, poll->start_source, 0);
  return poll->ended ? d9_key (poll->end_ts, poll->end_source, 0) : D9_DONE;
}

/* The wakes, in time order with the workers' polls of tasks: where each
 * wake comes from, which poll each wake schedules (a flow). Only the
 * workers that polled a task take part (the blocking pool and other
 * threads poll none): fewer levels to the tournament. */
gboolean
d9_resolve_wakes (D9Pairing *pg)
{
  D9Loader *l = pg->l;
  const D9Wake *wakes = (const D9Wake *) (gpointer) l->wakes->data;
  gsize n_wakes = l->wakes->len, next_wake = 0, steps = 0;
  g_autofree gsize *pos = g_new0 (gsize, pg->n_workers + 1);
  g_autofree guint *polling = g_new (guint, pg->n_workers + 1);
  guint n_polling = 0, wake_leaf;
  D9Tourney t;
  guint top;

  for (guint k = 0; k < pg->n_workers; k++)
    if (pg->workers[k].n_polls > 0)
      polling[n_polling++] = k;
  wake_leaf = n_polling;
  d9_tourney_init (&t, n_polling + 1);
  for (guint k = 0; k < n_polling; k++)
    t.keys[k] = poll_event_key (&pg->workers[polling[k]], 0);
  t.keys[wake_leaf] = n_wakes > 0 ? d9_key (wakes[0].ts, wakes[0].source, 0) : D9_DONE;
  d9_tourney_build (&t);
  top = t.tree[0];
  while (t.keys[top] != D9_DONE)
    {
      D9Key key;

      if (G_UNLIKELY (++steps % RESOLVE_STEP == 0) &&
          !kymo_load_job_progress (l->job, D9_PROGRESS_PAIRED + (D9_PROGRESS_RESOLVED - D9_PROGRESS_PAIRED) * next_wake / MAX (n_wakes, 1),
                                   "Building the timeline", pg->error))
        {
          d9_tourney_clear (&t);
          return FALSE;
        }
      if (top == wake_leaf)
        {
          const D9Wake *wake = &wakes[next_wake];
          /* d9_wake_order_half() made the waker its task index. */
          guint32 waker = (guint32) wake->waker;
          guint32 worker = waker != G_MAXUINT32 ? g_array_index (l->d->tasks, D9Task, waker).worker : G_MAXUINT32;
          KymoInstant instant = { wake->ts, l->name_wake, wake->source };
          guint from;

          if (worker != G_MAXUINT32)
            {
              D9Worker *w = g_ptr_array_index (l->workers, worker);

              *(KymoInstant *) d9_vec_push (w->wakes, sizeof instant) = instant;
              from = worker;
            }
          else
            {
              if (l->wake_instants->len == 0)
                pg->first_wake = t.keys[top];
              *(KymoInstant *) d9_vec_push (l->wake_instants, sizeof instant) = instant;
              from = D9_FROM_WAKES;
            }
          d9_note_woken (l, wake, from);
          next_wake++;
          key = next_wake < n_wakes ? d9_key (wakes[next_wake].ts, wakes[next_wake].source, 0) : D9_DONE;
        }
      else
        {
          guint worker = polling[top];
          D9WorkerPairing *p = &pg->workers[worker];
          const D9Poll *poll = &p->polls[pos[top] / 2];
          D9Task *task = &g_array_index (l->d->tasks, D9Task, poll->task);

          if (pos[top] % 2 == 0)
            {
              task->worker = worker;
              task->polls++;
              if (task->wake_track != KYMO_NO_TRACK)
                {
                  D9Flow flow = { task->wake_ts, poll->start_ts, task->wake_track, worker,
                                  task->wake_source, 0 };

                  *(D9Flow *) d9_vec_push (l->flows, sizeof flow) = flow;
                  task->wake_track = KYMO_NO_TRACK;
                }
            }
          else
            task->worker = G_MAXUINT32;
          key = poll_event_key (p, ++pos[top]);
        }
      top = d9_tourney_replace (&t, key);
    }
  d9_tourney_clear (&t);
  return TRUE;
}
