/* test-dial9-pages.c: the Tasks and Points of Interest pages of a dial9 trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "kymo-session.h"
#include "kymo-timeline-export.h"
#include "kymo-timeline-layout.h"
#include "dial9/kymo-dial9-analysis.h"
#include "dial9/kymo-dial9-poi-view.h"
#include "dial9/kymo-dial9-task-item.h"
#include "dial9/kymo-dial9-tasks-view.h"
#include "details/kymo-details-sidebar.h"
#include "kymo-flame-model.h"
#include "../dial9/dial9-builder.h"

#define MS 1000000
#define WIDTH 1200

/* Worker 0 polls task 1 at 1–3 ms, task 2 at 5–7 ms, task 1 again at
 * 9–11 ms; the trace runs to 12 ms. */
static KymoTrace *
make_trace (void)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *spawn[] = { "task_id:9", "spawn_loc:7", "instrumented:3", NULL };
  static const guint64 polls[][3] = { { 1, 1, 3 }, { 2, 5, 7 }, { 1, 9, 11 } };
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(GError) error = NULL;
  KymoLoadOptions options = { .format = "dial9" };
  KymoTrace *trace;

  d9b_header (b);
  d9b_schema (b, 0, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
  d9b_schema (b, 2, "TaskSpawnEvent", TRUE, spawn);
  d9b_pool (b, 1, "src/main.rs:1:1");
  d9b_event (b, 2, 0); d9b_varint (b, 1); d9b_u32 (b, 1); d9b_u8 (b, 1);
  d9b_event (b, 2, 0); d9b_varint (b, 2); d9b_u32 (b, 1); d9b_u8 (b, 0);
  for (guint i = 0; i < G_N_ELEMENTS (polls); i++)
    {
      d9b_reset (b, polls[i][1] * MS);
      d9b_event (b, 0, 0); d9b_varint (b, 0); d9b_u8 (b, 0); d9b_varint (b, polls[i][0]); d9b_u32 (b, 1);
      d9b_event (b, 1, (gint32) ((polls[i][2] - polls[i][1]) * MS)); d9b_varint (b, 0);
    }
  d9b_reset (b, 12 * MS);
  d9b_event (b, 2, 0); d9b_varint (b, 3); d9b_u32 (b, 1); d9b_u8 (b, 1);

  bytes = g_bytes_new (b->data, b->len);
  input = kymo_input_new_for_bytes (bytes, "pages.bin");
  trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

/* Until the session's analysis says @done (a guard keeps a broken one
 * from hanging the suite). */
static void
wait_analysis (KymoSession *session,
               gboolean   (*done) (KymoDial9Analysis *analysis))
{
  KymoDial9Analysis *analysis = kymo_dial9_analysis_get (session);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (!done (analysis) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (done (analysis));
}

static void
wait_ready (KymoSession *session)
{
  wait_analysis (session, kymo_dial9_analysis_get_ready);
}

static void
wait_polls_ready (KymoSession *session)
{
  wait_analysis (session, kymo_dial9_analysis_get_polls_ready);
}

/* Picked as soon as the table shows, a task is selected once its polls
 * are placed, off the UI thread: until then nothing is highlighted. */
static void
wait_selected (KymoSession *session)
{
  KymoDial9Analysis *analysis = kymo_dial9_analysis_get (session);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (kymo_dial9_analysis_get_selected_task (analysis) == KYMO_DIAL9_NO_TASK &&
         g_get_monotonic_time () < deadline)
    {
      g_assert_null (kymo_session_get_highlight (session));
      g_main_context_iteration (NULL, TRUE);
    }
  g_assert_cmpuint (kymo_dial9_analysis_get_selected_task (analysis), !=, KYMO_DIAL9_NO_TASK);
}

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  const guint8 *px = cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface) + x * 4;
  return (px[2] << 16) | (px[1] << 8) | px[0];
}

static cairo_surface_t *
render (KymoSession *session,
        int          height)
{
  g_autoptr(GskRenderNode) node = kymo_timeline_export_to_node (session, WIDTH, height, FALSE, NULL);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, height);
  cairo_t *cr = cairo_create (surface);

  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Selecting a task highlights its polls (and only them) on the timeline;
 * its wakers line says it was not woken; Escape clears it. */
