/* test-window.c: the app window as a user meets it (run under Xvfb)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-window"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include <json-glib/json-glib.h>

#include "kymo-application.h"
#include "kymo-test-app.h"
#include "kymo-test-widget.h"
#include "kymo-timeline.h"
#include "kymo-trace-view.h"
#include "kymo-window-private.h"
#include "tband/kymo-tband-events.h"

static KymoApplication *app;
static char *tmp_dir;

static void
spin_briefly (void)
{
  for (int i = 0; i < 50; i++)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static gboolean
is_allocated (gpointer widget)
{
  return gtk_widget_get_width (widget) > 0 && gtk_widget_get_height (widget) > 0;
}

static KymoWindow *
new_window (void)
{
  KymoWindow *window = kymo_window_new (GTK_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
  kymo_test_wait_until (kymo_test_is_mapped, window);
  return window;
}

/* What the window shows below its header bar. */
static GtkWidget *
visible_page (KymoWindow *window)
{
  GObject *stack = gtk_widget_get_template_child (GTK_WIDGET (window), KYMO_TYPE_WINDOW, "stack");

  g_assert_true (GTK_IS_STACK (stack));
  return gtk_stack_get_visible_child (GTK_STACK (stack));
}

static GtkDropTarget *
find_drop_target (KymoWindow *window)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        return GTK_DROP_TARGET (controller);
    }
  return NULL;
}

static AdwMessageDialog *
find_error_dialog (KymoWindow *window)
{
  return (AdwMessageDialog *) kymo_test_find_transient (GTK_WINDOW (window), ADW_TYPE_MESSAGE_DIALOG);
}

static gboolean
load_finished (gpointer window)
{
  return kymo_window_get_trace (window) != NULL || find_error_dialog (window) != NULL;
}

typedef struct {
  GdkPaintable  *paintable;
  int            width, height;
  GskRenderNode *node;
} Shot;

/* The widget paintable has nothing to show until the widget has drawn. */
static gboolean
take_shot (gpointer data)
{
  Shot *shot = data;
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (shot->paintable, snapshot, shot->width, shot->height);
  shot->node = gtk_snapshot_free_to_node (snapshot);
  return shot->node != NULL;
}

static void
save_screenshot (KymoWindow *window,
                 const char *name)
{
  GtkWidget *widget = GTK_WIDGET (window);
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_BUILT, "app", name, NULL);
  Shot shot = { paintable };

  kymo_test_wait_until (is_allocated, widget);
  shot.width = gtk_widget_get_width (widget);
  shot.height = gtk_widget_get_height (widget);
  kymo_test_wait_until (take_shot, &shot);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), shot.node,
                                         &GRAPHENE_RECT_INIT (0, 0, shot.width, shot.height));
  gsk_render_node_unref (shot.node);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
}

static gboolean
drop_files (KymoWindow *window,
            GFile      *file)
{
  GtkDropTarget *target = find_drop_target (window);
  GValue value = G_VALUE_INIT;
  gboolean handled = FALSE;
  GdkDragAction action = 0;

  g_assert_nonnull (target);

  /* The highlight shows while a drag hovers and goes when it leaves. */
  g_signal_emit_by_name (target, "enter", 10.0, 10.0, &action);
  g_assert_cmpint (action, ==, GDK_ACTION_COPY);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window), "dragging"));
  g_signal_emit_by_name (target, "leave");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "dragging"));

  g_signal_emit_by_name (target, "enter", 10.0, 10.0, &action);
  spin_briefly ();
  save_screenshot (window, "window-dragging.png");
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, g_slist_prepend (NULL, g_object_ref (file)));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &handled);
  g_value_unset (&value);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (window), "dragging"));

  return handled;
}

static GFile *
write_file (const char   *name,
            const guint8 *data,
            gsize         size)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) data, size, &error);
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static void
put_u32 (GByteArray *out,
         guint32     value)
{
  guint8 b[4] = { value, value >> 8, value >> 16, value >> 24 };

  g_byte_array_append (out, b, 4);
}

static void
put_u64 (GByteArray *out,
         guint64     value)
{
  put_u32 (out, (guint32) value);
  put_u32 (out, (guint32) (value >> 32));
}

