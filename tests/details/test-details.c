/* test-details.c: the details sidebar (details, zones, annotations, range)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "kymo-test-widget.h"
#include "kymo.h"
#include "kymo-session.h"
#include "kymo-trace-view.h"
#include "atf/kymo-atf.h"
#include "atf/kymo-atf-builder.h"
#include "details/kymo-annotation-item.h"
#include "details/kymo-annotation-view.h"
#include "details/kymo-details-pane.h"
#include "details/kymo-details-sidebar.h"
#include "details/kymo-range-summary.h"
#include "details/kymo-stats-item.h"
#include "details/kymo-zone-view.h"

#define MS 1000000LL

#define MAIN_ID G_GUINT64_CONSTANT (0x0000000100000001)
#define WORK_ID G_GUINT64_CONSTANT (0x0000000100000002)
#define LEAF_ID G_GUINT64_CONSTANT (0x0000000100000003)

static const char manifest_text[] =
  "{\"threads\":[{\"id\":0,\"has_detail\":true}],"
  "\"time_start_ns\":0,\"time_end_ns\":0,\"clock_type\":1,"
  "\"modules\":[{\"module_id\":1,\"path\":\"/bin/app\"}],"
  "\"symbols\":["
  "{\"function_id\":\"0x0000000100000001\",\"module_id\":1,\"symbol_index\":1,\"name\":\"main\"},"
  "{\"function_id\":\"0x0000000100000002\",\"module_id\":1,\"symbol_index\":2,\"name\":\"work\"},"
  "{\"function_id\":\"0x0000000100000003\",\"module_id\":1,\"symbol_index\":3,\"name\":\"leaf\"}],"
  "\"format_version\":\"2.1\"}";

/* ------------------------------------------------------------ helpers */

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *child = g_build_filename (path, name, NULL);
        remove_tree (child);
      }
  g_remove (path);
}

static void
collect_labels (GtkWidget *widget,
                GPtrArray *texts)
{
  if (!gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget))
    g_ptr_array_add (texts, (gpointer) gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    collect_labels (child, texts);
}

static gboolean
has_label (GtkWidget  *root,
           const char *text)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();

  collect_labels (root, texts);
  for (guint i = 0; i < texts->len; i++)
    if (g_strcmp0 (g_ptr_array_index (texts, i), text) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
has_label_prefix (GtkWidget  *root,
                  const char *prefix)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();

  collect_labels (root, texts);
  for (guint i = 0; i < texts->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (texts, i), prefix))
      return TRUE;
  return FALSE;
}

static gboolean
has_label_containing (GtkWidget  *root,
                      const char *needle)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();

  collect_labels (root, texts);
  for (guint i = 0; i < texts->len; i++)
    if (strstr (g_ptr_array_index (texts, i), needle))
      return TRUE;
  return FALSE;
}

/* The value shown next to the key @key (key and value labels are siblings). */
static const char *
value_of (GtkWidget  *root,
          const char *key)
{
  if (GTK_IS_LABEL (root) && g_strcmp0 (gtk_label_get_text (GTK_LABEL (root)), key) == 0 &&
      gtk_widget_get_visible (root))
    {
      GtkWidget *value = gtk_widget_get_next_sibling (root);
      return GTK_IS_LABEL (value) ? gtk_label_get_text (GTK_LABEL (value)) : NULL;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      const char *found = value_of (child, key);
      if (found)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_named (GtkWidget  *root,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (root), name) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);
      if (found)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_widget (GtkWidget *root,
             GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (root, type))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_widget (child, type);
      if (found)
        return found;
    }
  return NULL;
}

static GtkWidget *
find_button (GtkWidget  *root,
             const char *label)
{
  if (GTK_IS_BUTTON (root) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (root)), label) == 0)
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);
      if (found)
        return found;
    }
  return NULL;
}

static guint
find_track (KymoTrace  *trace,
            const char *name)
{
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    if (g_str_equal (kymo_track_get_name (kymo_trace_get_track (trace, i)), name))
      return i;
  return KYMO_NO_TRACK;
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
  for (guint i = 0; i < 100000 && !gtk_widget_get_mapped (child); i++)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (gtk_widget_get_mapped (child));
  kymo_test_spin ();
  return window;
}

static gboolean
window_drawn (gpointer data)
{
  return gtk_widget_get_width (GTK_WIDGET (data)) > 0;
}

