/* kymo-track.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-track"

#include "config.h"

#include <string.h>

#include "kymo-run-sort.h"
#include "kymo-track-private.h"

void
_kymo_vec_grow (KymoVec *vec,
                gsize    element_size,
                gsize    min_cap)
{
  gsize cap = MAX (vec->cap * 2, 256);

  cap = MAX (cap, min_cap);
  vec->data = g_realloc_n (vec->data, cap, element_size);
  vec->cap = cap;
}

KymoTrack *
_kymo_track_new (KymoTrace     *trace,
                 guint          id,
                 guint          parent,
                 KymoTrackKind  kind,
                 const char    *name)
{
  KymoTrack *self = g_new0 (KymoTrack, 1);

  self->trace = trace;
  self->id = id;
  self->parent = parent;
  self->kind = kind;
  self->name = g_strdup (name ? name : "");
  self->children = g_array_new (FALSE, FALSE, sizeof (guint));
  self->start = KYMO_TIME_NONE;
  self->end = KYMO_TIME_NONE;
  return self;
}

void
_kymo_track_free (KymoTrack *self)
{
  for (guint d = 0; d < self->n_depths; d++)
    kymo_span_tree_clear (&self->trees[d]);
  g_free (self->trees);
  g_free (self->depth_offsets);
  g_free (self->spans);
  g_free (self->staged.data);
  g_free (self->staged_runs.data);
  g_free (self->instants.data);
  g_free (self->samples.data);
  g_free (self->annotations.data);
  g_array_unref (self->children);
  g_free (self->name);
  g_free (self->group_kind);
  g_free (self->unit);
  g_free (self);
}

guint
kymo_track_get_id (const KymoTrack *self)
{
  return self->id;
}

guint
kymo_track_get_parent (const KymoTrack *self)
{
  return self->parent;
}

KymoTrackKind
kymo_track_get_kind (const KymoTrack *self)
{
  return self->kind;
}

const char *
kymo_track_get_name (const KymoTrack *self)
{
  return self->name;
}

void
kymo_track_set_name (KymoTrack  *self,
                     const char *name)
{
  g_free (self->name);
  self->name = g_strdup (name ? name : "");
}

const char *
kymo_track_get_group_kind (const KymoTrack *self)
{
  return self->group_kind;
}

void
kymo_track_set_group_kind (KymoTrack  *self,
                           const char *group_kind)
{
  g_free (self->group_kind);
  self->group_kind = g_strdup (group_kind);
}

const char *
kymo_track_get_unit (const KymoTrack *self)
{
  return self->unit;
}

void
kymo_track_set_unit (KymoTrack  *self,
                     const char *unit)
{
  g_free (self->unit);
  self->unit = g_strdup (unit);
}

gint64
kymo_track_get_sort_key (const KymoTrack *self)
{
  return self->sort_key;
}

void
kymo_track_set_sort_key (KymoTrack *self,
                         gint64     sort_key)
{
  self->sort_key = sort_key;
}

guint64
kymo_track_get_tag (const KymoTrack *self)
{
  return self->tag;
}

void
kymo_track_set_tag (KymoTrack *self,
                    guint64    tag)
{
  self->tag = tag;
}

const guint *
kymo_track_get_children (const KymoTrack *self,
                         guint           *n_children)
{
  *n_children = self->children->len;
  return (const guint *) (gpointer) self->children->data;
}

static inline guint32
pack_name (guint32 name,
           guint   flags)
{
  return (MIN (name, KYMO_NAME_MAX)) | ((guint32) (flags & 0xFF) << 24);
}

static void
vec_reserve (KymoVec *vec,
             gsize    n,
             gsize    element_size)
{
  if (n > vec->cap)
    {
      vec->data = g_realloc_n (vec->data, n, element_size);
      vec->cap = n;
    }
}

void
kymo_track_reserve_instants (KymoTrack *self,
                             gsize      n_instants)
{
  g_return_if_fail (!self->sealed);
  vec_reserve (&self->instants, n_instants, sizeof (KymoInstant));
}

void
kymo_track_reserve_samples (KymoTrack *self,
                            gsize      n_samples)
{
  g_return_if_fail (!self->sealed);
  vec_reserve (&self->samples, n_samples, sizeof (KymoSample));
}

void
kymo_track_reserve_spans (KymoTrack *self,
                          gsize      n_spans)
{
  g_return_if_fail (!self->sealed && !self->spans_done);

  if (n_spans > self->staged.cap)
    {
      self->staged.data = g_realloc_n (self->staged.data, n_spans, sizeof (KymoSpan));
      self->staged.cap = n_spans;
    }
}

/* Counts @n more spans at @depth, after those already staged. */
static inline void
stage_depth (KymoTrack *self,
             guint32    depth,
             gsize      n)
{
  KymoVec *runs = &self->staged_runs;

  while (n > 0)
    {
      KymoDepthRun *run = runs->len ? (KymoDepthRun *) runs->data + runs->len - 1 : NULL;
      guint32 take;

      if (G_LIKELY (run != NULL && run->depth == depth && run->count < G_MAXUINT32))
        {
          take = (guint32) MIN (n, (gsize) (G_MAXUINT32 - run->count));
          run->count += take;
        }
      else
        {
          run = _kymo_vec_push (runs, sizeof (KymoDepthRun));
          take = (guint32) MIN (n, (gsize) G_MAXUINT32);
          run->depth = depth;
          run->count = take;
        }
      n -= take;
    }
}

