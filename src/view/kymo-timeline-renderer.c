/* kymo-timeline-renderer.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-renderer"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n.h>

#include "kymo-timeline-renderer.h"
#include "kymo-timeline-highlight.h"
#include "kymo-timeline-heat.h"
#include "kymo-timeline-lanes.h"
#include "kymo-timeline-counters.h"
#include "kymo-timeline-ruler.h"

#define N_HUES         64
#define NO_HUE         G_MAXUINT16
#define MIN_BOX_PX     2.0   /* narrower spans fold into "N spans" runs */
#define RUN_GAP_PX     2     /* empty columns a run may bridge */
#define LABEL_CACHE_MAX 8192
#define HATCH_SIZE     6
/* More arrows than this on screen is a tangle, not information: the
 * level of detail drops them until the user zooms in. */
#define MAX_FLOWS      256

struct _KymoTimelineRenderer
{
  KymoTrace         *trace;
  PangoContext      *context;
  PangoLayout       *layout;       /* the one layout every text uses */
  int                text_height;
  KymoTimelineTheme  theme;
  GdkRGBA            hues[N_HUES];
  GdkRGBA            lines[N_HUES];  /* same hues, with contrast for thin lines */
  GdkRGBA            label_colour;
  GskRenderNode     *hatch;

  guint16           *name_hues;    /* [n_names] */
  guint              n_names;
  GHashTable        *labels;       /* name id → GskRenderNode (text at 0,0) */
  gint16            *label_widths; /* [n_names], -1 unknown */

  KymoTimelineCounters *counters;  /* counter tracks' value ranges */
  GHashTable        *annotation_spans; /* track id → longest annotation (ns) */
  guint32           *flow_order;   /* flows sorted by their first time */
  gsize              n_flows;
  KymoTime           flow_max_len;
  gboolean           flows_indexed;

  KymoTimelineStats  stats;
  KymoTimelineHeat   heat;
  gboolean           heat_on;      /* dial9: worker lanes by poll length */
  KymoTimelineSched *sched;        /* dial9: kernel scheduling delays */
  KymoTimelineCpu    cpu;          /* dial9: on-CPU band, samples, wakes */
  KymoDial9Lanes    *lanes;
  KymoTimelineWakes  wakes;        /* the selected task's */
};

/* Shared per frame: where the window is and how to map time to x. */
typedef struct {
  KymoTimelineRenderer       *self;
  GtkSnapshot                *snapshot;
  KymoSession                *session;
  const KymoTimelineLayout   *layout;
  const KymoTimelineViewport *viewport;
  KymoTime                    t0;
  KymoTime                    t1;
  double                      px_per_ns;
  guint                       n_columns;
  guint32                     highlighted;
  KymoTimelineHighlight       hl;         /* the session highlight and the lane drawn */
  float                       top;       /* first y of the track area */
  float                       bottom;
  gboolean                    heat_lane; /* the lane drawn is a worker's polls */
} Frame;

static inline double
time_to_x (const Frame *f,
           KymoTime     t)
{
  return (double) (t - f->t0) * f->px_per_ns;
}

static inline KymoTime
x_to_time (const Frame *f,
           double       x)
{
  return f->t0 + (KymoTime) floor (x / f->px_per_ns);
}

void
kymo_timeline_theme_init_default (KymoTimelineTheme *theme,
                                  gboolean           dark)
{
  theme->dark = dark;
  if (dark)
    {
      gdk_rgba_parse (&theme->background, "#1e1e1e");
      gdk_rgba_parse (&theme->foreground, "rgba(255,255,255,0.9)");
      gdk_rgba_parse (&theme->dim, "rgba(255,255,255,0.55)");
      gdk_rgba_parse (&theme->grid, "rgba(255,255,255,0.08)");
      gdk_rgba_parse (&theme->ruler, "#2a2a2a");
      gdk_rgba_parse (&theme->header, "#303030");
      gdk_rgba_parse (&theme->accent, "#78aeed");
      gdk_rgba_parse (&theme->selection, "rgba(120,174,237,0.18)");
      gdk_rgba_parse (&theme->warning, "#ff7b63");
    }
  else
    {
      gdk_rgba_parse (&theme->background, "#ffffff");
      gdk_rgba_parse (&theme->foreground, "rgba(0,0,0,0.8)");
      gdk_rgba_parse (&theme->dim, "rgba(0,0,0,0.55)");
      gdk_rgba_parse (&theme->grid, "rgba(0,0,0,0.08)");
      gdk_rgba_parse (&theme->ruler, "#f6f5f4");
      gdk_rgba_parse (&theme->header, "#ebebeb");
      gdk_rgba_parse (&theme->accent, "#1c71d8");
      gdk_rgba_parse (&theme->selection, "rgba(53,132,228,0.15)");
      gdk_rgba_parse (&theme->warning, "#c01c28");
    }
}

static void
hsl_to_rgba (double   h,
             double   s,
             double   l,
             GdkRGBA *out)
{
  double c = (1 - fabs (2 * l - 1)) * s;
  double hp = h / 60.0;
  double x = c * (1 - fabs (fmod (hp, 2) - 1));
  double m = l - c / 2;
  double r = 0, g = 0, b = 0;

  if (hp < 1) { r = c; g = x; }
  else if (hp < 2) { r = x; g = c; }
  else if (hp < 3) { g = c; b = x; }
  else if (hp < 4) { g = x; b = c; }
  else if (hp < 5) { r = x; b = c; }
  else { r = c; b = x; }
  out->red = r + m;
  out->green = g + m;
  out->blue = b + m;
  out->alpha = 1;
}

static GskRenderNode *
make_hatch (const KymoTimelineTheme *theme)
{
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, HATCH_SIZE, HATCH_SIZE);
  GskRenderNode *node = gsk_cairo_node_new (&bounds);
  cairo_t *cr = gsk_cairo_node_get_draw_context (node);

  cairo_set_source_rgba (cr, theme->dark ? 1 : 0, theme->dark ? 1 : 0, theme->dark ? 1 : 0, 0.35);
  cairo_set_line_width (cr, 1);
  cairo_move_to (cr, 0, HATCH_SIZE);
  cairo_line_to (cr, HATCH_SIZE, 0);
  cairo_stroke (cr);
  cairo_destroy (cr);
  return node;
}

