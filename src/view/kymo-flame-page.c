/* kymo-flame-page.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-flame-page"

#include "config.h"

#include <glib/gi18n.h>
#include <adwaita.h>

#include "kymo-flame-page.h"
#include "kymo-timeline-renderer.h"

#define MAX_CHANGES 20

struct _KymoFlamePage
{
  GtkWidget       parent_instance;

  KymoSession    *session;
  KymoFlameModel *model;
  GtkWidget      *box;
  GtkWidget      *breadcrumbs;
  GtkWidget      *spinner;
  GtkWidget      *samples_button;
  GtkWidget      *flip_button;
  GtkWidget      *baseline_button;
  GtkWidget      *clear_button;
  GtkWidget      *stack;
  GtkWidget      *flame_graph;
  GtkWidget      *status;
  GtkWidget      *changes_box;
  GtkWidget      *changes_grid;
  GtkWidget      *info;
  GCancellable   *cancellable;   /* loading a trace to compare with */
};

G_DEFINE_FINAL_TYPE (KymoFlamePage, kymo_flame_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
on_crumb_clicked (GtkButton     *button,
                  KymoFlamePage *self)
{
  guint node = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "node"));

  kymo_flame_graph_set_focus (KYMO_FLAME_GRAPH (self->flame_graph), node);
}

/* all › main › run: one flat button per ancestor of the zoomed frame. */
static void
update_breadcrumbs (KymoFlamePage *self)
{
  KymoFlameGraph *graph = KYMO_FLAME_GRAPH (self->flame_graph);
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);
  g_autoptr(GArray) chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  const KymoCallNode *nodes;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->breadcrumbs)))
    gtk_box_remove (GTK_BOX (self->breadcrumbs), child);
  if (tree == NULL)
    return;

  nodes = kymo_call_tree_get_nodes (tree, NULL);
  for (guint32 n = kymo_flame_graph_get_focus (graph); n != G_MAXUINT32; n = nodes[n].parent)
    g_array_prepend_val (chain, n);
  for (guint i = 0; i < chain->len; i++)
    {
      guint32 n = g_array_index (chain, guint32, i);
      GtkWidget *button = gtk_button_new_with_label (n == 0 ? _("all") : kymo_short_path (nodes[n].name));
      GtkWidget *label = gtk_button_get_child (GTK_BUTTON (button));

      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_MIDDLE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
      gtk_widget_add_css_class (button, "flat");
      gtk_widget_set_sensitive (button, i + 1 < chain->len);
      g_object_set_data (G_OBJECT (button), "node", GUINT_TO_POINTER (n));
      g_signal_connect (button, "clicked", G_CALLBACK (on_crumb_clicked), self);
      if (i > 0)
        gtk_box_append (GTK_BOX (self->breadcrumbs), gtk_label_new ("›"));
      gtk_box_append (GTK_BOX (self->breadcrumbs), button);
    }
}

static void
update_info (KymoFlamePage *self)
{
  KymoFlameGraph *graph = KYMO_FLAME_GRAPH (self->flame_graph);
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);
  guint32 node = kymo_flame_graph_get_hovered (graph);
  g_autofree char *text = NULL;

  if (tree == NULL)
    return;
  if (node == KYMO_FLAME_GRAPH_NO_NODE)
    node = kymo_flame_graph_get_focus (graph);
  text = kymo_flame_graph_describe_node (tree, node);
  gtk_label_set_text (GTK_LABEL (self->info), text != NULL ? text : "");
}

static char *
format_weight (KymoCallTree *tree,
               gint64        weight,
               gboolean      sign)
{
  g_autofree char *text = NULL;

  if (kymo_call_tree_get_source (tree) == KYMO_CALL_TREE_SAMPLES)
    text = g_strdup_printf ("%" G_GINT64_FORMAT, ABS (weight));
  else
    text = kymo_timeline_format_duration (ABS (weight));
  if (sign)
    return g_strconcat (weight > 0 ? "+" : weight < 0 ? "−" : "", text, NULL);
  return g_steal_pointer (&text);
}

static void
add_cell (GtkGrid    *grid,
          const char *text,
          int         column,
          int         row,
          gboolean    numeric)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0f : 0.0f);
  if (!numeric)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
      gtk_widget_set_hexpand (label, TRUE);
    }
  else
    gtk_widget_add_css_class (label, "numeric");
  if (row == 0)
    gtk_widget_add_css_class (label, "heading");
  gtk_grid_attach (grid, label, column, row, 1, 1);
}

