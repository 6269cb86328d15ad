/* kymo-loader.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-loader"

#include "config.h"

#include "kymo-input.h"
#include "kymo-load-job-private.h"
#include "kymo-loader-private.h"
#include "kymo-preview-private.h"
#include "kymo-trace-private.h"

/* The decoders register themselves (src/formats, before main runs): the
 * model knows none of them by name. */
static GPtrArray *all_formats;
G_LOCK_DEFINE_STATIC (all_formats);

void
kymo_formats_register (const KymoFormat *format)
{
  G_LOCK (all_formats);
  if (all_formats == NULL)
    all_formats = g_ptr_array_new ();
  if (!g_ptr_array_find (all_formats, format, NULL))
    g_ptr_array_add (all_formats, (gpointer) format);
  G_UNLOCK (all_formats);
}

void
_kymo_formats_add_for_testing (const KymoFormat *format)
{
  kymo_formats_register (format);
}

const KymoFormat * const *
kymo_formats_get_all (guint *n_formats)
{
  static const KymoFormat * const none[] = { NULL };

  G_LOCK (all_formats);
  *n_formats = all_formats != NULL ? all_formats->len : 0;
  G_UNLOCK (all_formats);
  return all_formats != NULL ? (const KymoFormat * const *) all_formats->pdata : none;
}

const KymoFormat *
kymo_formats_lookup (const char *name)
{
  guint n;
  const KymoFormat * const *formats = kymo_formats_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (g_strcmp0 (formats[i]->name, name) == 0)
      return formats[i];
  return NULL;
}

const KymoFormat *
kymo_formats_detect (KymoInput *input)
{
  guint n, best_score = 0;
  const KymoFormat * const *formats = kymo_formats_get_all (&n);
  const KymoFormat *best = NULL;

  for (guint i = 0; i < n; i++)
    {
      guint score = formats[i]->detect ? formats[i]->detect (input) : 0;

      if (score > best_score)
        {
          best_score = score;
          best = formats[i];
        }
    }
  return best;
}

static const KymoFormat *
choose_format (KymoInput              *input,
               const KymoLoadOptions  *options,
               GError                **error)
{
  const KymoFormat *format;

  if (options && options->format)
    {
      format = kymo_formats_lookup (options->format);
      if (format == NULL)
        g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT,
                     "%s: unknown format “%s”", kymo_input_get_path (input), options->format);
      return format;
    }

  if (!input->is_dir && input->main.size == 0)
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT,
                   "%s: the file is empty", kymo_input_get_path (input));
      return NULL;
    }

  format = kymo_formats_detect (input);
  if (format == NULL)
    g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT,
                 "%s: not a trace format Kymo can read", kymo_input_get_path (input));
  return format;
}

static gboolean
trace_is_empty (KymoTrace *trace)
{
  guint64 spans, instants, samples, annotations;

  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  return spans + instants + samples + annotations == 0;
}

/* @partial: @input is the start of a bigger one (a preview): where it
 * stops is no damage of the trace, and the trace is kept even when empty. */
static KymoTrace *
load_as (KymoInput              *input,
         const KymoFormat       *format,
         const KymoLoadOptions  *options,
         const char             *title,
         gboolean                partial,
         KymoProgressFunc        progress,
         gpointer                progress_data,
         GCancellable           *cancellable,
         GError                **error)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) local_error = NULL;
  KymoLoadJob job;
  gboolean ok;

  trace = kymo_trace_new ();
  kymo_trace_set_title (trace, title);
  kymo_trace_set_format (trace, format);
  kymo_trace_set_input (trace, input);
  _kymo_trace_set_load_threads (trace, options != NULL ? options->threads : 0);

  _kymo_load_job_init (&job, input, options, progress, progress_data, cancellable);
  ok = format->load (&job, trace, &local_error);
  _kymo_load_job_clear (&job);

  if (!ok)
    {
      g_assert (local_error != NULL);

      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
          !g_error_matches (local_error, KYMO_LOAD_ERROR, local_error->code) ||
          local_error->code == KYMO_LOAD_ERROR_UNKNOWN_FORMAT ||
          local_error->code == KYMO_LOAD_ERROR_IO ||
          (!partial && trace_is_empty (trace)))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }

      if (!partial)
        {
          kymo_trace_set_stop_error (trace, local_error);
          kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE, "%s", local_error->message);
        }
    }

  kymo_trace_seal (trace);
  if (progress)
    progress (1.0, NULL, progress_data);

  return g_steal_pointer (&trace);
}

KymoTrace *
kymo_load_sync (KymoInput              *input,
                const KymoLoadOptions  *options,
                KymoProgressFunc        progress,
                gpointer                progress_data,
                GCancellable           *cancellable,
                GError                **error)
{
  g_autofree char *title = NULL;
  const KymoFormat *format;

  g_return_val_if_fail (input != NULL, NULL);

  format = choose_format (input, options, error);
  if (format == NULL)
    return NULL;

  title = g_path_get_basename (kymo_input_get_path (input));
  return load_as (input, format, options, title, FALSE, progress, progress_data, cancellable, error);
}

