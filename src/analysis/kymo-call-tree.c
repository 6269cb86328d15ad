/* kymo-call-tree.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-call-tree"

#include "config.h"

#include "kymo-call-tree.h"

#include <errno.h>
#include <string.h>

#include "kymo-stacks.h"
#include "kymo-track.h"

#define CHECK_EVERY 65536
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

G_DEFINE_BOXED_TYPE (KymoCallTree, kymo_call_tree, kymo_call_tree_ref, kymo_call_tree_unref)

/* ------------------------------------------------------------------------ */
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
} BuildNode;

/* guint64 → guint32, open addressing: the hot lookup of every fold. */
typedef struct {
  guint64 *keys;
  guint32 *vals;     /* NO_NODE: empty slot */
  guint32  mask;
  guint32  used;
} IdMap;

typedef struct {
  GArray  *nodes;    /* BuildNode */
  IdMap    children; /* (parent, kind, id) → node */
  guint64  last_key;
  guint32  last_val;
} Builder;

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

static void
id_map_init (IdMap *map)
{
  map->mask = 255;
  map->used = 0;
  map->keys = g_new (guint64, map->mask + 1);
  map->vals = g_new (guint32, map->mask + 1);
  memset (map->vals, 0xFF, sizeof (guint32) * (map->mask + 1));
}

static void
id_map_clear (IdMap *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->vals, g_free);
}

static void
id_map_grow (IdMap *map)
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

/* The slot holding @key, or the empty slot where it would go. */
static inline guint32
id_map_slot (const IdMap *map,
             guint64      key)
{
  guint32 slot = key_slot (key, map->mask);

  while (map->vals[slot] != NO_NODE && map->keys[slot] != key)
    slot = (slot + 1) & map->mask;
  return slot;
}

static inline guint32
id_map_lookup (const IdMap *map,
               guint64      key)
{
  return map->vals[id_map_slot (map, key)];
}

static inline void
id_map_insert (IdMap   *map,
               guint64  key,
               guint32  val)
{
  guint32 slot = id_map_slot (map, key);

  if (map->vals[slot] == NO_NODE)
    map->used++;
  map->keys[slot] = key;
  map->vals[slot] = val;
  if (map->used * 2 > map->mask)
    id_map_grow (map);
}

static void
builder_init (Builder *b)
{
  BuildNode root = { "", NO_NODE, 0, 0, KYMO_CALL_FRAME_ROOT, 0, 0, 0, 0, 0 };

  b->nodes = g_array_new (FALSE, FALSE, sizeof (BuildNode));
  g_array_append_val (b->nodes, root);
  id_map_init (&b->children);
  b->last_key = G_MAXUINT64;
  b->last_val = NO_NODE;
}

static void
builder_clear (Builder *b)
{
  g_clear_pointer (&b->nodes, g_array_unref);
  id_map_clear (&b->children);
}

/* The child of @parent for (@kind, @id), created when new. @name may be NULL
 * for a named frame (resolved through the trace when the tree is finished). */