/* The largest changes of self weight, beside the differential graph. */
static void
update_changes (KymoFlamePage *self)
{
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);
  g_autoptr(GArray) changes = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->changes_grid)))
    gtk_grid_remove (GTK_GRID (self->changes_grid), child);
  gtk_widget_set_visible (self->changes_box, tree != NULL && kymo_call_tree_is_diff (tree));
  if (tree == NULL || !kymo_call_tree_is_diff (tree))
    return;

  add_cell (GTK_GRID (self->changes_grid), _("Function"), 0, 0, FALSE);
  add_cell (GTK_GRID (self->changes_grid), _("Before"), 1, 0, TRUE);
  add_cell (GTK_GRID (self->changes_grid), _("After"), 2, 0, TRUE);
  add_cell (GTK_GRID (self->changes_grid), _("Change"), 3, 0, TRUE);
  changes = kymo_call_tree_dup_changes (tree);
  /* largest first: the unchanged ones come last and say nothing */
  while (changes->len > 0 &&
         g_array_index (changes, KymoCallChange, changes->len - 1).self ==
         g_array_index (changes, KymoCallChange, changes->len - 1).base_self)
    g_array_set_size (changes, changes->len - 1);
  for (guint i = 0; i < MIN (changes->len, MAX_CHANGES); i++)
    {
      const KymoCallChange *c = &g_array_index (changes, KymoCallChange, i);
      g_autofree char *before = format_weight (tree, c->base_self, FALSE);
      g_autofree char *after = format_weight (tree, c->self, FALSE);
      g_autofree char *delta = format_weight (tree, c->self - c->base_self, TRUE);

      add_cell (GTK_GRID (self->changes_grid), kymo_short_path (c->name), 0, i + 1, FALSE);
      add_cell (GTK_GRID (self->changes_grid), before, 1, i + 1, TRUE);
      add_cell (GTK_GRID (self->changes_grid), after, 2, i + 1, TRUE);
      add_cell (GTK_GRID (self->changes_grid), delta, 3, i + 1, TRUE);
    }
}

static void
on_tree_changed (KymoFlamePage *self)
{
  KymoCallTree *tree = kymo_flame_model_get_tree (self->model);
  gboolean empty = tree == NULL || kymo_call_tree_is_empty (tree);

  if (tree != NULL)
    gtk_stack_set_visible_child_name (GTK_STACK (self->stack), empty ? "empty" : "graph");
  gtk_widget_set_visible (self->clear_button, kymo_flame_model_get_baseline (self->model) != NULL);
  update_breadcrumbs (self);
  update_changes (self);
  update_info (self);
}

static void
on_busy_changed (KymoFlamePage *self)
{
  gboolean busy = kymo_flame_model_get_busy (self->model);

  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), busy);
  gtk_widget_set_visible (self->spinner, busy);
}

static void
on_samples_toggled (GtkToggleButton *button,
                    KymoFlamePage   *self)
{
  kymo_flame_model_set_source (self->model, gtk_toggle_button_get_active (button)
                                            ? KYMO_CALL_TREE_SAMPLES : KYMO_CALL_TREE_SPANS);
  adw_status_page_set_title (ADW_STATUS_PAGE (self->status),
                             gtk_toggle_button_get_active (button) ? _("No Samples in Range")
                                                                   : _("No Spans in Range"));
}

static void
on_source_changed (KymoFlamePage *self)
{
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (self->samples_button),
                                kymo_flame_model_get_source (self->model) == KYMO_CALL_TREE_SAMPLES);
}

static void
on_flip_toggled (GtkToggleButton *button,
                 KymoFlamePage   *self)
{
  kymo_flame_graph_set_orientation (KYMO_FLAME_GRAPH (self->flame_graph),
                                    gtk_toggle_button_get_active (button) ? KYMO_FLAME_GRAPH_FLAME
                                                                          : KYMO_FLAME_GRAPH_ICICLE);
}

static void
set_baseline_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  KymoFlamePage *self = KYMO_FLAME_PAGE (widget);

  kymo_flame_model_set_baseline_current (self->model);
}

static void
clear_baseline_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  kymo_flame_model_clear_baseline (KYMO_FLAME_PAGE (widget)->model);
}

typedef struct {
  KymoFlamePage *self;
  char          *label;
} CompareData;

static void
compare_data_free (CompareData *data)
{
  g_clear_object (&data->self);
  g_free (data->label);
  g_free (data);
}

static void
show_compare_error (KymoFlamePage *self,
                    const char    *message)
{
  gtk_label_set_text (GTK_LABEL (self->info), message);
}

static void
on_compare_folded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  CompareData *data = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoCallTree) tree = kymo_call_tree_build_finish (result, &error);

  if (tree != NULL)
    kymo_flame_model_set_other_trace (data->self->model, tree, data->label);
  else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    show_compare_error (data->self, error->message);
  compare_data_free (data);
}

