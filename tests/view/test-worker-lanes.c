/* test-worker-lanes.c: Tokio worker lanes — on-CPU band, wake markers, collapsible runtimes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "kymo-session.h"
#include "kymo-timeline.h"
#include "kymo-timeline-export.h"
#include "kymo-timeline-heat.h"
#include "kymo-timeline-lanes.h"
#include "kymo-timeline-layout.h"
#include "kymo-track-list.h"
#include "kymo-track-row.h"
#include "details/kymo-details-pane.h"
#include "dial9/kymo-dial9-analysis.h"
#include "kymo-test-widget.h"
#include "../dial9/dial9-lanes-scenario.h"

#define WIDTH 1000
#define HEIGHT 700

/* The x of @us µs; the session keeps the visible range near the trace. */
static int
x_in (KymoSession *session,
      int          width,
      gint64       us)
{
  KymoTime t0, t1;

  kymo_session_get_visible_range (session, &t0, &t1);
  return (int) floor ((double) (us * D9L_US - t0) * width / (double) (t1 - t0));
}

#define x_at_us(session, us) x_in ((session), WIDTH, (us))

static KymoTrace *
make_trace (void)
{
  g_autoptr(GByteArray) b = d9l_scenario ();
  g_autoptr(GBytes) bytes = g_bytes_new (b->data, b->len);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "lanes.bin");
  g_autoptr(GError) error = NULL;
  KymoLoadOptions options = { .format = "dial9" };
  KymoTrace *trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return trace;
}

/* The top of depth 0 of @track's row, in widget coordinates. */
static int
lane_top (KymoSession *session,
          guint        track)
{
  g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
  int r = kymo_timeline_layout_find_track (layout, track);
  const KymoTimelineRow *row;

  g_assert_cmpint (r, >=, 0);
  row = kymo_timeline_layout_get_row (layout, r);
  return KYMO_TIMELINE_RULER_HEIGHT + row->y + row->lanes_y;
}

typedef struct {
  guint8 *data;
  gsize   stride;
} Pixels;

static void
rgb (const Pixels *p,
     int           x,
     int           y,
     int          *r,
     int          *g,
     int          *b)
{
  const guint8 *px = p->data + y * p->stride + x * 4;

  /* GDK_MEMORY_DEFAULT is B8G8R8A8_PREMULTIPLIED; everything here is opaque. */
  *b = px[0];
  *g = px[1];
  *r = px[2];
}

static void
assert_colour (const Pixels  *p,
               int            x,
               int            y,
               const GdkRGBA *want)
{
  int r, g, b;

  rgb (p, x, y, &r, &g, &b);
  g_test_message ("(%d, %d): %d %d %d, want %.0f %.0f %.0f", x, y, r, g, b,
                  want->red * 255, want->green * 255, want->blue * 255);
  g_assert_cmpint (ABS (r - (int) lround (want->red * 255)), <=, 1);
  g_assert_cmpint (ABS (g - (int) lround (want->green * 255)), <=, 1);
  g_assert_cmpint (ABS (b - (int) lround (want->blue * 255)), <=, 1);
}

static gboolean
is_accent (const Pixels *p,
           int           x,
           int           y)
{
  int r, g, b;

  rgb (p, x, y, &r, &g, &b);
  g_test_message ("(%d, %d): %d %d %d", x, y, r, g, b);
  return b > r + 60 && b > g + 30;
}

static Pixels
render_export (KymoSession *session)
{
  g_autoptr(GskRenderNode) node = kymo_timeline_export_to_node (session, WIDTH, HEIGHT, FALSE, NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, "worker-lanes-band.png", NULL);
  Pixels p;

  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  cairo_surface_write_to_png (surface, path);
  p.stride = cairo_image_surface_get_stride (surface);
  p.data = g_memdup2 (cairo_image_surface_get_data (surface), p.stride * HEIGHT);
  cairo_surface_destroy (surface);
  return p;
}

/* The band above each worker's polls takes the colour of the known share
 * of each active period; parked time has no band. */
