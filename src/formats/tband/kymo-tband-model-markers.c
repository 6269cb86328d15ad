/* kymo-tband-model-markers.c: the Tonbandgerät event and value markers, and their tracks
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-model-private.h"

static EvtMarker *
evtmarker_new (guint32 id)
{
  EvtMarker *marker = g_new0 (EvtMarker, 1);

  marker->id = id;
  return marker;
}

EvtMarker *
_kymo_tband_get_evtmarker (IdMap    *map,
                           guint32   id,
                           gboolean *created)
{
  EvtMarker *marker;

  id = _kymo_tband_idmap_limit (map, id);
  marker = _kymo_tband_idmap_get (map, id);

  *created = marker == NULL;
  if (marker == NULL)
    {
      marker = evtmarker_new (id);
      _kymo_tband_idmap_set (map, id, marker);
    }
  return marker;
}

ValMarker *
_kymo_tband_get_valmarker (IdMap    *map,
                           guint32   id,
                           gboolean *created)
{
  ValMarker *marker;

  id = _kymo_tband_idmap_limit (map, id);
  marker = _kymo_tband_idmap_get (map, id);

  *created = marker == NULL;
  if (marker == NULL)
    {
      marker = g_new0 (ValMarker, 1);
      marker->id = id;
      _kymo_tband_idmap_set (map, id, marker);
    }
  return marker;
}

Lane *
_kymo_tband_global_marker_track (KymoTbandModel *self,
                                 KymoTrackKind   kind,
                                 guint32         id)
{
  KymoTrack *track;

  track = kymo_trace_get_track (self->trace,
                                kymo_trace_add_track (self->trace, KYMO_NO_TRACK, kind, "Marker"));
  kymo_track_set_sort_key (track, SORT_MARKERS + (kind == KYMO_TRACK_COUNTER ? (1 << 30) : 0) + id);
  kymo_track_set_tag (track, id);
  return _kymo_tband_lane_new (self, track);
}

static guint32
marker_span_name (KymoTbandModel       *self,
                  EvtMarker            *marker,
                  const KymoTbandEvent *event)
{
  char buf[40];

  if (event->str_len > 0)
    return kymo_trace_intern_len (self->trace, (const char *) event->str, event->str_len);
  if (marker->name_id == 0)
    {
      if (marker->name != NULL && marker->name[0] != '\0')
        marker->name_id = kymo_trace_intern (self->trace, marker->name);
      else
        {
          g_snprintf (buf, sizeof buf, "Marker #%u", marker->id);
          marker->name_id = kymo_trace_intern (self->trace, buf);
        }
    }
  return marker->name_id;
}

void
_kymo_tband_evtmarker_event (KymoTbandModel       *self,
                             EvtMarker            *marker,
                             const KymoTbandEvent *event,
                             guint                 what,   /* 0 instant, 1 begin, 2 end */
                             KymoTime              ts,
                             guint32               source,
                             guint64               offset)
{
  if (what == 0)
    {
      _kymo_tband_lane_add_instant (self, marker->track, ts, marker_span_name (self, marker, event), 0, source);
    }
  else if (what == 1)
    {
      OpenSpan open = { ts, marker_span_name (self, marker, event), source };

      if (marker->open.len >= MAX_NESTING)
        {
          _kymo_tband_model_warn_at (self, offset, ts, "event marker %u nested deeper than %u", marker->id, MAX_NESTING);
          return;
        }
      if (marker->open.len == marker->open.room)
        marker->open.items = _kymo_tband_stack_grow (marker->open.items, &marker->open.room, sizeof (OpenSpan));
      marker->open.items[marker->open.len++] = open;
    }
  else
    {
      OpenSpan *open;

      if (marker->open.len == 0)
        {
          _kymo_tband_model_warn_at (self, offset, ts, "end of event marker %u that was not begun", marker->id);
          return;
        }
      open = &marker->open.items[marker->open.len - 1];
      _kymo_tband_lane_add_span (self, marker->track, open->start, ts, open->name,
                                 marker->open.len - 1, 0, open->source);
      marker->open.len--;
    }
}

void
_kymo_tband_evtmarker_close (KymoTbandModel *self,
                             EvtMarker      *marker,
                             KymoTime        end)
{
  if (marker->track == NULL)
    return;
  for (guint i = 0; i < marker->open.len; i++)
    {
      OpenSpan *open = &marker->open.items[i];

      _kymo_tband_lane_add_span (self, marker->track, open->start, MAX (end, open->start), open->name, i,
                                 KYMO_EVENT_INCOMPLETE, open->source);
    }
  marker->open.len = 0;
}
