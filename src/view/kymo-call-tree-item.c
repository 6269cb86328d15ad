/* kymo-call-tree-item.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-call-tree-view"

#include "config.h"

#include <gio/gio.h>

#include "kymo-call-tree-item.h"

struct _KymoCallTreeItem
{
  GObject       parent_instance;
  KymoCallTree *tree;
  guint32       node;
};

G_DEFINE_FINAL_TYPE (KymoCallTreeItem, kymo_call_tree_item, G_TYPE_OBJECT)

static void
kymo_call_tree_item_finalize (GObject *object)
{
  KymoCallTreeItem *self = (KymoCallTreeItem *) object;

  g_clear_pointer (&self->tree, kymo_call_tree_unref);
  G_OBJECT_CLASS (kymo_call_tree_item_parent_class)->finalize (object);
}

static void
kymo_call_tree_item_class_init (KymoCallTreeItemClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = kymo_call_tree_item_finalize;
}

static void
kymo_call_tree_item_init (KymoCallTreeItem *self)
{
}

KymoCallTreeItem *
kymo_call_tree_item_new (KymoCallTree *tree,
                         guint32       node)
{
  KymoCallTreeItem *self;

  g_return_val_if_fail (tree != NULL, NULL);

  self = g_object_new (KYMO_TYPE_CALL_TREE_ITEM, NULL);
  self->tree = kymo_call_tree_ref (tree);
  self->node = node;
  return self;
}

KymoCallTree *
kymo_call_tree_item_get_tree (KymoCallTreeItem *self)
{
  g_return_val_if_fail (KYMO_IS_CALL_TREE_ITEM (self), NULL);
  return self->tree;
}

guint32
kymo_call_tree_item_get_node (KymoCallTreeItem *self)
{
  g_return_val_if_fail (KYMO_IS_CALL_TREE_ITEM (self), 0);
  return self->node;
}

const KymoCallNode *
kymo_call_tree_item_get_data (KymoCallTreeItem *self)
{
  g_return_val_if_fail (KYMO_IS_CALL_TREE_ITEM (self), NULL);
  return &kymo_call_tree_get_nodes (self->tree, NULL)[self->node];
}

static int
compare_heaviest (gconstpointer a,
                  gconstpointer b,
                  gpointer      user_data)
{
  const KymoCallNode *sort_nodes = user_data;
  const KymoCallNode *na = &sort_nodes[*(const guint32 *) a];
  const KymoCallNode *nb = &sort_nodes[*(const guint32 *) b];

  if (na->total != nb->total)
    return na->total > nb->total ? -1 : 1;
  return *(const guint32 *) a < *(const guint32 *) b ? -1 : 1;
}

GListModel *
kymo_call_tree_item_dup_children (KymoCallTree *tree,
                                  guint32       node)
{
  const KymoCallNode *nodes;
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (guint32));
  GListStore *store;
  guint n;

  g_return_val_if_fail (tree != NULL, NULL);

  nodes = kymo_call_tree_get_nodes (tree, &n);
  if (node >= n || nodes[node].n_descendants == 0)
    return NULL;
  for (guint32 c = node + 1; c <= node + nodes[node].n_descendants; c += nodes[c].n_descendants + 1)
    if (nodes[c].total > 0)
      g_array_append_val (children, c);
  if (children->len == 0)
    return NULL;
  g_array_sort_with_data (children, compare_heaviest, (gpointer) nodes);

  store = g_list_store_new (KYMO_TYPE_CALL_TREE_ITEM);
  for (guint i = 0; i < children->len; i++)
    {
      g_autoptr(KymoCallTreeItem) item = kymo_call_tree_item_new (tree, g_array_index (children, guint32, i));

      g_list_store_append (store, item);
    }
  return G_LIST_MODEL (store);
}
