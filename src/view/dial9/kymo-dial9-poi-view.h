/* kymo-dial9-poi-view.h: the Points of Interest page (dial9)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_DIAL9_POI_VIEW (kymo_dial9_poi_view_get_type ())

G_DECLARE_FINAL_TYPE (KymoDial9PoiView, kymo_dial9_poi_view, KYMO, DIAL9_POI_VIEW, GtkWidget)

GtkWidget  *kymo_dial9_poi_view_new         (KymoSession      *session);
/* Moves to the next (+1) or previous (-1) point, frames it and selects it. */
gboolean    kymo_dial9_poi_view_step        (KymoDial9PoiView *self,
                                             int               direction);
/* TRUE: worst first; FALSE: time order. */
void        kymo_dial9_poi_view_set_worst_first (KymoDial9PoiView *self,
                                                 gboolean          worst_first);
const char *kymo_dial9_poi_view_get_counter (KymoDial9PoiView *self);

G_END_DECLS