void
kymo_track_add_span (KymoTrack *self,
                     KymoTime   start,
                     KymoTime   end,
                     guint32    name,
                     guint      depth,
                     guint      flags,
                     guint32    source)
{
  KymoSpan *span;

  g_return_if_fail (!self->sealed && !self->spans_done);

  if (end < start)
    end = start;
  span = _kymo_vec_push (&self->staged, sizeof (KymoSpan));
  span->start = start;
  span->end = end;
  span->name_flags = pack_name (name, flags);
  span->source = source;
  stage_depth (self, MIN (depth, 4095), 1);
}

void
kymo_track_add_spans (KymoTrack      *self,
                      guint           depth,
                      const KymoSpan *spans,
                      gsize           n_spans)
{
  g_return_if_fail (!self->sealed && !self->spans_done);

  /* Ends before starts are clamped at seal, while the tree is built. */
  if (n_spans > 0)
    memcpy (kymo_track_append_spans (self, depth, n_spans), spans, n_spans * sizeof (KymoSpan));
}

void
kymo_track_rename (KymoTrack     *self,
                   guint32        first,
                   const guint32 *map,
                   guint32        n_map)
{
  KymoSpan *spans = (KymoSpan *) self->staged.data;
  KymoInstant *instants = (KymoInstant *) self->instants.data;

  g_return_if_fail (!self->sealed && !self->spans_done);

  for (gsize i = 0; i < self->staged.len; i++)
    {
      guint32 name = spans[i].name_flags & KYMO_NAME_MAX;

      if (name - first < n_map)
        spans[i].name_flags = (spans[i].name_flags & ~KYMO_NAME_MAX) | (map[name - first] & KYMO_NAME_MAX);
    }
  for (gsize i = 0; i < self->instants.len; i++)
    {
      guint32 name = instants[i].name_flags & KYMO_NAME_MAX;

      if (name - first < n_map)
        instants[i].name_flags = (instants[i].name_flags & ~KYMO_NAME_MAX) | (map[name - first] & KYMO_NAME_MAX);
    }
}

KymoSpan *
kymo_track_append_spans (KymoTrack *self,
                         guint      depth,
                         gsize      n_spans)
{
  KymoSpan *out;

  g_return_val_if_fail (!self->sealed && !self->spans_done, NULL);

  if (self->staged.cap - self->staged.len < n_spans)
    _kymo_vec_grow (&self->staged, sizeof (KymoSpan), self->staged.len + n_spans);
  out = (KymoSpan *) self->staged.data + self->staged.len;
  self->staged.len += n_spans;
  if (n_spans > 0)
    stage_depth (self, MIN (depth, 4095), n_spans);
  return out;
}

/* Adopts @data (room for @n_alloc elements) as @vec's storage when @vec
 * holds nothing; otherwise appends a copy. Either way @data belongs to
 * @vec afterwards. */
