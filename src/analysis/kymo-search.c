/* kymo-search.c: KymoSearch, a query run over a trace off the UI thread
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-search"

#include "config.h"

#include "kymo-search-private.h"

enum {
  PROP_0,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (KymoSearch, kymo_search, G_TYPE_OBJECT)

static gboolean
notify_fraction (gpointer data)
{
  KymoSearch *self = data;

  g_atomic_int_set (&self->notify_queued, 0);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
  return G_SOURCE_REMOVE;
}

/* Coalesced: at most one idle queued at a time, at low priority. */
void
_kymo_search_report_progress (KymoSearch *self,
                              guint64     done,
                              guint64     total)
{
  gint permille = total > 0 ? (gint) (done * 1000 / total) : 1000;

  g_atomic_int_set (&self->permille, permille);
  if (self->context != NULL && g_atomic_int_compare_and_exchange (&self->notify_queued, 0, 1))
    {
      g_autoptr(GSource) source = g_idle_source_new ();

      g_source_set_priority (source, G_PRIORITY_LOW);
      g_source_set_callback (source, notify_fraction, g_object_ref (self), g_object_unref);
      g_source_set_static_name (source, "[kymo] search progress");
      g_source_attach (source, self->context);
    }
}

static void
kymo_search_finalize (GObject *object)
{
  KymoSearch *self = KYMO_SEARCH (object);

  g_clear_object (&self->trace);
  g_clear_pointer (&self->query, g_free);
  g_clear_pointer (&self->needle, g_free);
  g_clear_pointer (&self->context, g_main_context_unref);

  G_OBJECT_CLASS (kymo_search_parent_class)->finalize (object);
}

static void
kymo_search_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  KymoSearch *self = KYMO_SEARCH (object);

  switch (prop_id)
    {
    case PROP_FRACTION:
      g_value_set_double (value, kymo_search_get_fraction (self));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_search_class_init (KymoSearchClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_search_finalize;
  object_class->get_property = kymo_search_get_property;

  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_search_init (KymoSearch *self)
{
  self->from = KYMO_TIME_NONE;
  self->to = KYMO_TIME_NONE;
}

KymoSearch *
kymo_search_new (KymoTrace  *trace,
                 const char *query)
{
  KymoSearch *self;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (kymo_trace_is_sealed (trace), NULL);

  self = g_object_new (KYMO_TYPE_SEARCH, NULL);
  self->trace = g_object_ref (trace);
  self->query = g_strdup (query ? query : "");
  self->needle = kymo_search_fold (self->query);
  return self;
}

void
kymo_search_set_args (KymoSearch *self,
                      gboolean    args)
{
  g_return_if_fail (KYMO_IS_SEARCH (self));
  self->args = !!args;
}

void
kymo_search_set_window (KymoSearch *self,
                        KymoTime    from,
                        KymoTime    to)
{
  g_return_if_fail (KYMO_IS_SEARCH (self));
  self->from = from;
  self->to = to;
}

void
kymo_search_set_longest (KymoSearch *self,
                         guint       n)
{
  g_return_if_fail (KYMO_IS_SEARCH (self));
  self->longest = n;
}

double
kymo_search_get_fraction (KymoSearch *self)
{
  g_return_val_if_fail (KYMO_IS_SEARCH (self), 0.0);
  return g_atomic_int_get (&self->permille) / 1000.0;
}

KymoSearchResult *
kymo_search_run (KymoSearch    *self,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_return_val_if_fail (KYMO_IS_SEARCH (self), NULL);

  return _kymo_search_scan (self, cancellable, FALSE, error);
}

static void
run_in_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  KymoSearch *self = source_object;
  GError *error = NULL;
  KymoSearchResult *result;

  result = _kymo_search_scan (self, cancellable, TRUE, &error);
  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, (GDestroyNotify) kymo_search_result_unref);
}

void
kymo_search_run_async (KymoSearch          *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (KYMO_IS_SEARCH (self));

  g_clear_pointer (&self->context, g_main_context_unref);
  self->context = g_main_context_ref_thread_default ();
  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, kymo_search_run_async);
  g_task_set_name (task, "[kymo] search");
  /* a cancelled search reports "cancelled", never a stale result */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, TRUE);
  g_task_run_in_thread (task, run_in_thread);
}

KymoSearchResult *
kymo_search_run_finish (KymoSearch    *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kymo_search_run_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
