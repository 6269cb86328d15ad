/* kymo-call-tree-private.h: what the call tree's files share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-call-tree.h"
#include "kymo-stacks.h"
#include "kymo-track.h"

G_BEGIN_DECLS

#define NO_NODE     G_MAXUINT32

struct _KymoCallTree {
  gatomicrefcount     ref_count;
  KymoTrace          *trace;
  KymoCallTree       *keep[2];   /* a diff borrows names from both trees */
  KymoCallTreeSource  source;
  KymoTime            from;
  KymoTime            to;
  gboolean            diff;
  GArray             *nodes;     /* KymoCallNode, depth first */
};

/* Building: nodes in creation order (a parent always before its children),
 * found by (parent, kind, id) in an open-addressing table; one fold touches
 * it once per span, so it has to be cheap. */

typedef struct {
  const char *name;
  guint32     parent;
  guint32     id;
  guint32     name_id;
  guint16     kind;
  gint64      self;
  gint64      base_self;
  gint64      total;
  gint64      base_total;
  guint64     count;
} KymoCallBuildNode;

/* guint64 → guint32, open addressing: the hot lookup of every fold. */
typedef struct {
  guint64 *keys;
  guint32 *vals;     /* NO_NODE: empty slot */
  guint32  mask;
  guint32  used;
} KymoCallIdMap;

typedef struct {
  GArray        *nodes;    /* KymoCallBuildNode */
  KymoCallIdMap  children; /* (parent, kind, id) → node */
  guint64        last_key;
  guint32        last_val;
} KymoCallBuilder;

void          _kymo_call_id_map_init    (KymoCallIdMap *map);
void          _kymo_call_id_map_clear   (KymoCallIdMap *map);
void          _kymo_call_id_map_grow    (KymoCallIdMap *map);
void          _kymo_call_builder_init   (KymoCallBuilder *b);
void          _kymo_call_builder_clear  (KymoCallBuilder *b);
GArray       *_kymo_call_builder_finish (KymoCallBuilder *b,
                                         KymoTrace       *trace,
                                         gboolean         counts_are_totals,
                                         gboolean         propagate);
gint64        _kymo_call_add_sat        (gint64 a,
                                         gint64 b);
KymoCallTree *_kymo_call_tree_new       (KymoTrace          *trace,
                                         KymoCallTreeSource  source,
                                         KymoTime            from,
                                         KymoTime            to,
                                         GArray             *nodes);

/* qsort order of guint64 keys; inline for the comparators that wrap it. */
static inline int
compare_u64 (const void *a,
             const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static inline guint64
node_key (guint32 parent,
          guint   kind,
          guint32 id)
{
  return ((guint64) parent << 32) | ((guint64) kind << 30) | (id & 0x3FFFFFFFu);
}

static inline guint32
key_slot (guint64 key,
          guint32 mask)
{
  key *= G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);
  return (guint32) (key >> 32) & mask;
}

/* The slot holding @key, or the empty slot where it would go. */
static inline guint32
id_map_slot (const KymoCallIdMap *map,
             guint64              key)
{
  guint32 slot = key_slot (key, map->mask);

  while (map->vals[slot] != NO_NODE && map->keys[slot] != key)
    slot = (slot + 1) & map->mask;
  return slot;
}

static inline guint32
id_map_lookup (const KymoCallIdMap *map,
               guint64              key)
{
  return map->vals[id_map_slot (map, key)];
}

static inline void
id_map_insert (KymoCallIdMap *map,
               guint64        key,
               guint32        val)
{
  guint32 slot = id_map_slot (map, key);

  if (map->vals[slot] == NO_NODE)
    map->used++;
  map->keys[slot] = key;
  map->vals[slot] = val;
  if (map->used * 2 > map->mask)
    _kymo_call_id_map_grow (map);
}

/* The child of @parent for (@kind, @id), created when new. @name may be NULL
 * for a named frame (resolved through the trace when the tree is finished). */
static inline guint32
builder_child (KymoCallBuilder *b,
               guint32          parent,
               guint            kind,
               guint32          id,
               const char      *name)
{
  guint64 key = node_key (parent, kind, id);
  KymoCallBuildNode node = { name, parent, id, id, kind, 0, 0, 0, 0, 0 };
  guint32 found;

  if (key == b->last_key)
    return b->last_val;
  found = id_map_lookup (&b->children, key);
  if (found == NO_NODE)
    {
      g_array_append_val (b->nodes, node);
      found = b->nodes->len - 1;
      id_map_insert (&b->children, key, found);
    }
  b->last_key = key;
  b->last_val = found;
  return found;
}

static inline KymoCallBuildNode *
builder_node (KymoCallBuilder *b,
              guint32          node)
{
  return &g_array_index (b->nodes, KymoCallBuildNode, node);
}

G_END_DECLS
