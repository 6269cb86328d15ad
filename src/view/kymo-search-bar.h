/* kymo-search-bar.h: Ctrl+F over the timeline
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_SEARCH_BAR (kymo_search_bar_get_type ())

G_DECLARE_FINAL_TYPE (KymoSearchBar, kymo_search_bar, KYMO, SEARCH_BAR, GtkWidget)

GtkWidget *kymo_search_bar_new          (KymoSession   *session);
/* Shows the bar and focuses its entry (Ctrl+F). */
void       kymo_search_bar_open         (KymoSearchBar *self);
gboolean   kymo_search_bar_get_open     (KymoSearchBar *self);
GtkWidget *kymo_search_bar_get_entry    (KymoSearchBar *self);

G_END_DECLS
