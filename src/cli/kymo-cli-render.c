/* kymo-cli-render.c: `kymo-cli render`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <stdio.h>

#include "kymo-cli-private.h"

#ifdef KYMO_HAVE_RENDER
#include "kymo-timeline-export.h"

#define DEFAULT_WIDTH 1600
#define MAX_WIDTH     16384

static gpointer
unref_trace (gpointer trace)
{
  g_object_unref (trace);
  return NULL;
}

int
kymo_cli_render (const KymoCliOptions  *options,
                 char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  KymoTimelineExportFonts *fonts;
  GThread *freeing;
  gboolean written;
  KymoTime from = KYMO_TIME_NONE, to = KYMO_TIME_NONE;
  int status, width, height;

  if (options->output == NULL || g_str_equal (options->output, "-"))
    {
      fprintf (stderr, "kymo-cli: render: give the image file with -o OUT.png or -o OUT.svg\n");
      return KYMO_CLI_USAGE;
    }
  if ((options->from && !kymo_cli_parse_time (options->from, &from)) ||
      (options->to && !kymo_cli_parse_time (options->to, &to)))
    return KYMO_CLI_USAGE;
  if (options->width < 0 || options->width > MAX_WIDTH ||
      options->height < 0 || options->height > KYMO_TIMELINE_EXPORT_MAX_HEIGHT)
    {
      fprintf (stderr, "kymo-cli: render: the image must be at most %d × %d pixels\n",
               MAX_WIDTH, KYMO_TIMELINE_EXPORT_MAX_HEIGHT);
      return KYMO_CLI_USAGE;
    }

  /* The fonts' set-up overlaps the load. */
  fonts = kymo_timeline_export_fonts_prepare (options->output);
  trace = kymo_cli_load (options, paths, &status);
  kymo_timeline_export_fonts_install (fonts);
  if (trace == NULL)
    return status;

  session = kymo_session_new (trace);
  if (from != KYMO_TIME_NONE || to != KYMO_TIME_NONE)
    {
      KymoTime start, end;

      kymo_session_get_visible_range (session, &start, &end);
      if (from != KYMO_TIME_NONE)
        start = from;
      if (to != KYMO_TIME_NONE)
        end = to;
      if (end <= start)
        {
          fprintf (stderr, "kymo-cli: render: --to must be after --from\n");
          return KYMO_CLI_USAGE;
        }
      kymo_session_set_visible_range (session, start, end);
    }

  width = options->width > 0 ? options->width : DEFAULT_WIDTH;
  height = options->height > 0 ? options->height : kymo_timeline_export_natural_height (session);
  node = kymo_timeline_export_to_node (session, width, height, FALSE, NULL);
  /* The frame needs nothing of the trace now. Unmapping and freeing a big
   * one takes about as long as drawing and writing the frame: both at
   * once, on both cores. */
  g_clear_object (&session);
  freeing = g_thread_new ("kymo-free", unref_trace, g_steal_pointer (&trace));
  written = kymo_timeline_export_node_to_file (node, width, height, options->output, &error);
  g_thread_join (freeing);
  if (!written)
    {
      kymo_cli_print_error (error);
      return KYMO_CLI_USAGE;
    }
  return status;
}

#else

int
kymo_cli_render (const KymoCliOptions  *options,
                 char                 **paths)
{
  return kymo_cli_run_renderer (options);
}

#endif
