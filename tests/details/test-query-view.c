/* test-query-view.c: the Query page as a user drives it (Xvfb)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gtk/gtk.h>

#include "kymo-test-widget.h"
#include "details/kymo-details-sidebar.h"
#include "details/kymo-query-view.h"

static gboolean
not_running (gpointer data)
{
  return !kymo_query_view_is_running (data);
}

static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  const char *names[] = { "poll", "parse_request", "encode", "flush_to_disk" };
  guint tracks[3];

  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *name = g_strdup_printf ("worker %u", t);
      tracks[t] = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, name);
    }
  for (guint i = 0; i < 300; i++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, tracks[i % 3]);
      KymoTime start = i * 10000;
      KymoTime end = start + 1000 + (i * 7919) % 8000;

      kymo_track_add_span (track, start, end, kymo_trace_intern (trace, names[i % 4]), 0, 0, 0);
      kymo_track_add_span (track, start + 100, start + 100 + (end - start) / 2,
                           kymo_trace_intern (trace, names[(i + 1) % 4]), 1, 0, 0);
    }
  kymo_trace_seal (trace);
  return trace;
}

static void
test_query_view_select (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *sidebar = kymo_details_sidebar_new (session);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = NULL;
  GtkWidget *results;
  GListModel *rows;
  const KymoEventRef *selected;
  g_autoptr(GError) error = NULL;
  KymoQuery *query;
  KymoEventRef expected = { 0, KYMO_EVENT_KIND_NONE, 0 };
  GtkWidget *child;

  kymo_details_sidebar_set_page (KYMO_DETAILS_SIDEBAR (sidebar), KYMO_DETAILS_PAGE_QUERY);
  /* The page the sidebar made: the stack's visible child. */
  for (child = gtk_widget_get_first_child (sidebar); child && !view; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_STACK (child))
      view = gtk_stack_get_visible_child (GTK_STACK (child));
  g_assert_true (KYMO_IS_QUERY_VIEW (view));

  gtk_window_set_default_size (GTK_WINDOW (window), 900, 420);
  gtk_window_set_child (GTK_WINDOW (window), sidebar);
  gtk_window_present (GTK_WINDOW (window));
  for (guint i = 0; i < 100000 && !gtk_widget_get_mapped (view); i++)
    g_main_context_iteration (NULL, TRUE);

  kymo_query_view_set_text (KYMO_QUERY_VIEW (view),
                            "SELECT id, track, name, start, dur FROM spans\nWHERE depth = 1 ORDER BY dur DESC LIMIT 20");
  /* What Ctrl+Enter triggers in the editor */
  g_assert_true (gtk_widget_activate_action (view, "query.run", NULL));
  kymo_test_spin_until (not_running, view);

  results = kymo_query_view_get_results (KYMO_QUERY_VIEW (view));
  rows = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (results)));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 20);
  g_assert_cmpuint (g_list_model_get_n_items (gtk_column_view_get_columns (GTK_COLUMN_VIEW (results))), ==, 5);
  kymo_test_wait_for_frame (view);
  kymo_test_save_png (view, "query-view.png");

  /* Activating the first row selects the longest depth-1 span */
  g_signal_emit_by_name (results, "activate", 0);
  selected = kymo_session_get_selected_event (session);
  g_assert_nonnull (selected);
  query = kymo_query_new (trace, &error);
  g_assert_no_error (error);
  {
    const KymoSpan *spans;
    gsize n;
    KymoTime longest = -1;

    for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
      {
        KymoTrack *track = kymo_trace_get_track (trace, t);
        gsize first;

        spans = kymo_track_get_depth_spans (track, 1, &n, &first);
        for (gsize i = 0; i < n; i++)
          if (spans[i].end - spans[i].start > longest)
            {
              longest = spans[i].end - spans[i].start;
              expected = (KymoEventRef) { t, KYMO_EVENT_KIND_SPAN, (guint) (first + i) };
            }
      }
  }
  g_assert_cmpuint (selected->track, ==, expected.track);
  g_assert_cmpint (selected->kind, ==, KYMO_EVENT_KIND_SPAN);
  g_assert_cmpuint (selected->index, ==, expected.index);
  kymo_query_free (query);

  /* A syntax error leaves the results and the trace alone */
  kymo_query_view_set_text (KYMO_QUERY_VIEW (view), "SELECT FROM spans");
  g_assert_true (gtk_widget_activate_action (view, "query.run", NULL));
  kymo_test_spin_until (not_running, view);
  g_assert_cmpuint (kymo_session_get_selected_event (session)->index, ==, expected.index);
  kymo_test_wait_for_frame (view);
  kymo_test_save_png (view, "query-view-error.png");

  /* A runaway query: the UI stays live and Cancel ends it */
  kymo_query_view_set_text (KYMO_QUERY_VIEW (view), "SELECT count(*) FROM spans a, spans b, spans c, spans d");
  g_assert_true (gtk_widget_activate_action (view, "query.run", NULL));
  g_assert_true (kymo_query_view_is_running (KYMO_QUERY_VIEW (view)));
  g_assert_true (gtk_widget_activate_action (view, "query.cancel", NULL));
  kymo_test_spin_until (not_running, view);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 20);

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);

  g_test_add_func ("/query-view/select", test_query_view_select);

  return g_test_run ();
}