static void
vec_take (KymoVec  *vec,
          gpointer  data,
          gsize     n,
          gsize     n_alloc,
          gsize     element_size)
{
  if (n == 0)
    {
      g_free (data);
      return;
    }
  if (vec->len == 0)
    {
      g_free (vec->data);
      vec->data = data;
      vec->len = n;
      vec->cap = MAX (n, n_alloc);
      return;
    }
  if (vec->cap - vec->len < n)
    _kymo_vec_grow (vec, element_size, vec->len + n);
  memcpy ((char *) vec->data + vec->len * element_size, data, n * element_size);
  vec->len += n;
  g_free (data);
}

void
kymo_track_take_spans (KymoTrack *self,
                       guint      depth,
                       KymoSpan  *spans,
                       gsize      n_spans)
{
  kymo_track_take_spans_with_room (self, depth, spans, n_spans, n_spans);
}

/* As kymo_track_take_spans(), for an array with room for @n_alloc spans:
 * spans added next fill that room before the array is reallocated. */
void
kymo_track_take_spans_with_room (KymoTrack *self,
                                 guint      depth,
                                 KymoSpan  *spans,
                                 gsize      n_spans,
                                 gsize      n_alloc)
{
  g_return_if_fail (!self->sealed && !self->spans_done);

  /* Ends before starts are clamped at seal, while the tree is built. */
  vec_take (&self->staged, spans, n_spans, n_alloc, sizeof (KymoSpan));
  if (n_spans > 0)
    stage_depth (self, MIN (depth, 4095), n_spans);
}

void
kymo_track_take_instants (KymoTrack   *self,
                          KymoInstant *instants,
                          gsize        n_instants)
{
  g_return_if_fail (!self->sealed);
  vec_take (&self->instants, instants, n_instants, n_instants, sizeof (KymoInstant));
}

void
kymo_track_take_samples (KymoTrack  *self,
                         KymoSample *samples,
                         gsize       n_samples)
{
  g_return_if_fail (!self->sealed);
  vec_take (&self->samples, samples, n_samples, n_samples, sizeof (KymoSample));
}

void
kymo_track_add_instant (KymoTrack *self,
                        KymoTime   ts,
                        guint32    name,
                        guint      flags,
                        guint32    source)
{
  KymoInstant instant = { ts, pack_name (name, flags), source };

  g_return_if_fail (!self->sealed);
  *(KymoInstant *) _kymo_vec_push (&self->instants, sizeof instant) = instant;
}

void
kymo_track_add_sample (KymoTrack *self,
                       KymoTime   ts,
                       double     value)
{
  KymoSample sample = { ts, value };

  g_return_if_fail (!self->sealed);
  *(KymoSample *) _kymo_vec_push (&self->samples, sizeof sample) = sample;
}

void
kymo_track_add_annotation (KymoTrack  *self,
                           KymoTime    start,
                           KymoTime    end,
                           guint32     name,
                           const char *text,
                           guint32     source)
{
  KymoAnnotation annotation;

  g_return_if_fail (!self->sealed);

  annotation.start = start;
  annotation.end = MAX (start, end);
  annotation.name = name;
  annotation.source = source;
  annotation.text = text ? kymo_trace_store_text (self->trace, text) : NULL;
  *(KymoAnnotation *) _kymo_vec_push (&self->annotations, sizeof annotation) = annotation;
}

/* By start, longer first so that an enclosing span precedes what starts
 * with it; by time for the others. Decoders mostly emit in order already
 * (then a sort is one pass that finds a single run). */
#define SPAN_LESS(x, y) ((x)->start < (y)->start || ((x)->start == (y)->start && (x)->end > (y)->end))
#define TS_LESS(x, y) ((x)->ts < (y)->ts)
#define START_LESS(x, y) ((x)->start < (y)->start)

KYMO_DEFINE_RUN_SORT (sort_spans, KymoSpan, SPAN_LESS)
KYMO_DEFINE_RUN_SORT (sort_instants, KymoInstant, TS_LESS)
KYMO_DEFINE_RUN_SORT (sort_samples, KymoSample, TS_LESS)
KYMO_DEFINE_RUN_SORT (sort_annotations, KymoAnnotation, START_LESS)

static void
extend_range (KymoTrack *self,
              KymoTime   start,
              KymoTime   end)
{
  if (self->start == KYMO_TIME_NONE || start < self->start)
    self->start = start;
  if (self->end == KYMO_TIME_NONE || end > self->end)
    self->end = end;
}

