/* kymo-dial9-analysis.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9"

#include "config.h"

#include "kymo-dial9-analysis.h"

#define DATA_KEY "kymo-dial9-analysis"

struct _KymoDial9Analysis
{
  GObject            parent_instance;

  KymoSession       *session;   /* not owned: the session owns us */
  KymoDial9Tasks    *tasks;
  KymoDial9Lanes    *lanes;
  KymoPoiThresholds  thresholds;
  GCancellable      *cancellable;
  GSettings         *settings;
  guint              selected;
  guint              pending;      /* picked before polls_ready: selected once they are */
  guint              generation;
  gboolean           ready;
  gboolean           polls_ready;  /* each task's polls and wakes are placed */
};

G_DEFINE_FINAL_TYPE (KymoDial9Analysis, kymo_dial9_analysis, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_READY,
  PROP_POLLS_READY,
  PROP_SELECTED_TASK,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct {
  KymoTrace         *trace;
  KymoPoiThresholds  thresholds;
  gboolean           want_lanes;
  guint              generation;
} Job;

typedef struct {
  KymoDial9Tasks *tasks;
  KymoDial9Lanes *lanes;      /* made once, with the first tasks */
  guint           generation;
} Result;

static void
job_free (Job *job)
{
  g_object_unref (job->trace);
  g_free (job);
}

static void
result_free (Result *result)
{
  g_clear_pointer (&result->lanes, kymo_dial9_lanes_unref);
  g_clear_pointer (&result->tasks, kymo_dial9_tasks_free);
  g_free (result);
}

GSettings *
kymo_dial9_analysis_dup_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "poi-long-poll-us"))
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

void
kymo_dial9_analysis_load_thresholds (KymoPoiThresholds *thresholds)
{
  g_autoptr(GSettings) settings = kymo_dial9_analysis_dup_settings ();

  kymo_poi_thresholds_init_default (thresholds);
  if (settings == NULL)
    return;
  thresholds->long_poll_ns = (KymoTime) g_settings_get_uint (settings, "poi-long-poll-us") * 1000;
  thresholds->wake_delay_ns = (KymoTime) g_settings_get_uint (settings, "poi-wake-delay-us") * 1000;
  thresholds->sched_delay_ns = (KymoTime) g_settings_get_uint (settings, "poi-sched-delay-us") * 1000;
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  Job *job = task_data;
  Result *result = g_new0 (Result, 1);

  result->generation = job->generation;
  /* The lanes do not depend on the thresholds: made once, in the same
   * pass over the records as the tasks. */
  if (!g_cancellable_is_cancelled (cancellable))
    {
      if (job->want_lanes)
        result->tasks = kymo_dial9_tasks_new_with_lanes (job->trace, &job->thresholds, &result->lanes);
      else
        result->tasks = kymo_dial9_tasks_new (job->trace, &job->thresholds);
    }
  g_task_return_pointer (task, result, (GDestroyNotify) result_free);
}

static void
prepare_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  kymo_dial9_tasks_prepare_polls (task_data);
  g_task_return_boolean (task, TRUE);
}

static void
on_prepared (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  KymoDial9Analysis *self = KYMO_DIAL9_ANALYSIS (source);
  guint row = self->pending;

  if (!g_task_propagate_boolean (G_TASK (res), NULL) || g_task_get_task_data (G_TASK (res)) != self->tasks)
    return;
  self->polls_ready = TRUE;
  self->pending = KYMO_DIAL9_NO_TASK;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_POLLS_READY]);
  if (row != KYMO_DIAL9_NO_TASK)
    kymo_dial9_analysis_set_selected_task (self, row);
}