void
kymo_timeline_renderer_set_theme (KymoTimelineRenderer    *self,
                                  const KymoTimelineTheme *theme)
{
  self->theme = *theme;
  /* Pastel in light mode, deep in dark mode: both carry the label colour. */
  for (guint i = 0; i < N_HUES; i++)
    {
      double hue = i * 360.0 / N_HUES;
      if (theme->dark)
        {
          hsl_to_rgba (hue, 0.42, 0.36, &self->hues[i]);
          hsl_to_rgba (hue, 0.70, 0.70, &self->lines[i]);
        }
      else
        {
          hsl_to_rgba (hue, 0.62, 0.78, &self->hues[i]);
          hsl_to_rgba (hue, 0.70, 0.38, &self->lines[i]);
        }
    }
  gdk_rgba_parse (&self->label_colour, theme->dark ? "#f2f2f2" : "#1c1c1c");
  g_clear_pointer (&self->hatch, gsk_render_node_unref);
  self->hatch = make_hatch (theme);
  kymo_timeline_heat_init (&self->heat, theme->dark);
  kymo_timeline_cpu_init (&self->cpu, theme->dark, &theme->foreground, &theme->accent);
  g_hash_table_remove_all (self->labels);
}

const KymoTimelineTheme *
kymo_timeline_renderer_get_theme (KymoTimelineRenderer *self)
{
  return &self->theme;
}

KymoTimelineRenderer *
kymo_timeline_renderer_new (KymoTrace    *trace,
                            PangoContext *context,
                            const char   *font_family)
{
  KymoTimelineRenderer *self = g_new0 (KymoTimelineRenderer, 1);
  g_autoptr(PangoFontDescription) font = pango_font_description_new ();
  KymoTimelineTheme theme;
  int height;

  self->trace = g_object_ref (trace);
  self->heat_on = kymo_timeline_heat_applies (trace);
  if (self->heat_on)
    self->sched = kymo_timeline_sched_new (trace);
  self->context = g_object_ref (context);
  self->layout = pango_layout_new (context);
  pango_font_description_set_family (font, font_family ? font_family : "Sans");
  pango_font_description_set_size (font, 8 * PANGO_SCALE);
  pango_layout_set_font_description (self->layout, font);
  pango_layout_set_text (self->layout, "Ag", -1);
  pango_layout_get_pixel_size (self->layout, NULL, &height);
  self->text_height = height;

  self->labels = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) gsk_render_node_unref);
  self->counters = kymo_timeline_counters_new ();
  self->annotation_spans = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  kymo_timeline_theme_init_default (&theme, FALSE);
  kymo_timeline_renderer_set_theme (self, &theme);
  return self;
}

void
kymo_timeline_renderer_free (KymoTimelineRenderer *self)
{
  g_clear_pointer (&self->hatch, gsk_render_node_unref);
  g_clear_pointer (&self->labels, g_hash_table_unref);
  g_clear_pointer (&self->counters, kymo_timeline_counters_free);
  g_clear_pointer (&self->annotation_spans, g_hash_table_unref);
  g_clear_object (&self->layout);
  g_clear_object (&self->context);
  g_clear_object (&self->trace);
  g_free (self->name_hues);
  g_free (self->label_widths);
  g_free (self->flow_order);
  g_clear_pointer (&self->sched, kymo_timeline_sched_free);
  g_clear_pointer (&self->lanes, kymo_dial9_lanes_unref);
  kymo_timeline_wakes_set (&self->wakes, NULL, 0);
  g_free (self);
}

void
kymo_timeline_renderer_set_lanes (KymoTimelineRenderer *self,
                                  KymoDial9Lanes       *lanes)
{
  g_return_if_fail (self != NULL);

  if (lanes == self->lanes)
    return;
  g_clear_pointer (&self->lanes, kymo_dial9_lanes_unref);
  if (lanes != NULL)
    self->lanes = kymo_dial9_lanes_ref (lanes);
}

void
kymo_timeline_renderer_set_wake_marks (KymoTimelineRenderer *self,
                                       const KymoWakeMark   *marks,
                                       gsize                 n_marks)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (marks != NULL || n_marks == 0);

  kymo_timeline_wakes_set (&self->wakes, marks, n_marks);
}

const KymoTimelineStats *
kymo_timeline_renderer_get_stats (KymoTimelineRenderer *self)
{
  return &self->stats;
}

/* Names may be interned after the renderer was made (never after seal, but
 * cheap to allow). */
static void
ensure_names (KymoTimelineRenderer *self)
{
  guint n = kymo_trace_get_n_names (self->trace);

  if (n <= self->n_names)
    return;
  self->name_hues = g_renew (guint16, self->name_hues, n);
  self->label_widths = g_renew (gint16, self->label_widths, n);
  for (guint i = self->n_names; i < n; i++)
    {
      self->name_hues[i] = NO_HUE;
      self->label_widths[i] = -1;
    }
  self->n_names = n;
}

static guint
hue_for_string (const char *text)
{
  /* djb2 (g_str_hash) is stable across runs and machines; mix it so that
   * names differing in the last letter land far apart. */
  guint hash = g_str_hash (text);

  hash ^= hash >> 13;
  hash *= 0x5bd1e995;
  hash ^= hash >> 15;
  return hash % N_HUES;
}

static const GdkRGBA *
name_colour (KymoTimelineRenderer *self,
             guint32               name)
{
  if (name >= self->n_names)
    return &self->hues[0];
  if (self->name_hues[name] == NO_HUE)
    self->name_hues[name] = hue_for_string (kymo_trace_get_name (self->trace, name));
  return &self->hues[self->name_hues[name]];
}

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

