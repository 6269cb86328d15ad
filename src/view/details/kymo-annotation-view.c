/* kymo-annotation-view.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include <adwaita.h>

#include "kymo-annotation-view.h"
#include "kymo-annotation-item.h"
#include "kymo-details-private.h"
#include "kymo-label-column.h"

typedef enum {
  COLUMN_TIME,
  COLUMN_KIND,
  COLUMN_TEXT,
  COLUMN_SOURCE,
} Column;

struct _KymoAnnotationView
{
  GtkWidget           parent_instance;

  KymoSession        *session;
  GtkWidget          *search;
  GtkWidget          *stack;
  GtkWidget          *column_view;
  GtkWidget          *count;
  GtkStringFilter    *filter;
  GtkSortListModel   *sorted;
  GtkSingleSelection *selection;
  guint               n_total;
};

G_DEFINE_FINAL_TYPE (KymoAnnotationView, kymo_annotation_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char *
annotation_kind (const KymoTrack      *track,
                 const KymoAnnotation *annotation)
{
  if (annotation->end > annotation->start)
    return _("Range");
  switch (kymo_track_get_kind (track))
    {
    case KYMO_TRACK_MARKER:
      return _("Marker");
    case KYMO_TRACK_LOG:
      return _("Log");
    case KYMO_TRACK_GROUP:
    case KYMO_TRACK_THREAD:
    case KYMO_TRACK_COUNTER:
    case KYMO_TRACK_INSTANT:
    case KYMO_TRACK_ANNOTATION:
    default:
      return _("Annotation");
    }
}

static GListStore *
collect (KymoSession *session)
{
  KymoTrace *trace = kymo_session_get_trace (session);
  GListStore *store = g_list_store_new (KYMO_TYPE_ANNOTATION_ITEM);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  const KymoWarning *warnings;
  gsize n_warnings;

  for (guint id = 0; id < kymo_trace_get_n_tracks (trace); id++)
    {
      const KymoTrack *track = kymo_trace_get_track (trace, id);
      const KymoAnnotation *annotations;
      gsize n;

      annotations = kymo_track_get_annotations (track, &n);
      for (gsize i = 0; i < n; i++)
        {
          KymoEventRef ref = { id, KYMO_EVENT_KIND_ANNOTATION, (guint) i };
          const char *name = kymo_trace_get_name (trace, annotations[i].name);
          const char *text = annotations[i].text;
          g_autofree char *label = NULL;

          if (text && *text && *name && g_strcmp0 (text, name) != 0)
            label = g_strdup_printf ("%s: %s", name, text);
          else
            label = g_strdup (text && *text ? text : name);
          g_ptr_array_add (items, kymo_annotation_item_new (&ref, annotations[i].start, annotations[i].end,
                                                            annotation_kind (track, &annotations[i]),
                                                            label, kymo_track_get_name (track)));
        }

      if (kymo_track_get_kind (track) == KYMO_TRACK_MARKER)
        {
          const KymoInstant *instants = kymo_track_get_instants (track, &n);

          for (gsize i = 0; i < n; i++)
            {
              KymoEventRef ref = { id, KYMO_EVENT_KIND_INSTANT, (guint) i };

              g_ptr_array_add (items, kymo_annotation_item_new (&ref, instants[i].ts, instants[i].ts, _("Marker"),
                                                                kymo_trace_get_name (trace, instants[i].name_flags & KYMO_NAME_MAX),
                                                                kymo_track_get_name (track)));
            }
        }
    }

  warnings = kymo_trace_get_warnings (trace, &n_warnings);
  for (gsize i = 0; i < n_warnings; i++)
    {
      g_autofree char *source = NULL;

      if (warnings[i].offset != KYMO_NO_OFFSET)
        {
          g_autofree char *offset = g_strdup_printf ("%" G_GUINT64_FORMAT, warnings[i].offset);

          /* Translators: %s is a byte offset in the file */
          source = g_strdup_printf (_("Loader, byte %s"), offset);
        }
      else
        source = g_strdup (_("Loader"));
      g_ptr_array_add (items, kymo_annotation_item_new (NULL, warnings[i].ts, warnings[i].ts, _("Warning"),
                                                        warnings[i].message, source));
    }

  g_list_store_splice (store, 0, 0, items->pdata, items->len);
  return store;
}

static void
update_count (KymoAnnotationView *self)
{
  guint shown = g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
  g_autofree char *text = NULL;

  if (shown == self->n_total)
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u item", "%u items", shown), shown);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u item", "%u of %u items", self->n_total), shown, self->n_total);
  gtk_label_set_text (GTK_LABEL (self->count), text);
}

