/* kymo-format-atf.c: ADA Trace Format v2 sessions
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A session is a folder per process (pid_N/) with a manifest.json naming the
 * functions, and per thread a thread_N/index.atf of 32-byte CALL / RETURN /
 * EXCEPTION records plus an optional detail.atf of register and stack
 * snapshots. Index and detail records name each other by sequence number;
 * the model keeps that link (see kymo-atf.h).
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-formats.h"
#include "kymo-atf.h"
#include "kymo-atf-model.h"
#include "kymo-byte-reader.h"

static const char * const atf_patterns[] = { "*.atf", "manifest.json", NULL };

void
_kymo_atf_thread_free (gpointer data)
{
  AtfThread *t = data;

  _kymo_atf_detail_clear (&t->detail);
  g_clear_pointer (&t->index_bytes, g_bytes_unref);
  g_clear_pointer (&t->detail_bytes, g_bytes_unref);
  g_clear_pointer (&t->det_instant, g_free);
  g_clear_pointer (&t->det_target, g_free);
  g_clear_pointer (&t->ret_links, g_hash_table_unref);
  g_free (t);
}

static void
atf_data_free (gpointer data)
{
  AtfData *self = data;

  g_ptr_array_unref (self->threads);
  g_array_unref (self->track_thread);
  g_free (self);
}

AtfThread *
_kymo_atf_data_lookup (AtfData  *data,
                       guint     track,
                       gboolean *is_detail_track)
{
  AtfThread *t;
  guint i;

  if (data == NULL || track >= data->track_thread->len)
    return NULL;
  i = g_array_index (data->track_thread, guint, track);
  if (i == G_MAXUINT)
    return NULL;
  t = g_ptr_array_index (data->threads, i);
  if (is_detail_track)
    *is_detail_track = t->detail_track == track;
  return t;
}

static guint
detect (KymoInput *input)
{
  if (input->is_dir)
    {
      g_autoptr(GPtrArray) found = _kymo_atf_discover (input, NULL);
      return found != NULL ? 90 : 0;
    }
  if (input->main.size >= 4 && memcmp (input->main.data, "ATI2", 4) == 0)
    return 100;
  if (input->main.size >= 4 && memcmp (input->main.data, "ATD2", 4) == 0)
    return 90;
  if (input->main.file != NULL)
    switch (_kymo_atf_json_kind (input->main.data, input->main.size))
      {
      case ATF_JSON_BUNDLE:
        return 90;
      case ATF_JSON_SESSION:
        return 85;
      case ATF_JSON_NONE:
      default:
        return 0;
      }
  return 0;
}

/* Maps one file of a thread; NULL (with the reason in @damage) when it
 * cannot be read. */
static GBytes *
open_part (GBytes     *preloaded,
           const char *path,
           AtfDamage  *damage)
{
  g_autoptr(GError) local_error = NULL;
  GBytes *bytes;

  if (preloaded != NULL)
    return g_bytes_ref (preloaded);
  if (path == NULL)
    return NULL;
  bytes = _kymo_atf_map (path, &local_error);
  if (bytes == NULL)
    _kymo_atf_damage_set (damage, KYMO_LOAD_ERROR_IO, KYMO_NO_OFFSET, "%s", local_error->message);
  return bytes;
}

/* Opens and checks both files of a thread. Damage goes to @error (the first
 * one wins); what is readable stays usable. */
static AtfThread *
open_thread (AtfProcessSource *process,
             AtfThreadSource  *source,
             GError          **error)
{
  AtfThread *t = g_new0 (AtfThread, 1);
  AtfDamage damage = { 0 };

  t->number = source->number;
  t->pid = process->pid;
  t->track = KYMO_NO_TRACK;
  t->detail_track = KYMO_NO_TRACK;
  t->ret_links = g_hash_table_new (NULL, NULL);

  t->index_bytes = open_part (source->index_bytes, source->index_path, &damage);
  if (t->index_bytes != NULL)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (t->index_bytes, &size);

      if (!_kymo_atf_index_parse (&t->index, data, size, &damage))
        memset (&t->index, 0, sizeof t->index);
    }
  if (damage.message != NULL && error && *error == NULL)
    _kymo_atf_damage_to_error (&damage, source->index_path, error);
  _kymo_atf_damage_clear (&damage);

  t->detail_bytes = open_part (source->detail_bytes, source->detail_path, &damage);
  if (t->detail_bytes != NULL)
    {
      gsize size;
      const guint8 *data = g_bytes_get_data (t->detail_bytes, &size);

      if (!_kymo_atf_detail_parse (&t->detail, data, size, &damage))
        _kymo_atf_detail_clear (&t->detail);
    }
  if (damage.message != NULL && error && *error == NULL)
    _kymo_atf_damage_to_error (&damage, source->detail_path, error);
  _kymo_atf_damage_clear (&damage);
  return t;
}

