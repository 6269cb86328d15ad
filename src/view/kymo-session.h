/* kymo-session.h: the view state of one trace view
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "kymo-analysis.h"

G_BEGIN_DECLS

#define KYMO_TYPE_EVENT_REF (kymo_event_ref_get_type ())
#define KYMO_TYPE_SESSION   (kymo_session_get_type ())

GType         kymo_event_ref_get_type (void) G_GNUC_CONST;
KymoEventRef *kymo_event_ref_copy     (const KymoEventRef *ref);
void          kymo_event_ref_free     (KymoEventRef       *ref);

/* No name is highlighted. */
#define KYMO_SESSION_NO_NAME G_MAXUINT32

G_DECLARE_FINAL_TYPE (KymoSession, kymo_session, KYMO, SESSION, GObject)

KymoSession        *kymo_session_new                  (KymoTrace          *trace);
KymoTrace          *kymo_session_get_trace            (KymoSession        *self);

/* The visible window [start, end) in trace nanoseconds. Setting it directly
 * is for continuous gestures (pan, wheel); zoom_to records history. */
void                kymo_session_get_visible_range    (KymoSession        *self,
                                                       KymoTime           *start,
                                                       KymoTime           *end);
void                kymo_session_set_visible_range    (KymoSession        *self,
                                                       KymoTime            start,
                                                       KymoTime            end);
void                kymo_session_zoom_to              (KymoSession        *self,
                                                       KymoTime            start,
                                                       KymoTime            end);
/* @factor < 1 zooms in; @anchor stays where it is on screen. */
void                kymo_session_zoom_at              (KymoSession        *self,
                                                       KymoTime            anchor,
                                                       double              factor);
void                kymo_session_pan                  (KymoSession        *self,
                                                       KymoTime            delta);
void                kymo_session_fit_all              (KymoSession        *self);
/* Zooms to the selected time range, else to the selected event. */
gboolean            kymo_session_fit_selection        (KymoSession        *self);
/* Saves the current range in the zoom history (before a gesture starts). */
void                kymo_session_push_history         (KymoSession        *self);
gboolean            kymo_session_go_back              (KymoSession        *self);
gboolean            kymo_session_go_forward           (KymoSession        *self);
gboolean            kymo_session_get_can_go_back      (KymoSession        *self);
gboolean            kymo_session_get_can_go_forward   (KymoSession        *self);
/* The whole trace, with a small margin; never empty. */
void                kymo_session_get_full_range       (KymoSession        *self,
                                                       KymoTime           *start,
                                                       KymoTime           *end);

/* NULL when nothing is selected. */
const KymoEventRef *kymo_session_get_selected_event   (KymoSession        *self);
/* Selects @ref (NULL clears), reveals its track (shows it, expands its
 * groups), scrolls it into view and zooms when it is off screen. */
void                kymo_session_select_event         (KymoSession        *self,
                                                       const KymoEventRef *ref);
/* Start and end of an event (start == end for points); FALSE if invalid. */
gboolean            kymo_session_get_event_extent     (KymoSession        *self,
                                                       const KymoEventRef *ref,
                                                       KymoTime           *start,
                                                       KymoTime           *end);
const KymoEventRef *kymo_session_get_hovered_event    (KymoSession        *self);
void                kymo_session_set_hovered_event    (KymoSession        *self,
                                                       const KymoEventRef *ref);

/* start == end == KYMO_TIME_NONE when no range is selected. */
void                kymo_session_get_selected_range   (KymoSession        *self,
                                                       KymoTime           *start,
                                                       KymoTime           *end);
void                kymo_session_set_selected_range   (KymoSession        *self,
                                                       KymoTime            start,
                                                       KymoTime            end);
void                kymo_session_clear_selected_range (KymoSession        *self);

guint32             kymo_session_get_highlighted_name (KymoSession        *self);
void                kymo_session_set_highlighted_name (KymoSession        *self,
                                                       guint32             name);

/* Events to mark on every view (search matches, a task's polls, query
 * results, a histogram range); everything else is drawn dimmed. NULL: none. */
KymoEventSet       *kymo_session_get_highlight        (KymoSession        *self);
void                kymo_session_set_highlight        (KymoSession        *self,
                                                       KymoEventSet       *highlight);

/* The find bar's query ("" when none) and the position of the current match
 * in its start-ordered results (-1: none). */
const char         *kymo_session_get_search_text      (KymoSession        *self);
void                kymo_session_set_search_text      (KymoSession        *self,
                                                       const char         *text);
int                 kymo_session_get_search_match     (KymoSession        *self);
void                kymo_session_set_search_match     (KymoSession        *self,
                                                       int                 match);

gboolean            kymo_session_get_wallclock        (KymoSession        *self);
void                kymo_session_set_wallclock        (KymoSession        *self,
                                                       gboolean            wallclock);
/* Wall-clock times in UTC rather than the local time zone. */
gboolean            kymo_session_get_utc              (KymoSession        *self);
void                kymo_session_set_utc              (KymoSession        *self,
                                                       gboolean            utc);

/* Track state: changes emit ::tracks-changed. */
const char         *kymo_session_get_filter_text      (KymoSession        *self);
void                kymo_session_set_filter_text      (KymoSession        *self,
                                                       const char         *text);
gboolean            kymo_session_track_matches_filter (KymoSession        *self,
                                                       guint               track);
gboolean            kymo_session_get_track_visible    (KymoSession        *self,
                                                       guint               track);
void                kymo_session_set_track_visible    (KymoSession        *self,
                                                       guint               track,
                                                       gboolean            visible);
gboolean            kymo_session_get_track_pinned     (KymoSession        *self,
                                                       guint               track);
void                kymo_session_set_track_pinned     (KymoSession        *self,
                                                       guint               track,
                                                       gboolean            pinned);
/* Pinned tracks in the order they were pinned. */
const guint        *kymo_session_get_pinned_tracks    (KymoSession        *self,
                                                       guint              *n_pinned);
gboolean            kymo_session_get_group_collapsed  (KymoSession        *self,
                                                       guint               track);
void                kymo_session_set_group_collapsed  (KymoSession        *self,
                                                       guint               track,
                                                       gboolean            collapsed);
/* Shows @track (and expands its groups) and asks views to scroll to it. */
void                kymo_session_reveal_track         (KymoSession        *self,
                                                       guint               track);
/* Bumped on every track state change: lets views cache layouts. */
guint               kymo_session_get_tracks_serial    (KymoSession        *self);

G_END_DECLS
