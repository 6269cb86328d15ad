/* kymo-window-export.c: Export… — the timeline as an image, the trace as Chrome JSON
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-window"

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "kymo-window-private.h"
#include "kymo-export-chrome.h"
#include "kymo-timeline.h"
#include "kymo-timeline-export.h"
#include "kymo-trace-view.h"

#define FORMAT_CHOICE "format"

static const struct {
  const char *id;
  const char *extension;
} export_formats[] = {
  { KYMO_WINDOW_EXPORT_PNG, ".png" },
  { KYMO_WINDOW_EXPORT_SVG, ".svg" },
  { KYMO_WINDOW_EXPORT_CHROME, ".json" },
};

static const char *
extension_for (const char *format)
{
  for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
    if (g_str_equal (format, export_formats[i].id))
      return export_formats[i].extension;
  return NULL;
}

/* "trace.png" saved as SVG becomes "trace.svg"; "trace" gets ".svg". The
 * chooser cannot follow its own format choice, so the name follows here. */
static GFile *
file_with_extension (GFile      *file,
                     const char *extension)
{
  g_autofree char *basename = g_file_get_basename (file);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;

  if (basename == NULL || parent == NULL || g_str_has_suffix (basename, extension))
    return g_object_ref (file);
  stem = g_strdup (basename);
  for (guint i = 0; i < G_N_ELEMENTS (export_formats); i++)
    {
      if (g_str_has_suffix (stem, export_formats[i].extension) &&
          strlen (stem) > strlen (export_formats[i].extension))
        {
          stem[strlen (stem) - strlen (export_formats[i].extension)] = '\0';
          break;
        }
    }
  name = g_strconcat (stem, extension, NULL);
  return g_file_get_child (parent, name);
}

static void
show_toast (KymoWindow *self,
            const char *title)
{
  AdwToast *toast = adw_toast_new (title);

  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
show_done_toast (KymoWindow *self,
                 GFile      *file)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *display = g_filename_display_name (name);
  g_autofree char *escaped = g_markup_escape_text (display, -1);
  /* Translators: %s is a file name */
  g_autofree char *title = g_strdup_printf (_("Exported “%s”"), escaped);

  show_toast (self, title);
}

static void
show_error_toast (KymoWindow   *self,
                  const GError *error)
{
  g_autofree char *escaped = g_markup_escape_text (error->message, -1);
  /* Translators: %s is the reason */
  g_autofree char *title = g_strdup_printf (_("Could not export: %s"), escaped);

  show_toast (self, title);
}

/* ---------------------------------------------------------------- images */

static gboolean
export_image (KymoWindow  *self,
              GFile       *file,
              gboolean     svg,
              GError     **error)
{
  GtkWidget *view = adw_bin_get_child (self->trace_bin);
  KymoSession *session;
  GtkWidget *timeline;
  KymoTimelineViewport viewport;
  KymoTime start, end;
  g_autofree char *path = g_file_get_path (file);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());

  if (!KYMO_IS_TRACE_VIEW (view))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("No trace is shown"));
      return FALSE;
    }
  if (path == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Images can only be saved to local files"));
      return FALSE;
    }

  session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (view));
  timeline = kymo_trace_view_get_timeline (KYMO_TRACE_VIEW (view));
  /* What the user sees: the timeline's size and vertical scroll. */
  viewport.width = MAX (gtk_widget_get_width (timeline), 1);
  viewport.height = MAX (gtk_widget_get_height (timeline), KYMO_TIMELINE_RULER_HEIGHT + 1);
  viewport.scroll_y = floor (gtk_adjustment_get_value (kymo_timeline_get_vadjustment (KYMO_TIMELINE (timeline))));
  /* The selected time range, when there is one; else the visible range. */
  kymo_session_get_selected_range (session, &start, &end);

  return kymo_timeline_export_view_to_file (session, &viewport, start, end, dark,
                                            svg ? KYMO_TIMELINE_EXPORT_SVG : KYMO_TIMELINE_EXPORT_PNG,
                                            path, error);
}

/* ---------------------------------------------------------------- Chrome JSON */

typedef struct {
  KymoTrace *trace;
  GFile     *file;
} ChromeJob;

static void
chrome_job_free (ChromeJob *job)
{
  g_clear_object (&job->trace);
  g_clear_object (&job->file);
  g_free (job);
}

static void
export_chrome_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  ChromeJob *job = task_data;
  g_autofree char *path = g_file_get_path (job->file);
  g_autoptr(GError) error = NULL;
  KymoExportChromeOptions options = { KYMO_EXPORT_CHROME_ARGS_AUTO, 0 };
  KymoTime start = KYMO_TIME_NONE;
  gboolean ok;
  FILE *out;

  if (path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                               "%s", _("Traces can only be exported to local files"));
      return;
    }
  out = g_fopen (path, "wb");
  if (out == NULL)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (path);

      g_task_return_new_error (task, G_IO_ERROR, g_io_error_from_errno (saved),
                               "%s: %s", display, g_strerror (saved));
      return;
    }

  /* Viewers read "ts" as a double: rebase onto the trace's start. */
  kymo_trace_get_time_range (job->trace, &start, NULL);
  options.origin = start == KYMO_TIME_NONE ? 0 : start;
  ok = kymo_export_chrome_full (job->trace, &options, out, cancellable, &error);
  if (fclose (out) != 0 && ok)
    {
      int saved = errno;
      g_autofree char *display = g_filename_display_name (path);

      g_set_error (&error, G_IO_ERROR, g_io_error_from_errno (saved), "%s: %s", display, g_strerror (saved));
      ok = FALSE;
    }
  if (!ok)
    {
      /* Half a document is no use to anyone. */
      g_unlink (path);
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  g_task_return_boolean (task, TRUE);
}