static void
load_manifest (KymoTrace        *trace,
               AtfProcessSource *process,
               AtfManifest      *manifest)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *data;
  gsize size;

  if (process->manifest_path == NULL)
    {
      if (process->dir != NULL && process->pid >= 0)
        kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                                "%s: no manifest.json: functions are shown by their ids", process->dir);
      return;
    }
  bytes = _kymo_atf_map (process->manifest_path, &local_error);
  data = bytes ? g_bytes_get_data (bytes, &size) : NULL;
  if (data == NULL || !_kymo_atf_manifest_parse (manifest, data, size, &local_error))
    {
      kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                              "%s: %s: functions are shown by their ids",
                              process->manifest_path, local_error ? local_error->message : "unreadable");
      return;
    }
  if (manifest->function_ids->len == 0)
    kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                            "%s: no symbols: functions are shown by their ids", process->manifest_path);
}

static const char *
arch_name (guint8 arch)
{
  return arch == 1 ? "x86_64" : arch == 2 ? "arm64" : "unknown";
}

static const char *
os_name (guint8 os)
{
  static const char * const names[] = { "unknown", "iOS", "Android", "macOS", "Linux", "Windows" };
  return os < G_N_ELEMENTS (names) ? names[os] : "unknown";
}

static const char *
clock_name (guint8 clock)
{
  static const char * const names[] = { "unknown", "mach_continuous", "qpc", "boottime" };
  return clock < G_N_ELEMENTS (names) ? names[clock] : "unknown";
}

static KymoTime
detail_max_ts (const AtfDetailFile *detail)
{
  KymoTime max = KYMO_TIME_NONE;

  for (guint32 j = 0; j < detail->n_records; j++)
    {
      guint64 ts = kymo_read_u64le (detail->data + detail->offsets[j] + 16);
      KymoTime clamped = ts > G_MAXINT64 ? G_MAXINT64 : (KymoTime) ts;

      max = MAX (max, clamped);
    }
  return max;
}

typedef struct {
  const AtfIndexFile *index;
  guint32            *order;
  KymoTime            max_ts;
} AtfOrderTask;

static void
order_run (gpointer data,
           gpointer user_data)
{
  AtfOrderTask *task = data;

  task->order = _kymo_atf_time_order (task->index, &task->max_ts);
}

/* Each thread's records in time order (into @orders), side by side: a pass
 * over every index file. Returns the latest timestamp. */
static KymoTime
time_order_all (GPtrArray *threads,
                GPtrArray *orders,
                guint      cpus)
{
  g_autofree AtfOrderTask *tasks = g_new0 (AtfOrderTask, MAX (threads->len, 1));
  KymoTime max_ts = KYMO_TIME_NONE;

  for (guint i = 0; i < threads->len; i++)
    {
      tasks[i].index = &((AtfThread *) g_ptr_array_index (threads, i))->index;
      tasks[i].max_ts = KYMO_TIME_NONE;
    }
  if (threads->len > 1 && cpus > 1)
    {
      GThreadPool *pool = g_thread_pool_new (order_run, NULL, (gint) MIN (threads->len, cpus),
                                             FALSE, NULL);

      for (guint i = 0; i < threads->len; i++)
        g_thread_pool_push (pool, &tasks[i], NULL);
      g_thread_pool_free (pool, FALSE, TRUE);
    }
  else
    for (guint i = 0; i < threads->len; i++)
      order_run (&tasks[i], NULL);

  for (guint i = 0; i < threads->len; i++)
    {
      g_ptr_array_add (orders, tasks[i].order);
      max_ts = MAX (max_ts, tasks[i].max_ts);
    }
  return max_ts;
}

