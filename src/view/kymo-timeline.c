/* kymo-timeline.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>
#include <adwaita.h>

#include "kymo-timeline.h"
#include "kymo-timeline-lanes.h"
#include "dial9/kymo-dial9-analysis.h"

/* A pause this long between navigation steps starts a new history entry. */
#define HISTORY_IDLE_US (600 * 1000)
#define KEY_ZOOM        1.25
#define KEY_PAN         0.15
#define CLICK_SLOP      3.0

struct _KymoTimeline
{
  GtkWidget             parent_instance;

  KymoSession          *session;
  GSignalGroup         *session_signals;
  KymoTimelineLayout   *layout;
  KymoTimelineRenderer *renderer;
  GtkAdjustment        *vadjustment;
  KymoDial9Analysis    *dial9;   /* owned by the session; NULL unless dial9 */

  /* The frame without hover and selection, and what it was drawn for. */
  GskRenderNode        *base;
  KymoTime              base_t0;
  KymoTime              base_t1;
  int                   base_width;
  int                   base_height;
  double                base_scroll;
  gboolean              base_valid;

  gint64                last_navigation;

  double                pointer_x;
  double                pointer_y;
  gboolean              has_pointer;

  /* drag: pan, or with Shift a time range */
  gboolean              drag_select;
  gboolean              drag_moved;
  double                drag_x;
  double                drag_y;
  KymoTime              drag_t0;
  KymoTime              drag_t1;
  double                drag_scroll;

  /* pinch */
  KymoTime              pinch_anchor;
  KymoTime              pinch_t0;
  KymoTime              pinch_t1;

  /* kinetic touchpad scrolling, in pixels per second */
  guint                 kinetic_id;
  double                kinetic_vx;
  double                kinetic_vy;
  gint64                kinetic_last;
};

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

static void
viewport_init (KymoTimeline         *self,
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

static double
px_per_ns (KymoTimeline *self)
{
  KymoTime t0, t1;

  kymo_session_get_visible_range (self->session, &t0, &t1);
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)), 1) / (double) MAX (t1 - t0, 1);
}

static KymoTime
time_at (KymoTimeline *self,
         double        x)
{
  KymoTime t0;

  kymo_session_get_visible_range (self->session, &t0, NULL);
  return t0 + (KymoTime) llround (x / px_per_ns (self));
}

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

static void
stop_kinetic (KymoTimeline *self)
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
    return time_at (self, self->pointer_x);
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
  kymo_session_pan (self->session, (KymoTime) llround (dx / px_per_ns (self)));
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

  viewport_init (self, &viewport);
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

/* ------------------------------------------------------------- describing */

static char *
format_time (KymoTimeline *self,
             KymoTime      ts)
{
  KymoTime origin;

  kymo_trace_get_time_range (kymo_session_get_trace (self->session), &origin, NULL);
  return kymo_timeline_format_duration (ts - (origin == KYMO_TIME_NONE ? 0 : origin));
}

static KymoDial9Lanes *
get_lanes (KymoTimeline *self)
{
  return self->dial9 != NULL ? kymo_dial9_analysis_get_lanes (self->dial9) : NULL;
}

/* "On CPU 25 % of its 1 ms active period", for a time on a worker lane. */
static void
append_period_share (KymoTimeline *self,
                     GString      *text,
                     guint         track,
                     KymoTime      ts)
{
  KymoDial9Lanes *lanes = get_lanes (self);
  const KymoCpuPeriod *period = lanes ? kymo_dial9_lanes_find_period (lanes, track, ts) : NULL;
  g_autofree char *active = NULL;

  if (period == NULL)
    return;
  active = kymo_timeline_format_duration (period->end - period->start);
  g_string_append_c (text, '\n');
  /* Translators: the share of an active period (unpark to park) a Tokio
   * worker's thread was running on a CPU; %s is a duration */
  g_string_append_printf (text, _("On CPU %.0f %% of its %s active period"),
                          100 * kymo_cpu_period_share (period), active);
}