static void
append_text (Frame         *f,
             const char    *text,
             float          x,
             float          y,
             const GdkRGBA *colour)
{
  pango_layout_set_text (f->self->layout, text, -1);
  gtk_snapshot_save (f->snapshot);
  gtk_snapshot_translate (f->snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (f->snapshot, f->self->layout, colour);
  gtk_snapshot_restore (f->snapshot);
}

static int
text_width (KymoTimelineRenderer *self,
            const char           *text)
{
  int width;

  pango_layout_set_text (self->layout, text, -1);
  pango_layout_get_pixel_size (self->layout, &width, NULL);
  return width;
}

/* Span labels repeat: render each name once to a node and move it around. */
static void
append_name_label (Frame   *f,
                   guint32  name,
                   float    x,
                   float    y)
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

void
_kymo_timeline_append_outline (GtkSnapshot           *snapshot,
                               const graphene_rect_t *rect,
                               float                  width,
                               const GdkRGBA         *colour)
{
  GskRoundedRect outline;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colours[4] = { *colour, *colour, *colour, *colour };

  gsk_rounded_rect_init_from_rect (&outline, rect, 0);
  gtk_snapshot_append_border (snapshot, &outline, widths, colours);
}

char *
kymo_timeline_format_duration (KymoTime duration)
{
  double v = (double) ABS (duration);
  const char *sign = duration < 0 ? "−" : "";

  if (v < 1e3)
    return g_strdup_printf ("%s%" G_GINT64_FORMAT " ns", sign, (gint64) v);
  if (v < 1e6)
    return g_strdup_printf ("%s%.4g µs", sign, v / 1e3);
  if (v < 1e9)
    return g_strdup_printf ("%s%.4g ms", sign, v / 1e6);
  if (v < 60e9)
    return g_strdup_printf ("%s%.4g s", sign, v / 1e9);
  if (v < 3600e9)
    return g_strdup_printf ("%s%d min %04.1f s", sign, (int) (v / 60e9), fmod (v / 1e9, 60));
  return g_strdup_printf ("%s%d h %02d min %02d s", sign, (int) (v / 3600e9),
                          (int) fmod (v / 60e9, 60), (int) fmod (v / 1e9, 60));
}

/* ------------------------------------------------------------ highlight */

/* A folded "N spans" box: the spans of the lane starting under it, as
 * indexes into the lane, for the highlight to test in O(log n). */
static gsize lower_bound_span (const KymoSpan *spans, gsize n, KymoTime ts);

static void
highlight_run_box (Frame                 *f,
                   const graphene_rect_t *box)
{
  KymoTime a, b;

  if (f->hl.set == NULL)
    return;
  a = f->t0 + (KymoTime) floor (box->origin.x / f->px_per_ns);
  b = f->t0 + (KymoTime) ceil ((box->origin.x + box->size.width) / f->px_per_ns);
  _kymo_timeline_highlight_run (&f->hl, f->snapshot, &f->self->theme, box,
                                lower_bound_span (f->hl.lane, f->hl.lane_n, a),
                                lower_bound_span (f->hl.lane, f->hl.lane_n, b + 1));
}

static void
highlight_instants (Frame     *f,
                    KymoTrack *track,
                    float      y,
                    float      h)
{
  if (f->hl.set != NULL)
    _kymo_timeline_highlight_instants (&f->hl, f->snapshot, &f->self->theme, track, f->t0, f->t1,
                                       f->px_per_ns, &GRAPHENE_RECT_INIT (0, y, f->viewport->width, h));
}

/* ---------------------------------------------------------------- spans */

static void
draw_span_box (Frame          *f,
               const KymoSpan *span,
               double          x0,
               double          x1,
               float           y)
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
                                                      : name_colour (self, name), &box);
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
draw_merged_run (Frame          *f,
                 const KymoSpan *sample,
                 double          x0,
                 double          x1,
                 guint64         count,
                 float           y)
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
  colour = f->heat_lane ? *kymo_timeline_heat_colour (&self->heat, sample) : *name_colour (self, kymo_span_name (sample));
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
      tw = text_width (self, buf);
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
lower_bound_span (const KymoSpan *spans,
                  gsize           n,
                  KymoTime        ts)
{
  gsize lo = 0, hi = n;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (spans[mid].start < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

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
  Frame          *f;
  const KymoSpan *spans;
  float           y;
  /* the column being gathered */
  double          column;
  KymoTime        column_start;  /* the first start in the column */
  KymoTime        column_end;
  gsize           best;
  KymoTime        best_len;
  KymoTime        reach;
  guint64         count;
  /* the "N spans" run being gathered */
  double          covered;
  double          run_x0;
  double          run_x1;
  guint64         run_count;
  const KymoSpan *run_sample;
  KymoTime        run_longest;
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

static void
draw_depth (Frame     *f,
            KymoTrack *track,
            guint      depth,
            float      y)
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

  lo = lower_bound_span (spans, n, f->t0);
  hi = lower_bound_span (spans, n, f->t1);
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

/* ---------------------------------------------------------------- instants */

static void
draw_instant_marker (Frame   *f,
                     guint32  name_flags,
                     double   x,
                     float    y,
                     float    h)
{
  KymoTimelineRenderer *self = f->self;
  guint32 name = name_flags & KYMO_NAME_MAX;
  const GdkRGBA *colour = ((name_flags >> 24) & KYMO_EVENT_WARNING) ? &self->theme.warning : &self->theme.dim;

  gtk_snapshot_append_color (f->snapshot, colour, &GRAPHENE_RECT_INIT (floor (x), y, 1, h));
  gtk_snapshot_append_color (f->snapshot, name_colour (self, name),
                             &GRAPHENE_RECT_INIT (floor (x) - 2, y, 5, MIN (h, 5)));
}

/* At most one marker per pixel column, found by binary search when the
 * window holds more instants than columns. */
static void
draw_instants (Frame     *f,
               KymoTrack *track,
               float      y,
               float      h)
{
  const KymoInstant *instants;
  gsize n, lo, hi;
  double last_x = -G_MAXDOUBLE;

  instants = kymo_track_get_instants (track, &n);
  if (n == 0)
    return;
  lo = kymo_track_lower_bound_instant (track, f->t0);
  hi = kymo_track_lower_bound_instant (track, f->t1 + 1);
  if (hi - lo <= f->n_columns)
    {
      for (gsize i = lo; i < hi; i++)
        {
          double x = time_to_x (f, instants[i].ts);
          if (floor (x) == last_x)
            continue;
          last_x = floor (x);
          draw_instant_marker (f, instants[i].name_flags, x, y, h);
        }
      return;
    }
  for (guint c = 0; c < f->n_columns; c++)
    {
      KymoTime col_start = x_to_time (f, c);
      gsize i = kymo_track_lower_bound_instant (track, MAX (col_start, f->t0));
      if (i < n && time_to_x (f, instants[i].ts) < c + 1)
        draw_instant_marker (f, instants[i].name_flags, time_to_x (f, instants[i].ts), y, h);
    }
}

/* ---------------------------------------------------------------- counters */

static void
draw_counter (Frame                 *f,
              KymoTrack             *track,
              const KymoTimelineRow *row,
              float                  y)
{
  KymoTimelineRenderer *self = f->self;

  kymo_timeline_counters_draw (self->counters, f->snapshot, track,
                               &self->lines[hue_for_string (kymo_track_get_name (track))],
                               f->t0, f->t1, f->px_per_ns, f->viewport->width,
                               &GRAPHENE_RECT_INIT (0, y, f->viewport->width, row->height),
                               y + KYMO_TIMELINE_ROW_PAD + 2, row->height - 2 * KYMO_TIMELINE_ROW_PAD - 4);
}

/* ---------------------------------------------------------------- annotations */

static KymoTime
annotation_max_len (KymoTimelineRenderer *self,
                    KymoTrack            *track)
{
  guint id = kymo_track_get_id (track);
  KymoTime *cached = g_hash_table_lookup (self->annotation_spans, GUINT_TO_POINTER (id));

  if (cached == NULL)
    {
      const KymoAnnotation *annotations;
      gsize n;

      cached = g_new0 (KymoTime, 1);
      annotations = kymo_track_get_annotations (track, &n);
      for (gsize i = 0; i < n; i++)
        *cached = MAX (*cached, annotations[i].end - annotations[i].start);
      g_hash_table_insert (self->annotation_spans, GUINT_TO_POINTER (id), cached);
    }
  return *cached;
}

static void
draw_annotations (Frame                 *f,
                  KymoTrack             *track,
                  const KymoTimelineRow *row,
                  float                  y)
{
  KymoTimelineRenderer *self = f->self;
  const KymoAnnotation *annotations;
  gsize n, lo, hi;
  double last_x = -G_MAXDOUBLE, text_end = -G_MAXDOUBLE;
  float top = y + KYMO_TIMELINE_ROW_PAD, h = row->height - 2 * KYMO_TIMELINE_ROW_PAD;
  KymoTime max_len;

  annotations = kymo_track_get_annotations (track, &n);
  if (n == 0)
    return;
  max_len = annotation_max_len (self, track);
  lo = kymo_track_lower_bound_annotation (track, f->t0 - MIN (max_len, f->t0 - G_MININT64 / 2));
  hi = kymo_track_lower_bound_annotation (track, f->t1 + 1);

  for (gsize i = lo; i < hi; i++)
    {
      const KymoAnnotation *a = &annotations[i];
      double x0 = time_to_x (f, a->start), x1 = time_to_x (f, a->end);
      const char *text = a->text && *a->text ? a->text : kymo_trace_get_name (self->trace, a->name);
      GdkRGBA colour = *name_colour (self, a->name);

      if (x1 < 0)
        continue;
      /* Past the pixel budget, skip what lands on the column just drawn. */
      if (hi - lo > f->n_columns && floor (x0) == last_x && x1 - x0 < 1)
        continue;
      last_x = floor (x0);

      if (x1 - x0 >= 1)
        {
          double cx0 = MAX (x0, -1), cx1 = MIN (x1, f->viewport->width + 1);
          colour.alpha = 0.45f;
          gtk_snapshot_append_color (f->snapshot, &colour, &GRAPHENE_RECT_INIT (cx0, top, cx1 - cx0, h));
          gtk_snapshot_append_color (f->snapshot, &self->theme.dim, &GRAPHENE_RECT_INIT (floor (x0), top, 1, h));
          if (cx1 - cx0 > 20 && MAX (cx0, 0) + 3 > text_end)
            {
              gtk_snapshot_push_clip (f->snapshot, &GRAPHENE_RECT_INIT (cx0, top, cx1 - cx0, h));
              append_text (f, text, MAX (cx0, 0) + 3, top + (h - self->text_height) / 2, &self->theme.foreground);
              gtk_snapshot_pop (f->snapshot);
              text_end = MIN (cx1, MAX (cx0, 0) + 3 + text_width (self, text));
            }
        }
      else
        {
          /* A label gets the room up to the next point, like a log line in
           * a terminal: dense log tracks stay readable instead of turning
           * into overprinted text on a solid band of ticks. */
          double next_x = i + 1 < hi ? time_to_x (f, annotations[i + 1].start) : G_MAXDOUBLE;
          double room = MIN (next_x, f->viewport->width + 1.0) - (x0 + 9) - 4;

          gtk_snapshot_append_color (f->snapshot, &self->theme.dim,
                                     &GRAPHENE_RECT_INIT (floor (x0), top, 1, h));
          gtk_snapshot_append_color (f->snapshot, &colour, &GRAPHENE_RECT_INIT (floor (x0) + 1, top, 6, 6));
          if (x0 + 3 > text_end && x0 < f->viewport->width && room >= 24)
            {
              double width = text_width (self, text);

              gtk_snapshot_push_clip (f->snapshot, &GRAPHENE_RECT_INIT (x0 + 9, top, room, h));
              append_text (f, text, x0 + 9, top + (h - self->text_height) / 2, &self->theme.foreground);
              gtk_snapshot_pop (f->snapshot);
              text_end = x0 + 9 + MIN (width, room) + 4;
            }
        }
    }
}

/* ---------------------------------------------------------------- flows */

static int
compare_flows (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const KymoFlow *flows = user_data;
  const KymoFlow *fa = &flows[*(const guint32 *) a], *fb = &flows[*(const guint32 *) b];
  KymoTime ta = MIN (fa->from_ts, fa->to_ts), tb = MIN (fb->from_ts, fb->to_ts);

  return ta < tb ? -1 : ta > tb;
}

static void
index_flows (KymoTimelineRenderer *self)
{
  const KymoFlow *flows;
  gsize n;

  if (self->flows_indexed)
    return;
  self->flows_indexed = TRUE;
  flows = kymo_trace_get_flows (self->trace, &n);
  self->n_flows = n;
  self->flow_order = g_new (guint32, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      self->flow_order[i] = i;
      self->flow_max_len = MAX (self->flow_max_len, ABS (flows[i].to_ts - flows[i].from_ts));
    }
  g_qsort_with_data (self->flow_order, n, sizeof (guint32), compare_flows, (gpointer) flows);
}

static gboolean
flow_point (Frame    *f,
            guint     track,
            KymoTime  ts,
            double   *x,
            double   *y)
{
  int r = kymo_timeline_layout_find_track (f->layout, track);
  const KymoTimelineRow *row;

  if (r < 0)
    return FALSE;
  row = kymo_timeline_layout_get_row (f->layout, r);
  *x = time_to_x (f, ts);
  /* The top edge of the outermost spans, so arrows do not cross labels. */
  *y = f->top + row->y - f->viewport->scroll_y + row->lanes_y + 1;
  return TRUE;
}

static void
draw_flows (Frame *f)
{
  KymoTimelineRenderer *self = f->self;
  const KymoFlow *flows;
  gsize n, lo = 0, hi;
  cairo_t *cr = NULL;
  guint32 visible[MAX_FLOWS];
  guint n_visible = 0;
  KymoTime from;

  index_flows (self);
  if (self->n_flows == 0)
    return;
  flows = kymo_trace_get_flows (self->trace, &n);
  from = f->t0 - self->flow_max_len;
  hi = self->n_flows;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      const KymoFlow *flow = &flows[self->flow_order[mid]];
      if (MIN (flow->from_ts, flow->to_ts) < from)
        lo = mid + 1;
      else
        hi = mid;
    }

  for (gsize i = lo; i < self->n_flows; i++)
    {
      const KymoFlow *flow = &flows[self->flow_order[i]];
      double x0, y0, x1, y1;

      if (MIN (flow->from_ts, flow->to_ts) > f->t1)
        break;
      if (MAX (flow->from_ts, flow->to_ts) < f->t0)
        continue;
      if (!flow_point (f, flow->from_track, flow->from_ts, &x0, &y0) ||
          !flow_point (f, flow->to_track, flow->to_ts, &x1, &y1))
        continue;
      if ((y0 < f->top && y1 < f->top) || (y0 > f->bottom && y1 > f->bottom))
        continue;
      if (n_visible == MAX_FLOWS)
        return;
      visible[n_visible++] = self->flow_order[i];
    }

  for (guint k = 0; k < n_visible; k++)
    {
      const KymoFlow *flow = &flows[visible[k]];
      double x0 = 0, y0 = 0, x1 = 0, y1 = 0, angle;
      GdkRGBA colour = self->theme.foreground;

      flow_point (f, flow->from_track, flow->from_ts, &x0, &y0);
      flow_point (f, flow->to_track, flow->to_ts, &x1, &y1);
      if (cr == NULL)
        {
          cr = gtk_snapshot_append_cairo (f->snapshot,
                                          &GRAPHENE_RECT_INIT (0, f->top, f->viewport->width, f->bottom - f->top));
          colour.alpha *= 0.7f;
          gdk_cairo_set_source_rgba (cr, &colour);
          cairo_set_line_width (cr, 1);
        }
      cairo_move_to (cr, x0, y0);
      if (fabs (y1 - y0) < 1)
        /* Within one track: arc over the row. */
        cairo_curve_to (cr, x0 + 10, y0 - 12, x1 - 10, y1 - 12, x1, y1);
      else
        cairo_curve_to (cr, x0 + 20, y0, x1 - 20, y1, x1, y1);
      cairo_stroke (cr);
      angle = atan2 (y1 - y0, x1 - x0 + 1e-9);
      angle = fabs (y1 - y0) < 1 ? G_PI / 2 - (x1 >= x0 ? 0.5 : -0.5) : (x1 >= x0 ? 0 : angle);
      cairo_move_to (cr, x1, y1);
      cairo_line_to (cr, x1 - 6 * cos (angle - 0.4), y1 - 6 * sin (angle - 0.4));
      cairo_line_to (cr, x1 - 6 * cos (angle + 0.4), y1 - 6 * sin (angle + 0.4));
      cairo_close_path (cr);
      cairo_fill (cr);
    }
  if (cr)
    cairo_destroy (cr);
}

/* ---------------------------------------------------------------- rows */

/* "Process 31337" of kind "process" needs no suffix; "main" of kind
 * "process" does. */
static gboolean
name_mentions_kind (const char *name,
                    const char *kind)
{
  g_autofree char *name_folded = g_utf8_casefold (name, -1);
  g_autofree char *kind_folded = g_utf8_casefold (kind, -1);

  return strstr (name_folded, kind_folded) != NULL;
}

const char *
kymo_timeline_kind_label (const char *kind)
{
  static const struct { const char *kind; const char *label; } labels[] = {
    /* Group kinds */
    { "process", N_("process") },
    { "zone", N_("zone") },
    { "core", N_("core") },
    { "runtime", N_("runtime") },
    /* Track kinds */
    { "group", N_("group") },
    { "thread", N_("thread") },
    { "counter", N_("counter") },
    { "instant", N_("instant") },
    { "marker", N_("marker") },
    { "annotation", N_("annotation") },
    { "log", N_("log") },
  };

  g_return_val_if_fail (kind != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (kind, labels[i].kind))
      return _(labels[i].label);
  return kind;
}

static void
draw_group_header (Frame                 *f,
                   const KymoTimelineRow *row,
                   KymoTrack             *track,
                   float                  y)
{
  KymoTimelineRenderer *self = f->self;
  const char *name = kymo_track_get_name (track);
  const char *kind = kymo_track_get_group_kind (track);
  g_autofree char *text = NULL;
  float x = 4 + row->indent * 12;
  float ty = y + (row->height - self->text_height) / 2.0f;

  gtk_snapshot_append_color (f->snapshot, &self->theme.header,
                             &GRAPHENE_RECT_INIT (0, y, f->viewport->width, row->height));
  if (kind != NULL && *kind == '\0')
    kind = NULL;
  if (*name == '\0' && kind != NULL)
    {
      name = kymo_timeline_kind_label (kind);
      kind = NULL;
    }
  text = g_strdup_printf ("%s %s%s", row->collapsed ? "▸" : "▾", row->pinned ? "• " : "", name);
  append_text (f, text, x, ty, &self->theme.foreground);
  if (kind != NULL && !name_mentions_kind (name, kind))
    append_text (f, kymo_timeline_kind_label (kind), x + text_width (self, text) + 8, ty, &self->theme.dim);
}

/* The strip at the top of a track: its name, where no event is drawn. */
static void
draw_track_title (Frame                 *f,
                  const KymoTimelineRow *row,
                  KymoTrack             *track,
                  float                  y)
{
  KymoTimelineRenderer *self = f->self;
  const char *name = kymo_track_get_name (track);
  g_autofree char *pinned_name = NULL;
  GdkRGBA strip = self->theme.grid;
  float x = 6 + row->indent * 12;

  if (y + row->title_height < f->top || y > f->bottom)
    return;
  strip.alpha *= 0.5f;
  gtk_snapshot_append_color (f->snapshot, &strip,
                             &GRAPHENE_RECT_INIT (0, y, f->viewport->width, row->title_height));
  if (*name == '\0')
    return;
  if (row->pinned)
    name = pinned_name = g_strdup_printf ("• %s", name);
  gtk_snapshot_push_clip (f->snapshot, &GRAPHENE_RECT_INIT (0, y, f->viewport->width, row->title_height));
  append_text (f, name, x, y + (row->title_height - self->text_height) / 2.0f, &self->theme.foreground);
  gtk_snapshot_pop (f->snapshot);
}

/* A track's row without its title strip: where its events go. */
static void
content_row (const KymoTimelineRow *row,
             float                  y,
             KymoTimelineRow       *content,
             float                 *content_y)
{
  *content = *row;
  content->height = row->height - row->title_height;
  content->lanes_y = row->lanes_y - row->title_height;
  content->y = row->y + row->title_height;
  content->title_height = 0;
  *content_y = y + row->title_height;
}

/* Over a worker's polls: kernel scheduling delays, CPU samples, the
 * selected task's wakes, and above them the on-CPU band. */
static void
draw_worker_extras (Frame *f,
                    guint  track,
                    float  lane_y)
{
  KymoTimelineRenderer *self = f->self;

  kymo_timeline_sched_draw (self->sched, f->snapshot, track, f->t0, f->t1, f->px_per_ns, lane_y,
                            KYMO_TIMELINE_LANE_HEIGHT);
  kymo_timeline_cpu_draw_band (&self->cpu, self->lanes, f->snapshot, track, f->t0, f->t1, f->px_per_ns,
                               lane_y - KYMO_TIMELINE_CPU_BAND, KYMO_TIMELINE_CPU_BAND - 1);
  kymo_timeline_cpu_draw_ticks (&self->cpu, self->lanes, f->snapshot, track, f->t0, f->t1, f->px_per_ns, lane_y);
  kymo_timeline_cpu_draw_wakes (&self->cpu, &self->wakes, f->snapshot, track, f->t0, f->t1, f->px_per_ns,
                                f->viewport->width, lane_y, KYMO_TIMELINE_LANE_HEIGHT);
}

static void
draw_row (Frame                 *f,
          const KymoTimelineRow *row,
          float                  y)
{
  KymoTrack *track = kymo_trace_get_track (f->self->trace, row->track);
  gsize n_instants, n_annotations;
  KymoTimelineRow content;
  float cy;

  f->self->stats.rows_drawn++;
  if (row->kind == KYMO_TRACK_GROUP)
    {
      draw_group_header (f, row, track, y);
      return;
    }

  draw_track_title (f, row, track, y);
  content_row (row, y, &content, &cy);
  kymo_track_get_instants (track, &n_instants);
  kymo_track_get_annotations (track, &n_annotations);

  if (content.kind == KYMO_TRACK_COUNTER)
    draw_counter (f, track, &content, cy);

  if (kymo_track_get_n_depths (track) > 0)
    {
      guint n_depths = kymo_track_get_n_depths (track);
      for (guint d = 0; d < n_depths; d++)
        {
          float lane_y = cy + content.lanes_y + d * KYMO_TIMELINE_LANE_HEIGHT;
          if (lane_y + KYMO_TIMELINE_LANE_HEIGHT < f->top || lane_y > f->bottom)
            continue;
          f->heat_lane = f->self->heat_on && d == 0 && content.kind == KYMO_TRACK_THREAD;
          draw_depth (f, track, d, lane_y);
          if (f->heat_lane)
            draw_worker_extras (f, row->track, lane_y);
          f->heat_lane = FALSE;
        }
    }
  if (n_annotations > 0)
    draw_annotations (f, track, &content, cy);
  if (n_instants > 0)
    {
      if (content.kind == KYMO_TRACK_THREAD)
        {
          draw_instants (f, track, cy + 1, KYMO_TIMELINE_INSTANT_STRIP);
          highlight_instants (f, track, cy + 1, KYMO_TIMELINE_INSTANT_STRIP);
        }
      else
        {
          draw_instants (f, track, cy + KYMO_TIMELINE_ROW_PAD, content.height - 2 * KYMO_TIMELINE_ROW_PAD);
          highlight_instants (f, track, cy + KYMO_TIMELINE_ROW_PAD, content.height - 2 * KYMO_TIMELINE_ROW_PAD);
        }
    }
  gtk_snapshot_append_color (f->snapshot, &f->self->theme.grid,
                             &GRAPHENE_RECT_INIT (0, y + row->height - 1, f->viewport->width, 1));
}

static void
frame_init (Frame                      *f,
            KymoTimelineRenderer       *self,
            GtkSnapshot                *snapshot,
            KymoSession                *session,
            const KymoTimelineLayout   *layout,
            const KymoTimelineViewport *viewport)
{
  f->self = self;
  f->snapshot = snapshot;
  f->session = session;
  f->layout = layout;
  f->viewport = viewport;
  kymo_session_get_visible_range (session, &f->t0, &f->t1);
  f->px_per_ns = viewport->width / (double) MAX (f->t1 - f->t0, 1);
  f->n_columns = MAX (viewport->width, 1);
  f->highlighted = kymo_session_get_highlighted_name (session);
  f->hl.set = kymo_session_get_highlight (session);
  f->top = KYMO_TIMELINE_RULER_HEIGHT;
  f->bottom = viewport->height;
}

void
kymo_timeline_renderer_snapshot_base (KymoTimelineRenderer       *self,
                                      GtkSnapshot                *snapshot,
                                      KymoSession                *session,
                                      const KymoTimelineLayout   *layout,
                                      const KymoTimelineViewport *viewport)
{
  Frame f;
  guint first, n_rows;

  g_return_if_fail (self != NULL);
  g_return_if_fail (KYMO_IS_SESSION (session));

  memset (&self->stats, 0, sizeof self->stats);
  if (viewport->width <= 0 || viewport->height <= 0)
    return;
  ensure_names (self);
  frame_init (&f, self, snapshot, session, layout, viewport);

  gtk_snapshot_append_color (snapshot, &self->theme.background,
                             &GRAPHENE_RECT_INIT (0, 0, viewport->width, viewport->height));

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, f.top, viewport->width, f.bottom - f.top));
  kymo_timeline_ruler_draw_grid (snapshot, &self->theme, session, f.t0, f.t1, f.px_per_ns, f.top, f.bottom);
  /* Only the rows on screen are built. */
  n_rows = kymo_timeline_layout_get_n_rows (layout);
  first = kymo_timeline_layout_find_row (layout, (int) floor (viewport->scroll_y));
  for (guint i = first; i < n_rows; i++)
    {
      const KymoTimelineRow *row = kymo_timeline_layout_get_row (layout, i);
      float y = f.top + row->y - viewport->scroll_y;

      if (y >= f.bottom)
        break;
      draw_row (&f, row, y);
    }
  draw_flows (&f);
  if (self->heat_on)
    {
      float top = kymo_timeline_heat_append_legend (&self->heat, snapshot, self->layout, &self->theme.foreground,
                                                    viewport->width, f.bottom);

      if (self->lanes != NULL && kymo_dial9_lanes_has_cpu (self->lanes))
        kymo_timeline_cpu_append_legend (&self->cpu, snapshot, self->layout, &self->theme.foreground,
                                         &self->heat.legend_bg, viewport->width, top - 4);
    }
  gtk_snapshot_pop (snapshot);

  kymo_timeline_ruler_draw (snapshot, self->layout, &self->theme, session, f.t0, f.t1, f.px_per_ns,
                            viewport->width);
}

