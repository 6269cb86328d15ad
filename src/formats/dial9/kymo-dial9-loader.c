/* kymo-dial9-loader.c: a decode's loader: made and cleared, and the workers, tasks and
 * named tracks it makes on first use
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>

#include "kymo-dial9-decode.h"
#include "kymo-dial9-side.h"


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
  if (l->spec != NULL)
    {
      w->part_edges = d9_vec_new ();
      w->part_instants = d9_vec_new ();
      w->part_edges->map_from = w->part_instants->map_from = l->map_from;
    }
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
  if (G_UNLIKELY (l->spec != NULL))
    {
      /* A part has no trace: its tracks are numbered in the order it
       * made them, which the merge replays (d9_merge_part). */
      D9SpecTrack t = { name, kind };

      track = l->spec->tracks->len;
      g_array_append_val (l->spec->tracks, t);
      g_hash_table_insert (l->tracks_by_name, GUINT_TO_POINTER (name), GUINT_TO_POINTER (track + 1));
      return track;
    }
  track = kymo_trace_add_track (l->trace, KYMO_NO_TRACK, kind, kymo_trace_get_name (l->trace, name));
  /* After the runtimes. */
  kymo_track_set_sort_key (kymo_trace_get_track (l->trace, track), 1000);
  g_hash_table_insert (l->tracks_by_name, GUINT_TO_POINTER (name), GUINT_TO_POINTER (track + 1));
  return track;
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
  g_clear_pointer (&w->part_edges, d9_vec_free);
  g_clear_pointer (&w->part_instants, d9_vec_free);
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

void
d9_loader_init (D9Loader    *l,
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
  if (spec != NULL)
    {
      l->part_wakes = d9_vec_new ();
      l->part_wakes->map_from = l->map_from;
    }
  l->runtimes = g_ptr_array_new_with_free_func (loader_free_runtime);
  d9_side_init (l);
  l->min_ts = G_MAXINT64;
  l->max_ts = G_MININT64;
  l->default_group = KYMO_NO_TRACK;
  l->wakes_track = KYMO_NO_TRACK;
  l->queue_track = KYMO_NO_TRACK;
  l->name_poll = d9_intern_len (l, "poll", -1);
  l->name_parked = d9_intern_len (l, "parked", -1);
  l->name_wake = d9_intern_len (l, "wake", -1);
  l->name_cpu = d9_intern_len (l, "CPU sample", -1);
  l->name_sched = d9_intern_len (l, "scheduler event", -1);
}

void
d9_loader_clear (D9Loader *l)
{
  g_clear_pointer (&l->kept, d9_kept_free);
  g_array_unref (l->models);
  g_ptr_array_unref (l->workers);
  d9_map_clear (&l->worker_map);
  g_free (l->task_direct);
  g_array_unref (l->wakes);
  g_clear_pointer (&l->part_wakes, d9_vec_free);
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
