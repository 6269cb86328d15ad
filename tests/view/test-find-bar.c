/* test-find-bar.c: Ctrl+F, type, Enter — and the duration histogram
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "kymo-duration-histogram.h"
#include "kymo-find-model.h"
#include "kymo-search-bar.h"
#include "kymo-search-results.h"
#include "kymo-session.h"
#include "kymo-timeline-export.h"
#include "kymo-timeline-layout.h"
#include "kymo-trace-view.h"

#define MS 1000000LL
#define US 1000LL
#define N_RENDER 200

/* "main": render i at i × 5 ms lasting (1 + i % 50) × 10 µs, each followed
 * by an "idle" of 1 ms; "worker": "Render later" from 2 ms on. 0..1000 ms. */
static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint main_id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "main");
  guint worker = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "worker");
  guint32 render = kymo_trace_intern (trace, "render");
  guint32 idle = kymo_trace_intern (trace, "idle");
  guint32 later = kymo_trace_intern (trace, "Render later");

  for (guint i = 0; i < N_RENDER; i++)
    {
      KymoTime start = i * 5 * MS;

      kymo_track_add_span (kymo_trace_get_track (trace, main_id), start, start + (1 + i % 50) * 10 * US,
                           render, 0, 0, i);
      kymo_track_add_span (kymo_trace_get_track (trace, main_id), start + 2 * MS, start + 3 * MS, idle, 0, 0, i);
      kymo_track_add_span (kymo_trace_get_track (trace, worker), start + 2 * MS, start + 4 * MS, later, 0, 0, i);
    }
  kymo_trace_set_time_range (trace, 0, 1000 * MS);
  kymo_trace_seal (trace);
  return trace;
}

static void
iterate (guint rounds)
{
  for (guint i = 0; i < rounds; i++)
    {
      g_usleep (5000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
}

static GtkWidget *
show_window (GtkWidget *child)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 700);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  for (int i = 0; i < 200 && (gtk_widget_get_width (child) < 600 || !gtk_widget_get_mapped (child)); i++)
    iterate (1);
  iterate (20);
  return window;
}

/* Whether a shortcut of @widget's controllers maps @trigger to @action. */
static gboolean
has_shortcut (GtkWidget  *widget,
              const char *trigger,
              const char *action)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          g_autofree char *t = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));
          GtkShortcutAction *a = gtk_shortcut_get_action (shortcut);

          if (g_str_equal (t, trigger) && GTK_IS_NAMED_ACTION (a) &&
              g_str_equal (gtk_named_action_get_action_name (GTK_NAMED_ACTION (a)), action))
            return TRUE;
        }
    }
  return FALSE;
}

static void
wait_for_result (KymoFindModel *model)
{
  for (int i = 0; i < 400 && (kymo_find_model_get_result (model) == NULL || kymo_find_model_get_busy (model)); i++)
    iterate (1);
  g_assert_nonnull (kymo_find_model_get_result (model));
}

static void
assert_selected_is (KymoSession         *session,
                    KymoSearchResult    *result,
                    guint                position)
{
  const KymoEventRef *selected = kymo_session_get_selected_event (session);
  const KymoSearchHit *hits;
  KymoTime start, end, v0, v1;
  gsize n;

  hits = kymo_search_result_get_hits (result, &n);
  g_assert_nonnull (selected);
  g_assert_cmpint (selected->kind, ==, KYMO_EVENT_KIND_SPAN);
  g_assert_cmpuint (selected->track, ==, hits[position].track);
  g_assert_cmpuint (selected->index, ==, hits[position].index);
  g_assert_cmpint (kymo_session_get_search_match (session), ==, (int) position);
  /* it is on screen */
  kymo_search_hit_get_times (kymo_session_get_trace (session), &hits[position], &start, &end);
  kymo_session_get_visible_range (session, &v0, &v1);
  g_assert_cmpint (start, >=, v0);
  g_assert_cmpint (end, <=, v1);
}