gboolean
kymo_timeline_renderer_get_event_rect (KymoTimelineRenderer       *self,
                                       KymoSession                *session,
                                       const KymoTimelineLayout   *layout,
                                       const KymoTimelineViewport *viewport,
                                       const KymoEventRef         *ref,
                                       graphene_rect_t            *rect)
{
  const KymoTimelineRow *row;
  KymoTimelineRow content;
  KymoTime start, end;
  double x0, x1;
  float y;
  int r;
  Frame f;

  if (ref == NULL || !kymo_session_get_event_extent (session, ref, &start, &end))
    return FALSE;
  r = kymo_timeline_layout_find_track (layout, ref->track);
  if (r < 0)
    return FALSE;
  frame_init (&f, self, NULL, session, layout, viewport);
  row = kymo_timeline_layout_get_row (layout, r);
  y = f.top + row->y - viewport->scroll_y;
  if (row->kind != KYMO_TRACK_GROUP)
    {
      content_row (row, y, &content, &y);
      row = &content;
    }
  x0 = time_to_x (&f, start);
  x1 = time_to_x (&f, end);
  if (ref->kind == KYMO_EVENT_KIND_SPAN)
    {
      guint depth = kymo_track_get_span_depth (kymo_trace_get_track (self->trace, ref->track), ref->index);
      *rect = GRAPHENE_RECT_INIT (x0, y + row->lanes_y + depth * KYMO_TIMELINE_LANE_HEIGHT + 1,
                                  MAX (x1 - x0, 1), KYMO_TIMELINE_LANE_HEIGHT - 2);
    }
  else if (x1 - x0 >= 1)
    *rect = GRAPHENE_RECT_INIT (x0, y + KYMO_TIMELINE_ROW_PAD, x1 - x0, row->height - 2 * KYMO_TIMELINE_ROW_PAD);
  else if (ref->kind == KYMO_EVENT_KIND_INSTANT && row->kind == KYMO_TRACK_THREAD)
    *rect = GRAPHENE_RECT_INIT (x0 - 3, y + 1, 7, KYMO_TIMELINE_INSTANT_STRIP);
  else
    *rect = GRAPHENE_RECT_INIT (x0 - 3, y + KYMO_TIMELINE_ROW_PAD, 7, row->height - 2 * KYMO_TIMELINE_ROW_PAD);
  return TRUE;
}

