/* kymo-test-widget.c: what widget tests share (run under Xvfb)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-test-widget.h"

void
kymo_test_spin (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Runs the main loop until @done says so; a guard keeps a broken widget
 * from hanging the suite (no timing is asserted). */
void
kymo_test_spin_until (gboolean (*done) (gpointer),
                      gpointer   data)
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
void
kymo_test_wait_for_frame (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gboolean painted = FALSE;
  gulong id;

  g_assert_nonnull (clock);
  kymo_test_spin ();
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (widget);
  kymo_test_spin_until (flag_set, &painted);
  g_signal_handler_disconnect (clock, id);
}

/* Saves @widget as it is drawn in its window (over the window's
 * background, so the PNG looks like the screen), and checks it is not blank. */
void
kymo_test_save_png (GtkWidget  *widget,
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
      kymo_test_wait_for_frame (widget);
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

void
kymo_test_wait_until (gboolean (*done) (gpointer),
                      gpointer   data)
{
  gint64 give_up = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (!done (data))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, give_up);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

gboolean
kymo_test_is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

GtkWidget *
kymo_test_find_descendant (GtkWidget *widget,
                           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = kymo_test_find_descendant (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWindow *
kymo_test_find_transient (GtkWindow *parent,
                          GType      type)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (toplevel, type) && gtk_window_get_transient_for (toplevel) == parent)
        return toplevel;
    }
  return NULL;
}
