/* kymo-query-view.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-query-view"

#include "config.h"

#include <glib/gi18n.h>
#include <gtksourceview/gtksource.h>

#include "kymo-query-view.h"

#define SETTINGS_SCHEMA "io.github.kymo.Kymo"
#define HISTORY_KEY     "query-history"
#define HISTORY_MAX     20
/* Rows kept for display; every row still counts and highlights. */
#define MAX_SHOWN_ROWS  100000

static const struct {
  const char *title;
  const char *sql;
} examples[] = {
  { N_("Longest spans"),
    "SELECT id, track, name, start, dur FROM spans ORDER BY dur DESC LIMIT 100" },
  { N_("Time per name"),
    "SELECT name, count(*) AS calls, sum(dur) AS total, max(dur) AS longest\n"
    "FROM spans GROUP BY name ORDER BY total DESC" },
  { N_("Busy time per track"),
    "SELECT t.id, t.name, count(*) AS spans, sum(s.dur) AS busy\n"
    "FROM spans s JOIN tracks t ON t.id = s.track\n"
    "WHERE s.depth = 0 GROUP BY t.id ORDER BY busy DESC" },
  { N_("Children of the longest span"),
    "SELECT c.id, c.name, c.dur FROM spans c\n"
    "WHERE c.parent = (SELECT id FROM spans ORDER BY dur DESC LIMIT 1)\n"
    "ORDER BY c.start" },
  { N_("Arguments of the longest span"),
    "SELECT key, value FROM args\n"
    "WHERE event = (SELECT id FROM spans ORDER BY dur DESC LIMIT 1)" },
  { N_("Instants per name"),
    "SELECT name, count(*) AS n, min(ts) AS first FROM instants GROUP BY name ORDER BY n DESC" },
};

/* What a worker hands back, once. */
typedef struct {
  GStrv          columns;
  GPtrArray     *cells;      /* char*, row-major, at most MAX_SHOWN_ROWS rows */
  GArray        *refs;       /* KymoEventRef per shown row; kind NONE when none */
  guint64        n_rows;
  KymoEventSet  *events;     /* every row's event, sealed */
  double         seconds;
  GError        *error;
  int            error_offset;  /* in sql */
  char          *sql;
} Result;

static void
result_free (Result *r)
{
  g_strfreev (r->columns);
  g_clear_pointer (&r->cells, g_ptr_array_unref);
  g_clear_pointer (&r->refs, g_array_unref);
  g_clear_pointer (&r->events, kymo_event_set_unref);
  g_clear_error (&r->error);
  g_free (r->sql);
  g_free (r);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Result, result_free)

struct _KymoQueryView
{
  GtkWidget      parent_instance;

  KymoSession   *session;
  GSettings     *settings;   /* NULL when the schema is not installed */
  GPtrArray     *history;    /* char*, newest first, when there are no settings */

  GtkWidget     *editor;
  GtkWidget     *run_button;
  GtkWidget     *cancel_button;
  GtkWidget     *highlight_button;
  GtkWidget     *menu_button;
  GtkWidget     *error_label;
  GtkWidget     *status_label;
  GtkWidget     *results;
  GtkStringList *rows;

  GCancellable  *cancellable;
  Result        *result;
};

G_DEFINE_FINAL_TYPE (KymoQueryView, kymo_query_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static char *
value_text (const KymoQueryValue *v)
{
  switch (v->type)
    {
    case KYMO_QUERY_INTEGER:
      return g_strdup_printf ("%" G_GINT64_FORMAT, v->integer);
    case KYMO_QUERY_REAL:
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];
        return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.6g", v->real));
      }
    case KYMO_QUERY_TEXT:
      return g_strdup (v->text);
    case KYMO_QUERY_NULL:
    default:
      return NULL;
    }
}

static gboolean
collect_row (KymoQuery            *query,
             const KymoQueryValue *values,
             gpointer              user_data)
{
  Result *r = user_data;
  guint n = kymo_query_get_n_columns (query);
  KymoEventRef ref = { 0, KYMO_EVENT_KIND_NONE, 0 };

  if (r->columns == NULL)
    {
      GStrvBuilder *b = g_strv_builder_new ();

      for (guint i = 0; i < n; i++)
        g_strv_builder_add (b, kymo_query_get_column_name (query, i));
      r->columns = g_strv_builder_end (b);
      g_strv_builder_unref (b);
    }
  if (kymo_query_row_event (query, values, &ref))
    kymo_event_set_add (r->events, &ref);
  else
    ref.kind = KYMO_EVENT_KIND_NONE;
  if (r->n_rows < MAX_SHOWN_ROWS)
    {
      for (guint i = 0; i < n; i++)
        g_ptr_array_add (r->cells, value_text (&values[i]));
      g_array_append_val (r->refs, ref);
    }
  r->n_rows++;
  return TRUE;
}