static void
test_find_bar_enter (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  GtkWidget *view = kymo_trace_view_new (trace);
  GtkWidget *window = show_window (view);
  KymoSession *session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (view));
  KymoSearchBar *bar = KYMO_SEARCH_BAR (kymo_trace_view_get_search_bar (KYMO_TRACE_VIEW (view)));
  GtkWidget *entry = kymo_search_bar_get_entry (bar);
  KymoFindModel *model = kymo_find_model_get_for_session (session);
  KymoSearchResult *result;
  const KymoSearchHit *hits;
  KymoTime start, end, first_start = G_MAXINT64;
  gsize n;

  kymo_session_fit_all (session);

  /* Ctrl+F opens the bar, wherever the focus is */
  g_assert_true (has_shortcut (view, "<Control>f", "trace-view.find"));
  g_assert_true (has_shortcut (view, "F3", "trace-view.find-next"));
  g_assert_true (has_shortcut (view, "<Shift>F3", "trace-view.find-previous"));
  g_assert_true (has_shortcut (entry, "<Shift>Return", "search.previous"));
  g_assert_false (kymo_search_bar_get_open (bar));
  gtk_widget_activate_action (view, "trace-view.find", NULL);
  iterate (10);
  g_assert_true (kymo_search_bar_get_open (bar));

  /* type: the search runs, publishes the highlight once */
  gtk_editable_set_text (GTK_EDITABLE (entry), "rEnDeR");
  wait_for_result (model);
  g_assert_cmpstr (kymo_session_get_search_text (session), ==, "rEnDeR");
  result = kymo_find_model_get_result (model);
  hits = kymo_search_result_get_hits (result, &n);
  g_assert_cmpuint (n, ==, 2 * N_RENDER);
  g_assert_true (kymo_session_get_highlight (session) == kymo_search_result_get_event_set (result));
  for (gsize i = 0; i < n; i++)
    {
      kymo_search_hit_get_times (trace, &hits[i], &start, &end);
      first_start = MIN (first_start, start);
    }
  g_assert_cmpint (g_list_model_get_n_items (G_LIST_MODEL (model)), ==, n);

  /* Enter: the first match in time, selected and on screen (zoomed in: it
   * is 10 µs in a 1 s window) */
  g_signal_emit_by_name (entry, "activate");
  iterate (5);
  assert_selected_is (session, result, 0);
  kymo_search_hit_get_times (trace, &hits[0], &start, &end);
  g_assert_cmpint (start, ==, first_start);
  {
    KymoTime v0, v1;
    kymo_session_get_visible_range (session, &v0, &v1);
    g_assert_cmpint (v1 - v0, <, 100 * MS);
  }

  /* Enter again, then Shift+Enter goes back */
  g_signal_emit_by_name (entry, "activate");
  iterate (5);
  assert_selected_is (session, result, 1);
  gtk_widget_activate_action (entry, "search.previous", NULL);
  iterate (5);
  assert_selected_is (session, result, 0);
  /* and from the first, back wraps to the last */
  gtk_widget_activate_action (view, "trace-view.find-previous", NULL);
  iterate (5);
  assert_selected_is (session, result, n - 1);

  /* Escape (stop-search) closes the bar and clears the search */
  g_signal_emit_by_name (entry, "stop-search");
  iterate (10);
  g_assert_false (kymo_search_bar_get_open (bar));
  g_assert_cmpstr (kymo_session_get_search_text (session), ==, "");
  g_assert_null (kymo_session_get_highlight (session));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_find_histogram (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *page = kymo_search_results_new (session);
  GtkWidget *window = show_window (page);
  KymoDurationHistogram *histogram = KYMO_DURATION_HISTOGRAM (kymo_search_results_get_histogram (KYMO_SEARCH_RESULTS (page)));
  KymoFindModel *model = kymo_find_model_get_for_session (session);
  guint32 render = kymo_trace_lookup_name (trace, "render");
  KymoEventSet *set;
  gint64 lo, hi, unused;
  guint first, last;
  guint64 in_bins = 0, expected = 0;
  const KymoSpan *spans;
  gsize n;

  kymo_session_set_search_text (session, "render");
  wait_for_result (model);
  for (int i = 0; i < 400 && !kymo_duration_histogram_is_ready (histogram); i++)
    iterate (1);
  g_assert_true (kymo_duration_histogram_is_ready (histogram));
  /* both names have N_RENDER spans: the tie goes to the first name */
  g_assert_cmpuint (kymo_duration_histogram_get_name (histogram), ==, render);

  /* drag from the second bin that holds spans to a bin in the middle */
  first = kymo_duration_histogram_bin_at_x (histogram, 0);
  while (kymo_duration_histogram_get_bin (histogram, first, NULL, NULL) == 0)
    first++;
  first++;
  while (kymo_duration_histogram_get_bin (histogram, first, NULL, NULL) == 0)
    first++;
  last = KYMO_DURATION_HISTOGRAM_BINS * 2 / 3;
  g_assert_cmpuint (first, <, last);
  kymo_duration_histogram_get_bin (histogram, first, &lo, &unused);
  for (guint b = first; b <= last; b++)
    in_bins += kymo_duration_histogram_get_bin (histogram, b, &unused, &hi);
  g_assert_cmpuint (in_bins, >, 0);
  g_assert_cmpuint (in_bins, <, N_RENDER);
  kymo_duration_histogram_select_bins (histogram, first, last);

  /* exactly the render spans whose duration falls in the dragged bins */
  set = kymo_session_get_highlight (session);
  g_assert_nonnull (set);
  spans = kymo_track_get_spans (kymo_trace_get_track (trace, 0), &n);
  for (gsize i = 0; i < n; i++)
    {
      gboolean want = kymo_span_name (&spans[i]) == render &&
                      spans[i].end - spans[i].start >= lo && spans[i].end - spans[i].start <= hi;

      g_assert_cmpint (kymo_event_set_contains_span (set, 0, i), ==, want);
      expected += want;
    }
  g_assert_cmpuint (kymo_event_set_get_n_events (set), ==, expected);
  g_assert_cmpuint (expected, ==, in_bins);

  /* a click shows every match again */
  kymo_duration_histogram_clear_selection (histogram);
  g_assert_true (kymo_session_get_highlight (session) ==
                 kymo_search_result_get_event_set (kymo_find_model_get_result (model)));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Renders the session's window 1000 px wide; returns the pixel rows. */
static cairo_surface_t *
render (KymoSession *session,
        int          height)
{
  g_autoptr(GskRenderNode) node = kymo_timeline_export_to_node (session, 1000, height, FALSE, NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1000, height);
  cairo_t *cr = cairo_create (surface);

  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static guint32
pixel (cairo_surface_t *surface,
       int              x,
       int              y)
{
  const guint8 *px = cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface) + x * 4;

  return (px[2] << 16) | (px[1] << 8) | px[0];
}

static int
brightness (guint32 rgb)
{
  return ((rgb >> 16) & 0xff) + ((rgb >> 8) & 0xff) + (rgb & 0xff);
}

/* Members keep their colour and get an accent outline, the rest is veiled
 * toward the background, and a folded "N spans" box holding a member is
 * outlined too: at full zoom-out a match is never invisible. */
static void
test_highlight_drawing (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  g_autoptr(KymoSession) session = NULL;
  g_autoptr(KymoEventSet) set = NULL;
  g_autoptr(KymoTimelineLayout) layout = NULL;
  guint32 dense = kymo_trace_intern (trace, "dense");
  cairo_surface_t *plain, *marked;
  const KymoTimelineRow *row;
  int height, top, mid;
  const guint32 accent = 0x1c71d8;

  kymo_track_add_span (track, 100 * MS, 300 * MS, kymo_trace_intern (trace, "hit"), 0, 0, 0);
  kymo_track_add_span (track, 500 * MS, 700 * MS, kymo_trace_intern (trace, "miss"), 0, 0, 1);
  /* 100k spans of 50 ns over 800..810 ms: folded into one box at full zoom */
  for (guint i = 0; i < 100000; i++)
    kymo_track_add_span (track, 800 * MS + i * 100, 800 * MS + i * 100 + 50,
                         i == 4321 ? kymo_trace_intern (trace, "needle") : dense, 0, 0, 2 + i);
  kymo_trace_set_time_range (trace, 0, 1000 * MS);
  kymo_trace_seal (trace);

  session = kymo_session_new (trace);
  kymo_session_set_visible_range (session, 0, 1000 * MS);
  layout = kymo_timeline_layout_new (session);
  row = kymo_timeline_layout_get_row (layout, kymo_timeline_layout_find_track (layout, id));
  top = KYMO_TIMELINE_RULER_HEIGHT + row->y + row->lanes_y;
  mid = top + KYMO_TIMELINE_LANE_HEIGHT / 2;
  height = kymo_timeline_export_natural_height (session);

  plain = render (session, height);
  set = kymo_event_set_new (trace);
  kymo_event_set_add_span (set, id, 0);            /* hit */
  kymo_event_set_add_span (set, id, 2 + 4321);     /* the needle */
  kymo_session_set_highlight (session, set);
  marked = render (session, height);

  /* the member is drawn as before, inside its outline */
  g_assert_cmphex (pixel (marked, 200, mid), ==, pixel (plain, 200, mid));
  g_assert_cmphex (pixel (marked, 200, top), ==, accent);
  /* the other span is dimmed toward the white background */
  g_assert_cmpint (brightness (pixel (marked, 600, mid)), >, brightness (pixel (plain, 600, mid)) + 60);
  g_assert_cmphex (pixel (marked, 600, top), !=, accent);
  /* the folded box holding the needle is outlined */
  g_assert_cmphex (pixel (marked, 805, top), ==, accent);

  /* no highlight: nothing veiled */
  kymo_session_set_highlight (session, NULL);
  cairo_surface_destroy (marked);
  marked = render (session, height);
  g_assert_cmphex (pixel (marked, 600, mid), ==, pixel (plain, 600, mid));
  cairo_surface_destroy (marked);
  cairo_surface_destroy (plain);
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/find-bar/enter", test_find_bar_enter);
  g_test_add_func ("/find-bar/histogram", test_find_histogram);
  g_test_add_func ("/find-bar/highlight-drawing", test_highlight_drawing);
  return g_test_run ();
}
