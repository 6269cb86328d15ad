/* test-window-preview.c: a big trace shows from its start while the rest loads (run under Xvfb)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "test-window-preview"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "kymo-application.h"
#include "kymo-loader-private.h"
#include "kymo-preview-private.h"
#include "kymo-test-app.h"
#include "kymo-test-widget.h"
#include "kymo-timeline.h"
#include "kymo-trace-view.h"
#include "kymo-window-private.h"
#include "details/kymo-details-sidebar.h"
#include "../dial9/dial9-polls.h"

/* Previews from this size on, so that a test trace of a few hundred KiB
 * gets them. */
#define TEST_MIN_SIZE (64 * 1024)

static KymoApplication *app;
static char *tmp_dir;

/* The load job waits in its preview until the test lets it go on: the
 * "slow input" the test needs, without a timing. */
static GMutex hold_mutex;
static GCond hold_cond;
static guint released;  /* the previews the load may go past */
static guint held;      /* the previews the load reached */

static void
hold_hook (KymoLoader *loader,
           guint       index,
           gpointer    data)
{
  g_mutex_lock (&hold_mutex);
  held = MAX (held, index + 1);
  while (released <= index)
    g_cond_wait (&hold_cond, &hold_mutex);
  g_mutex_unlock (&hold_mutex);
}

static void
release_load (void)
{
  g_mutex_lock (&hold_mutex);
  released = G_MAXUINT;
  g_cond_broadcast (&hold_cond);
  g_mutex_unlock (&hold_mutex);
}

static void
hold_load (void)
{
  g_mutex_lock (&hold_mutex);
  released = 0;
  held = 0;
  g_mutex_unlock (&hold_mutex);
}

static GFile *
write_big_dial9 (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autofree char *path = g_build_filename (tmp_dir, "big.bin", NULL);
  g_autoptr(GError) error = NULL;

  /* 16 workers: more rows than the window shows, to scroll. */
  for (guint n = 0; n < 24; n++)
    d9b_polls_segment (b, n, 2000, 16);
  g_assert_cmpuint (b->len, >, TEST_MIN_SIZE * 4);
  g_file_set_contents (path, (const char *) b->data, b->len, &error);
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

/* A format of the test's own: "KYMOPREV" then u64 LE timestamps, one
 * instant each; a file ending in "FAILFAIL" fails to load whole (as I/O
 * or damage found late would), its starts load fine. */
#define MAGIC "KYMOPREV"

static guint
records_detect (KymoInput *input)
{
  return input->main.size >= 8 && memcmp (input->main.data, MAGIC, 8) == 0 ? 100 : 0;
}

static gboolean
records_load (KymoLoadJob  *job,
              KymoTrace    *trace,
              GError      **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  KymoTrack *track;
  guint32 name;

  if (input->main.size >= 16 && memcmp (input->main.data + input->main.size - 8, "FAILFAIL", 8) == 0)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNSUPPORTED, KYMO_NO_OFFSET, "fails whole");
      return FALSE;
    }
  track = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_INSTANT, "records"));
  name = kymo_trace_intern (trace, "record");
  for (gsize i = 0; i < (input->main.size - 8) / 8; i++)
    {
      guint64 value;

      memcpy (&value, input->main.data + 8 + i * 8, 8);
      kymo_track_add_instant (track, (KymoTime) GUINT64_FROM_LE (value), name, 0, (guint32) i);
    }
  return TRUE;
}

static const KymoFormat records_format = {
  .name = "kymo-preview-test",
  .title = "Kymo preview test records",
  .detect = records_detect,
  .load = records_load,
  .preview = KYMO_FORMAT_PREVIEW_PREFIX,
};

static GFile *
write_failing_records (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autofree char *path = g_build_filename (tmp_dir, "fails.rec", NULL);
  g_autoptr(GError) error = NULL;

  g_byte_array_append (b, (const guint8 *) MAGIC, 8);
  for (guint64 i = 0; i < 100000; i++)
    {
      guint64 v = GUINT64_TO_LE (i * 1000);

      g_byte_array_append (b, (const guint8 *) &v, 8);
    }
  g_byte_array_append (b, (const guint8 *) "FAILFAIL", 8);
  g_file_set_contents (path, (const char *) b->data, b->len, &error);
  g_assert_no_error (error);
  return g_file_new_for_path (path);
}

static AdwMessageDialog *
find_error_dialog (KymoWindow *window)
{
  return (AdwMessageDialog *) kymo_test_find_transient (GTK_WINDOW (window), ADW_TYPE_MESSAGE_DIALOG);
}

