/* kymo-query-view.h: SQL over the trace, in the bottom area
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_QUERY_VIEW (kymo_query_view_get_type ())

G_DECLARE_FINAL_TYPE (KymoQueryView, kymo_query_view, KYMO, QUERY_VIEW, GtkWidget)

GtkWidget  *kymo_query_view_new         (KymoSession   *session);
void        kymo_query_view_set_text    (KymoQueryView *self,
                                         const char    *sql);
/* Runs the editor's statement in a worker thread (what Ctrl+Enter does). */
void        kymo_query_view_run         (KymoQueryView *self);
void        kymo_query_view_cancel      (KymoQueryView *self);
gboolean    kymo_query_view_is_running  (KymoQueryView *self);
/* The results: a GtkColumnView. */
GtkWidget  *kymo_query_view_get_results (KymoQueryView *self);

G_END_DECLS
