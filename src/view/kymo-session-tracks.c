/* kymo-session-tracks.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-session"

#include "config.h"

#include <string.h>

#include "kymo-session-private.h"

/* Which tracks show: hidden, pinned, collapsed groups and the name filter. */

void
kymo_session_reveal_track (KymoSession *self,
                           guint        track_id)
{
  gboolean changed = FALSE;
  guint id = track_id;

  g_return_if_fail (KYMO_IS_SESSION (self));
  g_return_if_fail (track_id < kymo_trace_get_n_tracks (self->trace));

  if (self->hidden[id])
    {
      self->hidden[id] = FALSE;
      changed = TRUE;
    }
  while ((id = kymo_track_get_parent (kymo_trace_get_track (self->trace, id))) != KYMO_NO_TRACK)
    {
      if (self->collapsed[id] || self->hidden[id])
        {
          self->collapsed[id] = FALSE;
          self->hidden[id] = FALSE;
          changed = TRUE;
        }
    }
  if (changed)
    _kymo_session_tracks_changed (self);
  _kymo_session_emit_reveal_track (self, track_id);
}


const char *
kymo_session_get_filter_text (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), NULL);

  return self->filter_text;
}

void
kymo_session_set_filter_text (KymoSession *self,
                              const char  *text)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  if (text != NULL && *text == '\0')
    text = NULL;
  if (g_strcmp0 (text, self->filter_text) == 0)
    return;
  g_free (self->filter_text);
  g_free (self->filter_folded);
  self->filter_text = g_strdup (text);
  self->filter_folded = text ? g_utf8_casefold (text, -1) : NULL;
  _kymo_session_notify (self, PROP_FILTER_TEXT);
  _kymo_session_tracks_changed (self);
}

gboolean
kymo_session_track_matches_filter (KymoSession *self,
                                   guint        track)
{
  g_autofree char *folded = NULL;

  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);

  if (self->filter_folded == NULL)
    return TRUE;
  folded = g_utf8_casefold (kymo_track_get_name (kymo_trace_get_track (self->trace, track)), -1);
  return strstr (folded, self->filter_folded) != NULL;
}

gboolean
kymo_session_get_track_visible (KymoSession *self,
                                guint        track)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);
  g_return_val_if_fail (track < kymo_trace_get_n_tracks (self->trace), FALSE);

  return !self->hidden[track];
}

void
kymo_session_set_track_visible (KymoSession *self,
                                guint        track,
                                gboolean     visible)
{
  g_return_if_fail (KYMO_IS_SESSION (self));
  g_return_if_fail (track < kymo_trace_get_n_tracks (self->trace));

  if (!self->hidden[track] == !!visible)
    return;
  self->hidden[track] = !visible;
  _kymo_session_tracks_changed (self);
}

gboolean
kymo_session_get_track_pinned (KymoSession *self,
                               guint        track)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);

  for (guint i = 0; i < self->pinned->len; i++)
    if (g_array_index (self->pinned, guint, i) == track)
      return TRUE;
  return FALSE;
}

void
kymo_session_set_track_pinned (KymoSession *self,
                               guint        track,
                               gboolean     pinned)
{
  g_return_if_fail (KYMO_IS_SESSION (self));
  g_return_if_fail (track < kymo_trace_get_n_tracks (self->trace));

  for (guint i = 0; i < self->pinned->len; i++)
    if (g_array_index (self->pinned, guint, i) == track)
      {
        if (pinned)
          return;
        g_array_remove_index (self->pinned, i);
        _kymo_session_tracks_changed (self);
        return;
      }
  if (!pinned)
    return;
  g_array_append_val (self->pinned, track);
  _kymo_session_tracks_changed (self);
}

const guint *
kymo_session_get_pinned_tracks (KymoSession *self,
                                guint       *n_pinned)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), NULL);

  *n_pinned = self->pinned->len;
  return (const guint *) (gpointer) self->pinned->data;
}

gboolean
kymo_session_get_group_collapsed (KymoSession *self,
                                  guint        track)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);
  g_return_val_if_fail (track < kymo_trace_get_n_tracks (self->trace), FALSE);

  return self->collapsed[track];
}

void
kymo_session_set_group_collapsed (KymoSession *self,
                                  guint        track,
                                  gboolean     collapsed)
{
  g_return_if_fail (KYMO_IS_SESSION (self));
  g_return_if_fail (track < kymo_trace_get_n_tracks (self->trace));

  if (!self->collapsed[track] == !collapsed)
    return;
  self->collapsed[track] = !!collapsed;
  _kymo_session_tracks_changed (self);
}

guint
kymo_session_get_tracks_serial (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), 0);

  return self->tracks_serial;
}