static guint32
crc32_of (const guint8 *data,
          gsize         size)
{
  guint32 crc = 0xffffffff;

  for (gsize i = 0; i < size; i++)
    {
      crc ^= data[i];
      for (int k = 0; k < 8; k++)
        crc = (crc >> 1) ^ (0xedb88320 & -(crc & 1));
    }
  return ~crc;
}

/* A tiny ATF v2 index file (../shared/specs/atf-v2.md): main() calls
 * parse() which calls lex(), then main() calls render(). */
static GFile *
write_atf_index (void)
{
  static const struct { guint64 ts; guint32 function; guint32 kind; guint32 depth; } events[] = {
    { 1000, 1, 1, 0 }, { 1500, 2, 1, 1 }, { 2000, 3, 1, 2 }, { 4000, 3, 2, 2 },
    { 6000, 2, 2, 1 }, { 6500, 4, 1, 1 }, { 9000, 4, 2, 1 }, { 10000, 1, 2, 0 },
  };
  const guint n = G_N_ELEMENTS (events);
  g_autoptr(GByteArray) out = g_byte_array_new ();
  guint32 crc;

  g_byte_array_append (out, (const guint8 *) "ATI2", 4);
  g_byte_array_append (out, (const guint8[]) { 1, 1, 1, 4 }, 4); /* LE, v1, x86_64, Linux */
  put_u32 (out, 0);                  /* flags: no detail file */
  put_u32 (out, 7);                  /* thread id */
  g_byte_array_append (out, (const guint8[]) { 3, 0, 0, 0 }, 4); /* boottime */
  put_u32 (out, 0);
  put_u32 (out, 32);
  put_u32 (out, n);
  put_u64 (out, 64);
  put_u64 (out, 64 + 32 * n);
  put_u64 (out, events[0].ts);
  put_u64 (out, events[n - 1].ts);
  g_assert_cmpuint (out->len, ==, 64);

  for (guint i = 0; i < n; i++)
    {
      put_u64 (out, events[i].ts);
      put_u64 (out, ((guint64) 1 << 32) | events[i].function);
      put_u32 (out, 7);
      put_u32 (out, events[i].kind);
      put_u32 (out, events[i].depth);
      put_u32 (out, G_MAXUINT32);
    }

  crc = crc32_of (out->data + 64, 32 * n);
  g_byte_array_append (out, (const guint8 *) "2ITA", 4);
  put_u32 (out, crc);
  put_u64 (out, n);
  put_u64 (out, events[0].ts);
  put_u64 (out, events[n - 1].ts);
  put_u64 (out, 32 * n);
  for (guint i = 0; i < 28; i++)
    g_byte_array_append (out, (const guint8[]) { 0 }, 1);

  return write_file ("index.atf", out->data, out->len);
}

static void
test_empty_window (void)
{
  KymoWindow *window = new_window ();
  GtkWidget *page = visible_page (window);

  /* An empty window invites the user to open or drop a trace. */
  g_assert_true (ADW_IS_STATUS_PAGE (page));
  g_assert_true (gtk_widget_get_mapped (page));
  g_assert_true (kymo_window_is_empty (window));
  g_assert_nonnull (find_drop_target (window));
  /* it names every kind of folder a drop opens, a dial9 one too */
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), "ATF session"));
  g_assert_nonnull (strstr (adw_status_page_get_description (ADW_STATUS_PAGE (page)), "dial9"));
  save_screenshot (window, "window-empty.png");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_drop_trace (void)
{
  KymoWindow *window = new_window ();
  g_autoptr(GFile) file = write_atf_index ();
  AdwMessageDialog *dialog;
  GtkWidget *page;

  g_assert_true (drop_files (window, file));
  kymo_test_wait_until (load_finished, window);

  dialog = find_error_dialog (window);
  if (dialog != NULL)
    g_error ("a valid ATF index did not load: %s", adw_message_dialog_get_body (dialog));

  /* The status page gave way to the trace. */
  page = visible_page (window);
  g_assert_false (ADW_IS_STATUS_PAGE (page));
  kymo_test_wait_until (kymo_test_is_mapped, page);
  g_assert_nonnull (kymo_test_find_descendant (page, KYMO_TYPE_TRACE_VIEW));
  g_assert_true (kymo_trace_view_get_trace (KYMO_TRACE_VIEW (kymo_test_find_descendant (page, KYMO_TYPE_TRACE_VIEW)))
                 == kymo_window_get_trace (window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==,
                   kymo_trace_get_title (kymo_window_get_trace (window)));
  g_assert_false (kymo_window_is_empty (window));
  spin_briefly ();
  save_screenshot (window, "window-trace.png");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_drop_garbage (void)
{
  static const guint8 garbage[] = "this is not a trace, just some text\n";
  KymoWindow *window = new_window ();
  g_autoptr(GFile) file = write_file ("garbage.txt", garbage, sizeof garbage - 1);
  AdwMessageDialog *dialog;

  g_assert_true (drop_files (window, file));
  kymo_test_wait_until (load_finished, window);

  /* The error names the file and the problem, and the window is empty again. */
  dialog = find_error_dialog (window);
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (adw_message_dialog_get_heading (dialog), "garbage.txt"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "garbage.txt"));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "not a trace"));
  g_assert_null (kymo_window_get_trace (window));
  g_assert_true (ADW_IS_STATUS_PAGE (visible_page (window)));
  g_assert_true (kymo_window_is_empty (window));

  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
