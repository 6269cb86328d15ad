/* test-session.c: view state, track list and layout (no drawing)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "kymo-session.h"
#include "kymo-timeline-layout.h"
#include "kymo-track-list-model.h"

#define MS 1000000LL

/* A process group with two threads, a counter, and a second, empty group. */
static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint group = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "app");
  guint main_id = kymo_trace_add_track (trace, group, KYMO_TRACK_THREAD, "main");
  guint worker = kymo_trace_add_track (trace, group, KYMO_TRACK_THREAD, "worker");
  guint counter = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_COUNTER, "memory");
  guint32 work = kymo_trace_intern (trace, "work");
  guint32 inner = kymo_trace_intern (trace, "inner");

  kymo_track_set_group_kind (kymo_trace_get_track (trace, group), "process");
  kymo_track_add_span (kymo_trace_get_track (trace, main_id), 100 * MS, 200 * MS, work, 0, 0, 0);
  kymo_track_add_span (kymo_trace_get_track (trace, main_id), 120 * MS, 150 * MS, inner, 1, 0, 1);
  kymo_track_add_span (kymo_trace_get_track (trace, worker), 800 * MS, 900 * MS, work, 0, 0, 2);
  kymo_track_add_sample (kymo_trace_get_track (trace, counter), 0, 1);
  kymo_track_add_sample (kymo_trace_get_track (trace, counter), 1000 * MS, 2);
  kymo_trace_seal (trace);
  return trace;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
count_signal (guint *count)
{
  (*count)++;
}

static void
test_visible_range (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  KymoTime full0, full1, t0, t1;
  guint notified = 0;

  kymo_session_get_full_range (session, &full0, &full1);
  g_assert_cmpint (full0, <=, 0);
  g_assert_cmpint (full1, >=, 1000 * MS);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, full0);
  g_assert_cmpint (t1, ==, full1);

  g_signal_connect (session, "notify::visible-start", G_CALLBACK (count_notify), &notified);
  kymo_session_zoom_to (session, 100 * MS, 200 * MS);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 100 * MS);
  g_assert_cmpint (t1, ==, 200 * MS);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_true (kymo_session_get_can_go_back (session));

  /* Zoom at an anchor keeps the anchor's relative place. */
  kymo_session_zoom_at (session, 150 * MS, 0.5);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 125 * MS);
  g_assert_cmpint (t1, ==, 175 * MS);

  kymo_session_pan (session, 10 * MS);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 135 * MS);
  g_assert_cmpint (t1, ==, 185 * MS);

  /* Panning stops at the end of the trace, keeping the width. */
  kymo_session_pan (session, 10000 * MS);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t1, ==, full1);
  g_assert_cmpint (t1 - t0, ==, 50 * MS);

  /* History: back to 100..200, back to the full range, then forward. */
  g_assert_true (kymo_session_go_back (session));
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, full0);
  g_assert_true (kymo_session_go_forward (session));
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t1 - t0, ==, 50 * MS);
  g_assert_false (kymo_session_go_forward (session));

  kymo_session_fit_all (session);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, full0);
  g_assert_cmpint (t1, ==, full1);

  /* Never empty, never reversed. */
  kymo_session_set_visible_range (session, 500 * MS, 500 * MS);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t1, >, t0);
}

static void
test_selection (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  KymoEventRef ref = { 2, KYMO_EVENT_KIND_SPAN, 0 };  /* worker 800..900 ms */
  KymoEventRef bogus = { 2, KYMO_EVENT_KIND_SPAN, 99 };
  const KymoEventRef *selected;
  guint notified = 0, revealed = 0;
  KymoTime t0, t1;

  g_signal_connect (session, "notify::selected-event", G_CALLBACK (count_notify), &notified);
  g_signal_connect_swapped (session, "reveal-track", G_CALLBACK (count_signal), &revealed);
  kymo_session_zoom_to (session, 0, 100 * MS);
  kymo_session_set_group_collapsed (session, 0, TRUE);

  kymo_session_select_event (session, &ref);
  selected = kymo_session_get_selected_event (session);
  g_assert_nonnull (selected);
  g_assert_cmpuint (selected->track, ==, 2);
  g_assert_cmpuint (notified, ==, 1);
  g_assert_cmpuint (revealed, ==, 1);
  /* The collapsed group opened and the event scrolled into view. */
  g_assert_false (kymo_session_get_group_collapsed (session, 0));
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, <=, 800 * MS);
  g_assert_cmpint (t1, >=, 900 * MS);

  /* F: fit the selected event. */
  g_assert_true (kymo_session_fit_selection (session));
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, <, 800 * MS);
  g_assert_cmpint (t0, >, 780 * MS);
  g_assert_cmpint (t1, >, 900 * MS);
  g_assert_cmpint (t1, <, 920 * MS);

  /* A time range wins over the event for F. */
  kymo_session_set_selected_range (session, 300 * MS, 200 * MS);
  kymo_session_get_selected_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, 200 * MS);
  g_assert_cmpint (t1, ==, 300 * MS);
  kymo_session_fit_selection (session);
  kymo_session_get_visible_range (session, &t0, &t1);
  g_assert_cmpint (t0, <, 200 * MS);
  g_assert_cmpint (t1, >, 300 * MS);
  g_assert_cmpint (t1 - t0, <, 120 * MS);

  kymo_session_clear_selected_range (session);
  kymo_session_get_selected_range (session, &t0, &t1);
  g_assert_cmpint (t0, ==, KYMO_TIME_NONE);

  /* An invalid reference clears the selection. */
  kymo_session_select_event (session, &bogus);
  g_assert_null (kymo_session_get_selected_event (session));
  kymo_session_select_event (session, NULL);
  g_assert_null (kymo_session_get_selected_event (session));
}

