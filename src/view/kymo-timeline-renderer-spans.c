/* kymo-timeline-renderer-spans.c: span lanes, with runs of narrow spans folded into "N spans" boxes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-renderer"

#include "config.h"

#include <math.h>

#include <glib/gi18n.h>

#include "kymo-timeline-renderer-private.h"

#define MIN_BOX_PX     2.0   /* narrower spans fold into "N spans" runs */
#define RUN_GAP_PX     2     /* empty columns a run may bridge */
#define LABEL_CACHE_MAX 8192

static int
label_width (KymoTimelineRenderer *self,
             guint32               name)
{
  int width;

  if (name >= self->n_names)
    return G_MAXINT;
  if (self->label_widths[name] < 0)
    {
      pango_layout_set_text (self->layout, kymo_trace_get_name (self->trace, name), -1);
      pango_layout_get_pixel_size (self->layout, &width, NULL);
      self->label_widths[name] = MIN (width, G_MAXINT16);
    }
  return self->label_widths[name];
}

/* Span labels repeat: render each name once to a node and move it around. */
static void
append_name_label (KymoTimelineFrame *f,
                   guint32            name,
                   float              x,
                   float              y)
{
  KymoTimelineRenderer *self = f->self;
  GskRenderNode *node = g_hash_table_lookup (self->labels, GUINT_TO_POINTER (name));

  if (node == NULL)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      if (g_hash_table_size (self->labels) >= LABEL_CACHE_MAX)
        g_hash_table_remove_all (self->labels);
      pango_layout_set_text (self->layout, kymo_trace_get_name (self->trace, name), -1);
      gtk_snapshot_append_layout (snapshot, self->layout, &self->label_colour);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node == NULL)
        return;
      g_hash_table_insert (self->labels, GUINT_TO_POINTER (name), node);
    }
  gtk_snapshot_save (f->snapshot);
  gtk_snapshot_translate (f->snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_node (f->snapshot, node);
  gtk_snapshot_restore (f->snapshot);
}

/* ------------------------------------------------------------ highlight */

/* A folded "N spans" box: the spans of the lane starting under it, as
 * indexes into the lane, for the highlight to test in O(log n). */
static void
highlight_run_box (KymoTimelineFrame     *f,
                   const graphene_rect_t *box)
{
  KymoTime a, b;

  if (f->hl.set == NULL)
    return;
  a = f->t0 + (KymoTime) floor (box->origin.x / f->px_per_ns);
  b = f->t0 + (KymoTime) ceil ((box->origin.x + box->size.width) / f->px_per_ns);
  _kymo_timeline_highlight_run (&f->hl, f->snapshot, &f->self->theme, box,
                                kymo_spans_lower_bound (f->hl.lane, f->hl.lane_n, a, FALSE),
                                kymo_spans_lower_bound (f->hl.lane, f->hl.lane_n, b + 1, FALSE));
}

/* ---------------------------------------------------------------- spans */

