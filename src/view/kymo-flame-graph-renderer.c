/* kymo-flame-graph-renderer.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-flame-graph"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <cairo-svg.h>
#include <pango/pangocairo.h>

#include "kymo-flame-graph-renderer.h"
#include "kymo-timeline-export.h"

#define MIN_FRAME_WIDTH 0.25
#define MIN_LABEL_WIDTH 28.0
#define LABEL_PAD       3.0

void
kymo_flame_render_theme_init_default (KymoFlameGraphTheme *theme,
                                     gboolean             dark)
{
  g_return_if_fail (theme != NULL);

  if (dark)
    {
      gdk_rgba_parse (&theme->background, "#242424");
      gdk_rgba_parse (&theme->foreground, "#ffffff");
    }
  else
    {
      gdk_rgba_parse (&theme->background, "#ffffff");
      gdk_rgba_parse (&theme->foreground, "#241f31");
    }
  /* Frames are light warm colours in either theme: dark text reads on all. */
  gdk_rgba_parse (&theme->frame_text, "#1e1e1e");
  gdk_rgba_parse (&theme->accent, "#3584e4");
  gdk_rgba_parse (&theme->match, "#c061cb");
  theme->dark = dark;
}

int
kymo_flame_render_natural_height (KymoCallTree *tree,
                                 guint32       focus)
{
  const KymoCallNode *nodes;
  guint n, max_depth = 0;

  g_return_val_if_fail (tree != NULL, 0);

  nodes = kymo_call_tree_get_nodes (tree, &n);
  if (focus >= n)
    focus = 0;
  for (guint32 i = focus; i <= focus + nodes[focus].n_descendants; i++)
    if (nodes[i].total > 0)
      max_depth = MAX (max_depth, nodes[i].depth);
  return (max_depth + 1) * KYMO_FLAME_GRAPH_ROW_HEIGHT;
}

char *
kymo_flame_render_module_of (const char *name)
{
  const char *p = name;
  const char *sep;

  g_return_val_if_fail (name != NULL, NULL);

  /* "<tokio::x as y>::poll" belongs to tokio; "&mut T" has no module. */
  while (*p == '<' || *p == '&' || *p == '*' || *p == ' ')
    p++;
  if (g_str_has_prefix (p, "mut "))
    p += 4;
  if (g_str_has_prefix (p, "dyn "))
    p += 4;
  sep = strstr (p, "::");
  if (sep == NULL || sep == p)
    return g_strdup (name);
  return g_strndup (p, sep - p);
}

/* FNV-1a: stable across runs and machines, unlike a seeded hash. */
static guint32
stable_hash (const char *s)
{
  guint32 h = 2166136261u;

  for (; *s; s++)
    h = (h ^ (guchar) *s) * 16777619u;
  return h;
}

void
kymo_flame_render_frame_color (const char *name,
                              gboolean    by_module,
                              GdkRGBA    *color)
{
  g_autofree char *module = NULL;
  guint32 h;

  g_return_if_fail (name != NULL && color != NULL);

  if (by_module)
    {
      float hue;

      module = kymo_flame_render_module_of (name);
      h = stable_hash (module);
      /* One pastel hue per module, so that crates stand apart. */
      hue = (h % 360) / 360.0f;
      gtk_hsv_to_rgb (hue, 0.45f, 0.95f, &color->red, &color->green, &color->blue);
    }
  else
    {
      /* flamegraph.pl's warm palette: red to yellow, a little blue. */
      h = stable_hash (name);
      color->red = (205 + (h & 0xFF) * 50 / 255) / 255.0f;
      color->green = (80 + ((h >> 8) & 0xFF) * 150 / 255) / 255.0f;
      color->blue = (30 + ((h >> 16) & 0xFF) * 55 / 255) / 255.0f;
    }
  color->alpha = 1.0f;
}

/* Red for growth, blue for shrinkage, nearly white for no change; the
 * strength is the change relative to the largest one in the tree. */
static void
diff_color (const KymoCallNode *node,
            gint64              max_delta,
            GdkRGBA            *color)
{
  gint64 delta = node->self - node->base_self;
  float a = max_delta > 0 ? (float) ((double) ABS (delta) / (double) max_delta) : 0.0f;
  float other = 0.92f - 0.62f * a;

  if (delta > 0)
    *color = (GdkRGBA) { 1.0f, other, other, 1.0f };
  else if (delta < 0)
    *color = (GdkRGBA) { other, other, 1.0f, 1.0f };
  else
    *color = (GdkRGBA) { 0.92f, 0.92f, 0.92f, 1.0f };
}

