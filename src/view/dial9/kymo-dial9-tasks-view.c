/* kymo-dial9-tasks-view.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-dial9-tasks-view.h"
#include "details/kymo-details-private.h"
#include "kymo-label-column.h"
#include "kymo-dial9-analysis.h"
#include "kymo-dial9-task-item.h"

/* Wakers listed by name before "and N more". */
#define MAX_WAKERS 8

typedef enum {
  COLUMN_TASK,
  COLUMN_SPAWN_LOC,
  COLUMN_POLLS,
  COLUMN_TOTAL,
  COLUMN_MAX,
  COLUMN_WAKES,
  COLUMN_SPAWNED,
  COLUMN_TERMINATED,
} Column;

struct _KymoDial9TasksView
{
  GtkWidget           parent_instance;

  KymoSession        *session;
  KymoDial9Analysis  *analysis;
  GtkWidget          *title;
  GtkWidget          *spinner;
  GtkWidget          *column_view;
  GtkWidget          *wakers;
  GListStore         *store;
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;
  GHashTable         *time_labels; /* bound label → its GtkListItem, to follow the clock */
};

G_DEFINE_FINAL_TYPE (KymoDial9TasksView, kymo_dial9_tasks_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

typedef struct {
  guint64 waker_id;
  guint   count;
} Waker;

static int
compare_wakers (gconstpointer a,
                gconstpointer b)
{
  const Waker *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->waker_id < y->waker_id ? -1 : x->waker_id > y->waker_id;
}

static char *
wakers_text (KymoDial9Tasks *tasks,
             guint           row)
{
  const KymoDial9Task *rows;
  const KymoRecord *records;
  const guint32 *wakes;
  g_autoptr(GArray) wakers = g_array_new (FALSE, FALSE, sizeof (Waker));
  g_autoptr(GHashTable) index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  GString *out;
  gsize n, n_rows, n_records;

  rows = kymo_dial9_tasks_get_rows (tasks, &n_rows);
  records = kymo_records_get_all (kymo_trace_get_records (kymo_dial9_tasks_get_trace (tasks)), &n_records);
  wakes = kymo_dial9_tasks_get_wakes_of (tasks, row, &n);
  for (gsize i = 0; i < n; i++)
    {
      /* A wake record's value is the waking task's id. */
      guint64 waker_id = records[wakes[i]].value;
      gpointer v = g_hash_table_lookup (index, &waker_id);

      if (v == NULL)
        {
          Waker w = { waker_id, 0 };

          g_array_append_val (wakers, w);
          v = GUINT_TO_POINTER (wakers->len);
          g_hash_table_insert (index, g_memdup2 (&waker_id, sizeof (guint64)), v);
        }
      g_array_index (wakers, Waker, GPOINTER_TO_UINT (v) - 1).count++;
    }
  g_array_sort (wakers, compare_wakers);

  out = g_string_new (NULL);
  {
    g_autofree char *id = g_strdup_printf ("%" G_GUINT64_FORMAT, rows[row].task_id);
    g_autofree char *count = g_strdup_printf ("%" G_GSIZE_FORMAT, n);

    /* Translators: the first %s is a task id, the second a number */
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "Task %s was woken %s time",
                                              "Task %s was woken %s times", n), id, count);
  }
  for (guint i = 0; i < wakers->len && i < MAX_WAKERS; i++)
    {
      const Waker *w = &g_array_index (wakers, Waker, i);

      g_string_append (out, i == 0 ? ": " : ", ");
      if (w->waker_id == 0)
        g_string_append_printf (out, _("by no task (I/O, timer or another thread) ×%u"), w->count);
      else
        {
          g_autofree char *id = g_strdup_printf ("%" G_GUINT64_FORMAT, w->waker_id);

          /* Translators: %s is a task id, %u how many times */
          g_string_append_printf (out, _("by task %s ×%u"), id, w->count);
        }
    }
  if (wakers->len > MAX_WAKERS)
    g_string_append_printf (out, _(" and %u more"), wakers->len - MAX_WAKERS);
  return g_string_free (out, FALSE);
}

