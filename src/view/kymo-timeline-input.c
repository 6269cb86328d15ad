/* kymo-timeline-input.c: how the timeline answers the pointer, touch and keys
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <math.h>

#include "kymo-timeline-private.h"

/* A pause this long between navigation steps starts a new history entry. */
#define HISTORY_IDLE_US (600 * 1000)
#define KEY_ZOOM        1.25
#define KEY_PAN         0.15
#define CLICK_SLOP      3.0

/* Continuous steps (wheel, keys, drags) share one history entry while they
 * keep coming; a pause starts the next one. */
static void
begin_navigation (KymoTimeline *self)
{
  gint64 now = g_get_monotonic_time ();

  if (now - self->last_navigation > HISTORY_IDLE_US)
    kymo_session_push_history (self->session);
  self->last_navigation = now;
}

void
_kymo_timeline_stop_kinetic (KymoTimeline *self)
{
  if (self->kinetic_id)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->kinetic_id);
      self->kinetic_id = 0;
    }
}

static KymoTime
zoom_anchor (KymoTimeline *self)
{
  KymoTime t0, t1;

  if (self->has_pointer)
    return _kymo_timeline_time_at (self, self->pointer_x);
  kymo_session_get_visible_range (self->session, &t0, &t1);
  return t0 + (t1 - t0) / 2;
}

static void
scroll_rows (KymoTimeline *self,
             double        dy)
{
  gtk_adjustment_set_value (self->vadjustment, gtk_adjustment_get_value (self->vadjustment) + dy);
}

static void
pan_pixels (KymoTimeline *self,
            double        dx)
{
  kymo_session_pan (self->session, (KymoTime) llround (dx / _kymo_timeline_px_per_ns (self)));
}

static void
update_hover (KymoTimeline *self)
{
  KymoTimelineViewport viewport;
  KymoEventRef ref;
  guint32 name = KYMO_SESSION_NO_NAME;

  if (!self->has_pointer)
    {
      kymo_session_set_hovered_event (self->session, NULL);
      kymo_session_set_highlighted_name (self->session, KYMO_SESSION_NO_NAME);
      return;
    }
  _kymo_timeline_viewport_init (self, &viewport);
  if (!kymo_timeline_renderer_pick (self->renderer, self->session, self->layout, &viewport,
                                    self->pointer_x, self->pointer_y, &ref))
    {
      kymo_session_set_hovered_event (self->session, NULL);
      kymo_session_set_highlighted_name (self->session, KYMO_SESSION_NO_NAME);
      return;
    }
  if (ref.kind == KYMO_EVENT_KIND_SPAN)
    {
      gsize n;
      KymoTrack *track = kymo_trace_get_track (kymo_session_get_trace (self->session), ref.track);
      name = kymo_span_name (&kymo_track_get_spans (track, &n)[ref.index]);
    }
  kymo_session_set_hovered_event (self->session, &ref);
  kymo_session_set_highlighted_name (self->session, name);
}

/* The legends give way to what is under them while the pointer is there. */
static void
update_legend (KymoTimeline *self)
{
  gboolean over = self->has_pointer &&
                  kymo_timeline_renderer_legend_contains (self->renderer, self->pointer_x, self->pointer_y);

  if (kymo_timeline_renderer_set_legend_faded (self->renderer, over))
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           KymoTimeline             *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->has_pointer = TRUE;
  update_hover (self);
  update_legend (self);
}

static void
on_leave (GtkEventControllerMotion *controller,
          KymoTimeline             *self)
{
  self->has_pointer = FALSE;
  update_hover (self);
  update_legend (self);
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           KymoTimeline             *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  GdkScrollUnit unit = gtk_event_controller_scroll_get_unit (controller);
  int width = gtk_widget_get_width (GTK_WIDGET (self));

  _kymo_timeline_stop_kinetic (self);
  begin_navigation (self);

  if (unit == GDK_SCROLL_UNIT_WHEEL)
    {
      /* A mouse: the wheel zooms at the pointer, Shift pans, Alt scrolls rows. */
      if (state & GDK_SHIFT_MASK)
        pan_pixels (self, (dy + dx) * width * 0.1);
      else if (state & GDK_ALT_MASK)
        scroll_rows (self, dy * 60);
      else
        {
          if (dy != 0)
            kymo_session_zoom_at (self->session, zoom_anchor (self), pow (1.2, dy));
          if (dx != 0)
            pan_pixels (self, dx * width * 0.1);
        }
      return TRUE;
    }

  /* A touchpad: two fingers pan and scroll rows, Ctrl zooms. */
  if (state & GDK_CONTROL_MASK)
    kymo_session_zoom_at (self->session, zoom_anchor (self), exp (dy * 0.01));
  else if (state & GDK_SHIFT_MASK)
    pan_pixels (self, dy + dx);
  else
    {
      pan_pixels (self, dx);
      scroll_rows (self, dy);
    }
  return TRUE;
}

