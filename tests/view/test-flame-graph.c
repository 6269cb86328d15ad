/* test-flame-graph.c: the flame graph and call tree follow the selected range
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <unistd.h>
#include <adwaita.h>
#include <glib/gstdio.h>

#include "kymo-session.h"
#include "kymo-call-tree-item.h"
#include "kymo-call-tree-view.h"
#include "kymo-flame-page.h"
#include "kymo-flame-graph-renderer.h"
#include "kymo-trace-view.h"
#include "../wtf/wtf-writer.h"

#define MS 1000000LL

/* "main": a "frame" every 100 ms (60 ms long) holding "layout" and "paint";
 * "worker": a "job" every 50 ms (20 ms long). Ten frames, 1 s. */
static KymoTrace *
make_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint main_id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "main");
  guint worker = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "worker");
  KymoTrack *t = kymo_trace_get_track (trace, main_id);
  KymoTrack *w = kymo_trace_get_track (trace, worker);
  guint32 frame = kymo_trace_intern (trace, "frame");
  guint32 layout = kymo_trace_intern (trace, "layout");
  guint32 paint = kymo_trace_intern (trace, "paint");
  guint32 job = kymo_trace_intern (trace, "job");

  for (int i = 0; i < 10; i++)
    {
      KymoTime s = i * 100 * MS;

      /* frame 4 is the longest: 80 ms */
      kymo_track_add_span (t, s, s + (i == 4 ? 80 : 60) * MS, frame, 0, 0, 0);
      kymo_track_add_span (t, s, s + 20 * MS, layout, 1, 0, 0);
      kymo_track_add_span (t, s + 30 * MS, s + (i == 4 ? 80 : 60) * MS, paint, 1, 0, 0);
    }
  for (int i = 0; i < 20; i++)
    kymo_track_add_span (w, i * 50 * MS, i * 50 * MS + 20 * MS, job, 0, 0, 0);
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

static GtkWidget *
show_window (GtkWidget *child,
             int        width,
             int        height)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), child);
  gtk_window_present (GTK_WINDOW (window));
  for (int i = 0; i < 200 && (gtk_widget_get_width (child) < width / 2 || !gtk_widget_get_mapped (child)); i++)
    iterate (1);
  iterate (20);
  return window;
}

/* Until the fold the last range change started is published. */
static KymoCallTree *
wait_for_tree (KymoFlameModel *model)
{
  for (int i = 0; i < 2000 && (kymo_flame_model_get_busy (model) || kymo_flame_model_get_tree (model) == NULL); i++)
    iterate (1);
  g_assert_false (kymo_flame_model_get_busy (model));
  g_assert_nonnull (kymo_flame_model_get_tree (model));
  iterate (10);
  return kymo_flame_model_get_tree (model);
}

static void
screenshot (GtkWidget  *widget,
            GtkWidget  *window,
            const char *name)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autofree char *path = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                            name, NULL);
  int w = gtk_widget_get_width (widget), h = gtk_widget_get_height (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;

  iterate (20);
  gdk_paintable_snapshot (paintable, snapshot, w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, w, h));
  gdk_texture_save_to_png (texture, path);
  g_test_message ("wrote %s", path);
}

static guint32
find (KymoCallTree *tree,
      const char   *path)
{
  g_auto(GStrv) names = g_strsplit (path, ";", -1);

  return kymo_call_tree_find_path (tree, (const char * const *) names, g_strv_length (names));
}

static GtkGesture *
click_gesture (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        return GTK_GESTURE (controller);
    }
  return NULL;
}