static void
test_cpu_band (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  guint w0 = d9l_find_track (trace, "worker 0"), w1 = d9l_find_track (trace, "worker 1"), w2 = d9l_find_track (trace, "worker 2");
  KymoTimelineCpu cpu;
  GdkRGBA fg = { 0, 0, 0, 1 }, background = { 1, 1, 1, 1 };
  Pixels p;
  int y0, y1, y2;

  kymo_session_set_visible_range (session, 0, 5000 * D9L_US);
  kymo_timeline_cpu_init (&cpu, FALSE, &fg, &fg);
  p = render_export (session);
  y0 = lane_top (session, w0) - KYMO_TIMELINE_CPU_BAND + 2;
  y1 = lane_top (session, w1) - KYMO_TIMELINE_CPU_BAND + 2;
  y2 = lane_top (session, w2) - KYMO_TIMELINE_CPU_BAND + 2;

  assert_colour (&p, x_at_us (session, 1500), y0, kymo_timeline_cpu_colour (&cpu, 0.25));
  assert_colour (&p, x_at_us (session, 3500), y0, kymo_timeline_cpu_colour (&cpu, 0.75));
  assert_colour (&p, x_at_us (session, 2000), y1, kymo_timeline_cpu_colour (&cpu, 1.0));
  assert_colour (&p, x_at_us (session, 1500), y2, kymo_timeline_cpu_colour (&cpu, 0.0));
  /* Worker 0 is parked 2–3 ms: the background shows */
  assert_colour (&p, x_at_us (session, 2300), y0, &background);
  /* The shades differ: 25 % is not 75 % */
  g_assert_false (gdk_rgba_equal (kymo_timeline_cpu_colour (&cpu, 0.25), kymo_timeline_cpu_colour (&cpu, 0.75)));
  g_free (p.data);
}

static gboolean
is_laid_out (gpointer widget)
{
  return gtk_widget_get_width (gtk_widget_get_ancestor (widget, GTK_TYPE_WINDOW)) >= WIDTH;
}

static GtkWidget *
show (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), WIDTH, HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  kymo_test_wait_until (kymo_test_is_mapped, child);
  kymo_test_wait_until (is_laid_out, child);
  return window;
}

