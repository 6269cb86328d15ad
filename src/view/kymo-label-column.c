/* kymo-label-column.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-view"

#include "config.h"

#include "kymo-label-column.h"

/* The style travels in the setup handler's data: flags in the low byte,
 * the ellipsis above. */
#define STYLE(flags, ellipsize) GUINT_TO_POINTER ((guint) (flags) | (guint) (ellipsize) << 8)

static void
label_setup (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  guint style = GPOINTER_TO_UINT (user_data);
  KymoLabelColumnFlags flags = style & 0xff;
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), flags & KYMO_LABEL_COLUMN_END ? 1 : 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), (PangoEllipsizeMode) (style >> 8));
  if (flags & KYMO_LABEL_COLUMN_NUMERIC)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

GtkColumnViewColumn *
kymo_label_column_append (GtkColumnView        *view,
                          const char           *title,
                          int                   column,
                          KymoLabelColumnFlags  flags,
                          PangoEllipsizeMode    ellipsize,
                          GtkSorter            *sorter,
                          gboolean              expand,
                          GCallback             bind)
{
  GtkListItemFactory *factory;
  GtkColumnViewColumn *col;

  g_return_val_if_fail (GTK_IS_COLUMN_VIEW (view), NULL);
  g_return_val_if_fail (bind != NULL, NULL);

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (label_setup), STYLE (flags, ellipsize));
  g_signal_connect (factory, "bind", bind, GINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_sorter (col, sorter);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (view, col);
  g_clear_object (&sorter);
  /* The view holds the column from here on. */
  g_object_unref (col);
  return col;
}
