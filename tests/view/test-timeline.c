/* test-timeline.c: what the timeline draws, offscreen and in a window
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "kymo-session.h"
#include "kymo-timeline.h"
#include "kymo-timeline-export.h"
#include "kymo-timeline-layout.h"
#include "kymo-trace-view.h"

#define MS 1000000LL
#define WIDTH 1000
#define HEIGHT 300

/* One thread with "work" at 100..200 ms and "inner" at 120..150 ms (depth 1),
 * over a trace that runs 0..1000 ms. */
static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint group = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "app");
  guint main_id = kymo_trace_add_track (trace, group, KYMO_TRACK_THREAD, "main");
  guint counter = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_COUNTER, "memory");
  guint marks = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_MARKER, "marks");
  KymoTrack *track = kymo_trace_get_track (trace, main_id);

  kymo_track_set_group_kind (kymo_trace_get_track (trace, group), "process");
  kymo_track_add_span (track, 100 * MS, 200 * MS, kymo_trace_intern (trace, "work"), 0, 0, 0);
  kymo_track_add_span (track, 120 * MS, 150 * MS, kymo_trace_intern (trace, "inner"), 1, 0, 1);
  kymo_track_add_span (track, 600 * MS, 1000 * MS, kymo_trace_intern (trace, "never ends"), 0,
                       KYMO_EVENT_INCOMPLETE, 2);
  kymo_track_add_instant (track, 400 * MS, kymo_trace_intern (trace, "tick"), 0, 3);
  for (int i = 0; i <= 100; i++)
    kymo_track_add_sample (kymo_trace_get_track (trace, counter), i * 10 * MS, i % 7 == 0 ? 9 : i % 3);
  kymo_track_add_annotation (kymo_trace_get_track (trace, marks), 300 * MS, 300 * MS,
                             kymo_trace_intern (trace, "mark"), "frame start", 4);
  kymo_track_add_annotation (kymo_trace_get_track (trace, marks), 700 * MS, 850 * MS,
                             kymo_trace_intern (trace, "range"), "loading", 5);
  kymo_trace_add_flow (trace, main_id, 400 * MS, main_id, 600 * MS, kymo_trace_intern (trace, "flow"), 6);
  kymo_trace_set_time_range (trace, 0, 1000 * MS);
  kymo_trace_seal (trace);
  return trace;
}

/* The y of the middle of depth @depth of the row showing @track. */
static int
lane_y (KymoSession *session,
        guint        track,
        guint        depth)
{
  g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
  int r = kymo_timeline_layout_find_track (layout, track);
  const KymoTimelineRow *row;

  g_assert_cmpint (r, >=, 0);
  row = kymo_timeline_layout_get_row (layout, r);
  return KYMO_TIMELINE_RULER_HEIGHT + row->y + row->lanes_y + depth * KYMO_TIMELINE_LANE_HEIGHT
         + KYMO_TIMELINE_LANE_HEIGHT / 2;
}

typedef struct {
  guint8 *data;
  gsize   stride;
} Pixels;

static guint32
pixel (const Pixels *p,
       int           x,
       int           y)
{
  const guint8 *px = p->data + y * p->stride + x * 4;
  /* BGRA in memory either way (cairo ARGB32 / GDK B8G8R8A8_PREMULTIPLIED) */
  return (px[2] << 16) | (px[1] << 8) | px[0];
}

static char *
build_path (const char *name)
{
  return g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", name, NULL);
}

/* Span pixels where the span is, background where it is not. */
static void
check_span_pixels (const Pixels *p,
                   KymoSession  *session)
{
  int y0 = lane_y (session, 1, 0), y1 = lane_y (session, 1, 1);
  guint32 bg = pixel (p, 50, y0);

  /* 1000 px for 0..1000 ms: work covers x 100..200, inner 120..150 */
  g_assert_cmphex (pixel (p, 150, y0), !=, bg);
  g_assert_cmphex (pixel (p, 110, y0), !=, bg);
  g_assert_cmphex (pixel (p, 190, y0), !=, bg);
  g_assert_cmphex (pixel (p, 95, y0), ==, bg);
  g_assert_cmphex (pixel (p, 205, y0), ==, bg);
  g_assert_cmphex (pixel (p, 320, y0), ==, bg);
  g_assert_cmphex (pixel (p, 135, y1), !=, bg);
  g_assert_cmphex (pixel (p, 115, y1), ==, bg);
  g_assert_cmphex (pixel (p, 160, y1), ==, bg);
  /* work and inner have different names: most likely different colours */
  g_assert_cmphex (pixel (p, 110, y0), !=, pixel (p, 135, y1));
}