/* ------------------------------------------------------------ ATF */

typedef struct {
  char *root;
  char *pid_dir;
} AtfSession;

/* main calls work 12 times; each work call has a detail record on its CALL
 * and its RETURN (540-byte ring records) and calls leaf, which has none. */
static void
atf_session_write (AtfSession *s)
{
  g_autofree char *manifest = NULL;
  KymoAtfThreadBuilder b;
  KymoAtfRegs regs = { { 11, 12, 13, 14, 15, 16, 17, 18 }, 0x100, 0x200, 0x300 };
  guint8 stack[40];

  s->root = g_dir_make_tmp ("kymo-details-test-XXXXXX", NULL);
  g_assert_nonnull (s->root);
  s->pid_dir = g_build_filename (s->root, "session_20260101_000000", "pid_77", NULL);
  g_assert_cmpint (g_mkdir_with_parents (s->pid_dir, 0755), ==, 0);
  manifest = g_build_filename (s->pid_dir, "manifest.json", NULL);
  g_assert_true (g_file_set_contents (manifest, manifest_text, -1, NULL));

  for (guint i = 0; i < sizeof stack; i++)
    stack[i] = (guint8) (i < 8 ? 'A' + i : 0xA0 + i);
  kymo_atf_builder_init (&b, 0, KYMO_ATF_ARCH_X86_64);
  kymo_atf_builder_add_index (&b, 1000, MAIN_ID, KYMO_ATF_CALL, 1, KYMO_ATF_NO_DETAIL);
  for (guint i = 0; i < 12; i++)
    {
      guint64 t = 2000 + i * 1000;

      regs.x[0] = 11 + i;
      kymo_atf_builder_add_linked (&b, KYMO_ATF_PAYLOAD_RING, t, WORK_ID, KYMO_ATF_CALL, 2, &regs, stack, sizeof stack);
      kymo_atf_builder_add_index (&b, t + 100, LEAF_ID, KYMO_ATF_CALL, 3, KYMO_ATF_NO_DETAIL);
      kymo_atf_builder_add_index (&b, t + 300, LEAF_ID, KYMO_ATF_RETURN, 3, KYMO_ATF_NO_DETAIL);
      kymo_atf_builder_add_linked (&b, KYMO_ATF_PAYLOAD_RING, t + 600, WORK_ID, KYMO_ATF_RETURN, 2, &regs, NULL, 0);
    }
  kymo_atf_builder_add_index (&b, 20000, MAIN_ID, KYMO_ATF_RETURN, 1, KYMO_ATF_NO_DETAIL);
  g_assert_true (kymo_atf_builder_write (&b, s->pid_dir, TRUE, NULL));
  kymo_atf_builder_clear (&b);
}

static void
atf_session_clear (AtfSession *s)
{
  remove_tree (s->root);
  g_free (s->root);
  g_free (s->pid_dir);
}