/* What the window last drew of @widget. */
static Pixels
screenshot (GtkWidget  *widget,
            const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  Pixels p;

  kymo_test_wait_for_frame (widget);
  kymo_test_wait_for_frame (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  gdk_texture_save_to_png (texture, path);
  p.stride = (gsize) w * 4;
  p.data = g_malloc (p.stride * h);
  gdk_texture_download (texture, p.data, p.stride);
  return p;
}

static gboolean
analysis_ready (gpointer data)
{
  return kymo_dial9_analysis_get_ready (data);
}

/* A task picked before its polls are placed is selected once they are. */
static gboolean
task_selected (gpointer data)
{
  return kymo_dial9_analysis_get_selected_task (data) != KYMO_DIAL9_NO_TASK;
}

/* Selecting task 1 marks its wake (by task 2, at 2.5 ms) on the lane it
 * was next polled on (worker 0) and on the waker's lane (worker 1). */
static void
test_wake_markers (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *timeline = kymo_timeline_new (session);
  GtkWidget *window = show (timeline);
  KymoDial9Analysis *analysis = kymo_dial9_analysis_get (session);
  KymoDial9Tasks *tasks;
  const KymoDial9Task *rows;
  guint w0 = d9l_find_track (trace, "worker 0"), w1 = d9l_find_track (trace, "worker 1"), w2 = d9l_find_track (trace, "worker 2");
  guint task1 = G_MAXUINT;
  int x, y0, y1, y2;
  Pixels before, after;
  gsize n;

  g_assert_cmpint (gtk_widget_get_width (timeline), ==, WIDTH);
  kymo_session_set_visible_range (session, 0, 5000 * D9L_US);
  x = x_at_us (session, 2500);
  kymo_test_wait_until (analysis_ready, analysis);
  tasks = kymo_dial9_analysis_get_tasks (analysis);
  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  for (guint i = 0; i < n; i++)
    if (rows[i].task_id == 1)
      task1 = i;
  g_assert_cmpuint (task1, !=, G_MAXUINT);
  y0 = lane_top (session, w0) + 2;
  y1 = lane_top (session, w1) + KYMO_TIMELINE_LANE_HEIGHT - 2;
  y2 = lane_top (session, w2) + 2;

  /* Tooltips: the share of the period under the band, and of the worker
   * over its title */
  {
    g_autofree char *band = kymo_timeline_describe_at (KYMO_TIMELINE (timeline), x_at_us (session, 1500),
                                                       lane_top (session, w0) - KYMO_TIMELINE_CPU_BAND / 2);
    g_autofree char *title = kymo_timeline_describe_at (KYMO_TIMELINE (timeline), 300,
                                                        lane_top (session, w0) - KYMO_TIMELINE_CPU_BAND
                                                        - KYMO_TIMELINE_INSTANT_STRIP - 4);

    g_assert_nonnull (band);
    g_assert_nonnull (strstr (band, "On CPU 25 % of its 1 ms active period"));
    g_assert_nonnull (title);
    g_assert_nonnull (strstr (title, "On CPU 50 % of its active time (1 ms of 2 ms)"));
  }

  before = screenshot (timeline, "worker-lanes-before.png");
  g_assert_false (is_accent (&before, x, y0));
  g_assert_false (is_accent (&before, x, y1));

  kymo_dial9_analysis_set_selected_task (analysis, task1);
  kymo_test_wait_until (task_selected, analysis);
  g_assert_cmpuint (kymo_dial9_analysis_get_selected_task (analysis), ==, task1);
  after = screenshot (timeline, "worker-lanes-wakes.png");
  g_assert_true (is_accent (&after, x, y0));
  g_assert_true (is_accent (&after, x, y1));
  /* The wait from the wake to the poll at 3.1 ms is drawn along the lane */
  g_assert_true (is_accent (&after, x_at_us (session, 2800), lane_top (session, w0) + 2));
  /* Not on a lane the wake did not touch, nor before the wake */
  g_assert_false (is_accent (&after, x, y2));
  g_assert_false (is_accent (&after, x_at_us (session, 2200), y0));

  kymo_dial9_analysis_set_selected_task (analysis, KYMO_DIAL9_NO_TASK);
  g_free (after.data);
  after = screenshot (timeline, "worker-lanes-cleared.png");
  g_assert_false (is_accent (&after, x, y0));
  g_free (before.data);
  g_free (after.data);
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
find_expander (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_TOGGLE_BUTTON (child) && gtk_widget_get_can_target (child) &&
          g_strcmp0 (gtk_button_get_icon_name (GTK_BUTTON (child)), "pan-down-symbolic") == 0)
        return child;
      if ((found = find_expander (child)) != NULL)
        return found;
    }
  return NULL;
}

static guint
list_position (GListModel *model,
               guint       track)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(KymoTrackRow) row = g_list_model_get_item (model, i);
      if (kymo_track_row_get_track (row) == track)
        return i;
    }
  return G_MAXUINT;
}

/* Collapsing a runtime group, by a click on its expander in the track list
 * or with the keyboard, removes its lanes from the list and the timeline;
 * the lanes below move up by the room they took. */
