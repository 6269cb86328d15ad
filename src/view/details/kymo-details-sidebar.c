/* kymo-details-sidebar.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-details-sidebar.h"
#include "kymo-annotation-view.h"
#include "kymo-details-pane.h"
#include "kymo-query-view.h"
#include "kymo-range-summary.h"
#include "kymo-zone-view.h"
#include "kymo-search-results.h"
#include "kymo-flame-page.h"
#include "kymo-call-tree-view.h"
#include "dial9/kymo-dial9-poi-view.h"
#include "dial9/kymo-dial9-tasks-view.h"
#include "dial9/kymo-dial9-analysis.h"

struct _KymoDetailsSidebar
{
  GtkWidget    parent_instance;

  KymoSession *session;
  GtkWidget   *switcher;
  GtkWidget   *stack;
  GtkWidget   *details;
  GtkWidget   *zones;
  GtkWidget   *annotations;
  GtkWidget   *range;
};

G_DEFINE_FINAL_TYPE (KymoDetailsSidebar, kymo_details_sidebar, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_PAGE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

gboolean
kymo_details_sidebar_follow_link (KymoDetailsSidebar *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_SIDEBAR (self), FALSE);

  return kymo_details_pane_follow_link (KYMO_DETAILS_PANE (self->details));
}

static void
follow_link_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  kymo_details_sidebar_follow_link (KYMO_DETAILS_SIDEBAR (widget));
}

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  kymo_details_sidebar_set_page (KYMO_DETAILS_SIDEBAR (widget), g_variant_get_string (parameter, NULL));
}

static void
on_page_changed (KymoDetailsSidebar *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PAGE]);
}

static void
kymo_details_sidebar_constructed (GObject *object)
{
  KymoDetailsSidebar *self = (KymoDetailsSidebar *) object;

  G_OBJECT_CLASS (kymo_details_sidebar_parent_class)->constructed (object);

  self->details = kymo_details_pane_new (self->session);
  self->zones = kymo_zone_view_new (self->session);
  self->annotations = kymo_annotation_view_new (self->session);
  self->range = kymo_range_summary_new (self->session);
  gtk_stack_add_titled (GTK_STACK (self->stack), self->details, KYMO_DETAILS_PAGE_DETAILS, _("Details"));
  gtk_stack_add_titled (GTK_STACK (self->stack), self->zones, KYMO_DETAILS_PAGE_ZONES, _("Zones"));
  gtk_stack_add_titled (GTK_STACK (self->stack), self->annotations, KYMO_DETAILS_PAGE_ANNOTATIONS, _("Annotations"));
  gtk_stack_add_titled (GTK_STACK (self->stack), self->range, KYMO_DETAILS_PAGE_RANGE, _("Range"));
  gtk_stack_add_titled (GTK_STACK (self->stack), kymo_search_results_new (self->session), KYMO_DETAILS_PAGE_FIND, _("Find"));
  gtk_stack_add_titled (GTK_STACK (self->stack), kymo_flame_page_new (self->session), "flame-graph", _("Flame Graph"));
  gtk_stack_add_titled (GTK_STACK (self->stack), kymo_call_tree_view_new (self->session), "call-tree", _("Call Tree"));
  if (kymo_dial9_analysis_applies (self->session))
    {
      gtk_stack_add_titled (GTK_STACK (self->stack), kymo_dial9_tasks_view_new (self->session), "tasks", _("Tasks"));
      gtk_stack_add_titled (GTK_STACK (self->stack), kymo_dial9_poi_view_new (self->session), "poi",
                            _("Points of Interest"));
    }
  gtk_stack_add_titled (GTK_STACK (self->stack), kymo_query_view_new (self->session), KYMO_DETAILS_PAGE_QUERY, _("Query"));
  g_signal_connect_swapped (self->stack, "notify::visible-child-name", G_CALLBACK (on_page_changed), self);
}

static void
kymo_details_sidebar_dispose (GObject *object)
{
  KymoDetailsSidebar *self = (KymoDetailsSidebar *) object;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_details_sidebar_parent_class)->dispose (object);
}

static void
kymo_details_sidebar_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  KymoDetailsSidebar *self = KYMO_DETAILS_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_PAGE:
      g_value_set_string (value, kymo_details_sidebar_get_page (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_details_sidebar_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  KymoDetailsSidebar *self = KYMO_DETAILS_SIDEBAR (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    case PROP_PAGE:
      kymo_details_sidebar_set_page (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_details_sidebar_class_init (KymoDetailsSidebarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_details_sidebar_constructed;
  object_class->dispose = kymo_details_sidebar_dispose;
  object_class->get_property = kymo_details_sidebar_get_property;
  object_class->set_property = kymo_details_sidebar_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_PAGE] =
    g_param_spec_string ("page", NULL, NULL, KYMO_DETAILS_PAGE_DETAILS,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "details.follow-link", NULL, follow_link_action);
  gtk_widget_class_install_action (widget_class, "details.show-page", "s", show_page_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_j, 0, "details.follow-link", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-details-sidebar");
}

static void
kymo_details_sidebar_init (KymoDetailsSidebar *self)
{
  GtkWidget *switcher_scroller;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  self->stack = gtk_stack_new ();
  gtk_stack_set_transition_type (GTK_STACK (self->stack), GTK_STACK_TRANSITION_TYPE_CROSSFADE);
  gtk_widget_set_vexpand (self->stack, TRUE);
  self->switcher = gtk_stack_switcher_new ();
  gtk_stack_switcher_set_stack (GTK_STACK_SWITCHER (self->switcher), GTK_STACK (self->stack));
  gtk_widget_set_halign (self->switcher, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_top (self->switcher, 6);
  gtk_widget_set_margin_bottom (self->switcher, 2);
  gtk_widget_set_margin_start (self->switcher, 6);
  gtk_widget_set_margin_end (self->switcher, 6);
  /* Analyses add pages: tabs as wide as their labels, and a narrow window
   * scrolls them rather than pushing the last ones out of reach. */
  if (GTK_IS_BOX_LAYOUT (gtk_widget_get_layout_manager (self->switcher)))
    gtk_box_layout_set_homogeneous (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (self->switcher)), FALSE);
  switcher_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (switcher_scroller),
                                  GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (switcher_scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (switcher_scroller), self->switcher);
  gtk_widget_set_parent (switcher_scroller, GTK_WIDGET (self));
  gtk_widget_set_parent (self->stack, GTK_WIDGET (self));
}

