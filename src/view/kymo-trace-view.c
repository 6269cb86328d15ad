/* kymo-trace-view.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-trace-view"

#include "config.h"

#include "kymo-trace-view.h"

struct _KymoTraceView
{
  GtkWidget  parent_instance;
  KymoTrace *trace;
  GtkWidget *label;
};

G_DEFINE_FINAL_TYPE (KymoTraceView, kymo_trace_view, GTK_TYPE_WIDGET)

static void
kymo_trace_view_dispose (GObject *object)
{
  KymoTraceView *self = (KymoTraceView *) object;

  g_clear_pointer (&self->label, gtk_widget_unparent);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (kymo_trace_view_parent_class)->dispose (object);
}

static void
kymo_trace_view_class_init (KymoTraceViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = kymo_trace_view_dispose;
  gtk_widget_class_set_layout_manager_type (GTK_WIDGET_CLASS (klass), GTK_TYPE_BIN_LAYOUT);
}

static void
kymo_trace_view_init (KymoTraceView *self)
{
}

GtkWidget *
kymo_trace_view_new (KymoTrace *trace)
{
  KymoTraceView *self = g_object_new (KYMO_TYPE_TRACE_VIEW, NULL);
  g_autofree char *text = NULL;

  self->trace = g_object_ref (trace);
  text = g_strdup_printf ("%u tracks", kymo_trace_get_n_tracks (trace));
  self->label = gtk_label_new (text);
  gtk_widget_set_parent (self->label, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

KymoTrace *
kymo_trace_view_get_trace (KymoTraceView *self)
{
  return self->trace;
}
