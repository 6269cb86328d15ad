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
};

G_DEFINE_FINAL_TYPE (KymoTraceView, kymo_trace_view, GTK_TYPE_WIDGET)

static void
kymo_trace_view_dispose (GObject *object)
{
  KymoTraceView *self = (KymoTraceView *) object;

  g_clear_pointer (&self->paned, gtk_widget_unparent);
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
      gtk_paned_set_position (GTK_PANED (self->main_paned), height * 2 / 3);
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
  gtk_paned_set_shrink_end_child (GTK_PANED (self->main_paned), FALSE);

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
