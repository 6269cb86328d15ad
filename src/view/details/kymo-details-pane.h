/* kymo-details-pane.h: everything known about the selected event
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_DETAILS_PANE (kymo_details_pane_get_type ())

G_DECLARE_FINAL_TYPE (KymoDetailsPane, kymo_details_pane, KYMO, DETAILS_PANE, GtkWidget)

GtkWidget   *kymo_details_pane_new          (KymoSession     *session);
KymoSession *kymo_details_pane_get_session  (KymoDetailsPane *self);
/* Selects the record linked to the selected event (ATF index ↔ detail).
 * FALSE, changing nothing, when there is no selection or no link. */
gboolean     kymo_details_pane_follow_link  (KymoDetailsPane *self);
/* The selected event with its arguments, as shown by "Copy as JSON"; NULL
 * when nothing is selected. */
char        *kymo_details_pane_dup_event_json (KymoDetailsPane *self);

G_END_DECLS
