/* kymo-call-tree-view.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-call-tree-view"

#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <adwaita.h>

#include "kymo-call-tree-view.h"
#include "kymo-call-tree-item.h"
#include "kymo-timeline-renderer.h"

typedef enum {
  COLUMN_NAME,
  COLUMN_SELF,
  COLUMN_TOTAL,
  COLUMN_PERCENT,
  COLUMN_COUNT,
} Column;

struct _KymoCallTreeView
{
  GtkWidget         parent_instance;

  KymoSession      *session;
  KymoFlameModel   *model;
  KymoCallTree     *shown;      /* the model's tree, or its inversion */
  gboolean          callers;
  GtkWidget        *box;
  GtkWidget        *column_view;
  GtkWidget        *stack;
  GtkTreeListModel *tree_model;
  GCancellable     *cancellable;   /* the inversion under way */
  GtkWidget        *top_down_button;
  GtkWidget        *callers_button;
  gboolean          activating;    /* the selected node comes from a row here */
};

G_DEFINE_FINAL_TYPE (KymoCallTreeView, kymo_call_tree_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_CALLERS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static GListModel *
create_children (gpointer item,
                 gpointer user_data)
{
  KymoCallTreeItem *row = item;

  return kymo_call_tree_item_dup_children (kymo_call_tree_item_get_tree (row), kymo_call_tree_item_get_node (row));
}

static void
show_tree (KymoCallTreeView *self,
           KymoCallTree     *shown)
{
  g_autoptr(GtkTreeListModel) tree_model = NULL;
  GListModel *roots = NULL;
  GtkSelectionModel *selection;

  if (shown != NULL)
    kymo_call_tree_ref (shown);
  g_clear_pointer (&self->shown, kymo_call_tree_unref);
  self->shown = shown;
  if (self->shown != NULL)
    roots = kymo_call_tree_item_dup_children (self->shown, 0);
  if (roots == NULL)
    roots = G_LIST_MODEL (g_list_store_new (KYMO_TYPE_CALL_TREE_ITEM));
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack),
                                    self->shown == NULL || kymo_call_tree_is_empty (self->shown)
                                    ? "empty" : "tree");

  tree_model = gtk_tree_list_model_new (roots, FALSE, FALSE, create_children, NULL, NULL);
  g_set_object (&self->tree_model, tree_model);
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (g_object_ref (G_LIST_MODEL (tree_model))));
  /* a selected row is the flame graph's selected frame: none yet */
  gtk_single_selection_set_autoselect (GTK_SINGLE_SELECTION (selection), FALSE);
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), GTK_INVALID_LIST_POSITION);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), selection);
  g_object_unref (selection);
  /* the heaviest path is what one opens first */
  if (g_list_model_get_n_items (G_LIST_MODEL (tree_model)) > 0)
    {
      g_autoptr(GtkTreeListRow) first = gtk_tree_list_model_get_row (tree_model, 0);

      gtk_tree_list_row_set_expanded (first, TRUE);
    }
}

static void
on_inverted (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(KymoCallTreeView) self = user_data;
  g_autoptr(KymoCallTree) inverted = kymo_call_tree_derive_finish (result, NULL);

  /* NULL: cancelled by a newer tree or mode, which shows instead */
  if (inverted != NULL)
    show_tree (self, inverted);
}

/* Callers are an inversion of the tree: made in a thread, shown once. */
static void
rebuild (KymoCallTreeView *self)
{
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (tree == NULL || !self->callers)
    {
      show_tree (self, tree);
      return;
    }
  self->cancellable = g_cancellable_new ();
  kymo_call_tree_derive_async (NULL, tree, self->cancellable, on_inverted, g_object_ref (self));
}

static KymoCallTreeItem *
row_item (GtkListItem *list_item)
{
  GtkTreeListRow *row = gtk_list_item_get_item (list_item);

  return row != NULL ? gtk_tree_list_row_get_item (row) : NULL;
}

static void
setup_name (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  user_data)
{
  GtkWidget *expander = gtk_tree_expander_new ();
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
  gtk_tree_expander_set_child (GTK_TREE_EXPANDER (expander), label);
  gtk_list_item_set_child (list_item, expander);
}