load_done (gpointer window)
{
  GtkWidget *page = visible_page (window);

  return ADW_IS_STATUS_PAGE (page) && kymo_window_is_empty (window);
}

static void
test_cancel_load (void)
{
  KymoWindow *window = new_window ();
  g_autoptr(GFile) file = write_atf_index ();
  GtkWidget *loading;

  kymo_window_load (window, &file, 1);

  /* While loading: a progress bar and a Cancel button. */
  g_assert_false (kymo_window_is_empty (window));
  loading = visible_page (window);
  g_assert_true (ADW_IS_STATUS_PAGE (loading));
  g_assert_nonnull (kymo_test_find_descendant (loading, GTK_TYPE_PROGRESS_BAR));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL));

  /* Cancelling is no error: the window is empty again and says nothing. */
  kymo_test_wait_until (load_done, window);
  g_assert_true (visible_page (window) != loading);
  g_assert_null (find_error_dialog (window));
  g_assert_null (kymo_window_get_trace (window));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_window_size_remembered (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  KymoWindow *window;
  int width, height;

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 600);

  window = kymo_window_new (GTK_APPLICATION (app));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 600);

  /* Closing saves the size for the next window. */
  gtk_window_present (GTK_WINDOW (window));
  kymo_test_wait_until (kymo_test_is_mapped, window);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 640);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1000);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 640);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
}

static gboolean
shortcuts_contain (GtkWidget  *widget,
                   const char *accelerator)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (widget))
    {
      g_autofree char *accel = NULL;
      g_auto(GStrv) alternatives = NULL;

      /* Alternatives are separated by spaces: "Home 0" */
      g_object_get (widget, "accelerator", &accel, NULL);
      alternatives = g_strsplit (accel != NULL ? accel : "", " ", -1);
      if (g_strv_contains ((const char * const *) alternatives, accelerator))
        return TRUE;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (shortcuts_contain (child, accelerator))
        return TRUE;
    }
  return FALSE;
}

static void
test_shortcuts_window (void)
{
  static const char *bindings[] = {
    "<Control>o", "<Control><Shift>o", "<Control>w", "<Control>q", "<Control>question",
    "Home", "0", "f", "plus", "minus", "<Alt>Left", "<Alt>Right", "j", "w", "a", "s", "d", "<Control>e",
    "F8", "<Shift>F8", "c",
  };
  KymoWindow *window = new_window ();
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window));
  g_auto(GStrv) accels = NULL;

  g_assert_nonnull (overlay);
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    {
      if (!shortcuts_contain (GTK_WIDGET (overlay), bindings[i]))
        g_error ("the shortcuts window does not list %s", bindings[i]);
    }

  /* Ctrl+Q quits and Ctrl+? shows the shortcuts. */
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.quit");
  g_assert_cmpstr (accels[0], ==, "<Control>q");
  g_clear_pointer (&accels, g_strfreev);
  accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay");
  g_assert_nonnull (accels[0]);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_about_window (void)
{
  KymoWindow *window = new_window ();
  GListModel *toplevels;
  AdwAboutWindow *about = NULL;

  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);

  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_ABOUT_WINDOW (toplevel))
        about = ADW_ABOUT_WINDOW (toplevel);
    }
  g_assert_nonnull (about);
  g_assert_cmpstr (adw_about_window_get_version (about), ==, PACKAGE_VERSION);
  g_assert_cmpint (adw_about_window_get_license_type (about), ==, GTK_LICENSE_GPL_3_0);
  g_assert_cmpstr (adw_about_window_get_application_icon (about), ==, APP_ID);
  g_assert_nonnull (adw_about_window_get_developers (about));

  gtk_window_destroy (GTK_WINDOW (about));
  gtk_window_destroy (GTK_WINDOW (window));
}

