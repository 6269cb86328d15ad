/* kymo-details-sidebar.h: details, zones, annotations and range summary
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_DETAILS_SIDEBAR (kymo_details_sidebar_get_type ())

G_DECLARE_FINAL_TYPE (KymoDetailsSidebar, kymo_details_sidebar, KYMO, DETAILS_SIDEBAR, GtkWidget)

/* Pages, for kymo_details_sidebar_set_page() and the "page" property. */
#define KYMO_DETAILS_PAGE_DETAILS     "details"
#define KYMO_DETAILS_PAGE_ZONES       "zones"
#define KYMO_DETAILS_PAGE_ANNOTATIONS "annotations"
#define KYMO_DETAILS_PAGE_RANGE       "range"
#define KYMO_DETAILS_PAGE_QUERY       "query"

/* Binds itself to @session; put it anywhere in the trace view.
 * Widget actions: "details.follow-link" (also J inside the sidebar) and
 * "details.show-page" (string: a page name). */
GtkWidget   *kymo_details_sidebar_new             (KymoSession        *session);
KymoSession *kymo_details_sidebar_get_session     (KymoDetailsSidebar *self);
/* Selects the record linked to the selected event (ATF index ↔ detail) and
 * scrolls the timeline to it. FALSE when there is no link. */
gboolean     kymo_details_sidebar_follow_link     (KymoDetailsSidebar *self);
const char  *kymo_details_sidebar_get_page        (KymoDetailsSidebar *self);
void         kymo_details_sidebar_set_page        (KymoDetailsSidebar *self,
                                                   const char         *page);

/* Folded, only the tab row shows (the trace view folds an empty Details
 * page so that it takes no room). */
gboolean     kymo_details_sidebar_get_folded      (KymoDetailsSidebar *self);
void         kymo_details_sidebar_set_folded      (KymoDetailsSidebar *self,
                                                   gboolean            folded);

GtkWidget   *kymo_details_sidebar_get_details_pane    (KymoDetailsSidebar *self);
GtkWidget   *kymo_details_sidebar_get_zone_view       (KymoDetailsSidebar *self);
GtkWidget   *kymo_details_sidebar_get_annotation_view (KymoDetailsSidebar *self);
GtkWidget   *kymo_details_sidebar_get_range_summary   (KymoDetailsSidebar *self);

G_END_DECLS
