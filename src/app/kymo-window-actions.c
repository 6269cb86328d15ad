/* kymo-window-actions.c: the window's commands, file chooser and recent menu
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-window"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-window-private.h"

#define MAX_RECENT 10

void
_kymo_window_open_files_full (KymoWindow            *self,
                              GFile * const         *files,
                              guint                  n_files,
                              const KymoLoadOptions *options)
{
  KymoWindow *target = self;

  g_assert (KYMO_IS_WINDOW (self));

  /* One window per trace: a window showing a trace stays as it is. */
  if (!kymo_window_is_empty (self))
    target = kymo_window_new (gtk_window_get_application (GTK_WINDOW (self)));

  kymo_window_load_full (target, files, n_files, options);
  gtk_window_present (GTK_WINDOW (target));
}

void
_kymo_window_open_files (KymoWindow    *self,
                         GFile * const *files,
                         guint          n_files)
{
  _kymo_window_open_files_full (self, files, n_files, NULL);
}

/* The file chooser's "tband-mode" choice, as KymoLoadOptions.tband_mode. */
#define TBAND_MODE_CHOICE "tband-mode"
#define TBAND_MODE_AUTO   "auto"

/* The MIME types data/io.github.kymo.Kymo.mime.xml installs, by format. */
static const struct {
  const char *format;
  const char *mime_type;
} installed_types[] = {
  { "dial9", "application/x-dial9-trace" },
  { "rtc", "application/x-ruler-trace" },
  { "atf", "application/x-atf-trace" },
  { "wtf", "application/x-wtf-trace" },
  { "tband", "application/x-tonbandgeraet-trace" },
};

static void
add_format_to_filter (GtkFileFilter    *filter,
                      const KymoFormat *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (installed_types); i++)
    {
      if (g_str_equal (format->name, installed_types[i].format))
        gtk_file_filter_add_mime_type (filter, installed_types[i].mime_type);
    }

  if (format->mime_types != NULL)
    {
      for (guint i = 0; format->mime_types[i] != NULL; i++)
        gtk_file_filter_add_mime_type (filter, format->mime_types[i]);
    }

  if (format->patterns != NULL)
    {
      for (guint i = 0; format->patterns[i] != NULL; i++)
        gtk_file_filter_add_pattern (filter, format->patterns[i]);
    }
}

static void
add_filters (GtkFileChooser *chooser)
{
  g_autoptr(GtkFileFilter) all_traces = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all_files = gtk_file_filter_new ();
  const KymoFormat * const *formats;
  guint n_formats = 0;

  formats = kymo_formats_get_all (&n_formats);

  gtk_file_filter_set_name (all_traces, _("All Traces"));
  for (guint i = 0; i < n_formats; i++)
    add_format_to_filter (all_traces, formats[i]);
  gtk_file_chooser_add_filter (chooser, all_traces);

  for (guint i = 0; i < n_formats; i++)
    {
      g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

      gtk_file_filter_set_name (filter, formats[i]->title != NULL ? _(formats[i]->title) : formats[i]->name);
      add_format_to_filter (filter, formats[i]);
      gtk_file_chooser_add_filter (chooser, filter);
    }

  /* Formats are recognised by content: a trace may have any name. */
  gtk_file_filter_set_name (all_files, _("All Files"));
  gtk_file_filter_add_pattern (all_files, "*");
  gtk_file_chooser_add_filter (chooser, all_files);

  gtk_file_chooser_set_filter (chooser, all_traces);
}

static void
chooser_response_cb (KymoWindow      *self,
                     int              response,
                     GtkNativeDialog *chooser)
{
  g_autoptr(GtkNativeDialog) owned = g_steal_pointer (&self->chooser);
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GPtrArray) array = NULL;
  KymoLoadOptions options = { 0 };
  guint n;

  g_assert (owned == chooser);

  if (response != GTK_RESPONSE_ACCEPT)
    return;

  files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (chooser));
  n = g_list_model_get_n_items (files);
  if (n == 0)
    return;

  array = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (array, g_list_model_get_item (files, i));

  /* Only the Open File chooser has the choice (a folder is an ATF session). */
  if (gtk_file_chooser_get_action (GTK_FILE_CHOOSER (chooser)) == GTK_FILE_CHOOSER_ACTION_OPEN)
    {
      const char *mode = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), TBAND_MODE_CHOICE);

      if (mode != NULL && !g_str_equal (mode, TBAND_MODE_AUTO))
        options.tband_mode = mode;
    }

  _kymo_window_open_files_full (self, (GFile * const *) array->pdata, array->len, &options);
}

