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

#include "kymo-png-writer.h"

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
check (int      width,
       int      height,
       gboolean alpha)
{
  g_autofree char *dir = g_dir_make_tmp ("kymo-png-XXXXXX", NULL);
  g_autofree char *ours = g_build_filename (dir, "ours.png", NULL);
  g_autofree char *theirs = g_build_filename (dir, "theirs.png", NULL);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface = draw (width, height, alpha);
  cairo_surface_t *a, *b;

  g_assert_true (kymo_png_write_surface (surface, ours, &error));
  g_assert_no_error (error);
  g_assert_cmpint (cairo_surface_write_to_png (surface, theirs), ==, CAIRO_STATUS_SUCCESS);

  a = cairo_image_surface_create_from_png (ours);
  b = cairo_image_surface_create_from_png (theirs);
  /* Opaque pictures are written without an alpha channel, as cairo does. */
  g_assert_cmpint (cairo_image_surface_get_format (a), ==, cairo_image_surface_get_format (b));
  assert_same_pixels (a, b);

  cairo_surface_destroy (a);
  cairo_surface_destroy (b);
  cairo_surface_destroy (surface);
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
  g_test_add_func ("/png-writer/unwritable", test_unwritable);
  return g_test_run ();
}