static gboolean
kinetic_tick (GtkWidget     *widget,
              GdkFrameClock *clock,
              gpointer       user_data)
{
  KymoTimeline *self = KYMO_TIMELINE (widget);
  gint64 now = gdk_frame_clock_get_frame_time (clock);
  double dt = (now - self->kinetic_last) / 1e6;
  double decay;

  self->kinetic_last = now;
  if (dt <= 0)
    return G_SOURCE_CONTINUE;
  pan_pixels (self, self->kinetic_vx * dt);
  scroll_rows (self, self->kinetic_vy * dt);
  /* Friction, as GtkScrolledWindow's deceleration feels. */
  decay = exp (-4.0 * dt);
  self->kinetic_vx *= decay;
  self->kinetic_vy *= decay;
  if (fabs (self->kinetic_vx) < 20 && fabs (self->kinetic_vy) < 20)
    {
      self->kinetic_id = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static void
on_decelerate (GtkEventControllerScroll *controller,
               double                    vx,
               double                    vy,
               KymoTimeline             *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (state & GDK_CONTROL_MASK)
    return;
  _kymo_timeline_stop_kinetic (self);
  self->kinetic_vx = vx;
  self->kinetic_vy = vy;
  self->kinetic_last = g_get_monotonic_time ();
  self->kinetic_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), kinetic_tick, NULL, NULL);
}

static void
on_scroll_begin (GtkEventControllerScroll *controller,
                 KymoTimeline             *self)
{
  _kymo_timeline_stop_kinetic (self);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               KymoTimeline   *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  _kymo_timeline_stop_kinetic (self);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_select = (state & GDK_SHIFT_MASK) != 0;
  self->drag_moved = FALSE;
  self->drag_x = x;
  self->drag_y = y;
  self->drag_scroll = gtk_adjustment_get_value (self->vadjustment);
  kymo_session_get_visible_range (self->session, &self->drag_t0, &self->drag_t1);
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                KymoTimeline   *self)
{
  double scale = MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1) / (double) MAX (self->drag_t1 - self->drag_t0, 1);

  if (!self->drag_moved && fabs (dx) < CLICK_SLOP && fabs (dy) < CLICK_SLOP)
    return;
  if (!self->drag_moved)
    {
      self->drag_moved = TRUE;
      if (!self->drag_select)
        begin_navigation (self);
    }

  if (self->drag_select)
    {
      KymoTime a = self->drag_t0 + (KymoTime) (self->drag_x / scale);
      KymoTime b = self->drag_t0 + (KymoTime) ((self->drag_x + dx) / scale);
      kymo_session_set_selected_range (self->session, a, b);
      return;
    }
  {
    KymoTime shift = (KymoTime) (-dx / scale);
    kymo_session_set_visible_range (self->session, self->drag_t0 + shift, self->drag_t1 + shift);
    gtk_adjustment_set_value (self->vadjustment, self->drag_scroll - dy);
    self->last_navigation = g_get_monotonic_time ();
  }
}

static gboolean
toggle_group_at (KymoTimeline *self,
                 double        y)
{
  guint r;
  const KymoTimelineRow *row;

  if (y < KYMO_TIMELINE_RULER_HEIGHT)
    return FALSE;
  r = kymo_timeline_layout_find_row (self->layout,
                                     (int) floor (y - KYMO_TIMELINE_RULER_HEIGHT + gtk_adjustment_get_value (self->vadjustment)));
  if (r >= kymo_timeline_layout_get_n_rows (self->layout))
    return FALSE;
  row = kymo_timeline_layout_get_row (self->layout, r);
  if (row->kind != KYMO_TRACK_GROUP)
    return FALSE;
  kymo_session_set_group_collapsed (self->session, row->track, !row->collapsed);
  return TRUE;
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             KymoTimeline   *self)
{
  KymoTimelineViewport viewport;
  KymoEventRef ref;
  double x = self->drag_x + dx, y = self->drag_y + dy;

  if (self->drag_moved)
    return;
  /* A click: toggle a group, select what is under the pointer, or clear. */
  if (toggle_group_at (self, y))
    return;
  _kymo_timeline_viewport_init (self, &viewport);
  if (kymo_timeline_renderer_pick (self->renderer, self->session, self->layout, &viewport, x, y, &ref))
    kymo_session_select_event (self->session, &ref);
  else
    {
      kymo_session_select_event (self->session, NULL);
      kymo_session_clear_selected_range (self->session);
    }
}

