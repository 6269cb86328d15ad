/* kymo-preferences-window.c: thresholds of the points of interest
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-preferences-window.h"
#include "dial9/kymo-dial9-analysis.h"

struct _KymoPreferencesWindow
{
  AdwPreferencesWindow parent_instance;

  GSettings           *settings;
};

G_DEFINE_FINAL_TYPE (KymoPreferencesWindow, kymo_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* A row with a spin button in µs, bound to @key (when the schema is installed). */
static GtkWidget *
threshold_row (KymoPreferencesWindow *self,
               const char            *title,
               const char            *subtitle,
               const char            *key,
               guint                  fallback)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (1, 60000000, 10);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), fallback);
  if (self->settings != NULL)
    g_settings_bind (self->settings, key, gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (spin)), "value",
                     G_SETTINGS_BIND_DEFAULT);
  else
    gtk_widget_set_sensitive (spin, FALSE);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  return row;
}

static void
kymo_preferences_window_dispose (GObject *object)
{
  KymoPreferencesWindow *self = (KymoPreferencesWindow *) object;

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (kymo_preferences_window_parent_class)->dispose (object);
}

static void
kymo_preferences_window_class_init (KymoPreferencesWindowClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = kymo_preferences_window_dispose;
}

static void
kymo_preferences_window_init (KymoPreferencesWindow *self)
{
  GtkWidget *page = adw_preferences_page_new ();
  GtkWidget *group = adw_preferences_group_new ();

  self->settings = kymo_dial9_analysis_dup_settings ();
  adw_preferences_page_set_title (ADW_PREFERENCES_PAGE (page), _("Tokio"));
  adw_preferences_page_set_icon_name (ADW_PREFERENCES_PAGE (page), "preferences-system-symbolic");
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Points of Interest"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("What counts as a point of interest in a dial9 trace, in microseconds"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             threshold_row (self, _("Long Poll"), _("A poll that runs longer than this"),
                                            "poi-long-poll-us", KYMO_POI_DEFAULT_LONG_POLL_NS / 1000));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             threshold_row (self, _("Wake to Poll Delay"),
                                            _("A task first polled this long after it was woken"),
                                            "poi-wake-delay-us", KYMO_POI_DEFAULT_WAKE_DELAY_NS / 1000));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group),
                             threshold_row (self, _("Kernel Scheduling Delay"),
                                            _("A worker the kernel ran this long after waking it"),
                                            "poi-sched-delay-us", KYMO_POI_DEFAULT_SCHED_DELAY_NS / 1000));
  adw_preferences_page_add (ADW_PREFERENCES_PAGE (page), ADW_PREFERENCES_GROUP (group));
  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), ADW_PREFERENCES_PAGE (page));
}

GtkWidget *
kymo_preferences_window_new (GtkWindow *parent)
{
  return g_object_new (KYMO_TYPE_PREFERENCES_WINDOW, "transient-for", parent, "modal", TRUE, NULL);
}
