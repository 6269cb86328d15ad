/* kymo-dial9-poi-view.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-dial9-poi-view.h"
#include "details/kymo-details-private.h"
#include "kymo-dial9-analysis.h"
#include "kymo-dial9-poi-model.h"

struct _KymoDial9PoiView
{
  GtkWidget          parent_instance;

  KymoSession       *session;
  KymoDial9Analysis *analysis;
  GtkWidget         *order;
  GtkWidget         *counter;
  GtkWidget         *list;
  KymoDial9PoiModel *rows;
  GtkSingleSelection *selection;
  guint              current;   /* position, or G_MAXUINT before the first step */
  gboolean           jumping;
  GtkEventController *keys;     /* F8 / Shift+F8, on the window while rooted */
};

G_DEFINE_FINAL_TYPE (KymoDial9PoiView, kymo_dial9_poi_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char row_ui[] =
  "<interface><template class='GtkListItem'><property name='child'><object class='GtkLabel'>"
  "<property name='xalign'>0</property><property name='ellipsize'>end</property>"
  "<binding name='label'><lookup name='string' type='GtkStringObject'><lookup name='item'>GtkListItem</lookup>"
  "</lookup></binding></object></property></template></interface>";

static void
update_counter (KymoDial9PoiView *self)
{
  g_autofree char *text = NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));

  if (kymo_dial9_analysis_get_tasks (self->analysis) == NULL)
    text = g_strdup (_("Finding points of interest…"));
  else if (n == 0)
    text = g_strdup (_("No points of interest"));
  else if (self->current == G_MAXUINT)
    text = g_strdup_printf ("– / %u", n);
  else
    text = g_strdup_printf ("%u / %u", self->current + 1, n);
  gtk_label_set_text (GTK_LABEL (self->counter), text);
}

/* A new result, or the other order: the lines are made as they show. */
static void
fill (KymoDial9PoiView *self)
{
  self->jumping = TRUE;
  kymo_dial9_poi_model_refresh (self->rows);
  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
  self->jumping = FALSE;
  self->current = G_MAXUINT;
  update_counter (self);
}

static void
jump (KymoDial9PoiView *self,
      guint             position)
{
  const KymoPoi *p = kymo_dial9_poi_model_get_poi (self->rows, position);
  KymoTime pad;

  if (p == NULL)
    return;
  self->current = position;
  /* Frame it with room on each side, so its neighbours show. */
  pad = MAX ((p->end - p->start) / 2, 1000);
  kymo_session_zoom_to (self->session, p->start - pad, p->end + pad);
  if (p->span != G_MAXUINT32)
    {
      KymoEventRef ref = { p->track, KYMO_EVENT_KIND_SPAN, p->span };
      kymo_session_select_event (self->session, &ref);
    }
  self->jumping = TRUE;
  gtk_single_selection_set_selected (self->selection, position);
  self->jumping = FALSE;
  update_counter (self);
}

/* Whether @a and @b frame and select the same thing: a poll both long and
 * sampled is two points, next to each other worst first. */
static gboolean
same_jump (const KymoPoi *a,
           const KymoPoi *b)
{
  return a != NULL && b != NULL && a->track == b->track && a->span == b->span && a->start == b->start &&
         a->end == b->end;
}

gboolean
kymo_dial9_poi_view_step (KymoDial9PoiView *self,
                          int               direction)
{
  const KymoPoi *at;
  guint n, next;

  g_return_val_if_fail (KYMO_IS_DIAL9_POI_VIEW (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->rows));
  if (n == 0)
    return FALSE;
  if (self->current == G_MAXUINT)
    {
      jump (self, direction > 0 ? 0 : n - 1);
      return TRUE;
    }
  /* A step that would show the same event again goes on to the next
   * that does not: the key would seem to do nothing. */
  at = kymo_dial9_poi_model_get_poi (self->rows, self->current);
  next = self->current;
  for (guint k = 0; k < n; k++)
    {
      if (direction > 0)
        next = next + 1 < n ? next + 1 : 0;
      else
        next = next > 0 ? next - 1 : n - 1;
      if (!same_jump (at, kymo_dial9_poi_model_get_poi (self->rows, next)))
        break;
    }
  jump (self, next);
  return TRUE;
}