static void
on_pinch_begin (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                KymoTimeline     *self)
{
  double x, y;

  _kymo_timeline_stop_kinetic (self);
  begin_navigation (self);
  if (!gtk_gesture_get_bounding_box_center (gesture, &x, &y))
    x = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
  self->pinch_anchor = _kymo_timeline_time_at (self, x);
  kymo_session_get_visible_range (self->session, &self->pinch_t0, &self->pinch_t1);
}

static void
on_pinch_scale_changed (GtkGestureZoom *gesture,
                        double          scale,
                        KymoTimeline   *self)
{
  double factor;

  if (scale <= 0)
    return;
  factor = 1.0 / scale;
  kymo_session_set_visible_range (self->session,
                                  self->pinch_anchor - (KymoTime) ((self->pinch_anchor - self->pinch_t0) * factor),
                                  self->pinch_anchor + (KymoTime) ((self->pinch_t1 - self->pinch_anchor) * factor));
}

/* ------------------------------------------------------------- actions */

static void
zoom_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KymoTimeline *self = KYMO_TIMELINE (widget);
  gboolean in = g_str_equal (action_name, "timeline.zoom-in");

  begin_navigation (self);
  kymo_session_zoom_at (self->session, zoom_anchor (self), in ? 1 / KEY_ZOOM : KEY_ZOOM);
}

static void
pan_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  KymoTimeline *self = KYMO_TIMELINE (widget);
  int sign = g_str_equal (action_name, "timeline.pan-left") ? -1 : 1;

  begin_navigation (self);
  pan_pixels (self, sign * KEY_PAN * gtk_widget_get_width (widget));
}

static void
scroll_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  KymoTimeline *self = KYMO_TIMELINE (widget);
  double step = g_variant_get_double (parameter);

  scroll_rows (self, step);
}

static void
fit_all_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  kymo_session_fit_all (KYMO_TIMELINE (widget)->session);
}

static void
fit_selection_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  kymo_session_fit_selection (KYMO_TIMELINE (widget)->session);
}

static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  KymoTimeline *self = KYMO_TIMELINE (widget);

  if (g_str_equal (action_name, "timeline.back"))
    kymo_session_go_back (self->session);
  else
    kymo_session_go_forward (self->session);
  /* Going back must not be undone by the next step joining this entry. */
  self->last_navigation = 0;
}

static void
clear_selection_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  KymoTimeline *self = KYMO_TIMELINE (widget);

  kymo_session_clear_selected_range (self->session);
  kymo_session_select_event (self->session, NULL);
}

static void
toggle_wallclock_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  KymoTimeline *self = KYMO_TIMELINE (widget);

  kymo_session_set_wallclock (self->session, !kymo_session_get_wallclock (self->session));
}

void
_kymo_timeline_class_add_input (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_action);
  gtk_widget_class_install_action (widget_class, "timeline.scroll-rows", "d", scroll_action);
  gtk_widget_class_install_action (widget_class, "timeline.fit-all", NULL, fit_all_action);
  gtk_widget_class_install_action (widget_class, "timeline.fit-selection", NULL, fit_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.back", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "timeline.forward", NULL, history_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-selection", NULL, clear_selection_action);
  /* Relative time, or wall-clock time when the trace knows it. */
  gtk_widget_class_install_action (widget_class, "timeline.toggle-wallclock", NULL, toggle_wallclock_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, GDK_SHIFT_MASK, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.scroll-rows", "d", -40.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.scroll-rows", "d", 40.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, 0, "timeline.scroll-rows", "d", -400.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, 0, "timeline.scroll-rows", "d", 400.0);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "timeline.fit-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.fit-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "timeline.fit-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "timeline.fit-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "timeline.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, GDK_ALT_MASK, "timeline.forward", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, 0, "timeline.toggle-wallclock", NULL);
}

void
_kymo_timeline_add_input (KymoTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES |
                                                GTK_EVENT_CONTROLLER_SCROLL_KINETIC);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  g_signal_connect (controller, "scroll-begin", G_CALLBACK (on_scroll_begin), self);
  g_signal_connect (controller, "decelerate", G_CALLBACK (on_decelerate), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (on_pinch_begin), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (on_pinch_scale_changed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));
}
