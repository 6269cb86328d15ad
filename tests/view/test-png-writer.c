/* test-png-writer.c: `kymo-cli render` and the PNG export write what was drawn
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The PNG writer is Kymo's own (the one cairo has costs four frames): a file
 * it writes must read back, with any PNG reader, as the very pixels drawn.
 * Read back here with cairo's reader, against what cairo's writer gives.
 */
#include "config.h"

#include <glib/gstdio.h>

#include <pango/pangocairo.h>

#include "kymo-png-writer.h"
#include "kymo-test-utils.h"
#include "kymo-timeline-export.h"

/* Opaque stripes and, when @alpha, a gradient of transparency. */
static cairo_surface_t *
draw (int      width,
      int      height,
      gboolean alpha)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);

  cairo_set_source_rgb (cr, 0.95, 0.95, 0.93);
  cairo_paint (cr);
  for (int x = 0; x < width; x += 7)
    {
      cairo_set_source_rgb (cr, (x % 255) / 255.0, 0.3, 1 - (x % 97) / 97.0);
      cairo_rectangle (cr, x, (x * 13) % height, 5, height / 3);
      cairo_fill (cr);
    }
  if (alpha)
    {
      cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
      for (int y = 0; y < height; y += 2)
        {
          cairo_set_source_rgba (cr, 0.8, 0.1, 0.4, (double) y / height);
          cairo_rectangle (cr, 0, y, width / 2, 2);
          cairo_fill (cr);
        }
      cairo_set_source_rgba (cr, 0, 0, 0, 0);
      cairo_rectangle (cr, width - 3, 0, 3, height);
      cairo_fill (cr);
    }
  cairo_destroy (cr);
  return surface;
}

/* What the encoder meets: antialiased hatching, text-like noise, and
 * stripes of both across band boundaries, so that bands that compress
 * very differently join in one stream. */
static cairo_surface_t *
draw_pattern (int width,
              int height,
              int noise_rows)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  guint32 state = 12345;

  cairo_set_source_rgb (cr, 0.94, 0.84, 0.75);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0.64, 0.57, 0.51);
  cairo_set_line_width (cr, 1.3);
  for (int x = -height; x < width; x += 6)
    {
      cairo_move_to (cr, x, height);
      cairo_line_to (cr, x + height, 0);
    }
  cairo_stroke (cr);
  cairo_destroy (cr);

  cairo_surface_flush (surface);
  for (int y = 0; y < height; y++)
    {
      guint32 *px = (guint32 *) (gpointer) (cairo_image_surface_get_data (surface) +
                                            y * cairo_image_surface_get_stride (surface));

      if (noise_rows == 0 || (y / noise_rows) % 2 == 1)
        continue;
      for (int x = 0; x < width; x++)
        {
          state = state * 1103515245 + 12345;
          px[x] = 0xff000000 | (state >> 8);
        }
    }
  cairo_surface_mark_dirty (surface);
  return surface;
}

static void
assert_same_pixels (cairo_surface_t *a,
                    cairo_surface_t *b)
{
  int width = cairo_image_surface_get_width (a), height = cairo_image_surface_get_height (a);

  g_assert_cmpint (cairo_surface_status (a), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_surface_status (b), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (b), ==, width);
  g_assert_cmpint (cairo_image_surface_get_height (b), ==, height);
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  for (int y = 0; y < height; y++)
    {
      const guint32 *pa = (const guint32 *) (gconstpointer) (cairo_image_surface_get_data (a) + y * cairo_image_surface_get_stride (a));
      const guint32 *pb = (const guint32 *) (gconstpointer) (cairo_image_surface_get_data (b) + y * cairo_image_surface_get_stride (b));

      for (int x = 0; x < width; x++)
        if (pa[x] != pb[x])
          g_error ("pixel %d,%d: %08x read back, %08x through cairo's writer", x, y, pa[x], pb[x]);
    }
}