static void
export_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  KymoWindow *self = KYMO_WINDOW (object);
  g_autoptr(GError) error = NULL;
  GFile *file = g_task_get_task_data (G_TASK (result)) != NULL
                ? ((ChromeJob *) g_task_get_task_data (G_TASK (result)))->file : NULL;

  if (_kymo_window_export_finish (self, result, &error))
    show_done_toast (self, file);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_error_toast (self, error);
}

void
_kymo_window_export_async (KymoWindow          *self,
                           GFile               *file,
                           const char          *format,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  ChromeJob *job;

  g_return_if_fail (KYMO_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (format != NULL && extension_for (format) != NULL);

  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, _kymo_window_export_async);

  job = g_new0 (ChromeJob, 1);
  job->trace = self->trace != NULL ? g_object_ref (self->trace) : NULL;
  job->file = g_object_ref (file);
  g_task_set_task_data (task, job, (GDestroyNotify) chrome_job_free);

  if (self->trace == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "%s", _("No trace is shown"));
      return;
    }

  if (g_str_equal (format, KYMO_WINDOW_EXPORT_CHROME))
    {
      /* A large trace takes a while: write it in a thread. The trace is
       * sealed, so reading it there is safe. */
      g_task_run_in_thread (task, export_chrome_thread);
      return;
    }

  /* One frame: quick, and it reads widget state, so on this thread. */
  if (export_image (self, file, g_str_equal (format, KYMO_WINDOW_EXPORT_SVG), &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, g_steal_pointer (&error));
}

gboolean
_kymo_window_export_finish (KymoWindow    *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == _kymo_window_export_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---------------------------------------------------------------- the dialog */

static void
export_chooser_response_cb (KymoWindow      *self,
                            int              response,
                            GtkNativeDialog *chooser)
{
  g_autoptr(GtkNativeDialog) owned = g_steal_pointer (&self->export_chooser);
  g_autoptr(GFile) chosen = NULL;
  g_autoptr(GFile) file = NULL;
  const char *format;

  g_assert (owned == chooser);

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  if (chosen == NULL)
    return;
  format = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), FORMAT_CHOICE);
  if (format == NULL || extension_for (format) == NULL)
    format = KYMO_WINDOW_EXPORT_PNG;
  file = file_with_extension (chosen, extension_for (format));

  _kymo_window_export_async (self, file, format, export_done_cb, NULL);
}

static char *
dup_suggested_stem (KymoWindow *self)
{
  g_autofree char *basename = NULL;
  char *dot;

  if (self->loading_file == NULL)
    return g_strdup ("trace");
  basename = g_file_get_basename (self->loading_file);
  if (basename == NULL || g_str_equal (basename, "index.atf"))
    {
      g_autoptr(GFile) parent = g_file_get_parent (self->loading_file);

      g_free (basename);
      basename = parent != NULL ? g_file_get_basename (parent) : NULL;
    }
  if (basename == NULL || *basename == '\0' || g_str_equal (basename, "/"))
    return g_strdup ("trace");
  dot = strrchr (basename, '.');
  if (dot != NULL && dot != basename)
    *dot = '\0';
  return g_steal_pointer (&basename);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  KymoWindow *self = KYMO_WINDOW (widget);
  static const char *ids[] = { KYMO_WINDOW_EXPORT_PNG, KYMO_WINDOW_EXPORT_SVG, KYMO_WINDOW_EXPORT_CHROME, NULL };
  const char *labels[] = { _("PNG image of the timeline"), _("SVG image of the timeline"),
                           _("Chrome Trace JSON of the whole trace"), NULL };
  GtkFileChooserNative *chooser;
  g_autofree char *stem = NULL;
  g_autofree char *name = NULL;

  if (self->trace == NULL)
    return;
  if (self->export_chooser != NULL)
    {
      gtk_native_dialog_show (self->export_chooser);
      return;
    }

  chooser = gtk_file_chooser_native_new (_("Export"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                         _("_Export"), _("_Cancel"));
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (chooser), FORMAT_CHOICE, _("Format"), ids, labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (chooser), FORMAT_CHOICE, KYMO_WINDOW_EXPORT_PNG);
  stem = dup_suggested_stem (self);
  name = g_strconcat (stem, ".png", NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect_object (chooser, "response", G_CALLBACK (export_chooser_response_cb), self, G_CONNECT_SWAPPED);
  self->export_chooser = GTK_NATIVE_DIALOG (chooser);
  gtk_native_dialog_show (self->export_chooser);
}

void
_kymo_window_dispose_export (KymoWindow *self)
{
  if (self->export_chooser != NULL)
    gtk_native_dialog_destroy (self->export_chooser);
  g_clear_object (&self->export_chooser);
}

void
_kymo_window_class_init_export (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export", NULL);
}
