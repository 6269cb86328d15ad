/* kymo-range-summary.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include <adwaita.h>

#include "kymo-range-summary.h"
#include "kymo-details-private.h"
#include "kymo-label-column.h"
#include "kymo-stats-item.h"

/* Below this many spans in the trace the statistics are computed at once:
 * a thread round trip would cost more than the work. */
#define SYNC_MAX_SPANS 100000
/* Panning changes the visible range continuously: wait for it to settle. */
#define SETTLE_MS 150

typedef enum {
  COLUMN_NAME,
  COLUMN_COUNT,
  COLUMN_TOTAL,
  COLUMN_SELF,
  COLUMN_MIN,
  COLUMN_MEAN,
  COLUMN_MAX,
} Column;

typedef struct {
  KymoTime from;
  KymoTime to;
} Window;

typedef struct {
  KymoTrace *trace;
  Window     window;
} Request;

static void
request_free (Request *request)
{
  g_object_unref (request->trace);
  g_free (request);
}

struct _KymoRangeSummary
{
  GtkWidget           parent_instance;

  KymoSession        *session;
  GSignalGroup       *session_signals;
  guint64             n_spans;

  GtkWidget          *title;
  GtkWidget          *copy_button;
  GtkWidget          *spinner;
  GtkWidget          *stack;
  GtkWidget          *column_view;
  GListStore         *store;
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;

  GArray             *rows;         /* KymoNameStats shown, or NULL */
  GCancellable       *cancellable;  /* of the computation running */
  guint               settle_id;
  gboolean            busy;
  gboolean            dirty;
  gboolean            syncing;
};

G_DEFINE_FINAL_TYPE (KymoRangeSummary, kymo_range_summary, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
set_busy (KymoRangeSummary *self,
          gboolean          busy)
{
  if (self->busy == busy)
    return;
  self->busy = busy;
  gtk_widget_set_visible (self->spinner, busy);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), busy);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* The selected range, else the visible one. */
static gboolean
get_window (KymoRangeSummary *self,
            Window           *window,
            gboolean         *selected)
{
  kymo_session_get_selected_range (self->session, &window->from, &window->to);
  *selected = window->from != KYMO_TIME_NONE && window->to != KYMO_TIME_NONE;
  if (!*selected)
    kymo_session_get_visible_range (self->session, &window->from, &window->to);
  return TRUE;
}

static void
update_title (KymoRangeSummary *self)
{
  g_autofree char *from = NULL;
  g_autofree char *dur = NULL;
  g_autofree char *text = NULL;
  gboolean selected;
  Window window;

  get_window (self, &window, &selected);
  from = _kymo_details_format_time (self->session, window.from);
  dur = _kymo_details_format_duration (window.to - window.from);
  if (self->rows != NULL && !self->busy)
    {
      g_autofree char *span_count = NULL;
      g_autofree char *span_text = NULL;
      g_autofree char *name_text = NULL;
      guint64 spans = 0;

      for (guint i = 0; i < self->rows->len; i++)
        spans += g_array_index (self->rows, KymoNameStats, i).count;
      span_count = g_strdup_printf ("%" G_GUINT64_FORMAT, spans);
      /* Translators: %s is a number */
      span_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s span", "%s spans", spans), span_count);
      name_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u name", "%u names", self->rows->len),
                                   self->rows->len);

      /* Translators: "Selection from +1.2 ms, 3 ms: 12 spans, 3 names" */
      text = g_strdup_printf (selected ? _("Selection from %s, %s: %s, %s") : _("Visible range from %s, %s: %s, %s"),
                              from, dur, span_text, name_text);
    }
  else
    text = g_strdup_printf (selected ? _("Selection from %s, %s") : _("Visible range from %s, %s"), from, dur);
  gtk_label_set_text (GTK_LABEL (self->title), text);
}

static void
select_highlighted (KymoRangeSummary *self)
{
  guint32 name = kymo_session_get_highlighted_name (self->session);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  guint want = GTK_INVALID_LIST_POSITION;

  if (name != KYMO_SESSION_NO_NAME)
    for (guint i = 0; i < n && want == GTK_INVALID_LIST_POSITION; i++)
      {
        g_autoptr(KymoStatsItem) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);
        if (kymo_stats_item_get_stats (item)->name_id == name)
          want = i;
      }
  if (want == gtk_single_selection_get_selected (self->selection))
    return;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->selection, want);
  self->syncing = FALSE;
}