static void
check_surface (cairo_surface_t *surface,
               gsize           *size);

static void
check (int      width,
       int      height,
       gboolean alpha)
{
  cairo_surface_t *surface = draw (width, height, alpha);

  check_surface (surface, NULL);
  cairo_surface_destroy (surface);
}

/* Writes @surface with Kymo's writer and with cairo's, reads both back and
 * compares; @size, if not NULL, gets the size of Kymo's file. */
static void
check_surface (cairo_surface_t *surface,
               gsize           *size)
{
  g_autofree char *dir = g_dir_make_tmp ("kymo-png-XXXXXX", NULL);
  g_autofree char *ours = g_build_filename (dir, "ours.png", NULL);
  g_autofree char *theirs = g_build_filename (dir, "theirs.png", NULL);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *a, *b;
  GStatBuf st;

  g_assert_true (kymo_png_write_surface (surface, ours, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cairo_surface_write_to_png (surface, theirs), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (g_stat (ours, &st), ==, 0);
  if (size != NULL)
    *size = (gsize) st.st_size;

  a = cairo_image_surface_create_from_png (ours);
  b = cairo_image_surface_create_from_png (theirs);
  /* Opaque pictures are written without an alpha channel, as cairo does. */
  g_assert_cmpint (cairo_image_surface_get_format (a), ==, cairo_image_surface_get_format (b));
  assert_same_pixels (a, b);

  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
  g_unlink (ours);
  g_unlink (theirs);
  g_rmdir (dir);
}

static void
test_opaque (void)
{
  check (1920, 700, FALSE);
  check (1, 1, FALSE);
  /* Rows larger than the compressor's output buffer. */
  check (16384, 3, FALSE);
}

static void
test_alpha (void)
{
  check (640, 480, TRUE);
  check (3, 200, TRUE);
}

static void
test_patterns (void)
{
  cairo_surface_t *surface;
  gsize size;

  /* Hatching, most of a zoomed-out timeline, compresses well. */
  surface = draw_pattern (1920, 300, 0);
  check_surface (surface, &size);
  g_assert_cmpuint (size, <, 1920 * 300 * 3 / 20);
  cairo_surface_destroy (surface);

  /* Noise, and noise in stripes that start inside a band and end in the
   * next, each at a width where rows are within the deflate window, and
   * one where they are beyond it. */
  for (int w = 0; w < 2; w++)
    {
      int width = w == 0 ? 1920 : 12000;

      surface = draw_pattern (width, 100, 100);
      check_surface (surface, NULL);
      cairo_surface_destroy (surface);
      surface = draw_pattern (width, 150, 13);
      check_surface (surface, &size);
      cairo_surface_destroy (surface);
    }
  surface = draw_pattern (12000, 70, 0);
  check_surface (surface, NULL);
  cairo_surface_destroy (surface);
}

#define MS 1000000

/* A frame with text: spans with names, a ruler, track names. */
static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint group = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "app");
  guint main_id = kymo_trace_add_track (trace, group, KYMO_TRACK_THREAD, "main");
  KymoTrack *track = kymo_trace_get_track (trace, main_id);

  kymo_track_set_group_kind (kymo_trace_get_track (trace, group), "process");
  kymo_track_add_span (track, 100 * MS, 700 * MS, kymo_trace_intern (trace, "Work µs (ÄBC)"), 0, 0, 0);
  kymo_track_add_span (track, 120 * MS, 450 * MS, kymo_trace_intern (trace, "inner 0123456789"), 1, 0, 1);
  kymo_trace_set_time_range (trace, 0, 1000 * MS);
  kymo_trace_seal (trace);
  return trace;
}

static gpointer
render_with_prepared_fonts (gpointer path)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = NULL;
  KymoTimelineExportFonts *fonts;

  /* A new thread has no font map yet: the prepared one is its first. */
  fonts = kymo_timeline_export_fonts_prepare (path);
  session = kymo_session_new (trace);
  kymo_timeline_export_fonts_install (fonts);
  return GINT_TO_POINTER (kymo_timeline_export_to_file (session, 800, 120, FALSE, path, NULL));
}