static void
run_worker (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  KymoTrace *trace = g_object_get_data (G_OBJECT (task), "trace");
  const char *sql = task_data;
  Result *r = g_new0 (Result, 1);
  KymoQuery *query;
  gint64 t0 = g_get_monotonic_time ();

  r->cells = g_ptr_array_new_with_free_func (g_free);
  r->refs = g_array_new (FALSE, FALSE, sizeof (KymoEventRef));
  r->events = kymo_event_set_new (trace);
  r->error_offset = -1;
  r->sql = g_strdup (sql);
  query = kymo_query_new (trace, &r->error);
  if (query != NULL)
    {
      kymo_query_run (query, sql, collect_row, r, cancellable, &r->error_offset, &r->error);
      if (r->columns == NULL && r->error == NULL)
        {
          GStrvBuilder *b = g_strv_builder_new ();

          for (guint i = 0; i < kymo_query_get_n_columns (query); i++)
            g_strv_builder_add (b, kymo_query_get_column_name (query, i));
          r->columns = g_strv_builder_end (b);
          g_strv_builder_unref (b);
        }
      kymo_query_free (query);
    }
  kymo_event_set_seal (r->events);
  r->seconds = (g_get_monotonic_time () - t0) / 1e6;
  g_task_return_pointer (task, r, (GDestroyNotify) result_free);
}

static char *
dup_text (KymoQueryView *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
set_running (KymoQueryView *self,
             gboolean       running)
{
  gtk_widget_set_sensitive (self->run_button, !running);
  gtk_widget_set_sensitive (self->cancel_button, running);
  if (running)
    gtk_label_set_text (GTK_LABEL (self->status_label), _("Running…"));
}

static void
update_highlight (KymoQueryView *self)
{
  gboolean on = gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (self->highlight_button));

  if (on && self->result != NULL && self->result->error == NULL)
    kymo_session_set_highlight (self->session, self->result->events);
  else if (!on || self->result == NULL)
    kymo_session_set_highlight (self->session, NULL);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           KymoQueryView            *self)
{
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));
  GtkStringObject *row = gtk_list_item_get_item (item);
  guint n_columns, index;
  const char *text;

  if (self->result == NULL || row == NULL)
    return;
  n_columns = g_strv_length (self->result->columns);
  /* An item only names its row: the cells stay in one array. */
  index = (guint) g_ascii_strtoull (gtk_string_object_get_string (row), NULL, 10) * n_columns + column;
  text = index < self->result->cells->len ? g_ptr_array_index (self->result->cells, index) : NULL;
  gtk_inscription_set_text (GTK_INSCRIPTION (gtk_list_item_get_child (item)), text ? text : "NULL");
  if (text == NULL)
    gtk_widget_add_css_class (gtk_list_item_get_child (item), "dim-label");
  else
    gtk_widget_remove_css_class (gtk_list_item_get_child (item), "dim-label");
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            KymoQueryView            *self)
{
  GtkWidget *label = gtk_inscription_new (NULL);

  gtk_inscription_set_min_chars (GTK_INSCRIPTION (label), 4);
  gtk_inscription_set_nat_chars (GTK_INSCRIPTION (label), 12);
  gtk_list_item_set_child (item, label);
}

/* A statement that failed leaves the last results as they were: only the
 * message (and where it points) is new. */
static void
show_error (KymoQueryView *self,
            Result        *r)
{
  g_autofree char *text = NULL;

  if (r->error_offset >= 0)
    {
      const char *sql = r->sql;
      GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor));
      GtkTextIter iter;
      int line = 1, column = 1;

      for (int i = 0; i < r->error_offset && sql[i]; i++)
        if (sql[i] == '\n')
          line++, column = 1;
        else if ((sql[i] & 0xC0) != 0x80)
          column++;
      text = g_strdup_printf (_("%s (line %d, column %d)"), r->error->message, line, column);
      gtk_text_buffer_get_iter_at_line_offset (buffer, &iter, line - 1, column - 1);
      gtk_text_buffer_place_cursor (buffer, &iter);
    }
  else
    text = g_strdup (r->error->message);
  gtk_label_set_text (GTK_LABEL (self->error_label), text);
  gtk_widget_set_visible (self->error_label, TRUE);
  gtk_label_set_text (GTK_LABEL (self->status_label),
                      g_error_matches (r->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? _("Cancelled") : "");
}

