/* kymo-timeline-export.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-export"

#include "config.h"

#include <glib/gi18n.h>

#include <cairo-svg.h>
#include <pango/pangocairo.h>

#include "kymo-timeline-export.h"
#include "kymo-png-writer.h"
#include "kymo-timeline-heat.h"

struct _KymoTimelineExportFonts {
  GThread *thread;
  gboolean draw;
};

static gboolean
is_svg (const char *path)
{
  return g_str_has_suffix (path, ".svg") || g_str_has_suffix (path, ".SVG");
}

/* Everything a frame's text needs the first time, done once, here. */
static gpointer
prepare_fonts (gpointer data)
{
  KymoTimelineExportFonts *fonts = data;
  PangoFontMap *font_map = pango_cairo_font_map_new ();
  PangoContext *context = pango_font_map_create_context (font_map);
  PangoLayout *layout;
  g_autoptr(PangoFontDescription) font = pango_font_description_from_string (KYMO_TIMELINE_EXPORT_FONT " 8");
  cairo_surface_t *surface;
  cairo_t *cr;

  pango_cairo_context_set_resolution (context, 96);
  layout = pango_layout_new (context);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "0123456789 .,:;-+()[]/%µ abcdefghijklmnopqrstuvwxyz "
                                 "ABCDEFGHIJKLMNOPQRSTUVWXYZ", -1);
  if (fonts->draw)
    {
      /* Drawing fills the glyph cache the frame's text nodes draw from. */
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 8, 8);
      cr = cairo_create (surface);
      pango_cairo_show_layout (cr, layout);
      cairo_destroy (cr);
      cairo_surface_destroy (surface);
    }
  else
    {
      /* The glyphs' sizes only: a surface made here would take one of the
       * ids an SVG file names its surfaces by, and the file would differ. */
      pango_layout_get_pixel_size (layout, NULL, NULL);
    }
  g_object_unref (layout);
  g_object_unref (context);
  return font_map;
}

KymoTimelineExportFonts *
kymo_timeline_export_fonts_prepare (const char *path)
{
  KymoTimelineExportFonts *fonts = g_new0 (KymoTimelineExportFonts, 1);

  g_return_val_if_fail (path != NULL, NULL);

  fonts->draw = !is_svg (path);
  fonts->thread = g_thread_new ("kymo-fonts", prepare_fonts, fonts);
  return fonts;
}

void
kymo_timeline_export_fonts_install (KymoTimelineExportFonts *fonts)
{
  g_autoptr(PangoFontMap) font_map = NULL;

  g_return_if_fail (fonts != NULL);

  /* Joined before use: the font map is never used by two threads at once. */
  font_map = g_thread_join (fonts->thread);
  pango_cairo_font_map_set_default (PANGO_CAIRO_FONT_MAP (font_map));
  g_free (fonts);
}

int
kymo_timeline_export_natural_height (KymoSession *session)
{
  g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
  int height = KYMO_TIMELINE_RULER_HEIGHT + kymo_timeline_layout_get_height (layout);

  return CLAMP (height, KYMO_TIMELINE_RULER_HEIGHT + 20, KYMO_TIMELINE_EXPORT_MAX_HEIGHT);
}

KymoTimelineRenderer *
kymo_timeline_export_renderer_new (KymoTrace *trace,
                                   gboolean   dark)
{
  PangoContext *context;
  KymoTimelineRenderer *renderer;
  KymoTimelineTheme theme;

  /* Render nodes work without gtk_init() once their types exist. */
  g_type_ensure (GSK_TYPE_COLOR_NODE);
  context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
  pango_cairo_context_set_resolution (context, 96);
  renderer = kymo_timeline_renderer_new (trace, context, KYMO_TIMELINE_EXPORT_FONT);
  g_object_unref (context);
  kymo_timeline_theme_init_default (&theme, dark);
  kymo_timeline_renderer_set_theme (renderer, &theme);
  return renderer;
}

GskRenderNode *
kymo_timeline_export_to_node (KymoSession       *session,
                              int                width,
                              int                height,
                              gboolean           dark,
                              KymoTimelineStats *stats)
{
  KymoTimelineRenderer *renderer;
  g_autoptr(KymoTimelineLayout) layout = NULL;
  KymoTimelineViewport viewport = { width, height, 0 };
  GtkSnapshot *snapshot;
  GskRenderNode *node;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);
  g_return_val_if_fail (width > 0 && height > 0, NULL);

  renderer = kymo_timeline_export_renderer_new (kymo_session_get_trace (session), dark);
  if (kymo_timeline_heat_applies (kymo_session_get_trace (session)))
    {
      /* No main loop to wait for the app's analysis thread: an export
       * computes the shares itself. */
      g_autoptr(KymoDial9Lanes) lanes = kymo_dial9_lanes_new (kymo_session_get_trace (session));
      kymo_timeline_renderer_set_lanes (renderer, lanes);
    }
  layout = kymo_timeline_layout_new (session);
  snapshot = gtk_snapshot_new ();
  kymo_timeline_renderer_snapshot (renderer, snapshot, session, layout, &viewport);
  if (stats)
    *stats = *kymo_timeline_renderer_get_stats (renderer);
  node = gtk_snapshot_free_to_node (snapshot);
  kymo_timeline_renderer_free (renderer);
  return node;
}

/* Drawn whole when it reaches this close to a band: text and strokes may
 * paint a little outside the bounds they declare. */