static KymoWindow *
new_window (void)
{
  KymoWindow *window = kymo_window_new (GTK_APPLICATION (app));

  gtk_window_present (GTK_WINDOW (window));
  kymo_test_wait_until (kymo_test_is_mapped, window);
  return window;
}

static const char *
visible_page_name (KymoWindow *window)
{
  GObject *stack = gtk_widget_get_template_child (GTK_WIDGET (window), KYMO_TYPE_WINDOW, "stack");

  return gtk_stack_get_visible_child_name (GTK_STACK (stack));
}

static KymoTraceView *
trace_view (KymoWindow *window)
{
  GObject *bin = gtk_widget_get_template_child (GTK_WIDGET (window), KYMO_TYPE_WINDOW, "trace_bin");

  return KYMO_TRACE_VIEW (adw_bin_get_child (ADW_BIN (bin)));
}

static gboolean
preview_shown (gpointer window)
{
  return kymo_window_get_trace (window) != NULL && g_strcmp0 (visible_page_name (window), "trace") == 0;
}

static gboolean
load_over (gpointer window)
{
  return KYMO_WINDOW (window)->loader == NULL;
}

static guint
track_named (KymoTrace  *trace,
             const char *name)
{
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    if (g_strcmp0 (kymo_track_get_name (kymo_trace_get_track (trace, i)), name) == 0)
      return i;
  g_assert_not_reached ();
}

/* The first track with spans: a worker. */
static guint
first_span_track (KymoTrace *trace)
{
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    {
      gsize n;

      kymo_track_get_spans (kymo_trace_get_track (trace, i), &n);
      if (n > 10)
        return i;
    }
  g_assert_not_reached ();
}

static guint64
n_spans (KymoTrace *trace)
{
  guint64 spans;

  kymo_trace_count_events (trace, &spans, NULL, NULL, NULL);
  return spans;
}

/* The timeline is on screen, usable, while the load goes on; the full trace
 * then replaces it where the user left it. */
static void
test_preview_then_trace (void)
{
  KymoWindow *window = new_window ();
  g_autoptr(GFile) file = write_big_dial9 ();
  KymoTrace *preview, *final;
  KymoSession *session;
  KymoEventRef ref = { 0 };
  const KymoEventRef *selected;
  const KymoSpan *spans;
  KymoTime start, end, t0, t1;
  GtkWidget *timeline;
  GtkAdjustment *vadjustment;
  double scrolled;
  gsize n;

  hold_load ();
  kymo_window_load (window, &file, 1);
  kymo_test_wait_until (preview_shown, window);

  /* The load is held in its first preview: the timeline shows it, with the
   * loading bar and Cancel above it. */
  g_assert_nonnull (window->loader);
  g_assert_true (window->showing_preview);
  g_assert_true (gtk_widget_get_visible (window->preview_bar));
  preview = kymo_window_get_trace (window);
  g_assert_true (kymo_trace_view_get_trace (trace_view (window)) == preview);
  timeline = kymo_trace_view_get_timeline (trace_view (window));
  kymo_test_wait_until (kymo_test_is_mapped, timeline);
  kymo_test_wait_for_frame (timeline);
  kymo_test_save_png (GTK_WIDGET (window), "window-preview.png");

  /* The user zooms in and selects a poll in the preview. */
  session = kymo_trace_view_get_session (trace_view (window));
  kymo_trace_get_time_range (preview, &t0, &t1);
  kymo_session_zoom_to (session, t0 + (t1 - t0) / 4, t0 + (t1 - t0) / 2);
  kymo_session_get_visible_range (session, &start, &end);
  ref.track = first_span_track (preview);
  ref.kind = KYMO_EVENT_KIND_SPAN;
  spans = kymo_track_get_spans (kymo_trace_get_track (preview, ref.track), &n);
  ref.index = n / 2;
  kymo_session_select_event (session, &ref);
  kymo_session_set_visible_range (session, start, end);
  /* …scrolls down, hides worker 1's local queue and opens the Zones page. */
  vadjustment = kymo_timeline_get_vadjustment (KYMO_TIMELINE (timeline));
  g_assert_cmpfloat (gtk_adjustment_get_upper (vadjustment) - gtk_adjustment_get_page_size (vadjustment), >, 100);
  gtk_adjustment_set_value (vadjustment, 100);
  scrolled = gtk_adjustment_get_value (vadjustment);
  kymo_session_set_track_visible (session, track_named (preview, "worker 1 local queue"), FALSE);
  kymo_details_sidebar_set_page (KYMO_DETAILS_SIDEBAR (kymo_trace_view_get_details (trace_view (window))),
                                 KYMO_DETAILS_PAGE_ZONES);

  release_load ();
  kymo_test_wait_until (load_over, window);

  /* The full trace, in place: same page, same range, same poll selected. */
  final = kymo_window_get_trace (window);
  g_assert_true (final != preview);
  g_assert_cmpuint (n_spans (final), >, n_spans (preview));
  g_assert_cmpstr (visible_page_name (window), ==, "trace");
  g_assert_false (gtk_widget_get_visible (window->preview_bar));
  session = kymo_trace_view_get_session (trace_view (window));
  g_assert_true (kymo_session_get_trace (session) == final);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, start);
  g_assert_cmpint (t1, ==, end);
  selected = kymo_session_get_selected_event (session);
  g_assert_nonnull (selected);
  g_assert_cmpint (selected->kind, ==, KYMO_EVENT_KIND_SPAN);
  {
    const KymoSpan *now = kymo_track_get_spans (kymo_trace_get_track (final, selected->track), &n);

    g_assert_cmpint (now[selected->index].start, ==, spans[ref.index].start);
    g_assert_cmpint (now[selected->index].end, ==, spans[ref.index].end);
  }
  g_assert_false (kymo_session_get_track_visible (session, track_named (final, "worker 1 local queue")));
  g_assert_true (kymo_session_get_track_visible (session, track_named (final, "worker 0 local queue")));
  g_assert_cmpstr (kymo_details_sidebar_get_page (KYMO_DETAILS_SIDEBAR (kymo_trace_view_get_details (trace_view (window)))),
                   ==, KYMO_DETAILS_PAGE_ZONES);
  timeline = kymo_trace_view_get_timeline (trace_view (window));
  kymo_test_wait_for_frame (timeline);
  vadjustment = kymo_timeline_get_vadjustment (KYMO_TIMELINE (timeline));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, scrolled);
  kymo_test_save_png (GTK_WIDGET (window), "window-preview-final.png");

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Cancel while the preview is shown keeps it, as Tracy keeps what it
 * received: the user stopped waiting, not looking. */