static void
test_select_task (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  g_autoptr(KymoTimelineLayout) layout = kymo_timeline_layout_new (session);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = kymo_dial9_tasks_view_new (session);
  GListModel *model = kymo_dial9_tasks_view_get_model (KYMO_DIAL9_TASKS_VIEW (view));
  cairo_surface_t *before, *after;
  KymoEventSet *set;
  const KymoTimelineRow *row;
  guint task1 = G_MAXUINT, worker = G_MAXUINT;
  int height, y;

  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  wait_ready (session);
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 3);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(KymoDial9TaskItem) item = g_list_model_get_item (model, i);
      if (kymo_dial9_task_item_get_task (item)->task_id == 1)
        task1 = i;
    }
  g_assert_cmpuint (task1, !=, G_MAXUINT);

  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    if (g_strcmp0 (kymo_track_get_name (kymo_trace_get_track (trace, i)), "worker 0") == 0)
      worker = i;
  g_assert_cmpuint (worker, !=, G_MAXUINT);
  kymo_session_set_visible_range (session, 0, 12 * MS);
  height = kymo_timeline_export_natural_height (session);
  row = kymo_timeline_layout_get_row (layout, kymo_timeline_layout_find_track (layout, worker));
  y = KYMO_TIMELINE_RULER_HEIGHT + row->y + row->lanes_y + KYMO_TIMELINE_LANE_HEIGHT / 2;

  before = render (session, height);
  kymo_dial9_tasks_view_select (KYMO_DIAL9_TASKS_VIEW (view), task1);
  wait_selected (session);
  set = kymo_session_get_highlight (session);
  g_assert_nonnull (set);
  g_assert_cmpuint (kymo_event_set_get_n_events (set), ==, 2);
  g_assert_nonnull (strstr (kymo_dial9_tasks_view_get_wakers_text (KYMO_DIAL9_TASKS_VIEW (view)),
                            "woken 0 times"));
  after = render (session, height);
  {
    g_autofree char *path = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                              "dial9-task-highlight.png", NULL);
    cairo_surface_write_to_png (after, path);
  }

  /* 100 px a ms: task 1's polls (x 100–300, 900–1100) keep their colour,
   * task 2's (500–700) is dimmed */
  g_assert_cmphex (pixel_at (after, 200, y), ==, pixel_at (before, 200, y));
  g_assert_cmphex (pixel_at (after, 1000, y), ==, pixel_at (before, 1000, y));
  g_assert_cmphex (pixel_at (after, 600, y), !=, pixel_at (before, 600, y));

  /* Escape in the table clears the highlight */
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (view);
    gboolean escaped = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

        if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
          continue;
        for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
          {
            g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
            GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

            if (GTK_IS_KEYVAL_TRIGGER (trigger) &&
                gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) == GDK_KEY_Escape)
              escaped = gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, view,
                                                      gtk_shortcut_get_arguments (shortcut));
          }
      }
    g_assert_true (escaped);
  }
  g_assert_null (kymo_session_get_highlight (session));
  g_assert_cmpuint (kymo_dial9_analysis_get_selected_task (kymo_dial9_analysis_get (session)), ==,
                    KYMO_DIAL9_NO_TASK);
  cairo_surface_destroy (before);
  cairo_surface_destroy (after);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Next walks the points of interest worst first, framing and selecting each:
 * three 2 ms long polls and the uninstrumented task's poll. */
