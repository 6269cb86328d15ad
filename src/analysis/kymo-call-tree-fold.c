/* kymo-call-tree-fold.c: folding spans or samples of a time window into a call tree
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-call-tree"

#include "config.h"

#include <string.h>

#include "kymo-call-tree-private.h"

#define CHECK_EVERY 65536

/* ------------------------------------------------------------------------ */
/* Folding spans */

typedef struct {
  KymoTrace       *trace;
  KymoCallBuilder  b;
  GCancellable    *cancellable;
  guint            countdown;
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
      KymoCallBuildNode *node = builder_node (&f->b, level->node[k]);
      guint64 duration = (guint64) s->end - (guint64) s->start;
      guint64 covered = (guint64) level->child[k];

      node->self = _kymo_call_add_sat (node->self, (gint64) (duration - MIN (covered, duration)));
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
      cur->lo = kymo_spans_lower_bound (spans, n, from, FALSE);
      hi = kymo_spans_lower_bound (spans, n, to, TRUE);
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
                prev->child[parent] = _kymo_call_add_sat (prev->child[parent], end - s->start);
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
trie_leaf (KymoCallBuilder *trie,
           KymoCallIdMap   *leaf_of_stack,
           KymoStacks      *stacks,
           guint32          stack)
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
  const KymoCallBuildNode *trie_nodes;
  g_autofree guint32 *dense = NULL;
  KymoCallIdMap leaf_of_stack, pending_of;
  KymoCallBuilder trie;
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

  _kymo_call_builder_init (&trie);
  _kymo_call_id_map_init (&leaf_of_stack);
  _kymo_call_id_map_init (&pending_of);
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
  _kymo_call_id_map_clear (&leaf_of_stack);
  _kymo_call_id_map_clear (&pending_of);

  if (ok)
    {
      guint32 track_node = NO_NODE;
      guint32 current_track = G_MAXUINT32;

      /* With no samples the array was never allocated: qsort of a NULL
       * pointer is undefined even for no elements (UBSan stops on it). */
      if (pending->len > 1)
        qsort (pending->data, pending->len, sizeof (Pending), compare_pending);
      trie_nodes = (const KymoCallBuildNode *) (gpointer) trie.nodes->data;
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
              KymoCallBuildNode node = trie_nodes[t];

              node.parent = mapped[node.parent];
              g_array_append_val (f->b.nodes, node);
              mapped[t] = f->b.nodes->len - 1;
              g_array_append_val (touched, t);
            }
          builder_node (&f->b, mapped[leaf])->self += p->count;
        }
    }
  _kymo_call_builder_clear (&trie);
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
  _kymo_call_builder_init (&f.b);
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
      _kymo_call_builder_clear (&f.b);
      return NULL;
    }
  nodes = _kymo_call_builder_finish (&f.b, trace, source == KYMO_CALL_TREE_SAMPLES, TRUE);
  _kymo_call_builder_clear (&f.b);
  return _kymo_call_tree_new (trace, source, from, to, nodes);
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
