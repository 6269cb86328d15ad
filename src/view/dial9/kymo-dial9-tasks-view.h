/* kymo-dial9-tasks-view.h: the Tasks page (dial9)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_DIAL9_TASKS_VIEW (kymo_dial9_tasks_view_get_type ())

G_DECLARE_FINAL_TYPE (KymoDial9TasksView, kymo_dial9_tasks_view, KYMO, DIAL9_TASKS_VIEW, GtkWidget)

GtkWidget  *kymo_dial9_tasks_view_new       (KymoSession        *session);
/* The rows as shown (sorted): KymoDial9TaskItem. */
GListModel *kymo_dial9_tasks_view_get_model (KymoDial9TasksView *self);
/* Selects the shown row @position (GTK_INVALID_LIST_POSITION: none). */
void        kymo_dial9_tasks_view_select    (KymoDial9TasksView *self,
                                             guint               position);
const char *kymo_dial9_tasks_view_get_wakers_text (KymoDial9TasksView *self);

G_END_DECLS