static void
test_range_and_zoom (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *page = kymo_flame_page_new (session);
  GtkWidget *window = show_window (page, 1000, 400);
  KymoFlameGraph *graph = kymo_flame_page_get_flame_graph (KYMO_FLAME_PAGE (page));
  KymoFlameModel *model = kymo_flame_graph_get_model (graph);
  KymoCallTree *tree;
  const KymoCallNode *nodes;
  graphene_rect_t rect;
  guint32 paint;

  /* the whole trace: 10 × 60 ms + 20 ms more for frame 4, 20 × 20 ms of jobs */
  tree = wait_for_tree (model);
  g_assert_cmpint (kymo_call_tree_get_nodes (tree, NULL)[0].total, ==, 620 * MS + 400 * MS);

  /* A range as a Shift+drag on the timeline selects it: [250, 480] ms holds
   * frames 3 and 4 (60 + 80 ms) and jobs 5..9 (5 × 20 ms). */
  kymo_session_set_selected_range (session, 250 * MS, 480 * MS);
  tree = wait_for_tree (model);
  nodes = kymo_call_tree_get_nodes (tree, NULL);
  g_assert_cmpint (nodes[0].total, ==, 60 * MS + 80 * MS + 5 * 20 * MS);
  g_assert_cmpint (nodes[find (tree, "main;frame;paint")].total, ==, 30 * MS + 50 * MS);
  g_assert_false (kymo_flame_page_get_empty (KYMO_FLAME_PAGE (page)));
  screenshot (page, window, "flame-graph-range.png");

  /* The session's search (for now its highlighted name) marks frames. */
  kymo_session_set_highlighted_name (session, kymo_trace_intern (trace, "paint"));
  {
    g_autofree char *text = kymo_flame_model_dup_search_text (model);

    g_assert_cmpstr (text, ==, "paint");
  }
  screenshot (page, window, "flame-graph-search.png");
  kymo_session_set_highlighted_name (session, KYMO_SESSION_NO_NAME);
  /* the find bar's query wins, as a case-insensitive substring */
  kymo_session_set_search_text (session, "LAY");
  {
    g_autofree char *text = kymo_flame_model_dup_search_text (model);

    g_assert_cmpstr (text, ==, "LAY");
  }
  kymo_session_set_search_text (session, "");

  /* Click "paint": the view zooms to it, it fills the width. */
  paint = find (tree, "main;frame;paint");
  g_assert_true (kymo_flame_graph_get_node_rect (graph, paint, &rect));
  g_assert_cmpfloat (rect.size.width, <, gtk_widget_get_width (GTK_WIDGET (graph)) / 2.0);
  g_signal_emit_by_name (click_gesture (GTK_WIDGET (graph)), "released", 1,
                         (double) rect.origin.x + rect.size.width / 2, (double) rect.origin.y + rect.size.height / 2);
  g_assert_cmpuint (kymo_flame_graph_get_focus (graph), ==, paint);
  g_assert_true (kymo_flame_graph_get_node_rect (graph, paint, &rect));
  g_assert_cmpfloat (rect.size.width, ==, gtk_widget_get_width (GTK_WIDGET (graph)));
  screenshot (page, window, "flame-graph-zoomed.png");

  /* BackSpace goes back to the caller. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.zoom-out", NULL));
  g_assert_cmpuint (kymo_flame_graph_get_focus (graph), ==, find (tree, "main;frame"));

  /* The zoom survives a new range that still has the stack. */
  kymo_flame_graph_set_focus (graph, paint);
  kymo_session_set_selected_range (session, 0, 480 * MS);
  tree = wait_for_tree (model);
  g_assert_cmpuint (kymo_flame_graph_get_focus (graph), ==, find (tree, "main;frame;paint"));

  /* Nothing starts in [65, 95] ms: the empty state shows. */
  kymo_session_set_selected_range (session, 65 * MS, 95 * MS);
  wait_for_tree (model);
  g_assert_true (kymo_flame_page_get_empty (KYMO_FLAME_PAGE (page)));
  screenshot (page, window, "flame-graph-empty.png");

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_call_tree_activate (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  GtkWidget *view = kymo_trace_view_new (trace);
  KymoSession *session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (view));
  GtkWidget *calls = kymo_call_tree_view_new (session);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *window;
  KymoFlameModel *model = kymo_flame_model_get_for_session (session);
  GListModel *rows;
  const KymoEventRef *selected;
  guint frame_row = G_MAXUINT;

  gtk_widget_set_vexpand (view, TRUE);
  gtk_widget_set_size_request (calls, -1, 300);
  gtk_box_append (GTK_BOX (box), view);
  gtk_box_append (GTK_BOX (box), calls);
  window = show_window (box, 1100, 800);
  wait_for_tree (model);

  /* rows: main (expanded: frame), worker */
  rows = kymo_call_tree_view_get_model (KYMO_CALL_TREE_VIEW (calls));
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, i);
      g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);

      if (g_str_equal (kymo_call_tree_item_get_data ((KymoCallTreeItem *) item)->name, "frame"))
        frame_row = i;
    }
  g_assert_cmpuint (frame_row, !=, G_MAXUINT);

  /* Activating "frame" selects the frame in the flame graph and the longest
   * frame (the fifth, 80 ms) on the timeline. */
  kymo_call_tree_view_activate_row (KYMO_CALL_TREE_VIEW (calls), frame_row);
  g_assert_cmpuint (kymo_flame_model_get_selected_node (model), ==,
                    find (kymo_flame_model_get_tree (model), "main;frame"));
  selected = kymo_session_get_selected_event (session);
  g_assert_nonnull (selected);
  g_assert_cmpuint (selected->track, ==, 0);
  g_assert_cmpuint (selected->kind, ==, KYMO_EVENT_KIND_SPAN);
  g_assert_cmpint (kymo_track_get_spans (kymo_trace_get_track (trace, 0), &(gsize) { 0 })[selected->index].start,
                   ==, 400 * MS);
  screenshot (box, window, "call-tree.png");

  /* Callers: the first level is every function's self time (made in a
   * thread); activating "paint" there selects its heaviest stack. */
  kymo_call_tree_view_set_callers (KYMO_CALL_TREE_VIEW (calls), TRUE);
  {
    guint paint_row = G_MAXUINT;

    for (int i = 0; i < 2000 && paint_row == G_MAXUINT; i++)
      {
        rows = kymo_call_tree_view_get_model (KYMO_CALL_TREE_VIEW (calls));
        for (guint r = 0; r < g_list_model_get_n_items (rows); r++)
          {
            g_autoptr(GtkTreeListRow) row = g_list_model_get_item (rows, r);
            g_autoptr(GObject) item = gtk_tree_list_row_get_item (row);
            const KymoCallNode *node = kymo_call_tree_item_get_data ((KymoCallTreeItem *) item);

            if (g_str_equal (node->name, "paint") && node->depth == 1)
              {
                /* ten paints: nine of 30 ms, one of 50 ms */
                g_assert_cmpint (node->self, ==, 320 * MS);
                g_assert_cmpint (node->total, ==, 320 * MS);
                paint_row = r;
              }
          }
        iterate (1);
      }
    g_assert_cmpuint (paint_row, !=, G_MAXUINT);
    screenshot (box, window, "call-tree-callers.png");
    kymo_call_tree_view_activate_row (KYMO_CALL_TREE_VIEW (calls), paint_row);
    g_assert_cmpuint (kymo_flame_model_get_selected_node (model), ==,
                      find (kymo_flame_model_get_tree (model), "main;frame;paint"));
  }

  /* F9 folds the bottom area away and brings it back. */
  g_assert_true (kymo_trace_view_get_bottom_visible (KYMO_TRACE_VIEW (view)));
  gtk_widget_activate_action (view, "trace-view.toggle-bottom", NULL);
  g_assert_false (kymo_trace_view_get_bottom_visible (KYMO_TRACE_VIEW (view)));
  gtk_widget_activate_action (view, "trace-view.toggle-bottom", NULL);
  g_assert_true (kymo_trace_view_get_bottom_visible (KYMO_TRACE_VIEW (view)));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
