/* test-trace-properties.c: the Trace Properties dialog, and the time base
 * the timeline's "c" key and the Time menu share (run under Xvfb)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-trace-properties"

#include "config.h"

#include <glib/gstdio.h>

#include "kymo-application.h"
#include "kymo-test-app.h"
#include "kymo-test-widget.h"
#include "kymo-timeline.h"
#include "kymo-trace-properties.h"
#include "kymo-trace-view.h"
#include "kymo-window-private.h"
#include "../dial9/dial9-builder.h"

static KymoApplication *app;
static char *trace_path;

static gboolean
has_trace (gpointer window)
{
  return kymo_window_get_trace (window) != NULL;
}

static AdwActionRow *
find_row (GtkWidget  *widget,
          const char *title)
{
  if (ADW_IS_ACTION_ROW (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return ADW_ACTION_ROW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      AdwActionRow *found = find_row (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static KymoTraceProperties *
find_properties (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) toplevel = g_list_model_get_item (toplevels, i);

      if (KYMO_IS_TRACE_PROPERTIES (toplevel))
        return KYMO_TRACE_PROPERTIES (toplevel);
    }
  return NULL;
}

static gboolean
properties_shown (gpointer data)
{
  KymoTraceProperties *dialog = find_properties ();

  return dialog != NULL && gtk_widget_get_mapped (GTK_WIDGET (dialog));
}

/* A dial9 trace with segment metadata and a clock sync. */
static void
write_trace (const char *path)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const char *meta[] = { "entries:10", NULL };
  const char *clock[] = { "realtime_ns:9", NULL };
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };

  d9b_header (b);
  d9b_schema (b, 0, "SegmentMetadataEvent", TRUE, meta);
  d9b_reset (b, 1000000);
  d9b_event (b, 0, 0);
  d9b_u32 (b, 2);
  d9b_str32 (b, "service"); d9b_str32 (b, "checkout-api");
  d9b_str32 (b, "host"); d9b_str32 (b, "ip-10-0-0-7");
  d9b_header (b);
  d9b_schema (b, 0, "ClockSyncEvent", TRUE, clock);
  d9b_schema (b, 1, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, 2, "PollEndEvent", TRUE, poll_end);
  d9b_pool (b, 0, "src/main.rs:1:1");
  d9b_reset (b, 2000000);
  /* 2026-04-15 16:04:04 UTC at trace time 2 ms */
  d9b_event (b, 0, 0); d9b_varint (b, G_GUINT64_CONSTANT (1776269044000000000));
  d9b_event (b, 1, 100); d9b_varint (b, 0); d9b_u8 (b, 0); d9b_varint (b, 7); d9b_u32 (b, 0);
  d9b_event (b, 2, 5000); d9b_varint (b, 0);
  g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));
}

static KymoWindow *
window_with_trace (void)
{
  KymoWindow *window = kymo_window_new (GTK_APPLICATION (app));
  g_autoptr(GFile) file = g_file_new_for_path (trace_path);

  gtk_window_present (GTK_WINDOW (window));
  kymo_test_wait_until (kymo_test_is_mapped, window);
  kymo_window_load (window, &file, 1);
  kymo_test_wait_until (has_trace, window);
  kymo_test_wait_until (kymo_test_is_mapped, kymo_test_find_descendant (GTK_WIDGET (window), KYMO_TYPE_TIMELINE));
  return window;
}

static void
test_properties_dialog (void)
{
  KymoWindow *window = window_with_trace ();
  KymoTraceProperties *dialog;
  AdwActionRow *row;

  g_assert_null (find_properties ());
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.trace-properties", NULL));
  kymo_test_wait_until (properties_shown, NULL);
  dialog = find_properties ();
  g_assert_true (kymo_trace_properties_get_trace (dialog) == kymo_window_get_trace (window));
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (dialog)) == GTK_WINDOW (window));

  /* The segment's own metadata, as the recording names it */
  row = find_row (GTK_WIDGET (dialog), "service");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "checkout-api");
  row = find_row (GTK_WIDGET (dialog), "host");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "ip-10-0-0-7");
  /* What it is, and when in the world it ran */
  row = find_row (GTK_WIDGET (dialog), "Format");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "dial9 trace");
  row = find_row (GTK_WIDGET (dialog), "Start (UTC)");
  g_assert_nonnull (row);
  /* The trace starts at its metadata record, 1 ms before the clock sync */
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "2026-04-15 16:04:03.999000000 UTC");
  row = find_row (GTK_WIDGET (dialog), "File");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, trace_path);

  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

static const char *
clock_choice (KymoWindow *window)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (window), "clock");
  g_autoptr(GVariant) state = g_action_get_state (action);
  static char choice[16];

  g_strlcpy (choice, g_variant_get_string (state, NULL), sizeof choice);
  return choice;
}

static void
test_clock_key_and_menu_agree (void)
{
  KymoWindow *window = window_with_trace ();
  GtkWidget *timeline = kymo_test_find_descendant (GTK_WIDGET (window), KYMO_TYPE_TIMELINE);
  GtkWidget *view = kymo_test_find_descendant (GTK_WIDGET (window), KYMO_TYPE_TRACE_VIEW);
  KymoSession *session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (view));

  g_action_group_activate_action (G_ACTION_GROUP (window), "clock", g_variant_new_string ("relative"));
  g_assert_false (kymo_session_get_wallclock (session));

  /* The "c" key: the menu then shows wall clock as chosen */
  g_assert_true (gtk_widget_activate_action (timeline, "timeline.toggle-wallclock", NULL));
  g_assert_true (kymo_session_get_wallclock (session));
  g_assert_cmpstr (clock_choice (window), ==, "local");
  g_assert_true (gtk_widget_activate_action (timeline, "timeline.toggle-wallclock", NULL));
  g_assert_cmpstr (clock_choice (window), ==, "relative");

  /* The menu: the key then toggles from what the menu chose */
  g_action_group_activate_action (G_ACTION_GROUP (window), "clock", g_variant_new_string ("utc"));
  g_assert_true (kymo_session_get_wallclock (session));
  g_assert_true (kymo_session_get_utc (session));
  g_assert_cmpstr (clock_choice (window), ==, "utc");
  g_assert_true (gtk_widget_activate_action (timeline, "timeline.toggle-wallclock", NULL));
  g_assert_false (kymo_session_get_wallclock (session));
  g_assert_cmpstr (clock_choice (window), ==, "relative");

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  int status;

  gtk_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);

  dir = g_dir_make_tmp ("kymo-test-properties-XXXXXX", &error);
  g_assert_no_error (error);
  trace_path = g_build_filename (dir, "trace.0.bin", NULL);
  write_trace (trace_path);

  app = kymo_test_app_new ();

  g_test_add_func ("/app/trace-properties/dialog", test_properties_dialog);
  g_test_add_func ("/app/trace-properties/clock-key-and-menu", test_clock_key_and_menu_agree);

  status = g_test_run ();

  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);
  g_unlink (trace_path);
  g_rmdir (dir);
  g_free (trace_path);
  return status;
}