/* Sealing runs in three steps so that a trace can spread it over its
 * threads: the tracks are prepared side by side, then every depth run's
 * tree is built side by side (a trace of one large thread still uses every
 * core), then each track takes its range from its runs. A decoder may
 * have done the spans' part of the first two already
 * (kymo_track_seal_spans()). */
static void
prepare_spans (KymoTrack *self)
{
  KymoSpan *staged = self->staged.data;
  const KymoDepthRun *runs = self->staged_runs.data;
  gsize n = self->staged.len, n_runs = self->staged_runs.len;
  guint n_depths = 0;
  gboolean depth_ordered = TRUE;

  for (gsize r = 0; r < n_runs; r++)
    {
      n_depths = MAX (n_depths, runs[r].depth + 1);
      if (r > 0 && runs[r].depth < runs[r - 1].depth)
        depth_ordered = FALSE;
    }

  /* Counting sort by depth, over runs rather than spans; decoders emit each
   * depth in start order almost always, so a run is only sorted when it
   * needs it. */
  self->n_depths = n_depths;
  self->n_spans = n;
  self->depth_offsets = g_new0 (gsize, n_depths + 1);
  for (gsize r = 0; r < n_runs; r++)
    self->depth_offsets[runs[r].depth + 1] += runs[r].count;
  for (guint d = 0; d < n_depths; d++)
    self->depth_offsets[d + 1] += self->depth_offsets[d];

  if (depth_ordered)
    {
      /* Already in place: give back what the growth over-allocated. */
      self->spans = g_realloc (g_steal_pointer (&self->staged.data), MAX (n, 1) * sizeof (KymoSpan));
    }
  else
    {
      g_autofree gsize *cursor = g_memdup2 (self->depth_offsets, sizeof (gsize) * (n_depths + 1));
      const KymoSpan *from = staged;

      self->spans = g_new (KymoSpan, MAX (n, 1));
      for (gsize r = 0; r < n_runs; r++)
        {
          memcpy (self->spans + cursor[runs[r].depth], from, runs[r].count * sizeof (KymoSpan));
          cursor[runs[r].depth] += runs[r].count;
          from += runs[r].count;
        }
      g_clear_pointer (&self->staged.data, g_free);
    }
  g_clear_pointer (&self->staged_runs.data, g_free);
  self->staged.len = self->staged.cap = 0;
  self->staged_runs.len = self->staged_runs.cap = 0;

  self->trees = g_new0 (KymoSpanTree, MAX (n_depths, 1));
}

void
_kymo_track_seal_prepare (KymoTrack *self)
{
  if (self->sealed)
    return;
  self->sealed = TRUE;

  if (!self->spans_done)
    prepare_spans (self);
  sort_instants (self->instants.data, self->instants.len);
  sort_samples (self->samples.data, self->samples.len);
  sort_annotations (self->annotations.data, self->annotations.len);
}

void
kymo_track_seal_spans (KymoTrack *self)
{
  g_return_if_fail (!self->sealed && !self->spans_done);

  prepare_spans (self);
  for (guint d = 0; d < self->n_depths; d++)
    _kymo_track_seal_depth (self, d);
  self->spans_done = TRUE;
}

gboolean
_kymo_track_get_spans_done (KymoTrack *self)
{
  return self->spans_done;
}

gsize
_kymo_track_get_depth_count (KymoTrack *self,
                             guint      depth)
{
  return self->depth_offsets[depth + 1] - self->depth_offsets[depth];
}

/* Touches the spans of @depth and its tree only. */
void
_kymo_track_seal_depth (KymoTrack *self,
                        guint      depth)
{
  KymoSpan *run = self->spans + self->depth_offsets[depth];
  gsize count = _kymo_track_get_depth_count (self, depth);

  if (!kymo_span_tree_init (&self->trees[depth], run, count))
    {
      kymo_span_tree_clear (&self->trees[depth]);
      sort_spans (run, count);
      kymo_span_tree_init (&self->trees[depth], run, count);
    }
}

