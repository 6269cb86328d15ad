/* kymo-search-results.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-find"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-search-results.h"
#include "kymo-duration-histogram.h"
#include "kymo-find-item.h"
#include "kymo-find-model.h"
#include "kymo-timeline-renderer.h"

typedef enum {
  COLUMN_NAME,
  COLUMN_TRACK,
  COLUMN_START,
  COLUMN_DURATION,
} Column;

struct _KymoSearchResults
{
  GtkWidget      parent_instance;

  KymoSession   *session;
  KymoFindModel *model;
  GtkWidget     *paned;
  GtkWidget     *list;
  GtkWidget     *histogram;
};

G_DEFINE_FINAL_TYPE (KymoSearchResults, kymo_search_results, GTK_TYPE_WIDGET)

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  Column column = GPOINTER_TO_INT (data);
  GtkWidget *cell = gtk_inscription_new (NULL);

  if (column == COLUMN_START || column == COLUMN_DURATION)
    {
      gtk_inscription_set_xalign (GTK_INSCRIPTION (cell), 1.0);
      gtk_inscription_set_min_chars (GTK_INSCRIPTION (cell), 10);
      gtk_widget_add_css_class (cell, "numeric");
    }
  gtk_list_item_set_child (item, cell);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  KymoFindItem *row = gtk_list_item_get_item (item);
  GtkInscription *cell = GTK_INSCRIPTION (gtk_list_item_get_child (item));
  g_autofree char *text = NULL;

  switch ((Column) GPOINTER_TO_INT (data))
    {
    case COLUMN_NAME:
      gtk_inscription_set_text (cell, kymo_find_item_get_name (row));
      return;
    case COLUMN_TRACK:
      gtk_inscription_set_text (cell, kymo_find_item_get_track (row));
      return;
    case COLUMN_START:
      text = kymo_timeline_format_duration (kymo_find_item_get_start (row));
      break;
    case COLUMN_DURATION:
      text = kymo_timeline_format_duration (kymo_find_item_get_duration (row));
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_inscription_set_text (cell, text);
}

static GtkSorter *
column_sorter (Column column)
{
  GtkExpression *expression;

  switch (column)
    {
    case COLUMN_NAME:
      expression = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                                G_CALLBACK (kymo_find_item_get_name), NULL, NULL);
      return GTK_SORTER (gtk_string_sorter_new (expression));
    case COLUMN_TRACK:
      expression = gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL,
                                                G_CALLBACK (kymo_find_item_get_track), NULL, NULL);
      return GTK_SORTER (gtk_string_sorter_new (expression));
    case COLUMN_START:
      expression = gtk_cclosure_expression_new (G_TYPE_INT64, NULL, 0, NULL,
                                                G_CALLBACK (kymo_find_item_get_start), NULL, NULL);
      return GTK_SORTER (gtk_numeric_sorter_new (expression));
    case COLUMN_DURATION:
      {
        GtkNumericSorter *sorter;

        expression = gtk_cclosure_expression_new (G_TYPE_INT64, NULL, 0, NULL,
                                                  G_CALLBACK (kymo_find_item_get_duration), NULL, NULL);
        sorter = gtk_numeric_sorter_new (expression);
        /* People ask "which was slowest": one click sorts longest first. */
        gtk_numeric_sorter_set_sort_order (sorter, GTK_SORT_DESCENDING);
        return GTK_SORTER (sorter);
      }
    default:
      g_assert_not_reached ();
    }
}

static void
add_column (KymoSearchResults *self,
            Column             column,
            const char        *title,
            gboolean           expand)
{
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) col = NULL;
  g_autoptr(GtkSorter) sorter = column_sorter (column);

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  col = gtk_column_view_column_new (title, g_steal_pointer (&factory));
  gtk_column_view_column_set_sorter (col, sorter);
  gtk_column_view_column_set_expand (col, expand);
  gtk_column_view_column_set_resizable (col, TRUE);
  gtk_column_view_append_column (GTK_COLUMN_VIEW (self->list), col);
}

static void
on_activate (KymoSearchResults *self,
             guint              position)
{
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (GTK_COLUMN_VIEW (self->list)));
  g_autoptr(KymoFindItem) item = g_list_model_get_item (rows, position);
  KymoSearchResult *result = kymo_find_model_get_result (self->model);
  const KymoSearchHit *hits;
  gsize n;

  if (item == NULL || result == NULL)
    return;
  kymo_find_model_go_to (self->model, kymo_find_item_get_position (item));
  /* the histogram follows the name the user picked */
  hits = kymo_search_result_get_hits (result, &n);
  if (hits[kymo_find_item_get_position (item)].depth != KYMO_SEARCH_INSTANT)
    kymo_duration_histogram_set_name (KYMO_DURATION_HISTOGRAM (self->histogram),
                                      kymo_search_hit_get_name (kymo_search_result_get_trace (result),
                                                                &hits[kymo_find_item_get_position (item)]));
}

static void
kymo_search_results_dispose (GObject *object)
{
  KymoSearchResults *self = KYMO_SEARCH_RESULTS (object);

  g_clear_pointer (&self->paned, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_search_results_parent_class)->dispose (object);
}

static void
kymo_search_results_class_init (KymoSearchResultsClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = kymo_search_results_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
kymo_search_results_init (KymoSearchResults *self)
{
}

GtkWidget *
kymo_search_results_new (KymoSession *session)
{
  KymoSearchResults *self;
  GtkSortListModel *sorted;
  GtkSingleSelection *selection;
  GtkWidget *scroller;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self = g_object_new (KYMO_TYPE_SEARCH_RESULTS, NULL);
  self->session = g_object_ref (session);
  self->model = g_object_ref (kymo_find_model_get_for_session (session));

  self->list = gtk_column_view_new (NULL);
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (self->list), FALSE);
  add_column (self, COLUMN_NAME, _("Name"), TRUE);
  add_column (self, COLUMN_TRACK, _("Track"), FALSE);
  add_column (self, COLUMN_START, _("Start"), FALSE);
  add_column (self, COLUMN_DURATION, _("Duration"), FALSE);

  sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->model)),
                                    g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->list))));
  /* sorting a million rows must not freeze the window */
  gtk_sort_list_model_set_incremental (sorted, TRUE);
  selection = gtk_single_selection_new (G_LIST_MODEL (sorted));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->list), GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  g_signal_connect_swapped (self->list, "activate", G_CALLBACK (on_activate), self);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->list);
  gtk_widget_set_hexpand (scroller, TRUE);

  self->histogram = kymo_duration_histogram_new (self->model);
  gtk_widget_set_size_request (self->histogram, 520, -1);

  self->paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (self->paned), scroller);
  gtk_paned_set_end_child (GTK_PANED (self->paned), self->histogram);
  gtk_paned_set_resize_end_child (GTK_PANED (self->paned), FALSE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->paned), FALSE);
  gtk_widget_set_parent (self->paned, GTK_WIDGET (self));
  return GTK_WIDGET (self);
}

GtkWidget *
kymo_search_results_get_list (KymoSearchResults *self)
{
  g_return_val_if_fail (KYMO_IS_SEARCH_RESULTS (self), NULL);
  return self->list;
}

GtkWidget *
kymo_search_results_get_histogram (KymoSearchResults *self)
{
  g_return_val_if_fail (KYMO_IS_SEARCH_RESULTS (self), NULL);
  return self->histogram;
}
