/* kymo-flame-page.h: the "Flame Graph" page of the bottom area
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-flame-graph.h"

G_BEGIN_DECLS

#define KYMO_TYPE_FLAME_PAGE (kymo_flame_page_get_type ())

G_DECLARE_FINAL_TYPE (KymoFlamePage, kymo_flame_page, KYMO, FLAME_PAGE, GtkWidget)

GtkWidget      *kymo_flame_page_new              (KymoSession   *session);
KymoFlameGraph *kymo_flame_page_get_flame_graph  (KymoFlamePage *self);
/* TRUE while the empty state shows (nothing in the range). */
gboolean        kymo_flame_page_get_empty        (KymoFlamePage *self);
/* Compares with the trace in @file (same format), loaded and folded whole. */
void            kymo_flame_page_compare_with_file (KymoFlamePage *self,
                                                   GFile         *file);

G_END_DECLS