static void
test_offscreen_render (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  g_autoptr(GskRenderNode) node = NULL;
  g_autofree char *png = build_path ("timeline-offscreen.png");
  g_autofree char *svg = build_path ("timeline-offscreen.svg");
  g_autoptr(GError) error = NULL;
  int height = kymo_timeline_export_natural_height (session);
  cairo_surface_t *surface;
  cairo_t *cr;
  Pixels p;

  kymo_session_set_visible_range (session, 0, 1000 * MS);
  node = kymo_timeline_export_to_node (session, WIDTH, height, FALSE, NULL);
  g_assert_nonnull (node);
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, height);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  p.data = cairo_image_surface_get_data (surface);
  p.stride = cairo_image_surface_get_stride (surface);
  check_span_pixels (&p, session);
  cairo_surface_destroy (surface);

  g_assert_true (kymo_timeline_export_to_file (session, WIDTH, height, FALSE, png, &error));
  g_assert_no_error (error);
  g_assert_true (kymo_timeline_export_to_file (session, WIDTH, height, TRUE, svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_test (svg, G_FILE_TEST_IS_REGULAR));
  g_test_message ("wrote %s and %s", png, svg);

  {
    g_autofree char *dark = build_path ("timeline-offscreen-dark.png");
    g_assert_true (kymo_timeline_export_to_file (session, WIDTH, height, TRUE, dark, &error));
  }
}

static void
test_level_of_detail (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "busy");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  guint32 names[3] = { kymo_trace_intern (trace, "a"), kymo_trace_intern (trace, "b"), kymo_trace_intern (trace, "c") };
  g_autoptr(KymoSession) session = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autofree char *png = build_path ("timeline-lod.png");
  KymoTimelineStats stats;
  const guint n = 100000;

  /* 100k spans of 100 ns, one per µs, in two bursts 50 ms apart. */
  for (guint i = 0; i < n; i++)
    {
      KymoTime start = (KymoTime) i * 1000 + (i >= n / 2 ? 50 * MS : 0);
      kymo_track_add_span (track, start, start + 100, names[i % 3], 0, 0, i);
    }
  kymo_trace_set_time_range (trace, 0, 200 * MS);
  kymo_trace_seal (trace);
  session = kymo_session_new (trace);
  kymo_session_set_visible_range (session, 0, 200 * MS);

  node = kymo_timeline_export_to_node (session, WIDTH, 80, FALSE, &stats);
  g_assert_nonnull (node);
  /* Far fewer reads than spans: one summary per block of spans. */
  g_test_message ("touched %" G_GUINT64_FORMAT " spans, %" G_GUINT64_FORMAT " merged boxes, %"
                  G_GUINT64_FORMAT " single boxes", stats.spans_touched, stats.merged_boxes, stats.spans_drawn);
  g_assert_cmpuint (stats.spans_touched, <, n / 20);
  g_assert_cmpuint (stats.merged_boxes, >=, 2);
  g_assert_cmpuint (stats.merged_boxes, <=, 4);
  g_assert_cmpuint (stats.spans_drawn, ==, 0);

  {
    g_autoptr(GError) error = NULL;
    int y = lane_y (session, id, 0);
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, 80);
    cairo_t *cr = cairo_create (surface);
    Pixels p;

    gsk_render_node_draw (node, cr);
    cairo_destroy (cr);
    cairo_surface_flush (surface);
    p.data = cairo_image_surface_get_data (surface);
    p.stride = cairo_image_surface_get_stride (surface);
    /* bursts at 0..50 ms (x 0..250) and 100..150 ms (x 500..750), nothing between */
    g_assert_cmphex (pixel (&p, 130, y), !=, pixel (&p, 910, y));
    g_assert_cmphex (pixel (&p, 630, y), !=, pixel (&p, 910, y));
    g_assert_cmphex (pixel (&p, 390, y), ==, pixel (&p, 910, y));
    cairo_surface_destroy (surface);
    g_assert_true (kymo_timeline_export_to_file (session, WIDTH, 80, FALSE, png, &error));
  }

  /* Zoomed in to 20 µs: real boxes, no merging. */
  kymo_session_set_visible_range (session, 10000, 30000);
  g_clear_pointer (&node, gsk_render_node_unref);
  node = kymo_timeline_export_to_node (session, WIDTH, 80, FALSE, &stats);
  g_assert_cmpuint (stats.merged_boxes, ==, 0);
  g_assert_cmpuint (stats.spans_drawn, >=, 19);
  g_assert_cmpuint (stats.spans_drawn, <=, 22);
}