GtkWidget *
kymo_details_sidebar_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_DETAILS_SIDEBAR, "session", session, NULL);
}

KymoSession *
kymo_details_sidebar_get_session (KymoDetailsSidebar *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_SIDEBAR (self), NULL);

  return self->session;
}

const char *
kymo_details_sidebar_get_page (KymoDetailsSidebar *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_SIDEBAR (self), NULL);

  return gtk_stack_get_visible_child_name (GTK_STACK (self->stack));
}

void
kymo_details_sidebar_set_page (KymoDetailsSidebar *self,
                               const char         *page)
{
  g_return_if_fail (KYMO_IS_DETAILS_SIDEBAR (self));
  g_return_if_fail (page != NULL);

  if (gtk_stack_get_child_by_name (GTK_STACK (self->stack), page) == NULL)
    {
      g_warning ("No details page called “%s”", page);
      return;
    }
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), page);
}

gboolean
kymo_details_sidebar_get_folded (KymoDetailsSidebar *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_SIDEBAR (self), FALSE);

  return !gtk_widget_get_visible (self->stack);
}

void
kymo_details_sidebar_set_folded (KymoDetailsSidebar *self,
                                 gboolean            folded)
{
  g_return_if_fail (KYMO_IS_DETAILS_SIDEBAR (self));

  /* a hidden stack leaves the tab row as the sidebar's whole height */
  gtk_widget_set_visible (self->stack, !folded);
}

GtkWidget *
kymo_details_sidebar_get_details_pane (KymoDetailsSidebar *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_SIDEBAR (self), NULL);

  return self->details;
}

GtkWidget *
kymo_details_sidebar_get_zone_view (KymoDetailsSidebar *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_SIDEBAR (self), NULL);

  return self->zones;
}

GtkWidget *
kymo_details_sidebar_get_annotation_view (KymoDetailsSidebar *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_SIDEBAR (self), NULL);

  return self->annotations;
}

GtkWidget *
kymo_details_sidebar_get_range_summary (KymoDetailsSidebar *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_SIDEBAR (self), NULL);

  return self->range;
}