click_frame (KymoFlameGraph *graph,
             guint32         node)
{
  graphene_rect_t rect;

  kymo_flame_graph_set_focus (graph, 0);
  g_assert_true (kymo_flame_graph_get_node_rect (graph, node, &rect));
  g_signal_emit_by_name (click_gesture (GTK_WIDGET (graph)), "released", 1,
                         (double) rect.origin.x + rect.size.width / 2, (double) rect.origin.y + rect.size.height / 2);
}

/* The names from the first level down to the call tree's selected row. */
static char *
selected_row_path (KymoCallTreeView *calls)
{
  guint position = kymo_call_tree_view_get_selected_row (calls);
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  if (position == GTK_INVALID_LIST_POSITION)
    return NULL;
  row = g_list_model_get_item (kymo_call_tree_view_get_model (calls), position);
  for (GtkTreeListRow *r = g_object_ref (row), *up; r != NULL; r = up)
    {
      g_autoptr(KymoCallTreeItem) item = gtk_tree_list_row_get_item (r);

      g_ptr_array_insert (names, 0, (gpointer) kymo_call_tree_item_get_data (item)->name);
      up = gtk_tree_list_row_get_parent (r);
      g_object_unref (r);
    }
  g_ptr_array_add (names, NULL);
  return g_strjoinv (";", (char **) names->pdata);
}

