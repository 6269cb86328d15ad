/* kymo-session-events.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-session"

#include "config.h"

#include "kymo-session-private.h"

/* The events picked out: selected, hovered, a selected range, highlighted
 * sets and the search. */

const KymoEventRef *
kymo_session_get_selected_event (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), NULL);

  return _kymo_event_ref_is_set (&self->selected) ? &self->selected : NULL;
}

gboolean
kymo_session_get_event_extent (KymoSession        *self,
                               const KymoEventRef *ref,
                               KymoTime           *start,
                               KymoTime           *end)
{
  KymoTrack *track;
  gsize n;

  g_return_val_if_fail (KYMO_IS_SESSION (self), FALSE);

  if (ref == NULL || !_kymo_event_ref_is_set (ref) || ref->track >= kymo_trace_get_n_tracks (self->trace))
    return FALSE;
  track = kymo_trace_get_track (self->trace, ref->track);

  switch (ref->kind)
    {
    case KYMO_EVENT_KIND_SPAN:
      {
        const KymoSpan *spans = kymo_track_get_spans (track, &n);
        if (ref->index >= n)
          return FALSE;
        *start = spans[ref->index].start;
        *end = spans[ref->index].end;
        return TRUE;
      }
    case KYMO_EVENT_KIND_INSTANT:
      {
        const KymoInstant *instants = kymo_track_get_instants (track, &n);
        if (ref->index >= n)
          return FALSE;
        *start = *end = instants[ref->index].ts;
        return TRUE;
      }
    case KYMO_EVENT_KIND_SAMPLE:
      {
        const KymoSample *samples = kymo_track_get_samples (track, &n);
        if (ref->index >= n)
          return FALSE;
        *start = *end = samples[ref->index].ts;
        return TRUE;
      }
    case KYMO_EVENT_KIND_ANNOTATION:
      {
        const KymoAnnotation *annotations = kymo_track_get_annotations (track, &n);
        if (ref->index >= n)
          return FALSE;
        *start = annotations[ref->index].start;
        *end = annotations[ref->index].end;
        return TRUE;
      }
    case KYMO_EVENT_KIND_NONE:
    default:
      return FALSE;
    }
}

void
kymo_session_select_event (KymoSession        *self,
                           const KymoEventRef *ref)
{
  KymoEventRef none = { 0, KYMO_EVENT_KIND_NONE, 0 };
  KymoTime start, end;

  g_return_if_fail (KYMO_IS_SESSION (self));

  if (ref == NULL || !kymo_session_get_event_extent (self, ref, &start, &end))
    ref = &none;

  if (!_kymo_event_ref_equal (ref, &self->selected))
    {
      self->selected = *ref;
      _kymo_session_notify (self, PROP_SELECTED_EVENT);
    }
  if (!_kymo_event_ref_is_set (ref))
    return;

  kymo_session_reveal_track (self, ref->track);

  /* Scroll into view: keep the zoom when the event fits, else show all of it. */
  if (start < self->start || end > self->end)
    {
      KymoTime width = self->end - self->start;

      if (end - start < width * 8 / 10)
        {
          KymoTime center = start + (end - start) / 2;
          kymo_session_zoom_to (self, center - width / 2, center - width / 2 + width);
        }
      else
        {
          KymoTime margin = MAX ((end - start) / 10, KYMO_SESSION_MIN_WINDOW);
          kymo_session_zoom_to (self, start - margin, end + margin);
        }
    }
}

const KymoEventRef *
kymo_session_get_hovered_event (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), NULL);

  return _kymo_event_ref_is_set (&self->hovered) ? &self->hovered : NULL;
}

void
kymo_session_set_hovered_event (KymoSession        *self,
                                const KymoEventRef *ref)
{
  KymoEventRef none = { 0, KYMO_EVENT_KIND_NONE, 0 };

  g_return_if_fail (KYMO_IS_SESSION (self));

  if (ref == NULL)
    ref = &none;
  if (_kymo_event_ref_equal (ref, &self->hovered))
    return;
  self->hovered = *ref;
  _kymo_session_notify (self, PROP_HOVERED_EVENT);
}

void
kymo_session_get_selected_range (KymoSession *self,
                                 KymoTime    *start,
                                 KymoTime    *end)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  if (start)
    *start = self->range_start;
  if (end)
    *end = self->range_end;
}

void
kymo_session_set_selected_range (KymoSession *self,
                                 KymoTime     start,
                                 KymoTime     end)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  if (start == KYMO_TIME_NONE || end == KYMO_TIME_NONE)
    start = end = KYMO_TIME_NONE;
  else if (end < start)
    {
      KymoTime tmp = start;
      start = end;
      end = tmp;
    }

  g_object_freeze_notify (G_OBJECT (self));
  if (start != self->range_start)
    {
      self->range_start = start;
      _kymo_session_notify (self, PROP_SELECTION_START);
    }
  if (end != self->range_end)
    {
      self->range_end = end;
      _kymo_session_notify (self, PROP_SELECTION_END);
    }
  g_object_thaw_notify (G_OBJECT (self));
}

void
kymo_session_clear_selected_range (KymoSession *self)
{
  kymo_session_set_selected_range (self, KYMO_TIME_NONE, KYMO_TIME_NONE);
}

guint32
kymo_session_get_highlighted_name (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), KYMO_SESSION_NO_NAME);

  return self->highlighted_name;
}

void
kymo_session_set_highlighted_name (KymoSession *self,
                                   guint32      name)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  if (name == self->highlighted_name)
    return;
  self->highlighted_name = name;
  _kymo_session_notify (self, PROP_HIGHLIGHTED_NAME);
}

KymoEventSet *
kymo_session_get_highlight (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), NULL);

  return self->highlight;
}

void
kymo_session_set_highlight (KymoSession  *self,
                            KymoEventSet *highlight)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  if (highlight == self->highlight)
    return;
  if (highlight != NULL)
    {
      g_return_if_fail (kymo_event_set_get_trace (highlight) == self->trace);
      kymo_event_set_seal (highlight);
      kymo_event_set_ref (highlight);
    }
  g_clear_pointer (&self->highlight, kymo_event_set_unref);
  self->highlight = highlight;
  _kymo_session_notify (self, PROP_HIGHLIGHT);
}

const char *
kymo_session_get_search_text (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), NULL);

  return self->search_text ? self->search_text : "";
}

void
kymo_session_set_search_text (KymoSession *self,
                              const char  *text)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  if (g_strcmp0 (kymo_session_get_search_text (self), text ? text : "") == 0)
    return;
  g_free (self->search_text);
  self->search_text = g_strdup (text);
  _kymo_session_notify (self, PROP_SEARCH_TEXT);
}

int
kymo_session_get_search_match (KymoSession *self)
{
  g_return_val_if_fail (KYMO_IS_SESSION (self), -1);

  return self->search_match;
}

void
kymo_session_set_search_match (KymoSession *self,
                               int          match)
{
  g_return_if_fail (KYMO_IS_SESSION (self));

  match = MAX (match, -1);
  if (match == self->search_match)
    return;
  self->search_match = match;
  _kymo_session_notify (self, PROP_SEARCH_MATCH);
}
