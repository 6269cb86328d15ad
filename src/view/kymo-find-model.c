/* kymo-find-model.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-find"

#include "config.h"

#include "kymo-find-model.h"
#include "kymo-find-item.h"

/* A match narrower than this is zoomed to rather than panned to. */
#define MIN_MATCH_PX 3.0

struct _KymoFindModel
{
  GObject           parent_instance;

  KymoSession      *session;   /* weak: the session owns us */
  KymoSearchResult *result;
  KymoSearch       *search;    /* the one running */
  GCancellable     *cancellable;
  gboolean          args;
  int               view_width;
};

enum {
  PROP_0,
  PROP_RESULT,
  PROP_ARGS,
  PROP_BUSY,
  PROP_FRACTION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KymoFindModel, kymo_find_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return KYMO_TYPE_FIND_ITEM;
}

static guint
get_n_items (GListModel *model)
{
  KymoFindModel *self = KYMO_FIND_MODEL (model);

  return self->result ? (guint) MIN (kymo_search_result_get_n_hits (self->result), G_MAXUINT) : 0;
}

/* Rows are made when a view asks, never one object per match up front. */
static gpointer
get_item (GListModel *model,
          guint       position)
{
  KymoFindModel *self = KYMO_FIND_MODEL (model);

  if (position >= get_n_items (model))
    return NULL;
  return kymo_find_item_new (self->result, position);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static void
publish (KymoFindModel    *self,
         KymoSearchResult *result)
{
  guint removed = get_n_items (G_LIST_MODEL (self));

  g_clear_pointer (&self->result, kymo_search_result_unref);
  self->result = result;
  if (self->session != NULL)
    {
      kymo_session_set_search_match (self->session, -1);
      kymo_session_set_highlight (self->session, result ? kymo_search_result_get_event_set (result) : NULL);
    }
  g_list_model_items_changed (G_LIST_MODEL (self), 0, removed, get_n_items (G_LIST_MODEL (self)));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
}

static void
on_fraction (KymoFindModel *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FRACTION]);
}

static void
stop_search (KymoFindModel *self)
{
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->search != NULL)
    g_signal_handlers_disconnect_by_func (self->search, on_fraction, self);
  g_clear_object (&self->search);
}

static void
on_search_done (GObject      *source,
                GAsyncResult *res,
                gpointer      user_data)
{
  g_autoptr(KymoFindModel) self = user_data;
  g_autoptr(GError) error = NULL;
  KymoSearchResult *result;

  result = kymo_search_run_finish (KYMO_SEARCH (source), res, &error);
  /* a newer search replaced this one: its result is stale */
  if ((gpointer) source != (gpointer) self->search)
    {
      g_clear_pointer (&result, kymo_search_result_unref);
      return;
    }
  g_clear_object (&self->cancellable);
  g_signal_handlers_disconnect_by_func (self->search, on_fraction, self);
  g_clear_object (&self->search);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
  if (result == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Search failed: %s", error->message);
      return;
    }
  publish (self, result);
}