static void
test_poi_steps (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = kymo_dial9_poi_view_new (session);
  const KymoEventRef *ref;
  KymoTime start, end;

  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  wait_ready (session);
  /* a long poll each (> 1 ms), and task 2's as uninstrumented */
  g_assert_cmpstr (kymo_dial9_poi_view_get_counter (KYMO_DIAL9_POI_VIEW (view)), ==, "– / 4");
  g_assert_true (kymo_dial9_poi_view_step (KYMO_DIAL9_POI_VIEW (view), 1));
  g_assert_cmpstr (kymo_dial9_poi_view_get_counter (KYMO_DIAL9_POI_VIEW (view)), ==, "1 / 4");
  ref = kymo_session_get_selected_event (session);
  g_assert_nonnull (ref);
  g_assert_true (kymo_session_get_event_extent (session, ref, &start, &end));
  g_assert_cmpint (start, ==, 1 * MS);
  kymo_session_get_visible_range (session, &start, &end);
  g_assert_cmpint (start, <=, 1 * MS);
  g_assert_cmpint (end, >=, 3 * MS);
  g_assert_true (kymo_dial9_poi_view_step (KYMO_DIAL9_POI_VIEW (view), -1));
  g_assert_cmpstr (kymo_dial9_poi_view_get_counter (KYMO_DIAL9_POI_VIEW (view)), ==, "4 / 4");

  kymo_dial9_poi_view_set_worst_first (KYMO_DIAL9_POI_VIEW (view), FALSE);
  g_assert_true (kymo_dial9_poi_view_step (KYMO_DIAL9_POI_VIEW (view), 1));
  ref = kymo_session_get_selected_event (session);
  g_assert_true (kymo_session_get_event_extent (session, ref, &start, &end));
  g_assert_cmpint (start, ==, 1 * MS);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Task 2's poll is both long and uninstrumented: two points, next to each
 * other worst first. A step never lands on the event it leaves. */
static void
test_poi_steps_past_same_event (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = kymo_dial9_poi_view_new (session);
  KymoDial9PoiView *pois = KYMO_DIAL9_POI_VIEW (view);
  static const struct {
    int         direction;
    const char *counter;
    KymoTime    start;
  } steps[] = {
    { 1, "1 / 4", 1 * MS }, { 1, "2 / 4", 5 * MS }, { 1, "4 / 4", 9 * MS },
    { -1, "3 / 4", 5 * MS }, { -1, "1 / 4", 1 * MS },
  };

  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  wait_ready (session);
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      const KymoEventRef *ref;
      KymoTime start, end;

      g_assert_true (kymo_dial9_poi_view_step (pois, steps[i].direction));
      g_assert_cmpstr (kymo_dial9_poi_view_get_counter (pois), ==, steps[i].counter);
      ref = kymo_session_get_selected_event (session);
      g_assert_nonnull (ref);
      g_assert_true (kymo_session_get_event_extent (session, ref, &start, &end));
      g_assert_cmpint (start, ==, steps[i].start);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The window's F8 shortcut (shift: -1), or NULL. */
static GtkShortcut *
find_f8 (GtkWidget       *window,
         GdkModifierType  modifiers)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (window);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          GtkShortcutTrigger *trigger = gtk_shortcut_get_trigger (shortcut);

          if (!GTK_IS_KEYVAL_TRIGGER (trigger) ||
              gtk_keyval_trigger_get_keyval (GTK_KEYVAL_TRIGGER (trigger)) != GDK_KEY_F8 ||
              gtk_keyval_trigger_get_modifiers (GTK_KEYVAL_TRIGGER (trigger)) != modifiers)
            continue;
          /* before the focus: the window's GtkPaned bind F8 themselves */
          g_assert_cmpint (gtk_event_controller_get_propagation_phase (GTK_EVENT_CONTROLLER (controller)), ==,
                           GTK_PHASE_CAPTURE);
          return shortcut;
        }
    }
  return NULL;
}

/* F8 / Shift+F8 step wherever the focus is and whichever bottom page shows:
 * the keys are the window's, in the capture phase (the window's GtkPaned
 * bind F8 to cycling their handles and took it first; and the page is
 * unmapped while another one shows). GTK 4.8 cannot synthesise a key press:
 * the window's shortcut is found and activated as a press would. */
static void
test_poi_keys_from_any_page (void)
{
  g_autoptr(KymoTrace) trace = make_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *stack = gtk_stack_new ();
  GtkWidget *view = kymo_dial9_poi_view_new (session);
  GtkShortcut *next, *previous;

  gtk_stack_add_named (GTK_STACK (stack), gtk_label_new ("details"), "details");
  gtk_stack_add_named (GTK_STACK (stack), view, "poi");
  gtk_stack_set_visible_child_name (GTK_STACK (stack), "details");
  gtk_window_set_child (GTK_WINDOW (window), stack);
  gtk_window_present (GTK_WINDOW (window));
  wait_ready (session);
  g_assert_false (gtk_widget_get_mapped (view));

  next = find_f8 (window, 0);
  previous = find_f8 (window, GDK_SHIFT_MASK);
  g_assert_nonnull (next);
  g_assert_nonnull (previous);
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (next), 0, window,
                                               gtk_shortcut_get_arguments (next)));
  g_assert_cmpstr (kymo_dial9_poi_view_get_counter (KYMO_DIAL9_POI_VIEW (view)), ==, "1 / 4");
  g_assert_nonnull (kymo_session_get_selected_event (session));
  g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (previous), 0, window,
                                               gtk_shortcut_get_arguments (previous)));
  g_assert_cmpstr (kymo_dial9_poi_view_get_counter (KYMO_DIAL9_POI_VIEW (view)), ==, "4 / 4");

  /* the keys leave with the page */
  gtk_stack_remove (GTK_STACK (stack), view);
  g_assert_null (find_f8 (window, 0));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Task 5 spawned at 1 ms, polled 2–3.5 ms, terminated at 4 ms, as task 9
 * (never seen before: no spawn location); a clock sync says trace time
 * 2 ms is 2026-04-15 16:04:04 UTC. */