/* Trace names need not be valid UTF-8; g_utf8_casefold() needs it. */
static char *
casefold (const char *text)
{
  g_autofree char *valid = NULL;

  if (!g_utf8_validate (text, -1, NULL))
    text = valid = g_utf8_make_valid (text, -1);
  return g_utf8_casefold (text, -1);
}

guint8 *
kymo_flame_render_match_nodes (KymoCallTree *tree,
                               const char   *text)
{
  g_autoptr(GHashTable) by_name = NULL;
  g_autofree char *needle = NULL;
  const KymoCallNode *nodes;
  guint8 *matches;
  guint n;

  g_return_val_if_fail (tree != NULL, NULL);

  if (text == NULL || text[0] == '\0')
    return NULL;
  needle = casefold (text);
  nodes = kymo_call_tree_get_nodes (tree, &n);
  matches = g_new0 (guint8, n);
  /* names are the traces' interned strings: one entry per distinct name */
  by_name = g_hash_table_new (NULL, NULL);
  for (guint i = 1; i < n; i++)
    {
      gpointer found;

      if (nodes[i].name == NULL)
        continue;
      if (!g_hash_table_lookup_extended (by_name, nodes[i].name, NULL, &found))
        {
          g_autofree char *folded = casefold (nodes[i].name);

          found = GINT_TO_POINTER (strstr (folded, needle) != NULL);
          g_hash_table_insert (by_name, (gpointer) nodes[i].name, found);
        }
      matches[i] = GPOINTER_TO_INT (found);
    }
  return matches;
}

typedef gboolean (*VisitFunc) (const KymoCallNode *nodes,
                               guint32             node,
                               const graphene_rect_t *rect,
                               gpointer            data);

static double
row_y (const KymoFlameGraphView *view,
       guint                     depth)
{
  if (view->orientation == KYMO_FLAME_GRAPH_FLAME)
    return view->height - (double) (depth + 1) * KYMO_FLAME_GRAPH_ROW_HEIGHT;
  return (double) depth * KYMO_FLAME_GRAPH_ROW_HEIGHT;
}

/* Calls @func for every frame drawn: the focus's ancestors across the whole
 * width, then its subtree in proportion. Stops when @func returns FALSE. */
static void
walk (const KymoFlameGraphView *view,
      VisitFunc                 func,
      gpointer                  data)
{
  const KymoCallNode *nodes;
  guint n;
  guint32 focus = view->focus;
  g_autofree double *next_x = NULL;
  double scale;

  if (view->tree == NULL || view->width <= 0)
    return;
  nodes = kymo_call_tree_get_nodes (view->tree, &n);
  if (focus >= n)
    focus = 0;

  for (guint32 a = focus; ; a = nodes[a].parent)
    {
      graphene_rect_t rect = GRAPHENE_RECT_INIT (0, row_y (view, nodes[a].depth),
                                                 view->width, KYMO_FLAME_GRAPH_ROW_HEIGHT);

      if (!func (nodes, a, &rect, data))
        return;
      if (a == 0 || nodes[a].parent == G_MAXUINT32)
        break;
    }
  if (nodes[focus].total <= 0)
    return;

  scale = view->width / (double) nodes[focus].total;
  next_x = g_new0 (double, nodes[focus].n_descendants + 1);
  for (guint32 i = focus + 1; i <= focus + nodes[focus].n_descendants; i++)
    {
      guint32 p = nodes[i].parent;
      double x = next_x[p - focus];
      double w = nodes[i].total * scale;
      graphene_rect_t rect;

      next_x[p - focus] += w;
      if (w < MIN_FRAME_WIDTH || nodes[i].total <= 0)
        {
          i += nodes[i].n_descendants;
          continue;
        }
      next_x[i - focus] = x;
      rect = GRAPHENE_RECT_INIT (x, row_y (view, nodes[i].depth), w, KYMO_FLAME_GRAPH_ROW_HEIGHT);
      if (rect.origin.y + rect.size.height < 0 && view->orientation == KYMO_FLAME_GRAPH_FLAME)
        {
          i += nodes[i].n_descendants;
          continue;
        }
      if (!func (nodes, i, &rect, data))
        return;
    }
}