static void
test_wallclock_ruler (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "main");
  g_autoptr(KymoSession) session = NULL;
  g_autoptr(GskRenderNode) relative = NULL;
  g_autoptr(GskRenderNode) wallclock = NULL;
  g_autofree char *png = build_path ("timeline-wallclock.png");
  g_autoptr(GError) error = NULL;

  kymo_track_add_span (kymo_trace_get_track (trace, id), 0, 2000 * MS, kymo_trace_intern (trace, "a"), 0, 0, 0);
  /* 2026-01-01 12:00:00 UTC */
  kymo_trace_set_wallclock (trace, 0, G_GINT64_CONSTANT (1767268800) * 1000000000);
  kymo_trace_seal (trace);
  session = kymo_session_new (trace);
  relative = kymo_timeline_export_to_node (session, WIDTH, 80, FALSE, NULL);
  kymo_session_set_wallclock (session, TRUE);
  wallclock = kymo_timeline_export_to_node (session, WIDTH, 80, FALSE, NULL);
  /* Same spans, different tick labels: the ruler differs, the tracks do not. */
  {
    cairo_surface_t *a = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, 80);
    cairo_surface_t *b = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, 80);
    cairo_t *cr;
    gsize stride = cairo_image_surface_get_stride (a);

    cr = cairo_create (a);
    gsk_render_node_draw (relative, cr);
    cairo_destroy (cr);
    cr = cairo_create (b);
    gsk_render_node_draw (wallclock, cr);
    cairo_destroy (cr);
    cairo_surface_flush (a);
    cairo_surface_flush (b);
    g_assert_true (memcmp (cairo_image_surface_get_data (a), cairo_image_surface_get_data (b),
                           stride * KYMO_TIMELINE_RULER_HEIGHT) != 0);
    g_assert_true (memcmp (cairo_image_surface_get_data (a) + stride * KYMO_TIMELINE_RULER_HEIGHT,
                           cairo_image_surface_get_data (b) + stride * KYMO_TIMELINE_RULER_HEIGHT,
                           stride * (80 - KYMO_TIMELINE_RULER_HEIGHT)) == 0);
    cairo_surface_destroy (a);
    cairo_surface_destroy (b);
  }
  g_assert_true (kymo_timeline_export_to_file (session, WIDTH, 80, FALSE, png, &error));
  g_assert_no_error (error);
}

/* ---------------------------------------------------------------- widget */

