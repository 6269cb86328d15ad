/* kymo-timeline.c: the timeline widget: its state, drawing, size and the session it follows
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <math.h>
#include <adwaita.h>

#include "kymo-timeline-private.h"

G_DEFINE_FINAL_TYPE (KymoTimeline, kymo_timeline, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_VADJUSTMENT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
invalidate (KymoTimeline *self)
{
  self->base_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
_kymo_timeline_viewport_init (KymoTimeline         *self,
                              KymoTimelineViewport *viewport)
{
  viewport->width = gtk_widget_get_width (GTK_WIDGET (self));
  viewport->height = gtk_widget_get_height (GTK_WIDGET (self));
  viewport->scroll_y = floor (gtk_adjustment_get_value (self->vadjustment));
}

static void
update_adjustment (KymoTimeline *self)
{
  int page = MAX (gtk_widget_get_height (GTK_WIDGET (self)) - KYMO_TIMELINE_RULER_HEIGHT, 1);
  int total = kymo_timeline_layout_get_height (self->layout);
  double value = CLAMP (gtk_adjustment_get_value (self->vadjustment), 0, MAX (total - page, 0));

  gtk_adjustment_configure (self->vadjustment, value, 0, MAX (total, page), 20, page * 0.9, page);
}

double
_kymo_timeline_px_per_ns (KymoTimeline *self)
{
  KymoTime t0, t1;

  kymo_session_get_visible_range (self->session, &t0, &t1);
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1) / (double) MAX (t1 - t0, 1);
}

KymoTime
_kymo_timeline_time_at (KymoTimeline *self,
                        double        x)
{
  KymoTime t0;

  kymo_session_get_visible_range (self->session, &t0, NULL);
  return t0 + (KymoTime) llround (x / _kymo_timeline_px_per_ns (self));
}

/* ------------------------------------------------------------- session */

static void
on_range_changed (KymoTimeline *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_base_changed (KymoTimeline *self)
{
  invalidate (self);
}

static void
on_tracks_changed (KymoTimeline *self)
{
  kymo_timeline_layout_update (self->layout);
  update_adjustment (self);
  invalidate (self);
}

static void
on_lanes_ready (KymoTimeline *self)
{
  kymo_timeline_renderer_set_lanes (self->renderer, kymo_dial9_analysis_get_lanes (self->dial9));
  invalidate (self);
}

static void
on_selected_task (KymoTimeline *self)
{
  gsize n;
  g_autofree KymoWakeMark *marks = kymo_dial9_analysis_dup_wake_marks (self->dial9, &n);

  kymo_timeline_renderer_set_wake_marks (self->renderer, marks, n);
  invalidate (self);
}

static void
on_reveal_track (KymoTimeline *self,
                 guint         track)
{
  int r;
  const KymoTimelineRow *row;
  double value, page;

  kymo_timeline_layout_update (self->layout);
  update_adjustment (self);
  r = kymo_timeline_layout_find_track (self->layout, track);
  if (r < 0)
    return;
  row = kymo_timeline_layout_get_row (self->layout, r);
  value = gtk_adjustment_get_value (self->vadjustment);
  page = gtk_adjustment_get_page_size (self->vadjustment);
  if (row->y < value || row->y + row->height > value + page)
    gtk_adjustment_set_value (self->vadjustment, row->y - MAX (page - row->height, 0) / 3);
}

/* ------------------------------------------------------------- theme */

static void
update_theme (KymoTimeline *self)
{
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));
  KymoTimelineTheme theme;
  GdkRGBA colour;
  gboolean dark = adw_is_initialized () && adw_style_manager_get_dark (adw_style_manager_get_default ());

  if (self->renderer == NULL)
    return;

  kymo_timeline_theme_init_default (&theme, dark);
  if (gtk_style_context_lookup_color (context, "view_bg_color", &colour))
    theme.background = colour;
  if (gtk_style_context_lookup_color (context, "window_bg_color", &colour))
    theme.ruler = colour;
  if (gtk_style_context_lookup_color (context, "headerbar_bg_color", &colour))
    theme.header = colour;
  if (gtk_style_context_lookup_color (context, "accent_color", &colour))
    {
      theme.accent = colour;
      theme.selection = colour;
      theme.selection.alpha = 0.15f;
    }
  if (gtk_style_context_lookup_color (context, "error_color", &colour))
    theme.warning = colour;
  gtk_style_context_get_color (context, &colour);
  theme.foreground = colour;
  theme.dim = colour;
  theme.dim.alpha *= 0.6f;
  theme.grid = colour;
  theme.grid.alpha = 0.08f;
  G_GNUC_END_IGNORE_DEPRECATIONS

  kymo_timeline_renderer_set_theme (self->renderer, &theme);
  invalidate (self);
}