void
kymo_annotation_view_activate (KymoAnnotationView *self,
                               guint               position)
{
  g_autoptr(KymoAnnotationItem) item = NULL;
  const KymoEventRef *ref;

  g_return_if_fail (KYMO_IS_ANNOTATION_VIEW (self));

  item = g_list_model_get_item (G_LIST_MODEL (self->sorted), position);
  if (item == NULL || kymo_annotation_item_get_start (item) == KYMO_TIME_NONE)
    return;
  _kymo_details_zoom_to (self->session, kymo_annotation_item_get_start (item),
                         kymo_annotation_item_get_end (item));
  /* After the zoom, so that selecting does not scroll again. */
  ref = kymo_annotation_item_get_ref (item);
  if (ref)
    kymo_session_select_event (self->session, ref);
}

static void
on_activate (GtkColumnView      *view,
             guint               position,
             KymoAnnotationView *self)
{
  kymo_annotation_view_activate (self, position);
}

static void
on_search_changed (GtkSearchEntry     *entry,
                   KymoAnnotationView *self)
{
  gtk_string_filter_set_search (self->filter, gtk_editable_get_text (GTK_EDITABLE (entry)));
}

static void
cell_bind (GtkSignalListItemFactory *factory,
           GtkListItem              *list_item,
           gpointer                  user_data)
{
  KymoAnnotationItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  KymoAnnotationView *self = g_object_get_data (G_OBJECT (factory), "view");
  g_autofree char *text = NULL;

  switch (GPOINTER_TO_INT (user_data))
    {
    case COLUMN_TIME:
      if (kymo_annotation_item_get_end (item) > kymo_annotation_item_get_start (item))
        {
          g_autofree char *start = _kymo_details_format_time (self->session, kymo_annotation_item_get_start (item));
          g_autofree char *dur = _kymo_details_format_duration (kymo_annotation_item_get_end (item) -
                                                                kymo_annotation_item_get_start (item));
          text = g_strdup_printf ("%s (%s)", start, dur);
        }
      else
        text = _kymo_details_format_time (self->session, kymo_annotation_item_get_start (item));
      gtk_label_set_text (GTK_LABEL (label), text);
      break;
    case COLUMN_KIND:
      gtk_label_set_text (GTK_LABEL (label), kymo_annotation_item_get_kind (item));
      break;
    case COLUMN_TEXT:
      gtk_label_set_text (GTK_LABEL (label), kymo_annotation_item_get_text (item));
      gtk_widget_set_tooltip_text (label, kymo_annotation_item_get_text (item));
      break;
    case COLUMN_SOURCE:
      gtk_label_set_text (GTK_LABEL (label), kymo_annotation_item_get_source (item));
      break;
    default:
      g_assert_not_reached ();
    }
}

static GtkColumnViewColumn *
add_column (KymoAnnotationView *self,
            const char         *title,
            Column              column,
            GtkSorter          *sorter,
            gboolean            expand)
{
  GtkColumnViewColumn *col;

  col = kymo_label_column_append (GTK_COLUMN_VIEW (self->column_view), title, column,
                                  column == COLUMN_TIME ? KYMO_LABEL_COLUMN_NUMERIC : KYMO_LABEL_COLUMN_TEXT,
                                  PANGO_ELLIPSIZE_END, sorter, expand, G_CALLBACK (cell_bind));
  g_object_set_data (G_OBJECT (gtk_column_view_column_get_factory (col)), "view", self);
  return col;
}

static GtkSorter *
string_sorter (const char *property)
{
  return GTK_SORTER (gtk_string_sorter_new (gtk_property_expression_new (KYMO_TYPE_ANNOTATION_ITEM, NULL, property)));
}