static KymoTrace *
load_path (const char *path)
{
  g_autoptr(GError) error = NULL;
  KymoInput *input = kymo_input_new_for_path (path, &error);
  KymoTrace *trace;

  g_assert_no_error (error);
  trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
  kymo_input_unref (input);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

static gboolean
ref_equal (const KymoEventRef *a,
           const KymoEventRef *b)
{
  return a && b && a->kind == b->kind && a->track == b->track && a->index == b->index;
}

static void
test_atf_details (void)
{
  AtfSession s;
  g_autoptr(KymoTrace) trace = NULL;
  GtkWidget *view, *sidebar, *pane, *paned, *window, *button, *list;
  GtkSelectionModel *records;
  KymoSession *session;
  KymoEventRef work = { 0, KYMO_EVENT_KIND_SPAN, G_MAXUINT }, main_span;
  const KymoEventRef *selected;
  const KymoSpan *spans;
  guint thread, detail;
  gsize n;

  atf_session_write (&s);
  trace = load_path (s.root);
  thread = find_track (trace, "Thread 0");
  detail = find_track (trace, KYMO_ATF_DETAIL_TRACK_NAME);
  g_assert_cmpuint (thread, !=, KYMO_NO_TRACK);
  g_assert_cmpuint (detail, !=, KYMO_NO_TRACK);

  /* The third work call (depth 1, ordered by start). */
  spans = kymo_track_get_spans (kymo_trace_get_track (trace, thread), &n);
  for (gsize i = 0, seen = 0; i < n; i++)
    if (kymo_track_get_span_depth (kymo_trace_get_track (trace, thread), i) == 1 && seen++ == 2)
      work = (KymoEventRef) { thread, KYMO_EVENT_KIND_SPAN, (guint) i };
  g_assert_cmpuint (work.index, !=, G_MAXUINT);
  g_assert_true (kymo_span_flags (&spans[work.index]) & KYMO_EVENT_LINKED);
  main_span = (KymoEventRef) { thread, KYMO_EVENT_KIND_SPAN, 0 };

  /* The trace view and the sidebar side by side, as the app will show them. */
  view = kymo_trace_view_new (trace);
  session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (view));
  sidebar = kymo_details_sidebar_new (session);
  pane = kymo_details_sidebar_get_details_pane (KYMO_DETAILS_SIDEBAR (sidebar));
  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), view);
  gtk_paned_set_end_child (GTK_PANED (paned), sidebar);
  gtk_paned_set_position (GTK_PANED (paned), 760);
  gtk_paned_set_shrink_end_child (GTK_PANED (paned), FALSE);
  window = show_window (paned, 1280, 760);
  g_assert_cmpstr (kymo_details_sidebar_get_page (KYMO_DETAILS_SIDEBAR (sidebar)), ==, KYMO_DETAILS_PAGE_DETAILS);

  /* Nothing selected: no link to follow. */
  g_assert_false (kymo_details_sidebar_follow_link (KYMO_DETAILS_SIDEBAR (sidebar)));

  /* A call with a detail record shows its registers under x86_64 names. */
  kymo_session_select_event (session, &work);
  kymo_test_spin ();
  g_assert_true (has_label (pane, "work"));
  g_assert_true (has_label (pane, "Registers (x86_64)"));
  for (guint i = 0; i < 8; i++)
    {
      static const char * const names[] = { "rdi", "rsi", "rdx", "rcx", "r8", "r9", "rbp", "rsp" };
      g_assert_true (has_label (pane, names[i]));
    }
  g_assert_true (has_label (pane, "0x000000000000000d"));   /* rdi of the third call: 11 + 2 */
  g_assert_true (has_label (pane, "rax"));                  /* at return */
  g_assert_true (has_label_prefix (pane, "0000  41 42 43 44 45 46 47 48  a8 a9"));
  g_assert_true (has_label_containing (pane, "\n0020  c0 c1 c2 c3 c4 c5 c6 c7" "                           ........"));
  g_assert_cmpstr (value_of (pane, "Start"), ==, "+3 µs");
  g_assert_cmpstr (value_of (pane, "End"), ==, "+3.6 µs");
  g_assert_cmpstr (value_of (pane, "Duration"), ==, "600 ns");
  g_assert_cmpstr (value_of (pane, "Self time"), ==, "400 ns");
  g_assert_cmpstr (value_of (pane, "Depth"), ==, "1");
  g_assert_cmpstr (value_of (pane, "rdi"), ==, "0x000000000000000d");
  /* Registers in the order of the architecture, not of a hash table. */
  {
    GtkWidget *grid = find_named (pane, "registers");
    g_assert_nonnull (grid);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (grid))), ==, "rdi");
  }
  g_assert_true (has_label (pane, "main  (19 µs)"));        /* the parent, clickable */
  g_assert_true (has_label (pane, "leaf  ×1  200 ns"));      /* the children */

  /* The whole event as JSON. */
  {
    g_autofree char *json = kymo_details_pane_dup_event_json (KYMO_DETAILS_PANE (pane));
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root, *args;

    g_assert_nonnull (json);
    g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpstr (json_object_get_string_member (root, "name"), ==, "work");
    g_assert_cmpint (json_object_get_int_member (root, "duration_ns"), ==, 600);
    args = json_object_get_object_member (root, "args");
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (args, "regs"), "rdi"),
                     ==, "0x000000000000000d");
  }

  /* The per-thread list of detail records shows the record of this call. */
  list = find_widget (pane, GTK_TYPE_LIST_VIEW);
  g_assert_nonnull (list);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (gtk_widget_get_parent (list))));
  records = gtk_list_view_get_model (GTK_LIST_VIEW (list));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (records)), ==, 24);

  /* Go to the detail record and back: the same span again. */
  button = find_button (pane, "Go to Detail Event");
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_true (kymo_details_sidebar_follow_link (KYMO_DETAILS_SIDEBAR (sidebar)));
  kymo_test_spin ();
  selected = kymo_session_get_selected_event (session);
  g_assert_nonnull (selected);
  g_assert_cmpuint (selected->track, ==, detail);
  g_assert_cmpint (selected->kind, ==, KYMO_EVENT_KIND_INSTANT);
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (records)), ==, selected->index);
  g_assert_true (has_label (pane, "Registers (x86_64)"));
  g_assert_true (has_label (pane, "0x000000000000000d"));
  g_assert_nonnull (find_button (pane, "Go to Index Event"));
  /* The timeline shows it. */
  {
    KymoTime start, end;
    kymo_session_get_visible_range (session, &start, &end);
    g_assert_cmpint (start, <=, spans[work.index].start);
    g_assert_cmpint (end, >=, spans[work.index].start);
  }
  kymo_test_save_png (sidebar, "details-sidebar-detail.png");

  /* Back through the widget action, as the J key does. */
  g_assert_true (gtk_widget_activate_action (sidebar, "details.follow-link", NULL));
  kymo_test_spin ();
  g_assert_true (ref_equal (kymo_session_get_selected_event (session), &work));

  /* Selecting a record in the list selects its call. */
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (records), 1);   /* the first call's RETURN record */
  kymo_test_spin ();
  selected = kymo_session_get_selected_event (session);
  g_assert_nonnull (selected);
  g_assert_cmpuint (selected->track, ==, thread);
  g_assert_cmpint (selected->kind, ==, KYMO_EVENT_KIND_SPAN);
  g_assert_cmpint (spans[selected->index].start, ==, 2000);
  /* ... and the list keeps the record that was chosen. */
  g_assert_cmpuint (gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (records)), ==, 1);

  /* The parent chain: each one selects its span. */
  kymo_session_select_event (session, &work);
  kymo_test_spin ();
  g_signal_emit_by_name (find_button (pane, "main  (19 µs)"), "clicked");
  kymo_test_spin ();
  g_assert_true (ref_equal (kymo_session_get_selected_event (session), &main_span));

  /* A call without a detail record has no link; its children are listed. */
  kymo_session_select_event (session, &main_span);
  kymo_test_spin ();
  g_assert_false (gtk_widget_get_visible (find_button (pane, "Go to Detail Event")));
  g_assert_false (kymo_details_sidebar_follow_link (KYMO_DETAILS_SIDEBAR (sidebar)));
  g_assert_true (ref_equal (kymo_session_get_selected_event (session), &main_span));
  g_assert_true (has_label (pane, "12 (1 distinct name)"));

  /* The screenshot the lead looks at. */
  kymo_session_select_event (session, &work);
  kymo_test_spin_until (window_drawn, sidebar);
  kymo_test_spin ();
  kymo_test_save_png (sidebar, "details-sidebar.png");
  kymo_test_save_png (paned, "details-window.png");

  gtk_window_destroy (GTK_WINDOW (window));
  kymo_test_spin ();
  atf_session_clear (&s);
}

