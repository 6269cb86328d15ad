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
#include "kymo-parts.h"

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

/* Threads are built on the load's threads below this many index bytes
 * only when asked for explicitly. */
#define PARALLEL_MIN (256 * 1024)

/* The threads of every process, built side by side as the parts of one
 * run (kymo-parts.h): each has its own tracks, made before, and only the
 * join, in thread order on the loading thread, interns names. */
typedef struct {
  KymoTrace       *trace;
  KymoLoadJob     *job;
  GThread         *loader;
  AtfThread      **threads;
  AtfBuild       **builds;
  guint           *process_of;  /* each thread's process */
  /* Each process's names table, the latest one: the join replaces it
   * with one that also holds the functions the threads joined so far
   * met, so that threads decoded after need no local names for them.
   * The ids do not change with the table a thread starts from: a name is
   * interned in the join, in the order the thread first used it. */
  AtfNames       **current;
  GPtrArray       *learned;     /* AtfNames*: the tables replaced, kept until the end */
  AtfBuildResult  *results;
  AtfProgress      progress;
  GError          *error;     /* set on the loading thread only */
} AtfRun;

static void
names_free (gpointer data)
{
  _kymo_atf_names_clear (data);
  g_free (data);
}

static void
decode_thread (guint    index,
               gpointer user_data)
{
  AtfRun *run = user_data;
  /* The loading thread reports progress (and notices a cancel) itself. */
  gboolean loader = g_thread_self () == run->loader;
  const AtfNames *names = g_atomic_pointer_get (&run->current[run->process_of[index]]);

  run->results[index] = _kymo_atf_build_match_parallel (run->builds[index], names, &run->progress,
                                                        loader ? run->job : NULL,
                                                        loader && run->error == NULL ? &run->error : NULL);
}

static gboolean
join_thread (guint    index,
             gpointer user_data)
{
  AtfRun *run = user_data;
  AtfBuild *b = run->builds[index];
  guint p = run->process_of[index];
  gboolean ok = TRUE;
  guint64 done;

  switch (run->results[index])
    {
    case ATF_BUILD_DONE:
      if (_kymo_atf_build_learns (b))
        {
          AtfNames *next = g_new (AtfNames, 1);

          _kymo_atf_names_copy (next, run->current[p]);
          _kymo_atf_build_intern_names (b, run->trace, next);
          kymo_trace_intern (run->trace, "detail record");
          _kymo_atf_names_take_texts (next);
          g_ptr_array_add (run->learned, next);
          g_atomic_pointer_set (&run->current[p], next);
        }
      else
        {
          _kymo_atf_build_intern_names (b, run->trace, NULL);
          kymo_trace_intern (run->trace, "detail record");
        }
      break;
    case ATF_BUILD_BLOCKED:
      ok = _kymo_atf_build_match (b, run->current[p], &run->progress, run->job,
                                  run->error == NULL ? &run->error : NULL);
      break;
    case ATF_BUILD_STOPPED:
    default:
      ok = FALSE;
      break;
    }
  if (ok)
    {
      _kymo_atf_warn_thread (run->trace, run->threads[index], _kymo_atf_build_warnings (b));
      /* A thread whose spans link to detail records holds 8 bytes a span
       * until it is finished: finished now when it can be, as before.
       * Others are finished side by side once every thread is joined. */
      if (_kymo_atf_build_has_links (b) && !_kymo_atf_build_is_open (b))
        _kymo_atf_build_finish (b, KYMO_TIME_NONE);
      else
        _kymo_atf_build_trim (b);
      done = g_atomic_pointer_get (&run->progress.done);
      ok = kymo_load_job_progress (run->job, (double) MIN (done, run->progress.total) / MAX (run->progress.total, 1),
                                   "Reading calls", run->error == NULL ? &run->error : NULL);
    }
  /* The workers stop at their next progress step. */
  if (!ok)
    g_atomic_int_set (&run->progress.cancelled, 1);
  return ok;
}

typedef struct {
  AtfBuild **builds;
  KymoTime   trace_end;
} AtfFinishRun;

static void
finish_thread (guint    index,
               gpointer user_data)
{
  AtfFinishRun *run = user_data;

  _kymo_atf_build_finish (run->builds[index], run->trace_end);
}