/* `kymo-cli render` sets fonts up while the trace loads: the frame must be
 * the one drawn with fonts set up on the spot. */
static void
test_prepared_fonts (void)
{
  g_autofree char *dir = g_dir_make_tmp ("kymo-png-XXXXXX", NULL);
  g_autofree char *plain = g_build_filename (dir, "plain.png", NULL);
  g_autofree char *prepared = g_build_filename (dir, "prepared.png", NULL);
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  cairo_surface_t *a, *b;

  g_assert_true (kymo_timeline_export_to_file (session, 800, 120, FALSE, plain, NULL));
  g_assert_true (GPOINTER_TO_INT (g_thread_join (g_thread_new ("render", render_with_prepared_fonts,
                                                                prepared))));
  a = cairo_image_surface_create_from_png (prepared);
  b = cairo_image_surface_create_from_png (plain);
  assert_same_pixels (a, b);

  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
  g_unlink (plain);
  g_unlink (prepared);
  g_rmdir (dir);
}

enum {
  OPAQUE,
  CLEARED_PATCH,     /* a transparent patch in one band */
  UNPAINTED_BOTTOM,  /* the last rows left as they were: transparent */
};

/* What the banded writer is given: antialiased shapes and text that cross
 * band boundaries, and transparency as @user_data says. */
static void
draw_shapes (cairo_t  *cr,
             int       y0,
             int       y1,
             gpointer  user_data)
{
  int mode = GPOINTER_TO_INT (user_data);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string (KYMO_TIMELINE_EXPORT_FONT " 9");
  double width, height;

  g_assert_cmpint (y0, <, y1);
  cairo_clip_extents (cr, NULL, NULL, &width, &height);
  g_assert_cmpfloat (height, ==, y1);
  cairo_set_source_rgb (cr, 0.98, 0.97, 0.95);
  if (mode == UNPAINTED_BOTTOM)
    {
      cairo_rectangle (cr, 0, 0, width, 555 - 3);
      cairo_fill (cr);
    }
  else
    cairo_paint (cr);
  cairo_set_line_width (cr, 1.3);
  for (int i = 0; i < 40; i++)
    {
      cairo_set_source_rgba (cr, (i % 5) / 5.0, 0.4, 1 - (i % 7) / 7.0, 0.6);
      cairo_arc (cr, 37.3 * i, 11.7 * i, 9.5 + i, 0, 2 * G_PI);
      cairo_stroke (cr);
      cairo_rectangle (cr, 13.25 * i, 7.5 * i + 0.3, 41.5, 17.25);
      cairo_fill (cr);
    }
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "12 345 spans · µs (ÄBC)", -1);
  for (int i = 0; i < 30; i++)
    {
      cairo_set_source_rgb (cr, 0.1, 0.1, 0.2);
      /* Text straddles every band boundary at one offset or another. */
      cairo_move_to (cr, 5 + 23.5 * i, 10.25 * i - 4);
      pango_cairo_show_layout (cr, layout);
    }
  if (mode == CLEARED_PATCH)
    {
      cairo_set_operator (cr, CAIRO_OPERATOR_CLEAR);
      cairo_rectangle (cr, 10, 150, 20, 3);
      cairo_fill (cr);
    }
  g_object_unref (layout);
}