typedef struct {
  GtkSnapshot               *snapshot;
  PangoLayout               *layout;
  const KymoFlameGraphTheme *theme;
  const KymoFlameGraphView  *view;
  gboolean                   diff;
  gint64                     max_delta;
  guint32                    focus;
} DrawData;

static void
outline (GtkSnapshot           *snapshot,
         const graphene_rect_t *rect,
         const GdkRGBA         *color,
         float                  width)
{
  GskRoundedRect rounded;
  const float widths[4] = { width, width, width, width };
  const GdkRGBA colors[4] = { *color, *color, *color, *color };

  gsk_rounded_rect_init_from_rect (&rounded, rect, 0);
  gtk_snapshot_append_border (snapshot, &rounded, widths, colors);
}

static gboolean
draw_frame (const KymoCallNode    *nodes,
            guint32                node,
            const graphene_rect_t *rect,
            gpointer               user_data)
{
  DrawData *d = user_data;
  const KymoCallNode *cn = &nodes[node];
  /* a span named by a cargo path reads from its crate on */
  const char *label = node == 0 ? _("all") : kymo_short_path (cn->name);
  graphene_rect_t box = *rect;
  GdkRGBA color;
  gboolean dimmed = FALSE, matched = FALSE;

  /* a hairline between neighbours keeps adjacent frames apart */
  if (box.size.width > 2)
    box.size.width -= 1;
  box.size.height -= 1;

  if (node == 0)
    color = d->theme->dark ? (GdkRGBA) { 0.45f, 0.45f, 0.48f, 1 } : (GdkRGBA) { 0.82f, 0.82f, 0.84f, 1 };
  else if (d->diff)
    diff_color (cn, d->max_delta, &color);
  else
    kymo_flame_render_frame_color (cn->name, d->view->by_module, &color);

  if (d->view->matches != NULL && node != 0)
    {
      matched = d->view->matches[node];
      dimmed = !matched;
    }
  if (dimmed)
    {
      const GdkRGBA *bg = &d->theme->background;

      color.red = color.red * 0.35f + bg->red * 0.65f;
      color.green = color.green * 0.35f + bg->green * 0.65f;
      color.blue = color.blue * 0.35f + bg->blue * 0.65f;
    }
  gtk_snapshot_append_color (d->snapshot, &color, &box);
  if (matched)
    outline (d->snapshot, &box, &d->theme->match, 2);

  if (box.size.width >= MIN_LABEL_WIDTH)
    {
      GdkRGBA text = d->theme->frame_text;
      int text_height;

      if (dimmed)
        text.alpha = 0.5f;
      pango_layout_set_text (d->layout, label, -1);
      pango_layout_set_width (d->layout, (int) ((box.size.width - 2 * LABEL_PAD) * PANGO_SCALE));
      pango_layout_get_pixel_size (d->layout, NULL, &text_height);
      gtk_snapshot_save (d->snapshot);
      gtk_snapshot_translate (d->snapshot,
                              &GRAPHENE_POINT_INIT (box.origin.x + LABEL_PAD,
                                                    box.origin.y + (box.size.height - text_height) / 2));
      gtk_snapshot_append_layout (d->snapshot, d->layout, &text);
      gtk_snapshot_restore (d->snapshot);
    }
  return TRUE;
}

typedef struct {
  guint32 hover;
  guint32 selected;
  graphene_rect_t hover_rect;
  graphene_rect_t selected_rect;
  gboolean have_hover;
  gboolean have_selected;
} MarkData;

static gboolean
find_marks (const KymoCallNode    *nodes,
            guint32                node,
            const graphene_rect_t *rect,
            gpointer               user_data)
{
  MarkData *m = user_data;

  if (node == m->hover)
    {
      m->hover_rect = *rect;
      m->have_hover = TRUE;
    }
  if (node == m->selected)
    {
      m->selected_rect = *rect;
      m->have_selected = TRUE;
    }
  return TRUE;
}

