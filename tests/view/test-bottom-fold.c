/* test-bottom-fold.c: an empty Details page takes no room in the trace view
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "kymo-session.h"
#include "kymo-trace-view.h"
#include "details/kymo-details-sidebar.h"

#define MS 1000000LL
#define WINDOW_HEIGHT 800

/* One thread of ten 60 ms "frame" spans, one every 100 ms. */
static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint main_id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "main");
  KymoTrack *track = kymo_trace_get_track (trace, main_id);
  guint32 frame = kymo_trace_intern (trace, "frame");

  for (int i = 0; i < 10; i++)
    kymo_track_add_span (track, i * 100 * MS, i * 100 * MS + 60 * MS, frame, 0, 0, 0);
  kymo_trace_set_time_range (trace, 0, 1000 * MS);
  kymo_trace_seal (trace);
  return trace;
}

static void
iterate (int rounds)
{
  for (int i = 0; i < rounds; i++)
    {
      g_usleep (5000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
}

static int
bottom_height (KymoTraceView *view)
{
  iterate (10);
  return gtk_widget_get_height (kymo_trace_view_get_details (view));
}

static int
timeline_height (KymoTraceView *view)
{
  iterate (10);
  return gtk_widget_get_height (kymo_trace_view_get_timeline (view));
}

static void
test_fold (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  GtkWidget *widget = kymo_trace_view_new (trace);
  KymoTraceView *view = KYMO_TRACE_VIEW (widget);
  KymoSession *session = kymo_trace_view_get_session (view);
  KymoDetailsSidebar *sidebar = KYMO_DETAILS_SIDEBAR (kymo_trace_view_get_details (view));
  GtkPaned *paned = GTK_PANED (gtk_widget_get_parent (GTK_WIDGET (sidebar)));
  KymoEventRef ref = { .track = 0, .kind = KYMO_EVENT_KIND_SPAN, .index = 3 };
  GtkWidget *window = gtk_window_new ();
  int folded, opened, paned_height;

  gtk_window_set_default_size (GTK_WINDOW (window), 1100, WINDOW_HEIGHT);
  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  for (int i = 0; i < 200 && gtk_widget_get_height (widget) < WINDOW_HEIGHT / 2; i++)
    iterate (1);
  iterate (20);
  paned_height = gtk_widget_get_height (GTK_WIDGET (paned));

  /* Nothing selected on the Details page: only the tab row is left. */
  g_assert_cmpstr (kymo_details_sidebar_get_page (sidebar), ==, KYMO_DETAILS_PAGE_DETAILS);
  g_assert_true (kymo_details_sidebar_get_folded (sidebar));
  folded = bottom_height (view);
  g_assert_cmpint (folded, >, 0);
  g_assert_cmpint (folded, <, 80);
  g_assert_cmpint (timeline_height (view), >, paned_height - 100);

  /* A selected event has details: the area comes back at a third. */
  kymo_session_select_event (session, &ref);
  g_assert_false (kymo_details_sidebar_get_folded (sidebar));
  opened = bottom_height (view);
  g_assert_cmpint (opened, >, paned_height / 4);
  g_assert_cmpint (timeline_height (view), <, paned_height - opened + 1);

  /* Cleared, it folds again; a selected range unfolds it. */
  kymo_session_select_event (session, NULL);
  g_assert_cmpint (bottom_height (view), ==, folded);
  kymo_session_set_selected_range (session, 100 * MS, 300 * MS);
  g_assert_cmpint (bottom_height (view), ==, opened);
  kymo_session_clear_selected_range (session);
  g_assert_cmpint (bottom_height (view), ==, folded);

  /* Another page always has something to show. */
  kymo_details_sidebar_set_page (sidebar, "flame-graph");
  g_assert_cmpint (bottom_height (view), ==, opened);

  /* The user drags it to 400 px: that height is the one that comes back. */
  gtk_paned_set_position (paned, paned_height - 400);
  iterate (10);
  opened = bottom_height (view);
  g_assert_cmpint (opened, >, 390);
  kymo_details_sidebar_set_page (sidebar, KYMO_DETAILS_PAGE_DETAILS);
  g_assert_cmpint (bottom_height (view), ==, folded);
  kymo_session_select_event (session, &ref);
  g_assert_cmpint (bottom_height (view), ==, opened);

  /* A window resize goes to the timeline. */
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, WINDOW_HEIGHT - 100);
  for (int i = 0; i < 200 && gtk_widget_get_height (widget) > WINDOW_HEIGHT - 100; i++)
    iterate (1);
  g_assert_cmpint (bottom_height (view), ==, opened);
  paned_height = gtk_widget_get_height (GTK_WIDGET (paned));

  /* F9 hides it, folded or not, and brings it back as it was. */
  kymo_session_select_event (session, NULL);
  g_assert_cmpint (bottom_height (view), ==, folded);
  gtk_widget_activate_action (widget, "trace-view.toggle-bottom", NULL);
  g_assert_false (kymo_trace_view_get_bottom_visible (view));
  g_assert_cmpint (timeline_height (view), >, paned_height - 60);
  gtk_widget_activate_action (widget, "trace-view.toggle-bottom", NULL);
  g_assert_cmpint (bottom_height (view), ==, folded);

  /* Dragging a folded area up opens the empty page once it fits, where the
   * user let go; it stays open until something is shown and cleared. */
  gtk_paned_set_position (paned, paned_height - 300);
  iterate (10);
  g_assert_false (kymo_details_sidebar_get_folded (sidebar));
  opened = bottom_height (view);
  g_assert_cmpint (opened, >, 290);
  g_assert_cmpint (opened, <=, 300);
  kymo_session_select_event (session, &ref);
  g_assert_cmpint (bottom_height (view), ==, opened);
  kymo_session_select_event (session, NULL);
  g_assert_cmpint (bottom_height (view), ==, folded);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/trace-view/bottom-fold", test_fold);

  return g_test_run ();
}
