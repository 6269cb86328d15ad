/* kymo-timeline-renderer.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-renderer"

#include "config.h"

#include <math.h>
#include <string.h>

#include "kymo-timeline-renderer.h"
#include "kymo-timeline-renderer-private.h"

#define NO_HUE         G_MAXUINT16

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

guint
_kymo_timeline_hue_for_string (const char *text)
{
  /* djb2 (g_str_hash) is stable across runs and machines; mix it so that
   * names differing in the last letter land far apart. */
  guint hash = g_str_hash (text);

  hash ^= hash >> 13;
  hash *= 0x5bd1e995;
  hash ^= hash >> 15;
  return hash % N_HUES;
}

const GdkRGBA *
_kymo_timeline_renderer_name_colour (KymoTimelineRenderer *self,
                                     guint32               name)
{
  if (name >= self->n_names)
    return &self->hues[0];
  if (self->name_hues[name] == NO_HUE)
    self->name_hues[name] = _kymo_timeline_hue_for_string (kymo_trace_get_name (self->trace, name));
  return &self->hues[self->name_hues[name]];
}

void
_kymo_timeline_frame_append_text (KymoTimelineFrame *f,
                                  const char        *text,
                                  float              x,
                                  float              y,
                                  const GdkRGBA     *colour)
{
  pango_layout_set_text (f->self->layout, text, -1);
  gtk_snapshot_save (f->snapshot);
  gtk_snapshot_translate (f->snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (f->snapshot, f->self->layout, colour);
  gtk_snapshot_restore (f->snapshot);
}

int
_kymo_timeline_renderer_text_width (KymoTimelineRenderer *self,
                                    const char           *text)
{
  int width;

  pango_layout_set_text (self->layout, text, -1);
  pango_layout_get_pixel_size (self->layout, &width, NULL);
  return width;
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

void
_kymo_timeline_frame_init (KymoTimelineFrame          *f,
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
  KymoTimelineFrame f;
  guint first, n_rows;

  g_return_if_fail (self != NULL);
  g_return_if_fail (KYMO_IS_SESSION (session));

  memset (&self->stats, 0, sizeof self->stats);
  if (viewport->width <= 0 || viewport->height <= 0)
    return;
  ensure_names (self);
  _kymo_timeline_frame_init (&f, self, snapshot, session, layout, viewport);

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
      _kymo_timeline_frame_draw_row (&f, row, y);
    }
  _kymo_timeline_frame_draw_flows (&f);
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
  KymoTimelineFrame f;

  if (ref == NULL || !kymo_session_get_event_extent (session, ref, &start, &end))
    return FALSE;
  r = kymo_timeline_layout_find_track (layout, ref->track);
  if (r < 0)
    return FALSE;
  _kymo_timeline_frame_init (&f, self, NULL, session, layout, viewport);
  row = kymo_timeline_layout_get_row (layout, r);
  y = f.top + row->y - viewport->scroll_y;
  if (row->kind != KYMO_TRACK_GROUP)
    {
      _kymo_timeline_content_row (row, y, &content, &y);
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

/* The legends of a dial9 trace's lanes, in the bottom right corner. They
 * hide what is under them: while the pointer is over them they all but
 * fade (see kymo_timeline_renderer_set_legend_faded()), so they are part
 * of the overlay, drawn again with the hover. */
static void
append_legends (KymoTimelineRenderer *self,
                GtkSnapshot          *snapshot,
                float                 right,
                float                 bottom)
{
  float top;

  self->legend_rect = *graphene_rect_zero ();
  if (!self->heat_on)
    return;
  if (self->legend_faded)
    gtk_snapshot_push_opacity (snapshot, LEGEND_FADED_OPACITY);
  top = kymo_timeline_heat_append_legend (&self->heat, snapshot, self->layout, &self->theme.foreground, right,
                                          bottom);
  if (self->lanes != NULL && kymo_dial9_lanes_has_cpu (self->lanes))
    top = kymo_timeline_cpu_append_legend (&self->cpu, snapshot, self->layout, &self->theme.foreground,
                                           &self->heat.legend_bg, right, top - 4);
  if (self->legend_faded)
    gtk_snapshot_pop (snapshot);
  if (top < bottom)
    self->legend_rect = GRAPHENE_RECT_INIT (right - KYMO_TIMELINE_SCALE_WIDTH, top, KYMO_TIMELINE_SCALE_WIDTH,
                                            bottom - top);
}

gboolean
kymo_timeline_renderer_legend_contains (KymoTimelineRenderer *self,
                                        double                x,
                                        double                y)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return graphene_rect_contains_point (&self->legend_rect, &GRAPHENE_POINT_INIT (x, y));
}

gboolean
kymo_timeline_renderer_set_legend_faded (KymoTimelineRenderer *self,
                                         gboolean              faded)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (self->legend_faded == !!faded)
    return FALSE;
  self->legend_faded = !!faded;
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
  KymoTimelineFrame f;

  if (viewport->width <= 0 || viewport->height <= 0)
    return;
  _kymo_timeline_frame_init (&f, self, snapshot, session, layout, viewport);

  gtk_snapshot_push_clip (snapshot, &GRAPHENE_RECT_INIT (0, f.top, viewport->width, f.bottom - f.top));
  append_legends (self, snapshot, viewport->width, f.bottom);
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
          int tw = _kymo_timeline_renderer_text_width (self, length);
          double lx;

          gtk_snapshot_append_color (snapshot, &self->theme.selection,
                                     &GRAPHENE_RECT_INIT (x0, 0, MAX (x1 - x0, 1), viewport->height));
          gtk_snapshot_append_color (snapshot, &self->theme.accent, &GRAPHENE_RECT_INIT (floor (x0), 0, 1, viewport->height));
          gtk_snapshot_append_color (snapshot, &self->theme.accent, &GRAPHENE_RECT_INIT (floor (x1), 0, 1, viewport->height));
          /* The length sits in the ruler, centred on the range and kept on screen. */
          lx = CLAMP ((x0 + x1 - tw) / 2, 2, viewport->width - tw - 8);
          gtk_snapshot_append_color (snapshot, &self->theme.accent,
                                     &GRAPHENE_RECT_INIT (lx - 4, 8, tw + 8, self->text_height + 2));
          _kymo_timeline_frame_append_text (&f, length, lx, 9, &self->theme.background);
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
