/* kymo-flame-model.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-flame-model"

#include "config.h"

#include "kymo-flame-model.h"

struct _KymoFlameModel
{
  GObject             parent_instance;

  GWeakRef            session;   /* the session owns the model */
  KymoTrace          *trace;
  KymoCallTreeSource  source;
  KymoCallTree       *current;
  KymoCallTree       *shown;
  KymoCallTree       *baseline;
  char               *baseline_label;
  gboolean            baseline_is_after;  /* another trace: it is the second */
  GCancellable       *cancellable;
  GCancellable       *derive_cancellable;
  guint               fold_idle;
  guint32             selected_node;
  gboolean            busy;
};

G_DEFINE_FINAL_TYPE (KymoFlameModel, kymo_flame_model, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TREE,
  PROP_BUSY,
  PROP_SOURCE,
  PROP_SELECTED_NODE,
  PROP_BASELINE,
  PROP_SEARCH_TEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

#define MODEL_KEY "kymo-flame-model"

static void
set_busy (KymoFlameModel *self,
          gboolean        busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
publish_tree (KymoFlameModel *self,
              KymoCallTree   *shown)
{
  g_clear_pointer (&self->shown, kymo_call_tree_unref);
  self->shown = shown;
  self->selected_node = G_MAXUINT32;
  set_busy (self, FALSE);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

static void
on_derived (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(KymoFlameModel) self = user_data;
  KymoCallTree *diff = kymo_call_tree_derive_finish (result, NULL);

  /* NULL: a newer fold or baseline replaced this one */
  if (diff != NULL)
    publish_tree (self, diff);
}

/* A diff costs the size of both trees: it is made in a thread too. */
static void
publish (KymoFlameModel *self)
{
  g_cancellable_cancel (self->derive_cancellable);
  g_clear_object (&self->derive_cancellable);
  if (self->current == NULL || self->baseline == NULL)
    {
      publish_tree (self, self->current != NULL ? kymo_call_tree_ref (self->current) : NULL);
      return;
    }
  self->derive_cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  if (self->baseline_is_after)
    kymo_call_tree_derive_async (self->current, self->baseline, self->derive_cancellable, on_derived,
                                 g_object_ref (self));
  else
    kymo_call_tree_derive_async (self->baseline, self->current, self->derive_cancellable, on_derived,
                                 g_object_ref (self));
}

static void
on_folded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(KymoFlameModel) self = user_data;
  g_autoptr(GError) error = NULL;
  KymoCallTree *tree;

  tree = kymo_call_tree_build_finish (result, &error);
  if (tree == NULL)
    {
      /* a newer fold replaced this one: it publishes instead */
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Cannot fold the call tree: %s", error->message);
      return;
    }
  g_clear_pointer (&self->current, kymo_call_tree_unref);
  self->current = tree;
  publish (self);
}

static gboolean
fold_now (gpointer user_data)
{
  KymoFlameModel *self = user_data;
  g_autoptr(KymoSession) session = g_weak_ref_get (&self->session);
  KymoTime from = KYMO_TIME_NONE, to = KYMO_TIME_NONE;

  self->fold_idle = 0;
  if (session == NULL)
    return G_SOURCE_REMOVE;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  kymo_session_get_selected_range (session, &from, &to);
  set_busy (self, TRUE);
  kymo_call_tree_build_async (self->trace, self->source, from, to, NULL, 0, self->cancellable,
                              on_folded, g_object_ref (self));
  return G_SOURCE_REMOVE;
}

/* A drag changes the range on every motion: fold once per main loop turn,
 * cancelling the fold the previous turn started. */
static void
queue_fold (KymoFlameModel *self)
{
  if (self->fold_idle == 0)
    self->fold_idle = g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, fold_now, self, NULL);
}

static void
on_range_changed (KymoFlameModel *self)
{
  queue_fold (self);
}

static void
on_search_changed (KymoFlameModel *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SEARCH_TEXT]);
}