static void
kymo_timeline_css_changed (GtkWidget         *widget,
                           GtkCssStyleChange *change)
{
  GTK_WIDGET_CLASS (kymo_timeline_parent_class)->css_changed (widget, change);
  update_theme (KYMO_TIMELINE (widget));
}

/* ------------------------------------------------------------- drawing */

static void
kymo_timeline_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  KymoTimeline *self = KYMO_TIMELINE (widget);
  KymoTimelineViewport viewport;
  KymoTime t0, t1;

  _kymo_timeline_viewport_init (self, &viewport);
  if (viewport.width <= 0 || viewport.height <= 0)
    return;
  kymo_session_get_visible_range (self->session, &t0, &t1);
  kymo_timeline_layout_update (self->layout);

  if (!self->base_valid || self->base == NULL ||
      self->base_t0 != t0 || self->base_t1 != t1 ||
      self->base_width != viewport.width || self->base_height != viewport.height ||
      self->base_scroll != viewport.scroll_y)
    {
      GtkSnapshot *base = gtk_snapshot_new ();

      kymo_timeline_renderer_snapshot_base (self->renderer, base, self->session, self->layout, &viewport);
      g_clear_pointer (&self->base, gsk_render_node_unref);
      self->base = gtk_snapshot_free_to_node (base);
      self->base_t0 = t0;
      self->base_t1 = t1;
      self->base_width = viewport.width;
      self->base_height = viewport.height;
      self->base_scroll = viewport.scroll_y;
      self->base_valid = TRUE;
    }
  if (self->base)
    gtk_snapshot_append_node (snapshot, self->base);
  kymo_timeline_renderer_snapshot_overlay (self->renderer, snapshot, self->session, self->layout, &viewport);
}

static void
kymo_timeline_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 120 : KYMO_TIMELINE_RULER_HEIGHT + 40;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 800 : 400;
}

static void
kymo_timeline_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  update_adjustment (KYMO_TIMELINE (widget));
}

static gboolean
kymo_timeline_query_tooltip (GtkWidget  *widget,
                             int         x,
                             int         y,
                             gboolean    keyboard_mode,
                             GtkTooltip *tooltip)
{
  g_autofree char *markup = kymo_timeline_describe_at (KYMO_TIMELINE (widget), x, y);

  if (markup == NULL)
    return FALSE;
  gtk_tooltip_set_markup (tooltip, markup);
  return TRUE;
}

static void
update_history_actions (KymoTimeline *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.back",
                                 kymo_session_get_can_go_back (self->session));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "timeline.forward",
                                 kymo_session_get_can_go_forward (self->session));
}

/* ------------------------------------------------------------- object */