/* Over a worker's title strip or its CPU band, where no event is. */
static char *
describe_worker_at (KymoTimeline *self,
                    double        x,
                    double        y)
{
  KymoDial9Lanes *lanes = get_lanes (self);
  const KymoTimelineRow *row;
  KymoTime cpu, active;
  double ry;
  guint r;
  g_autofree char *name = NULL;
  g_autofree char *cpu_text = NULL;
  g_autofree char *active_text = NULL;
  GString *text;

  if (lanes == NULL || y < KYMO_TIMELINE_RULER_HEIGHT)
    return NULL;
  ry = y - KYMO_TIMELINE_RULER_HEIGHT + floor (gtk_adjustment_get_value (self->vadjustment));
  r = kymo_timeline_layout_find_row (self->layout, (int) floor (ry));
  if (r >= kymo_timeline_layout_get_n_rows (self->layout))
    return NULL;
  row = kymo_timeline_layout_get_row (self->layout, r);
  ry -= row->y;
  if (!kymo_dial9_lanes_get_cpu_total (lanes, row->track, &cpu, &active) || active <= 0)
    return NULL;
  name = g_markup_escape_text (kymo_track_get_name (kymo_trace_get_track (kymo_session_get_trace (self->session),
                                                                            row->track)), -1);
  text = g_string_new (NULL);
  if (ry < row->title_height)
    {
      cpu_text = kymo_timeline_format_duration (cpu);
      active_text = kymo_timeline_format_duration (active);
      g_string_append_printf (text, "<b>%s</b>\n", name);
      /* Translators: a Tokio worker's CPU time over the time it was not
       * parked; the %s are durations */
      g_string_append_printf (text, _("On CPU %.0f %% of its active time (%s of %s)"),
                              100.0 * cpu / active, cpu_text, active_text);
    }
  else if (ry >= row->lanes_y - KYMO_TIMELINE_CPU_BAND && ry < row->lanes_y)
    {
      g_string_append_printf (text, "<b>%s</b>", name);
      append_period_share (self, text, row->track, time_at (self, x));
    }
  if (text->len == 0 || strchr (text->str, '\n') == NULL)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

char *
kymo_timeline_describe_at (KymoTimeline *self,
                           double        x,
                           double        y)
{
  KymoTrace *trace = kymo_session_get_trace (self->session);
  KymoTimelineViewport viewport;
  KymoEventRef ref;
  KymoTrack *track;
  KymoTime start, end;
  g_autofree char *start_text = NULL;
  g_autofree char *duration = NULL;
  const char *name = "";
  GString *text;

  g_return_val_if_fail (KYMO_IS_TIMELINE (self), NULL);

  viewport_init (self, &viewport);
  if (!kymo_timeline_renderer_pick (self->renderer, self->session, self->layout, &viewport, x, y, &ref) ||
      !kymo_session_get_event_extent (self->session, &ref, &start, &end))
    return describe_worker_at (self, x, y);
  track = kymo_trace_get_track (trace, ref.track);
  start_text = format_time (self, start);
  duration = kymo_timeline_format_duration (end - start);
  text = g_string_new (NULL);

  switch (ref.kind)
    {
    case KYMO_EVENT_KIND_SPAN:
      {
        gsize n;
        const KymoSpan *span = &kymo_track_get_spans (track, &n)[ref.index];
        name = kymo_trace_get_name (trace, kymo_span_name (span));
        g_string_append_printf (text, "<b>%s</b>\n", name);
        g_string_append_printf (text, _("Start: %s"), start_text);
        g_string_append_c (text, '\n');
        if (kymo_span_flags (span) & KYMO_EVENT_INCOMPLETE)
          g_string_append_printf (text, _("Duration: %s (never ended)"), duration);
        else
          g_string_append_printf (text, _("Duration: %s"), duration);
        g_string_append_c (text, '\n');
        g_string_append_printf (text, _("Depth: %u"), kymo_track_get_span_depth (track, ref.index));
        /* The middle: a parked span begins where a period ends. */
        append_period_share (self, text, ref.track, start + (end - start) / 2);
        break;
      }
    case KYMO_EVENT_KIND_INSTANT:
      {
        gsize n;
        const KymoInstant *instant = &kymo_track_get_instants (track, &n)[ref.index];
        name = kymo_trace_get_name (trace, instant->name_flags & KYMO_NAME_MAX);
        g_string_append_printf (text, "<b>%s</b>\n", name);
        g_string_append_printf (text, _("At: %s"), start_text);
        break;
      }
    case KYMO_EVENT_KIND_SAMPLE:
      {
        gsize n;
        const KymoSample *sample = &kymo_track_get_samples (track, &n)[ref.index];
        const char *unit = kymo_track_get_unit (track);
        g_string_append_printf (text, "<b>%g%s%s</b>\n", sample->value, unit ? " " : "", unit ? unit : "");
        g_string_append_printf (text, _("At: %s"), start_text);
        break;
      }
    case KYMO_EVENT_KIND_ANNOTATION:
      {
        gsize n;
        const KymoAnnotation *a = &kymo_track_get_annotations (track, &n)[ref.index];
        g_autofree char *escaped = g_markup_escape_text (a->text ? a->text : "", -1);
        name = kymo_trace_get_name (trace, a->name);
        g_string_append_printf (text, "<b>%s</b>\n%s\n", name, escaped);
        g_string_append_printf (text, _("Start: %s"), start_text);
        g_string_append_c (text, '\n');
        g_string_append_printf (text, _("Duration: %s"), duration);
        break;
      }
    case KYMO_EVENT_KIND_NONE:
    default:
      break;
    }

  {
    g_autofree char *track_name = g_markup_escape_text (kymo_track_get_name (track), -1);
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("Track: %s"), track_name);
  }
  /* Names come from the trace: never let them be read as markup. */
  if (*name)
    {
      g_autofree char *escaped = g_markup_escape_text (name, -1);
      g_autofree char *bold = g_strdup_printf ("<b>%s</b>", name);
      g_autofree char *safe = g_strdup_printf ("<b>%s</b>", escaped);
      char *pos = strstr (text->str, bold);
      if (pos)
        {
          gssize at = pos - text->str;
          g_string_erase (text, at, strlen (bold));
          g_string_insert (text, at, safe);
        }
    }
  return g_string_free (text, FALSE);
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

/* ------------------------------------------------------------- input */

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
  viewport_init (self, &viewport);
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
}

static void
on_leave (GtkEventControllerMotion *controller,
          KymoTimeline             *self)
{
  self->has_pointer = FALSE;
  update_hover (self);
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

  stop_kinetic (self);
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
  stop_kinetic (self);
  self->kinetic_vx = vx;
  self->kinetic_vy = vy;
  self->kinetic_last = g_get_monotonic_time ();
  self->kinetic_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), kinetic_tick, NULL, NULL);
}

static void
on_scroll_begin (GtkEventControllerScroll *controller,
                 KymoTimeline             *self)
{
  stop_kinetic (self);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               KymoTimeline   *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  stop_kinetic (self);
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
  viewport_init (self, &viewport);
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

  stop_kinetic (self);
  begin_navigation (self);
  if (!gtk_gesture_get_bounding_box_center (gesture, &x, &y))
    x = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
  self->pinch_anchor = time_at (self, x);
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

  stop_kinetic (self);
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

static void
kymo_timeline_init (KymoTimeline *self)
{
  GtkEventController *controller;
  GtkGesture *gesture;

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