#define BAND_MARGIN 8

/* What gsk_render_node_draw (@node, @cr) paints inside @band, with the same
 * cairo calls: containers and clips are walked as GSK walks them, leaving
 * out what is away from the band (a frame holds thousands of nodes, most
 * of them in other bands); anything else is drawn whole by GSK. */
static void
draw_node_in_band (GskRenderNode         *node,
                   cairo_t               *cr,
                   const graphene_rect_t *band)
{
  graphene_rect_t bounds;

  gsk_render_node_get_bounds (node, &bounds);
  graphene_rect_inset (&bounds, -BAND_MARGIN, -BAND_MARGIN);
  if (!graphene_rect_intersection (&bounds, band, NULL))
    return;

  switch ((int) gsk_render_node_get_node_type (node))
    {
    case GSK_CONTAINER_NODE:
      for (guint i = 0; i < gsk_container_node_get_n_children (node); i++)
        draw_node_in_band (gsk_container_node_get_child (node, i), cr, band);
      break;

    case GSK_CLIP_NODE:
      {
        const graphene_rect_t *clip = gsk_clip_node_get_clip (node);

        cairo_save (cr);
        cairo_rectangle (cr, clip->origin.x, clip->origin.y, clip->size.width, clip->size.height);
        cairo_clip (cr);
        draw_node_in_band (gsk_clip_node_get_child (node), cr, band);
        cairo_restore (cr);
      }
      break;

    default:
      gsk_render_node_draw (node, cr);
      break;
    }
}

typedef struct {
  GskRenderNode *node;
  int            width;
} BandDraw;

static void
draw_band (cairo_t  *cr,
           int       y0,
           int       y1,
           gpointer  user_data)
{
  BandDraw *b = user_data;

  draw_node_in_band (b->node, cr, &GRAPHENE_RECT_INIT (0, y0, b->width, y1 - y0));
}

static gboolean
write_node (GskRenderNode             *node,
            int                        width,
            int                        height,
            KymoTimelineExportFormat   format,
            const char                *path,
            GError                   **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  if (node == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, _("%s: nothing to draw"), path);
      return FALSE;
    }

  if (format == KYMO_TIMELINE_EXPORT_PNG)
    {
      BandDraw b = { node, width };

      /* In bands, so that compressing one overlaps drawing the next. */
      return kymo_png_write_drawn (width, height, draw_band, &b, path, error);
    }

  surface = cairo_svg_surface_create (path, width, height);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("%s: cannot write: %s"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

gboolean
kymo_timeline_export_view_to_file (KymoSession                *session,
                                   const KymoTimelineViewport *viewport,
                                   KymoTime                    start,
                                   KymoTime                    end,
                                   gboolean                    dark,
                                   KymoTimelineExportFormat    format,
                                   const char                 *path,
                                   GError                    **error)
{
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(KymoTimelineLayout) layout = NULL;
  KymoTimelineRenderer *renderer;
  GtkSnapshot *snapshot;
  KymoTime old_start, old_end;
  gboolean other_range;

  g_return_val_if_fail (KYMO_IS_SESSION (session), FALSE);
  g_return_val_if_fail (viewport != NULL && viewport->width > 0 && viewport->height > 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* The frame reads the range from the session: lend it the range for the
   * one synchronous frame (nothing draws in between). */
  kymo_session_get_visible_range (session, &old_start, &old_end);
  other_range = start != KYMO_TIME_NONE && end != KYMO_TIME_NONE && end > start &&
                (start != old_start || end != old_end);
  if (other_range)
    kymo_session_set_visible_range (session, start, end);

  renderer = kymo_timeline_export_renderer_new (kymo_session_get_trace (session), dark);
  if (kymo_timeline_heat_applies (kymo_session_get_trace (session)))
    {
      /* No main loop to wait for the app's analysis thread: an export
       * computes the shares itself. */
      g_autoptr(KymoDial9Lanes) lanes = kymo_dial9_lanes_new (kymo_session_get_trace (session));
      kymo_timeline_renderer_set_lanes (renderer, lanes);
    }
  layout = kymo_timeline_layout_new (session);
  snapshot = gtk_snapshot_new ();
  kymo_timeline_renderer_snapshot_base (renderer, snapshot, session, layout, viewport);
  node = gtk_snapshot_free_to_node (snapshot);
  kymo_timeline_renderer_free (renderer);

  if (other_range)
    kymo_session_set_visible_range (session, old_start, old_end);

  return write_node (node, viewport->width, viewport->height, format, path, error);
}

gboolean
kymo_timeline_export_node_to_file (GskRenderNode  *node,
                                   int             width,
                                   int             height,
                                   const char     *path,
                                   GError        **error)
{
  g_return_val_if_fail (width > 0 && height > 0, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return write_node (node, width, height, is_svg (path) ? KYMO_TIMELINE_EXPORT_SVG : KYMO_TIMELINE_EXPORT_PNG,
                     path, error);
}

gboolean
kymo_timeline_export_to_file (KymoSession  *session,
                              int           width,
                              int           height,
                              gboolean      dark,
                              const char   *path,
                              GError      **error)
{
  g_autoptr(GskRenderNode) node = NULL;

  node = kymo_timeline_export_to_node (session, width, height, dark, NULL);
  return kymo_timeline_export_node_to_file (node, width, height, path, error);
}