/* ------------------------------------------------------------ annotations */

static KymoTrace *
make_annotated_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint group = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "zone one");
  guint thread = kymo_trace_add_track (trace, group, KYMO_TRACK_THREAD, "main");
  guint marks = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_MARKER, "marks");
  guint notes = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_ANNOTATION, "notes");
  KymoTrack *t = kymo_trace_get_track (trace, thread);

  kymo_track_set_group_kind (kymo_trace_get_track (trace, group), "zone");
  kymo_track_add_span (t, 0, 1000 * MS, kymo_trace_intern (trace, "frame"), 0, 0, 0);
  kymo_track_add_annotation (kymo_trace_get_track (trace, marks), 700 * MS, 750 * MS,
                             kymo_trace_intern (trace, "range"), "loading assets", 1);
  kymo_track_add_annotation (kymo_trace_get_track (trace, marks), 300 * MS, 300 * MS,
                             kymo_trace_intern (trace, "mark"), "frame start", 2);
  kymo_track_add_instant (kymo_trace_get_track (trace, marks), 100 * MS, kymo_trace_intern (trace, "vsync"), 0, 3);
  kymo_track_add_annotation (kymo_trace_get_track (trace, notes), 500 * MS, 500 * MS,
                             kymo_trace_intern (trace, "note"), "user note", 4);
  kymo_trace_add_warning (trace, 1234, 900 * MS, "dropped 3 events");
  kymo_trace_add_warning (trace, 5678, KYMO_TIME_NONE, "damaged frame");
  kymo_trace_set_time_range (trace, 0, 1000 * MS);
  kymo_trace_seal (trace);
  return trace;
}