static void
test_cancel_keeps_preview (void)
{
  KymoWindow *window = new_window ();
  g_autoptr(GFile) file = write_big_dial9 ();
  KymoTrace *preview;

  hold_load ();
  kymo_window_load (window, &file, 1);
  kymo_test_wait_until (preview_shown, window);
  preview = kymo_window_get_trace (window);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.cancel-load", NULL));
  release_load ();
  kymo_test_wait_until (load_over, window);

  g_assert_true (kymo_window_get_trace (window) == preview);
  g_assert_cmpstr (visible_page_name (window), ==, "trace");
  g_assert_false (gtk_widget_get_visible (window->preview_bar));
  g_assert_false (kymo_window_is_empty (window));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A load that fails after its preview was shown goes to the error page as
 * any failed load: the start of a trace is not what the file holds. */
static void
test_error_after_preview (void)
{
  KymoWindow *window = new_window ();
  g_autoptr(GFile) file = write_failing_records ();
  AdwMessageDialog *dialog;

  hold_load ();
  kymo_window_load (window, &file, 1);
  kymo_test_wait_until (preview_shown, window);
  g_assert_true (window->showing_preview);

  release_load ();
  kymo_test_wait_until (load_over, window);
  g_assert_null (kymo_window_get_trace (window));
  g_assert_cmpstr (visible_page_name (window), ==, "empty");
  dialog = find_error_dialog (window);
  g_assert_nonnull (dialog);
  g_assert_nonnull (strstr (adw_message_dialog_get_body (dialog), "fails whole"));

  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *big = NULL;
  int status;

  gtk_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
  _kymo_preview_set_min_size_for_testing (TEST_MIN_SIZE);
  _kymo_loader_set_preview_hook_for_testing (hold_hook, NULL);
  _kymo_formats_add_for_testing (&records_format);

  tmp_dir = g_dir_make_tmp ("kymo-test-preview-XXXXXX", &error);
  g_assert_no_error (error);

  app = kymo_test_app_new ();

  g_test_add_func ("/app/preview/then-trace", test_preview_then_trace);
  g_test_add_func ("/app/preview/cancel-keeps-preview", test_cancel_keeps_preview);
  g_test_add_func ("/app/preview/error-after-preview", test_error_after_preview);

  status = g_test_run ();

  release_load ();
  g_application_release (G_APPLICATION (app));
  g_clear_object (&app);

  big = g_build_filename (tmp_dir, "big.bin", NULL);
  g_unlink (big);
  g_free (big);
  big = g_build_filename (tmp_dir, "fails.rec", NULL);
  g_unlink (big);
  g_rmdir (tmp_dir);
  return status;
}