static void
show_result (KymoQueryView *self)
{
  Result *r = self->result;
  GListModel *columns = gtk_column_view_get_columns (GTK_COLUMN_VIEW (self->results));
  g_autofree char *status = NULL;
  guint n_shown;

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) c = g_list_model_get_item (columns, 0);
      gtk_column_view_remove_column (GTK_COLUMN_VIEW (self->results), c);
    }
  gtk_string_list_splice (self->rows, 0, g_list_model_get_n_items (G_LIST_MODEL (self->rows)), NULL);

  gtk_widget_set_visible (self->error_label, FALSE);
  for (guint c = 0; r->columns && r->columns[c]; c++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_autoptr(GtkColumnViewColumn) column = NULL;

      g_object_set_data (G_OBJECT (factory), "column", GUINT_TO_POINTER (c));
      g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), self);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), self);
      column = gtk_column_view_column_new (r->columns[c], factory);
      gtk_column_view_column_set_resizable (column, TRUE);
      gtk_column_view_append_column (GTK_COLUMN_VIEW (self->results), column);
    }
  n_shown = (guint) MIN (r->n_rows, MAX_SHOWN_ROWS);
  {
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

    for (guint i = 0; i < n_shown; i++)
      g_ptr_array_add (names, g_strdup_printf ("%u", i));
    g_ptr_array_add (names, NULL);
    gtk_string_list_splice (self->rows, 0, 0, (const char * const *) names->pdata);
  }

  {
    g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, r->n_rows);
    g_autofree char *shown = g_strdup_printf ("%u", n_shown);
    g_autofree char *took = r->seconds < 1 ? g_strdup_printf ("%.1f ms", r->seconds * 1e3)
                                           : g_strdup_printf ("%.2f s", r->seconds);

    if (r->n_rows > n_shown)
      /* Translators: row count, rows shown, time taken */
      status = g_strdup_printf (_("%s rows (the first %s shown) in %s"), count, shown, took);
    else
      /* Translators: row count, time taken */
      status = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s row in %s", "%s rows in %s",
                                             (gulong) MIN (r->n_rows, G_MAXULONG)), count, took);
  }
  gtk_label_set_text (GTK_LABEL (self->status_label), status);
  update_highlight (self);
}

static void
on_run_done (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(KymoQueryView) self = user_data;
  Result *r = g_task_propagate_pointer (G_TASK (res), NULL);

  /* A newer run replaced this one: its result is not wanted. */
  if (g_task_get_cancellable (G_TASK (res)) != self->cancellable || r == NULL)
    {
      if (r != NULL)
        result_free (r);
      return;
    }
  g_clear_object (&self->cancellable);
  set_running (self, FALSE);
  if (r->error != NULL)
    {
      show_error (self, r);
      result_free (r);
      return;
    }
  g_clear_pointer (&self->result, result_free);
  self->result = r;
  show_result (self);
}

static GStrv
dup_history (KymoQueryView *self)
{
  if (self->settings != NULL)
    return g_settings_get_strv (self->settings, HISTORY_KEY);
  g_ptr_array_add (self->history, NULL);
  {
    GStrv copy = g_strdupv ((char **) self->history->pdata);
    g_ptr_array_remove_index (self->history, self->history->len - 1);
    return copy;
  }
}

static void rebuild_menu (KymoQueryView *self);

static void
remember (KymoQueryView *self,
          const char    *sql)
{
  g_auto(GStrv) old = dup_history (self);
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  g_auto(GStrv) updated = NULL;
  guint n = 1;

  g_strv_builder_add (b, sql);
  for (guint i = 0; old[i] && n < HISTORY_MAX; i++)
    if (!g_str_equal (old[i], sql))
      {
        g_strv_builder_add (b, old[i]);
        n++;
      }
  updated = g_strv_builder_end (b);
  if (self->settings != NULL)
    g_settings_set_strv (self->settings, HISTORY_KEY, (const char * const *) updated);
  else
    {
      g_ptr_array_set_size (self->history, 0);
      for (guint i = 0; updated[i]; i++)
        g_ptr_array_add (self->history, g_strdup (updated[i]));
    }
  rebuild_menu (self);
}