static void
on_selected_task (KymoDial9TasksView *self)
{
  KymoDial9Tasks *tasks = kymo_dial9_analysis_get_tasks (self->analysis);
  guint row = kymo_dial9_analysis_get_selected_task (self->analysis);
  g_autofree char *text = NULL;

  if (tasks == NULL || row == KYMO_DIAL9_NO_TASK)
    {
      gtk_label_set_text (GTK_LABEL (self->wakers), _("Select a task to highlight its polls and see what woke it"));
      return;
    }
  text = wakers_text (tasks, row);
  gtk_label_set_text (GTK_LABEL (self->wakers), text);
}

static void
on_row_selected (KymoDial9TasksView *self)
{
  KymoDial9TaskItem *item = gtk_single_selection_get_selected_item (self->selection);
  guint row = item != NULL ? kymo_dial9_task_item_get_row (item) : KYMO_DIAL9_NO_TASK;

  /* Until the selection takes (see kymo_dial9_analysis_set_selected_task()),
   * what woke another task is not shown for this one. */
  if (row != kymo_dial9_analysis_get_selected_task (self->analysis))
    gtk_label_set_text (GTK_LABEL (self->wakers), "");
  kymo_dial9_analysis_set_selected_task (self->analysis, row);
}

static void
on_ready (KymoDial9TasksView *self)
{
  KymoDial9Tasks *tasks = kymo_dial9_analysis_get_tasks (self->analysis);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *title = NULL;
  gsize n;

  if (tasks == NULL || g_list_model_get_n_items (G_LIST_MODEL (self->store)) > 0)
    return;
  kymo_dial9_tasks_get_rows (tasks, &n);
  for (gsize i = 0; i < n; i++)
    g_ptr_array_add (items, kymo_dial9_task_item_new (tasks, i));
  g_list_store_splice (self->store, 0, 0, items->pdata, items->len);
  {
    g_autofree char *count = g_strdup_printf ("%" G_GSIZE_FORMAT, n);

    /* Translators: %s is a number */
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s task", "%s tasks", n), count);
  }
  gtk_label_set_text (GTK_LABEL (self->title), title);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), FALSE);
  gtk_widget_set_visible (self->spinner, FALSE);
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  KymoDial9TaskItem *item = gtk_list_item_get_item (list_item);
  const KymoDial9Task *t = kymo_dial9_task_item_get_task (item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;

  switch (GPOINTER_TO_INT (user_data))
    {
    case COLUMN_TASK:
      text = g_strdup_printf ("%" G_GUINT64_FORMAT, t->task_id);
      break;
    case COLUMN_SPAWN_LOC:
      {
        const char *loc = kymo_dial9_task_item_get_spawn_loc (item);
        gboolean unknown = *loc == '\0';

        /* A task seen only terminating (or spawned before the trace
         * started, never polled) has no location: say so, not a blank. */
        gtk_label_set_text (GTK_LABEL (label), unknown ? _("Unknown") : loc);
        gtk_widget_set_tooltip_text (label, unknown ? NULL : loc);
        if (unknown)
          gtk_widget_add_css_class (label, "dim-label");
        else
          gtk_widget_remove_css_class (label, "dim-label");
      }
      return;
    case COLUMN_POLLS:
      text = g_strdup_printf ("%" G_GUINT64_FORMAT, t->polls);
      break;
    case COLUMN_TOTAL:
      text = _kymo_details_format_duration (t->poll_total);
      break;
    case COLUMN_MAX:
      text = _kymo_details_format_duration (t->poll_max);
      break;
    case COLUMN_WAKES:
      text = g_strdup_printf ("%" G_GUINT64_FORMAT, t->wakes);
      break;
    case COLUMN_SPAWNED:
    case COLUMN_TERMINATED:
      /* time_bind(), which knows the session's clock */
      return;
    default:
      g_assert_not_reached ();
    }
  gtk_label_set_text (GTK_LABEL (label), text);
}

static void
set_time_text (KymoDial9TasksView *self,
               GtkWidget          *label,
               GtkListItem        *list_item)
{
  KymoDial9TaskItem *item = gtk_list_item_get_item (list_item);
  const KymoDial9Task *t = kymo_dial9_task_item_get_task (item);
  gboolean spawned = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (label), "kymo-column")) == COLUMN_SPAWNED;
  g_autofree char *text = _kymo_details_format_time (self->session, spawned ? t->spawned : t->terminated);

  gtk_label_set_text (GTK_LABEL (label), text);
}