/* Clicking a frame selects its row in the call tree, opening its callers'
 * rows (collapsed until then). */
static void
test_frame_selects_row (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *page = kymo_flame_page_new (session);
  GtkWidget *calls = kymo_call_tree_view_new (session);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  KymoFlameGraph *graph = kymo_flame_page_get_flame_graph (KYMO_FLAME_PAGE (page));
  KymoFlameModel *model = kymo_flame_graph_get_model (graph);
  GtkWidget *window;
  KymoCallTree *tree;

  gtk_widget_set_size_request (page, -1, 300);
  gtk_widget_set_size_request (calls, -1, 300);
  gtk_box_append (GTK_BOX (box), page);
  gtk_box_append (GTK_BOX (box), calls);
  window = show_window (box, 1000, 600);
  tree = wait_for_tree (model);
  g_assert_cmpuint (kymo_call_tree_view_get_selected_row (KYMO_CALL_TREE_VIEW (calls)), ==,
                    GTK_INVALID_LIST_POSITION);

  click_frame (graph, find (tree, "main;frame;paint"));
  {
    g_autofree char *path = selected_row_path (KYMO_CALL_TREE_VIEW (calls));

    g_assert_cmpstr (path, ==, "main;frame;paint");
  }
  /* "worker" was collapsed */
  click_frame (graph, find (tree, "worker;job"));
  {
    g_autofree char *path = selected_row_path (KYMO_CALL_TREE_VIEW (calls));

    g_assert_cmpstr (path, ==, "worker;job");
  }
  screenshot (box, window, "flame-graph-selects-row.png");

  /* Callers: the frame's function on the first level. */
  {
    GListModel *top_down = kymo_call_tree_view_get_model (KYMO_CALL_TREE_VIEW (calls));

    kymo_call_tree_view_set_callers (KYMO_CALL_TREE_VIEW (calls), TRUE);
    for (int i = 0; i < 2000 && kymo_call_tree_view_get_model (KYMO_CALL_TREE_VIEW (calls)) == top_down; i++)
      iterate (1);
  }
  click_frame (graph, find (tree, "main;frame;layout"));
  {
    g_autofree char *path = selected_row_path (KYMO_CALL_TREE_VIEW (calls));

    g_assert_cmpstr (path, ==, "layout");
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Search ignores case beyond ASCII: "STRASSE" finds "Straße", "äRGER" finds
 * "Ärger"; a name that is not UTF-8 is searched, not crashed on. */
static void
test_search_casefold (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "main");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  const char *names[] = { "Straße::bauen", "Ärger", "plain", "bad\xf0" };
  g_autoptr(KymoCallTree) tree = NULL;
  g_autofree guint8 *matches = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      kymo_track_add_span (track, i * 10 * MS, i * 10 * MS + 5 * MS, kymo_trace_intern (trace, names[i]), 0, 0, 0);
      kymo_track_add_span (track, 100 * MS + i * 10 * MS, 100 * MS + i * 10 * MS + 5 * MS,
                           kymo_trace_intern (trace, names[i]), 0, 0, 0);
    }
  kymo_trace_set_time_range (trace, 0, 200 * MS);
  kymo_trace_seal (trace);
  tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, 0, NULL, NULL);
  g_assert_nonnull (tree);

  g_assert_null (kymo_flame_render_match_nodes (tree, ""));
  matches = kymo_flame_render_match_nodes (tree, "STRASSE");
  g_assert_true (matches[find (tree, "main;Straße::bauen")]);
  g_assert_false (matches[find (tree, "main;Ärger")]);
  g_assert_false (matches[find (tree, "main;plain")]);
  g_clear_pointer (&matches, g_free);
  matches = kymo_flame_render_match_nodes (tree, "äRGER");
  g_assert_true (matches[find (tree, "main;Ärger")]);
  g_assert_false (matches[find (tree, "main;Straße::bauen")]);
  g_clear_pointer (&matches, g_free);
  matches = kymo_flame_render_match_nodes (tree, "BAD");
  {
    guint n, bad = 0;
    const KymoCallNode *nodes = kymo_call_tree_get_nodes (tree, &n);

    for (guint i = 1; i < n; i++)
      if (g_str_has_prefix (nodes[i].name, "bad"))
        bad = i;
    g_assert_cmpuint (bad, !=, 0);
    g_assert_true (matches[bad]);
    g_assert_false (matches[0]);
  }
}