static KymoWindow *
window_with_trace (GFile *file)
{
  KymoWindow *window = new_window ();

  kymo_window_load (window, &file, 1);
  kymo_test_wait_until (load_finished, window);
  g_assert_null (find_error_dialog (window));
  g_assert_nonnull (kymo_window_get_trace (window));
  kymo_test_wait_until (kymo_test_is_mapped, kymo_test_find_descendant (GTK_WIDGET (window), KYMO_TYPE_TIMELINE));
  spin_briefly ();
  return window;
}

typedef struct {
  gboolean  done;
  gboolean  ok;
  GError   *error;
} ExportResult;

static void
export_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  ExportResult *r = user_data;

  r->ok = _kymo_window_export_finish (KYMO_WINDOW (object), result, &r->error);
  r->done = TRUE;
}

static gboolean
export_done (gpointer data)
{
  return ((ExportResult *) data)->done;
}

static void
export_file (KymoWindow *window,
             GFile      *file,
             const char *format)
{
  ExportResult r = { 0 };

  _kymo_window_export_async (window, file, format, export_cb, &r);
  kymo_test_wait_until (export_done, &r);
  g_assert_no_error (r.error);
  g_assert_true (r.ok);
}

static gboolean
file_exists (gpointer file)
{
  return g_file_query_exists (file, NULL);
}

/* The fallback dialog takes the file once it has read the folder. */
static gboolean
chooser_has_file (gpointer chooser)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (chooser);

  return file != NULL;
}

static gboolean
chooser_names_export (gpointer chooser)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (chooser);
  g_autofree char *name = file != NULL ? g_file_get_basename (file) : NULL;

  if (g_strcmp0 (name, "export") == 0)
    return TRUE;
  /* The fallback dialog reads the folder asynchronously, and finishing can
   * replace a name typed before it did: type it again, as a user would. */
  gtk_file_chooser_set_current_name (chooser, "export");
  return FALSE;
}

/* Export… as a user does it: the dialog, its format choice, Export. */
static void
test_export_dialog_png (void)
{
  g_autoptr(GFile) trace_file = write_atf_index ();
  KymoWindow *window = window_with_trace (trace_file);
  GtkWidget *timeline = kymo_test_find_descendant (GTK_WIDGET (window), KYMO_TYPE_TIMELINE);
  g_autofree char *path = g_build_filename (tmp_dir, "export.png", NULL);
  g_autoptr(GFile) typed = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkNativeDialog *chooser;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL));
  chooser = window->export_chooser;
  g_assert_nonnull (chooser);
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "format"), ==, "png");
  {
    g_autoptr(GFile) folder = g_file_new_for_path (tmp_dir);

    /* Typed without an extension: the chosen format adds it. */
    g_assert_true (gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, &error));
    g_assert_no_error (error);
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), "export");
  }
  kymo_test_wait_until (chooser_names_export, chooser);
  g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_ACCEPT);
  g_assert_null (window->export_chooser);
  kymo_test_wait_until (file_exists, typed);

  /* The image is the timeline as the window shows it. */
  texture = gdk_texture_new_from_file (typed, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), ==, gtk_widget_get_width (timeline));
  g_assert_cmpint (gdk_texture_get_height (texture), ==, gtk_widget_get_height (timeline));

  gtk_window_destroy (GTK_WINDOW (window));
  g_file_delete (typed, NULL, NULL);
}