void
kymo_timeline_renderer_snapshot_overlay (KymoTimelineRenderer       *self,
                                         GtkSnapshot                *snapshot,
                                         KymoSession                *session,
                                         const KymoTimelineLayout   *layout,
                                         const KymoTimelineViewport *viewport)
{
  KymoTime r0, r1;
  graphene_rect_t rect;
  Frame f;

  if (viewport->width <= 0 || viewport->height <= 0)
    return;
  frame_init (&f, self, snapshot, session, layout, viewport);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, f.top, viewport->width, f.bottom - f.top));
  if (kymo_timeline_renderer_get_event_rect (self, session, layout, viewport,
                                             kymo_session_get_hovered_event (session), &rect))
    _kymo_timeline_append_outline (snapshot, &rect, 1, &self->theme.foreground);
  if (kymo_timeline_renderer_get_event_rect (self, session, layout, viewport,
                                             kymo_session_get_selected_event (session), &rect))
    {
      graphene_rect_t outer;
      graphene_rect_inset_r (&rect, -1, -1, &outer);
      _kymo_timeline_append_outline (snapshot, &outer, 2, &self->theme.accent);
    }
  gtk_snapshot_pop (snapshot);

  kymo_session_get_selected_range (session, &r0, &r1);
  if (r0 != KYMO_TIME_NONE && r1 >= r0)
    {
      double x0 = MAX (time_to_x (&f, r0), -1), x1 = MIN (time_to_x (&f, r1), viewport->width + 1);
      if (x1 >= 0 && x0 <= viewport->width)
        {
          g_autofree char *length = kymo_timeline_format_duration (r1 - r0);
          int tw = text_width (self, length);
          double lx;

          gtk_snapshot_append_color (snapshot, &self->theme.selection,
                                     &GRAPHENE_RECT_INIT (x0, 0, MAX (x1 - x0, 1), viewport->height));
          gtk_snapshot_append_color (snapshot, &self->theme.accent, &GRAPHENE_RECT_INIT (floor (x0), 0, 1, viewport->height));
          gtk_snapshot_append_color (snapshot, &self->theme.accent, &GRAPHENE_RECT_INIT (floor (x1), 0, 1, viewport->height));
          /* The length sits in the ruler, centred on the range and kept on screen. */
          lx = CLAMP ((x0 + x1 - tw) / 2, 2, viewport->width - tw - 8);
          gtk_snapshot_append_color (snapshot, &self->theme.accent,
                                     &GRAPHENE_RECT_INIT (lx - 4, 8, tw + 8, self->text_height + 2));
          append_text (&f, length, lx, 9, &self->theme.background);
        }
    }
}