void
kymo_dial9_poi_view_set_worst_first (KymoDial9PoiView *self,
                                     gboolean          worst_first)
{
  KymoPoiOrder order;

  g_return_if_fail (KYMO_IS_DIAL9_POI_VIEW (self));

  order = worst_first ? KYMO_POI_WORST_FIRST : KYMO_POI_TIME_ORDER;
  if (kymo_dial9_poi_model_get_order (self->rows) == order)
    return;
  self->jumping = TRUE;
  kymo_dial9_poi_model_set_order (self->rows, order);
  self->jumping = FALSE;
  /* Its notify comes back here and finds the order already set. */
  gtk_drop_down_set_selected (GTK_DROP_DOWN (self->order), worst_first ? 0 : 1);
  fill (self);
}

const char *
kymo_dial9_poi_view_get_counter (KymoDial9PoiView *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_POI_VIEW (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->counter));
}

/* Each line says when its point is, in the window's clock, and which task
 * it is about once the polls are placed: lines are made as they show, so
 * the shown ones are made again; the current one stays selected. */
static void
redo_lines (KymoDial9PoiView *self)
{
  self->jumping = TRUE;
  kymo_dial9_poi_model_refresh (self->rows);
  if (self->current != G_MAXUINT)
    gtk_single_selection_set_selected (self->selection, self->current);
  self->jumping = FALSE;
}

static void
on_order_changed (KymoDial9PoiView *self)
{
  kymo_dial9_poi_view_set_worst_first (self, gtk_drop_down_get_selected (GTK_DROP_DOWN (self->order)) == 0);
}

static void
on_row_selected (KymoDial9PoiView *self)
{
  guint position = gtk_single_selection_get_selected (self->selection);

  if (!self->jumping && position != GTK_INVALID_LIST_POSITION)
    jump (self, position);
}

static void
step_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  kymo_dial9_poi_view_step (KYMO_DIAL9_POI_VIEW (widget), g_str_equal (action_name, "poi.next") ? 1 : -1);
}

static void
preferences_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  /* The app installs app.preferences; a page inside a test window has none. */
  gtk_widget_activate_action (widget, "app.preferences", NULL);
}

static void
kymo_dial9_poi_view_constructed (GObject *object)
{
  KymoDial9PoiView *self = (KymoDial9PoiView *) object;

  G_OBJECT_CLASS (kymo_dial9_poi_view_parent_class)->constructed (object);

  self->analysis = g_object_ref (kymo_dial9_analysis_get (self->session));
  self->rows = kymo_dial9_poi_model_new (self->analysis);
  gtk_single_selection_set_model (self->selection, G_LIST_MODEL (self->rows));
  g_signal_connect_object (self->analysis, "notify::ready", G_CALLBACK (fill), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->analysis, "notify::polls-ready", G_CALLBACK (redo_lines), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::wallclock", G_CALLBACK (redo_lines), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::utc", G_CALLBACK (redo_lines), self, G_CONNECT_SWAPPED);
  fill (self);
}

static void
kymo_dial9_poi_view_dispose (GObject *object)
{
  KymoDial9PoiView *self = (KymoDial9PoiView *) object;
  GtkWidget *child;

  if (self->selection)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  if (self->order)
    g_signal_handlers_disconnect_by_data (self->order, self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  self->order = NULL;
  g_clear_object (&self->selection);
  g_clear_object (&self->rows);
  g_clear_object (&self->analysis);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_dial9_poi_view_parent_class)->dispose (object);
}

static void
kymo_dial9_poi_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KymoDial9PoiView *self = KYMO_DIAL9_POI_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_dial9_poi_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KymoDial9PoiView *self = KYMO_DIAL9_POI_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static gboolean
step_shortcut (GtkWidget *widget,
               GVariant  *args,
               gpointer   user_data)
{
  return kymo_dial9_poi_view_step (KYMO_DIAL9_POI_VIEW (user_data), g_variant_get_int32 (args));
}

/* F8 / Shift+F8 step from anywhere in the window, whichever bottom page
 * shows (a jump selects the event, which the Details page shows): so they
 * live on the window, not on this page, which is unmapped while another
 * page shows and so would not see them. In the capture phase, because the
 * window's GtkPaned bind F8 to cycling their handles and would take it from
 * any focus inside them. */