static inline guint32
builder_child (Builder    *b,
               guint32     parent,
               guint       kind,
               guint32     id,
               const char *name)
{
  guint64 key = node_key (parent, kind, id);
  BuildNode node = { name, parent, id, id, kind, 0, 0, 0, 0, 0 };
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

static inline BuildNode *
builder_node (Builder *b,
              guint32  node)
{
  return &g_array_index (b->nodes, BuildNode, node);
}

static int
compare_u64 (const void *a,
             const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;

  return x < y ? -1 : x > y;
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const BuildNode *na = user_data;
  const BuildNode *x = &na[*(const guint32 *) a];
  const BuildNode *y = &na[*(const guint32 *) b];
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
rank_names (const BuildNode *nodes,
            guint32          n)
{
  g_autoptr(GArray) reps = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 *rank = g_new (guint32, n);
  g_autofree guint32 *dense = NULL;
  guint32 max_id = 0;
  IdMap index;

  /* Named frames (nearly all nodes) have dense ids: index them directly. */
  for (guint32 i = 0; i < n; i++)
    if (nodes[i].kind == KYMO_CALL_FRAME_NAMED)
      max_id = MAX (max_id, nodes[i].id);
  if (max_id < (1u << 24))
    {
      dense = g_new (guint32, (gsize) max_id + 1);
      memset (dense, 0xFF, sizeof (guint32) * ((gsize) max_id + 1));
    }
  id_map_init (&index);
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
  id_map_clear (&index);
  return rank;
}

static gint64
add_sat (gint64 a,
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
static GArray *
builder_finish (Builder    *b,
                KymoTrace  *trace,
                gboolean    counts_are_totals,
                gboolean    propagate)
{
  guint32 n = b->nodes->len;
  BuildNode *nodes = (BuildNode *) (gpointer) b->nodes->data;
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
          nodes[p].total = add_sat (nodes[p].total, nodes[i].total);
          nodes[p].base_total = add_sat (nodes[p].base_total, nodes[i].base_total);
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

static KymoCallTree *
call_tree_new (KymoTrace          *trace,
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
/* Folding spans */

typedef struct {
  KymoTrace    *trace;
  Builder       b;
  GCancellable *cancellable;
  guint         countdown;
} Fold;

/* One depth's spans that matter: ancestors starting before the window
 * (anc, local indexes), then the slice [lo, lo + n - anc->len). */
typedef struct {
  const KymoSpan *spans;
  GArray         *anc;     /* gsize */
  gsize           lo;
  gsize           n;
  guint32        *node;
  gint64         *child;   /* time covered by direct children */
  gsize           alloc;
} Level;

static inline const KymoSpan *
level_span (const Level *level,
            gsize        k)
{
  gsize n_anc = level->anc->len;

  if (k < n_anc)
    return &level->spans[g_array_index (level->anc, gsize, k)];
  return &level->spans[level->lo + k - n_anc];
}

static gsize
lower_bound (const KymoSpan *spans,
             gsize           n,
             KymoTime        t,
             gboolean        strict)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (spans[mid].start < t || (strict && spans[mid].start == t))
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

static gboolean
fold_tick (Fold    *f,
           GError **error)
{
  if (--f->countdown != 0)
    return TRUE;
  f->countdown = CHECK_EVERY;
  return !g_cancellable_set_error_if_cancelled (f->cancellable, error);
}

/* Adds the self time of spans [@from_k, @to_k) of @level that start in the
 * window (the ancestors before them only name stacks). */
static void
level_settle (Fold        *f,
              const Level *level,
              gsize        from_k,
              gsize        to_k)
{
  for (gsize k = MAX (from_k, level->anc->len); k < to_k; k++)
    {
      const KymoSpan *s = level_span (level, k);
      BuildNode *node = builder_node (&f->b, level->node[k]);
      guint64 duration = (guint64) s->end - (guint64) s->start;
      guint64 covered = (guint64) level->child[k];

      node->self = add_sat (node->self, (gint64) (duration - MIN (covered, duration)));
      node->count++;
    }
}

static void
level_reserve (Level *level,
               gsize  n)
{
  if (n > level->alloc)
    {
      level->alloc = MAX (n, level->alloc * 2);
      level->node = g_renew (guint32, level->node, level->alloc);
      level->child = g_renew (gint64, level->child, level->alloc);
    }
  /* A depth with no span in the window reserves nothing, and may come
   * before any allocation: memset of a NULL pointer is undefined even for
   * no bytes (UBSan stops on it). */
  if (n > 0)
    memset (level->child, 0, sizeof (gint64) * n);
}

static gboolean
fold_track_spans (Fold      *f,
                  guint      track_id,
                  KymoTime   from,
                  KymoTime   to,
                  Level     *levels,
                  GArray    *hits,
                  GError   **error)
{
  KymoTrack *track = kymo_trace_get_track (f->trace, track_id);
  guint n_depths = kymo_track_get_n_depths (track);
  Level *prev = &levels[0], *cur = &levels[1];
  guint32 track_node = NO_NODE;

  prev->n = 0;
  g_array_set_size (prev->anc, 0);
  for (guint d = 0; d < n_depths; d++)
    {
      gsize n, first, hi, j = 0, max_k = 0, settled = 0;
      const KymoSpan *spans = kymo_track_get_depth_spans (track, d, &n, &first);
      gboolean have_j = FALSE;
      Level *tmp;

      cur->spans = spans;
      cur->lo = lower_bound (spans, n, from, FALSE);
      hi = lower_bound (spans, n, to, TRUE);
      g_array_set_size (cur->anc, 0);
      if (cur->lo > 0 && from != G_MININT64)
        {
          /* Spans running into the window name their children's stacks. */
          g_array_set_size (hits, 0);
          kymo_track_query_spans (track, d, from, from, hits);
          for (guint h = 0; h < hits->len; h++)
            {
              gsize local = g_array_index (hits, guint32, h) - first;

              if (local < n && spans[local].start < from)
                g_array_append_val (cur->anc, local);
            }
        }
      cur->n = cur->anc->len + (hi > cur->lo ? hi - cur->lo : 0);
      level_reserve (cur, cur->n);

      for (gsize k = 0; k < cur->n; k++)
        {
          const KymoSpan *s = level_span (cur, k);
          gsize parent = G_MAXSIZE;
          guint32 parent_node;

          /* The latest-starting span one depth up at or before s->start;
           * overlapping (damaged) runs fall back to the one reaching
           * furthest. Both pointers only move forward. */
          while (prev->n > 0 && (have_j ? j + 1 < prev->n : TRUE) &&
                 level_span (prev, have_j ? j + 1 : 0)->start <= s->start)
            {
              j = have_j ? j + 1 : 0;
              if (!have_j || level_span (prev, j)->end > level_span (prev, max_k)->end)
                max_k = j;
              have_j = TRUE;
            }
          if (have_j)
            {
              if (level_span (prev, j)->end >= s->start)
                parent = j;
              else if (level_span (prev, max_k)->end >= s->start)
                parent = max_k;
            }

          if (parent != G_MAXSIZE)
            {
              const KymoSpan *p = level_span (prev, parent);
              KymoTime end = MIN (s->end, p->end);

              parent_node = prev->node[parent];
              if (end > s->start)
                prev->child[parent] = add_sat (prev->child[parent], end - s->start);
            }
          else
            {
              if (track_node == NO_NODE)
                track_node = builder_child (&f->b, 0, KYMO_CALL_FRAME_TRACK, track_id,
                                            kymo_track_get_name (track));
              parent_node = track_node;
            }
          cur->node[k] = builder_child (&f->b, parent_node, KYMO_CALL_FRAME_NAMED, kymo_span_name (s), NULL);
          /* Spans one depth up before both parent candidates get no more
           * children (both only move forward): settle them while they are
           * still in the cache. */
          if (have_j && MIN (j, max_k) > settled)
            {
              level_settle (f, prev, settled, MIN (j, max_k));
              settled = MIN (j, max_k);
            }
          if (!fold_tick (f, error))
            return FALSE;
        }

      level_settle (f, prev, settled, prev->n);
      tmp = prev;
      prev = cur;
      cur = tmp;
    }
  level_settle (f, prev, 0, prev->n);
  return TRUE;
}

static gboolean
fold_spans (Fold         *f,
            KymoTime      from,
            KymoTime      to,
            const guint  *tracks,
            guint         n_tracks,
            GError      **error)
{
  guint n_all = kymo_trace_get_n_tracks (f->trace);
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));
  Level levels[2] = { { 0 } };
  gboolean ok = TRUE;

  levels[0].anc = g_array_new (FALSE, FALSE, sizeof (gsize));
  levels[1].anc = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (guint i = 0; ok && i < (tracks != NULL ? n_tracks : n_all); i++)
    {
      guint t = tracks != NULL ? tracks[i] : i;

      if (t < n_all)
        ok = fold_track_spans (f, t, from, to, levels, hits, error);
    }
  for (guint i = 0; i < 2; i++)
    {
      g_array_unref (levels[i].anc);
      g_free (levels[i].node);
      g_free (levels[i].child);
    }
  return ok;
}

/* ------------------------------------------------------------------------ */
/* Folding samples */

typedef struct {
  guint64 key;    /* track << 32 | node of the stack trie */
  guint64 count;
} Pending;

static int
compare_pending (const void *a,
                 const void *b)
{
  return compare_u64 (&((const Pending *) a)->key, &((const Pending *) b)->key);
}

/* The trie leaf of @stack, its path built on first sight. */
static guint32
trie_leaf (Builder    *trie,
           IdMap      *leaf_of_stack,
           KymoStacks *stacks,
           guint32     stack)
{
  guint32 leaf = id_map_lookup (leaf_of_stack, stack);
  gsize n_frames = 0;
  const KymoFrame *frames;

  if (leaf != NO_NODE)
    return leaf;
  frames = stack != KYMO_NO_STACK ? kymo_stacks_get (stacks, stack, &n_frames) : NULL;
  leaf = 0;
  if (frames == NULL || n_frames == 0)
    leaf = builder_child (trie, leaf, KYMO_CALL_FRAME_UNKNOWN, 0, KYMO_CALL_TREE_UNKNOWN_STACK);
  for (gsize k = 0; k < n_frames; k++)
    leaf = builder_child (trie, leaf, KYMO_CALL_FRAME_NAMED, frames[k].name, NULL);
  id_map_insert (leaf_of_stack, stack, leaf);
  return leaf;
}

/* Counting per (thread, stack) in a plain table when it is small enough. */
#define DENSE_MAX (1u << 22)

/* Samples are folded in three steps so that no step costs more than the
 * samples or the tree it makes: every stack becomes a path of one trie
 * shared by all threads (once per stack); samples are counted per (thread,
 * trie leaf); then each thread's tree is copied out of the trie, one node
 * per node it uses. */
static gboolean
fold_samples (Fold         *f,
              KymoTime      from,
              KymoTime      to,
              const guint  *tracks,
              guint         n_tracks,
              GError      **error)
{
  KymoStacks *stacks = kymo_trace_get_stacks (f->trace);
  guint n_all = kymo_trace_get_n_tracks (f->trace);
  g_autofree gboolean *wanted = NULL;
  g_autoptr(GArray) pending = g_array_new (FALSE, FALSE, sizeof (Pending));
  g_autoptr(GArray) touched = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autofree guint32 *mapped = NULL;
  const KymoStackSample *samples;
  const BuildNode *trie_nodes;
  g_autofree guint32 *dense = NULL;
  IdMap leaf_of_stack, pending_of;
  Builder trie;
  gboolean ok = TRUE;
  gsize n, n_rows;

  if (stacks == NULL)
    return TRUE;
  samples = kymo_stacks_get_samples (stacks, &n);
  if (tracks != NULL)
    {
      wanted = g_new0 (gboolean, MAX (n_all, 1));
      for (guint i = 0; i < n_tracks; i++)
        if (tracks[i] < n_all)
          wanted[tracks[i]] = TRUE;
    }

  builder_init (&trie);
  id_map_init (&leaf_of_stack);
  id_map_init (&pending_of);
  /* Stack ids are dense: count into a (stack, thread) table, the unknown
   * ones in its last row, and find each stack's trie leaf once. */
  n_rows = (gsize) kymo_stacks_get_n_stacks (stacks) + 1;
  if (n_rows * MAX (n_all, 1) <= DENSE_MAX)
    dense = g_new0 (guint32, n_rows * MAX (n_all, 1));
  for (gsize i = kymo_stacks_lower_bound (stacks, from); i < n && samples[i].ts <= to; i++)
    {
      const KymoStackSample *s = &samples[i];
      guint32 leaf, at;
      guint64 key;

      if (!(ok = fold_tick (f, error)))
        break;
      if (s->track >= n_all || (wanted != NULL && !wanted[s->track]))
        continue;
      if (dense != NULL)
        {
          gsize row = s->stack < n_rows - 1 ? s->stack : n_rows - 1;

          dense[row * n_all + s->track]++;
          continue;
        }
      leaf = trie_leaf (&trie, &leaf_of_stack, stacks, s->stack);
      key = ((guint64) s->track << 32) | leaf;
      at = id_map_lookup (&pending_of, key);
      if (at == NO_NODE)
        {
          Pending p = { key, 0 };

          at = pending->len;
          g_array_append_val (pending, p);
          id_map_insert (&pending_of, key, at);
        }
      g_array_index (pending, Pending, at).count++;
    }
  if (ok && dense != NULL)
    for (guint t = 0; t < n_all; t++)
      for (gsize row = 0; row < n_rows; row++)
        if (dense[row * n_all + t] > 0)
          {
            guint32 stack = row < n_rows - 1 ? (guint32) row : KYMO_NO_STACK;
            Pending p = { ((guint64) t << 32) | trie_leaf (&trie, &leaf_of_stack, stacks, stack),
                          dense[row * n_all + t] };

            g_array_append_val (pending, p);
          }
  id_map_clear (&leaf_of_stack);
  id_map_clear (&pending_of);

  if (ok)
    {
      guint32 track_node = NO_NODE;
      guint32 current_track = G_MAXUINT32;

      /* With no samples the array was never allocated: qsort of a NULL
       * pointer is undefined even for no elements (UBSan stops on it). */
      if (pending->len > 1)
        qsort (pending->data, pending->len, sizeof (Pending), compare_pending);
      trie_nodes = (const BuildNode *) (gpointer) trie.nodes->data;
      mapped = g_new (guint32, trie.nodes->len);
      memset (mapped, 0xFF, sizeof (guint32) * trie.nodes->len);
      for (guint k = 0; k < pending->len; k++)
        {
          const Pending *p = &g_array_index (pending, Pending, k);
          guint32 track = (guint32) (p->key >> 32);
          guint32 leaf = (guint32) p->key;

          if (track != current_track)
            {
              for (guint t = 0; t < touched->len; t++)
                mapped[g_array_index (touched, guint32, t)] = NO_NODE;
              g_array_set_size (touched, 0);
              current_track = track;
              track_node = builder_child (&f->b, 0, KYMO_CALL_FRAME_TRACK, track,
                                          kymo_track_get_name (kymo_trace_get_track (f->trace, track)));
              mapped[0] = track_node;
              g_array_append_val (touched, (guint32) { 0 });
            }
          g_array_set_size (chain, 0);
          for (guint32 at = leaf; mapped[at] == NO_NODE; at = trie_nodes[at].parent)
            g_array_append_val (chain, at);
          /* top-down, so a parent is always created before its children */
          for (guint c = chain->len; c > 0; c--)
            {
              guint32 t = g_array_index (chain, guint32, c - 1);
              BuildNode node = trie_nodes[t];

              node.parent = mapped[node.parent];
              g_array_append_val (f->b.nodes, node);
              mapped[t] = f->b.nodes->len - 1;
              g_array_append_val (touched, t);
            }
          builder_node (&f->b, mapped[leaf])->self += p->count;
        }
    }
  builder_clear (&trie);
  return ok;
}

KymoCallTree *
kymo_call_tree_build (KymoTrace          *trace,
                      KymoCallTreeSource  source,
                      KymoTime            from,
                      KymoTime            to,
                      const guint        *tracks,
                      guint               n_tracks,
                      GCancellable       *cancellable,
                      GError            **error)
{
  Fold f = { 0 };
  KymoTime lo = from == KYMO_TIME_NONE ? G_MININT64 : from;
  KymoTime hi = to == KYMO_TIME_NONE ? G_MAXINT64 : to;
  gboolean ok = TRUE;
  GArray *nodes;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (kymo_trace_is_sealed (trace), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  f.trace = trace;
  f.cancellable = cancellable;
  f.countdown = CHECK_EVERY;
  builder_init (&f.b);
  if (lo <= hi)
    {
      if (source == KYMO_CALL_TREE_SAMPLES)
        ok = fold_samples (&f, lo, hi, tracks, n_tracks, error);
      else
        ok = fold_spans (&f, lo, hi, tracks, n_tracks, error);
    }
  if (ok)
    ok = !g_cancellable_set_error_if_cancelled (cancellable, error);
  if (!ok)
    {
      builder_clear (&f.b);
      return NULL;
    }
  nodes = builder_finish (&f.b, trace, source == KYMO_CALL_TREE_SAMPLES, TRUE);
  builder_clear (&f.b);
  return call_tree_new (trace, source, from, to, nodes);
}

typedef struct {
  KymoTrace          *trace;
  KymoCallTreeSource  source;
  KymoTime            from;
  KymoTime            to;
  guint              *tracks;
  guint               n_tracks;
} BuildData;

static void
build_data_free (BuildData *data)
{
  g_clear_object (&data->trace);
  g_free (data->tracks);
  g_free (data);
}

static void
build_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  BuildData *data = task_data;
  GError *error = NULL;
  KymoCallTree *tree;

  tree = kymo_call_tree_build (data->trace, data->source, data->from, data->to,
                               data->tracks, data->n_tracks, cancellable, &error);
  if (tree == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tree, (GDestroyNotify) kymo_call_tree_unref);
}

void
kymo_call_tree_build_async (KymoTrace          *trace,
                            KymoCallTreeSource  source,
                            KymoTime            from,
                            KymoTime            to,
                            const guint        *tracks,
                            guint               n_tracks,
                            GCancellable       *cancellable,
                            GAsyncReadyCallback callback,
                            gpointer            user_data)
{
  g_autoptr(GTask) task = NULL;
  BuildData *data;

  g_return_if_fail (KYMO_IS_TRACE (trace));
  g_return_if_fail (kymo_trace_is_sealed (trace));

  data = g_new0 (BuildData, 1);
  data->trace = g_object_ref (trace);
  data->source = source;
  data->from = from;
  data->to = to;
  if (tracks != NULL)
    {
      data->tracks = g_memdup2 (tracks, sizeof (guint) * MAX (n_tracks, 1));
      data->n_tracks = n_tracks;
    }
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, kymo_call_tree_build_async);
  g_task_set_name (task, "[kymo] fold call tree");
  g_task_set_task_data (task, data, (GDestroyNotify) build_data_free);
  g_task_run_in_thread (task, build_thread);
}

KymoCallTree *
kymo_call_tree_build_finish (GAsyncResult  *result,
                             GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == kymo_call_tree_build_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
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

/* ------------------------------------------------------------------------ */
/* Derived trees */

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
  BuildNode *root;
  Builder b;

  g_return_val_if_fail (self != NULL, NULL);

  nodes = (const KymoCallNode *) (gpointer) self->nodes->data;
  builder_init (&b);
  for (guint32 i = 1; i < self->nodes->len; i++)
    {
      guint32 at = 0;

      if (nodes[i].self == 0 && nodes[i].base_self == 0)
        continue;
      /* The leaf's self weight runs down the whole chain of its callers. */
      for (guint32 n = i; n != 0 && n != NO_NODE; n = nodes[n].parent)
        {
          BuildNode *bn;

          at = builder_child (&b, at, nodes[n].kind, intern_name (ids, nodes[n].name), nodes[n].name);
          bn = builder_node (&b, at);
          bn->name_id = nodes[n].name_id;
          bn->total = add_sat (bn->total, nodes[i].self);
          bn->base_total = add_sat (bn->base_total, nodes[i].base_self);
          bn->count += self->source == KYMO_CALL_TREE_SPANS ? nodes[i].count : (guint64) nodes[i].self;
          if (n == i)
            {
              bn->self = add_sat (bn->self, nodes[i].self);
              bn->base_self = add_sat (bn->base_self, nodes[i].base_self);
            }
        }
      root = builder_node (&b, 0);
      root->total = add_sat (root->total, nodes[i].self);
      root->base_total = add_sat (root->base_total, nodes[i].base_self);
      root->count += self->source == KYMO_CALL_TREE_SPANS ? nodes[i].count : (guint64) nodes[i].self;
    }
  {
    GArray *out = builder_finish (&b, NULL, FALSE, FALSE);

    builder_clear (&b);
    inverted = call_tree_new (self->trace, self->source, self->from, self->to, out);
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
  Builder b;

  g_return_val_if_fail (before != NULL && after != NULL, NULL);

  builder_init (&b);
  for (guint t = 0; t < 2; t++)
    {
      const KymoCallNode *nodes = (const KymoCallNode *) (gpointer) trees[t]->nodes->data;
      guint n = trees[t]->nodes->len;
      g_autofree guint32 *map = g_new (guint32, n);

      map[0] = 0;
      for (guint32 i = 1; i < n; i++)
        {
          BuildNode *bn;

          map[i] = builder_child (&b, map[nodes[i].parent], nodes[i].kind,
                                  intern_name (ids, nodes[i].name), nodes[i].name);
          bn = builder_node (&b, map[i]);
          /* ids name the second trace's names where both have the frame */
          if (t == 1 || bn->name_id == bn->id)
            bn->name_id = nodes[i].name_id;
          if (t == 0)
            bn->base_self = add_sat (bn->base_self, nodes[i].self);
          else
            {
              bn->self = add_sat (bn->self, nodes[i].self);
              bn->count += nodes[i].count;
            }
        }
    }
  {
    GArray *out = builder_finish (&b, NULL, FALSE, TRUE);
    guint32 n = out->len;
    KymoCallNode *nodes = (KymoCallNode *) (gpointer) out->data;

    builder_clear (&b);
    /* Samples count what passes through; rebuild it from totals there. */
    if (after->source == KYMO_CALL_TREE_SAMPLES)
      for (guint32 i = 0; i < n; i++)
        nodes[i].count = (guint64) nodes[i].total;
    diff = call_tree_new (after->trace, after->source, after->from, after->to, out);
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
      c->self = add_sat (c->self, nodes[i].self);
      c->base_self = add_sat (c->base_self, nodes[i].base_self);
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

/* ------------------------------------------------------------------------ */
/* Folded stacks */

typedef struct {
  char   *stack;
  gint64  weight;
} FoldedLine;

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (((const FoldedLine *) a)->stack, ((const FoldedLine *) b)->stack);
}

/* Sorted, merged lines; each stack string is owned by the chunk. */
static GArray *
folded_lines (KymoCallTree  *self,
              GStringChunk  *chunk)
{
  const KymoCallNode *nodes = (const KymoCallNode *) (gpointer) self->nodes->data;
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (FoldedLine));
  g_autoptr(GArray) lens = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GString) path = g_string_new (NULL);
  guint out = 0;

  for (guint32 i = 1; i < self->nodes->len; i++)
    {
      guint depth = nodes[i].depth;
      gsize zero = 0;

      if (lens->len == 0)
        g_array_append_val (lens, zero);
      g_array_set_size (lens, depth);
      g_string_truncate (path, g_array_index (lens, gsize, depth - 1));
      if (depth > 1)
        g_string_append_c (path, ';');
      g_string_append (path, nodes[i].name);
      g_array_append_val (lens, path->len);

      if (nodes[i].self > 0)
        {
          FoldedLine line = { g_string_chunk_insert_len (chunk, path->str, path->len), nodes[i].self };

          g_array_append_val (lines, line);
        }
    }
  g_array_sort (lines, compare_lines);
  for (guint k = 0; k < lines->len; k++)
    {
      FoldedLine *line = &g_array_index (lines, FoldedLine, k);

      if (out > 0 && strcmp (g_array_index (lines, FoldedLine, out - 1).stack, line->stack) == 0)
        {
          FoldedLine *prev = &g_array_index (lines, FoldedLine, out - 1);

          prev->weight = add_sat (prev->weight, line->weight);
          continue;
        }
      g_array_index (lines, FoldedLine, out++) = *line;
    }
  g_array_set_size (lines, out);
  return lines;
}

void
kymo_call_tree_append_folded (KymoCallTree *self,
                              GString      *out)
{
  g_autoptr(GStringChunk) chunk = g_string_chunk_new (4096);
  g_autoptr(GArray) lines = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  lines = folded_lines (self, chunk);
  for (guint k = 0; k < lines->len; k++)
    {
      const FoldedLine *line = &g_array_index (lines, FoldedLine, k);

      g_string_append_printf (out, "%s %" G_GINT64_FORMAT "\n", line->stack, line->weight);
    }
}

gboolean
kymo_call_tree_write_folded (KymoCallTree *self,
                             FILE         *out)
{
  g_autoptr(GStringChunk) chunk = g_string_chunk_new (4096);
  g_autoptr(GArray) lines = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  lines = folded_lines (self, chunk);
  for (guint k = 0; k < lines->len; k++)
    {
      const FoldedLine *line = &g_array_index (lines, FoldedLine, k);

      if (fprintf (out, "%s %" G_GINT64_FORMAT "\n", line->stack, line->weight) < 0)
        return FALSE;
    }
  return fflush (out) == 0;
}
