/* kymo-call-tree.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-call-tree"

#include "config.h"

#include "kymo-call-tree.h"
#include "kymo-call-tree-private.h"

G_DEFINE_BOXED_TYPE (KymoCallTree, kymo_call_tree, kymo_call_tree_ref, kymo_call_tree_unref)

KymoCallTree *
_kymo_call_tree_new (KymoTrace          *trace,
                     KymoCallTreeSource  source,
                     KymoTime            from,
                     KymoTime            to,
                     GArray             *nodes)
{
  KymoCallTree *self = g_new0 (KymoCallTree, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->trace = trace != NULL ? g_object_ref (trace) : NULL;
  self->source = source;
  self->from = from;
  self->to = to;
  self->nodes = nodes;
  return self;
}

KymoCallTree *
kymo_call_tree_ref (KymoCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
kymo_call_tree_unref (KymoCallTree *self)
{
  g_return_if_fail (self != NULL);

  if (!g_atomic_ref_count_dec (&self->ref_count))
    return;
  g_clear_object (&self->trace);
  g_clear_pointer (&self->keep[0], kymo_call_tree_unref);
  g_clear_pointer (&self->keep[1], kymo_call_tree_unref);
  g_array_unref (self->nodes);
  g_free (self);
}

/* ------------------------------------------------------------------------ */
/* Reading */

KymoTrace *
kymo_call_tree_get_trace (KymoCallTree *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->trace;
}

KymoCallTreeSource
kymo_call_tree_get_source (KymoCallTree *self)
{
  g_return_val_if_fail (self != NULL, KYMO_CALL_TREE_SPANS);
  return self->source;
}

void
kymo_call_tree_get_range (KymoCallTree *self,
                          KymoTime     *from,
                          KymoTime     *to)
{
  g_return_if_fail (self != NULL);
  if (from != NULL)
    *from = self->from;
  if (to != NULL)
    *to = self->to;
}

const KymoCallNode *
kymo_call_tree_get_nodes (KymoCallTree *self,
                          guint        *n_nodes)
{
  g_return_val_if_fail (self != NULL, NULL);
  if (n_nodes != NULL)
    *n_nodes = self->nodes->len;
  return (const KymoCallNode *) (gpointer) self->nodes->data;
}

guint
kymo_call_tree_get_n_nodes (KymoCallTree *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->nodes->len;
}

gboolean
kymo_call_tree_is_empty (KymoCallTree *self)
{
  const KymoCallNode *root;

  g_return_val_if_fail (self != NULL, TRUE);
  root = &g_array_index (self->nodes, KymoCallNode, 0);
  return root->total == 0 && root->base_total == 0;
}

gboolean
kymo_call_tree_is_diff (KymoCallTree *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->diff;
}

guint32
kymo_call_tree_find_path (KymoCallTree       *self,
                          const char * const *path,
                          guint               n_path)
{
  const KymoCallNode *nodes;
  guint32 node = 0;

  g_return_val_if_fail (self != NULL, NO_NODE);

  nodes = (const KymoCallNode *) (gpointer) self->nodes->data;
  for (guint k = 0; k < n_path; k++)
    {
      guint32 end = node + nodes[node].n_descendants;
      guint32 c = node + 1;

      while (c <= end && strcmp (nodes[c].name, path[k]) != 0)
        c += nodes[c].n_descendants + 1;
      if (c > end)
        return NO_NODE;
      node = c;
    }
  return node;
}

GPtrArray *
kymo_call_tree_dup_path (KymoCallTree *self,
                         guint32       node)
{
  const KymoCallNode *nodes;
  GPtrArray *path = g_ptr_array_new ();

  g_return_val_if_fail (self != NULL, path);
  if (node >= self->nodes->len)
    return path;
  nodes = (const KymoCallNode *) (gpointer) self->nodes->data;
  for (guint32 n = node; n != 0 && n != NO_NODE; n = nodes[n].parent)
    g_ptr_array_insert (path, 0, (gpointer) nodes[n].name);
  return path;
}
