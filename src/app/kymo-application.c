/* kymo-application.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-application"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-application.h"
#include "kymo-preferences-window.h"
#include "kymo-resources.h"
#include "kymo-window.h"

struct _KymoApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (KymoApplication, kymo_application, ADW_TYPE_APPLICATION)

/* An empty window is reused before a new one is made. */
static KymoWindow *
find_empty_window (KymoApplication *self)
{
  for (GList *l = gtk_application_get_windows (GTK_APPLICATION (self)); l != NULL; l = l->next)
    {
      if (KYMO_IS_WINDOW (l->data) && kymo_window_is_empty (l->data))
        return l->data;
    }
  return NULL;
}

static void
kymo_application_activate (GApplication *app)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (app));

  if (window == NULL)
    window = GTK_WINDOW (kymo_window_new (GTK_APPLICATION (app)));
  gtk_window_present (window);
}

static gboolean
all_dial9 (GFile **files,
           int     n_files)
{
  for (int i = 0; i < n_files; i++)
    {
      g_autoptr(KymoInput) input = kymo_input_new_for_file (files[i], NULL);
      const KymoFormat *format = input != NULL && !input->is_dir ? kymo_formats_detect (input) : NULL;

      if (format == NULL || g_strcmp0 (format->name, "dial9") != 0)
        return FALSE;
    }
  return TRUE;
}

static void
kymo_application_open (GApplication  *app,
                       GFile        **files,
                       int            n_files,
                       const char    *hint)
{
  KymoApplication *self = KYMO_APPLICATION (app);

  /* dial9 files given together are the rotated segments of one trace. */
  if (n_files > 1 && all_dial9 (files, n_files))
    {
      KymoWindow *window = find_empty_window (self);

      if (window == NULL)
        window = kymo_window_new (GTK_APPLICATION (app));
      kymo_window_load (window, files, n_files);
      gtk_window_present (GTK_WINDOW (window));
      return;
    }

  /* Otherwise one window per file: traces given together on the command
   * line are usually unrelated; drop several files on a window to load
   * them as one. */
  for (int i = 0; i < n_files; i++)
    {
      KymoWindow *window = find_empty_window (self);

      if (window == NULL)
        window = kymo_window_new (GTK_APPLICATION (app));
      kymo_window_load (window, &files[i], 1);
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  static const char *developers[] = { "The Kymo authors", NULL };
  GtkApplication *app = GTK_APPLICATION (user_data);
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", gtk_application_get_active_window (app),
                        "application-name", _("Kymo"),
                        "application-icon", APP_ID,
                        "developer-name", _("The Kymo authors"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Explore performance traces on a timeline.\n\n"
                                      "Reads dial9, Ruler Trace Container, ADA trace (ATF v2), "
                                      "Web Tracing Framework and Tonbandgerät traces."),
                        "website", "https://github.com/kymo/kymo",
                        "issue-url", "https://github.com/kymo/kymo/issues",
                        "copyright", "© 2026 The Kymo authors",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "developers", developers,
                        /* Translators: your names, one per line, e.g. "Jane Doe <jane@example.org>" */
                        "translator-credits", _("translator-credits"),
                        NULL);
  adw_about_window_add_acknowledgement_section (ADW_ABOUT_WINDOW (about),
                                                _("File formats designed by"),
                                                (const char *[]) {
                                                  "dial9 https://github.com/dial9-rs/dial9-tokio-telemetry",
                                                  "Ruler Trace https://github.com/jhrutgers/ruler-trace",
                                                  "ADA https://github.com/WeZZard/ADA",
                                                  "Web Tracing Framework https://github.com/google/tracing-framework",
                                                  "Tonbandgerät https://github.com/schilkp/Tonbandgeraet",
                                                  NULL });
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  /* Closing each window cancels its load and saves its size. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
  g_list_free (windows);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (user_data));

  gtk_window_present (GTK_WINDOW (kymo_preferences_window_new (parent)));
}

static const GActionEntry app_actions[] = {
  { .name = "about", .activate = about_action },
  { .name = "preferences", .activate = preferences_action },
  { .name = "quit", .activate = quit_action },
};

static void
kymo_application_startup (GApplication *app)
{
  G_APPLICATION_CLASS (kymo_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit",
                                         (const char *[]) { "<Control>q", NULL });
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences",
                                         (const char *[]) { "<Control>comma", NULL });
}

static void
kymo_application_class_init (KymoApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  app_class->startup = kymo_application_startup;
  app_class->activate = kymo_application_activate;
  app_class->open = kymo_application_open;

  kymo_register_resource ();
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
                       "resource-base-path", "/io/github/kymo/Kymo",
                       "flags", G_APPLICATION_HANDLES_OPEN,
                       NULL);
}
