/* kymo-flame-graph.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-flame-graph"

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "kymo-flame-graph.h"
#include "kymo-timeline-renderer.h"

struct _KymoFlameGraph
{
  GtkWidget                  parent_instance;

  KymoFlameModel            *model;
  KymoCallTree              *tree;
  guint32                    focus;
  guint32                    hover;
  KymoFlameGraphOrientation  orientation;
  gboolean                   by_module;
  char                      *match;
  guint8                    *matches;   /* of match in tree, per node */

  KymoFlameGraphTheme        theme;
  PangoLayout               *layout;
  /* Everything but hover and selection, redrawn only when it changes. */
  GskRenderNode             *cache;
  int                        cache_width;
  int                        cache_height;
};

G_DEFINE_FINAL_TYPE (KymoFlameGraph, kymo_flame_graph, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_MODEL,
  PROP_FOCUS,
  PROP_HOVERED,
  PROP_ORIENTATION,
  PROP_BY_MODULE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
invalidate (KymoFlameGraph *self)
{
  g_clear_pointer (&self->cache, gsk_render_node_unref);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
view_init (KymoFlameGraph     *self,
           KymoFlameGraphView *view)
{
  view->tree = self->tree;
  view->focus = self->focus;
  view->hover = KYMO_FLAME_GRAPH_NO_NODE;
  view->selected = KYMO_FLAME_GRAPH_NO_NODE;
  view->orientation = self->orientation;
  view->by_module = self->by_module;
  view->matches = self->matches;
  view->width = gtk_widget_get_width (GTK_WIDGET (self));
  view->height = gtk_widget_get_height (GTK_WIDGET (self));
}

static char *
format_weight (KymoCallTree *tree,
               gint64        weight)
{
  if (kymo_call_tree_get_source (tree) == KYMO_CALL_TREE_SAMPLES)
    {
      g_autofree char *number = g_strdup_printf ("%" G_GINT64_FORMAT, weight);

      /* TRANSLATORS: %s is a number of CPU samples */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s sample", "%s samples",
                                           (gulong) CLAMP (weight, 0, G_MAXLONG)), number);
    }
  return kymo_timeline_format_duration (weight);
}

char *
kymo_flame_graph_describe_node (KymoCallTree *tree,
                                guint32       node)
{
  const KymoCallNode *nodes;
  g_autofree char *total = NULL;
  g_autofree char *self_text = NULL;
  guint n;
  double percent;

  g_return_val_if_fail (tree != NULL, NULL);

  nodes = kymo_call_tree_get_nodes (tree, &n);
  if (node >= n)
    return NULL;
  total = format_weight (tree, nodes[node].total);
  self_text = format_weight (tree, nodes[node].self);
  percent = nodes[0].total > 0 ? 100.0 * nodes[node].total / nodes[0].total : 0;
  if (kymo_call_tree_is_diff (tree))
    {
      g_autofree char *before = format_weight (tree, nodes[node].base_self);

      /* TRANSLATORS: name — total (percent), self now, self in the baseline */
      return g_strdup_printf (_("%s — total %s (%.1f %%), self %s, baseline self %s"),
                              node == 0 ? _("all") : kymo_short_path (nodes[node].name), total, percent, self_text, before);
    }
  /* TRANSLATORS: name — total (percent of all), self */
  return g_strdup_printf (_("%s — total %s (%.1f %%), self %s"),
                          node == 0 ? _("all") : kymo_short_path (nodes[node].name), total, percent, self_text);
}

static void
update_theme (KymoFlameGraph *self)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  GdkRGBA colour;
  gboolean dark = adw_is_initialized () && adw_style_manager_get_dark (adw_style_manager_get_default ());

  kymo_flame_render_theme_init_default (&self->theme, dark);
  if (gtk_style_context_lookup_color (context, "view_bg_color", &colour))
    self->theme.background = colour;
  if (gtk_style_context_lookup_color (context, "accent_color", &colour))
    self->theme.accent = colour;
  gtk_style_context_get_color (context, &colour);
  self->theme.foreground = colour;
  G_GNUC_END_IGNORE_DEPRECATIONS
}

static void
kymo_flame_graph_css_changed (GtkWidget         *widget,
                              GtkCssStyleChange *change)
{
  KymoFlameGraph *self = KYMO_FLAME_GRAPH (widget);

  GTK_WIDGET_CLASS (kymo_flame_graph_parent_class)->css_changed (widget, change);
  update_theme (self);
  g_clear_object (&self->layout);
  invalidate (self);
}