static void
publish (KymoRangeSummary *self,
         GArray           *rows)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);

  g_clear_pointer (&self->rows, g_array_unref);
  self->rows = g_array_ref (rows);
  for (guint i = 0; i < rows->len; i++)
    g_ptr_array_add (items, kymo_stats_item_new (&g_array_index (rows, KymoNameStats, i)));

  self->syncing = TRUE;
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       items->pdata, items->len);
  self->syncing = FALSE;
  select_highlighted (self);

  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), rows->len > 0 ? "table" : "empty");
  gtk_widget_set_sensitive (self->copy_button, rows->len > 0);
  set_busy (self, FALSE);
  update_title (self);
}

static void
compute_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  const Request *request = task_data;
  GError *error = NULL;
  GArray *rows;

  /* The trace is sealed, hence read-only and safe to share. */
  rows = kymo_stats_compute (request->trace, request->window.from, request->window.to,
                             cancellable, &error);
  if (rows == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, rows, (GDestroyNotify) g_array_unref);
}

static void
compute_done (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  KymoRangeSummary *self = KYMO_RANGE_SUMMARY (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) rows = g_task_propagate_pointer (G_TASK (result), &error);

  if (rows == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Range statistics: %s", error->message);
      return;
    }
  /* A newer request owns the cancellable now: this one was superseded. */
  if (g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;
  g_clear_object (&self->cancellable);
  publish (self, rows);
}

void
kymo_range_summary_refresh (KymoRangeSummary *self)
{
  g_autoptr(GTask) task = NULL;
  Request *request;
  gboolean selected;
  Window window;

  g_return_if_fail (KYMO_IS_RANGE_SUMMARY (self));

  g_clear_handle_id (&self->settle_id, g_source_remove);
  self->dirty = FALSE;
  if (self->cancellable)
    {
      g_cancellable_cancel (self->cancellable);
      g_clear_object (&self->cancellable);
    }
  set_busy (self, TRUE);
  get_window (self, &window, &selected);
  update_title (self);

  if (self->n_spans <= SYNC_MAX_SPANS)
    {
      g_autoptr(GArray) rows = kymo_stats_compute (kymo_session_get_trace (self->session),
                                                   window.from, window.to, NULL, NULL);
      if (rows)
        publish (self, rows);
      return;
    }

  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, compute_done, NULL);
  g_task_set_source_tag (task, kymo_range_summary_refresh);
  request = g_new0 (Request, 1);
  request->trace = g_object_ref (kymo_session_get_trace (self->session));
  request->window = window;
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);
  g_task_run_in_thread (task, compute_thread);
}

static gboolean
settle_cb (gpointer user_data)
{
  KymoRangeSummary *self = user_data;

  self->settle_id = 0;
  if (gtk_widget_get_mapped (GTK_WIDGET (self)))
    kymo_range_summary_refresh (self);
  else
    self->dirty = TRUE;
  return G_SOURCE_REMOVE;
}

static void
schedule (KymoRangeSummary *self)
{
  set_busy (self, TRUE);
  update_title (self);
  if (self->settle_id == 0)
    self->settle_id = g_timeout_add (SETTLE_MS, settle_cb, self);
}

static void
on_selection_range_changed (KymoRangeSummary *self)
{
  schedule (self);
}

static void
on_visible_range_changed (KymoRangeSummary *self)
{
  KymoTime start, end;

  kymo_session_get_selected_range (self->session, &start, &end);
  if (start == KYMO_TIME_NONE || end == KYMO_TIME_NONE)
    schedule (self);
}

static void
on_highlighted_name_changed (KymoRangeSummary *self)
{
  if (!self->syncing)
    select_highlighted (self);
}