/* After the label column's own setup, which made the label. */
static void
time_setup (GtkSignalListItemFactory *factory,
            GtkListItem              *list_item,
            gpointer                  column)
{
  g_object_set_data (G_OBJECT (gtk_list_item_get_child (list_item)), "kymo-column", column);
}

static void
time_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           KymoDial9TasksView       *self)
{
  GtkWidget *label = gtk_list_item_get_child (list_item);

  if (self->time_labels == NULL)
    return;
  g_hash_table_insert (self->time_labels, label, list_item);
  set_time_text (self, label, list_item);
}

static void
time_unbind (GtkSignalListItemFactory *factory,
             GtkListItem              *list_item,
             KymoDial9TasksView       *self)
{
  /* The column view may unbind after dispose dropped the table. */
  if (self->time_labels != NULL)
    g_hash_table_remove (self->time_labels, gtk_list_item_get_child (list_item));
}

/* Relative, local or UTC as the window's Time menu says: only the rows on
 * screen are bound, so only they are redone. */
static void
on_clock_changed (KymoDial9TasksView *self)
{
  GHashTableIter iter;
  gpointer label, list_item;

  g_hash_table_iter_init (&iter, self->time_labels);
  while (g_hash_table_iter_next (&iter, &label, &list_item))
    set_time_text (self, label, list_item);
}

static GtkColumnViewColumn *
add_column (KymoDial9TasksView *self,
            const char         *title,
            Column              column,
            const char         *property)
{
  GtkExpression *expression = gtk_property_expression_new (KYMO_TYPE_DIAL9_TASK_ITEM, NULL, property);

  if (column == COLUMN_SPAWN_LOC)
    return kymo_label_column_append (GTK_COLUMN_VIEW (self->column_view), title, column, KYMO_LABEL_COLUMN_TEXT,
                                     PANGO_ELLIPSIZE_START, GTK_SORTER (gtk_string_sorter_new (expression)), TRUE,
                                     G_CALLBACK (cell_bind));
  if (column == COLUMN_SPAWNED || column == COLUMN_TERMINATED)
    {
      GtkColumnViewColumn *col;
      GtkListItemFactory *factory;

      col = kymo_label_column_append (GTK_COLUMN_VIEW (self->column_view), title, column,
                                      KYMO_LABEL_COLUMN_NUMERIC | KYMO_LABEL_COLUMN_END, PANGO_ELLIPSIZE_NONE,
                                      GTK_SORTER (gtk_numeric_sorter_new (expression)), FALSE,
                                      G_CALLBACK (cell_bind));
      factory = gtk_column_view_column_get_factory (col);
      g_signal_connect (factory, "setup", G_CALLBACK (time_setup), GINT_TO_POINTER (column));
      g_signal_connect_object (factory, "bind", G_CALLBACK (time_bind), self, 0);
      g_signal_connect_object (factory, "unbind", G_CALLBACK (time_unbind), self, 0);
      return col;
    }
  return kymo_label_column_append (GTK_COLUMN_VIEW (self->column_view), title, column,
                                   KYMO_LABEL_COLUMN_NUMERIC | KYMO_LABEL_COLUMN_END, PANGO_ELLIPSIZE_NONE,
                                   GTK_SORTER (gtk_numeric_sorter_new (expression)), FALSE, G_CALLBACK (cell_bind));
}

static void
kymo_dial9_tasks_view_constructed (GObject *object)
{
  KymoDial9TasksView *self = (KymoDial9TasksView *) object;

  G_OBJECT_CLASS (kymo_dial9_tasks_view_parent_class)->constructed (object);

  self->analysis = g_object_ref (kymo_dial9_analysis_get (self->session));
  g_signal_connect_object (self->analysis, "notify::ready", G_CALLBACK (on_ready), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->analysis, "notify::selected-task", G_CALLBACK (on_selected_task), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::wallclock", G_CALLBACK (on_clock_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::utc", G_CALLBACK (on_clock_changed), self, G_CONNECT_SWAPPED);
  on_ready (self);
}

static void
kymo_dial9_tasks_view_dispose (GObject *object)
{
  KymoDial9TasksView *self = (KymoDial9TasksView *) object;
  GtkWidget *child;

  if (self->selection)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->time_labels, g_hash_table_unref);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_object (&self->analysis);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_dial9_tasks_view_parent_class)->dispose (object);
}

