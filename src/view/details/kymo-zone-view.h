/* kymo-zone-view.h: the trace's groups (processes, zones, cores, runtimes)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_ZONE_VIEW (kymo_zone_view_get_type ())

G_DECLARE_FINAL_TYPE (KymoZoneView, kymo_zone_view, KYMO, ZONE_VIEW, GtkWidget)

GtkWidget *kymo_zone_view_new      (KymoSession  *session);
/* How many groups are listed. */
guint      kymo_zone_view_get_n_groups (KymoZoneView *self);
/* Reveals the group's tracks and zooms the timeline to the time they cover;
 * @track may also be any track listed under a group. */
void       kymo_zone_view_activate (KymoZoneView *self,
                                    guint         track);

G_END_DECLS
