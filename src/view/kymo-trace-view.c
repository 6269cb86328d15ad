/* kymo-trace-view.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-trace-view"

#include "config.h"

#include "kymo-trace-view.h"
#include "kymo-timeline.h"
#include "kymo-track-list.h"
#include "kymo-find-model.h"
#include "kymo-search-bar.h"
#include "details/kymo-details-sidebar.h"

struct _KymoTraceView
{
  GtkWidget    parent_instance;
  KymoTrace   *trace;
  KymoSession *session;
  GtkWidget   *paned;       /* track list | timeline over details */
  GtkWidget   *main_paned;  /* timeline over details */
  GtkWidget   *track_list;
  GtkWidget   *timeline;
  GtkWidget   *search_bar;
  GtkWidget   *details;
  /* The first allocation gives the timeline 2/3 of the height. */
  gboolean     split_placed;
  /* The bottom area's height the user last chose (the paned's height minus
   * its position): an empty Details page folds to its tab row and the area
   * comes back at this height. */
  int          bottom_height;
  gboolean     want_folded;
  gboolean     placing;      /* the position change is ours, not the user's */
  GSignalGroup *details_signals;
};

G_DEFINE_FINAL_TYPE (KymoTraceView, kymo_trace_view, GTK_TYPE_WIDGET)

static void
kymo_trace_view_dispose (GObject *object)
{
  KymoTraceView *self = (KymoTraceView *) object;

  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->details_signals);
  g_clear_object (&self->session);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (kymo_trace_view_parent_class)->dispose (object);
}

/* J: jump across the ATF index <-> detail link from wherever focus is. */
static void
follow_link_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  KymoTraceView *self = KYMO_TRACE_VIEW (widget);

  if (KYMO_IS_DETAILS_SIDEBAR (self->details))
    kymo_details_sidebar_follow_link (KYMO_DETAILS_SIDEBAR (self->details));
}

/* Ctrl+F, F3 and Shift+F3: find works from wherever focus is in the view. */
static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KymoTraceView *self = KYMO_TRACE_VIEW (widget);
  KymoFindModel *model = kymo_find_model_get_for_session (self->session);

  if (g_str_equal (action_name, "trace-view.find"))
    kymo_search_bar_open (KYMO_SEARCH_BAR (self->search_bar));
  else if (g_str_equal (action_name, "trace-view.find-next"))
    kymo_find_model_next (model);
  else
    kymo_find_model_previous (model);
}

/* F9: the bottom area folds away to nothing and comes back at its size. */
static void
toggle_bottom_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  KymoTraceView *self = KYMO_TRACE_VIEW (widget);

  kymo_trace_view_set_bottom_visible (self, !kymo_trace_view_get_bottom_visible (self));
}

static void
place_split (KymoTraceView *self,
             int            position)
{
  self->placing = TRUE;
  gtk_paned_set_position (GTK_PANED (self->main_paned), position);
  self->placing = FALSE;
}

/* Past the end: the paned clamps it to leave the bottom area its minimum. */
#define FOLDED_POSITION (G_MAXINT / 4)

static gboolean
details_empty (KymoTraceView *self)
{
  KymoTime start, end;

  if (g_strcmp0 (kymo_details_sidebar_get_page (KYMO_DETAILS_SIDEBAR (self->details)),
                 KYMO_DETAILS_PAGE_DETAILS) != 0)
    return FALSE;
  if (kymo_session_get_selected_event (self->session) != NULL)
    return FALSE;
  kymo_session_get_selected_range (self->session, &start, &end);
  return start == KYMO_TIME_NONE && end == KYMO_TIME_NONE;
}

/* Folds only when emptiness changes, so a user who dragged an empty page
 * open keeps it open until something else is shown and cleared again. */
static void
update_fold (KymoTraceView *self)
{
  KymoDetailsSidebar *sidebar;
  gboolean want;

  if (!KYMO_IS_DETAILS_SIDEBAR (self->details))
    return;
  sidebar = KYMO_DETAILS_SIDEBAR (self->details);
  want = details_empty (self);
  if (want == self->want_folded)
    return;
  self->want_folded = want;
  if (kymo_details_sidebar_get_folded (sidebar) == want)
    return;
  kymo_details_sidebar_set_folded (sidebar, want);
  if (self->split_placed)
    place_split (self, want ? FOLDED_POSITION
                            : MAX (0, gtk_widget_get_height (self->main_paned) - self->bottom_height));
}