static void
draw_span_box (KymoTimelineFrame *f,
               const KymoSpan    *span,
               double             x0,
               double             x1,
               float              y)
{
  KymoTimelineRenderer *self = f->self;
  guint32 name = kymo_span_name (span);
  guint flags = kymo_span_flags (span);
  int width = f->viewport->width;
  double cx0 = MAX (x0, -2), cx1 = MIN (x1, width + 2);
  double w = cx1 - cx0;
  graphene_rect_t box;

  /* A one-pixel gap keeps neighbours apart once they are wide enough. */
  if (w > 4 && x1 <= width)
    w -= 1;
  box = GRAPHENE_RECT_INIT (cx0, y + 1, w, KYMO_TIMELINE_LANE_HEIGHT - 2);
  gtk_snapshot_append_color (f->snapshot, f->heat_lane ? kymo_timeline_heat_colour (&self->heat, span)
                                                      : _kymo_timeline_renderer_name_colour (self, name), &box);
  f->self->stats.spans_drawn++;

  if ((flags & KYMO_EVENT_INCOMPLETE) && x1 <= width + 2)
    {
      /* Never closed: fade out the right end. */
      double fade = MIN (w, 24);
      GdkRGBA clear = self->theme.background;
      GskColorStop stops[2];

      clear.alpha = 0;
      stops[0].offset = 0;
      stops[0].color = clear;
      stops[1].offset = 1;
      stops[1].color = self->theme.background;
      gtk_snapshot_append_linear_gradient (f->snapshot,
                                           &GRAPHENE_RECT_INIT (cx0 + w - fade, box.origin.y, fade, box.size.height),
                                           &GRAPHENE_POINT_INIT (cx0 + w - fade, 0),
                                           &GRAPHENE_POINT_INIT (cx0 + w, 0),
                                           stops, 2);
    }
  if (flags & KYMO_EVENT_WARNING)
    gtk_snapshot_append_color (f->snapshot, &self->theme.warning,
                               &GRAPHENE_RECT_INIT (cx0, box.origin.y + box.size.height - 2, w, 2));
  if (name == f->highlighted)
    _kymo_timeline_append_outline (f->snapshot, &box, 1, &self->theme.foreground);

  if (w >= 16)
    {
      int lw = label_width (self, name);
      if (lw + 6 <= w)
        {
          /* Keep the label on screen for spans that start off the left edge. */
          double lx = MAX (cx0, 0) + 3;
          if (lx + lw > cx0 + w - 3)
            lx = cx0 + w - 3 - lw;
          append_name_label (f, name, lx, y + (KYMO_TIMELINE_LANE_HEIGHT - self->text_height) / 2.0f);
        }
    }
  _kymo_timeline_highlight_span (&f->hl, f->snapshot, &self->theme, span, &box);
}

static void
draw_merged_run (KymoTimelineFrame *f,
                 const KymoSpan    *sample,
                 double             x0,
                 double             x1,
                 guint64            count,
                 float              y)
{
  KymoTimelineRenderer *self = f->self;
  graphene_rect_t box;
  GdkRGBA colour;

  if (count == 1)
    {
      /* One lone narrow span: keep it visible at a minimum width. */
      draw_span_box (f, sample, x0, MAX (x1, x0 + 1), y);
      return;
    }

  box = GRAPHENE_RECT_INIT (x0, y + 1, MAX (x1 - x0, 1), KYMO_TIMELINE_LANE_HEIGHT - 2);
  colour = f->heat_lane ? *kymo_timeline_heat_colour (&self->heat, sample)
                        : *_kymo_timeline_renderer_name_colour (self, kymo_span_name (sample));
  colour.alpha = 0.7f;
  gtk_snapshot_append_color (f->snapshot, &colour, &box);
  gtk_snapshot_push_repeat (f->snapshot, &box, &GRAPHENE_RECT_INIT (0, 0, HATCH_SIZE, HATCH_SIZE));
  gtk_snapshot_append_node (f->snapshot, self->hatch);
  gtk_snapshot_pop (f->snapshot);
  self->stats.merged_boxes++;
  highlight_run_box (f, &box);

  if (box.size.width >= 40)
    {
      char number[24], buf[64];
      int tw;

      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, count);
      /* Translators: a box standing for many spans too small to draw; %s is a number */
      g_snprintf (buf, sizeof buf, g_dngettext (GETTEXT_PACKAGE, "%s span", "%s spans", count), number);
      /* Shaped once, measured and drawn: a zoomed-out frame has a label
       * like this on most lanes. */
      tw = _kymo_timeline_renderer_text_width (self, buf);
      if (tw + 6 <= box.size.width)
        {
          gtk_snapshot_save (f->snapshot);
          gtk_snapshot_translate (f->snapshot,
                                  &GRAPHENE_POINT_INIT (x0 + (box.size.width - tw) / 2,
                                                        y + (KYMO_TIMELINE_LANE_HEIGHT - self->text_height) / 2.0f));
          gtk_snapshot_append_layout (f->snapshot, self->layout, &self->label_colour);
          gtk_snapshot_restore (f->snapshot);
        }
    }
}