static void
test_compare_ranges (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *page = kymo_flame_page_new (session);
  GtkWidget *window = show_window (page, 1100, 400);
  KymoFlameModel *model = kymo_flame_graph_get_model (kymo_flame_page_get_flame_graph (KYMO_FLAME_PAGE (page)));
  KymoCallTree *tree;
  const KymoCallNode *paint;

  /* frame 3 is the baseline, frame 4 (20 ms more paint) the new range */
  kymo_session_set_selected_range (session, 300 * MS, 399 * MS);
  wait_for_tree (model);
  g_assert_true (gtk_widget_activate_action (page, "flame-page.set-baseline", NULL));
  kymo_session_set_selected_range (session, 400 * MS, 499 * MS);
  tree = wait_for_tree (model);
  g_assert_true (kymo_call_tree_is_diff (tree));
  paint = &kymo_call_tree_get_nodes (tree, NULL)[find (tree, "main;frame;paint")];
  g_assert_cmpint (paint->base_self, ==, 30 * MS);
  g_assert_cmpint (paint->self, ==, 50 * MS);
  screenshot (page, window, "flame-graph-diff.png");

  gtk_widget_activate_action (page, "flame-page.clear-baseline", NULL);
  g_assert_false (kymo_call_tree_is_diff (kymo_flame_model_get_tree (model)));
  gtk_window_destroy (GTK_WINDOW (window));
}

enum { W_ENTER = 2, W_LEAVE };

