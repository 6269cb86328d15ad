/* kymo-search-results.h: the "Find" page: every match, and their durations
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_DETAILS_PAGE_FIND "find"

#define KYMO_TYPE_SEARCH_RESULTS (kymo_search_results_get_type ())

G_DECLARE_FINAL_TYPE (KymoSearchResults, kymo_search_results, KYMO, SEARCH_RESULTS, GtkWidget)

GtkWidget *kymo_search_results_new           (KymoSession       *session);
GtkWidget *kymo_search_results_get_list      (KymoSearchResults *self);
GtkWidget *kymo_search_results_get_histogram (KymoSearchResults *self);

G_END_DECLS