static void
on_computed (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  KymoDial9Analysis *self = KYMO_DIAL9_ANALYSIS (source);
  Result *result = g_task_propagate_pointer (G_TASK (res), NULL);

  if (result == NULL)
    return;
  if (result->generation != self->generation || result->tasks == NULL)
    {
      result_free (result);
      return;
    }
  g_clear_pointer (&self->tasks, kymo_dial9_tasks_free);
  self->tasks = g_steal_pointer (&result->tasks);
  if (result->lanes != NULL)
    {
      g_clear_pointer (&self->lanes, kymo_dial9_lanes_unref);
      self->lanes = g_steal_pointer (&result->lanes);
    }
  result_free (result);
  /* The table shows first; each task's polls and wakes, which a selection
   * reads, are placed meanwhile off this thread. A task picked before
   * then is selected when they are, so the UI thread never waits for it. */
  self->polls_ready = FALSE;
  {
    g_autoptr(GTask) prepare = g_task_new (self, self->cancellable, on_prepared, NULL);

    g_task_set_source_tag (prepare, prepare_thread);
    g_task_set_task_data (prepare, kymo_dial9_tasks_ref (self->tasks), (GDestroyNotify) kymo_dial9_tasks_free);
    g_task_run_in_thread (prepare, prepare_thread);
  }
  /* Notified again after a recompute: readers refresh. The rows are the
   * same rows (the pass is deterministic), so a selected task stays. */
  self->ready = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_READY]);
}

static void
start (KymoDial9Analysis *self)
{
  g_autoptr(GTask) task = NULL;
  Job *job = g_new0 (Job, 1);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  job->trace = g_object_ref (kymo_session_get_trace (self->session));
  job->thresholds = self->thresholds;
  job->want_lanes = self->lanes == NULL;
  job->generation = ++self->generation;
  task = g_task_new (self, self->cancellable, on_computed, NULL);
  g_task_set_source_tag (task, start);
  g_task_set_task_data (task, job, (GDestroyNotify) job_free);
  g_task_run_in_thread (task, compute_thread);
}

void
kymo_dial9_analysis_set_thresholds (KymoDial9Analysis       *self,
                                    const KymoPoiThresholds *thresholds)
{
  g_return_if_fail (KYMO_IS_DIAL9_ANALYSIS (self));
  g_return_if_fail (thresholds != NULL);

  if (memcmp (&self->thresholds, thresholds, sizeof *thresholds) == 0)
    return;
  self->thresholds = *thresholds;
  /* One pass makes the tasks and the points: both are made again, and a
   * job still running is replaced. */
  start (self);
}

static void
on_settings_changed (KymoDial9Analysis *self)
{
  KymoPoiThresholds t;

  kymo_dial9_analysis_load_thresholds (&t);
  kymo_dial9_analysis_set_thresholds (self, &t);
}

gboolean
kymo_dial9_analysis_applies (KymoSession *session)
{
  KymoTrace *trace;
  gsize n;

  g_return_val_if_fail (KYMO_IS_SESSION (session), FALSE);

  trace = kymo_session_get_trace (session);
  if (kymo_trace_get_format (trace) == NULL || g_strcmp0 (kymo_trace_get_format (trace)->name, "dial9") != 0)
    return FALSE;
  kymo_records_get_all (kymo_trace_get_records (trace), &n);
  return n > 0;
}

KymoDial9Analysis *
kymo_dial9_analysis_get (KymoSession *session)
{
  KymoDial9Analysis *self;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self = g_object_get_data (G_OBJECT (session), DATA_KEY);
  if (self != NULL)
    return self;
  self = g_object_new (KYMO_TYPE_DIAL9_ANALYSIS, NULL);
  self->session = session;
  g_object_set_data_full (G_OBJECT (session), DATA_KEY, self, g_object_unref);
  kymo_dial9_analysis_load_thresholds (&self->thresholds);
  self->settings = kymo_dial9_analysis_dup_settings ();
  if (self->settings != NULL)
    g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_settings_changed), self,
                             G_CONNECT_SWAPPED);
  start (self);
  return self;
}

KymoSession *
kymo_dial9_analysis_get_session (KymoDial9Analysis *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_ANALYSIS (self), NULL);
  return self->session;
}

KymoDial9Tasks *
kymo_dial9_analysis_get_tasks (KymoDial9Analysis *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_ANALYSIS (self), NULL);
  return self->tasks;
}

KymoDial9Lanes *
kymo_dial9_analysis_get_lanes (KymoDial9Analysis *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_ANALYSIS (self), NULL);
  return self->lanes;
}

