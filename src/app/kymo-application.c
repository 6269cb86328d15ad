/* kymo-application.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-application"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-application.h"

struct _KymoApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (KymoApplication, kymo_application, ADW_TYPE_APPLICATION)

static void
kymo_application_activate (GApplication *app)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (app));
  GtkWidget *status = adw_status_page_new ();

  adw_status_page_set_title (ADW_STATUS_PAGE (status), _("Open a Trace"));
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), status);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 700);
  gtk_window_present (GTK_WINDOW (window));
}

static void
kymo_application_class_init (KymoApplicationClass *klass)
{
  G_APPLICATION_CLASS (klass)->activate = kymo_application_activate;
}

static void
kymo_application_init (KymoApplication *self)
{
}

KymoApplication *
kymo_application_new (void)
{
  return g_object_new (KYMO_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}