static void
test_collapse_group (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  GtkWidget *list = kymo_track_list_new (session);
  GtkWidget *timeline = kymo_timeline_new (session);
  GtkWidget *window;
  GListModel *model = kymo_track_list_get_model (KYMO_TRACK_LIST (list));
  guint alpha = d9l_find_track (trace, "alpha"), w0 = d9l_find_track (trace, "worker 0"), w2 = d9l_find_track (trace, "worker 2");
  GtkSingleSelection *selection;
  GtkWidget *expander, *view;
  int top_w2, y_poll, removed = 0;
  guint n_listed;
  Pixels before, after;
  int r0, g0, b0, r1, g1, b1;

  gtk_widget_set_size_request (list, 250, -1);
  gtk_widget_set_hexpand (timeline, TRUE);
  gtk_box_append (GTK_BOX (box), list);
  gtk_box_append (GTK_BOX (box), timeline);
  window = show (box);
  kymo_session_set_visible_range (session, 0, 5000 * D9L_US);
  kymo_test_wait_for_frame (timeline);

  n_listed = g_list_model_get_n_items (model);
  top_w2 = lane_top (session, w2);
  /* Worker 2's poll of task 3 (1.5–1.7 ms), middle of the lane */
  y_poll = top_w2 + KYMO_TIMELINE_LANE_HEIGHT / 2;
  before = screenshot (timeline, "worker-lanes-expanded.png");
  {
    g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);

    for (guint i = 0; i < kymo_timeline_layout_get_n_rows (layout); i++)
      {
        const KymoTimelineRow *row = kymo_timeline_layout_get_row (layout, i);
        if (kymo_track_get_parent (kymo_trace_get_track (trace, row->track)) == alpha)
          removed += row->height;
      }
    g_assert_cmpint (removed, >, 0);
  }

  /* A click on the first group's expander */
  expander = find_expander (list);
  g_assert_nonnull (expander);
  g_signal_emit_by_name (expander, "clicked");
  g_assert_true (kymo_session_get_group_collapsed (session, alpha));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_listed - 4);
  g_assert_cmpuint (list_position (model, w0), ==, G_MAXUINT);
  {
    g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
    const KymoTimelineRow *alpha_row = kymo_timeline_layout_get_row (layout, kymo_timeline_layout_find_track (layout, alpha));

    g_assert_cmpint (kymo_timeline_layout_find_track (layout, w0), ==, -1);
    g_assert_true (alpha_row->collapsed);
    /* Worker 2 moved up by exactly the room alpha's tracks took */
    g_assert_cmpint (lane_top (session, w2), ==, top_w2 - removed);
  }
  after = screenshot (timeline, "worker-lanes-collapsed.png");
  /* The pixels of worker 2's poll moved up with it */
  rgb (&before, x_in (session, gtk_widget_get_width (timeline), 1600), y_poll, &r0, &g0, &b0);
  rgb (&after, x_in (session, gtk_widget_get_width (timeline), 1600), lane_top (session, w2) + KYMO_TIMELINE_LANE_HEIGHT / 2, &r1, &g1, &b1);
  /* (the poll's heat colour, not the parked grey or the background) */
  g_assert_cmpint (g0, >, b0 + 60);
  g_assert_cmpint (r0, ==, r1);
  g_assert_cmpint (g0, ==, g1);
  g_assert_cmpint (b0, ==, b1);
  g_free (before.data);
  g_free (after.data);

  /* The keyboard: Right on the selected group expands it, Left on one of
   * its tracks goes to the group, Left again collapses it */
  view = kymo_test_find_descendant (list, GTK_TYPE_LIST_VIEW);
  selection = GTK_SINGLE_SELECTION (gtk_list_view_get_model (GTK_LIST_VIEW (view)));
  gtk_single_selection_set_selected (selection, list_position (model, alpha));
  g_assert_true (gtk_widget_activate_action (list, "tracklist.expand-group", NULL));
  g_assert_false (kymo_session_get_group_collapsed (session, alpha));
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_listed);
  g_assert_cmpint (lane_top (session, w2), ==, top_w2);
  gtk_single_selection_set_selected (selection, list_position (model, w0));
  g_assert_true (gtk_widget_activate_action (list, "tracklist.collapse-group", NULL));
  g_assert_false (kymo_session_get_group_collapsed (session, alpha));
  g_assert_cmpuint (gtk_single_selection_get_selected (selection), ==, list_position (model, alpha));
  g_assert_true (gtk_widget_activate_action (list, "tracklist.collapse-group", NULL));
  g_assert_true (kymo_session_get_group_collapsed (session, alpha));

  /* The timeline's group header toggles the same state */
  {
    g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
    g_assert_cmpint (kymo_timeline_layout_find_track (layout, w0), ==, -1);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The value next to the key @key (a key and its value are siblings). */
static const char *
value_of (GtkWidget  *root,
          const char *key)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), key) == 0)
    {
      GtkWidget *value = gtk_widget_get_next_sibling (root);
      return GTK_IS_LABEL (value) ? gtk_label_get_text (GTK_LABEL (value)) : NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      const char *found = value_of (child, key);
      if (found)
        return found;
    }
  return NULL;
}