/* Building threads in parallel: each thread has its own tracks, and the
 * trace's shared state (names, warnings) is only read meanwhile. */
typedef struct {
  const AtfNames *names;
  AtfProgress     progress;
  GMutex          lock;
  GCond           cond;
  guint           pending;
} AtfPool;

typedef struct {
  AtfBuild       *build;
  AtfBuildResult  result;
} AtfPoolTask;

static void
pool_run (gpointer data,
          gpointer user_data)
{
  AtfPoolTask *task = data;
  AtfPool *pool = user_data;

  task->result = _kymo_atf_build_match_parallel (task->build, pool->names, &pool->progress);
  g_mutex_lock (&pool->lock);
  pool->pending--;
  g_cond_signal (&pool->cond);
  g_mutex_unlock (&pool->lock);
}

/* Matches @n threads on up to one thread per core; the loading thread
 * reports progress meanwhile, then takes the results in thread order,
 * matching again (interning as it goes) those that needed new names. */
static gboolean
match_threads_parallel (KymoLoadJob  *job,
                        KymoTrace    *trace,
                        AtfBuild    **builds,
                        AtfThread   **threads_of,
                        guint         n,
                        AtfNames     *names,
                        guint64      *done,
                        guint64       total,
                        guint         cpus,
                        GError      **error)
{
  g_autofree AtfPoolTask *tasks = g_new0 (AtfPoolTask, n);
  AtfPool pool = { 0 };
  GThreadPool *threads;
  gboolean ok = TRUE;

  pool.names = names;
  pool.pending = n;
  g_mutex_init (&pool.lock);
  g_cond_init (&pool.cond);

  threads = g_thread_pool_new (pool_run, &pool, (gint) MIN (n, cpus), FALSE, NULL);
  for (guint i = 0; i < n; i++)
    {
      tasks[i].build = builds[i];
      g_thread_pool_push (threads, &tasks[i], NULL);
    }

  g_mutex_lock (&pool.lock);
  while (pool.pending > 0)
    {
      g_cond_wait_until (&pool.cond, &pool.lock, g_get_monotonic_time () + 20 * G_TIME_SPAN_MILLISECOND);
      if (pool.pending > 0 && ok)
        {
          guint64 now = *done + (guint64) g_atomic_pointer_get (&pool.progress.done);

          g_mutex_unlock (&pool.lock);
          if (!kymo_load_job_progress (job, (double) MIN (now, total) / MAX (total, 1), "Reading calls", error))
            {
              ok = FALSE;
              g_atomic_int_set (&pool.progress.cancelled, 1);
            }
          g_mutex_lock (&pool.lock);
        }
    }
  g_mutex_unlock (&pool.lock);
  g_thread_pool_free (threads, FALSE, TRUE);
  g_mutex_clear (&pool.lock);
  g_cond_clear (&pool.cond);

  for (guint i = 0; i < n && ok; i++)
    {
      AtfThread *t = threads_of[i];

      switch (tasks[i].result)
        {
        case ATF_BUILD_DONE:
          *done += t->index.n_events;
          _kymo_atf_build_intern_names (builds[i], trace);
          kymo_trace_intern (trace, "detail record");
          _kymo_atf_warn_thread (trace, t, _kymo_atf_build_warnings (builds[i]));
          break;
        case ATF_BUILD_BLOCKED:
          ok = _kymo_atf_build_match (builds[i], names, job, done, total, error);
          if (ok)
            _kymo_atf_warn_thread (trace, t, _kymo_atf_build_warnings (builds[i]));
          break;
        case ATF_BUILD_STOPPED:
        default:
          ok = FALSE;
          break;
        }
    }
  /* Only a cancellation stops a worker, and then @error is set above. */
  return ok;
}

typedef struct {
  AtfBuild *build;
  KymoTime  trace_end;
} AtfFinishTask;

static void
finish_run (gpointer data,
            gpointer user_data)
{
  AtfFinishTask *task = data;

  _kymo_atf_build_finish (task->build, task->trace_end);
}