static gboolean
load (KymoLoadJob  *job,
      KymoTrace    *trace,
      GError      **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  g_autoptr(GPtrArray) processes = NULL;
  g_autoptr(GError) damage = NULL;
  g_autofree AtfManifest *manifests = NULL;
  g_autofree AtfNames *names = NULL;
  AtfRun run = { 0 };
  AtfData *data;
  KymoTime trace_end = KYMO_TIME_NONE;
  guint64 total = 0;
  guint n_threads = 0, n_symbols = 0;
  g_autofree char *version = NULL;
  guint8 arch = 0, os = 0, clock = 0;
  gboolean ok;

  processes = _kymo_atf_discover (input, error);
  if (processes == NULL)
    return FALSE;

  data = g_new0 (AtfData, 1);
  data->threads = g_ptr_array_new_with_free_func (_kymo_atf_thread_free);
  data->track_thread = g_array_new (FALSE, FALSE, sizeof (guint));
  kymo_trace_set_format_data (trace, data, atf_data_free);

  /* First every file: the end of the trace (where calls that never returned
   * end) must be known before any thread is finished. */
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

  /* Then every track and every process's names: building adds neither,
   * so the threads can be built side by side. */
  n_threads = data->threads->len;
  names = g_new0 (AtfNames, processes->len);
  run.trace = trace;
  run.job = job;
  run.loader = g_thread_self ();
  run.threads = (AtfThread **) data->threads->pdata;
  run.builds = g_new0 (AtfBuild *, MAX (n_threads, 1));
  run.process_of = g_new0 (guint, MAX (n_threads, 1));
  run.current = g_new0 (AtfNames *, processes->len);
  run.learned = g_ptr_array_new_with_free_func (names_free);
  run.results = g_new0 (AtfBuildResult, MAX (n_threads, 1));
  run.progress.total = total;
  for (guint p = 0, ti = 0; p < processes->len; p++)
    {
      AtfProcessSource *process = g_ptr_array_index (processes, p);
      guint group = KYMO_NO_TRACK;

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

      _kymo_atf_names_init (&names[p], trace, &manifests[p]);
      run.current[p] = &names[p];
      for (guint i = 0; i < process->threads->len; i++, ti++)
        {
          AtfThread *t = run.threads[ti];
          g_autofree char *name = g_strdup_printf ("Thread %u", t->number);
          KymoTrack *track;

          t->track = kymo_trace_add_track (trace, group, KYMO_TRACK_THREAD, name);
          track = kymo_trace_get_track (trace, t->track);
          kymo_track_set_sort_key (track, t->number);
          kymo_track_set_tag (track, t->number);
          if (t->detail.n_records > 0)
            t->detail_track = kymo_trace_add_track (trace, t->track, KYMO_TRACK_INSTANT, "Detail records");
          run.builds[ti] = _kymo_atf_build_new (trace, t);
          run.process_of[ti] = p;
        }
    }

  {
    g_autoptr(KymoParts) parts = kymo_parts_new (kymo_load_job_get_options (job), total * ATF_EVENT_SIZE,
                                                 PARALLEL_MIN, n_threads, 0, decode_thread, &run);

    /* A thread's spans go straight to its track whoever decodes it, so the
     * loading thread decodes what it can while it waits. */
    kymo_parts_set_help (parts, TRUE);
    ok = TRUE;
    for (guint i = 0; i < n_threads && ok; i++)
      {
        kymo_parts_wait (parts, i);
        ok = join_thread (i, &run);
        kymo_parts_release (parts, i);
      }
  }
  if (ok)
    {
      AtfFinishRun finish = { run.builds, KYMO_TIME_NONE };

      for (guint i = 0; i < n_threads; i++)
        trace_end = MAX (trace_end, _kymo_atf_build_max_ts (run.builds[i]));
      /* Each thread's finish touches its own tracks and tables only, and
       * renaming every span of a thread that took local names is a pass
       * over all of them (3.7% of the load's CPU time on the 5M-span
       * session without symbols, all of it on the loading thread). */
      finish.trace_end = trace_end;
      kymo_parts_run (kymo_load_job_get_options (job), total * ATF_EVENT_SIZE, PARALLEL_MIN, n_threads, 0,
                      finish_thread, NULL, &finish);
    }
  else if (run.error != NULL)
    g_propagate_error (error, g_steal_pointer (&run.error));
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Cancelled");

  for (guint i = 0; i < n_threads; i++)
    _kymo_atf_build_free (run.builds[i]);
  g_free (run.builds);
  g_free (run.process_of);
  g_free (run.current);
  g_ptr_array_unref (run.learned);
  g_free (run.results);
  g_clear_error (&run.error);
  for (guint p = 0; p < processes->len; p++)
    {
      _kymo_atf_names_clear (&names[p]);
      _kymo_atf_manifest_clear (&manifests[p]);
    }
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