static void
test_export_svg (void)
{
  g_autoptr(GFile) trace_file = write_atf_index ();
  KymoWindow *window = window_with_trace (trace_file);
  g_autofree char *path = g_build_filename (tmp_dir, "export.svg", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize size;
  static const GMarkupParser parser = { NULL };
  g_autoptr(GMarkupParseContext) context = NULL;
  KymoSession *session;
  KymoTime start, end;

  /* With a time range selected, the image shows that range. */
  session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (kymo_test_find_descendant (GTK_WIDGET (window),
                                                                            KYMO_TYPE_TRACE_VIEW)));
  kymo_session_set_selected_range (session, 2000, 6000);
  export_file (window, file, KYMO_WINDOW_EXPORT_SVG);
  kymo_session_get_visible_range (session, &start, &end);
  g_assert_cmpint (start, !=, 2000);

  g_assert_true (g_file_get_contents (path, &text, &size, &error));
  g_assert_no_error (error);
  context = g_markup_parse_context_new (&parser, 0, NULL, NULL);
  g_assert_true (g_markup_parse_context_parse (context, text, size, &error));
  g_assert_true (g_markup_parse_context_end_parse (context, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "<svg"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_file_delete (file, NULL, NULL);
}

static void
test_export_chrome (void)
{
  g_autoptr(GFile) trace_file = write_atf_index ();
  KymoWindow *window = window_with_trace (trace_file);
  KymoTrace *trace = kymo_window_get_trace (window);
  g_autofree char *path = g_build_filename (tmp_dir, "export.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *events;
  guint64 spans = 0, exported = 0;

  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    {
      gsize n;

      kymo_track_get_spans (kymo_trace_get_track (trace, i), &n);
      spans += n;
    }
  g_assert_cmpuint (spans, >, 0);

  export_file (window, file, KYMO_WINDOW_EXPORT_CHROME);

  g_assert_true (json_parser_load_from_file (parser, path, &error));
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  g_assert_nonnull (events);
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (event, "ph", ""), "X") == 0 &&
          g_strcmp0 (json_object_get_string_member_with_default (event, "cat", ""), "span") == 0)
        exported++;
    }
  g_assert_cmpuint (exported, ==, spans);

  gtk_window_destroy (GTK_WINDOW (window));
  g_file_delete (file, NULL, NULL);
}

/* ISR enter and exit: a trace that reads as bare metal unless told. */
static GFile *
write_tband_trace (void)
{
  g_autoptr(GByteArray) out = g_byte_array_new ();
  KymoTbandEvent event = { 0 };

  event.id = KYMO_TBAND_ISR_ENTER;
  event.ts = 1000;
  event.v[0].u = 2;
  kymo_tband_event_encode (out, &event);
  event.id = KYMO_TBAND_ISR_EXIT;
  event.ts = 2000;
  kymo_tband_event_encode (out, &event);
  event.id = KYMO_TBAND_ISR_ENTER;
  event.ts = 3000;
  kymo_tband_event_encode (out, &event);
  event.id = KYMO_TBAND_ISR_EXIT;
  event.ts = 5000;
  kymo_tband_event_encode (out, &event);
  return write_file ("trace.tband", out->data, out->len);
}

static gboolean
pick_in (GtkWidget  *widget,
         const char *label)
{
  if (GTK_IS_DROP_DOWN (widget))
    {
      GListModel *model = gtk_drop_down_get_model (GTK_DROP_DOWN (widget));

      for (guint i = 0; GTK_IS_STRING_LIST (model) && i < g_list_model_get_n_items (model); i++)
        if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (model), i), label) == 0)
          {
            gtk_drop_down_set_selected (GTK_DROP_DOWN (widget), i);
            return TRUE;
          }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (pick_in (child, label))
      return TRUE;
  return FALSE;
}

static void
pick_in_dropdown (const char *label)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  gboolean picked = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (toplevels) && !picked; i++)
    {
      g_autoptr(GtkWidget) toplevel = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER (toplevel))
        picked = pick_in (toplevel, label);
    }
  g_assert_true (picked);
}

static gboolean
trace_replaced (gpointer data)
{
  gpointer *pair = data;
  KymoWindow *window = pair[0];

  return kymo_window_get_trace (window) != NULL && kymo_window_get_trace (window) != pair[1] &&
         window->loader == NULL;
}

/* The Open dialog's mode choice reaches the decoder, and "Reload as…"
 * switches the mode of the trace on screen. */
/* Several files opened as one trace: the window names the first and how
 * many more, not the first alone. */
