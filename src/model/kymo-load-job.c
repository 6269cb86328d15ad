/* kymo-load-job.c: what a decoder sees of the load it runs in
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-load-job"

#include "config.h"

#include "kymo-input.h"
#include "kymo-load-job-private.h"

/* Listeners hear about progress at most this often (µs). */
#define PROGRESS_INTERVAL (G_USEC_PER_SEC / 10)

G_DEFINE_QUARK (kymo-load-error-quark, kymo_load_error)

void
_kymo_load_job_init (KymoLoadJob           *job,
                     KymoInput             *input,
                     const KymoLoadOptions *options,
                     KymoProgressFunc       progress,
                     gpointer               progress_data,
                     GCancellable          *cancellable)
{
  memset (job, 0, sizeof *job);
  job->input = kymo_input_ref (input);
  if (options)
    {
      job->options.format = g_strdup (options->format);
      job->options.tband_mode = g_strdup (options->tband_mode);
      job->options.show_internal = options->show_internal;
      job->options.threads = options->threads;
    }
  job->cancellable = cancellable ? g_object_ref (cancellable) : NULL;
  job->progress = progress;
  job->progress_data = progress_data;
  g_mutex_init (&job->progress_lock);
  job->warnings = g_ptr_array_new_with_free_func (g_free);
}

void
_kymo_load_job_clear (KymoLoadJob *job)
{
  g_clear_pointer (&job->input, kymo_input_unref);
  g_free ((char *) job->options.format);
  g_free ((char *) job->options.tband_mode);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->warnings, g_ptr_array_unref);
  g_clear_pointer (&job->last_message, g_free);
  g_mutex_clear (&job->progress_lock);
}

/* More would only wait on each other: the merges are in file order. */
#define MAX_THREADS 64

guint
kymo_load_options_get_threads (const KymoLoadOptions *options,
                               gsize                  size,
                               gsize                  parallel_min)
{
  if (options != NULL && options->threads > 0)
    return MIN (options->threads, MAX_THREADS);
  if (size < parallel_min)
    return 1;
  return CLAMP (g_get_num_processors (), 1, MAX_THREADS);
}

KymoInput *
kymo_load_job_get_input (KymoLoadJob *job)
{
  return job->input;
}

const KymoLoadOptions *
kymo_load_job_get_options (KymoLoadJob *job)
{
  return &job->options;
}

GCancellable *
kymo_load_job_get_cancellable (KymoLoadJob *job)
{
  return job->cancellable;
}

gboolean
kymo_load_job_progress (KymoLoadJob  *job,
                        double        fraction,
                        const char   *message,
                        GError      **error)
{
  if (g_cancellable_set_error_if_cancelled (job->cancellable, error))
    return FALSE;

  if (job->progress != NULL)
    {
      gint64 now = g_get_monotonic_time ();

      /* A bar never goes back (parts on several threads report out of
       * step), and a new phase shows at once: the last one of a load
       * may be the longest. */
      g_mutex_lock (&job->progress_lock);
      fraction = CLAMP (MAX (fraction, job->last_fraction), 0.0, 1.0);
      if (now - job->last_report >= PROGRESS_INTERVAL || fraction >= 1.0 ||
          (now - job->last_report >= PROGRESS_INTERVAL / 5 && g_strcmp0 (message, job->last_message) != 0))
        {
          job->last_report = now;
          job->last_fraction = fraction;
          if (g_strcmp0 (message, job->last_message) != 0)
            {
              g_free (job->last_message);
              job->last_message = g_strdup (message);
            }
          job->progress (fraction, message, job->progress_data);
        }
      g_mutex_unlock (&job->progress_lock);
    }
  return TRUE;
}

void
kymo_load_job_set_error (KymoLoadJob    *job,
                         GError        **error,
                         KymoLoadError   code,
                         guint64         offset,
                         const char     *format,
                         ...)
{
  g_autofree char *message = NULL;
  va_list args;

  if (error == NULL)
    return;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (offset == KYMO_NO_OFFSET)
    g_set_error (error, KYMO_LOAD_ERROR, code, "%s: %s",
                 kymo_input_get_path (job->input), message);
  else
    g_set_error (error, KYMO_LOAD_ERROR, code, "%s: offset %" G_GUINT64_FORMAT ": %s",
                 kymo_input_get_path (job->input), offset, message);
}

void
kymo_load_job_add_warning (KymoLoadJob *job,
                           const char  *format,
                           ...)
{
  va_list args;

  g_return_if_fail (job != NULL);

  va_start (args, format);
  g_ptr_array_add (job->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}