static void
kymo_flame_model_dispose (GObject *object)
{
  KymoFlameModel *self = (KymoFlameModel *) object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->derive_cancellable);
  g_clear_object (&self->derive_cancellable);
  g_clear_handle_id (&self->fold_idle, g_source_remove);
  G_OBJECT_CLASS (kymo_flame_model_parent_class)->dispose (object);
}

static void
kymo_flame_model_finalize (GObject *object)
{
  KymoFlameModel *self = (KymoFlameModel *) object;

  g_weak_ref_clear (&self->session);
  g_clear_object (&self->trace);
  g_clear_pointer (&self->current, kymo_call_tree_unref);
  g_clear_pointer (&self->shown, kymo_call_tree_unref);
  g_clear_pointer (&self->baseline, kymo_call_tree_unref);
  g_free (self->baseline_label);
  G_OBJECT_CLASS (kymo_flame_model_parent_class)->finalize (object);
}

static void
kymo_flame_model_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  KymoFlameModel *self = KYMO_FLAME_MODEL (object);

  switch (prop_id)
    {
    case PROP_TREE:
      g_value_set_boxed (value, self->shown);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_SOURCE:
      g_value_set_int (value, self->source);
      break;
    case PROP_SELECTED_NODE:
      g_value_set_uint (value, self->selected_node);
      break;
    case PROP_BASELINE:
      g_value_set_boxed (value, self->baseline);
      break;
    case PROP_SEARCH_TEXT:
      g_value_take_string (value, kymo_flame_model_dup_search_text (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_flame_model_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  KymoFlameModel *self = KYMO_FLAME_MODEL (object);

  switch (prop_id)
    {
    case PROP_SOURCE:
      kymo_flame_model_set_source (self, g_value_get_int (value));
      break;
    case PROP_SELECTED_NODE:
      kymo_flame_model_set_selected_node (self, g_value_get_uint (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_flame_model_class_init (KymoFlameModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = kymo_flame_model_dispose;
  object_class->finalize = kymo_flame_model_finalize;
  object_class->get_property = kymo_flame_model_get_property;
  object_class->set_property = kymo_flame_model_set_property;

  properties[PROP_TREE] =
    g_param_spec_boxed ("tree", NULL, NULL, KYMO_TYPE_CALL_TREE,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SOURCE] =
    g_param_spec_int ("source", NULL, NULL, KYMO_CALL_TREE_SPANS, KYMO_CALL_TREE_SAMPLES, KYMO_CALL_TREE_SPANS,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SELECTED_NODE] =
    g_param_spec_uint ("selected-node", NULL, NULL, 0, G_MAXUINT32, G_MAXUINT32,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BASELINE] =
    g_param_spec_boxed ("baseline", NULL, NULL, KYMO_TYPE_CALL_TREE,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH_TEXT] =
    g_param_spec_string ("search-text", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_flame_model_init (KymoFlameModel *self)
{
  g_weak_ref_init (&self->session, NULL);
  self->selected_node = G_MAXUINT32;
}

KymoFlameModel *
kymo_flame_model_get_for_session (KymoSession *session)
{
  KymoFlameModel *self;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self = g_object_get_data (G_OBJECT (session), MODEL_KEY);
  if (self != NULL)
    return self;

  self = g_object_new (KYMO_TYPE_FLAME_MODEL, NULL);
  g_weak_ref_set (&self->session, session);
  self->trace = g_object_ref (kymo_session_get_trace (session));
  g_object_set_data_full (G_OBJECT (session), MODEL_KEY, self, g_object_unref);
  g_signal_connect_object (session, "notify::selection-start", G_CALLBACK (on_range_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::selection-end", G_CALLBACK (on_range_changed),
                           self, G_CONNECT_SWAPPED);
  /* the find bar's query, or a name picked elsewhere (the range summary) */
  g_signal_connect_object (session, "notify::search-text", G_CALLBACK (on_search_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::highlighted-name", G_CALLBACK (on_search_changed),
                           self, G_CONNECT_SWAPPED);
  queue_fold (self);
  return self;
}

KymoSession *
kymo_flame_model_get_session (KymoFlameModel *self)
{
  g_autoptr(KymoSession) session = NULL;

  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), NULL);

  /* borrowed: the session owns the model, so it outlives every caller */
  session = g_weak_ref_get (&self->session);
  return session;
}

KymoCallTree *
kymo_flame_model_get_tree (KymoFlameModel *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), NULL);
  return self->shown;
}

KymoCallTree *
kymo_flame_model_get_current (KymoFlameModel *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), NULL);
  return self->current;
}

gboolean
kymo_flame_model_get_busy (KymoFlameModel *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), FALSE);
  return self->busy || self->fold_idle != 0;
}

KymoCallTreeSource
kymo_flame_model_get_source (KymoFlameModel *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), KYMO_CALL_TREE_SPANS);
  return self->source;
}

