/* test-query-view.c: the Query page as a user drives it (Xvfb)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>

#include "details/kymo-details-sidebar.h"
#include "details/kymo-query-view.h"

static void
spin (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Runs the main loop until @done says so; a guard keeps a broken widget
 * from hanging the suite (no timing is asserted). */
static void
spin_until (gboolean (*done) (gpointer), gpointer data)
{
  for (guint i = 0; i < 100000 && !done (data); i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (done (data));
}

static void
on_after_paint (GdkFrameClock *clock,
                gboolean      *painted)
{
  *painted = TRUE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* Waits until the window has drawn a frame with the widget as it is now. */
static void
wait_for_frame (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gboolean painted = FALSE;
  gulong id;

  g_assert_nonnull (clock);
  spin ();
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (widget);
  spin_until (flag_set, &painted);
  g_signal_handler_disconnect (clock, id);
}

/* Saves @widget as it is drawn in its window (over the window's
 * background, so the PNG looks like the screen), and checks it is not blank. */
static void
save_png (GtkWidget  *widget,
          const char *name)
{
  GtkWidget *window = GTK_WIDGET (gtk_widget_get_root (widget));
  graphene_rect_t bounds;
  int w, h;
  /* Made before the frame: the paintable shows what was drawn last. */
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (window);
  GtkSnapshot *snapshot;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, name, NULL);
  g_autofree guint8 *pixels = NULL;
  guint n_colors = 0;
  guint32 first = 0;

  /* The paintable catches up with the widget a frame or so later. */
  for (guint i = 0; i < 50 && node == NULL; i++)
    {
      wait_for_frame (widget);
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (window), gtk_widget_get_height (window));
      node = gtk_snapshot_free_to_node (snapshot);
    }
  g_assert_nonnull (node);
  /* The paintable leaves out the window's own background (Adwaita's). */
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0.98, 0.98, 0.98, 1 },
                             &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (window), gtk_widget_get_height (window)));
  gtk_snapshot_append_node (snapshot, node);
  gsk_render_node_unref (node);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_true (gtk_widget_compute_bounds (widget, window, &bounds));
  w = (int) bounds.size.width;
  h = (int) bounds.size.height;
  g_assert_cmpint (w, >, 0);
  g_assert_cmpint (h, >, 0);
  {
    /* Drawn with cairo directly: the window's renderer may not be cairo. */
    cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create (surface);
    g_autoptr(GBytes) bytes = NULL;

    cairo_translate (cr, -bounds.origin.x, -bounds.origin.y);
    gsk_render_node_draw (node, cr);
    cairo_destroy (cr);
    cairo_surface_flush (surface);
    bytes = g_bytes_new (cairo_image_surface_get_data (surface),
                         (gsize) cairo_image_surface_get_stride (surface) * h);
    texture = gdk_memory_texture_new (w, h, GDK_MEMORY_DEFAULT, bytes, cairo_image_surface_get_stride (surface));
    cairo_surface_destroy (surface);
  }
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);

  pixels = g_malloc ((gsize) w * h * 4);
  gdk_texture_download (texture, pixels, w * 4);
  for (int i = 0; i < w * h; i += 7)
    {
      guint32 px = ((guint32 *) (gpointer) pixels)[i];
      if (i == 0)
        first = px;
      else if (px != first)
        n_colors++;
    }
  g_assert_cmpuint (n_colors, >, 0);
}


static gboolean
not_running (gpointer data)
{
  return !kymo_query_view_is_running (data);
}

static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  const char *names[] = { "poll", "parse_request", "encode", "flush_to_disk" };
  guint tracks[3];

  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *name = g_strdup_printf ("worker %u", t);
      tracks[t] = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, name);
    }
  for (guint i = 0; i < 300; i++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, tracks[i % 3]);
      KymoTime start = i * 10000;
      KymoTime end = start + 1000 + (i * 7919) % 8000;

      kymo_track_add_span (track, start, end, kymo_trace_intern (trace, names[i % 4]), 0, 0, 0);
      kymo_track_add_span (track, start + 100, start + 100 + (end - start) / 2,
                           kymo_trace_intern (trace, names[(i + 1) % 4]), 1, 0, 0);
    }
  kymo_trace_seal (trace);
  return trace;
}