static void
on_row_selected (GtkSingleSelection *selection,
                 guint               position,
                 guint               n_items,
                 KymoRangeSummary   *self)
{
  KymoStatsItem *item;

  if (self->syncing)
    return;
  item = gtk_single_selection_get_selected_item (selection);
  self->syncing = TRUE;
  kymo_session_set_highlighted_name (self->session,
                                     item ? kymo_stats_item_get_stats (item)->name_id : KYMO_SESSION_NO_NAME);
  self->syncing = FALSE;
}

char *
kymo_range_summary_dup_csv (KymoRangeSummary *self)
{
  GString *out;

  g_return_val_if_fail (KYMO_IS_RANGE_SUMMARY (self), NULL);

  if (self->rows == NULL)
    return NULL;
  out = g_string_new (NULL);
  kymo_stats_append_csv (self->rows, out);
  return g_string_free (out, FALSE);
}

static void
copy_csv_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  g_autofree char *csv = kymo_range_summary_dup_csv (KYMO_RANGE_SUMMARY (widget));

  if (csv)
    _kymo_details_copy_text (widget, csv);
}

/* ------------------------------------------------------------ columns */

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  const KymoNameStats *stats = kymo_stats_item_get_stats (gtk_list_item_get_item (list_item));
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = NULL;
  KymoTime value = 0;

  switch (GPOINTER_TO_INT (user_data))
    {
    case COLUMN_NAME:
      gtk_label_set_text (GTK_LABEL (label), stats->name);
      gtk_widget_set_tooltip_text (label, stats->name);
      return;
    case COLUMN_COUNT:
      text = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->count);
      gtk_label_set_text (GTK_LABEL (label), text);
      return;
    case COLUMN_TOTAL:
      value = stats->total;
      break;
    case COLUMN_SELF:
      value = stats->self;
      break;
    case COLUMN_MIN:
      value = stats->min;
      break;
    case COLUMN_MEAN:
      value = stats->mean;
      break;
    case COLUMN_MAX:
      value = stats->max;
      break;
    default:
      g_assert_not_reached ();
    }
  text = _kymo_details_format_duration (value);
  gtk_label_set_text (GTK_LABEL (label), text);
}

static GtkColumnViewColumn *
add_column (KymoRangeSummary *self,
            const char       *title,
            Column            column,
            const char       *property)
{
  GtkExpression *expression = gtk_property_expression_new (KYMO_TYPE_STATS_ITEM, NULL, property);

  if (column == COLUMN_NAME)
    return kymo_label_column_append (GTK_COLUMN_VIEW (self->column_view), title, column, KYMO_LABEL_COLUMN_TEXT,
                                     PANGO_ELLIPSIZE_MIDDLE, GTK_SORTER (gtk_string_sorter_new (expression)), TRUE,
                                     G_CALLBACK (cell_bind));
  return kymo_label_column_append (GTK_COLUMN_VIEW (self->column_view), title, column,
                                   KYMO_LABEL_COLUMN_NUMERIC | KYMO_LABEL_COLUMN_END, PANGO_ELLIPSIZE_NONE,
                                   GTK_SORTER (gtk_numeric_sorter_new (expression)), FALSE, G_CALLBACK (cell_bind));
}

/* ------------------------------------------------------------ GObject */

static void
kymo_range_summary_map (GtkWidget *widget)
{
  KymoRangeSummary *self = KYMO_RANGE_SUMMARY (widget);

  GTK_WIDGET_CLASS (kymo_range_summary_parent_class)->map (widget);
  if (self->dirty && self->settle_id == 0)
    kymo_range_summary_refresh (self);
}

static void
kymo_range_summary_constructed (GObject *object)
{
  KymoRangeSummary *self = (KymoRangeSummary *) object;
  guint64 spans = 0;

  G_OBJECT_CLASS (kymo_range_summary_parent_class)->constructed (object);

  kymo_trace_count_events (kymo_session_get_trace (self->session), &spans, NULL, NULL, NULL);
  self->n_spans = spans;
  g_signal_group_set_target (self->session_signals, self->session);
  /* Nothing is computed until the page is first shown. */
  self->dirty = TRUE;
  set_busy (self, TRUE);
  update_title (self);
}