static void
run_chooser (KymoWindow           *self,
             GtkFileChooserAction  action)
{
  GtkFileChooserNative *chooser;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }

  if (action == GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER)
    chooser = gtk_file_chooser_native_new (_("Open an ATF Session Folder"), GTK_WINDOW (self), action,
                                           _("_Open"), _("_Cancel"));
  else
    {
      chooser = gtk_file_chooser_native_new (_("Open a Trace"), GTK_WINDOW (self), action,
                                             _("_Open"), _("_Cancel"));
      static const char *mode_ids[] = { TBAND_MODE_AUTO, "freertos", "bare-metal", NULL };
      const char *mode_labels[] = { _("Automatic"), _("FreeRTOS"), _("Bare Metal"), NULL };

      /* Selected together they form one trace (one Tonbandgerät file per core). */
      gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (chooser), TRUE);
      add_filters (GTK_FILE_CHOOSER (chooser));
      /* A Tonbandgerät trace does not always say whether it ran on FreeRTOS. */
      gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), TBAND_MODE_CHOICE, _("Tonbandgerät mode"),
                                   mode_ids, mode_labels);
      gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), TBAND_MODE_CHOICE, TBAND_MODE_AUTO);
    }

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (chooser_response_cb), self, G_CONNECT_SWAPPED);
  self->chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->chooser);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  run_chooser (KYMO_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN);
}

static void
open_folder_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  run_chooser (KYMO_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER);
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (param, NULL));

  _kymo_window_open_files (KYMO_WINDOW (widget), &file, 1);
}

static void
close_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  gtk_window_close (GTK_WINDOW (widget));
}

static void
cancel_load_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  g_cancellable_cancel (KYMO_WINDOW (widget)->cancellable);
}

static gboolean
showing_tband_trace (KymoWindow *self)
{
  const KymoFormat *format;

  if (self->trace == NULL || self->loader != NULL || self->loading_files == NULL)
    return FALSE;
  format = kymo_trace_get_format (self->trace);
  return format != NULL && g_str_equal (format->name, "tband");
}

/* Reads the same files again, telling the decoder what ran on the target. */
static void
reload_tband_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  KymoWindow *self = KYMO_WINDOW (widget);
  g_autoptr(GPtrArray) files = NULL;
  KymoLoadOptions options = { 0 };

  if (!showing_tband_trace (self))
    return;
  options.tband_mode = g_str_equal (action_name, "win.reload-freertos") ? "freertos" : "bare-metal";
  files = g_ptr_array_ref (self->loading_files);
  kymo_window_load_full (self, (GFile * const *) files->pdata, files->len, &options);
}

void
_kymo_window_update_actions (KymoWindow *self)
{
  gboolean tband = showing_tband_trace (self);
  const char *variant = tband ? kymo_trace_get_variant (self->trace) : NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.cancel-load", self->loader != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", self->trace != NULL && self->loader == NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.trace-properties", self->trace != NULL);
  /* Offer the mode the trace is not shown in. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reload-freertos",
                                 tband && g_strcmp0 (variant, "freertos") != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.reload-bare-metal",
                                 tband && g_strcmp0 (variant, "bare-metal") != 0);
}

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GtkRecentInfo *info_a = *(GtkRecentInfo **) a;
  GtkRecentInfo *info_b = *(GtkRecentInfo **) b;

  /* Newest first */
  return g_date_time_compare (gtk_recent_info_get_modified (info_b),
                              gtk_recent_info_get_modified (info_a));
}

static void
update_recent_menu (KymoWindow *self)
{
  GtkRecentManager *manager = gtk_recent_manager_get_default ();
  g_autoptr(GPtrArray) infos = g_ptr_array_new_with_free_func ((GDestroyNotify) gtk_recent_info_unref);
  const char *app_name = g_get_application_name ();
  GList *items = gtk_recent_manager_get_items (manager);

  for (GList *l = items; l != NULL; l = l->next)
    {
      GtkRecentInfo *info = l->data;

      if (app_name != NULL && gtk_recent_info_has_application (info, app_name) &&
          !(gtk_recent_info_is_local (info) && !gtk_recent_info_exists (info)))
        g_ptr_array_add (infos, gtk_recent_info_ref (info));
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  g_ptr_array_sort (infos, compare_recent);

  g_menu_remove_all (self->recent_menu);
  for (guint i = 0; i < infos->len && i < MAX_RECENT; i++)
    {
      GtkRecentInfo *info = g_ptr_array_index (infos, i);
      g_autoptr(GString) label = g_string_new (gtk_recent_info_get_display_name (info));
      g_autoptr(GMenuItem) item = NULL;

      /* A file name is no mnemonic: "my_trace" must not underline the t. */
      g_string_replace (label, "_", "__", 0);
      item = g_menu_item_new (label->str, NULL);

      g_menu_item_set_action_and_target (item, "win.open-recent", "s", gtk_recent_info_get_uri (info));
      g_menu_append_item (self->recent_menu, item);
    }

  /* An item without an action shows greyed out. */
  if (infos->len == 0)
    g_menu_append (self->recent_menu, _("No Recent Traces"), "win.none");
}

void
_kymo_window_init_actions (KymoWindow *self)
{
  g_signal_connect_object (gtk_recent_manager_get_default (), "changed",
                           G_CALLBACK (update_recent_menu), self, G_CONNECT_SWAPPED);
  update_recent_menu (self);
  _kymo_window_update_actions (self);
}

void
_kymo_window_class_init_actions (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.open-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.close", NULL, close_action);
  gtk_widget_class_install_action (widget_class, "win.cancel-load", NULL, cancel_load_action);
  gtk_widget_class_install_action (widget_class, "win.reload-freertos", NULL, reload_tband_action);
  gtk_widget_class_install_action (widget_class, "win.reload-bare-metal", NULL, reload_tband_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.open-folder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "win.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.cancel-load", NULL);
}