static void
test_layout_and_list (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
  g_autoptr(KymoTrackListModel) model = kymo_track_list_model_new (session);
  g_autoptr(KymoTrackRow) row = NULL;
  guint changed = 0;

  g_signal_connect_swapped (model, "items-changed", G_CALLBACK (count_signal), &changed);

  /* app, main, worker, memory */
  g_assert_cmpuint (kymo_timeline_layout_get_n_rows (layout), ==, 4);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
  g_assert_cmpuint (kymo_timeline_layout_get_row (layout, 1)->track, ==, 1);
  /* main has two depths: taller than worker */
  g_assert_cmpint (kymo_timeline_layout_get_row (layout, 1)->height, >,
                   kymo_timeline_layout_get_row (layout, 2)->height);
  g_assert_cmpuint (kymo_timeline_layout_find_row (layout, kymo_timeline_layout_get_row (layout, 2)->y + 1), ==, 2);

  row = g_list_model_get_item (G_LIST_MODEL (model), 1);
  g_assert_cmpstr (kymo_track_row_get_name (row), ==, "main");
  g_assert_cmpuint (kymo_track_row_get_n_events (row), ==, 2);
  g_assert_true (kymo_track_row_get_visible (row));

  /* Hide through the list row: the timeline loses the row, the list keeps it. */
  kymo_track_row_set_visible (row, FALSE);
  g_assert_false (kymo_session_get_track_visible (session, 1));
  kymo_timeline_layout_update (layout);
  g_assert_cmpuint (kymo_timeline_layout_get_n_rows (layout), ==, 3);
  g_assert_cmpint (kymo_timeline_layout_find_track (layout, 1), ==, -1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
  kymo_session_set_track_visible (session, 1, TRUE);
  g_assert_true (kymo_track_row_get_visible (row));

  /* Collapse the group: only its header remains. */
  kymo_session_set_group_collapsed (session, 0, TRUE);
  kymo_timeline_layout_update (layout);
  g_assert_cmpuint (kymo_timeline_layout_get_n_rows (layout), ==, 2);
  kymo_session_set_group_collapsed (session, 0, FALSE);

  /* Pin: first in both. */
  kymo_session_set_track_pinned (session, 3, TRUE);
  kymo_timeline_layout_update (layout);
  g_assert_cmpuint (kymo_timeline_layout_get_row (layout, 0)->track, ==, 3);
  g_assert_true (kymo_timeline_layout_get_row (layout, 0)->pinned);
  g_assert_cmpuint (kymo_track_list_model_get_track (model, 0), ==, 3);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
  kymo_session_set_track_pinned (session, 3, FALSE);

  /* Filter: "work" matches the worker thread, shown with its group. */
  changed = 0;
  kymo_session_set_filter_text (session, "WORK");
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 2);
  g_assert_cmpuint (kymo_track_list_model_get_track (model, 1), ==, 2);
  kymo_timeline_layout_update (layout);
  g_assert_cmpuint (kymo_timeline_layout_get_n_rows (layout), ==, 2);
  kymo_session_set_filter_text (session, "");
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, 4);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/session/visible-range", test_visible_range);
  g_test_add_func ("/session/selection", test_selection);
  g_test_add_func ("/session/layout-and-list", test_layout_and_list);
  return g_test_run ();
}
