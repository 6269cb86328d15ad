/* kymo-dial9-poi-model.h: the points of interest as a list, one line each
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-dial9-analysis.h"

G_BEGIN_DECLS

#define KYMO_TYPE_DIAL9_POI_MODEL (kymo_dial9_poi_model_get_type ())

G_DECLARE_FINAL_TYPE (KymoDial9PoiModel, kymo_dial9_poi_model, KYMO, DIAL9_POI_MODEL, GObject)

/* A GListModel of GtkStringObject: a point's line is made when a view asks
 * for that item, so a trace with a million points costs the UI thread
 * only the lines on screen. */
KymoDial9PoiModel *kymo_dial9_poi_model_new       (KymoDial9Analysis *analysis);
void               kymo_dial9_poi_model_set_order (KymoDial9PoiModel *self,
                                                   KymoPoiOrder       order);
KymoPoiOrder       kymo_dial9_poi_model_get_order (KymoDial9PoiModel *self);
/* The point at @position in the current order, or NULL. */
const KymoPoi     *kymo_dial9_poi_model_get_poi   (KymoDial9PoiModel *self,
                                                   guint              position);
/* Follows a new result of the analysis. */
void               kymo_dial9_poi_model_refresh   (KymoDial9PoiModel *self);

G_END_DECLS