void
kymo_flame_render_snapshot (GtkSnapshot               *snapshot,
                           PangoLayout               *layout,
                           const KymoFlameGraphTheme *theme,
                           const KymoFlameGraphView  *view)
{
  DrawData d = { snapshot, layout, theme, view, FALSE, 0, 0 };
  MarkData m = { view->hover, view->selected };

  g_return_if_fail (GTK_IS_SNAPSHOT (snapshot));
  g_return_if_fail (PANGO_IS_LAYOUT (layout));
  g_return_if_fail (theme != NULL && view != NULL);

  gtk_snapshot_append_color (snapshot, &theme->background,
                             &GRAPHENE_RECT_INIT (0, 0, view->width, view->height));
  if (view->tree == NULL)
    return;

  d.diff = kymo_call_tree_is_diff (view->tree);
  if (d.diff)
    {
      guint n;
      const KymoCallNode *nodes = kymo_call_tree_get_nodes (view->tree, &n);

      for (guint32 i = 1; i < n; i++)
        d.max_delta = MAX (d.max_delta, ABS (nodes[i].self - nodes[i].base_self));
    }
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  walk (view, draw_frame, &d);

  if (view->hover != KYMO_FLAME_GRAPH_NO_NODE || view->selected != KYMO_FLAME_GRAPH_NO_NODE)
    {
      walk (view, find_marks, &m);
      if (m.have_selected)
        outline (snapshot, &m.selected_rect, &theme->accent, 2);
      if (m.have_hover)
        outline (snapshot, &m.hover_rect, &theme->foreground, 1);
    }
}

typedef struct {
  double  x;
  double  y;
  guint32 found;
} PickData;

static gboolean
pick_frame (const KymoCallNode    *nodes,
            guint32                node,
            const graphene_rect_t *rect,
            gpointer               user_data)
{
  PickData *p = user_data;

  if (graphene_rect_contains_point (rect, &GRAPHENE_POINT_INIT (p->x, p->y)))
    {
      p->found = node;
      return FALSE;
    }
  return TRUE;
}

guint32
kymo_flame_render_pick (const KymoFlameGraphView *view,
                       double                    x,
                       double                    y)
{
  PickData p = { x, y, KYMO_FLAME_GRAPH_NO_NODE };

  g_return_val_if_fail (view != NULL, KYMO_FLAME_GRAPH_NO_NODE);

  walk (view, pick_frame, &p);
  return p.found;
}

gboolean
kymo_flame_render_get_node_rect (const KymoFlameGraphView *view,
                                guint32                   node,
                                graphene_rect_t          *rect)
{
  MarkData m = { node, KYMO_FLAME_GRAPH_NO_NODE };

  g_return_val_if_fail (view != NULL, FALSE);

  walk (view, find_marks, &m);
  if (m.have_hover && rect != NULL)
    *rect = m.hover_rect;
  return m.have_hover;
}

gboolean
kymo_flame_render_export_svg (KymoCallTree              *tree,
                             KymoFlameGraphOrientation  orientation,
                             int                        width,
                             const char                *path,
                             GError                   **error)
{
  PangoContext *context;
  g_autoptr(PangoLayout) layout = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  PangoFontDescription *font;
  KymoFlameGraphTheme theme;
  KymoFlameGraphView view = { 0 };
  GtkSnapshot *snapshot;
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (tree != NULL, FALSE);
  g_return_val_if_fail (width > 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* Render nodes work without gtk_init() once their types exist. */
  g_type_ensure (GSK_TYPE_COLOR_NODE);
  context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  pango_cairo_context_set_resolution (context, 96);
  layout = pango_layout_new (context);
  g_object_unref (context);
  font = pango_font_description_from_string (KYMO_TIMELINE_EXPORT_FONT " 9");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);

  kymo_flame_render_theme_init_default (&theme, FALSE);
  view.tree = tree;
  view.focus = 0;
  view.hover = KYMO_FLAME_GRAPH_NO_NODE;
  view.selected = KYMO_FLAME_GRAPH_NO_NODE;
  view.orientation = orientation;
  view.by_module = kymo_call_tree_get_source (tree) == KYMO_CALL_TREE_SAMPLES;
  view.width = width;
  view.height = kymo_flame_render_natural_height (tree, 0);

  snapshot = gtk_snapshot_new ();
  kymo_flame_render_snapshot (snapshot, layout, &theme, &view);
  node = gtk_snapshot_free_to_node (snapshot);

  surface = cairo_svg_surface_create (path, view.width, view.height);
  cr = cairo_create (surface);
  if (node != NULL)
    gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot write: %s"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
