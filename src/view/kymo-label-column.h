/* kymo-label-column.h: a GtkColumnView column of text labels
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum {
  KYMO_LABEL_COLUMN_TEXT    = 0,       /* start-aligned */
  KYMO_LABEL_COLUMN_NUMERIC = 1 << 0,  /* tabular digits */
  KYMO_LABEL_COLUMN_END     = 1 << 1,  /* end-aligned, as numbers read */
} KymoLabelColumnFlags;

/* Appends a resizable column of GtkLabel cells to @view, the labels set
 * up with @flags and @ellipsize; @bind is the factory's "bind" handler
 * (a GtkSignalListItemFactory), called with GINT_TO_POINTER (@column) as
 * its data, to fill the label (gtk_list_item_get_child()). Takes @sorter
 * (may be NULL). Returns the column, which @view holds. */
GtkColumnViewColumn *kymo_label_column_append (GtkColumnView        *view,
                                               const char           *title,
                                               int                   column,
                                               KymoLabelColumnFlags  flags,
                                               PangoEllipsizeMode    ellipsize,
                                               GtkSorter            *sorter,
                                               gboolean              expand,
                                               GCallback             bind);

G_END_DECLS