void
kymo_flame_model_set_source (KymoFlameModel     *self,
                             KymoCallTreeSource  source)
{
  g_return_if_fail (KYMO_IS_FLAME_MODEL (self));

  if (self->source == source)
    return;
  self->source = source;
  /* a baseline of the other kind compares nothing */
  g_clear_pointer (&self->baseline, kymo_call_tree_unref);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SOURCE]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
  queue_fold (self);
}

gboolean
kymo_flame_model_has_samples (KymoFlameModel *self)
{
  KymoStacks *stacks;
  gsize n = 0;

  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), FALSE);

  stacks = kymo_trace_get_stacks (self->trace);
  if (stacks != NULL)
    kymo_stacks_get_samples (stacks, &n);
  return n > 0;
}

guint32
kymo_flame_model_get_selected_node (KymoFlameModel *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), G_MAXUINT32);
  return self->selected_node;
}

void
kymo_flame_model_set_selected_node (KymoFlameModel *self,
                                    guint32         node)
{
  g_return_if_fail (KYMO_IS_FLAME_MODEL (self));

  if (self->shown == NULL || node >= kymo_call_tree_get_n_nodes (self->shown))
    node = G_MAXUINT32;
  if (self->selected_node == node)
    return;
  self->selected_node = node;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SELECTED_NODE]);
}

void
kymo_flame_model_set_baseline (KymoFlameModel *self,
                               KymoCallTree   *baseline,
                               const char     *label)
{
  g_return_if_fail (KYMO_IS_FLAME_MODEL (self));

  if (baseline != NULL)
    kymo_call_tree_ref (baseline);
  g_clear_pointer (&self->baseline, kymo_call_tree_unref);
  self->baseline = baseline;
  g_free (self->baseline_label);
  self->baseline_label = g_strdup (label);
  self->baseline_is_after = FALSE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
  publish (self);
}

void
kymo_flame_model_set_other_trace (KymoFlameModel *self,
                                  KymoCallTree   *other,
                                  const char     *label)
{
  g_return_if_fail (KYMO_IS_FLAME_MODEL (self));
  g_return_if_fail (other != NULL);

  kymo_call_tree_ref (other);
  g_clear_pointer (&self->baseline, kymo_call_tree_unref);
  self->baseline = other;
  g_free (self->baseline_label);
  self->baseline_label = g_strdup (label);
  self->baseline_is_after = TRUE;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
  publish (self);
}

void
kymo_flame_model_set_baseline_current (KymoFlameModel *self)
{
  g_return_if_fail (KYMO_IS_FLAME_MODEL (self));

  if (self->current != NULL)
    kymo_flame_model_set_baseline (self, self->current, NULL);
}

KymoCallTree *
kymo_flame_model_get_baseline (KymoFlameModel *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), NULL);
  return self->baseline;
}