static void
on_compare_loaded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  CompareData *data = user_data;
  KymoFlamePage *self = data->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) other = kymo_loader_load_finish (KYMO_LOADER (source), result, &error);
  KymoTrace *trace = kymo_session_get_trace (self->session);

  if (other == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_compare_error (self, error->message);
      compare_data_free (data);
      return;
    }
  if (kymo_trace_get_format (other) != kymo_trace_get_format (trace))
    {
      /* TRANSLATORS: %s is a file name */
      g_autofree char *message = g_strdup_printf (_("%s is not of this trace’s format"), data->label);

      show_compare_error (self, message);
      compare_data_free (data);
      return;
    }
  kymo_call_tree_build_async (other, kymo_flame_model_get_source (self->model), KYMO_TIME_NONE, KYMO_TIME_NONE,
                              NULL, 0, self->cancellable, on_compare_folded, data);
}

void
kymo_flame_page_compare_with_file (KymoFlamePage *self,
                                   GFile         *file)
{
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(KymoLoader) loader = NULL;
  g_autoptr(GError) error = NULL;
  KymoLoadOptions options = { 0 };
  CompareData *data;

  g_return_if_fail (KYMO_IS_FLAME_PAGE (self));
  g_return_if_fail (G_IS_FILE (file));

  input = kymo_input_new_for_file (file, &error);
  if (input == NULL)
    {
      show_compare_error (self, error->message);
      return;
    }
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  data = g_new0 (CompareData, 1);
  data->self = g_object_ref (self);
  data->label = g_file_get_basename (file);
  loader = kymo_loader_new (input, &options);
  kymo_loader_load_async (loader, self->cancellable, on_compare_loaded, data);
}

static void
on_chooser_response (GtkNativeDialog *chooser,
                     int              response,
                     KymoFlamePage   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

      if (file != NULL)
        kymo_flame_page_compare_with_file (self, file);
    }
  gtk_native_dialog_destroy (chooser);
  g_object_unref (chooser);
  g_object_unref (self);
}