static void
kymo_dial9_poi_view_root (GtkWidget *widget)
{
  KymoDial9PoiView *self = KYMO_DIAL9_POI_VIEW (widget);
  GtkShortcutController *keys;

  GTK_WIDGET_CLASS (kymo_dial9_poi_view_parent_class)->root (widget);

  keys = GTK_SHORTCUT_CONTROLLER (gtk_shortcut_controller_new ());
  gtk_event_controller_set_name (GTK_EVENT_CONTROLLER (keys), "kymo-dial9-poi-keys");
  gtk_event_controller_set_propagation_phase (GTK_EVENT_CONTROLLER (keys), GTK_PHASE_CAPTURE);
  for (int direction = -1; direction <= 1; direction += 2)
    {
      GtkShortcutTrigger *trigger = gtk_keyval_trigger_new (GDK_KEY_F8, direction < 0 ? GDK_SHIFT_MASK : 0);
      GtkShortcutAction *action = gtk_callback_action_new (step_shortcut, self, NULL);

      gtk_shortcut_controller_add_shortcut (keys, gtk_shortcut_new_with_arguments (trigger, action, "i", direction));
    }
  self->keys = GTK_EVENT_CONTROLLER (keys);
  gtk_widget_add_controller (GTK_WIDGET (gtk_widget_get_root (widget)), self->keys);
}

static void
kymo_dial9_poi_view_unroot (GtkWidget *widget)
{
  KymoDial9PoiView *self = KYMO_DIAL9_POI_VIEW (widget);

  if (self->keys != NULL)
    {
      gtk_widget_remove_controller (gtk_event_controller_get_widget (self->keys), self->keys);
      self->keys = NULL;
    }
  GTK_WIDGET_CLASS (kymo_dial9_poi_view_parent_class)->unroot (widget);
}

static void
kymo_dial9_poi_view_class_init (KymoDial9PoiViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_dial9_poi_view_constructed;
  object_class->dispose = kymo_dial9_poi_view_dispose;
  object_class->get_property = kymo_dial9_poi_view_get_property;
  object_class->set_property = kymo_dial9_poi_view_set_property;
  widget_class->root = kymo_dial9_poi_view_root;
  widget_class->unroot = kymo_dial9_poi_view_unroot;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "poi.next", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "poi.previous", NULL, step_action);
  gtk_widget_class_install_action (widget_class, "poi.preferences", NULL, preferences_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-dial9-poi");
}

static void
kymo_dial9_poi_view_init (KymoDial9PoiView *self)
{
  GtkWidget *bar, *prev, *next, *prefs, *scroller;
  GtkListItemFactory *factory;

  self->current = G_MAXUINT;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  self->order = gtk_drop_down_new_from_strings ((const char * const[]) { _("Worst First"), _("Time Order"), NULL });
  gtk_widget_set_tooltip_text (self->order, _("Order of the points of interest"));
  g_signal_connect_swapped (self->order, "notify::selected", G_CALLBACK (on_order_changed), self);
  prev = gtk_button_new_from_icon_name ("go-up-symbolic");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (prev), "poi.previous");
  gtk_widget_set_tooltip_text (prev, _("Previous point of interest (Shift+F8)"));
  next = gtk_button_new_from_icon_name ("go-down-symbolic");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (next), "poi.next");
  gtk_widget_set_tooltip_text (next, _("Next point of interest (F8)"));
  self->counter = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->counter, "numeric");
  gtk_widget_set_hexpand (self->counter, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->counter), 0);
  prefs = gtk_button_new_from_icon_name ("preferences-system-symbolic");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (prefs), "poi.preferences");
  gtk_widget_set_tooltip_text (prefs, _("Thresholds"));
  gtk_box_append (GTK_BOX (bar), self->order);
  gtk_box_append (GTK_BOX (bar), prev);
  gtk_box_append (GTK_BOX (bar), next);
  gtk_box_append (GTK_BOX (bar), self->counter);
  gtk_box_append (GTK_BOX (bar), prefs);
  gtk_widget_set_parent (bar, GTK_WIDGET (self));

  /* The model follows the session's analysis, known once constructed. */
  self->selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (on_row_selected), self);
  factory = gtk_builder_list_item_factory_new_from_bytes (NULL, g_bytes_new_static (row_ui, sizeof row_ui - 1));
  self->list = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->selection)), factory);
  gtk_widget_add_css_class (self->list, "navigation-sidebar");
  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->list);
  gtk_widget_set_parent (scroller, GTK_WIDGET (self));
}

GtkWidget *
kymo_dial9_poi_view_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_DIAL9_POI_VIEW, "session", session, NULL);
}
