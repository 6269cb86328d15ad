/* kymo-call-tree-derive.c: trees made from trees: inverted (callers) and differences
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-call-tree"

#include "config.h"

#include <string.h>

#include "kymo-call-tree-private.h"

/* Interns strings into dense ids so that the builder can key on them. */
static guint32
intern_name (GHashTable *ids,
             const char *name)
{
  gpointer id;

  if (g_hash_table_lookup_extended (ids, name, NULL, &id))
    return GPOINTER_TO_UINT (id);
  id = GUINT_TO_POINTER (g_hash_table_size (ids));
  g_hash_table_insert (ids, (gpointer) name, id);
  return GPOINTER_TO_UINT (id);
}

KymoCallTree *
kymo_call_tree_invert (KymoCallTree *self)
{
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  const KymoCallNode *nodes;
  KymoCallTree *inverted;
  KymoCallBuildNode *root;
  KymoCallBuilder b;

  g_return_val_if_fail (self != NULL, NULL);

  nodes = (const KymoCallNode *) (gpointer) self->nodes->data;
  _kymo_call_builder_init (&b);
  for (guint32 i = 1; i < self->nodes->len; i++)
    {
      guint32 at = 0;

      if (nodes[i].self == 0 && nodes[i].base_self == 0)
        continue;
      /* The leaf's self weight runs down the whole chain of its callers. */
      for (guint32 n = i; n != 0 && n != NO_NODE; n = nodes[n].parent)
        {
          KymoCallBuildNode *bn;

          at = builder_child (&b, at, nodes[n].kind, intern_name (ids, nodes[n].name), nodes[n].name);
          bn = builder_node (&b, at);
          bn->name_id = nodes[n].name_id;
          bn->total = _kymo_call_add_sat (bn->total, nodes[i].self);
          bn->base_total = _kymo_call_add_sat (bn->base_total, nodes[i].base_self);
          bn->count += self->source == KYMO_CALL_TREE_SPANS ? nodes[i].count : (guint64) nodes[i].self;
          if (n == i)
            {
              bn->self = _kymo_call_add_sat (bn->self, nodes[i].self);
              bn->base_self = _kymo_call_add_sat (bn->base_self, nodes[i].base_self);
            }
        }
      root = builder_node (&b, 0);
      root->total = _kymo_call_add_sat (root->total, nodes[i].self);
      root->base_total = _kymo_call_add_sat (root->base_total, nodes[i].base_self);
      root->count += self->source == KYMO_CALL_TREE_SPANS ? nodes[i].count : (guint64) nodes[i].self;
    }
  {
    GArray *out = _kymo_call_builder_finish (&b, NULL, FALSE, FALSE);

    _kymo_call_builder_clear (&b);
    inverted = _kymo_call_tree_new (self->trace, self->source, self->from, self->to, out);
  }
  inverted->diff = self->diff;
  inverted->keep[0] = kymo_call_tree_ref (self);
  return inverted;
}

KymoCallTree *
kymo_call_tree_diff (KymoCallTree *before,
                     KymoCallTree *after)
{
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  KymoCallTree *trees[2] = { before, after };
  KymoCallTree *diff;
  KymoCallBuilder b;

  g_return_val_if_fail (before != NULL && after != NULL, NULL);

  _kymo_call_builder_init (&b);
  for (guint t = 0; t < 2; t++)
    {
      const KymoCallNode *nodes = (const KymoCallNode *) (gpointer) trees[t]->nodes->data;
      guint n = trees[t]->nodes->len;
      g_autofree guint32 *map = g_new (guint32, n);

      map[0] = 0;
      for (guint32 i = 1; i < n; i++)
        {
          KymoCallBuildNode *bn;

          map[i] = builder_child (&b, map[nodes[i].parent], nodes[i].kind,
                                  intern_name (ids, nodes[i].name), nodes[i].name);
          bn = builder_node (&b, map[i]);
          /* ids name the second trace's names where both have the frame */
          if (t == 1 || bn->name_id == bn->id)
            bn->name_id = nodes[i].name_id;
          if (t == 0)
            bn->base_self = _kymo_call_add_sat (bn->base_self, nodes[i].self);
          else
            {
              bn->self = _kymo_call_add_sat (bn->self, nodes[i].self);
              bn->count += nodes[i].count;
            }
        }
    }
  {
    GArray *out = _kymo_call_builder_finish (&b, NULL, FALSE, TRUE);
    guint32 n = out->len;
    KymoCallNode *nodes = (KymoCallNode *) (gpointer) out->data;

    _kymo_call_builder_clear (&b);
    /* Samples count what passes through; rebuild it from totals there. */
    if (after->source == KYMO_CALL_TREE_SAMPLES)
      for (guint32 i = 0; i < n; i++)
        nodes[i].count = (guint64) nodes[i].total;
    diff = _kymo_call_tree_new (after->trace, after->source, after->from, after->to, out);
  }
  diff->diff = TRUE;
  diff->keep[0] = kymo_call_tree_ref (before);
  diff->keep[1] = kymo_call_tree_ref (after);
  return diff;
}