/* A folded area dragged up unfolds once its page fits the room the drag
 * made, so the handle never jumps under the pointer. */
static void
unfold_if_room (KymoTraceView *self,
                int            position,
                int            max_position)
{
  KymoDetailsSidebar *sidebar = KYMO_DETAILS_SIDEBAR (self->details);
  int width = gtk_widget_get_width (self->main_paned);
  int folded_min, unfolded_min;

  gtk_widget_measure (self->details, GTK_ORIENTATION_VERTICAL, width, &folded_min, NULL, NULL, NULL);
  kymo_details_sidebar_set_folded (sidebar, FALSE);
  gtk_widget_measure (self->details, GTK_ORIENTATION_VERTICAL, width, &unfolded_min, NULL, NULL, NULL);
  if (folded_min + (max_position - position) < unfolded_min)
    kymo_details_sidebar_set_folded (sidebar, TRUE);
}

static void
on_split_moved (KymoTraceView *self)
{
  int position, max_position, height = gtk_widget_get_height (self->main_paned);

  if (self->placing || !self->split_placed || height <= 0 || !KYMO_IS_DETAILS_SIDEBAR (self->details))
    return;
  g_object_get (self->main_paned, "position", &position, "max-position", &max_position, NULL);
  /* While folded the paned holds the handle at its end (window resizes
   * too): anywhere above it is the user's drag or keyboard. */
  if (kymo_details_sidebar_get_folded (KYMO_DETAILS_SIDEBAR (self->details)))
    {
      if (position >= max_position)
        return;
      unfold_if_room (self, position, max_position);
      if (kymo_details_sidebar_get_folded (KYMO_DETAILS_SIDEBAR (self->details)))
        return;
    }
  self->bottom_height = height - position;
}

static void
kymo_trace_view_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  KymoTraceView *self = KYMO_TRACE_VIEW (widget);

  gtk_widget_measure (self->paned, orientation, for_size, minimum, natural, minimum_baseline, natural_baseline);
}

static void
kymo_trace_view_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  KymoTraceView *self = KYMO_TRACE_VIEW (widget);

  /* A fixed position would starve the details of a small window and waste a
   * large one; after the first placement the user's choice stands. */
  if (!self->split_placed && height > 0)
    {
      self->bottom_height = height - height * 2 / 3;
      place_split (self, self->want_folded ? FOLDED_POSITION : height * 2 / 3);
      self->split_placed = TRUE;
    }
  gtk_widget_allocate (self->paned, width, height, baseline, NULL);
  kymo_find_model_set_view_width (kymo_find_model_get_for_session (self->session),
                                  gtk_widget_get_width (self->timeline));
}

static void
kymo_trace_view_class_init (KymoTraceViewClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = kymo_trace_view_dispose;
  widget_class->measure = kymo_trace_view_measure;
  widget_class->size_allocate = kymo_trace_view_size_allocate;

  gtk_widget_class_install_action (widget_class, "trace-view.follow-link", NULL, follow_link_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_j, 0, "trace-view.follow-link", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_J, 0, "trace-view.follow-link", NULL);
  gtk_widget_class_install_action (widget_class, "trace-view.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "trace-view.find-next", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "trace-view.find-previous", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "trace-view.toggle-bottom", NULL, toggle_bottom_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "trace-view.toggle-bottom", NULL);
}

static void
add_find_shortcut (GtkShortcutController *controller,
                   guint                  keyval,
                   GdkModifierType        modifiers,
                   const char            *action)
{
  gtk_shortcut_controller_add_shortcut (controller,
                                        gtk_shortcut_new (gtk_keyval_trigger_new (keyval, modifiers),
                                                          gtk_named_action_new (action)));
}

static void
kymo_trace_view_init (KymoTraceView *self)
{
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();

  /* Find works wherever the focus is in the window (the header bar too). */
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  add_find_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_f, GDK_CONTROL_MASK, "trace-view.find");
  add_find_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_F3, 0, "trace-view.find-next");
  add_find_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts), GDK_KEY_F3, GDK_SHIFT_MASK, "trace-view.find-previous");
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  self->details_signals = g_signal_group_new (KYMO_TYPE_DETAILS_SIDEBAR);
  g_signal_group_connect_object (self->details_signals, "notify::page", G_CALLBACK (update_fold), self,
                                 G_CONNECT_SWAPPED);
}