static void
bind_name (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  GtkWidget *expander = gtk_list_item_get_child (list_item);
  GtkWidget *label = gtk_tree_expander_get_child (GTK_TREE_EXPANDER (expander));
  g_autoptr(KymoCallTreeItem) item = row_item (list_item);

  gtk_tree_expander_set_list_row (GTK_TREE_EXPANDER (expander), gtk_list_item_get_item (list_item));
  gtk_label_set_text (GTK_LABEL (label), item != NULL ? kymo_short_path (kymo_call_tree_item_get_data (item)->name) : "");
}

static void
setup_number (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static char *
format_weight (KymoCallTree *tree,
               gint64        weight)
{
  if (kymo_call_tree_get_source (tree) == KYMO_CALL_TREE_SAMPLES)
    return g_strdup_printf ("%" G_GINT64_FORMAT, weight);
  return kymo_timeline_format_duration (weight);
}

static void
bind_number (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  g_autoptr(KymoCallTreeItem) item = row_item (list_item);
  g_autofree char *text = NULL;
  const KymoCallNode *node, *root;
  KymoCallTree *tree;

  if (item == NULL)
    return;
  tree = kymo_call_tree_item_get_tree (item);
  node = kymo_call_tree_item_get_data (item);
  root = kymo_call_tree_get_nodes (tree, NULL);
  switch (column)
    {
    case COLUMN_SELF:
      text = format_weight (tree, node->self);
      break;
    case COLUMN_TOTAL:
      text = format_weight (tree, node->total);
      break;
    case COLUMN_PERCENT:
      text = g_strdup_printf ("%.1f %%", root->total > 0 ? 100.0 * node->total / root->total : 0.0);
      break;
    case COLUMN_COUNT:
      text = g_strdup_printf ("%" G_GUINT64_FORMAT, node->count);
      break;
    case COLUMN_NAME:
    default:
      g_assert_not_reached ();
    }
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (list_item)), text);
}

static void
add_column (KymoCallTreeView *self,
            const char       *title,
            Column            column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *col;

  if (column == COLUMN_NAME)
    {
      g_signal_connect (factory, "setup", G_CALLBACK (setup_name), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_name), NULL);
    }
  else
    {
      g_signal_connect (factory, "setup", G_CALLBACK (setup_number), NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_number), GINT_TO_POINTER (column));
    }
  col = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (col, TRUE);
  if (column == COLUMN_NAME)
    gtk_column_view_column_set_expand (col, TRUE);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->column_view), col);
  g_object_unref (col);
}

/* The frame of the flame graph's tree that a row of the callers view means:
 * the heaviest stack ending in that function. */
static guint32
top_down_node (KymoCallTreeView *self,
               guint32           node)
{
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);
  const KymoCallNode *shown, *nodes;
  guint32 function = node, best = G_MAXUINT32;
  guint n;

  if (!self->callers || tree == NULL)
    return node;
  shown = kymo_call_tree_get_nodes (self->shown, NULL);
  while (shown[function].depth > 1)
    function = shown[function].parent;
  nodes = kymo_call_tree_get_nodes (tree, &n);
  for (guint32 i = 1; i < n; i++)
    if (strcmp (nodes[i].name, shown[function].name) == 0 && (best == G_MAXUINT32 || nodes[i].self > nodes[best].self))
      best = i;
  return best;
}

void
kymo_call_tree_view_activate_row (KymoCallTreeView *self,
                                  guint             position)
{
  g_autoptr(GtkTreeListRow) row = NULL;
  KymoCallTreeItem *item;
  KymoEventRef ref;
  guint32 node;

  g_return_if_fail (KYMO_IS_CALL_TREE_VIEW (self));

  if (self->tree_model == NULL)
    return;
  row = gtk_tree_list_model_get_row (self->tree_model, position);
  if (row == NULL)
    return;
  item = gtk_tree_list_row_get_item (row);
  node = top_down_node (self, kymo_call_tree_item_get_node (item));
  g_object_unref (item);
  if (node == G_MAXUINT32)
    return;
  /* the row stays as it is (a caller's row is not its function's) */
  self->activating = TRUE;
  kymo_flame_model_set_selected_node (self->model, node);
  self->activating = FALSE;
  if (kymo_flame_model_find_longest_span (self->model, node, &ref))
    kymo_session_select_event (self->session, &ref);
}