void
kymo_timeline_renderer_snapshot (KymoTimelineRenderer       *self,
                                 GtkSnapshot                *snapshot,
                                 KymoSession                *session,
                                 const KymoTimelineLayout   *layout,
                                 const KymoTimelineViewport *viewport)
{
  kymo_timeline_renderer_snapshot_base (self, snapshot, session, layout, viewport);
  kymo_timeline_renderer_snapshot_overlay (self, snapshot, session, layout, viewport);
}

/* ---------------------------------------------------------------- picking */

static gboolean
pick_nearest_time (gsize     lo,
                   gsize     n,
                   KymoTime  ts,
                   KymoTime  tolerance,
                   KymoTime (*time_of) (gconstpointer, gsize),
                   gconstpointer data,
                   guint    *index)
{
  KymoTime best = G_MAXINT64;
  gboolean found = FALSE;

  for (gsize i = lo > 0 ? lo - 1 : 0; i < MIN (n, lo + 1); i++)
    {
      KymoTime d = ABS (time_of (data, i) - ts);
      if (d <= tolerance && d < best)
        {
          best = d;
          *index = i;
          found = TRUE;
        }
    }
  return found;
}

static KymoTime
instant_time (gconstpointer data,
              gsize         i)
{
  return ((const KymoInstant *) data)[i].ts;
}

