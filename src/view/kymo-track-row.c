/* kymo-track-row.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-track-row"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-track-row.h"
#include "dial9/kymo-dial9-analysis.h"

struct _KymoTrackRow
{
  GObject      parent_instance;
  KymoSession *session;
  guint        track;
  guint        indent;
  gboolean     visible;
  gboolean     pinned;
  gboolean     collapsed;
};

G_DEFINE_FINAL_TYPE (KymoTrackRow, kymo_track_row, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TRACK,
  PROP_NAME,
  PROP_KIND,
  PROP_N_EVENTS,
  PROP_INDENT,
  PROP_VISIBLE,
  PROP_PINNED,
  PROP_IS_GROUP,
  PROP_COLLAPSED,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static KymoTrack *
get_track (KymoTrackRow *self)
{
  return kymo_trace_get_track (kymo_session_get_trace (self->session), self->track);
}

static void
kymo_track_row_finalize (GObject *object)
{
  KymoTrackRow *self = (KymoTrackRow *) object;

  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_track_row_parent_class)->finalize (object);
}

static void
kymo_track_row_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  KymoTrackRow *self = KYMO_TRACK_ROW (object);

  switch (prop_id)
    {
    case PROP_TRACK:
      g_value_set_uint (value, self->track);
      break;
    case PROP_NAME:
      g_value_set_string (value, kymo_track_row_get_name (self));
      break;
    case PROP_KIND:
      g_value_set_string (value, kymo_track_kind_to_string (kymo_track_get_kind (get_track (self))));
      break;
    case PROP_N_EVENTS:
      g_value_set_uint64 (value, kymo_track_row_get_n_events (self));
      break;
    case PROP_INDENT:
      g_value_set_uint (value, self->indent);
      break;
    case PROP_VISIBLE:
      g_value_set_boolean (value, self->visible);
      break;
    case PROP_PINNED:
      g_value_set_boolean (value, self->pinned);
      break;
    case PROP_IS_GROUP:
      g_value_set_boolean (value, kymo_track_row_get_is_group (self));
      break;
    case PROP_COLLAPSED:
      g_value_set_boolean (value, self->collapsed);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_track_row_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  KymoTrackRow *self = KYMO_TRACK_ROW (object);

  switch (prop_id)
    {
    case PROP_VISIBLE:
      kymo_track_row_set_visible (self, g_value_get_boolean (value));
      break;
    case PROP_PINNED:
      kymo_track_row_set_pinned (self, g_value_get_boolean (value));
      break;
    case PROP_COLLAPSED:
      kymo_track_row_set_collapsed (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_track_row_class_init (KymoTrackRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_track_row_finalize;
  object_class->get_property = kymo_track_row_get_property;
  object_class->set_property = kymo_track_row_set_property;

  properties[PROP_TRACK] =
    g_param_spec_uint ("track", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_N_EVENTS] =
    g_param_spec_uint64 ("n-events", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INDENT] =
    g_param_spec_uint ("indent", NULL, NULL, 0, G_MAXUINT, 0,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_VISIBLE] =
    g_param_spec_boolean ("visible", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PINNED] =
    g_param_spec_boolean ("pinned", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_IS_GROUP] =
    g_param_spec_boolean ("is-group", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_COLLAPSED] =
    g_param_spec_boolean ("collapsed", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_track_row_init (KymoTrackRow *self)
{
}

KymoTrackRow *
kymo_track_row_new (KymoSession *session,
                    guint        track,
                    guint        indent)
{
  KymoTrackRow *self;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self = g_object_new (KYMO_TYPE_TRACK_ROW, NULL);
  self->session = g_object_ref (session);
  self->track = track;
  self->indent = indent;
  self->visible = kymo_session_get_track_visible (session, track);
  self->pinned = kymo_session_get_track_pinned (session, track);
  self->collapsed = kymo_track_row_get_is_group (self) && kymo_session_get_group_collapsed (session, track);
  return self;
}

guint
kymo_track_row_get_track (KymoTrackRow *self)
{
  return self->track;
}

guint
kymo_track_row_get_indent (KymoTrackRow *self)
{
  return self->indent;
}

const char *
kymo_track_row_get_name (KymoTrackRow *self)
{
  return kymo_track_get_name (get_track (self));
}

/* A group counts the events of all its tracks. */
static guint64
count_events (KymoTrace *trace,
              guint      id)
{
  KymoTrack *track = kymo_trace_get_track (trace, id);
  const guint *children;
  guint n_children;
  guint64 n = kymo_track_get_n_events (track);

  children = kymo_track_get_children (track, &n_children);
  for (guint i = 0; i < n_children; i++)
    n += count_events (trace, children[i]);
  return n;
}

guint64
kymo_track_row_get_n_events (KymoTrackRow *self)
{
  return count_events (kymo_session_get_trace (self->session), self->track);
}

gboolean
kymo_track_row_get_visible (KymoTrackRow *self)
{
  return self->visible;
}

void
kymo_track_row_set_visible (KymoTrackRow *self,
                            gboolean      visible)
{
  kymo_session_set_track_visible (self->session, self->track, visible);
  kymo_track_row_sync (self);
}

gboolean
kymo_track_row_get_pinned (KymoTrackRow *self)
{
  return self->pinned;
}

void
kymo_track_row_set_pinned (KymoTrackRow *self,
                           gboolean      pinned)
{
  kymo_session_set_track_pinned (self->session, self->track, pinned);
  kymo_track_row_sync (self);
}

char *
kymo_track_row_dup_tooltip (KymoTrackRow *self)
{
  const char *name = kymo_track_row_get_name (self);
  KymoDial9Lanes *lanes = NULL;
  KymoTime cpu, active;

  if (kymo_dial9_analysis_applies (self->session))
    lanes = kymo_dial9_analysis_get_lanes (kymo_dial9_analysis_get (self->session));
  if (lanes == NULL || !kymo_dial9_lanes_get_cpu_total (lanes, self->track, &cpu, &active) || active <= 0)
    return g_strdup (name);
  /* Translators: a Tokio worker's CPU time over the time it was not parked */
  return g_strdup_printf (_("%s\nOn CPU %.0f %% of its active time"), name, 100.0 * cpu / active);
}

gboolean
kymo_track_row_get_is_group (KymoTrackRow *self)
{
  return kymo_track_get_kind (get_track (self)) == KYMO_TRACK_GROUP;
}

gboolean
kymo_track_row_get_collapsed (KymoTrackRow *self)
{
  return self->collapsed;
}

/* Only a group collapses: its tracks leave the list and the timeline. */
void
kymo_track_row_set_collapsed (KymoTrackRow *self,
                              gboolean      collapsed)
{
  if (!kymo_track_row_get_is_group (self))
    return;
  kymo_session_set_group_collapsed (self->session, self->track, collapsed);
  kymo_track_row_sync (self);
}

void
kymo_track_row_sync (KymoTrackRow *self)
{
  gboolean visible = kymo_session_get_track_visible (self->session, self->track);
  gboolean pinned = kymo_session_get_track_pinned (self->session, self->track);
  gboolean collapsed = kymo_track_row_get_is_group (self) &&
                       kymo_session_get_group_collapsed (self->session, self->track);

  if (visible != self->visible)
    {
      self->visible = visible;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_VISIBLE]);
    }
  if (pinned != self->pinned)
    {
      self->pinned = pinned;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PINNED]);
    }
  if (collapsed != self->collapsed)
    {
      self->collapsed = collapsed;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_COLLAPSED]);
    }
}