const char *
kymo_flame_model_get_baseline_label (KymoFlameModel *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), NULL);
  return self->baseline_label;
}

void
kymo_flame_model_clear_baseline (KymoFlameModel *self)
{
  g_return_if_fail (KYMO_IS_FLAME_MODEL (self));

  if (self->baseline != NULL)
    kymo_flame_model_set_baseline (self, NULL, NULL);
}

void
kymo_flame_model_refresh (KymoFlameModel *self)
{
  g_return_if_fail (KYMO_IS_FLAME_MODEL (self));

  g_clear_handle_id (&self->fold_idle, g_source_remove);
  fold_now (self);
}

static gsize
first_at_or_after (const KymoSpan *spans,
                   gsize           n,
                   KymoTime        t)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (spans[mid].start < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gboolean
kymo_flame_model_find_longest_span (KymoFlameModel *self,
                                    guint32         node,
                                    KymoEventRef   *ref)
{
  const KymoCallNode *nodes;
  guint n_nodes;
  guint32 track_node = node;
  KymoTime from, to;
  KymoTrack *track;
  const KymoSpan *spans;
  gsize n, first, best = G_MAXSIZE;
  KymoTime best_duration = -1;
  guint depth;

  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), FALSE);
  g_return_val_if_fail (ref != NULL, FALSE);

  /* a diff against another trace names that trace's spans */
  if (self->shown == NULL || kymo_call_tree_get_source (self->shown) != KYMO_CALL_TREE_SPANS ||
      kymo_call_tree_get_trace (self->shown) != self->trace)
    return FALSE;
  nodes = kymo_call_tree_get_nodes (self->shown, &n_nodes);
  if (node >= n_nodes || nodes[node].kind != KYMO_CALL_FRAME_NAMED || nodes[node].depth < 2)
    return FALSE;
  while (track_node != G_MAXUINT32 && nodes[track_node].kind != KYMO_CALL_FRAME_TRACK)
    track_node = nodes[track_node].parent;
  if (track_node == G_MAXUINT32 || nodes[track_node].name_id >= kymo_trace_get_n_tracks (self->trace))
    return FALSE;

  track = kymo_trace_get_track (self->trace, nodes[track_node].name_id);
  depth = nodes[node].depth - 2;
  if (depth >= kymo_track_get_n_depths (track))
    return FALSE;
  kymo_call_tree_get_range (self->shown, &from, &to);
  if (from == KYMO_TIME_NONE)
    from = G_MININT64;
  if (to == KYMO_TIME_NONE)
    to = G_MAXINT64;
  spans = kymo_track_get_depth_spans (track, depth, &n, &first);
  /* Bounded by the spans of one depth of one track in the range; the user
   * asked for exactly this span, once. */
  for (gsize i = first_at_or_after (spans, n, from); i < n && spans[i].start <= to; i++)
    if (kymo_span_name (&spans[i]) == nodes[node].name_id && spans[i].end - spans[i].start > best_duration)
      {
        best = i;
        best_duration = spans[i].end - spans[i].start;
      }
  if (best == G_MAXSIZE)
    return FALSE;
  ref->track = nodes[track_node].name_id;
  ref->kind = KYMO_EVENT_KIND_SPAN;
  ref->index = (guint) (first + best);
  return TRUE;
}

char *
kymo_flame_model_dup_search_text (KymoFlameModel *self)
{
  g_autoptr(KymoSession) session = NULL;
  const char *text;
  guint32 name;

  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (self), NULL);

  session = g_weak_ref_get (&self->session);
  if (session == NULL)
    return NULL;
  text = kymo_session_get_search_text (session);
  if (text != NULL && text[0] != '\0')
    return g_strdup (text);
  name = kymo_session_get_highlighted_name (session);
  if (name == KYMO_SESSION_NO_NAME)
    return NULL;
  return g_strdup (kymo_trace_get_name (self->trace, name));
}
