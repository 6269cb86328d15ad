/* kymo-call-tree-builder.c: the node table folds build into, and the finished depth-first tree
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-call-tree"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kymo-call-tree-private.h"

void
_kymo_call_id_map_init (KymoCallIdMap *map)
{
  map->mask = 255;
  map->used = 0;
  map->keys = g_new (guint64, map->mask + 1);
  map->vals = g_new (guint32, map->mask + 1);
  memset (map->vals, 0xFF, sizeof (guint32) * (map->mask + 1));
}

void
_kymo_call_id_map_clear (KymoCallIdMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->vals, g_free);
}

void
_kymo_call_id_map_grow (KymoCallIdMap *map)
{
  guint32 old_size = map->mask + 1;
  guint64 *old_keys = map->keys;
  guint32 *old_vals = map->vals;

  map->mask = old_size * 2 - 1;
  map->keys = g_new (guint64, map->mask + 1);
  map->vals = g_new (guint32, map->mask + 1);
  memset (map->vals, 0xFF, sizeof (guint32) * (map->mask + 1));
  for (guint32 i = 0; i < old_size; i++)
    {
      guint32 slot;

      if (old_vals[i] == NO_NODE)
        continue;
      slot = key_slot (old_keys[i], map->mask);
      while (map->vals[slot] != NO_NODE)
        slot = (slot + 1) & map->mask;
      map->keys[slot] = old_keys[i];
      map->vals[slot] = old_vals[i];
    }
  g_free (old_keys);
  g_free (old_vals);
}

void
_kymo_call_builder_init (KymoCallBuilder *b)
{
  KymoCallBuildNode root = { "", NO_NODE, 0, 0, KYMO_CALL_FRAME_ROOT, 0, 0, 0, 0, 0 };

  b->nodes = g_array_new (FALSE, FALSE, sizeof (KymoCallBuildNode));
  g_array_append_val (b->nodes, root);
  _kymo_call_id_map_init (&b->children);
  b->last_key = G_MAXUINT64;
  b->last_val = NO_NODE;
}

void
_kymo_call_builder_clear (KymoCallBuilder *b)
{
  g_clear_pointer (&b->nodes, g_array_unref);
  _kymo_call_id_map_clear (&b->children);
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const KymoCallBuildNode *na = user_data;
  const KymoCallBuildNode *x = &na[*(const guint32 *) a];
  const KymoCallBuildNode *y = &na[*(const guint32 *) b];
  int cmp = strcmp (x->name, y->name);

  if (cmp != 0)
    return cmp;
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Per node, the rank of its (kind, id) in name order: siblings then sort by
 * an integer, and only the few distinct names meet strcmp(). */
static guint32 *
rank_names (const KymoCallBuildNode *nodes,
            guint32                  n)
{
  g_autoptr(GArray) reps = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 *rank = g_new (guint32, n);
  g_autofree guint32 *dense = NULL;
  guint32 max_id = 0;
  KymoCallIdMap index;

  /* Named frames (nearly all nodes) have dense ids: index them directly. */
  for (guint32 i = 0; i < n; i++)
    if (nodes[i].kind == KYMO_CALL_FRAME_NAMED)
      max_id = MAX (max_id, nodes[i].id);
  if (max_id < (1u << 24))
    {
      dense = g_new (guint32, (gsize) max_id + 1);
      memset (dense, 0xFF, sizeof (guint32) * ((gsize) max_id + 1));
    }
  _kymo_call_id_map_init (&index);
  for (guint32 i = 0; i < n; i++)
    {
      gboolean direct = dense != NULL && nodes[i].kind == KYMO_CALL_FRAME_NAMED;
      guint64 key = node_key (0, nodes[i].kind, nodes[i].id);
      guint32 r = direct ? dense[nodes[i].id] : id_map_lookup (&index, key);

      if (r == NO_NODE)
        {
          r = reps->len;
          g_array_append_val (reps, i);
          if (direct)
            dense[nodes[i].id] = r;
          else
            id_map_insert (&index, key, r);
        }
      rank[i] = r;
    }
  {
    g_autofree guint32 *order = g_memdup2 (reps->data, sizeof (guint32) * MAX (reps->len, 1));
    g_autofree guint32 *rank_of_rep = g_new (guint32, MAX (reps->len, 1));

    g_qsort_with_data (order, reps->len, sizeof (guint32), compare_names, (gpointer) nodes);
    for (guint32 k = 0; k < reps->len; k++)
      {
        /* order[k] is a node; find its representative slot through rank[] */
        rank_of_rep[rank[order[k]]] = k;
      }
    for (guint32 i = 0; i < n; i++)
      rank[i] = rank_of_rep[rank[i]];
  }
  _kymo_call_id_map_clear (&index);
  return rank;
}