static void
kymo_flame_graph_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  KymoFlameGraph *self = KYMO_FLAME_GRAPH (widget);
  KymoFlameGraphView view;
  guint32 selected;
  graphene_rect_t rect;

  view_init (self, &view);
  if (view.width <= 0 || view.height <= 0)
    return;
  if (self->cache != NULL && (self->cache_width != view.width || self->cache_height != view.height))
    g_clear_pointer (&self->cache, gsk_render_node_unref);
  if (self->cache == NULL)
    {
      GtkSnapshot *base = gtk_snapshot_new ();

      if (self->layout == NULL)
        {
          PangoFontDescription *font;

          self->layout = gtk_widget_create_pango_layout (widget, NULL);
          font = pango_font_description_copy (pango_context_get_font_description (pango_layout_get_context (self->layout)));
          pango_font_description_set_size (font, 9 * PANGO_SCALE);
          pango_layout_set_font_description (self->layout, font);
          pango_font_description_free (font);
        }
      kymo_flame_render_snapshot (base, self->layout, &self->theme, &view);
      self->cache = gtk_snapshot_free_to_node (base);
      self->cache_width = view.width;
      self->cache_height = view.height;
    }
  if (self->cache != NULL)
    gtk_snapshot_append_node (snapshot, self->cache);

  selected = kymo_flame_model_get_selected_node (self->model);
  if (selected != KYMO_FLAME_GRAPH_NO_NODE && kymo_flame_render_get_node_rect (&view, selected, &rect))
    {
      GskRoundedRect rounded;
      const float widths[4] = { 2, 2, 2, 2 };
      const GdkRGBA colors[4] = { self->theme.accent, self->theme.accent, self->theme.accent, self->theme.accent };

      gsk_rounded_rect_init_from_rect (&rounded, &rect, 0);
      gtk_snapshot_append_border (snapshot, &rounded, widths, colors);
    }
  if (self->hover != KYMO_FLAME_GRAPH_NO_NODE && kymo_flame_render_get_node_rect (&view, self->hover, &rect))
    {
      GskRoundedRect rounded;
      const float widths[4] = { 1, 1, 1, 1 };
      const GdkRGBA colors[4] = { self->theme.foreground, self->theme.foreground,
                                  self->theme.foreground, self->theme.foreground };

      gsk_rounded_rect_init_from_rect (&rounded, &rect, 0);
      gtk_snapshot_append_border (snapshot, &rounded, widths, colors);
    }
}

static void
kymo_flame_graph_measure (GtkWidget      *widget,
                          GtkOrientation  orientation,
                          int             for_size,
                          int            *minimum,
                          int            *natural,
                          int            *minimum_baseline,
                          int            *natural_baseline)
{
  KymoFlameGraph *self = KYMO_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 400;
    }
  else
    {
      *minimum = self->tree != NULL ? kymo_flame_render_natural_height (self->tree, self->focus)
                                    : KYMO_FLAME_GRAPH_ROW_HEIGHT;
      *natural = *minimum;
    }
}

static void
set_hover (KymoFlameGraph *self,
           guint32         node)
{
  if (self->hover == node)
    return;
  self->hover = node;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HOVERED]);
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           KymoFlameGraph           *self)
{
  KymoFlameGraphView view;

  view_init (self, &view);
  set_hover (self, kymo_flame_render_pick (&view, x, y));
}

static void
on_leave (GtkEventControllerMotion *controller,
          KymoFlameGraph           *self)
{
  set_hover (self, KYMO_FLAME_GRAPH_NO_NODE);
}

static void
on_released (GtkGestureClick *gesture,
             int              n_press,
             double           x,
             double           y,
             KymoFlameGraph  *self)
{
  KymoFlameGraphView view;
  guint32 node;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  view_init (self, &view);
  node = kymo_flame_render_pick (&view, x, y);
  if (node == KYMO_FLAME_GRAPH_NO_NODE)
    return;
  kymo_flame_graph_set_focus (self, node);
  kymo_flame_model_set_selected_node (self->model, node);
}