void
_kymo_track_seal_finish (KymoTrack *self)
{
  for (guint d = 0; d < self->n_depths; d++)
    {
      const KymoSpanTree *tree = &self->trees[d];

      /* Sorted by start: the first starts first, and the tree knows the
       * latest end. */
      if (tree->n_spans > 0)
        extend_range (self, tree->spans[0].start, kymo_span_tree_max_end (tree));
    }

  if (self->instants.len)
    extend_range (self,
                  ((KymoInstant *) self->instants.data)[0].ts,
                  ((KymoInstant *) self->instants.data)[self->instants.len - 1].ts);
  if (self->samples.len)
    extend_range (self,
                  ((KymoSample *) self->samples.data)[0].ts,
                  ((KymoSample *) self->samples.data)[self->samples.len - 1].ts);
  for (guint i = 0; i < self->annotations.len; i++)
    {
      const KymoAnnotation *a = &((KymoAnnotation *) self->annotations.data)[i];
      extend_range (self, a->start, a->end);
    }
}

gsize
_kymo_track_memory (KymoTrack *self)
{
  gsize bytes = sizeof *self;

  bytes += self->n_spans * sizeof (KymoSpan);
  for (guint d = 0; d < self->n_depths; d++)
    bytes += kymo_span_tree_memory (&self->trees[d]);
  bytes += self->instants.len * sizeof (KymoInstant);
  bytes += self->samples.len * sizeof (KymoSample);
  bytes += self->annotations.len * sizeof (KymoAnnotation);
  return bytes;
}

gsize
kymo_track_get_n_events (const KymoTrack *self)
{
  return self->n_spans + self->instants.len + self->samples.len + self->annotations.len;
}

KymoTime
kymo_track_get_start (const KymoTrack *self)
{
  return self->start;
}

KymoTime
kymo_track_get_end (const KymoTrack *self)
{
  return self->end;
}

const KymoSpan *
kymo_track_get_spans (const KymoTrack *self,
                      gsize           *n_spans)
{
  g_return_val_if_fail (self->sealed, NULL);
  *n_spans = self->n_spans;
  return self->spans;
}

guint
kymo_track_get_n_depths (const KymoTrack *self)
{
  return self->n_depths;
}

const KymoSpan *
kymo_track_get_depth_spans (const KymoTrack *self,
                            guint            depth,
                            gsize           *n_spans,
                            gsize           *first)
{
  g_return_val_if_fail (self->sealed, NULL);

  if (depth >= self->n_depths)
    {
      *n_spans = 0;
      if (first)
        *first = self->n_spans;
      return NULL;
    }
  *n_spans = self->depth_offsets[depth + 1] - self->depth_offsets[depth];
  if (first)
    *first = self->depth_offsets[depth];
  return self->spans + self->depth_offsets[depth];
}

