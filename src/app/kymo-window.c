/* kymo-window.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-window"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-window-private.h"
#include "kymo-trace-view.h"

G_DEFINE_FINAL_TYPE (KymoWindow, kymo_window, ADW_TYPE_APPLICATION_WINDOW)

static GSettings *
settings_new_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    {
      g_debug ("GSettings schema %s is not installed: window size is not remembered", APP_ID);
      return NULL;
    }
  return g_settings_new_full (schema, NULL, NULL);
}

static char *
dup_display_name (GFile *file)
{
  g_autofree char *path = g_file_get_path (file);
  g_autofree char *basename = g_file_get_basename (file);

  /* An ATF session is a folder of "thread_N/index.atf": the folder names it. */
  if (basename != NULL && (g_str_equal (basename, "index.atf") || g_str_equal (basename, "detail.atf")))
    {
      g_autoptr(GFile) parent = g_file_get_parent (file);

      if (parent != NULL)
        return dup_display_name (parent);
    }
  if (basename != NULL)
    return g_filename_display_name (basename);
  if (path != NULL)
    return g_filename_display_name (path);
  return g_file_get_uri (file);
}

/* Several files opened as one trace are named by the first and a count. */
static char *
dup_files_name (GPtrArray *files)
{
  char *first = dup_display_name (g_ptr_array_index (files, 0));
  guint more = files->len - 1;
  char *name;

  if (more == 0)
    return first;
  /* Translators: %s is the first file's name, %u how many others open with it */
  name = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s and %u more file", "%s and %u more files", more),
                          first, more);
  g_free (first);
  return name;
}

static void
set_title (KymoWindow *self,
           const char *title,
           const char *subtitle)
{
  gtk_window_set_title (GTK_WINDOW (self), title != NULL ? title : _("Kymo"));
  adw_window_title_set_title (self->window_title, title != NULL ? title : _("Kymo"));
  adw_window_title_set_subtitle (self->window_title, subtitle != NULL ? subtitle : "");
}

