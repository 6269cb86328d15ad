/* kymo-track-list.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-track-list"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-track-list.h"
#include "kymo-track-list-model.h"

struct _KymoTrackList
{
  GtkWidget           parent_instance;
  KymoSession        *session;
  KymoTrackListModel *model;
  GtkWidget          *search;
  GtkWidget          *scroller;
  GtkWidget          *list;
  GtkSingleSelection *selection;
};

G_DEFINE_FINAL_TYPE (KymoTrackList, kymo_track_list, GTK_TYPE_WIDGET)

static void
on_expander_toggled (GtkToggleButton *expander)
{
  gboolean collapsed = gtk_toggle_button_get_active (expander);

  gtk_button_set_icon_name (GTK_BUTTON (expander), collapsed ? "pan-end-symbolic" : "pan-down-symbolic");
  gtk_widget_set_tooltip_text (GTK_WIDGET (expander), collapsed ? _("Expand") : _("Collapse"));
}

/* Asked when shown: the share arrives from a thread after the row is bound. */
static gboolean
on_name_tooltip (GtkWidget   *label,
                 int          x,
                 int          y,
                 gboolean     keyboard,
                 GtkTooltip  *tooltip,
                 GtkListItem *item)
{
  KymoTrackRow *row = gtk_list_item_get_item (item);
  g_autofree char *text = NULL;

  if (row == NULL)
    return FALSE;
  text = kymo_track_row_dup_tooltip (row);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
setup_row (GtkSignalListItemFactory *factory,
           GtkListItem              *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *expander = gtk_toggle_button_new ();
  GtkWidget *check = gtk_check_button_new ();
  GtkWidget *name = gtk_label_new (NULL);
  GtkWidget *count = gtk_label_new (NULL);
  GtkWidget *pin = gtk_toggle_button_new ();

  /* Active means collapsed: the group's tracks are hidden. */
  gtk_widget_add_css_class (expander, "flat");
  gtk_widget_set_valign (expander, GTK_ALIGN_CENTER);
  g_signal_connect (expander, "toggled", G_CALLBACK (on_expander_toggled), NULL);
  on_expander_toggled (GTK_TOGGLE_BUTTON (expander));
  gtk_widget_set_tooltip_text (check, _("Show in the timeline"));
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_set_has_tooltip (name, TRUE);
  g_signal_connect (name, "query-tooltip", G_CALLBACK (on_name_tooltip), item);
  gtk_widget_add_css_class (count, "dim-label");
  gtk_widget_add_css_class (count, "numeric");
  gtk_button_set_icon_name (GTK_BUTTON (pin), "view-pin-symbolic");
  gtk_widget_add_css_class (pin, "flat");
  gtk_widget_set_tooltip_text (pin, _("Pin to the top"));
  gtk_box_append (GTK_BOX (box), expander);
  gtk_box_append (GTK_BOX (box), check);
  gtk_box_append (GTK_BOX (box), name);
  gtk_box_append (GTK_BOX (box), count);
  gtk_box_append (GTK_BOX (box), pin);
  g_object_set_data (G_OBJECT (item), "expander", expander);
  g_object_set_data (G_OBJECT (item), "check", check);
  g_object_set_data (G_OBJECT (item), "name", name);
  g_object_set_data (G_OBJECT (item), "count", count);
  g_object_set_data (G_OBJECT (item), "pin", pin);
  gtk_list_item_set_child (item, box);
}

static void
bind_row (GtkSignalListItemFactory *factory,
          GtkListItem              *item)
{
  KymoTrackRow *row = gtk_list_item_get_item (item);
  GtkWidget *check = g_object_get_data (G_OBJECT (item), "check");
  GtkWidget *name = g_object_get_data (G_OBJECT (item), "name");
  GtkWidget *count = g_object_get_data (G_OBJECT (item), "count");
  GtkWidget *pin = g_object_get_data (G_OBJECT (item), "pin");
  GtkWidget *expander = g_object_get_data (G_OBJECT (item), "expander");
  gboolean group = kymo_track_row_get_is_group (row);
  g_autofree char *count_text = g_strdup_printf ("%" G_GUINT64_FORMAT, kymo_track_row_get_n_events (row));
  GBinding *binding;

  gtk_label_set_text (GTK_LABEL (name), kymo_track_row_get_name (row));
  gtk_label_set_text (GTK_LABEL (count), count_text);
  gtk_widget_set_margin_start (gtk_list_item_get_child (item), 12 * kymo_track_row_get_indent (row));

  binding = g_object_bind_property (row, "visible", check, "active",
                                    G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (item), "visible-binding", binding);
  binding = g_object_bind_property (row, "pinned", pin, "active",
                                    G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_object_set_data (G_OBJECT (item), "pinned-binding", binding);

  /* Other rows keep the expander's room, so that names line up. */
  gtk_widget_set_opacity (expander, group ? 1 : 0);
  gtk_widget_set_can_target (expander, group);
  gtk_widget_set_focusable (expander, group);
  if (group)
    {
      binding = g_object_bind_property (row, "collapsed", expander, "active",
                                        G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
      g_object_set_data (G_OBJECT (item), "collapsed-binding", binding);
    }
}

static void
unbind_row (GtkSignalListItemFactory *factory,
            GtkListItem              *item)
{
  GBinding *binding;

  if ((binding = g_object_get_data (G_OBJECT (item), "visible-binding")))
    g_binding_unbind (binding);
  if ((binding = g_object_get_data (G_OBJECT (item), "pinned-binding")))
    g_binding_unbind (binding);
  if ((binding = g_object_get_data (G_OBJECT (item), "collapsed-binding")))
    g_binding_unbind (binding);
  g_object_set_data (G_OBJECT (item), "visible-binding", NULL);
  g_object_set_data (G_OBJECT (item), "pinned-binding", NULL);
  g_object_set_data (G_OBJECT (item), "collapsed-binding", NULL);
}

static void
select_track (KymoTrackList *self,
              guint          track)
{
  GListModel *model = G_LIST_MODEL (self->model);

  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    if (kymo_track_list_model_get_track (self->model, i) == track)
      {
        gtk_single_selection_set_selected (self->selection, i);
        return;
      }
}

/* Left collapses the selected group, or from one of its tracks goes up
 * to it; Right expands; as in a tree. */
static void
group_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  KymoTrackList *self = KYMO_TRACK_LIST (widget);
  KymoTrackRow *row = gtk_single_selection_get_selected_item (self->selection);
  gboolean collapse;

  if (row == NULL)
    return;
  if (g_str_equal (action_name, "tracklist.toggle-group"))
    collapse = !kymo_track_row_get_collapsed (row);
  else
    collapse = g_str_equal (action_name, "tracklist.collapse-group");
  if (kymo_track_row_get_is_group (row))
    kymo_track_row_set_collapsed (row, collapse);
  else if (collapse)
    {
      KymoTrack *track = kymo_trace_get_track (kymo_session_get_trace (self->session), kymo_track_row_get_track (row));
      guint parent = kymo_track_get_parent (track);

      if (parent != KYMO_NO_TRACK)
        select_track (self, parent);
    }
}

static void
on_activate (GtkListView   *list,
             guint          position,
             KymoTrackList *self)
{
  guint track = kymo_track_list_model_get_track (self->model, position);

  if (track != KYMO_NO_TRACK)
    kymo_session_reveal_track (self->session, track);
}

static void
on_search_changed (GtkSearchEntry *entry,
                   KymoTrackList  *self)
{
  kymo_session_set_filter_text (self->session, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
kymo_track_list_dispose (GObject *object)
{
  KymoTrackList *self = (KymoTrackList *) object;

  g_clear_pointer (&self->search, gtk_widget_unparent);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_track_list_parent_class)->dispose (object);
}

static void
kymo_track_list_class_init (KymoTrackListClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = kymo_track_list_dispose;
  gtk_widget_class_install_action (widget_class, "tracklist.collapse-group", NULL, group_action);
  gtk_widget_class_install_action (widget_class, "tracklist.expand-group", NULL, group_action);
  gtk_widget_class_install_action (widget_class, "tracklist.toggle-group", NULL, group_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "tracklist");
}

static void
kymo_track_list_init (KymoTrackList *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));

  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);
}

