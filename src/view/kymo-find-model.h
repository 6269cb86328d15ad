/* kymo-find-model.h: the find state of one session, as a list of matches
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_FIND_MODEL (kymo_find_model_get_type ())

G_DECLARE_FINAL_TYPE (KymoFindModel, kymo_find_model, KYMO, FIND_MODEL, GObject)

/* The one find model of @session (made on first use, lives as long as the
 * session): the search bar, the results list and the histogram share it. It
 * searches whenever the session's search-text changes (off the UI thread,
 * cancelling the previous search), publishes the matches once as the
 * session highlight, and lists them (KymoFindItem) in start order. */
KymoFindModel    *kymo_find_model_get_for_session (KymoSession   *session);

KymoSession      *kymo_find_model_get_session     (KymoFindModel *self);
/* NULL when nothing is searched. */
KymoSearchResult *kymo_find_model_get_result      (KymoFindModel *self);
gboolean          kymo_find_model_get_args        (KymoFindModel *self);
void              kymo_find_model_set_args        (KymoFindModel *self,
                                                   gboolean       args);
gboolean          kymo_find_model_get_busy        (KymoFindModel *self);
double            kymo_find_model_get_fraction    (KymoFindModel *self);
/* The timeline's width in pixels: decides when a match is too small to see. */
void              kymo_find_model_set_view_width  (KymoFindModel *self,
                                                   int            width);

/* Makes match @position current: pans (zooming in when it would be
 * sub-pixel) and selects it. */
void              kymo_find_model_go_to           (KymoFindModel *self,
                                                   guint          position);
/* The next / previous match in time, wrapping; from the visible window when
 * none is current. FALSE when there is no match. */
gboolean          kymo_find_model_next            (KymoFindModel *self);
gboolean          kymo_find_model_previous        (KymoFindModel *self);

G_END_DECLS