/* A picture drawn band by band is the picture drawn on one surface. */
static void
check_drawn (int width,
             int height,
             int mode)
{
  g_autofree char *dir = g_dir_make_tmp ("kymo-png-XXXXXX", NULL);
  g_autofree char *ours = g_build_filename (dir, "ours.png", NULL);
  g_autofree char *theirs = g_build_filename (dir, "theirs.png", NULL);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *whole = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (whole);
  cairo_surface_t *a, *b;

  draw_shapes (cr, 0, height, GINT_TO_POINTER (mode));
  cairo_destroy (cr);
  g_assert_cmpint (cairo_surface_write_to_png (whole, theirs), ==, CAIRO_STATUS_SUCCESS);
  g_assert_true (kymo_png_write_drawn (width, height, draw_shapes, GINT_TO_POINTER (mode), ours, &error));
  g_assert_no_error (error);

  a = cairo_image_surface_create_from_png (ours);
  b = cairo_image_surface_create_from_png (theirs);
  g_assert_cmpint (cairo_image_surface_get_format (a), ==, mode == OPAQUE ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32);
  g_assert_cmpint (cairo_image_surface_get_format (a), ==, cairo_image_surface_get_format (b));
  assert_same_pixels (a, b);

  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
  cairo_surface_destroy (whole);
  g_unlink (ours);
  g_unlink (theirs);
  g_rmdir (dir);
}

static void
test_drawn (void)
{
  /* Large enough for the threads, and a last band of a few rows. */
  check_drawn (1920, 555, OPAQUE);
  check_drawn (300, 130, OPAQUE);
  check_drawn (1, 1, OPAQUE);
  /* One band not opaque: the whole file is RGBA. */
  check_drawn (1920, 555, CLEARED_PATCH);
  check_drawn (300, 200, CLEARED_PATCH);
  /* Each band starts cleared, whatever the band before left in memory. */
  check_drawn (1920, 555, UNPAINTED_BOTTOM);
}

/* Threads with labelled spans, runs folded into hatched "N spans" boxes and
 * instants: a frame some hundreds of pixels tall. */
static KymoTrace *
make_tall_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint group = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "app");

  kymo_track_set_group_kind (kymo_trace_get_track (trace, group), "process");
  for (int t = 0; t < 12; t++)
    {
      g_autofree char *name = g_strdup_printf ("worker %d", t);
      KymoTrack *track = kymo_trace_get_track (trace, kymo_trace_add_track (trace, group, KYMO_TRACK_THREAD,
                                                                            name));
      KymoTime at = (KymoTime) t * 7 * MS;

      kymo_track_add_span (track, at, 900 * MS, kymo_trace_intern (trace, "poll Ä (µs)"), 0, 0, 0);
      kymo_track_add_span (track, at + MS, 300 * MS, kymo_trace_intern (trace, name), 1, 0, 1);
      for (int i = 0; i < 3000; i++)
        kymo_track_add_span (track, 310 * MS + i * 150000, 310 * MS + i * 150000 + 60000,
                             kymo_trace_intern (trace, "tiny"), 1, 0, 1);
      kymo_track_add_instant (track, at + 50 * MS, kymo_trace_intern (trace, "wake"), 0, 0);
    }
  kymo_trace_set_time_range (trace, 0, 1000 * MS);
  kymo_trace_seal (trace);
  return trace;
}

/* The PNG at @path holds the pixels of @node drawn whole on one surface
 * (written through cairo's writer to @scratch and read back alike). */
static void
assert_file_is_node (const char    *path,
                     GskRenderNode *node,
                     int            width,
                     int            height,
                     const char    *scratch)
{
  cairo_surface_t *whole = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (whole);
  cairo_surface_t *a, *b;

  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  g_assert_cmpint (cairo_surface_write_to_png (whole, scratch), ==, CAIRO_STATUS_SUCCESS);
  cairo_surface_destroy (whole);

  a = cairo_image_surface_create_from_png (path);
  b = cairo_image_surface_create_from_png (scratch);
  assert_same_pixels (a, b);
  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
  g_unlink (scratch);
}

/* The export draws the frame in bands: at every offset of the rows against
 * the bands, the file holds the pixels of the frame's node drawn whole. */