GtkWidget *
kymo_track_list_new (KymoSession *session)
{
  KymoTrackList *self;
  GtkListItemFactory *factory;
  GtkSelectionModel *selection;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self = g_object_new (KYMO_TYPE_TRACK_LIST, NULL);
  self->session = g_object_ref (session);
  self->model = kymo_track_list_model_new (session);

  self->search = gtk_search_entry_new ();
  g_object_set (self->search, "placeholder-text", _("Filter tracks"), NULL);
  gtk_widget_set_margin_top (self->search, 6);
  gtk_widget_set_margin_start (self->search, 6);
  gtk_widget_set_margin_end (self->search, 6);
  g_signal_connect (self->search, "search-changed", G_CALLBACK (on_search_changed), self);
  gtk_widget_set_parent (self->search, GTK_WIDGET (self));

  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (setup_row), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_row), NULL);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_row), NULL);
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->model))));
  gtk_single_selection_set_autoselect (GTK_SINGLE_SELECTION (selection), FALSE);
  gtk_single_selection_set_can_unselect (GTK_SINGLE_SELECTION (selection), TRUE);
  self->selection = GTK_SINGLE_SELECTION (selection);
  self->list = gtk_list_view_new (selection, factory);
  {
    /* In the capture phase: a vertical list view takes Left and Right for
     * itself and does nothing with them. */
    static const struct { guint key; const char *action; } keys[] = {
      { GDK_KEY_Left, "tracklist.collapse-group" }, { GDK_KEY_minus, "tracklist.collapse-group" },
      { GDK_KEY_KP_Subtract, "tracklist.collapse-group" }, { GDK_KEY_Right, "tracklist.expand-group" },
      { GDK_KEY_plus, "tracklist.expand-group" }, { GDK_KEY_KP_Add, "tracklist.expand-group" },
    };
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
    for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
      gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                            gtk_shortcut_new (gtk_keyval_trigger_new (keys[i].key, 0),
                                                              gtk_named_action_new (keys[i].action)));
    gtk_widget_add_controller (self->list, shortcuts);
  }
  gtk_list_view_set_single_click_activate (GTK_LIST_VIEW (self->list), FALSE);
  g_signal_connect (self->list, "activate", G_CALLBACK (on_activate), self);

  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->list);
  gtk_widget_set_vexpand (self->scroller, TRUE);
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

GListModel *
kymo_track_list_get_model (KymoTrackList *self)
{
  g_return_val_if_fail (KYMO_IS_TRACK_LIST (self), NULL);

  return G_LIST_MODEL (self->model);
}

GtkEditable *
kymo_track_list_get_search_entry (KymoTrackList *self)
{
  g_return_val_if_fail (KYMO_IS_TRACK_LIST (self), NULL);

  return GTK_EDITABLE (self->search);
}