static guint
find_item (GListModel *model,
           const char *text)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(KymoAnnotationItem) item = g_list_model_get_item (model, i);
      if (strstr (kymo_annotation_item_get_text (item), text))
        return i;
    }
  return G_MAXUINT;
}

static void
test_annotations (void)
{
  g_autoptr(KymoTrace) trace = make_annotated_trace ();
  g_autoptr(KymoSession) session = kymo_session_new (trace);
  GtkWidget *sidebar = kymo_details_sidebar_new (session);
  GtkWidget *view = kymo_details_sidebar_get_annotation_view (KYMO_DETAILS_SIDEBAR (sidebar));
  GListModel *model = kymo_annotation_view_get_model (KYMO_ANNOTATION_VIEW (view));
  GtkWidget *window;
  KymoTime start, end, before_start, before_end, last = G_MININT64;
  guint pos;

  kymo_details_sidebar_set_page (KYMO_DETAILS_SIDEBAR (sidebar), KYMO_DETAILS_PAGE_ANNOTATIONS);
  window = show_window (sidebar, 520, 600);

  /* Annotations, the marker instant and both loader warnings, by time. */
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(KymoAnnotationItem) item = g_list_model_get_item (model, i);
      g_assert_cmpint (kymo_annotation_item_get_start (item), >=, last);
      last = kymo_annotation_item_get_start (item);
    }
  g_assert_cmpuint (find_item (model, "damaged frame"), !=, G_MAXUINT);
  g_assert_cmpuint (find_item (model, "vsync"), !=, G_MAXUINT);
  kymo_test_save_png (sidebar, "details-annotations.png");

  /* Activating the range zooms the timeline to it (with a margin). */
  pos = find_item (model, "loading assets");
  g_assert_cmpuint (pos, !=, G_MAXUINT);
  kymo_annotation_view_activate (KYMO_ANNOTATION_VIEW (view), pos);
  kymo_session_get_visible_range (session, &start, &end);
  g_assert_cmpint (start, <=, 700 * MS);
  g_assert_cmpint (end, >=, 750 * MS);
  g_assert_cmpint (end - start, <=, 75 * MS);
  g_assert_cmpint (kymo_session_get_selected_event (session)->kind, ==, KYMO_EVENT_KIND_ANNOTATION);

  /* A point annotation is centred. */
  pos = find_item (model, "user note");
  kymo_annotation_view_activate (KYMO_ANNOTATION_VIEW (view), pos);
  kymo_session_get_visible_range (session, &start, &end);
  g_assert_cmpint (start, <, 500 * MS);
  g_assert_cmpint (end, >, 500 * MS);

  /* A warning without a time stays listed and does nothing. */
  kymo_session_get_visible_range (session, &before_start, &before_end);
  kymo_annotation_view_activate (KYMO_ANNOTATION_VIEW (view), find_item (model, "damaged frame"));
  kymo_session_get_visible_range (session, &start, &end);
  g_assert_cmpint (start, ==, before_start);
  g_assert_cmpint (end, ==, before_end);

  /* A warning with a time is a place on the timeline like any other. */
  kymo_annotation_view_activate (KYMO_ANNOTATION_VIEW (view), find_item (model, "dropped 3 events"));
  kymo_session_get_visible_range (session, &start, &end);
  g_assert_cmpint (start, <, 900 * MS);
  g_assert_cmpint (end, >, 900 * MS);

  /* Filtering by text, case-insensitively, over text, kind and source. */
  kymo_annotation_view_set_filter_text (KYMO_ANNOTATION_VIEW (view), "LOADING");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 1);
  kymo_annotation_view_set_filter_text (KYMO_ANNOTATION_VIEW (view), "warning");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 2);
  kymo_annotation_view_set_filter_text (KYMO_ANNOTATION_VIEW (view), "");
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, 6);

  /* The zone view lists the one group; choosing it shows its time. */
  {
    GtkWidget *zones = kymo_details_sidebar_get_zone_view (KYMO_DETAILS_SIDEBAR (sidebar));
    guint group = find_track (trace, "zone one");

    g_assert_cmpuint (kymo_zone_view_get_n_groups (KYMO_ZONE_VIEW (zones)), ==, 1);
    kymo_session_set_group_collapsed (session, group, TRUE);
    kymo_zone_view_activate (KYMO_ZONE_VIEW (zones), group);
    g_assert_false (kymo_session_get_group_collapsed (session, group));
    kymo_session_get_visible_range (session, &start, &end);
    g_assert_cmpint (start, <=, 0);
    g_assert_cmpint (end, >=, 1000 * MS);
    kymo_details_sidebar_set_page (KYMO_DETAILS_SIDEBAR (sidebar), KYMO_DETAILS_PAGE_ZONES);
    kymo_test_spin_until (window_drawn, zones);
    kymo_test_spin ();
    kymo_test_save_png (sidebar, "details-zones.png");
  }

  gtk_window_destroy (GTK_WINDOW (window));
  kymo_test_spin ();
}