/* The row of @node's function on the callers view's first level. */
static guint32
callers_node (KymoCallTreeView *self,
              guint32           node)
{
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);
  const KymoCallNode *shown = kymo_call_tree_get_nodes (self->shown, NULL);
  const char *name = kymo_call_tree_get_nodes (tree, NULL)[node].name;

  for (guint32 c = 1; c <= shown[0].n_descendants; c += shown[c].n_descendants + 1)
    if (strcmp (shown[c].name, name) == 0)
      return c;
  return G_MAXUINT32;
}

/* The child row of @parent (NULL: the first level) that shows @node. */
static GtkTreeListRow *
child_row_for_node (KymoCallTreeView *self,
                    GtkTreeListRow   *parent,
                    guint32           node)
{
  GListModel *children = parent != NULL ? gtk_tree_list_row_get_children (parent)
                                        : gtk_tree_list_model_get_model (self->tree_model);
  guint n = children != NULL ? g_list_model_get_n_items (children) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(KymoCallTreeItem) item = g_list_model_get_item (children, i);

      if (kymo_call_tree_item_get_node (item) == node)
        return parent != NULL ? gtk_tree_list_row_get_child_row (parent, i)
                              : gtk_tree_list_model_get_child_row (self->tree_model, i);
    }
  return NULL;
}

/* GTK 4.8 has no gtk_column_view_scroll_to(): its list view has the action. */
static void
scroll_to_row (KymoCallTreeView *self,
               guint             position)
{
  for (GtkWidget *child = gtk_widget_get_first_child (self->column_view);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_LIST_VIEW (child))
      gtk_widget_activate_action (child, "list.scroll-to-item", "u", position);
}

/* A frame picked in the flame graph: its row is selected, its callers'
 * rows expanded on the way down (only those: the model stays lazy). */
static void
on_selected_node_changed (KymoCallTreeView *self)
{
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);
  guint32 node = kymo_flame_model_get_selected_node (self->model);
  g_autoptr(GtkTreeListRow) row = NULL;
  g_autoptr(GArray) chain = NULL;
  const KymoCallNode *nodes;
  GtkSelectionModel *selection;

  if (self->activating || node == G_MAXUINT32 || node == 0 || tree == NULL || self->shown == NULL ||
      self->tree_model == NULL)
    return;
  if (node >= kymo_call_tree_get_n_nodes (tree))
    return;
  chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  if (self->callers)
    {
      guint32 function = callers_node (self, node);

      if (function == G_MAXUINT32)
        return;
      g_array_append_val (chain, function);
    }
  else if (self->shown == tree)
    {
      nodes = kymo_call_tree_get_nodes (tree, NULL);
      for (guint32 n = node; n != 0 && n != G_MAXUINT32; n = nodes[n].parent)
        g_array_prepend_val (chain, n);
    }
  else
    return;   /* the tree shown is about to be replaced */

  for (guint i = 0; i < chain->len; i++)
    {
      GtkTreeListRow *child;

      if (row != NULL)
        gtk_tree_list_row_set_expanded (row, TRUE);
      child = child_row_for_node (self, row, g_array_index (chain, guint32, i));
      if (child == NULL)
        return;
      g_clear_object (&row);
      row = child;
    }
  selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (self->column_view));
  gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (selection), gtk_tree_list_row_get_position (row));
  scroll_to_row (self, gtk_tree_list_row_get_position (row));
}

static void
on_activate (GtkColumnView    *view,
             guint             position,
             KymoCallTreeView *self)
{
  kymo_call_tree_view_activate_row (self, position);
}

static void
on_callers_toggled (GtkToggleButton  *button,
                    KymoCallTreeView *self)
{
  kymo_call_tree_view_set_callers (self, gtk_toggle_button_get_active (button));
}