static GtkWidget *
show_window (GtkWidget *child,
             int        width,
             int        height)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  /* Wait until laid out at its final size. */
  for (int i = 0; i < 200 && (gtk_widget_get_width (child) < width / 2 || !gtk_widget_get_mapped (child)); i++)
    {
      g_usleep (5000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  /* and until a frame has been painted */
  for (int i = 0; i < 40; i++)
    {
      g_usleep (5000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  g_test_message ("window child %d×%d, mapped %d", gtk_widget_get_width (child),
                  gtk_widget_get_height (child), gtk_widget_get_mapped (child));
  return window;
}

static GdkTexture *
screenshot (GtkWidget  *widget,
            GtkWidget  *window,
            const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autofree char *path = build_path (name);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  GdkTexture *texture;

  /* Let pending redraws happen first: the paintable shows the last frame. */
  for (int i = 0; i < 20; i++)
    {
      g_usleep (5000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  gdk_texture_save_to_png (texture, path);
  g_test_message ("wrote %s", path);
  return texture;
}

static void
test_widget_screenshot (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *timeline = kymo_timeline_new (session);
  GtkWidget *window = show_window (timeline, WIDTH, HEIGHT);
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree guint8 *data = NULL;
  Pixels p;

  g_assert_cmpint (gtk_widget_get_width (timeline), ==, WIDTH);
  kymo_session_set_visible_range (session, 0, 1000 * MS);
  texture = screenshot (timeline, window, "timeline-widget.png");
  p.stride = gdk_texture_get_width (texture) * 4;
  data = g_malloc (p.stride * gdk_texture_get_height (texture));
  gdk_texture_download (texture, data, p.stride);
  p.data = data;
  check_span_pixels (&p, session);
  /* Drawn on the widget: the last frame touched only a few spans. */
  g_assert_cmpuint (kymo_timeline_get_stats (KYMO_TIMELINE (timeline))->spans_touched, <, 20);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_widget_actions (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *timeline = kymo_timeline_new (session);
  GtkWidget *window = show_window (timeline, WIDTH, HEIGHT);
  KymoTime t0, t1, full0, full1;

  kymo_session_zoom_to (session, 0, 1000 * MS);

  /* + zooms in around the middle (no pointer) by 1.25 */
  g_assert_true (gtk_widget_activate_action (timeline, "timeline.zoom-in", NULL));
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 100 * MS);
  g_assert_cmpint (t1, ==, 900 * MS);

  /* − zooms back out */
  gtk_widget_activate_action (timeline, "timeline.zoom-out", NULL);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 0);
  g_assert_cmpint (t1, ==, 1000 * MS);

  /* D pans right by 15 % of the width, A back */
  gtk_widget_activate_action (timeline, "timeline.zoom-in", NULL);
  gtk_widget_activate_action (timeline, "timeline.pan-right", NULL);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 220 * MS);
  g_assert_cmpint (t1, ==, 1020 * MS);
  gtk_widget_activate_action (timeline, "timeline.pan-left", NULL);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 100 * MS);

  /* Home fits everything; Alt+Left returns to where we were. */
  gtk_widget_activate_action (timeline, "timeline.fit-all", NULL);
  kymo_session_get_full_range (session, &full0, &full1);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, full0);
  g_assert_cmpint (t1, ==, full1);
  gtk_widget_activate_action (timeline, "timeline.back", NULL);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 100 * MS);
  g_assert_cmpint (t1, ==, 900 * MS);
  gtk_widget_activate_action (timeline, "timeline.forward", NULL);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, full0);

  /* F fits the selected time range. */
  kymo_session_set_selected_range (session, 400 * MS, 500 * MS);
  gtk_widget_activate_action (timeline, "timeline.fit-selection", NULL);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, <, 400 * MS);
  g_assert_cmpint (t0, >, 390 * MS);
  g_assert_cmpint (t1, >, 500 * MS);
  g_assert_cmpint (t1, <, 510 * MS);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_widget_pick_and_tooltip (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *timeline = kymo_timeline_new (session);
  GtkWidget *window = show_window (timeline, WIDTH, HEIGHT);
  g_autofree char *text = NULL;
  g_autofree char *nothing = NULL;

  kymo_session_set_visible_range (session, 0, 1000 * MS);
  text = kymo_timeline_describe_at (KYMO_TIMELINE (timeline), 135, lane_y (session, 1, 1));
  g_assert_nonnull (text);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "inner"));
  g_assert_nonnull (strstr (text, "30 ms"));
  g_assert_nonnull (strstr (text, "Depth: 1"));
  g_assert_nonnull (strstr (text, "main"));
  nothing = kymo_timeline_describe_at (KYMO_TIMELINE (timeline), 300, lane_y (session, 1, 0));
  g_assert_null (nothing);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_trace_view_screenshot (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  GtkWidget *view = kymo_trace_view_new (trace);
  GtkWidget *window = show_window (view, 1280, 400);
  KymoSession *session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (view));
  KymoEventRef ref = { 1, KYMO_EVENT_KIND_SPAN, 0 };
  g_autoptr(GdkTexture) texture = NULL;

  kymo_session_set_visible_range (session, 0, 1000 * MS);
  kymo_session_select_event (session, &ref);
  kymo_session_set_selected_range (session, 450 * MS, 550 * MS);
  kymo_session_set_highlighted_name (session, kymo_trace_intern (trace, "work"));
  kymo_session_set_track_pinned (session, 3, TRUE);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  texture = screenshot (view, window, "trace-view.png");
  g_assert_cmpint (gdk_texture_get_width (texture), ==, gtk_widget_get_width (view));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/timeline/offscreen-render", test_offscreen_render);
  g_test_add_func ("/timeline/level-of-detail", test_level_of_detail);
  g_test_add_func ("/timeline/wallclock-ruler", test_wallclock_ruler);
  g_test_add_func ("/timeline/widget-screenshot", test_widget_screenshot);
  g_test_add_func ("/timeline/widget-actions", test_widget_actions);
  g_test_add_func ("/timeline/pick-and-tooltip", test_widget_pick_and_tooltip);
  g_test_add_func ("/timeline/trace-view", test_trace_view_screenshot);
  return g_test_run ();
}