/* ------------------------------------------------------------ range */

typedef struct {
  guint    track;
  guint    depth;
  KymoTime start;
  KymoTime end;
  guint32  name;
} TestSpan;

/* Nested spans inside [start, end) at @depth, a few per level. */
static void
add_random_spans (KymoTrace *trace,
                  GRand     *rand,
                  GArray    *all,
                  guint      track,
                  guint      depth,
                  KymoTime   start,
                  KymoTime   end,
                  guint32   *names)
{
  KymoTime t = start;

  if (depth > 4 || end - start < 20)
    return;
  while (t < end)
    {
      KymoTime s = t + g_rand_int_range (rand, 0, (gint32) MAX ((end - t) / 3, 1));
      KymoTime e = s + g_rand_int_range (rand, 1, (gint32) MAX ((end - s) / 2, 2));
      TestSpan span = { track, depth, s, MIN (e, end), names[g_rand_int_range (rand, 0, 5)] };

      if (s >= end)
        break;
      kymo_track_add_span (kymo_trace_get_track (trace, track), span.start, span.end, span.name, depth, 0, 0);
      g_array_append_val (all, span);
      add_random_spans (trace, rand, all, track, depth + 1, span.start, span.end, names);
      t = span.end + g_rand_int_range (rand, 0, 50);
    }
}

static gboolean
summary_ready (gpointer data)
{
  return !kymo_range_summary_get_busy (KYMO_RANGE_SUMMARY (data));
}