KymoWakeMark *
kymo_dial9_analysis_dup_wake_marks (KymoDial9Analysis *self,
                                    gsize             *n_marks)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_ANALYSIS (self), NULL);
  g_return_val_if_fail (n_marks != NULL, NULL);

  *n_marks = 0;
  if (self->tasks == NULL || self->selected == KYMO_DIAL9_NO_TASK)
    return NULL;
  return kymo_dial9_tasks_dup_wake_marks (self->tasks, self->selected, n_marks);
}

gboolean
kymo_dial9_analysis_get_ready (KymoDial9Analysis *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_ANALYSIS (self), FALSE);
  return self->ready;
}

gboolean
kymo_dial9_analysis_get_polls_ready (KymoDial9Analysis *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_ANALYSIS (self), FALSE);
  return self->ready && self->polls_ready;
}

guint
kymo_dial9_analysis_get_selected_task (KymoDial9Analysis *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_ANALYSIS (self), KYMO_DIAL9_NO_TASK);
  return self->selected;
}

void
kymo_dial9_analysis_set_selected_task (KymoDial9Analysis *self,
                                       guint              row)
{
  gsize n_rows = 0;

  g_return_if_fail (KYMO_IS_DIAL9_ANALYSIS (self));

  if (self->tasks != NULL)
    kymo_dial9_tasks_get_rows (self->tasks, &n_rows);
  if (row >= n_rows)
    row = KYMO_DIAL9_NO_TASK;
  self->pending = KYMO_DIAL9_NO_TASK;
  if (row != KYMO_DIAL9_NO_TASK && !self->polls_ready)
    {
      self->pending = row;
      return;
    }
  if (self->selected == row)
    return;
  self->selected = row;
  if (row == KYMO_DIAL9_NO_TASK)
    kymo_session_set_highlight (self->session, NULL);
  else
    {
      g_autoptr(KymoEventSet) set = kymo_dial9_tasks_dup_task_set (self->tasks, row);
      kymo_session_set_highlight (self->session, set);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_TASK]);
}

static void
kymo_dial9_analysis_dispose (GObject *object)
{
  KymoDial9Analysis *self = (KymoDial9Analysis *) object;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);
  G_OBJECT_CLASS (kymo_dial9_analysis_parent_class)->dispose (object);
}

static void
kymo_dial9_analysis_finalize (GObject *object)
{
  KymoDial9Analysis *self = (KymoDial9Analysis *) object;

  g_clear_pointer (&self->tasks, kymo_dial9_tasks_free);
  g_clear_pointer (&self->lanes, kymo_dial9_lanes_unref);
  G_OBJECT_CLASS (kymo_dial9_analysis_parent_class)->finalize (object);
}

static void
kymo_dial9_analysis_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KymoDial9Analysis *self = KYMO_DIAL9_ANALYSIS (object);

  switch (prop_id)
    {
    case PROP_READY:
      g_value_set_boolean (value, self->ready);
      break;
    case PROP_POLLS_READY:
      g_value_set_boolean (value, kymo_dial9_analysis_get_polls_ready (self));
      break;
    case PROP_SELECTED_TASK:
      g_value_set_uint (value, self->selected);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_dial9_analysis_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KymoDial9Analysis *self = KYMO_DIAL9_ANALYSIS (object);

  switch (prop_id)
    {
    case PROP_SELECTED_TASK:
      kymo_dial9_analysis_set_selected_task (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_dial9_analysis_class_init (KymoDial9AnalysisClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = kymo_dial9_analysis_dispose;
  object_class->finalize = kymo_dial9_analysis_finalize;
  object_class->get_property = kymo_dial9_analysis_get_property;
  object_class->set_property = kymo_dial9_analysis_set_property;

  properties[PROP_READY] =
    g_param_spec_boolean ("ready", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_POLLS_READY] =
    g_param_spec_boolean ("polls-ready", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_TASK] =
    g_param_spec_uint ("selected-task", NULL, NULL, 0, G_MAXUINT, KYMO_DIAL9_NO_TASK,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_dial9_analysis_init (KymoDial9Analysis *self)
{
  self->selected = KYMO_DIAL9_NO_TASK;
  self->pending = KYMO_DIAL9_NO_TASK;
}