static void
kymo_range_summary_dispose (GObject *object)
{
  KymoRangeSummary *self = (KymoRangeSummary *) object;
  GtkWidget *child;

  if (self->session_signals)
    g_signal_group_set_target (self->session_signals, NULL);
  if (self->cancellable)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->settle_id, g_source_remove);
  /* Removing the columns resorts the model: the highlight must not change. */
  if (self->selection)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->store);
  g_clear_pointer (&self->rows, g_array_unref);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_range_summary_parent_class)->dispose (object);
}

static void
kymo_range_summary_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  KymoRangeSummary *self = KYMO_RANGE_SUMMARY (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_range_summary_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  KymoRangeSummary *self = KYMO_RANGE_SUMMARY (object);

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
kymo_range_summary_class_init (KymoRangeSummaryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_range_summary_constructed;
  object_class->dispose = kymo_range_summary_dispose;
  object_class->get_property = kymo_range_summary_get_property;
  object_class->set_property = kymo_range_summary_set_property;
  widget_class->map = kymo_range_summary_map;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "range.copy-csv", NULL, copy_csv_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-range-summary");
}

static void
kymo_range_summary_init (KymoRangeSummary *self)
{
  GtkWidget *bar, *scroller, *empty;
  GtkColumnViewColumn *total;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (bar, 12);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_wrap (GTK_LABEL (self->title), TRUE);
  gtk_widget_set_hexpand (self->title, TRUE);
  self->spinner = gtk_spinner_new ();
  gtk_widget_set_visible (self->spinner, FALSE);
  self->copy_button = gtk_button_new_with_mnemonic (_("Copy as _CSV"));
  gtk_widget_set_valign (self->copy_button, GTK_ALIGN_CENTER);
  gtk_widget_set_sensitive (self->copy_button, FALSE);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->copy_button), "range.copy-csv");
  gtk_widget_set_tooltip_text (self->copy_button, _("Copy the statistics of every name, with percentiles"));
  gtk_box_append (GTK_BOX (bar), self->title);
  gtk_box_append (GTK_BOX (bar), self->spinner);
  gtk_box_append (GTK_BOX (bar), self->copy_button);
  gtk_widget_set_parent (bar, GTK_WIDGET (self));

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  empty = _kymo_details_empty_state_new ("view-list-symbolic", _("No Spans in Range"),
                                         _("Shift+drag in the timeline to select a range, or zoom out"));
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");

  self->column_view = gtk_column_view_new (NULL);
  gtk_widget_add_css_class (self->column_view, "data-table");
  add_column (self, _("Name"), COLUMN_NAME, "name");
  add_column (self, _("Count"), COLUMN_COUNT, "count");
  total = add_column (self, _("Total"), COLUMN_TOTAL, "total");
  add_column (self, _("Self"), COLUMN_SELF, "self");
  add_column (self, _("Min"), COLUMN_MIN, "min");
  add_column (self, _("Mean"), COLUMN_MEAN, "mean");
  add_column (self, _("Max"), COLUMN_MAX, "max");

  self->store = g_list_store_new (KYMO_TYPE_STATS_ITEM);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view))));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (self->selection, "selection-changed", G_CALLBACK (on_row_selected), self);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), total, GTK_SORT_DESCENDING);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_stack_add_named (GTK_STACK (self->stack), scroller, "table");
  gtk_widget_set_parent (self->stack, GTK_WIDGET (self));

  self->session_signals = g_signal_group_new (KYMO_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-start",
                                  G_CALLBACK (on_selection_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::selection-end",
                                  G_CALLBACK (on_selection_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::visible-start",
                                  G_CALLBACK (on_visible_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::visible-end",
                                  G_CALLBACK (on_visible_range_changed), self);
  g_signal_group_connect_swapped (self->session_signals, "notify::highlighted-name",
                                  G_CALLBACK (on_highlighted_name_changed), self);
}

GtkWidget *
kymo_range_summary_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_RANGE_SUMMARY, "session", session, NULL);
}

GListModel *
kymo_range_summary_get_model (KymoRangeSummary *self)
{
  g_return_val_if_fail (KYMO_IS_RANGE_SUMMARY (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

gboolean
kymo_range_summary_get_busy (KymoRangeSummary *self)
{
  g_return_val_if_fail (KYMO_IS_RANGE_SUMMARY (self), FALSE);

  return self->busy;
}