static void
test_files_title (void)
{
  KymoWindow *window = new_window ();
  g_autoptr(GFile) first = write_tband_trace ();
  g_autoptr(GFile) dir = g_file_get_parent (first);
  g_autoptr(GFile) second = g_file_get_child (dir, "trace-2.tband");
  g_autoptr(GFile) third = g_file_get_child (dir, "trace-3.tband");
  g_autoptr(GError) error = NULL;
  GFile *files[3] = { first, second, third };

  for (guint i = 1; i < G_N_ELEMENTS (files); i++)
    {
      g_file_copy (first, files[i], G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
    }

  kymo_window_load (window, files, 2);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "trace.tband and 1 more file");
  kymo_test_wait_until (load_finished, window);
  kymo_window_load (window, files, 3);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "trace.tband and 2 more files");
  kymo_test_wait_until (load_finished, window);
  kymo_window_load (window, files, 1);
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "trace.tband");
  kymo_test_wait_until (load_finished, window);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_tband_mode_choice (void)
{
  g_autoptr(GFile) file = write_tband_trace ();
  KymoWindow *window = new_window ();
  g_autoptr(GError) error = NULL;
  GtkNativeDialog *chooser;
  KymoTrace *trace;
  gpointer pair[2] = { window, NULL };

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.open", NULL));
  chooser = window->chooser;
  g_assert_nonnull (chooser);
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "tband-mode"), ==, "auto");
  g_assert_true (gtk_file_chooser_set_file (GTK_FILE_CHOOSER (chooser), file, &error));
  g_assert_no_error (error);
  kymo_test_wait_until (chooser_has_file, chooser);
  /* As a user picks it: GTK 4.8's fallback dialog does not hear a
   * set_choice() made once it is shown. */
  pick_in_dropdown ("FreeRTOS");
  g_assert_cmpstr (gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (chooser), "tband-mode"), ==, "freertos");
  g_signal_emit_by_name (chooser, "response", GTK_RESPONSE_ACCEPT);
  kymo_test_wait_until (load_finished, window);
  g_assert_null (find_error_dialog (window));

  trace = kymo_window_get_trace (window);
  g_assert_cmpstr (kymo_trace_get_format (trace)->name, ==, "tband");
  g_assert_cmpstr (kymo_trace_get_variant (trace), ==, "freertos");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "mode"), ==, "forced");

  /* Only the other mode is offered: reloading as what it is does nothing. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.reload-freertos", NULL);
  spin_briefly ();
  g_assert_true (kymo_window_get_trace (window) == trace);
  g_assert_null (window->loader);
  pair[1] = trace;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reload-bare-metal", NULL));
  kymo_test_wait_until (trace_replaced, pair);
  trace = kymo_window_get_trace (window);
  g_assert_cmpstr (kymo_trace_get_variant (trace), ==, "bare-metal");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "mode"), ==, "forced");

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  static const char *written[] = { "index.atf", "garbage.txt", "trace.tband", "trace-2.tband", "trace-3.tband" };
  g_autoptr(GError) error = NULL;
  int status;

  gtk_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  /* Screenshots show the page a test reached, not a crossfade into it. */
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  tmp_dir = g_dir_make_tmp ("kymo-test-window-XXXXXX", &error);
  g_assert_no_error (error);

  app = kymo_test_app_new ();

  g_test_add_func ("/app/window/empty", test_empty_window);
  g_test_add_func ("/app/window/drop-trace", test_drop_trace);
  g_test_add_func ("/app/window/drop-garbage", test_drop_garbage);
  g_test_add_func ("/app/window/cancel-load", test_cancel_load);
  g_test_add_func ("/app/window/files-title", test_files_title);
  g_test_add_func ("/app/window/size-remembered", test_window_size_remembered);
  g_test_add_func ("/app/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/app/about-window", test_about_window);
  g_test_add_func ("/app/export/dialog-png", test_export_dialog_png);
  g_test_add_func ("/app/export/svg", test_export_svg);
  g_test_add_func ("/app/export/chrome", test_export_chrome);
  g_test_add_func ("/app/open/tband-mode", test_tband_mode_choice);

  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);

  for (guint i = 0; i < G_N_ELEMENTS (written); i++)
    {
      g_autofree char *path = g_build_filename (tmp_dir, written[i], NULL);

      g_remove (path);
    }
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return status;
}