static void
kymo_call_tree_view_constructed (GObject *object)
{
  KymoCallTreeView *self = (KymoCallTreeView *) object;
  GtkWidget *toolbar, *top_down, *callers, *scroller, *status, *linked;

  G_OBJECT_CLASS (kymo_call_tree_view_parent_class)->constructed (object);

  self->model = g_object_ref (kymo_flame_model_get_for_session (self->session));
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (toolbar, 6);
  gtk_widget_set_margin_top (toolbar, 2);
  gtk_widget_set_margin_bottom (toolbar, 2);
  linked = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_add_css_class (linked, "linked");
  top_down = gtk_toggle_button_new_with_label (_("Top Down"));
  callers = gtk_toggle_button_new_with_label (_("Callers"));
  gtk_widget_set_tooltip_text (callers, _("Bottom up: each function’s self time, then who called it"));
  gtk_toggle_button_set_group (GTK_TOGGLE_BUTTON (callers), GTK_TOGGLE_BUTTON (top_down));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (top_down), TRUE);
  g_signal_connect (callers, "toggled", G_CALLBACK (on_callers_toggled), self);
  gtk_box_append (GTK_BOX (linked), top_down);
  gtk_box_append (GTK_BOX (linked), callers);
  self->top_down_button = top_down;
  self->callers_button = callers;
  gtk_box_append (GTK_BOX (toolbar), linked);
  gtk_box_append (GTK_BOX (self->box), toolbar);

  self->column_view = gtk_column_view_new (NULL);
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (self->column_view), TRUE);
  add_column (self, _("Name"), COLUMN_NAME);
  add_column (self, _("Self"), COLUMN_SELF);
  add_column (self, _("Total"), COLUMN_TOTAL);
  add_column (self, _("Percent"), COLUMN_PERCENT);
  add_column (self, _("Count"), COLUMN_COUNT);
  g_signal_connect (self->column_view, "activate", G_CALLBACK (on_activate), self);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);

  status = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (status), "edit-find-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (status), _("Nothing in Range"));
  adw_status_page_set_description (ADW_STATUS_PAGE (status),
                                   _("Select a range on the timeline that holds spans, or clear the selection"));
  gtk_widget_add_css_class (status, "compact");
  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  gtk_stack_add_named (GTK_STACK (self->stack), scroller, "tree");
  gtk_stack_add_named (GTK_STACK (self->stack), status, "empty");
  gtk_box_append (GTK_BOX (self->box), self->stack);

  g_signal_connect_object (self->model, "notify::tree", G_CALLBACK (rebuild), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::selected-node", G_CALLBACK (on_selected_node_changed), self,
                           G_CONNECT_SWAPPED);
  rebuild (self);
}

static void
kymo_call_tree_view_dispose (GObject *object)
{
  KymoCallTreeView *self = (KymoCallTreeView *) object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->tree_model);
  g_clear_pointer (&self->shown, kymo_call_tree_unref);
  g_clear_object (&self->model);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_call_tree_view_parent_class)->dispose (object);
}

static void
kymo_call_tree_view_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  KymoCallTreeView *self = KYMO_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_CALLERS:
      g_value_set_boolean (value, self->callers);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_call_tree_view_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  KymoCallTreeView *self = KYMO_CALL_TREE_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    case PROP_CALLERS:
      kymo_call_tree_view_set_callers (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_call_tree_view_class_init (KymoCallTreeViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_call_tree_view_constructed;
  object_class->dispose = kymo_call_tree_view_dispose;
  object_class->get_property = kymo_call_tree_view_get_property;
  object_class->set_property = kymo_call_tree_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CALLERS] =
    g_param_spec_boolean ("callers", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-call-tree-view");
}

static void
kymo_call_tree_view_init (KymoCallTreeView *self)
{
}

GtkWidget *
kymo_call_tree_view_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_CALL_TREE_VIEW, "session", session, NULL);
}

gboolean
kymo_call_tree_view_get_callers (KymoCallTreeView *self)
{
  g_return_val_if_fail (KYMO_IS_CALL_TREE_VIEW (self), FALSE);
  return self->callers;
}

void
kymo_call_tree_view_set_callers (KymoCallTreeView *self,
                                 gboolean          callers)
{
  g_return_if_fail (KYMO_IS_CALL_TREE_VIEW (self));

  callers = !!callers;
  if (self->callers == callers)
    return;
  self->callers = callers;
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (callers ? self->callers_button : self->top_down_button), TRUE);
  rebuild (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CALLERS]);
}

GListModel *
kymo_call_tree_view_get_model (KymoCallTreeView *self)
{
  g_return_val_if_fail (KYMO_IS_CALL_TREE_VIEW (self), NULL);
  return G_LIST_MODEL (self->tree_model);
}

guint
kymo_call_tree_view_get_selected_row (KymoCallTreeView *self)
{
  GtkSelectionModel *selection;

  g_return_val_if_fail (KYMO_IS_CALL_TREE_VIEW (self), GTK_INVALID_LIST_POSITION);

  selection = gtk_column_view_get_model (GTK_COLUMN_VIEW (self->column_view));
  if (selection == NULL)
    return GTK_INVALID_LIST_POSITION;
  return gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (selection));
}