static void
kymo_timeline_constructed (GObject *object)
{
  KymoTimeline *self = (KymoTimeline *) object;
  g_autofree char *font_name = NULL;
  g_autoptr(PangoFontDescription) font = NULL;

  G_OBJECT_CLASS (kymo_timeline_parent_class)->constructed (object);

  g_return_if_fail (self->session != NULL);

  g_object_get (gtk_widget_get_settings (GTK_WIDGET (self)), "gtk-font-name", &font_name, NULL);
  font = pango_font_description_from_string (font_name ? font_name : "Sans");
  self->renderer = kymo_timeline_renderer_new (kymo_session_get_trace (self->session),
                                               gtk_widget_get_pango_context (GTK_WIDGET (self)),
                                               pango_font_description_get_family (font));
  self->layout = kymo_timeline_layout_new (self->session);
  g_signal_group_set_target (self->session_signals, self->session);
  if (kymo_dial9_analysis_applies (self->session))
    {
      /* Shares and wakes come from the analysis thread; the lanes draw
       * without them until then. */
      self->dial9 = kymo_dial9_analysis_get (self->session);
      g_signal_connect_object (self->dial9, "notify::ready", G_CALLBACK (on_lanes_ready), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (self->dial9, "notify::selected-task", G_CALLBACK (on_selected_task), self,
                               G_CONNECT_SWAPPED);
      on_lanes_ready (self);
      on_selected_task (self);
    }
  update_history_actions (self);
  update_theme (self);
}

static void
kymo_timeline_dispose (GObject *object)
{
  KymoTimeline *self = (KymoTimeline *) object;

  _kymo_timeline_stop_kinetic (self);
  if (self->session_signals)
    g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session_signals);
  g_clear_pointer (&self->base, gsk_render_node_unref);
  g_clear_pointer (&self->layout, kymo_timeline_layout_free);
  g_clear_pointer (&self->renderer, kymo_timeline_renderer_free);
  g_clear_object (&self->vadjustment);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_timeline_parent_class)->dispose (object);
}

static void
kymo_timeline_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  KymoTimeline *self = KYMO_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_VADJUSTMENT:
      g_value_set_object (value, self->vadjustment);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_timeline_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  KymoTimeline *self = KYMO_TIMELINE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_timeline_class_init (KymoTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_timeline_constructed;
  object_class->dispose = kymo_timeline_dispose;
  object_class->get_property = kymo_timeline_get_property;
  object_class->set_property = kymo_timeline_set_property;

  widget_class->snapshot = kymo_timeline_snapshot;
  widget_class->measure = kymo_timeline_measure;
  widget_class->size_allocate = kymo_timeline_size_allocate;
  widget_class->css_changed = kymo_timeline_css_changed;
  widget_class->query_tooltip = kymo_timeline_query_tooltip;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VADJUSTMENT] =
    g_param_spec_object ("vadjustment", NULL, NULL, GTK_TYPE_ADJUSTMENT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "timeline");

  _kymo_timeline_class_add_input (widget_class);
}

static void
kymo_timeline_init (KymoTimeline *self)
{
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);
  self->vadjustment = g_object_ref_sink (gtk_adjustment_new (0, 0, 1, 20, 200, 1));
  g_signal_connect_swapped (self->vadjustment, "value-changed", G_CALLBACK (gtk_widget_queue_draw), self);

  self->session_signals = g_signal_group_new (KYMO_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::visible-start", G_CALLBACK (on_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::visible-end", G_CALLBACK (on_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-start", G_CALLBACK (on_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-end", G_CALLBACK (on_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-event", G_CALLBACK (on_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::hovered-event", G_CALLBACK (on_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::highlighted-name", G_CALLBACK (on_base_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::highlight", G_CALLBACK (on_base_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::wallclock", G_CALLBACK (on_base_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::can-go-back", G_CALLBACK (update_history_actions), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::can-go-forward", G_CALLBACK (update_history_actions), self);
  g_signal_group_connect_swapped (self->session_signals, "tracks-changed", G_CALLBACK (on_tracks_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "reveal-track", G_CALLBACK (on_reveal_track), self);

  _kymo_timeline_add_input (self);
}

GtkWidget *
kymo_timeline_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_TIMELINE, "session", session, NULL);
}

KymoSession *
kymo_timeline_get_session (KymoTimeline *self)
{
  g_return_val_if_fail (KYMO_IS_TIMELINE (self), NULL);

  return self->session;
}

GtkAdjustment *
kymo_timeline_get_vadjustment (KymoTimeline *self)
{
  g_return_val_if_fail (KYMO_IS_TIMELINE (self), NULL);

  return self->vadjustment;
}

const KymoTimelineStats *
kymo_timeline_get_stats (KymoTimeline *self)
{
  g_return_val_if_fail (KYMO_IS_TIMELINE (self), NULL);

  return kymo_timeline_renderer_get_stats (self->renderer);
}