static void
kymo_annotation_view_constructed (GObject *object)
{
  KymoAnnotationView *self = (KymoAnnotationView *) object;
  g_autoptr(GListStore) store = NULL;
  GtkFilterListModel *filtered;
  GtkColumnViewColumn *time;

  G_OBJECT_CLASS (kymo_annotation_view_parent_class)->constructed (object);

  store = collect (self->session);
  self->n_total = g_list_model_get_n_items (G_LIST_MODEL (store));

  self->filter = gtk_string_filter_new (gtk_property_expression_new (KYMO_TYPE_ANNOTATION_ITEM, NULL, "search"));
  gtk_string_filter_set_ignore_case (self->filter, TRUE);
  gtk_string_filter_set_match_mode (self->filter, GTK_STRING_FILTER_MATCH_MODE_SUBSTRING);
  filtered = gtk_filter_list_model_new (G_LIST_MODEL (g_steal_pointer (&store)),
                                        GTK_FILTER (g_object_ref (self->filter)));

  time = add_column (self, _("Time"), COLUMN_TIME,
                     GTK_SORTER (gtk_numeric_sorter_new (gtk_property_expression_new (KYMO_TYPE_ANNOTATION_ITEM, NULL, "start"))),
                     FALSE);
  add_column (self, _("Kind"), COLUMN_KIND, string_sorter ("kind"), FALSE);
  add_column (self, _("Text"), COLUMN_TEXT, string_sorter ("text"), TRUE);
  add_column (self, _("Source"), COLUMN_SOURCE, string_sorter ("source"), FALSE);

  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (filtered),
                                          g_object_ref (gtk_column_view_get_sorter (GTK_COLUMN_VIEW (self->column_view))));
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  gtk_column_view_set_model (GTK_COLUMN_VIEW (self->column_view), GTK_SELECTION_MODEL (self->selection));
  gtk_column_view_sort_by_column (GTK_COLUMN_VIEW (self->column_view), time, GTK_SORT_ASCENDING);

  g_signal_connect_swapped (self->sorted, "items-changed", G_CALLBACK (update_count), self);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), self->n_total > 0 ? "list" : "empty");
  gtk_widget_set_sensitive (self->search, self->n_total > 0);
  update_count (self);
}

static void
kymo_annotation_view_dispose (GObject *object)
{
  KymoAnnotationView *self = (KymoAnnotationView *) object;
  GtkWidget *child;

  /* Removing the columns resorts the model: nothing may answer that now. */
  if (self->sorted)
    g_signal_handlers_disconnect_by_data (self->sorted, self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->selection);
  g_clear_object (&self->sorted);
  g_clear_object (&self->filter);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_annotation_view_parent_class)->dispose (object);
}

static void
kymo_annotation_view_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  KymoAnnotationView *self = KYMO_ANNOTATION_VIEW (object);

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
kymo_annotation_view_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  KymoAnnotationView *self = KYMO_ANNOTATION_VIEW (object);

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
kymo_annotation_view_class_init (KymoAnnotationViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_annotation_view_constructed;
  object_class->dispose = kymo_annotation_view_dispose;
  object_class->get_property = kymo_annotation_view_get_property;
  object_class->set_property = kymo_annotation_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-annotation-view");
}

static void
kymo_annotation_view_init (KymoAnnotationView *self)
{
  GtkWidget *bar, *scroller, *empty;

  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);
  self->search = gtk_search_entry_new ();
  g_object_set (self->search, "placeholder-text", _("Filter annotations"), NULL);
  gtk_widget_set_hexpand (self->search, TRUE);
  g_signal_connect (self->search, "search-changed", G_CALLBACK (on_search_changed), self);
  self->count = gtk_label_new (NULL);
  gtk_widget_add_css_class (self->count, "dim-label");
  gtk_widget_add_css_class (self->count, "numeric");
  gtk_box_append (GTK_BOX (bar), self->search);
  gtk_box_append (GTK_BOX (bar), self->count);
  gtk_widget_set_parent (bar, GTK_WIDGET (self));

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  empty = _kymo_details_empty_state_new ("view-list-symbolic", _("No Annotations"),
                                         _("This trace has no annotations, markers or load warnings"));
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");

  self->column_view = gtk_column_view_new (NULL);
  gtk_column_view_set_show_column_separators (GTK_COLUMN_VIEW (self->column_view), FALSE);
  gtk_widget_add_css_class (self->column_view, "data-table");
  g_signal_connect (self->column_view, "activate", G_CALLBACK (on_activate), self);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), self->column_view);
  gtk_stack_add_named (GTK_STACK (self->stack), scroller, "list");
  gtk_widget_set_parent (self->stack, GTK_WIDGET (self));
}

GtkWidget *
kymo_annotation_view_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_ANNOTATION_VIEW, "session", session, NULL);
}

GListModel *
kymo_annotation_view_get_model (KymoAnnotationView *self)
{
  g_return_val_if_fail (KYMO_IS_ANNOTATION_VIEW (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

void
kymo_annotation_view_set_filter_text (KymoAnnotationView *self,
                                      const char         *text)
{
  g_return_if_fail (KYMO_IS_ANNOTATION_VIEW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search), text ? text : "");
  /* The entry delays search-changed; the caller expects the filter now. */
  gtk_string_filter_set_search (self->filter, text);
}