static KymoTrace *
make_clock_trace (void)
{
  const char *clock[] = { "realtime_ns:9", NULL };
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *spawn[] = { "task_id:9", "spawn_loc:7", "instrumented:3", NULL };
  const char *terminate[] = { "task_id:9", NULL };
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(GError) error = NULL;
  KymoLoadOptions options = { .format = "dial9" };
  KymoTrace *trace;

  d9b_header (b);
  d9b_schema (b, 0, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
  d9b_schema (b, 2, "TaskSpawnEvent", TRUE, spawn);
  d9b_schema (b, 3, "TaskTerminateEvent", TRUE, terminate);
  d9b_schema (b, 4, "ClockSyncEvent", TRUE, clock);
  d9b_pool (b, 1, "src/main.rs:1:1");
  d9b_reset (b, 1 * MS);
  d9b_event (b, 2, 0); d9b_varint (b, 5); d9b_u32 (b, 1); d9b_u8 (b, 1);
  d9b_reset (b, 2 * MS);
  d9b_event (b, 4, 0); d9b_varint (b, G_GUINT64_CONSTANT (1776269044000000000));
  d9b_event (b, 0, 0); d9b_varint (b, 0); d9b_u8 (b, 0); d9b_varint (b, 5); d9b_u32 (b, 1);
  d9b_event (b, 1, 1500000); d9b_varint (b, 0);
  d9b_reset (b, 4 * MS);
  d9b_event (b, 3, 0); d9b_varint (b, 5);
  d9b_event (b, 3, 0); d9b_varint (b, 9);

  bytes = g_bytes_new (b->data, b->len);
  input = kymo_input_new_for_bytes (bytes, "clock.bin");
  trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static gboolean
has_label (GtkWidget  *widget,
           const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (widget)), text) == 0)
    return TRUE;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (has_label (child, text))
        return TRUE;
    }
  return FALSE;
}