static KymoTime
annotation_time (gconstpointer data,
                 gsize         i)
{
  return ((const KymoAnnotation *) data)[i].start;
}

gboolean
kymo_timeline_renderer_pick (KymoTimelineRenderer       *self,
                             KymoSession                *session,
                             const KymoTimelineLayout   *layout,
                             const KymoTimelineViewport *viewport,
                             double                      x,
                             double                      y,
                             KymoEventRef               *ref)
{
  const KymoTimelineRow *row;
  KymoTrack *track;
  KymoTime ts, tolerance;
  double ry;
  guint r;
  Frame f;
  gsize n;

  frame_init (&f, self, NULL, session, layout, viewport);
  if (y < f.top || x < 0 || x >= viewport->width)
    return FALSE;
  r = kymo_timeline_layout_find_row (layout, (int) floor (y - f.top + viewport->scroll_y));
  if (r >= kymo_timeline_layout_get_n_rows (layout))
    return FALSE;
  row = kymo_timeline_layout_get_row (layout, r);
  ry = y - f.top + viewport->scroll_y - row->y;
  /* The title strip holds no events. */
  if (ry < row->title_height || row->kind == KYMO_TRACK_GROUP)
    return FALSE;
  track = kymo_trace_get_track (self->trace, row->track);
  ts = x_to_time (&f, x);
  tolerance = (KymoTime) ceil (3 / f.px_per_ns);
  ref->track = row->track;

  if (row->kind == KYMO_TRACK_COUNTER)
    {
      const KymoSample *samples = kymo_track_get_samples (track, &n);
      gsize i = kymo_track_lower_bound_sample (track, ts + 1);
      (void) samples;
      if (i == 0 || n == 0)
        return FALSE;
      ref->kind = KYMO_EVENT_KIND_SAMPLE;
      ref->index = i - 1;
      return TRUE;
    }

  if (row->kind == KYMO_TRACK_THREAD && ry >= row->lanes_y)
    {
      guint depth = (guint) ((ry - row->lanes_y) / KYMO_TIMELINE_LANE_HEIGHT);
      guint32 idx = kymo_track_find_span_at (track, depth, ts);

      if (idx == G_MAXUINT32)
        {
          /* Narrow spans: the longest one starting within a few pixels. */
          guint32 longest, count;
          kymo_track_query_lod (track, depth, ts - tolerance, ts + tolerance + 1, 1, &longest, &count);
          idx = longest;
        }
      if (idx == G_MAXUINT32)
        return FALSE;
      ref->kind = KYMO_EVENT_KIND_SPAN;
      ref->index = idx;
      return TRUE;
    }

  {
    const KymoInstant *instants = kymo_track_get_instants (track, &n);
    guint index;

    if (n > 0 && pick_nearest_time (kymo_track_lower_bound_instant (track, ts), n, ts, tolerance,
                                    instant_time, instants, &index))
      {
        ref->kind = KYMO_EVENT_KIND_INSTANT;
        ref->index = index;
        return TRUE;
      }
  }
  {
    const KymoAnnotation *annotations = kymo_track_get_annotations (track, &n);
    gsize i;
    guint index;

    if (n == 0)
      return FALSE;
    i = kymo_track_lower_bound_annotation (track, ts + 1);
    /* Inside a range, or near a point. */
    for (gsize k = i; k > 0 && k + 64 > i; k--)
      if (annotations[k - 1].start <= ts && annotations[k - 1].end >= ts && annotations[k - 1].end > annotations[k - 1].start)
        {
          ref->kind = KYMO_EVENT_KIND_ANNOTATION;
          ref->index = k - 1;
          return TRUE;
        }
    if (pick_nearest_time (kymo_track_lower_bound_annotation (track, ts), n, ts, tolerance,
                           annotation_time, annotations, &index))
      {
        ref->kind = KYMO_EVENT_KIND_ANNOTATION;
        ref->index = index;
        return TRUE;
      }
  }
  return FALSE;
}