/* Adds every thread's spans, side by side when there are several. */
static void
finish_threads (AtfBuild **builds,
                guint      n,
                KymoTime   trace_end,
                guint      cpus)
{
  g_autofree AtfFinishTask *tasks = g_new0 (AtfFinishTask, MAX (n, 1));

  for (guint i = 0; i < n; i++)
    {
      tasks[i].build = builds[i];
      tasks[i].trace_end = trace_end;
    }
  if (n > 1 && cpus > 1)
    {
      GThreadPool *pool = g_thread_pool_new (finish_run, NULL, (gint) MIN (n, cpus),
                                             FALSE, NULL);

      for (guint i = 0; i < n; i++)
        g_thread_pool_push (pool, &tasks[i], NULL);
      g_thread_pool_free (pool, FALSE, TRUE);
    }
  else
    for (guint i = 0; i < n; i++)
      finish_run (&tasks[i], NULL);
}

static gboolean
load (KymoLoadJob  *job,
      KymoTrace    *trace,
      GError      **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  g_autoptr(GPtrArray) processes = NULL;
  g_autoptr(GPtrArray) orders = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) damage = NULL;
  g_autofree AtfManifest *manifests = NULL;
  AtfData *data;
  KymoTime trace_end = KYMO_TIME_NONE;
  guint64 total = 0, done = 0;
  guint n_threads = 0, n_symbols = 0;
  g_autofree char *version = NULL;
  guint8 arch = 0, os = 0, clock = 0;
  gboolean ok = TRUE, fused;
  AtfChunkPool *pool;
  /* Threads are built side by side, one per processor (or as asked). */
  guint cpus = kymo_load_options_get_threads (kymo_load_job_get_options (job), G_MAXSIZE, 0);

  processes = _kymo_atf_discover (input, error);
  if (processes == NULL)
    return FALSE;

  data = g_new0 (AtfData, 1);
  data->threads = g_ptr_array_new_with_free_func (_kymo_atf_thread_free);
  data->track_thread = g_array_new (FALSE, FALSE, sizeof (guint));
  kymo_trace_set_format_data (trace, data, atf_data_free);

  /* First every file: the end of the trace (where calls that never returned
   * end) must be known before any thread is built. */
  manifests = g_new0 (AtfManifest, processes->len);
  for (guint p = 0; p < processes->len; p++)
    {
      AtfProcessSource *process = g_ptr_array_index (processes, p);

      _kymo_atf_manifest_init (&manifests[p]);
      load_manifest (trace, process, &manifests[p]);
      if (manifests[p].format_version && version == NULL)
        version = g_strdup (manifests[p].format_version);
      n_symbols += manifests[p].function_ids->len;

      for (guint i = 0; i < process->threads->len; i++)
        {
          AtfThread *t = open_thread (process, g_ptr_array_index (process->threads, i), &damage);

          if (t->index.data != NULL && !t->index.has_footer)
            kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE,
                                    "Thread %u: index.atf has no footer (the writer did not finish): "
                                    "%u events counted from the file size", t->number, t->index.n_events);
          g_ptr_array_add (data->threads, t);
          trace_end = MAX (trace_end, detail_max_ts (&t->detail));
          total += t->index.n_events;
          if (t->index.data && arch == 0)
            {
              arch = t->index.arch;
              os = t->index.os;
              clock = t->index.clock_type;
            }
          else if (arch == 0 && t->detail.data)
            arch = t->detail.arch;
        }
    }

  /* One process with several threads: each thread's matching checks its
   * file's time order and finds its latest record, so the end of the trace
   * is known once they are all matched. Otherwise (several processes are
   * built one after another) a pass over every file finds it first. */
  fused = processes->len == 1 && data->threads->len > 1 && cpus > 1;
  if (!fused)
    trace_end = MAX (trace_end, time_order_all (data->threads, orders, cpus));

  pool = _kymo_atf_chunk_pool_new ();
  for (guint p = 0, ti = 0; p < processes->len && ok; p++)
    {
      AtfProcessSource *process = g_ptr_array_index (processes, p);
      guint n = process->threads->len;
      g_autofree AtfBuild **builds = g_new0 (AtfBuild *, MAX (n, 1));
      AtfThread **threads_of = (AtfThread **) data->threads->pdata + ti;
      guint group = KYMO_NO_TRACK;
      AtfNames names;

      if (process->pid >= 0)
        {
          g_autofree char *name = g_strdup_printf ("Process %" G_GINT64_FORMAT, process->pid);
          KymoTrack *track;

          group = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, name);
          track = kymo_trace_get_track (trace, group);
          kymo_track_set_group_kind (track, "process");
          kymo_track_set_sort_key (track, process->pid);
          kymo_track_set_tag (track, (guint64) process->pid);
        }

      _kymo_atf_names_init (&names, trace, &manifests[p]);
      /* Building adds no tracks: make them all first, so that the threads
       * can be built side by side. */
      for (guint i = 0; i < n; i++)
        {
          AtfThread *t = threads_of[i];
          g_autofree char *name = g_strdup_printf ("Thread %u", t->number);
          KymoTrack *track;

          t->track = kymo_trace_add_track (trace, group, KYMO_TRACK_THREAD, name);
          track = kymo_trace_get_track (trace, t->track);
          kymo_track_set_sort_key (track, t->number);
          kymo_track_set_tag (track, t->number);
          if (t->detail.n_records > 0)
            t->detail_track = kymo_trace_add_track (trace, t->track, KYMO_TRACK_INSTANT, "Detail records");
          n_threads++;
          builds[i] = _kymo_atf_build_new (trace, t, fused ? NULL : g_steal_pointer (&g_ptr_array_index (orders, ti + i)),
                                           !fused);
          _kymo_atf_build_set_pool (builds[i], pool);
        }
      if (n > 1 && cpus > 1)
        ok = match_threads_parallel (job, trace, builds, threads_of, n, &names, &done, total, cpus, error);
      else
        for (guint i = 0; i < n && ok; i++)
          {
            ok = _kymo_atf_build_match (builds[i], &names, job, &done, total, error);
            if (ok)
              _kymo_atf_warn_thread (trace, threads_of[i], _kymo_atf_build_warnings (builds[i]));
          }
      if (ok)
        {
          for (guint i = 0; i < n; i++)
            trace_end = MAX (trace_end, _kymo_atf_build_max_ts (builds[i]));
          finish_threads (builds, n, trace_end, cpus);
        }
      for (guint i = 0; i < n; i++)
        _kymo_atf_build_free (builds[i]);
      ti += n;
      _kymo_atf_names_clear (&names);
    }
  _kymo_atf_chunk_pool_free (pool);

  for (guint p = 0; p < processes->len; p++)
    _kymo_atf_manifest_clear (&manifests[p]);
  if (!ok)
    return FALSE;

  g_array_set_size (data->track_thread, kymo_trace_get_n_tracks (trace));
  for (guint i = 0; i < data->track_thread->len; i++)
    g_array_index (data->track_thread, guint, i) = G_MAXUINT;
  for (guint i = 0; i < data->threads->len; i++)
    {
      AtfThread *t = g_ptr_array_index (data->threads, i);

      if (t->track != KYMO_NO_TRACK)
        g_array_index (data->track_thread, guint, t->track) = i;
      if (t->detail_track != KYMO_NO_TRACK)
        g_array_index (data->track_thread, guint, t->detail_track) = i;
    }

  kymo_trace_set_variant (trace, version ? version : "2");
  kymo_trace_set_metadata (trace, "arch", arch_name (arch));
  kymo_trace_set_metadata (trace, "os", os_name (os));
  kymo_trace_set_metadata (trace, "clock", clock_name (clock));
  {
    g_autofree char *n_proc = g_strdup_printf ("%u", processes->len);
    g_autofree char *n_thr = g_strdup_printf ("%u", n_threads);
    g_autofree char *n_sym = g_strdup_printf ("%u", n_symbols);

    kymo_trace_set_metadata (trace, "processes", n_proc);
    kymo_trace_set_metadata (trace, "threads", n_thr);
    kymo_trace_set_metadata (trace, "symbols", n_sym);
  }

  /* The link tables need the final positions of the detail instants. */
  kymo_trace_seal (trace);
  for (guint i = 0; i < data->threads->len; i++)
    _kymo_atf_index_details (trace, g_ptr_array_index (data->threads, i));

  if (damage != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&damage));
      return FALSE;
    }
  return TRUE;
}

const KymoFormat kymo_format_atf = {
  .name = "atf",
  .title = N_("ATF trace (ADA)"),
  .patterns = atf_patterns,
  .detect = detect,
  .load = load,
  .dump = _kymo_atf_dump,
  .describe = _kymo_atf_describe,
  .follow_link = _kymo_atf_follow_link,
};