/* A selected poll's details tell the active period it ran in and how much
 * of it the worker's thread was on a CPU. */
static void
test_period_details (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *pane = kymo_details_pane_new (session);
  GtkWidget *window = show (pane);
  KymoDial9Analysis *analysis = kymo_dial9_analysis_get (session);
  guint w0 = d9l_find_track (trace, "worker 0");
  KymoEventRef ref = { w0, KYMO_EVENT_KIND_SPAN, 0 };

  kymo_test_wait_until (analysis_ready, analysis);
  ref.index = kymo_track_find_span_at (kymo_trace_get_track (trace, w0), 0, 1300 * D9L_US);
  g_assert_cmpuint (ref.index, !=, G_MAXUINT32);
  kymo_session_select_event (session, &ref);
  kymo_test_spin ();
  g_assert_cmpstr (value_of (pane, "On CPU"), ==, "25 % (250 µs)");
  g_assert_cmpstr (value_of (pane, "Worker"), ==, "50 % of its active time");

  /* Parked time is no active period */
  ref.index = kymo_track_find_span_at (kymo_trace_get_track (trace, w0), 0, 2500 * D9L_US);
  kymo_session_select_event (session, &ref);
  kymo_test_spin ();
  g_assert_null (value_of (pane, "On CPU"));
  gtk_window_destroy (GTK_WINDOW (window));
}

static int
saturation (const Pixels *p,
            int           x,
            int           y)
{
  int r, g, b;

  rgb (p, x, y, &r, &g, &b);
  return MAX (r, MAX (g, b)) - MIN (r, MIN (g, b));
}

static void
move_pointer (GtkWidget *widget,
              double     x,
              double     y)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_EVENT_CONTROLLER_MOTION (controller))
        continue;
      if (x < 0)
        g_signal_emit_by_name (controller, "leave");
      else
        g_signal_emit_by_name (controller, "motion", x, y);
      return;
    }
  g_assert_not_reached ();
}

/* The legends in the bottom right corner hide what is under them: with the
 * pointer on them they all but fade, and come back when it leaves. */
static void
test_legend_fades_under_pointer (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *timeline = kymo_timeline_new (session);
  GtkWidget *window = show (timeline);
  int w = gtk_widget_get_width (timeline), h = gtk_widget_get_height (timeline);
  int bx = -1, by = -1;
  Pixels p;

  /* A pixel of the poll scale's colour bar, near the bottom right. */
  p = screenshot (timeline, "worker-lanes-legend.png");
  for (int y = h - 80; y < h - 8 && bx < 0; y++)
    for (int x = w - 60; x > w - KYMO_TIMELINE_SCALE_WIDTH && bx < 0; x--)
      if (saturation (&p, x, y) > 120)
        {
          bx = x;
          by = y;
        }
  g_free (p.data);
  g_assert_cmpint (bx, >=, 0);

  move_pointer (timeline, bx, by);
  p = screenshot (timeline, "worker-lanes-legend-faded.png");
  g_assert_cmpint (saturation (&p, bx, by), <, 40);
  g_free (p.data);

  move_pointer (timeline, -1, -1);
  p = screenshot (timeline, "worker-lanes-legend.png");
  g_assert_cmpint (saturation (&p, bx, by), >, 120);
  g_free (p.data);

  /* Elsewhere the pointer leaves the legends as they are. */
  move_pointer (timeline, 10, h / 2.0);
  p = screenshot (timeline, "worker-lanes-legend.png");
  g_assert_cmpint (saturation (&p, bx, by), >, 120);
  g_free (p.data);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_test_add_func ("/worker-lanes/cpu-band", test_cpu_band);
  g_test_add_func ("/worker-lanes/wake-markers", test_wake_markers);
  g_test_add_func ("/worker-lanes/collapse-group", test_collapse_group);
  g_test_add_func ("/worker-lanes/period-details", test_period_details);
  g_test_add_func ("/worker-lanes/legend-fades-under-pointer", test_legend_fades_under_pointer);
  return g_test_run ();
}