static void
show_error (KymoWindow   *self,
            GFile        *file,
            const GError *error)
{
  g_autofree char *name = dup_display_name (file);
  g_autofree char *heading = NULL;
  GtkWidget *dialog;

  /* Translators: %s is a file name */
  heading = g_strdup_printf (_("Could Not Open “%s”"), name);
  dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, error->message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
show_trace (KymoWindow *self,
            KymoTrace  *trace)
{
  const GError *stop_error = kymo_trace_get_stop_error (trace);
  const KymoFormat *format = kymo_trace_get_format (trace);
  g_autofree char *fallback = self->loading_files != NULL && self->loading_files->len > 0
                              ? dup_files_name (self->loading_files) : dup_display_name (self->loading_file);
  const char *title = kymo_trace_get_title (trace);
  g_autofree char *uri = NULL;

  _kymo_window_show_trace_view (self, trace, FALSE);
  _kymo_window_clock_apply (self);
  set_title (self, title != NULL && *title != '\0' ? title : fallback,
             format != NULL && format->title != NULL ? _(format->title) : NULL);

  if (stop_error != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (stop_error->message, -1);
      /* Translators: %s is the reason, e.g. "trace.bin: offset 512: bad record length" */
      AdwToast *toast = adw_toast_new_format (_("Stopped reading at damage: %s"), escaped);

      adw_toast_set_timeout (toast, 0);
      adw_toast_overlay_add_toast (self->toast_overlay, toast);
    }

  uri = g_file_get_uri (self->loading_file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(KymoWindow) self = user_data;
  KymoLoader *loader = KYMO_LOADER (object);
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;

  trace = kymo_loader_load_finish (loader, result, &error);

  /* A newer load replaced this one: its result is nobody's business. */
  if (loader != self->loader)
    return;

  g_clear_object (&self->loader);

  if (trace != NULL)
    show_trace (self, trace);
  else if (!_kymo_window_keep_preview (self, error))
    {
      /* A failed reload leaves nothing on screen: nothing to export either. */
      g_clear_object (&self->trace);
      adw_bin_set_child (self->trace_bin, NULL);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      set_title (self, NULL, NULL);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, self->loading_file, error);
    }

  _kymo_window_update_actions (self);
}

void
kymo_window_load (KymoWindow    *self,
                  GFile * const *files,
                  guint          n_files)
{
  kymo_window_load_full (self, files, n_files, NULL);
}

void
kymo_window_load_full (KymoWindow            *self,
                       GFile * const         *files,
                       guint                  n_files,
                       const KymoLoadOptions *options)
{
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (KYMO_IS_WINDOW (self));
  g_return_if_fail (files != NULL && n_files > 0);

  input = kymo_input_new_for_files (files, n_files, &error);
  if (input == NULL)
    {
      show_error (self, files[0], error);
      return;
    }

  /* Only one load per window: a new one supersedes a running one. */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  g_set_object (&self->loading_file, files[0]);
  /* @files may be self->loading_files itself (a reload): copy first. */
  {
    GPtrArray *copy = g_ptr_array_new_full (n_files, g_object_unref);

    for (guint i = 0; i < n_files; i++)
      g_ptr_array_add (copy, g_object_ref (files[i]));
    g_clear_pointer (&self->loading_files, g_ptr_array_unref);
    self->loading_files = copy;
  }
  {
    char *mode = g_strdup (options != NULL ? options->tband_mode : NULL);

    g_free (self->tband_mode);
    self->tband_mode = mode;
  }
  g_clear_object (&self->loader);
  {
    KymoLoadOptions with_preview = options != NULL ? *options : (KymoLoadOptions) { 0 };

    with_preview.preview = TRUE;
    self->loader = kymo_loader_new (input, &with_preview);
  }
  _kymo_window_watch_previews (self, self->loader);

  g_object_bind_property (self->loader, "fraction", self->progress_bar, "fraction", G_BINDING_SYNC_CREATE);
  g_object_bind_property (self->loader, "message", self->loading_page, "description", G_BINDING_SYNC_CREATE);

  name = dup_files_name (self->loading_files);
  /* Translators: %s is a file name */
  title = g_strdup_printf (_("Loading “%s”…"), name);
  adw_status_page_set_title (self->loading_page, title);
  set_title (self, name, NULL);
  gtk_stack_set_visible_child_name (self->stack, "loading");

  kymo_loader_load_async (self->loader, self->cancellable, load_cb, g_object_ref (self));
  _kymo_window_update_actions (self);
}

gboolean
kymo_window_is_empty (KymoWindow *self)
{
  g_return_val_if_fail (KYMO_IS_WINDOW (self), FALSE);

  return self->trace == NULL && self->loader == NULL;
}

KymoTrace *
kymo_window_get_trace (KymoWindow *self)
{
  g_return_val_if_fail (KYMO_IS_WINDOW (self), NULL);

  return self->trace;
}

static gboolean
kymo_window_close_request (GtkWindow *window)
{
  KymoWindow *self = KYMO_WINDOW (window);

  g_cancellable_cancel (self->cancellable);

  if (self->settings != NULL)
    {
      int width, height;

      gtk_window_get_default_size (window, &width, &height);
      g_settings_delay (self->settings);
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
      g_settings_apply (self->settings);
    }

  return GTK_WINDOW_CLASS (kymo_window_parent_class)->close_request (window);
}

static void
kymo_window_dispose (GObject *object)
{
  KymoWindow *self = KYMO_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (self->chooser);
  g_clear_object (&self->chooser);
  _kymo_window_dispose_export (self);

  gtk_widget_dispose_template (GTK_WIDGET (self), KYMO_TYPE_WINDOW);

  G_OBJECT_CLASS (kymo_window_parent_class)->dispose (object);
}

static void
kymo_window_finalize (GObject *object)
{
  KymoWindow *self = KYMO_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->loader);
  g_clear_object (&self->loading_file);
  g_clear_pointer (&self->loading_files, g_ptr_array_unref);
  g_clear_pointer (&self->tband_mode, g_free);
  g_clear_object (&self->trace);

  G_OBJECT_CLASS (kymo_window_parent_class)->finalize (object);
}

static void
kymo_window_class_init (KymoWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = kymo_window_dispose;
  object_class->finalize = kymo_window_finalize;
  window_class->close_request = kymo_window_close_request;

  g_type_ensure (KYMO_TYPE_TRACE_VIEW);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/kymo/Kymo/kymo-window.ui");
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, loading_page);
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, trace_bin);
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, recent_menu);
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, preview_bar);
  gtk_widget_class_bind_template_child (widget_class, KymoWindow, preview_progress);

  _kymo_window_class_init_actions (widget_class);
  _kymo_window_class_init_export (widget_class);
  _kymo_window_class_init_properties (widget_class);
}

static void
kymo_window_init (KymoWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->cancellable = g_cancellable_new ();
  self->settings = settings_new_if_installed ();
  if (self->settings != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (self),
                                   g_settings_get_int (self->settings, "window-width"),
                                   g_settings_get_int (self->settings, "window-height"));
      if (g_settings_get_boolean (self->settings, "window-maximized"))
        gtk_window_maximize (GTK_WINDOW (self));
    }

  _kymo_window_init_actions (self);
  _kymo_window_init_dnd (self);
  _kymo_window_clock_init (self);
}

KymoWindow *
kymo_window_new (GtkApplication *application)
{
  return g_object_new (KYMO_TYPE_WINDOW,
                       "application", application,
                       NULL);
}