static void
test_range_summary (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(KymoSession) session = NULL;
  g_autoptr(GArray) all = g_array_new (FALSE, FALSE, sizeof (TestSpan));
  g_autoptr(GRand) rand = g_rand_new_with_seed (9);
  GtkWidget *sidebar, *summary, *window;
  GListModel *model;
  guint32 names[5];
  const KymoTime from = 20000, to = 70000;
  guint n_names = 0;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("fn_%c", 'a' + i);
      names[i] = kymo_trace_intern (trace, name);
    }
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *name = g_strdup_printf ("thread %u", i);
      guint track = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, name);
      add_random_spans (trace, rand, all, track, 0, 0, 100000, names);
    }
  kymo_trace_seal (trace);
  g_assert_cmpuint (all->len, >, 100);

  session = kymo_session_new (trace);
  sidebar = kymo_details_sidebar_new (session);
  summary = kymo_details_sidebar_get_range_summary (KYMO_DETAILS_SIDEBAR (sidebar));
  model = kymo_range_summary_get_model (KYMO_RANGE_SUMMARY (summary));
  kymo_details_sidebar_set_page (KYMO_DETAILS_SIDEBAR (sidebar), KYMO_DETAILS_PAGE_RANGE);
  window = show_window (sidebar, 640, 500);

  kymo_session_set_selected_range (session, from, to);
  kymo_test_spin_until (summary_ready, summary);
  kymo_test_save_png (sidebar, "details-range.png");

  /* Brute force over the spans as they were generated. */
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      guint64 count = 0;
      KymoTime total = 0, self_total = 0, min = G_MAXINT64, max = 0;
      gboolean found = FALSE;

      for (guint i = 0; i < all->len; i++)
        {
          const TestSpan *s = &g_array_index (all, TestSpan, i);
          g_autofree guint8 *covered = NULL;
          KymoTime dur = s->end - s->start, cov = 0;

          if (s->name != names[k] || s->start < from || s->start > to)
            continue;
          /* Direct children: one depth deeper on the same track, clipped. */
          covered = g_malloc0 (dur);
          for (guint j = 0; j < all->len; j++)
            {
              const TestSpan *c = &g_array_index (all, TestSpan, j);
              if (c->track != s->track || c->depth != s->depth + 1)
                continue;
              for (KymoTime t = MAX (c->start, s->start); t < MIN (c->end, s->end); t++)
                covered[t - s->start] = 1;
            }
          for (KymoTime t = 0; t < dur; t++)
            cov += covered[t];
          count++;
          total += dur;
          self_total += dur - cov;
          min = MIN (min, dur);
          max = MAX (max, dur);
        }

      for (guint i = 0; i < g_list_model_get_n_items (model); i++)
        {
          g_autoptr(KymoStatsItem) item = g_list_model_get_item (model, i);
          const KymoNameStats *row = kymo_stats_item_get_stats (item);

          if (row->name_id != names[k])
            continue;
          found = TRUE;
          g_assert_cmpuint (row->count, ==, count);
          g_assert_cmpint (row->total, ==, total);
          g_assert_cmpint (row->self, ==, self_total);
          g_assert_cmpint (row->min, ==, min);
          g_assert_cmpint (row->max, ==, max);
          g_assert_cmpint (row->mean, ==, (KymoTime) llround ((double) total / count));
        }
      g_assert_true (found == (count > 0));
      n_names += count > 0;
    }
  g_assert_cmpuint (g_list_model_get_n_items (model), ==, n_names);

  /* Shown biggest total first. */
  for (guint i = 1; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(KymoStatsItem) a = g_list_model_get_item (model, i - 1);
      g_autoptr(KymoStatsItem) b = g_list_model_get_item (model, i);
      g_assert_cmpint (kymo_stats_item_get_stats (a)->total, >=, kymo_stats_item_get_stats (b)->total);
    }

  /* Choosing a row highlights its name in the timeline. */
  {
    GtkWidget *column_view = find_widget (summary, GTK_TYPE_COLUMN_VIEW);
    GtkSelectionModel *selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (column_view));
    g_autoptr(KymoStatsItem) second = g_list_model_get_item (model, 1);

    gtk_selection_model_select_item (selection, 1, TRUE);
    g_assert_cmpuint (kymo_session_get_highlighted_name (session), ==, kymo_stats_item_get_stats (second)->name_id);
    gtk_selection_model_unselect_item (selection, 1);
    g_assert_cmpuint (kymo_session_get_highlighted_name (session), ==, KYMO_SESSION_NO_NAME);
  }

  /* Copy as CSV: the model's own CSV of the same numbers. */
  {
    g_autofree char *csv = kymo_range_summary_dup_csv (KYMO_RANGE_SUMMARY (summary));
    g_autoptr(GArray) rows = kymo_stats_compute (trace, from, to, NULL, NULL);
    g_autoptr(GString) expected = g_string_new (NULL);

    kymo_stats_append_csv (rows, expected);
    g_assert_nonnull (csv);
    g_assert_true (g_str_has_prefix (csv, KYMO_STATS_CSV_HEADER "\n"));
    g_assert_cmpstr (csv, ==, expected->str);
    g_assert_true (gtk_widget_activate_action (summary, "range.copy-csv", NULL));
  }

  /* Without a selection it follows the visible range. */
  kymo_session_clear_selected_range (session);
  kymo_session_zoom_to (session, 0, 10);
  kymo_test_spin_until (summary_ready, summary);
  {
    g_autoptr(GArray) rows = kymo_stats_compute (trace, 0, 10, NULL, NULL);
    KymoTime vstart, vend;

    kymo_session_get_visible_range (session, &vstart, &vend);
    g_array_unref (rows);
    rows = kymo_stats_compute (trace, vstart, vend, NULL, NULL);
    g_assert_cmpuint (g_list_model_get_n_items (model), ==, rows->len);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  kymo_test_spin ();
}

int
main (int   argc,
      char *argv[])
{
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add_func ("/details/atf", test_atf_details);
  g_test_add_func ("/details/annotations", test_annotations);
  g_test_add_func ("/details/range-summary", test_range_summary);
  return g_test_run ();
}