static gboolean
on_query_tooltip (GtkWidget      *widget,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip,
                  KymoFlameGraph *self)
{
  KymoFlameGraphView view;
  g_autofree char *text = NULL;
  guint32 node;

  view_init (self, &view);
  node = kymo_flame_render_pick (&view, x, y);
  if (node == KYMO_FLAME_GRAPH_NO_NODE || self->tree == NULL)
    return FALSE;
  text = kymo_flame_graph_describe_node (self->tree, node);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
update_matches (KymoFlameGraph *self)
{
  g_clear_pointer (&self->matches, g_free);
  if (self->tree != NULL)
    self->matches = kymo_flame_render_match_nodes (self->tree, self->match);
}

/* A new fold keeps the zoom when the same stack is still there. */
static void
on_tree_changed (KymoFlameGraph *self)
{
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);
  guint32 focus = 0;

  if (tree != NULL && self->tree != NULL && self->focus != 0)
    {
      g_autoptr(GPtrArray) path = kymo_call_tree_dup_path (self->tree, self->focus);

      focus = kymo_call_tree_find_path (tree, (const char * const *) path->pdata, path->len);
      if (focus == G_MAXUINT32)
        focus = 0;
    }
  if (tree != NULL)
    kymo_call_tree_ref (tree);
  g_clear_pointer (&self->tree, kymo_call_tree_unref);
  self->tree = tree;
  update_matches (self);
  self->focus = focus;
  self->hover = KYMO_FLAME_GRAPH_NO_NODE;
  /* samples are read by crate; spans by name */
  self->by_module = tree != NULL && kymo_call_tree_get_source (tree) == KYMO_CALL_TREE_SAMPLES;
  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOCUS]);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY_MODULE]);
}

static void
on_selected_node_changed (KymoFlameGraph *self)
{
  guint32 node = kymo_flame_model_get_selected_node (self->model);

  if (node != G_MAXUINT32 && self->tree != NULL && self->tree == kymo_flame_model_get_tree (self->model))
    {
      const KymoCallNode *nodes = kymo_call_tree_get_nodes (self->tree, NULL);

      /* Show the frame with its callers' row for context. */
      if (node < self->focus || node > self->focus + nodes[self->focus].n_descendants)
        kymo_flame_graph_set_focus (self, nodes[node].parent != G_MAXUINT32 ? nodes[node].parent : 0);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_search_changed (KymoFlameGraph *self)
{
  g_free (self->match);
  self->match = kymo_flame_model_dup_search_text (self->model);
  update_matches (self);
  invalidate (self);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  kymo_flame_graph_zoom_out (KYMO_FLAME_GRAPH (widget));
}

static void
reset_zoom_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  kymo_flame_graph_set_focus (KYMO_FLAME_GRAPH (widget), 0);
}

static void
kymo_flame_graph_constructed (GObject *object)
{
  KymoFlameGraph *self = (KymoFlameGraph *) object;

  G_OBJECT_CLASS (kymo_flame_graph_parent_class)->constructed (object);

  g_signal_connect_object (self->model, "notify::tree", G_CALLBACK (on_tree_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::selected-node", G_CALLBACK (on_selected_node_changed),
                           self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::search-text", G_CALLBACK (on_search_changed),
                           self, G_CONNECT_SWAPPED);
  on_search_changed (self);
  on_tree_changed (self);
}

static void
kymo_flame_graph_dispose (GObject *object)
{
  KymoFlameGraph *self = (KymoFlameGraph *) object;

  g_clear_pointer (&self->cache, gsk_render_node_unref);
  g_clear_object (&self->layout);
  g_clear_pointer (&self->tree, kymo_call_tree_unref);
  g_clear_object (&self->model);
  g_clear_pointer (&self->match, g_free);
  g_clear_pointer (&self->matches, g_free);
  G_OBJECT_CLASS (kymo_flame_graph_parent_class)->dispose (object);
}

static void
kymo_flame_graph_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  KymoFlameGraph *self = KYMO_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      g_value_set_object (value, self->model);
      break;
    case PROP_FOCUS:
      g_value_set_uint (value, self->focus);
      break;
    case PROP_HOVERED:
      g_value_set_uint (value, self->hover);
      break;
    case PROP_ORIENTATION:
      g_value_set_int (value, self->orientation);
      break;
    case PROP_BY_MODULE:
      g_value_set_boolean (value, self->by_module);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_flame_graph_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  KymoFlameGraph *self = KYMO_FLAME_GRAPH (object);

  switch (prop_id)
    {
    case PROP_MODEL:
      self->model = g_value_dup_object (value);
      break;
    case PROP_FOCUS:
      kymo_flame_graph_set_focus (self, g_value_get_uint (value));
      break;
    case PROP_ORIENTATION:
      kymo_flame_graph_set_orientation (self, g_value_get_int (value));
      break;
    case PROP_BY_MODULE:
      kymo_flame_graph_set_by_module (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_flame_graph_class_init (KymoFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_flame_graph_constructed;
  object_class->dispose = kymo_flame_graph_dispose;
  object_class->get_property = kymo_flame_graph_get_property;
  object_class->set_property = kymo_flame_graph_set_property;
  widget_class->snapshot = kymo_flame_graph_snapshot;
  widget_class->measure = kymo_flame_graph_measure;
  widget_class->css_changed = kymo_flame_graph_css_changed;

  properties[PROP_MODEL] =
    g_param_spec_object ("model", NULL, NULL, KYMO_TYPE_FLAME_MODEL,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_FOCUS] =
    g_param_spec_uint ("focus", NULL, NULL, 0, G_MAXUINT32, 0,
                       G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HOVERED] =
    g_param_spec_uint ("hovered", NULL, NULL, 0, G_MAXUINT32, KYMO_FLAME_GRAPH_NO_NODE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ORIENTATION] =
    g_param_spec_int ("orientation", NULL, NULL, KYMO_FLAME_GRAPH_ICICLE, KYMO_FLAME_GRAPH_FLAME,
                      KYMO_FLAME_GRAPH_ICICLE,
                      G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BY_MODULE] =
    g_param_spec_boolean ("by-module", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "flame-graph.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "flame-graph.reset-zoom", NULL, reset_zoom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flame-graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flame-graph.reset-zoom", NULL);
  gtk_widget_class_set_css_name (widget_class, "flamegraph");
}

static void
kymo_flame_graph_init (KymoFlameGraph *self)
{
  GtkEventController *motion;
  GtkGesture *click;

  self->hover = KYMO_FLAME_GRAPH_NO_NODE;
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  g_signal_connect (self, "query-tooltip", G_CALLBACK (on_query_tooltip), self);

  motion = gtk_event_controller_motion_new ();
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);

  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (on_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  update_theme (self);
}

GtkWidget *
kymo_flame_graph_new (KymoFlameModel *model)
{
  g_return_val_if_fail (KYMO_IS_FLAME_MODEL (model), NULL);

  return g_object_new (KYMO_TYPE_FLAME_GRAPH, "model", model, NULL);
}

KymoFlameModel *
kymo_flame_graph_get_model (KymoFlameGraph *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_GRAPH (self), NULL);
  return self->model;
}

guint32
kymo_flame_graph_get_focus (KymoFlameGraph *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_GRAPH (self), 0);
  return self->focus;
}

void
kymo_flame_graph_set_focus (KymoFlameGraph *self,
                            guint32         node)
{
  g_return_if_fail (KYMO_IS_FLAME_GRAPH (self));

  if (self->tree == NULL || node >= kymo_call_tree_get_n_nodes (self->tree))
    node = 0;
  if (self->focus == node)
    return;
  self->focus = node;
  invalidate (self);
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_FOCUS]);
}