static void
test_export_bands (void)
{
  g_autofree char *dir = g_dir_make_tmp ("kymo-png-XXXXXX", NULL);
  g_autofree char *ours = g_build_filename (dir, "ours.png", NULL);
  g_autofree char *theirs = g_build_filename (dir, "theirs.png", NULL);
  g_autoptr(KymoTrace) trace = make_tall_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  int width = 1500, height = kymo_timeline_export_natural_height (session);

  g_assert_cmpint (height, >, 300);
  for (int scroll = 0; scroll < 70; scroll += 13)
    {
      KymoTimelineViewport viewport = { width, height - scroll, scroll };
      g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
      KymoTimelineRenderer *renderer = kymo_timeline_export_renderer_new (trace, scroll % 2 == 1);
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) node = NULL;
      g_autoptr(GError) error = NULL;

      kymo_timeline_renderer_snapshot_base (renderer, snapshot, session, layout, &viewport);
      node = gtk_snapshot_free_to_node (snapshot);
      kymo_timeline_renderer_free (renderer);
      g_assert_true (kymo_timeline_export_view_to_file (session, &viewport, KYMO_TIME_NONE, KYMO_TIME_NONE,
                                                        scroll % 2 == 1, KYMO_TIMELINE_EXPORT_PNG, ours, &error));
      g_assert_no_error (error);
      assert_file_is_node (ours, node, viewport.width, viewport.height, theirs);
    }
  g_unlink (ours);
  g_rmdir (dir);
}

/* `kymo-cli render` (bands, threads, the trace freed while the frame is
 * written) gives the pixels of the frame drawn whole in one process. */
static void
test_cli_render (void)
{
  const char *samples = g_getenv ("KYMO_SAMPLES_DIR");
  g_autofree char *trace_path = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kymo-png-XXXXXX", NULL);
  g_autofree char *ours = g_build_filename (dir, "cli.png", NULL);
  g_autofree char *theirs = g_build_filename (dir, "whole.png", NULL);
  g_autofree char *err = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoSession) session = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GError) error = NULL;
  int height;

  if (samples == NULL || !g_file_test (samples, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("../shared/samples is not here: the CLI render test is skipped");
      return;
    }
  trace_path = g_build_filename (samples, "tonbandgeraet", "log", NULL);
  trace = kymo_test_load_path (trace_path, NULL, &error);
  g_assert_no_error (error);
  session = kymo_session_new (trace);
  height = kymo_timeline_export_natural_height (session);
  /* Tall enough for several bands and the encoding threads. */
  g_assert_cmpint (height, >, 400);

  {
    const char *args[] = { "render", trace_path, "-o", ours, "--width", "1920", NULL };

    g_assert_cmpint (kymo_test_run_cli (args, NULL, &err), ==, 0);
    g_assert_cmpstr (err, ==, "");
  }
  node = kymo_timeline_export_to_node (session, 1920, height, FALSE, NULL);
  assert_file_is_node (ours, node, 1920, height, theirs);
  g_unlink (ours);
  g_rmdir (dir);
}

static void
test_unwritable (void)
{
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface = draw (10, 10, FALSE);

  g_assert_false (kymo_png_write_surface (surface, "/nonexistent-kymo-dir/out.png", &error));
  g_assert_nonnull (error);
  g_assert_true (strstr (error->message, "/nonexistent-kymo-dir/out.png") != NULL);
  cairo_surface_destroy (surface);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/png-writer/opaque", test_opaque);
  g_test_add_func ("/png-writer/alpha", test_alpha);
  g_test_add_func ("/png-writer/patterns", test_patterns);
  g_test_add_func ("/png-writer/prepared-fonts", test_prepared_fonts);
  g_test_add_func ("/png-writer/drawn", test_drawn);
  g_test_add_func ("/png-writer/export-bands", test_export_bands);
  g_test_add_func ("/png-writer/cli-render", test_cli_render);
  g_test_add_func ("/png-writer/unwritable", test_unwritable);
  return g_test_run ();
}