/* Level of detail: the model's pyramid of blocks over each depth run
 * (kymo_track_get_lod(), built at seal on the load's threads), so no frame
 * builds anything. Up to this many spans per pixel column the spans
 * themselves are read; beyond, level-0 blocks are at most a few pixels wide. */
#define DENSE_LIMIT    (KYMO_SPAN_TREE_LEAF / 4)

static gsize
lower_bound_block (const KymoSpanBlock *blocks,
                   gsize                n,
                   KymoTime             ts)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (blocks[mid].first_start < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* One depth lane, left to right: each pixel column hands in the longest span
 * starting in it and how many start in it. */
typedef struct {
  KymoTimelineFrame *f;
  const KymoSpan    *spans;
  float              y;
  /* the column being gathered */
  double             column;
  KymoTime           column_start;  /* the first start in the column */
  KymoTime           column_end;
  gsize              best;
  KymoTime           best_len;
  KymoTime           reach;
  guint64            count;
  /* the "N spans" run being gathered */
  double             covered;
  double             run_x0;
  double             run_x1;
  guint64            run_count;
  const KymoSpan    *run_sample;
  KymoTime           run_longest;
} LaneWalk;

static void
lane_flush (LaneWalk *w)
{
  if (w->run_count > 0)
    draw_merged_run (w->f, w->run_sample, w->run_x0, w->run_x1, w->run_count, w->y);
  w->run_count = 0;
  w->run_longest = -1;
}

static void
lane_column_done (LaneWalk *w)
{
  const KymoSpan *span = NULL;
  double x0, x1;

  if (w->count == 0)
    return;

  if (w->run_count > 0 && w->column >= w->run_x1 + RUN_GAP_PX)
    lane_flush (w);
  /* The winner starts no earlier than the column's first start: that bounds
   * its end from below, so most columns decide without reading the span (a
   * random read into the spans per column is what a frame would pay). */
  if (time_to_x (w->f, w->column_start + w->best_len) <= w->covered)
    {
      span = &w->spans[w->best];
      if (time_to_x (w->f, span->end) <= w->covered)
        goto done;
    }
  if (w->best_len * w->f->px_per_ns >= MIN_BOX_PX)
    {
      span = &w->spans[w->best];
      x0 = time_to_x (w->f, span->start);
      x1 = time_to_x (w->f, span->end);
      lane_flush (w);
      draw_span_box (w->f, span, x0, x1, w->y);
      w->covered = x1;
    }
  else
    {
      if (w->run_count == 0)
        w->run_x0 = MAX (w->column, w->covered);
      /* Spans of a run touch each other up to where they reach. */
      w->run_x1 = MAX (w->run_x1, MAX (time_to_x (w->f, w->reach), w->column + 1));
      w->run_count += w->count;
      if (w->best_len > w->run_longest)
        {
          w->run_longest = w->best_len;
          w->run_sample = &w->spans[w->best];
        }
    }

done:
  w->count = 0;
  w->best_len = -1;
  w->reach = G_MININT64;
}

/* Same column while the start is before column_end: no float per span. */
static inline void
lane_add (LaneWalk *w,
          KymoTime  first_start,
          gsize     longest,
          KymoTime  longest_len,
          KymoTime  reach,
          guint64   count)
{
  if (first_start >= w->column_end)
    {
      lane_column_done (w);
      w->column_start = first_start;
      w->column = floor (time_to_x (w->f, first_start));
      w->column_end = w->f->t0 + (KymoTime) ceil ((w->column + 1) / w->f->px_per_ns);
    }
  if (longest_len > w->best_len)
    {
      w->best = longest;
      w->best_len = longest_len;
    }
  w->reach = MAX (w->reach, reach);
  w->count += count;
}

static void
lane_add_spans (LaneWalk *w,
                gsize     lo,
                gsize     hi)
{
  for (gsize i = lo; i < hi; i++)
    lane_add (w, w->spans[i].start, i, w->spans[i].end - w->spans[i].start, w->spans[i].end, 1);
  w->f->self->stats.spans_touched += hi - lo;
}

/* A block wider than a run may bridge holds a gap or a long span: its
 * children are read so that the gap stays visible. */
static void
lane_add_blocks (LaneWalk            *w,
                 const KymoSpanBlock *const *levels,
                 const gsize         *n_blocks,
                 guint                level,
                 gsize                lo,
                 gsize                hi,
                 gsize                n_spans,
                 KymoTime             wide)
{
  for (gsize b = lo; b < hi; b++)
    {
      const KymoSpanBlock *block = &levels[level][b];

      if (block->max_end - block->first_start > wide)
        {
          if (level == 0)
            lane_add_spans (w, b * KYMO_SPAN_TREE_LEAF, MIN ((b + 1) * KYMO_SPAN_TREE_LEAF, n_spans));
          else
            lane_add_blocks (w, levels, n_blocks, level - 1, b * KYMO_SPAN_TREE_FANOUT,
                             MIN ((b + 1) * KYMO_SPAN_TREE_FANOUT, n_blocks[level - 1]), n_spans, wide);
          continue;
        }
      lane_add (w, block->first_start, block->longest, block->longest_len, block->max_end, block->count);
      w->f->self->stats.spans_touched++;
    }
}

void
_kymo_timeline_frame_draw_depth (KymoTimelineFrame *f,
                                 KymoTrack         *track,
                                 guint              depth,
                                 float              y)
{
  KymoTimelineRenderer *self = f->self;
  const KymoSpan *spans, *all;
  gsize n, first, n_all, lo, hi;
  LaneWalk w = { 0 };
  guint32 before;
  guint n_levels;

  spans = kymo_track_get_depth_spans (track, depth, &n, &first);
  all = kymo_track_get_spans (track, &n_all);
  if (n == 0)
    return;

  _kymo_timeline_highlight_begin_lane (&f->hl, track, depth);
  w.f = f;
  w.spans = spans;
  w.y = y;
  w.column_end = G_MININT64;
  w.best_len = -1;
  w.reach = G_MININT64;
  w.covered = -G_MAXDOUBLE;
  w.run_longest = -1;

  /* The one span at this depth that starts left of the window but reaches into it. */
  before = kymo_track_find_span_at (track, depth, f->t0);
  if (before != G_MAXUINT32)
    {
      const KymoSpan *span = &all[before];
      self->stats.spans_touched++;
      if (span->start < f->t0)
        {
          double x1 = time_to_x (f, span->end);
          draw_span_box (f, span, time_to_x (f, span->start), MAX (x1, 1), y);
          w.covered = x1;
        }
    }

  lo = kymo_spans_lower_bound (spans, n, f->t0, FALSE);
  hi = kymo_spans_lower_bound (spans, n, f->t1, FALSE);
  n_levels = kymo_track_get_lod_levels (track, depth);

  if (hi - lo <= (gsize) DENSE_LIMIT * f->n_columns || n_levels == 0)
    /* Few enough to read them all, in order. */
    lane_add_spans (&w, lo, hi);
  else
    {
      const KymoSpanBlock *levels[KYMO_SPAN_TREE_MAX_LEVELS];
      gsize n_blocks[KYMO_SPAN_TREE_MAX_LEVELS];
      double density = (double) (hi - lo) / f->n_columns;
      KymoTime wide = (KymoTime) ((RUN_GAP_PX + 1) / f->px_per_ns);
      guint level = 0;
      gsize b, b_end, edge;

      for (guint l = 0; l < n_levels; l++)
        levels[l] = kymo_track_get_lod (track, depth, l, &n_blocks[l]);
      /* The coarsest level whose blocks are still about a pixel wide. */
      while (level + 1 < n_levels && kymo_span_tree_block_spans (level + 1) <= density)
        level++;
      b = lower_bound_block (levels[level], n_blocks[level], f->t0);
      b_end = lower_bound_block (levels[level], n_blocks[level], f->t1);
      /* The spans before the first whole block, then the blocks. */
      edge = MIN (b * kymo_span_tree_block_spans (level), hi);
      if (edge > lo)
        lane_add_spans (&w, lo, edge);
      lane_add_blocks (&w, levels, n_blocks, level, b, b_end, n, wide);
    }
  lane_column_done (&w);
  lane_flush (&w);
}