gboolean
kymo_flame_graph_zoom_out (KymoFlameGraph *self)
{
  const KymoCallNode *nodes;

  g_return_val_if_fail (KYMO_IS_FLAME_GRAPH (self), FALSE);

  if (self->tree == NULL || self->focus == 0)
    return FALSE;
  nodes = kymo_call_tree_get_nodes (self->tree, NULL);
  kymo_flame_graph_set_focus (self, nodes[self->focus].parent);
  return TRUE;
}

guint32
kymo_flame_graph_get_hovered (KymoFlameGraph *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_GRAPH (self), KYMO_FLAME_GRAPH_NO_NODE);
  return self->hover;
}

KymoFlameGraphOrientation
kymo_flame_graph_get_orientation (KymoFlameGraph *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_GRAPH (self), KYMO_FLAME_GRAPH_ICICLE);
  return self->orientation;
}

void
kymo_flame_graph_set_orientation (KymoFlameGraph            *self,
                                  KymoFlameGraphOrientation  orientation)
{
  g_return_if_fail (KYMO_IS_FLAME_GRAPH (self));

  if (self->orientation == orientation)
    return;
  self->orientation = orientation;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ORIENTATION]);
}

gboolean
kymo_flame_graph_get_by_module (KymoFlameGraph *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_GRAPH (self), FALSE);
  return self->by_module;
}

void
kymo_flame_graph_set_by_module (KymoFlameGraph *self,
                                gboolean        by_module)
{
  g_return_if_fail (KYMO_IS_FLAME_GRAPH (self));

  by_module = !!by_module;
  if (self->by_module == by_module)
    return;
  self->by_module = by_module;
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BY_MODULE]);
}

gboolean
kymo_flame_graph_get_node_rect (KymoFlameGraph  *self,
                                guint32          node,
                                graphene_rect_t *rect)
{
  KymoFlameGraphView view;

  g_return_val_if_fail (KYMO_IS_FLAME_GRAPH (self), FALSE);

  view_init (self, &view);
  return kymo_flame_render_get_node_rect (&view, node, rect);
}
