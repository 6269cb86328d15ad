/* kymo-window-properties.c: the window's Trace Properties action
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo"

#include "config.h"

#include "kymo-window-private.h"
#include "kymo-trace-properties.h"

static void
trace_properties_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *param)
{
  KymoWindow *self = KYMO_WINDOW (widget);
  GtkWidget *dialog;

  if (self->trace == NULL)
    return;
  dialog = kymo_trace_properties_new (self->trace);
  gtk_window_set_transient_for (GTK_WINDOW (dialog), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (dialog), TRUE);
  gtk_window_present (GTK_WINDOW (dialog));
}

void
_kymo_window_class_init_properties (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.trace-properties", NULL, trace_properties_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_i, GDK_CONTROL_MASK, "win.trace-properties", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_ALT_MASK, "win.trace-properties", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_ALT_MASK, "win.trace-properties", NULL);
}
