/* kymo-details-private.h: helpers shared by the details sidebar's pages
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

/* "+1.5 ms" after the start of the trace. */
char     *_kymo_details_format_time      (KymoSession *session,
                                          KymoTime     ts);
/* "1.5 ms", "12 ns" */
char     *_kymo_details_format_duration  (KymoTime     duration);
/* Offset, 16 bytes in hex, then ASCII, one line per 16 bytes, from a string
 * of hex digits (as describe() gives a stack). NULL when @hex is not hex. */
char     *_kymo_details_hex_dump         (const char  *hex);
void      _kymo_details_copy_text        (GtkWidget   *widget,
                                          const char  *text);
/* Zooms so that [start, end] fills most of the view; a point is centred at
 * the current zoom. */
void      _kymo_details_zoom_to          (KymoSession *session,
                                          KymoTime     start,
                                          KymoTime     end);
/* The child of @parent called @name, or KYMO_NO_TRACK. */
guint     _kymo_details_find_child_track (KymoTrace   *trace,
                                          guint        parent,
                                          const char  *name);
GtkWidget *_kymo_details_section_title   (const char  *title);
/* A small icon, a title and a hint: fits a details pane a few lines high,
 * where an AdwStatusPage would be cut off. */
GtkWidget *_kymo_details_empty_state_new (const char  *icon_name,
                                          const char  *title,
                                          const char  *description);

G_END_DECLS