static int
compare_changes (gconstpointer a,
                 gconstpointer b)
{
  const KymoCallChange *ca = a;
  const KymoCallChange *cb = b;
  guint64 da = (guint64) ABS (ca->self - ca->base_self);
  guint64 db = (guint64) ABS (cb->self - cb->base_self);

  if (da != db)
    return da > db ? -1 : 1;
  return strcmp (ca->name, cb->name);
}

GArray *
kymo_call_tree_dup_changes (KymoCallTree *diff)
{
  g_autoptr(GHashTable) index = g_hash_table_new (g_str_hash, g_str_equal);
  GArray *changes = g_array_new (FALSE, FALSE, sizeof (KymoCallChange));
  const KymoCallNode *nodes;

  g_return_val_if_fail (diff != NULL, changes);

  nodes = (const KymoCallNode *) (gpointer) diff->nodes->data;
  for (guint32 i = 1; i < diff->nodes->len; i++)
    {
      gpointer at;
      KymoCallChange *c;

      if (nodes[i].self == 0 && nodes[i].base_self == 0)
        continue;
      if (!g_hash_table_lookup_extended (index, nodes[i].name, NULL, &at))
        {
          KymoCallChange fresh = { nodes[i].name, 0, 0 };

          g_array_append_val (changes, fresh);
          at = GUINT_TO_POINTER (changes->len - 1);
          g_hash_table_insert (index, (gpointer) nodes[i].name, at);
        }
      c = &g_array_index (changes, KymoCallChange, GPOINTER_TO_UINT (at));
      c->self = _kymo_call_add_sat (c->self, nodes[i].self);
      c->base_self = _kymo_call_add_sat (c->base_self, nodes[i].base_self);
    }
  g_array_sort (changes, compare_changes);
  return changes;
}

static void
derive_thread (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  KymoCallTree **trees = task_data;
  KymoCallTree *derived;

  derived = trees[0] != NULL ? kymo_call_tree_diff (trees[0], trees[1]) : kymo_call_tree_invert (trees[1]);
  g_task_return_pointer (task, derived, (GDestroyNotify) kymo_call_tree_unref);
}

static void
derive_data_free (KymoCallTree **trees)
{
  g_clear_pointer (&trees[0], kymo_call_tree_unref);
  g_clear_pointer (&trees[1], kymo_call_tree_unref);
  g_free (trees);
}

void
kymo_call_tree_derive_async (KymoCallTree        *before,
                             KymoCallTree        *tree,
                             GCancellable        *cancellable,
                             GAsyncReadyCallback  callback,
                             gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  KymoCallTree **trees;

  g_return_if_fail (tree != NULL);

  trees = g_new0 (KymoCallTree *, 2);
  trees[0] = before != NULL ? kymo_call_tree_ref (before) : NULL;
  trees[1] = kymo_call_tree_ref (tree);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kymo_call_tree_derive_async);
  g_task_set_name (task, "[kymo] derive call tree");
  /* the result is worthless once cancelled: drop it rather than publish */
  g_task_set_return_on_cancel (task, TRUE);
  g_task_set_task_data (task, trees, (GDestroyNotify) derive_data_free);
  g_task_run_in_thread (task, derive_thread);
}

KymoCallTree *
kymo_call_tree_derive_finish (GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kymo_call_tree_derive_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