gboolean
kymo_dump_sync (KymoInput              *input,
                const KymoLoadOptions  *options,
                KymoJsonWriter         *out,
                GError                **error)
{
  return kymo_dump_sync_full (input, options, out, NULL, error);
}

gboolean
kymo_dump_sync_full (KymoInput              *input,
                     const KymoLoadOptions  *options,
                     KymoJsonWriter         *out,
                     GPtrArray             **warnings,
                     GError                **error)
{
  const KymoFormat *format;
  KymoLoadJob job;
  gboolean ok;

  if (warnings != NULL)
    *warnings = NULL;
  format = choose_format (input, options, error);
  if (format == NULL)
    return FALSE;
  if (format->dump == NULL)
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNSUPPORTED,
                   "%s: dumping %s is not supported", kymo_input_get_path (input), format->name);
      return FALSE;
    }

  _kymo_load_job_init (&job, input, options, NULL, NULL, NULL);
  ok = format->dump (&job, out, error);
  if (warnings != NULL)
    *warnings = g_ptr_array_ref (job.warnings);
  _kymo_load_job_clear (&job);
  kymo_json_writer_flush (out);
  return ok;
}

struct _KymoLoader
{
  GObject          parent_instance;

  KymoInput       *input;
  KymoLoadOptions  options;

  /* Written by the worker, read by the idle on the main context. */
  GMutex           mutex;
  double           pending_fraction;
  char            *pending_message;
  GSource         *idle;
  GMainContext    *context;

  double           fraction;
  char            *message;

  /* The latest preview: the worker hands it over under the mutex, an idle
   * on the main context publishes it. */
  KymoTrace       *pending_preview;
  GSource         *preview_idle;
  KymoTrace       *preview;
  gboolean         finished;
};

G_DEFINE_FINAL_TYPE (KymoLoader, kymo_loader, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_FRACTION,
  PROP_MESSAGE,
  PROP_PREVIEW,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  PREVIEW,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static KymoLoaderPreviewHook preview_hook;
static gpointer              preview_hook_data;

void
_kymo_loader_set_preview_hook_for_testing (KymoLoaderPreviewHook hook,
                                           gpointer              user_data)
{
  preview_hook = hook;
  preview_hook_data = user_data;
}

static void
drop_preview_idle (KymoLoader *self)
{
  if (self->preview_idle)
    {
      g_source_destroy (self->preview_idle);
      g_clear_pointer (&self->preview_idle, g_source_unref);
    }
}

static void
kymo_loader_finalize (GObject *object)
{
  KymoLoader *self = (KymoLoader *) object;

  if (self->idle)
    {
      g_source_destroy (self->idle);
      g_source_unref (self->idle);
    }
  drop_preview_idle (self);
  g_clear_object (&self->pending_preview);
  g_clear_object (&self->preview);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->input, kymo_input_unref);
  g_free ((char *) self->options.format);
  g_free ((char *) self->options.tband_mode);
  g_free (self->pending_message);
  g_free (self->message);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (kymo_loader_parent_class)->finalize (object);
}

static void
kymo_loader_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  KymoLoader *self = KYMO_LOADER (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, self->fraction);
      break;
    case PROP_MESSAGE:
      g_value_set_string (value, self->message);
      break;
    case PROP_PREVIEW:
      g_value_set_object (value, self->preview);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_loader_class_init (KymoLoaderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_loader_finalize;
  object_class->get_property = kymo_loader_get_property;

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MESSAGE] =
    g_param_spec_string ("message", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PREVIEW] =
    g_param_spec_object ("preview", NULL, NULL, KYMO_TYPE_TRACE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A sealed trace of the start of the input, while the rest loads; on the
   * main context, never after the load finished. */
  signals[PREVIEW] =
    g_signal_new ("preview", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, KYMO_TYPE_TRACE);
}

static void
kymo_loader_init (KymoLoader *self)
{
  g_mutex_init (&self->mutex);
}

KymoLoader *
kymo_loader_new (KymoInput             *input,
                 const KymoLoadOptions *options)
{
  KymoLoader *self = g_object_new (KYMO_TYPE_LOADER, NULL);

  self->input = kymo_input_ref (input);
  if (options)
    {
      self->options.format = g_strdup (options->format);
      self->options.tband_mode = g_strdup (options->tband_mode);
      self->options.show_internal = options->show_internal;
      self->options.threads = options->threads;
      self->options.preview = options->preview;
    }
  return self;
}

KymoInput *
kymo_loader_get_input (KymoLoader *self)
{
  return self->input;
}

double
kymo_loader_get_fraction (KymoLoader *self)
{
  return self->fraction;
}

const char *
kymo_loader_get_message (KymoLoader *self)
{
  return self->message;
}

KymoTrace *
kymo_loader_get_preview (KymoLoader *self)
{
  g_return_val_if_fail (KYMO_IS_LOADER (self), NULL);

  return self->preview;
}