static void
test_query_view_select (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *sidebar = kymo_details_sidebar_new (session);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = NULL;
  GtkWidget *results;
  GListModel *rows;
  const KymoEventRef *selected;
  g_autoptr(GError) error = NULL;
  KymoQuery *query;
  KymoEventRef expected = { 0, KYMO_EVENT_KIND_NONE, 0 };
  GtkWidget *child;

  kymo_details_sidebar_set_page (KYMO_DETAILS_SIDEBAR (sidebar), KYMO_DETAILS_PAGE_QUERY);
  /* The page the sidebar made: the stack's visible child. */
  for (child = gtk_widget_get_first_child (sidebar); child && !view; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_STACK (child))
      view = gtk_stack_get_visible_child (GTK_STACK (child));
  g_assert_true (KYMO_IS_QUERY_VIEW (view));

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 420);
  gtk_window_set_child (GTK_WINDOW (window), sidebar);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 100000 && !gtk_widget_get_mapped (view); i++)
    g_main_context_iteration (NULL, TRUE);

  kymo_query_view_set_text (KYMO_QUERY_VIEW (view),
                            "SELECT id, track, name, start, dur FROM spans\nWHERE depth = 1 ORDER BY dur DESC LIMIT 20");
  /* What Ctrl+Enter triggers in the editor */
  g_assert_true (gtk_widget_activate_action (view, "query.run", NULL));
  spin_until (not_running, view);

  results = kymo_query_view_get_results (KYMO_QUERY_VIEW (view));
  rows = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (results)));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 20);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (GTK_COLUMN_VIEW (results))), ==, 5);
  wait_for_frame (view);
  save_png (view, "query-view.png");

  /* Activating the first row selects the longest depth-1 span */
  g_signal_emit_by_name (results, "activate", 0);
  selected = kymo_session_get_selected_event (session);
  g_assert_nonnull (selected);
  query = kymo_query_new (trace, &error);
  g_assert_no_error (error);
  {
    const KymoSpan *spans;
    gsize n;
    KymoTime longest = -1;

    for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
      {
        KymoTrack *track = kymo_trace_get_track (trace, t);
        gsize first;

        spans = kymo_track_get_depth_spans (track, 1, &n, &first);
        for (gsize i = 0; i < n; i++)
          if (spans[i].end - spans[i].start > longest)
            {
              longest = spans[i].end - spans[i].start;
              expected = (KymoEventRef) { t, KYMO_EVENT_KIND_SPAN, (guint) (first + i) };
            }
      }
  }
  g_assert_cmpuint (selected->track, ==, expected.track);
  g_assert_cmpint (selected->kind, ==, KYMO_EVENT_KIND_SPAN);
  g_assert_cmpuint (selected->index, ==, expected.index);
  kymo_query_free (query);

  /* A syntax error leaves the results and the trace alone */
  kymo_query_view_set_text (KYMO_QUERY_VIEW (view), "SELECT FROM spans");
  g_assert_true (gtk_widget_activate_action (view, "query.run", NULL));
  spin_until (not_running, view);
  g_assert_cmpuint (kymo_session_get_selected_event (session)->index, ==, expected.index);
  wait_for_frame (view);
  save_png (view, "query-view-error.png");

  /* A runaway query: the UI stays live and Cancel ends it */
  kymo_query_view_set_text (KYMO_QUERY_VIEW (view), "SELECT count(*) FROM spans a, spans b, spans c, spans d");
  g_assert_true (gtk_widget_activate_action (view, "query.run", NULL));
  g_assert_true (kymo_query_view_is_running (KYMO_QUERY_VIEW (view)));
  g_assert_true (gtk_widget_activate_action (view, "query.cancel", NULL));
  spin_until (not_running, view);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 20);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/query-view/select", test_query_view_select);

  return g_test_run ();
}