static void
kymo_dial9_tasks_view_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  KymoDial9TasksView *self = KYMO_DIAL9_TASKS_VIEW (object);

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
kymo_dial9_tasks_view_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  KymoDial9TasksView *self = KYMO_DIAL9_TASKS_VIEW (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The highlight of a task's polls dims the rest of the timeline: Escape in
 * the table gives the timeline back. */
static void
unselect_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  KymoDial9TasksView *self = KYMO_DIAL9_TASKS_VIEW (widget);

  gtk_single_selection_set_selected (self->selection, GTK_INVALID_LIST_POSITION);
}

static void
kymo_dial9_tasks_view_class_init (KymoDial9TasksViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_dial9_tasks_view_constructed;
  object_class->dispose = kymo_dial9_tasks_view_dispose;
  object_class->get_property = kymo_dial9_tasks_view_get_property;
  object_class->set_property = kymo_dial9_tasks_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "tasks.unselect", NULL, unselect_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "tasks.unselect", NULL);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-dial9-tasks");
}

static void
kymo_dial9_tasks_view_init (KymoDial9TasksView *self)
{
  GtkWidget *bar, *scroller;
  GtkColumnViewColumn *total;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  self->title = gtk_label_new (_("Finding tasks…"));
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_widget_set_hexpand (self->title, TRUE);
  self->spinner = gtk_spinner_new ();
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), TRUE);
  gtk_box_append (GTK_BOX (bar), self->title);
  gtk_box_append (GTK_BOX (bar), self->spinner);
  gtk_widget_set_parent (bar, GTK_WIDGET (self));

  self->time_labels = g_hash_table_new (NULL, NULL);
  self->column_view = gtk_column_view_new (NULL);
  gtk_widget_add_css_class (self->column_view, "data-table");
  add_column (self, _("Task"), COLUMN_TASK, "task-id");
  add_column (self, _("Spawned At"), COLUMN_SPAWN_LOC, "spawn-loc");
  add_column (self, _("Polls"), COLUMN_POLLS, "polls");
  total = add_column (self, _("Poll Time"), COLUMN_TOTAL, "poll-total");
  add_column (self, _("Longest Poll"), COLUMN_MAX, "poll-max");
  add_column (self, _("Wakes"), COLUMN_WAKES, "wakes");
  add_column (self, _("Spawned"), COLUMN_SPAWNED, "spawned");
  add_column (self, _("Terminated"), COLUMN_TERMINATED, "terminated");

  self->store = g_list_store_new (KYMO_TYPE_DIAL9_TASK_ITEM);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view))));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (on_row_selected), self);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), total, GTK_SORT_DESCENDING);

  scroller = gtk_scrolled_window_new ();
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_widget_set_parent (scroller, GTK_WIDGET (self));

  self->wakers = gtk_label_new (_("Select a task to highlight its polls and see what woke it"));
  gtk_label_set_xalign (GTK_LABEL (self->wakers), 0);
  gtk_label_set_wrap (GTK_LABEL (self->wakers), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->wakers), TRUE);
  gtk_widget_add_css_class (self->wakers, "dim-label");
  gtk_widget_set_margin_start (self->wakers, 12);
  gtk_widget_set_margin_end (self->wakers, 12);
  gtk_widget_set_margin_top (self->wakers, 6);
  gtk_widget_set_margin_bottom (self->wakers, 6);
  gtk_widget_set_parent (self->wakers, GTK_WIDGET (self));
}

GtkWidget *
kymo_dial9_tasks_view_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_DIAL9_TASKS_VIEW, "session", session, NULL);
}

GListModel *
kymo_dial9_tasks_view_get_model (KymoDial9TasksView *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_TASKS_VIEW (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

void
kymo_dial9_tasks_view_select (KymoDial9TasksView *self,
                              guint               position)
{
  g_return_if_fail (KYMO_IS_DIAL9_TASKS_VIEW (self));

  gtk_single_selection_set_selected (self->selection, position);
}

const char *
kymo_dial9_tasks_view_get_wakers_text (KymoDial9TasksView *self)
{
  g_return_val_if_fail (KYMO_IS_DIAL9_TASKS_VIEW (self), NULL);

  return gtk_label_get_text (GTK_LABEL (self->wakers));
}