gint64
_kymo_call_add_sat (gint64 a,
                    gint64 b)
{
  gint64 r;

  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

typedef struct {
  guint32 build;
  guint32 out;
  guint32 next;   /* position in order[] of the next child to visit */
} Visit;

/* Depth first, children in name order. With @propagate, totals are each
 * node's self plus its children's totals; without, the totals the builder
 * accumulated (inverted trees, where a weight runs down a chain). */
GArray *
_kymo_call_builder_finish (KymoCallBuilder *b,
                           KymoTrace       *trace,
                           gboolean         counts_are_totals,
                           gboolean         propagate)
{
  guint32 n = b->nodes->len;
  KymoCallBuildNode *nodes = (KymoCallBuildNode *) (gpointer) b->nodes->data;
  g_autofree guint64 *count = g_new (guint64, n);
  g_autofree guint64 *order = g_new (guint64, MAX (n, 1));
  g_autofree guint32 *fill = g_new0 (guint32, n + 1);
  g_autofree guint32 *rank = NULL;
  g_autofree guint32 *first = g_new0 (guint32, n + 1);
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Visit));
  GArray *out = g_array_sized_new (FALSE, FALSE, sizeof (KymoCallNode), n);
  guint n_names = trace != NULL ? kymo_trace_get_n_names (trace) : 0;

  for (guint32 i = 0; i < n; i++)
    {
      if (nodes[i].name == NULL)
        nodes[i].name = trace != NULL && nodes[i].id < n_names ? kymo_trace_get_name (trace, nodes[i].id) : "";
      if (propagate)
        {
          nodes[i].total = nodes[i].self;
          nodes[i].base_total = nodes[i].base_self;
        }
      count[i] = counts_are_totals ? (guint64) nodes[i].self : nodes[i].count;
    }
  for (guint32 i = n - 1; i > 0; i--)
    {
      guint32 p = nodes[i].parent;

      if (propagate)
        {
          nodes[p].total = _kymo_call_add_sat (nodes[p].total, nodes[i].total);
          nodes[p].base_total = _kymo_call_add_sat (nodes[p].base_total, nodes[i].base_total);
        }
      if (counts_are_totals)
        count[p] += count[i];
    }

  /* Children of one parent become a contiguous run of order[] (bucketed by
   * parent), each run sorted by name rank: (rank << 32 | node). */
  rank = rank_names (nodes, n);
  for (guint32 i = 1; i < n; i++)
    first[nodes[i].parent + 1]++;
  for (guint32 i = 0; i < n; i++)
    first[i + 1] += first[i];
  for (guint32 i = 1; i < n; i++)
    {
      guint32 p = nodes[i].parent;

      order[first[p] + fill[p]++] = ((guint64) rank[i] << 32) | i;
    }
  for (guint32 p = 0; p < n; p++)
    if (first[p + 1] - first[p] > 1)
      qsort (order + first[p], first[p + 1] - first[p], sizeof (guint64), compare_u64);

  for (guint32 pass = 0; pass == 0 || stack->len > 0; pass++)
    {
      Visit visit;
      KymoCallNode cn = { 0 };
      guint32 node;

      if (pass == 0)
        {
          node = 0;
          cn.parent = NO_NODE;
        }
      else
        {
          Visit *top = &g_array_index (stack, Visit, stack->len - 1);

          if (top->next >= first[top->build + 1])
            {
              g_array_index (out, KymoCallNode, top->out).n_descendants = out->len - 1 - top->out;
              g_array_set_size (stack, stack->len - 1);
              continue;
            }
          node = (guint32) order[top->next++];
          cn.parent = top->out;
        }
      cn.name = nodes[node].name;
      cn.name_id = nodes[node].name_id;
      cn.depth = (guint16) MIN (stack->len, G_MAXUINT16);
      cn.kind = nodes[node].kind;
      cn.self = nodes[node].self;
      cn.total = nodes[node].total;
      cn.count = count[node];
      cn.base_self = nodes[node].base_self;
      cn.base_total = nodes[node].base_total;
      g_array_append_val (out, cn);
      visit.build = node;
      visit.out = out->len - 1;
      visit.next = first[node];
      g_array_append_val (stack, visit);
    }
  return out;
}