void
kymo_query_view_run (KymoQueryView *self)
{
  g_autoptr(GTask) task = NULL;
  g_autofree char *sql = NULL;

  g_return_if_fail (KYMO_IS_QUERY_VIEW (self));

  sql = dup_text (self);
  {
    g_autofree char *trimmed = g_strstrip (g_strdup (sql));

    if (trimmed[0] == '\0')
      return;
  }
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();

  remember (self, sql);
  set_running (self, TRUE);
  task = g_task_new (NULL, self->cancellable, on_run_done, g_object_ref (self));
  g_task_set_source_tag (task, kymo_query_view_run);
  g_task_set_task_data (task, g_steal_pointer (&sql), g_free);
  g_object_set_data_full (G_OBJECT (task), "trace",
                          g_object_ref (kymo_session_get_trace (self->session)), g_object_unref);
  /* The result (or the error) is what the user asked for: even a cancelled
   * run reports, so the worker's value is always taken. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, run_worker);
}

void
kymo_query_view_cancel (KymoQueryView *self)
{
  g_return_if_fail (KYMO_IS_QUERY_VIEW (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

gboolean
kymo_query_view_is_running (KymoQueryView *self)
{
  g_return_val_if_fail (KYMO_IS_QUERY_VIEW (self), FALSE);

  return self->cancellable != NULL;
}

GtkWidget *
kymo_query_view_get_results (KymoQueryView *self)
{
  g_return_val_if_fail (KYMO_IS_QUERY_VIEW (self), NULL);

  return self->results;
}

void
kymo_query_view_set_text (KymoQueryView *self,
                          const char    *sql)
{
  g_return_if_fail (KYMO_IS_QUERY_VIEW (self));

  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->editor)), sql, -1);
}

static void
on_activate (GtkColumnView *view,
             guint          position,
             KymoQueryView *self)
{
  const KymoEventRef *ref;

  if (self->result == NULL || position >= self->result->refs->len)
    return;
  ref = &g_array_index (self->result->refs, KymoEventRef, position);
  if (ref->kind != KYMO_EVENT_KIND_NONE)
    kymo_session_select_event (self->session, ref);
}

static void
run_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  kymo_query_view_run (KYMO_QUERY_VIEW (widget));
}

static void
cancel_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  kymo_query_view_cancel (KYMO_QUERY_VIEW (widget));
}

static void
example_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  guint i = g_variant_get_uint32 (parameter);

  if (i < G_N_ELEMENTS (examples))
    kymo_query_view_set_text (KYMO_QUERY_VIEW (widget), examples[i].sql);
}

static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  kymo_query_view_set_text (KYMO_QUERY_VIEW (widget), g_variant_get_string (parameter, NULL));
}

static void
rebuild_menu (KymoQueryView *self)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenu) ex = g_menu_new ();
  g_autoptr(GMenu) hist = g_menu_new ();
  g_auto(GStrv) history = dup_history (self);

  for (guint i = 0; i < G_N_ELEMENTS (examples); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(examples[i].title), NULL);
      g_menu_item_set_action_and_target_value (item, "query.example", g_variant_new_uint32 (i));
      g_menu_append_item (ex, item);
    }
  for (guint i = 0; history[i]; i++)
    {
      g_autofree char *one_line = g_strdelimit (g_strndup (history[i], 60), "\n\t", ' ');
      g_autoptr(GMenuItem) item = g_menu_item_new (one_line, NULL);

      g_menu_item_set_action_and_target_value (item, "query.history", g_variant_new_string (history[i]));
      g_menu_append_item (hist, item);
    }
  g_menu_append_section (menu, _("Examples"), G_MENU_MODEL (ex));
  if (history[0] != NULL)
    g_menu_append_section (menu, _("History"), G_MENU_MODEL (hist));
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (self->menu_button), G_MENU_MODEL (menu));
}

static void
kymo_query_view_constructed (GObject *object)
{
  KymoQueryView *self = KYMO_QUERY_VIEW (object);
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  G_OBJECT_CLASS (kymo_query_view_parent_class)->constructed (object);

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, SETTINGS_SCHEMA, TRUE);
  if (schema != NULL && g_settings_schema_has_key (schema, HISTORY_KEY))
    self->settings = g_settings_new (SETTINGS_SCHEMA);
  rebuild_menu (self);
}

static void
kymo_query_view_dispose (GObject *object)
{
  KymoQueryView *self = KYMO_QUERY_VIEW (object);
  GtkWidget *child;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  if (self->result != NULL && self->session != NULL &&
      kymo_session_get_highlight (self->session) == self->result->events)
    kymo_session_set_highlight (self->session, NULL);
  g_clear_pointer (&self->result, result_free);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->rows);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->history, g_ptr_array_unref);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_query_view_parent_class)->dispose (object);
}

static void
kymo_query_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KymoQueryView *self = KYMO_QUERY_VIEW (object);

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
kymo_query_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  KymoQueryView *self = KYMO_QUERY_VIEW (object);

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
kymo_query_view_class_init (KymoQueryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_query_view_constructed;
  object_class->dispose = kymo_query_view_dispose;
  object_class->get_property = kymo_query_view_get_property;
  object_class->set_property = kymo_query_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "query.run", NULL, run_action);
  gtk_widget_class_install_action (widget_class, "query.cancel", NULL, cancel_action);
  gtk_widget_class_install_action (widget_class, "query.example", "u", example_action);
  gtk_widget_class_install_action (widget_class, "query.history", "s", history_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-query-view");
}

static void
kymo_query_view_init (KymoQueryView *self)
{
  GtkWidget *bar, *scroller, *results_scroller;
  GtkSourceBuffer *buffer;
  GtkSourceLanguage *sql;
  GtkEventController *shortcuts;
  GtkSelectionModel *selection;

  self->history = g_ptr_array_new_with_free_func (g_free);
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (gtk_widget_get_layout_manager (GTK_WIDGET (self))), 4);

  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  self->run_button = gtk_button_new_with_mnemonic (_("_Run"));
  gtk_widget_set_tooltip_text (self->run_button, _("Run the query (Ctrl+Enter)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->run_button), "query.run");
  gtk_widget_add_css_class (self->run_button, "suggested-action");
  self->cancel_button = gtk_button_new_with_mnemonic (_("_Cancel"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->cancel_button), "query.cancel");
  gtk_widget_set_sensitive (self->cancel_button, FALSE);
  self->menu_button = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (self->menu_button), _("Examples and History"));
  self->highlight_button = gtk_toggle_button_new_with_label (_("Highlight Results"));
  gtk_widget_set_tooltip_text (self->highlight_button, _("Mark every result event on the timeline"));
  g_signal_connect_swapped (self->highlight_button, "toggled", G_CALLBACK (update_highlight), self);
  self->status_label = gtk_label_new (NULL);
  gtk_widget_set_hexpand (self->status_label, TRUE);
  gtk_label_set_xalign (GTK_LABEL (self->status_label), 1.0);
  gtk_widget_add_css_class (self->status_label, "dim-label");
  gtk_box_append (GTK_BOX (bar), self->run_button);
  gtk_box_append (GTK_BOX (bar), self->cancel_button);
  gtk_box_append (GTK_BOX (bar), self->menu_button);
  gtk_box_append (GTK_BOX (bar), self->highlight_button);
  gtk_box_append (GTK_BOX (bar), self->status_label);
  gtk_widget_set_parent (bar, GTK_WIDGET (self));

  buffer = gtk_source_buffer_new (NULL);
  sql = gtk_source_language_manager_get_language (gtk_source_language_manager_get_default (), "sql");
  if (sql != NULL)
    gtk_source_buffer_set_language (buffer, sql);
  self->editor = gtk_source_view_new_with_buffer (buffer);
  g_object_unref (buffer);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self->editor), TRUE);
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (self->editor), TRUE);
  gtk_source_view_set_highlight_current_line (GTK_SOURCE_VIEW (self->editor), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self->editor), GTK_WRAP_WORD_CHAR);
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (buffer), examples[1].sql, -1);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->editor);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 72);
  gtk_widget_add_css_class (scroller, "frame");
  gtk_widget_set_margin_start (scroller, 6);
  gtk_widget_set_margin_end (scroller, 6);
  gtk_widget_set_parent (scroller, GTK_WIDGET (self));

  /* Ctrl+Enter before the text view inserts a line break. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>Return|<Control>KP_Enter"),
                                                          gtk_named_action_new ("query.run")));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);

  self->error_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->error_label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (self->error_label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (self->error_label), TRUE);
  gtk_widget_add_css_class (self->error_label, "error");
  gtk_widget_set_margin_start (self->error_label, 6);
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_widget_set_parent (self->error_label, GTK_WIDGET (self));

  self->rows = gtk_string_list_new (NULL);
  selection = GTK_SELECTION_MODEL (gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->rows))));
  self->results = gtk_column_view_new (selection);
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (self->results), TRUE);
  gtk_column_view_set_single_click_activate (GTK_COLUMN_VIEW (self->results), FALSE);
  gtk_widget_add_css_class (self->results, "data-table");
  g_signal_connect (self->results, "activate", G_CALLBACK (on_activate), self);
  results_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (results_scroller), self->results);
  gtk_widget_set_vexpand (results_scroller, TRUE);
  gtk_widget_set_parent (results_scroller, GTK_WIDGET (self));
}

GtkWidget *
kymo_query_view_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_QUERY_VIEW, "session", session, NULL);
}
