/* kymo-window-dnd.c: traces dropped anywhere on the window
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-window"

#include "config.h"

#include "kymo-window-private.h"

static GdkDragAction
drop_enter_cb (KymoWindow    *self,
               double         x,
               double         y,
               GtkDropTarget *target)
{
  gtk_widget_add_css_class (GTK_WIDGET (self), "dragging");
  return GDK_ACTION_COPY;
}

static void
drop_leave_cb (KymoWindow    *self,
               GtkDropTarget *target)
{
  gtk_widget_remove_css_class (GTK_WIDGET (self), "dragging");
}

static gboolean
drop_cb (KymoWindow    *self,
         const GValue  *value,
         double         x,
         double         y,
         GtkDropTarget *target)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new ();
  GSList *list;

  gtk_widget_remove_css_class (GTK_WIDGET (self), "dragging");

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;

  for (list = g_value_get_boxed (value); list != NULL; list = list->next)
    g_ptr_array_add (files, list->data);
  if (files->len == 0)
    return FALSE;

  /* Files dropped together are one trace (e.g. one Tonbandgerät file per core). */
  _kymo_window_open_files (self, (GFile * const *) files->pdata, files->len);
  return TRUE;
}

void
_kymo_window_init_dnd (KymoWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect_object (target, "enter", G_CALLBACK (drop_enter_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (target, "leave", G_CALLBACK (drop_leave_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (target, "drop", G_CALLBACK (drop_cb), self, G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}