GtkWidget *
kymo_trace_view_new (KymoTrace *trace)
{
  KymoTraceView *self;
  GtkWidget *timeline_box, *scrollbar, *timeline_column;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  self = g_object_new (KYMO_TYPE_TRACE_VIEW, NULL);
  self->trace = g_object_ref (trace);
  self->session = kymo_session_new (trace);

  self->track_list = kymo_track_list_new (self->session);
  self->timeline = kymo_timeline_new (self->session);
  gtk_widget_set_hexpand (self->timeline, TRUE);
  gtk_widget_set_vexpand (self->timeline, TRUE);
  scrollbar = gtk_scrollbar_new (GTK_ORIENTATION_VERTICAL,
                                 kymo_timeline_get_vadjustment (KYMO_TIMELINE (self->timeline)));
  timeline_box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_box_append (GTK_BOX (timeline_box), self->timeline);
  gtk_box_append (GTK_BOX (timeline_box), scrollbar);

  self->search_bar = kymo_search_bar_new (self->session);
  timeline_column = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (timeline_column), self->search_bar);
  gtk_box_append (GTK_BOX (timeline_column), timeline_box);

  self->main_paned = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_paned_set_start_child (GTK_PANED (self->main_paned), timeline_column);
  gtk_paned_set_resize_start_child (GTK_PANED (self->main_paned), TRUE);
  /* A window resize goes to the timeline; the bottom area keeps the
   * height the user gave it (and a folded one stays folded). */
  gtk_paned_set_resize_end_child (GTK_PANED (self->main_paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->main_paned), FALSE);
  g_signal_connect_object (self->main_paned, "notify::position", G_CALLBACK (on_split_moved), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::selected-event", G_CALLBACK (update_fold), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::selection-start", G_CALLBACK (update_fold), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::selection-end", G_CALLBACK (update_fold), self,
                           G_CONNECT_SWAPPED);

  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), self->track_list);
  gtk_paned_set_end_child (GTK_PANED (self->paned), self->main_paned);
  gtk_paned_set_resize_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_position (GTK_PANED (self->paned), 260);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));

  kymo_trace_view_set_details (self, kymo_details_sidebar_new (self->session));
  return GTK_WIDGET (self);
}

KymoTrace *
kymo_trace_view_get_trace (KymoTraceView *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE_VIEW (self), NULL);

  return self->trace;
}

KymoSession *
kymo_trace_view_get_session (KymoTraceView *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE_VIEW (self), NULL);

  return self->session;
}

GtkWidget *
kymo_trace_view_get_timeline (KymoTraceView *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE_VIEW (self), NULL);

  return self->timeline;
}

GtkWidget *
kymo_trace_view_get_search_bar (KymoTraceView *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE_VIEW (self), NULL);

  return self->search_bar;
}

GtkWidget *
kymo_trace_view_get_track_list (KymoTraceView *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE_VIEW (self), NULL);

  return self->track_list;
}

void
kymo_trace_view_set_details (KymoTraceView *self,
                             GtkWidget     *details)
{
  g_return_if_fail (KYMO_IS_TRACE_VIEW (self));
  g_return_if_fail (details == NULL || GTK_IS_WIDGET (details));

  if (details == self->details)
    return;
  self->details = details;
  gtk_paned_set_end_child (GTK_PANED (self->main_paned), details);
  g_signal_group_set_target (self->details_signals, KYMO_IS_DETAILS_SIDEBAR (details) ? details : NULL);
  self->want_folded = FALSE;
  update_fold (self);
}

GtkWidget *
kymo_trace_view_get_details (KymoTraceView *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE_VIEW (self), NULL);

  return self->details;
}

gboolean
kymo_trace_view_get_bottom_visible (KymoTraceView *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE_VIEW (self), FALSE);

  return self->details != NULL && gtk_widget_get_visible (self->details);
}

void
kymo_trace_view_set_bottom_visible (KymoTraceView *self,
                                    gboolean       visible)
{
  g_return_if_fail (KYMO_IS_TRACE_VIEW (self));

  /* A hidden end child takes the paned's handle with it: no room at all. */
  if (self->details != NULL)
    gtk_widget_set_visible (self->details, visible);
}