static void
restart (KymoFindModel *self)
{
  const char *text;
  gboolean was_busy = self->search != NULL;

  stop_search (self);
  if (self->session == NULL)
    return;
  text = kymo_session_get_search_text (self->session);
  if (text[0] == '\0')
    {
      /* an empty query clears at once */
      if (self->result != NULL)
        publish (self, NULL);
      if (was_busy)
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
      return;
    }

  self->cancellable = g_cancellable_new ();
  self->search = kymo_search_new (kymo_session_get_trace (self->session), text);
  kymo_search_set_args (self->search, self->args);
  g_signal_connect_swapped (self->search, "notify::fraction", G_CALLBACK (on_fraction), self);
  kymo_search_run_async (self->search, self->cancellable, on_search_done, g_object_ref (self));
  if (!was_busy)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
kymo_find_model_dispose (GObject *object)
{
  KymoFindModel *self = KYMO_FIND_MODEL (object);

  stop_search (self);
  G_OBJECT_CLASS (kymo_find_model_parent_class)->dispose (object);
}

static void
kymo_find_model_finalize (GObject *object)
{
  KymoFindModel *self = KYMO_FIND_MODEL (object);

  g_clear_pointer (&self->result, kymo_search_result_unref);
  G_OBJECT_CLASS (kymo_find_model_parent_class)->finalize (object);
}

static void
kymo_find_model_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KymoFindModel *self = KYMO_FIND_MODEL (object);

  switch (prop_id)
    {
    case PROP_RESULT:
      g_value_set_boxed (value, self->result);
      break;
    case PROP_ARGS:
      g_value_set_boolean (value, self->args);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, kymo_find_model_get_busy (self));
      break;
    case PROP_FRACTION:
      g_value_set_double (value, kymo_find_model_get_fraction (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_find_model_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  KymoFindModel *self = KYMO_FIND_MODEL (object);

  switch (prop_id)
    {
    case PROP_ARGS:
      kymo_find_model_set_args (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_find_model_class_init (KymoFindModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = kymo_find_model_dispose;
  object_class->finalize = kymo_find_model_finalize;
  object_class->get_property = kymo_find_model_get_property;
  object_class->set_property = kymo_find_model_set_property;

  properties[PROP_RESULT] =
    g_param_spec_boxed ("result", NULL, NULL, KYMO_TYPE_SEARCH_RESULT,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ARGS] =
    g_param_spec_boolean ("args", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FRACTION] =
    g_param_spec_double ("fraction", NULL, NULL, 0.0, 1.0, 0.0,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_find_model_init (KymoFindModel *self)
{
  self->view_width = 1000;
}

/* The view closed: a search still running is cancelled with it. */
static void
on_session_gone (gpointer  data,
                 GObject  *where_the_session_was)
{
  KymoFindModel *self = data;

  self->session = NULL;
  stop_search (self);
}

KymoFindModel *
kymo_find_model_get_for_session (KymoSession *session)
{
  KymoFindModel *self;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self = g_object_get_data (G_OBJECT (session), "kymo-find-model");
  if (self != NULL)
    return self;
  self = g_object_new (KYMO_TYPE_FIND_MODEL, NULL);
  self->session = session;
  g_object_weak_ref (G_OBJECT (session), on_session_gone, self);
  g_signal_connect_object (session, "notify::search-text", G_CALLBACK (restart), self, G_CONNECT_SWAPPED);
  g_object_set_data_full (G_OBJECT (session), "kymo-find-model", self, g_object_unref);
  return self;
}

KymoSession *
kymo_find_model_get_session (KymoFindModel *self)
{
  g_return_val_if_fail (KYMO_IS_FIND_MODEL (self), NULL);
  return self->session;
}

KymoSearchResult *
kymo_find_model_get_result (KymoFindModel *self)
{
  g_return_val_if_fail (KYMO_IS_FIND_MODEL (self), NULL);
  return self->result;
}

gboolean
kymo_find_model_get_args (KymoFindModel *self)
{
  g_return_val_if_fail (KYMO_IS_FIND_MODEL (self), FALSE);
  return self->args;
}

void
kymo_find_model_set_args (KymoFindModel *self,
                          gboolean       args)
{
  g_return_if_fail (KYMO_IS_FIND_MODEL (self));

  args = !!args;
  if (args == self->args)
    return;
  self->args = args;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARGS]);
  restart (self);
}

gboolean
kymo_find_model_get_busy (KymoFindModel *self)
{
  g_return_val_if_fail (KYMO_IS_FIND_MODEL (self), FALSE);
  return self->search != NULL;
}

double
kymo_find_model_get_fraction (KymoFindModel *self)
{
  g_return_val_if_fail (KYMO_IS_FIND_MODEL (self), 0.0);
  return self->search ? kymo_search_get_fraction (self->search) : 1.0;
}

void
kymo_find_model_set_view_width (KymoFindModel *self,
                                int            width)
{
  g_return_if_fail (KYMO_IS_FIND_MODEL (self));
  self->view_width = MAX (width, 1);
}

void
kymo_find_model_go_to (KymoFindModel *self,
                       guint          position)
{
  const KymoSearchHit *hits;
  KymoEventRef ref;
  KymoTime start, end, v0, v1, width, dur;
  gsize n;

  g_return_if_fail (KYMO_IS_FIND_MODEL (self));

  if (self->result == NULL || self->session == NULL)
    return;
  hits = kymo_search_result_get_hits (self->result, &n);
  if (position >= n)
    return;

  kymo_search_hit_get_times (kymo_search_result_get_trace (self->result), &hits[position], &start, &end);
  kymo_session_get_visible_range (self->session, &v0, &v1);
  width = MAX (v1 - v0, 1);
  dur = end - start;
  if (hits[position].depth != KYMO_SEARCH_INSTANT && dur * (double) self->view_width / width < MIN_MATCH_PX)
    {
      /* sub-pixel: zoom in until it is a tenth of the view */
      KymoTime new_width = MAX (dur * 10, 1000);
      KymoTime center = start + dur / 2;

      kymo_session_zoom_to (self->session, center - new_width / 2, center - new_width / 2 + new_width);
    }
  else if (start < v0 || end > v1)
    {
      KymoTime center = start + dur / 2;

      if (dur < width * 8 / 10)
        kymo_session_zoom_to (self->session, center - width / 2, center - width / 2 + width);
    }

  kymo_search_hit_to_ref (&hits[position], &ref);
  kymo_session_set_search_match (self->session, (int) position);
  kymo_session_select_event (self->session, &ref);
}

gboolean
kymo_find_model_next (KymoFindModel *self)
{
  gsize n, pos;
  int current;
  KymoTime v0, v1;

  g_return_val_if_fail (KYMO_IS_FIND_MODEL (self), FALSE);

  if (self->result == NULL || self->session == NULL || (n = kymo_search_result_get_n_hits (self->result)) == 0)
    return FALSE;
  current = kymo_session_get_search_match (self->session);
  if (current >= 0 && (gsize) current < n)
    pos = ((gsize) current + 1) % n;
  else
    {
      kymo_session_get_visible_range (self->session, &v0, &v1);
      pos = kymo_search_result_lower_bound (self->result, v0);
      if (pos >= n)
        pos = 0;
    }
  kymo_find_model_go_to (self, pos);
  return TRUE;
}

gboolean
kymo_find_model_previous (KymoFindModel *self)
{
  gsize n, pos;
  int current;
  KymoTime v0, v1;

  g_return_val_if_fail (KYMO_IS_FIND_MODEL (self), FALSE);

  if (self->result == NULL || self->session == NULL || (n = kymo_search_result_get_n_hits (self->result)) == 0)
    return FALSE;
  current = kymo_session_get_search_match (self->session);
  if (current >= 0 && (gsize) current < n)
    pos = current == 0 ? n - 1 : (gsize) current - 1;
  else
    {
      kymo_session_get_visible_range (self->session, &v0, &v1);
      pos = kymo_search_result_lower_bound (self->result, v1);
      pos = pos == 0 ? n - 1 : pos - 1;
    }
  kymo_find_model_go_to (self, pos);
  return TRUE;
}
