/* kymo-call-tree-item.h: one node of a call tree, as a list item
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "kymo-analysis.h"

G_BEGIN_DECLS

#define KYMO_TYPE_CALL_TREE_ITEM (kymo_call_tree_item_get_type ())

G_DECLARE_FINAL_TYPE (KymoCallTreeItem, kymo_call_tree_item, KYMO, CALL_TREE_ITEM, GObject)

KymoCallTreeItem   *kymo_call_tree_item_new      (KymoCallTree     *tree,
                                                  guint32           node);
KymoCallTree       *kymo_call_tree_item_get_tree (KymoCallTreeItem *self);
guint32             kymo_call_tree_item_get_node (KymoCallTreeItem *self);
const KymoCallNode *kymo_call_tree_item_get_data (KymoCallTreeItem *self);
/* The children of @node as items, heaviest first; NULL for a leaf. */
GListModel         *kymo_call_tree_item_dup_children (KymoCallTree *tree,
                                                      guint32       node);

G_END_DECLS
