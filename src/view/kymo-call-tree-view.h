/* kymo-call-tree-view.h: the call tree, top-down or by callers
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-flame-model.h"

G_BEGIN_DECLS

#define KYMO_TYPE_CALL_TREE_VIEW (kymo_call_tree_view_get_type ())

G_DECLARE_FINAL_TYPE (KymoCallTreeView, kymo_call_tree_view, KYMO, CALL_TREE_VIEW, GtkWidget)

GtkWidget  *kymo_call_tree_view_new           (KymoSession      *session);
/* TRUE: callers of each function ("bottom-up"); FALSE: top-down. */
gboolean    kymo_call_tree_view_get_callers   (KymoCallTreeView *self);
void        kymo_call_tree_view_set_callers   (KymoCallTreeView *self,
                                               gboolean          callers);
/* The rows as shown: a GtkTreeListModel of KymoCallTreeItems. */
GListModel *kymo_call_tree_view_get_model     (KymoCallTreeView *self);
/* The selected row's position in the model above (a frame picked in the
 * flame graph selects its row); GTK_INVALID_LIST_POSITION for none. */
guint       kymo_call_tree_view_get_selected_row (KymoCallTreeView *self);
/* What activating row @position does: selects its frame in the flame graph
 * and the longest such span on the timeline. */
void        kymo_call_tree_view_activate_row  (KymoCallTreeView *self,
                                               guint             position);

G_END_DECLS