static gboolean
publish_preview (gpointer data)
{
  KymoLoader *self = data;
  g_autoptr(KymoTrace) trace = NULL;

  g_mutex_lock (&self->mutex);
  trace = g_steal_pointer (&self->pending_preview);
  g_clear_pointer (&self->preview_idle, g_source_unref);
  g_mutex_unlock (&self->mutex);

  if (trace == NULL || self->finished)
    return G_SOURCE_REMOVE;
  g_set_object (&self->preview, trace);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PREVIEW]);
  g_signal_emit (self, signals[PREVIEW], 0, trace);
  return G_SOURCE_REMOVE;
}

/* In the worker: a later preview replaces one not yet shown. */
static void
worker_preview (KymoLoader *self,
                KymoTrace  *trace)
{
  g_mutex_lock (&self->mutex);
  g_set_object (&self->pending_preview, trace);
  if (self->preview_idle == NULL)
    {
      self->preview_idle = g_idle_source_new ();
      /* Before the progress: the trace is what the user waits for. */
      g_source_set_priority (self->preview_idle, G_PRIORITY_DEFAULT_IDLE);
      g_source_set_callback (self->preview_idle, publish_preview, g_object_ref (self), g_object_unref);
      g_source_set_static_name (self->preview_idle, "[kymo] load preview");
      g_source_attach (self->preview_idle, self->context);
    }
  g_mutex_unlock (&self->mutex);
}

static gboolean
publish_progress (gpointer data)
{
  KymoLoader *self = data;
  double fraction;
  g_autofree char *message = NULL;

  g_mutex_lock (&self->mutex);
  fraction = self->pending_fraction;
  message = g_strdup (self->pending_message);
  g_clear_pointer (&self->idle, g_source_unref);
  g_mutex_unlock (&self->mutex);

  if (fraction != self->fraction)
    {
      self->fraction = fraction;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
    }
  if (g_strcmp0 (message, self->message) != 0)
    {
      g_free (self->message);
      self->message = g_steal_pointer (&message);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MESSAGE]);
    }
  return G_SOURCE_REMOVE;
}

/* In the worker: coalesce into one low-priority idle on the main context. */
static void
worker_progress (double      fraction,
                 const char *message,
                 gpointer    data)
{
  KymoLoader *self = data;

  g_mutex_lock (&self->mutex);
  self->pending_fraction = fraction;
  if (message != NULL && g_strcmp0 (message, self->pending_message) != 0)
    {
      g_free (self->pending_message);
      self->pending_message = g_strdup (message);
    }
  if (self->idle == NULL)
    {
      self->idle = g_idle_source_new ();
      g_source_set_priority (self->idle, G_PRIORITY_LOW);
      g_source_set_callback (self->idle, publish_progress, g_object_ref (self), g_object_unref);
      g_source_set_static_name (self->idle, "[kymo] load progress");
      g_source_attach (self->idle, self->context);
    }
  g_mutex_unlock (&self->mutex);
}

/* Decodes the starts of the input the plan gives and publishes each: a
 * preview that fails is no reason to stop, the full load says what is
 * wrong. FALSE once the load is cancelled. */
static gboolean
load_previews (KymoLoader       *self,
               const KymoFormat *format,
               const char       *title,
               GCancellable     *cancellable)
{
  g_autoptr(GPtrArray) plan = _kymo_preview_plan (self->input, format);
  guint published = 0;

  for (guint i = 0; i < plan->len; i++)
    {
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(GError) error = NULL;

      trace = load_as (g_ptr_array_index (plan, i), format, &self->options, title, TRUE,
                       NULL, NULL, cancellable, &error);
      if (g_cancellable_is_cancelled (cancellable))
        return FALSE;
      if (trace == NULL || trace_is_empty (trace))
        continue;
      worker_preview (self, trace);
      if (preview_hook != NULL)
        preview_hook (self, published, preview_hook_data);
      published++;
    }
  return TRUE;
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  KymoLoader *self = source_object;
  g_autofree char *title = NULL;
  const KymoFormat *format;
  GError *error = NULL;
  KymoTrace *trace;

  format = choose_format (self->input, &self->options, &error);
  if (format == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  title = g_path_get_basename (kymo_input_get_path (self->input));

  if (self->options.preview && !load_previews (self, format, title, cancellable))
    {
      g_cancellable_set_error_if_cancelled (cancellable, &error);
      g_task_return_error (task, error);
      return;
    }

  trace = load_as (self->input, format, &self->options, title, FALSE,
                   worker_progress, self, cancellable, &error);
  if (trace == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, trace, g_object_unref);
}

void
kymo_loader_load_async (KymoLoader          *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KYMO_IS_LOADER (self));

  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  self->finished = FALSE;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kymo_loader_load_async);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, load_thread);
}

KymoTrace *
kymo_loader_load_finish (KymoLoader    *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kymo_loader_load_async, NULL);

  /* A preview still on its way would come after the trace it previews. */
  self->finished = TRUE;
  g_mutex_lock (&self->mutex);
  drop_preview_idle (self);
  g_clear_object (&self->pending_preview);
  g_mutex_unlock (&self->mutex);

  return g_task_propagate_pointer (G_TASK (result), error);
}