static void
compare_file_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  KymoFlamePage *self = KYMO_FLAME_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileChooserNative *chooser;

  chooser = gtk_file_chooser_native_new (_("Compare With Trace"),
                                         GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), NULL);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  g_signal_connect (chooser, "response", G_CALLBACK (on_chooser_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
kymo_flame_page_constructed (GObject *object)
{
  KymoFlamePage *self = (KymoFlamePage *) object;
  GtkWidget *toolbar, *scroller, *row, *changes_scroller, *menu_button, *title;
  GMenu *menu;

  G_OBJECT_CLASS (kymo_flame_page_parent_class)->constructed (object);

  self->model = g_object_ref (kymo_flame_model_get_for_session (self->session));
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  toolbar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  gtk_widget_set_margin_start (toolbar, 6);
  gtk_widget_set_margin_end (toolbar, 6);
  gtk_widget_set_margin_top (toolbar, 2);
  gtk_widget_set_margin_bottom (toolbar, 2);
  self->breadcrumbs = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (self->breadcrumbs, TRUE);
  gtk_box_append (GTK_BOX (toolbar), self->breadcrumbs);
  self->spinner = gtk_spinner_new ();
  gtk_box_append (GTK_BOX (toolbar), self->spinner);

  self->samples_button = gtk_toggle_button_new_with_label (_("Samples"));
  gtk_widget_set_tooltip_text (self->samples_button, _("Fold sampled call stacks instead of spans"));
  gtk_widget_set_visible (self->samples_button, kymo_flame_model_has_samples (self->model));
  g_signal_connect (self->samples_button, "toggled", G_CALLBACK (on_samples_toggled), self);
  gtk_box_append (GTK_BOX (toolbar), self->samples_button);

  self->flip_button = gtk_toggle_button_new ();
  gtk_button_set_icon_name (GTK_BUTTON (self->flip_button), "object-flip-vertical-symbolic");
  gtk_widget_set_tooltip_text (self->flip_button, _("Flame (roots at the bottom) or icicle"));
  g_signal_connect (self->flip_button, "toggled", G_CALLBACK (on_flip_toggled), self);
  gtk_box_append (GTK_BOX (toolbar), self->flip_button);

  menu = g_menu_new ();
  g_menu_append (menu, _("Use Range as _Baseline"), "flame-page.set-baseline");
  g_menu_append (menu, _("Compare With _File…"), "flame-page.compare-file");
  menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (menu_button), _("Compare"));
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (menu_button), G_MENU_MODEL (menu));
  g_object_unref (menu);
  gtk_box_append (GTK_BOX (toolbar), menu_button);
  self->baseline_button = menu_button;
  self->clear_button = gtk_button_new_with_label (_("Stop Comparing"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->clear_button), "flame-page.clear-baseline");
  gtk_widget_set_visible (self->clear_button, FALSE);
  gtk_box_append (GTK_BOX (toolbar), self->clear_button);
  gtk_box_append (GTK_BOX (self->box), toolbar);

  row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_vexpand (row, TRUE);
  self->stack = gtk_stack_new ();
  gtk_widget_set_hexpand (self->stack, TRUE);
  self->flame_graph = kymo_flame_graph_new (self->model);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->flame_graph);
  gtk_stack_add_named (GTK_STACK (self->stack), scroller, "graph");
  self->status = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->status), "edit-find-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (self->status), _("No Spans in Range"));
  adw_status_page_set_description (ADW_STATUS_PAGE (self->status),
                                   _("Select a range on the timeline that holds spans, or clear the selection"));
  gtk_widget_add_css_class (self->status, "compact");
  gtk_stack_add_named (GTK_STACK (self->stack), self->status, "empty");
  gtk_stack_add_named (GTK_STACK (self->stack), gtk_spinner_new (), "loading");
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "loading");
  gtk_box_append (GTK_BOX (row), self->stack);

  self->changes_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_size_request (self->changes_box, 360, -1);
  /* the name labels expand within the table, not the table in the page */
  gtk_widget_set_hexpand (self->changes_box, FALSE);
  title = gtk_label_new (_("Largest Changes of Self Time"));
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (self->changes_box), title);
  self->changes_grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (self->changes_grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (self->changes_grid), 2);
  gtk_widget_set_margin_start (self->changes_grid, 8);
  gtk_widget_set_margin_end (self->changes_grid, 8);
  changes_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (changes_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (changes_scroller), self->changes_grid);
  gtk_widget_set_vexpand (changes_scroller, TRUE);
  gtk_box_append (GTK_BOX (self->changes_box), changes_scroller);
  gtk_widget_set_visible (self->changes_box, FALSE);
  gtk_box_append (GTK_BOX (row), gtk_separator_new (GTK_ORIENTATION_VERTICAL));
  gtk_box_append (GTK_BOX (row), self->changes_box);
  gtk_box_append (GTK_BOX (self->box), row);

  self->info = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->info), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->info), PANGO_ELLIPSIZE_MIDDLE);
  gtk_widget_add_css_class (self->info, "dim-label");
  gtk_widget_set_margin_start (self->info, 8);
  gtk_widget_set_margin_end (self->info, 8);
  gtk_widget_set_margin_top (self->info, 2);
  gtk_widget_set_margin_bottom (self->info, 2);
  gtk_box_append (GTK_BOX (self->box), self->info);

  g_signal_connect_object (self->model, "notify::tree", G_CALLBACK (on_tree_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::busy", G_CALLBACK (on_busy_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::source", G_CALLBACK (on_source_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flame_graph, "notify::focus", G_CALLBACK (update_breadcrumbs), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flame_graph, "notify::focus", G_CALLBACK (update_info), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->flame_graph, "notify::hovered", G_CALLBACK (update_info), self,
                           G_CONNECT_SWAPPED);
  on_tree_changed (self);
  on_busy_changed (self);
}

static void
kymo_flame_page_dispose (GObject *object)
{
  KymoFlamePage *self = (KymoFlamePage *) object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_flame_page_parent_class)->dispose (object);
}

static void
kymo_flame_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KymoFlamePage *self = KYMO_FLAME_PAGE (object);

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
kymo_flame_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  KymoFlamePage *self = KYMO_FLAME_PAGE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_flame_page_class_init (KymoFlamePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_flame_page_constructed;
  object_class->dispose = kymo_flame_page_dispose;
  object_class->get_property = kymo_flame_page_get_property;
  object_class->set_property = kymo_flame_page_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "flame-page.set-baseline", NULL, set_baseline_action);
  gtk_widget_class_install_action (widget_class, "flame-page.clear-baseline", NULL, clear_baseline_action);
  gtk_widget_class_install_action (widget_class, "flame-page.compare-file", NULL, compare_file_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "flame-page.set-baseline", NULL);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-flame-page");
}

static void
kymo_flame_page_init (KymoFlamePage *self)
{
}

GtkWidget *
kymo_flame_page_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_FLAME_PAGE, "session", session, NULL);
}

KymoFlameGraph *
kymo_flame_page_get_flame_graph (KymoFlamePage *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_PAGE (self), NULL);
  return KYMO_FLAME_GRAPH (self->flame_graph);
}

gboolean
kymo_flame_page_get_empty (KymoFlamePage *self)
{
  g_return_val_if_fail (KYMO_IS_FLAME_PAGE (self), FALSE);
  return g_strcmp0 (gtk_stack_get_visible_child_name (GTK_STACK (self->stack)), "empty") == 0;
}