guint
kymo_track_get_span_depth (const KymoTrack *self,
                           gsize            index)
{
  guint lo = 0, hi = self->n_depths;

  g_return_val_if_fail (index < self->n_spans, 0);

  /* First depth whose run ends after index. */
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (self->depth_offsets[mid + 1] <= index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gsize
kymo_track_query_spans (const KymoTrack *self,
                        guint            depth,
                        KymoTime         t0,
                        KymoTime         t1,
                        GArray          *indexes)
{
  g_return_val_if_fail (self->sealed, 0);

  if (depth >= self->n_depths)
    return 0;
  return kymo_span_tree_query (&self->trees[depth], t0, t1,
                               (guint32) self->depth_offsets[depth], indexes);
}

guint
kymo_track_get_lod_levels (const KymoTrack *self,
                           guint            depth)
{
  g_return_val_if_fail (self->sealed, 0);

  if (depth >= self->n_depths)
    return 0;
  return self->trees[depth].n_levels;
}

const KymoSpanBlock *
kymo_track_get_lod (const KymoTrack *self,
                    guint            depth,
                    guint            level,
                    gsize           *n_blocks)
{
  g_return_val_if_fail (self->sealed, NULL);

  if (depth >= self->n_depths)
    {
      *n_blocks = 0;
      return NULL;
    }
  return kymo_span_tree_get_level (&self->trees[depth], level, n_blocks);
}

void
kymo_track_query_lod (const KymoTrack *self,
                      guint            depth,
                      KymoTime         t0,
                      KymoTime         t1,
                      guint            n_buckets,
                      guint32         *longest,
                      guint32         *counts)
{
  const KymoSpanTree *tree;
  double width;
  gsize lo;

  g_return_if_fail (self->sealed);

  if (depth >= self->n_depths || n_buckets == 0 || t1 <= t0)
    {
      for (guint b = 0; b < n_buckets; b++)
        {
          longest[b] = G_MAXUINT32;
          counts[b] = 0;
        }
      return;
    }

  tree = &self->trees[depth];
  width = (double) (t1 - t0) / n_buckets;
  lo = kymo_span_tree_lower_bound (tree, t0);

  for (guint b = 0; b < n_buckets; b++)
    {
      KymoTime bucket_end = b + 1 == n_buckets ? t1 : t0 + (KymoTime) (width * (b + 1));
      gsize hi = lo;
      guint32 best;

      /* Most buckets hold few spans: step before searching. */
      while (hi < tree->n_spans && hi - lo < 8 && tree->spans[hi].start < bucket_end)
        hi++;
      if (hi < tree->n_spans && tree->spans[hi].start < bucket_end)
        {
          gsize a = hi, z = tree->n_spans;
          while (a < z)
            {
              gsize mid = a + (z - a) / 2;
              if (tree->spans[mid].start < bucket_end)
                a = mid + 1;
              else
                z = mid;
            }
          hi = a;
        }

      best = kymo_span_tree_longest (tree, lo, hi);
      longest[b] = best == G_MAXUINT32 ? G_MAXUINT32 : (guint32) (best + self->depth_offsets[depth]);
      counts[b] = (guint32) (hi - lo);
      lo = hi;
    }
}

guint32
kymo_track_find_span_at (const KymoTrack *self,
                         guint            depth,
                         KymoTime         ts)
{
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint32 best = G_MAXUINT32;

  if (depth >= self->n_depths)
    return G_MAXUINT32;

  kymo_track_query_spans (self, depth, ts, ts, hits);
  /* Overlaps at one depth only happen in damaged traces: prefer the shortest. */
  for (guint i = 0; i < hits->len; i++)
    {
      guint32 idx = g_array_index (hits, guint32, i);
      if (best == G_MAXUINT32 ||
          self->spans[idx].end - self->spans[idx].start < self->spans[best].end - self->spans[best].start)
        best = idx;
    }
  return best;
}

const KymoInstant *
kymo_track_get_instants (const KymoTrack *self,
                         gsize           *n_instants)
{
  *n_instants = self->instants.len;
  return self->instants.data;
}

const KymoSample *
kymo_track_get_samples (const KymoTrack *self,
                        gsize           *n_samples)
{
  *n_samples = self->samples.len;
  return self->samples.data;
}

const KymoAnnotation *
kymo_track_get_annotations (const KymoTrack *self,
                            gsize           *n_annotations)
{
  *n_annotations = self->annotations.len;
  return self->annotations.data;
}

#define LOWER_BOUND(vec, type, field, ts)                          \
  G_STMT_START {                                                   \
    const type *v_ = (vec).data;                                   \
    gsize lo_ = 0, hi_ = (vec).len;                                \
    while (lo_ < hi_)                                              \
      {                                                            \
        gsize mid_ = lo_ + (hi_ - lo_) / 2;                        \
        if (v_[mid_].field < (ts))                                 \
          lo_ = mid_ + 1;                                          \
        else                                                       \
          hi_ = mid_;                                              \
      }                                                            \
    return lo_;                                                    \
  } G_STMT_END

gsize
kymo_track_lower_bound_instant (const KymoTrack *self,
                                KymoTime         ts)
{
  LOWER_BOUND (self->instants, KymoInstant, ts, ts);
}

gsize
kymo_track_lower_bound_sample (const KymoTrack *self,
                               KymoTime         ts)
{
  LOWER_BOUND (self->samples, KymoSample, ts, ts);
}

gsize
kymo_track_lower_bound_annotation (const KymoTrack *self,
                                   KymoTime         ts)
{
  LOWER_BOUND (self->annotations, KymoAnnotation, start, ts);
}

const char *
kymo_track_kind_to_string (KymoTrackKind kind)
{
  switch (kind)
    {
    case KYMO_TRACK_GROUP: return "group";
    case KYMO_TRACK_THREAD: return "thread";
    case KYMO_TRACK_COUNTER: return "counter";
    case KYMO_TRACK_INSTANT: return "instant";
    case KYMO_TRACK_MARKER: return "marker";
    case KYMO_TRACK_ANNOTATION: return "annotation";
    case KYMO_TRACK_LOG: return "log";
    default: return "unknown";
    }
}