/* main [0,100 µs] holding parse [0,@parse µs], in a WTF file. */
static char *
write_wtf (guint parse)
{
  WwWriter *w = ww_new (WW_LEGACY_LE, "{}", NULL, 0);
  g_autoptr(GBytes) bytes = NULL;
  char *path = NULL;
  int fd;

  ww_define (w, 1, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
  ww_define (w, 1, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  ww_event (w, W_ENTER, 1000);
  ww_string (w, WW_ASCII, "main");
  ww_event (w, W_ENTER, 1000);
  ww_string (w, WW_ASCII, "parse");
  ww_event (w, W_LEAVE, 1000 + parse);
  ww_event (w, W_LEAVE, 1100);
  bytes = ww_finish (w);
  fd = g_file_open_tmp ("kymo-flame-XXXXXX.wtf-trace", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  return path;
}

/* Comparing with a second file of the same format: the second gives the
 * widths, the first the baseline. */
static void
test_compare_files (void)
{
  g_autofree char *first = write_wtf (30);
  g_autofree char *second = write_wtf (50);
  g_autoptr(KymoInput) input = kymo_input_new_for_path (first, NULL);
  g_autoptr(KymoTrace) trace = kymo_load_sync (input, &(KymoLoadOptions) { 0 }, NULL, NULL, NULL, NULL);
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  g_autoptr(GFile) file = g_file_new_for_path (second);
  GtkWidget *page = kymo_flame_page_new (session);
  GtkWidget *window = show_window (page, 1000, 300);
  KymoFlameModel *model = kymo_flame_graph_get_model (kymo_flame_page_get_flame_graph (KYMO_FLAME_PAGE (page)));
  KymoCallTree *tree;
  const KymoCallNode *nodes;
  guint32 parse = G_MAXUINT32;
  guint n;

  wait_for_tree (model);
  kymo_flame_page_compare_with_file (KYMO_FLAME_PAGE (page), file);
  for (int i = 0; i < 2000 && (kymo_flame_model_get_baseline (model) == NULL ||
                               !kymo_call_tree_is_diff (kymo_flame_model_get_tree (model))); i++)
    iterate (1);
  tree = wait_for_tree (model);
  g_assert_true (kymo_call_tree_is_diff (tree));
  nodes = kymo_call_tree_get_nodes (tree, &n);
  for (guint32 i = 0; i < n; i++)
    if (g_str_equal (nodes[i].name, "parse"))
      parse = i;
  g_assert_cmpuint (parse, !=, G_MAXUINT32);
  g_assert_cmpint (nodes[parse].base_self, ==, 30000);
  g_assert_cmpint (nodes[parse].self, ==, 50000);
  g_assert_cmpint (nodes[0].total, ==, 100000);
  g_assert_cmpstr (kymo_flame_model_get_baseline_label (model), ==, strrchr (second, '/') + 1);
  gtk_window_destroy (GTK_WINDOW (window));
  g_remove (first);
  g_remove (second);
}

/* Sampled stacks of two crates on two workers, one sample without a stack. */
static void
test_samples (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  const char *a[] = { "std::rt::main", "tokio::runtime::block_on", "app::server::handle", "app::db::query" };
  const char *b[] = { "std::rt::main", "tokio::runtime::block_on", "hyper::proto::h1::decode" };
  guint32 cpu = kymo_trace_intern (trace, "cpu");
  KymoFrame frames[4];
  guint32 sa, sb;
  g_autoptr(KymoSession) session = NULL;
  GtkWidget *page, *window;
  KymoFlameGraph *graph;
  KymoFlameModel *model;
  KymoCallTree *tree;

  kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "worker-0");
  kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "worker-1");
  for (guint i = 0; i < G_N_ELEMENTS (a); i++)
    frames[i] = (KymoFrame) { kymo_trace_intern (trace, a[i]), 0 };
  sa = kymo_stacks_add (stacks, frames, G_N_ELEMENTS (a));
  for (guint i = 0; i < G_N_ELEMENTS (b); i++)
    frames[i] = (KymoFrame) { kymo_trace_intern (trace, b[i]), 0 };
  sb = kymo_stacks_add (stacks, frames, G_N_ELEMENTS (b));
  for (guint i = 0; i < 100; i++)
    kymo_stacks_add_sample (stacks, i % 2, i * MS, i % 50 == 7 ? KYMO_NO_STACK : i % 3 ? sa : sb, cpu, i);
  kymo_trace_set_time_range (trace, 0, 100 * MS);
  kymo_trace_seal (trace);

  session = kymo_session_new (trace);
  page = kymo_flame_page_new (session);
  window = show_window (page, 1000, 300);
  graph = kymo_flame_page_get_flame_graph (KYMO_FLAME_PAGE (page));
  model = kymo_flame_graph_get_model (graph);
  g_assert_true (kymo_flame_model_has_samples (model));
  wait_for_tree (model);
  kymo_flame_model_set_source (model, KYMO_CALL_TREE_SAMPLES);
  tree = wait_for_tree (model);
  g_assert_cmpint (kymo_call_tree_get_source (tree), ==, KYMO_CALL_TREE_SAMPLES);
  g_assert_cmpint (kymo_call_tree_get_nodes (tree, NULL)[0].total, ==, 100);
  g_assert_cmpuint (find (tree, "worker-1;<unknown stack>"), !=, G_MAXUINT32);
  /* samples are coloured by crate */
  g_assert_true (kymo_flame_graph_get_by_module (graph));
  kymo_flame_graph_set_orientation (graph, KYMO_FLAME_GRAPH_FLAME);
  screenshot (page, window, "flame-graph-samples.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/flame-graph/range-and-zoom", test_range_and_zoom);
  g_test_add_func ("/flame-graph/call-tree-activate", test_call_tree_activate);
  g_test_add_func ("/flame-graph/frame-selects-row", test_frame_selects_row);
  g_test_add_func ("/flame-graph/search-casefold", test_search_casefold);
  g_test_add_func ("/flame-graph/compare-ranges", test_compare_ranges);
  g_test_add_func ("/flame-graph/samples", test_samples);
  g_test_add_func ("/flame-graph/compare-files", test_compare_files);

  return g_test_run ();
}