/* What a failing wait_label() saw. */
static void
print_labels (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    g_printerr ("label: “%s”\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    print_labels (child);
}

static void
wait_label (GtkWidget  *widget,
            const char *text)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (!has_label (widget, text) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  if (!has_label (widget, text))
    {
      print_labels (widget);
      g_error ("no cell reads “%s”", text);
    }
}

/* The table says when each task was spawned and terminated, in the clock
 * the window's Time menu picks: relative to the trace start, then UTC. */
static void
test_tasks_spawned_terminated (void)
{
  g_autoptr(KymoTrace) trace = make_clock_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = kymo_dial9_tasks_view_new (session);

  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 300);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  wait_ready (session);
  g_assert_true (has_label (view, "Spawned"));
  g_assert_true (has_label (view, "Terminated"));
  /* the trace starts at the spawn */
  wait_label (view, "+0 ns");
  wait_label (view, "+3 ms");
  /* task 9's location is not known, and the table says so */
  wait_label (view, "Unknown");

  kymo_session_set_utc (session, TRUE);
  kymo_session_set_wallclock (session, TRUE);
  wait_label (view, "2026-04-15 16:04:03.999000000 UTC");
  wait_label (view, "2026-04-15 16:04:04.002000000 UTC");
  g_assert_false (has_label (view, "+3 ms"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Worker 0 polls task 1 from 1 to 3.5 ms; a CPU sample lands at 2 ms. */
static KymoTrace *
make_sampled_trace (void)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *cpu[] = { "worker_id:9", "tid:13", "source:11", "thread_name:135", "callchain:6", "cpu:137", NULL };
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(GError) error = NULL;
  KymoLoadOptions options = { .format = "dial9" };
  KymoTrace *trace;

  d9b_header (b);
  d9b_schema (b, 0, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
  d9b_schema (b, 2, "CpuSampleEvent", TRUE, cpu);
  d9b_pool (b, 1, "src/main.rs:1:1");
  d9b_reset (b, 1 * MS);
  d9b_event (b, 0, 0); d9b_varint (b, 0); d9b_u8 (b, 0); d9b_varint (b, 1); d9b_u32 (b, 1);
  d9b_event (b, 2, 1 * MS); d9b_varint (b, 0); d9b_u32 (b, 10); d9b_u8 (b, 0); d9b_u8 (b, 0);
  d9b_u32 (b, 77); d9b_u8 (b, 0);
  d9b_event (b, 1, 1500000); d9b_varint (b, 0);

  bytes = g_bytes_new (b->data, b->len);
  input = kymo_input_new_for_bytes (bytes, "sampled.bin");
  trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  return trace;
}

static GtkWidget *
find_button (GtkWidget  *widget,
             const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A poll's sampled stacks in the details pane lead to the flame graph of
 * those samples over the poll's range: the button under them used to open
 * the page folding spans, which showed the poll itself and no stack. */
static void
test_poll_stacks_flame_graph (void)
{
  g_autoptr(KymoTrace) trace = make_sampled_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *sidebar = kymo_details_sidebar_new (session);
  KymoEventRef poll = { G_MAXUINT32, KYMO_EVENT_KIND_SPAN, 0 };
  GtkWidget *button;
  KymoTime start, end;

  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    if (g_strcmp0 (kymo_track_get_name (kymo_trace_get_track (trace, i)), "worker 0") == 0)
      poll.track = i;
  g_assert_cmpuint (poll.track, !=, G_MAXUINT32);
  gtk_window_set_child (GTK_WINDOW (window), sidebar);
  gtk_window_present (GTK_WINDOW (window));
  kymo_session_select_event (session, &poll);
  button = find_button (sidebar, "Open _Flame Graph of This Range");
  g_assert_nonnull (button);
  g_assert_cmpint (kymo_flame_model_get_source (kymo_flame_model_get_for_session (session)), ==,
                   KYMO_CALL_TREE_SPANS);

  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (kymo_details_sidebar_get_page (KYMO_DETAILS_SIDEBAR (sidebar)), ==, "flame-graph");
  g_assert_cmpint (kymo_flame_model_get_source (kymo_flame_model_get_for_session (session)), ==,
                   KYMO_CALL_TREE_SAMPLES);
  kymo_session_get_selected_range (session, &start, &end);
  g_assert_cmpint (start, ==, 1 * MS);
  g_assert_cmpint (end, ==, 3500000);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The page's list (not the order drop-down's). */
static GtkWidget *
find_list_view (GtkWidget *widget)
{
  if (GTK_IS_LIST_VIEW (widget) && gtk_widget_has_css_class (widget, "navigation-sidebar"))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_list_view (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* A point's line says when it is in the window's clock, and says it again
 * when the clock changes (the shown lines kept the relative time), the
 * current point still selected. */
static void
test_poi_follows_clock (void)
{
  g_autoptr(KymoTrace) trace = make_clock_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = kymo_dial9_poi_view_new (session);
  GtkWidget *list;
  GtkSelectionModel *rows;

  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 300);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  wait_ready (session);
  list = find_list_view (view);
  rows = gtk_list_view_get_model (GTK_LIST_VIEW (list));
  g_assert_true (kymo_dial9_poi_view_step (KYMO_DIAL9_POI_VIEW (view), 1));
  g_assert_cmpstr (kymo_dial9_poi_view_get_counter (KYMO_DIAL9_POI_VIEW (view)), ==, "1 / 1");
  /* Once the polls are placed, the line names the task polled. */
  wait_polls_ready (session);
  wait_label (list, "Long poll · 1.5 ms · worker 0 · task 5 (src/main.rs:1:1) · +1 ms");

  kymo_session_set_utc (session, TRUE);
  kymo_session_set_wallclock (session, TRUE);
  wait_label (list, "Long poll · 1.5 ms · worker 0 · task 5 (src/main.rs:1:1) · 2026-04-15 16:04:04.000000000 UTC");
  g_assert_false (has_label (list, "Long poll · 1.5 ms · worker 0 · task 5 (src/main.rs:1:1) · +1 ms"));
  g_assert_true (gtk_selection_model_is_selected (rows, 0));
  g_assert_cmpstr (kymo_dial9_poi_view_get_counter (KYMO_DIAL9_POI_VIEW (view)), ==, "1 / 1");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/dial9-pages/select-task", test_select_task);
  g_test_add_func ("/dial9-pages/poi-steps", test_poi_steps);
  g_test_add_func ("/dial9-pages/poi-steps-past-same-event", test_poi_steps_past_same_event);
  g_test_add_func ("/dial9-pages/poi-follows-clock", test_poi_follows_clock);
  g_test_add_func ("/dial9-pages/poll-stacks-flame-graph", test_poll_stacks_flame_graph);
  g_test_add_func ("/dial9-pages/tasks-spawned-terminated", test_tasks_spawned_terminated);
  g_test_add_func ("/dial9-pages/poi-keys-from-any-page", test_poi_keys_from_any_page);
  return g_test_run ();
}
