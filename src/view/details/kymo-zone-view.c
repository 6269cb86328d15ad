/* kymo-zone-view.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include <adwaita.h>

#include "kymo-zone-view.h"
#include "kymo-details-private.h"
#include "kymo-timeline-renderer.h"

typedef struct {
  guint64  events;
  guint64  spans;
  guint    tracks;
  KymoTime start;
  KymoTime end;
} Totals;

struct _KymoZoneView
{
  GtkWidget    parent_instance;

  KymoSession *session;
  GtkWidget   *stack;
  GtkWidget   *list;
  guint        n_groups;
};

G_DEFINE_FINAL_TYPE (KymoZoneView, kymo_zone_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
totals_add_track (Totals          *totals,
                  const KymoTrack *track)
{
  gsize n_spans = 0;

  if (kymo_track_get_kind (track) != KYMO_TRACK_GROUP)
    totals->tracks++;
  totals->events += kymo_track_get_n_events (track);
  kymo_track_get_spans (track, &n_spans);
  totals->spans += n_spans;
  if (kymo_track_get_start (track) != KYMO_TIME_NONE &&
      (totals->start == KYMO_TIME_NONE || kymo_track_get_start (track) < totals->start))
    totals->start = kymo_track_get_start (track);
  if (kymo_track_get_end (track) != KYMO_TIME_NONE &&
      (totals->end == KYMO_TIME_NONE || kymo_track_get_end (track) > totals->end))
    totals->end = kymo_track_get_end (track);
}

/* Iterative so a deep hostile tree cannot blow the stack. */
static void
compute_totals (KymoTrace *trace,
                guint      root,
                Totals    *totals)
{
  g_autoptr(GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));

  totals->events = totals->spans = 0;
  totals->tracks = 0;
  totals->start = totals->end = KYMO_TIME_NONE;
  g_array_append_val (todo, root);
  while (todo->len > 0)
    {
      guint id = g_array_index (todo, guint, todo->len - 1);
      const KymoTrack *track = kymo_trace_get_track (trace, id);
      const guint *children;
      guint n_children = 0;

      g_array_set_size (todo, todo->len - 1);
      totals_add_track (totals, track);
      children = kymo_track_get_children (track, &n_children);
      g_array_append_vals (todo, children, n_children);
    }
}

static char *
totals_to_string (const Totals *totals,
                  gboolean      with_tracks)
{
  g_autofree char *span = NULL;
  GString *out = g_string_new (NULL);

  if (with_tracks)
    {
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%u track", "%u tracks", totals->tracks),
                              totals->tracks);
      g_string_append (out, " · ");
    }
  {
    g_autofree char *events = g_strdup_printf ("%" G_GUINT64_FORMAT, totals->events);

    /* Translators: %s is a number */
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s event", "%s events", totals->events), events);
  }
  if (totals->spans > 0)
    {
      g_autofree char *spans = g_strdup_printf ("%" G_GUINT64_FORMAT, totals->spans);

      g_string_append (out, " · ");
      /* Translators: %s is a number */
      g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s span", "%s spans", totals->spans), spans);
    }
  if (totals->start != KYMO_TIME_NONE && totals->end != KYMO_TIME_NONE)
    {
      span = _kymo_details_format_duration (totals->end - totals->start);
      g_string_append_printf (out, " · %s", span);
    }
  return g_string_free (out, FALSE);
}

void
kymo_zone_view_activate (KymoZoneView *self,
                         guint         track)
{
  KymoTrace *trace;
  const KymoTrack *t;
  Totals totals;

  g_return_if_fail (KYMO_IS_ZONE_VIEW (self));

  trace = kymo_session_get_trace (self->session);
  g_return_if_fail (track < kymo_trace_get_n_tracks (trace));

  t = kymo_trace_get_track (trace, track);
  if (kymo_track_get_kind (t) == KYMO_TRACK_GROUP)
    {
      const guint *children;
      guint n_children = 0;

      kymo_session_set_group_collapsed (self->session, track, FALSE);
      children = kymo_track_get_children (t, &n_children);
      for (guint i = 0; i < n_children; i++)
        kymo_session_set_track_visible (self->session, children[i], TRUE);
    }
  kymo_session_reveal_track (self->session, track);

  compute_totals (trace, track, &totals);
  if (totals.start != KYMO_TIME_NONE)
    _kymo_details_zoom_to (self->session, totals.start, totals.end);
}

static void
on_show_clicked (GtkWidget    *button,
                 KymoZoneView *self)
{
  kymo_zone_view_activate (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "track")));
}

static void
on_track_row_activated (AdwActionRow *row,
                        KymoZoneView *self)
{
  kymo_zone_view_activate (self, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (row), "track")));
}

/* Track rows are made on first expansion: a group may hold thousands. */
static void
on_expanded (AdwExpanderRow *expander,
             GParamSpec     *pspec,
             KymoZoneView   *self)
{
  KymoTrace *trace = kymo_session_get_trace (self->session);
  guint group = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (expander), "track"));
  const guint *children;
  guint n_children = 0;

  if (!adw_expander_row_get_expanded (expander) ||
      g_object_get_data (G_OBJECT (expander), "filled"))
    return;
  g_object_set_data (G_OBJECT (expander), "filled", GINT_TO_POINTER (TRUE));

  children = kymo_track_get_children (kymo_trace_get_track (trace, group), &n_children);
  for (guint i = 0; i < n_children; i++)
    {
      const KymoTrack *child = kymo_trace_get_track (trace, children[i]);
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *subtitle = NULL;
      g_autofree char *totals_text = NULL;
      Totals totals;

      compute_totals (trace, children[i], &totals);
      totals_text = totals_to_string (&totals, kymo_track_get_kind (child) == KYMO_TRACK_GROUP);
      subtitle = g_strdup_printf ("%s · %s", kymo_timeline_kind_label (kymo_track_kind_to_string (kymo_track_get_kind (child))), totals_text);
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), kymo_track_get_name (child));
      adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data (G_OBJECT (row), "track", GUINT_TO_POINTER (children[i]));
      g_signal_connect (row, "activated", G_CALLBACK (on_track_row_activated), self);
      adw_expander_row_add_row (expander, row);
    }
}

static void
add_group (KymoZoneView *self,
           guint         id)
{
  KymoTrace *trace = kymo_session_get_trace (self->session);
  const KymoTrack *track = kymo_trace_get_track (trace, id);
  const char *kind = kymo_track_get_group_kind (track);
  g_autofree char *totals_text = NULL;
  g_autofree char *subtitle = NULL;
  GtkWidget *expander = adw_expander_row_new ();
  GtkWidget *show = gtk_button_new_from_icon_name ("zoom-fit-best-symbolic");
  Totals totals;

  compute_totals (trace, id, &totals);
  totals_text = totals_to_string (&totals, TRUE);
  if (totals.start != KYMO_TIME_NONE)
    {
      g_autofree char *from = _kymo_details_format_time (self->session, totals.start);
      g_autofree char *to = _kymo_details_format_time (self->session, totals.end);
      subtitle = g_strdup_printf ("%s · %s\n%s – %s", kymo_timeline_kind_label (kind ? kind : "group"), totals_text, from, to);
    }
  else
    subtitle = g_strdup_printf ("%s · %s", kymo_timeline_kind_label (kind ? kind : "group"), totals_text);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (expander), kymo_track_get_name (track));
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (expander), FALSE);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (expander), subtitle);
  g_object_set_data (G_OBJECT (expander), "track", GUINT_TO_POINTER (id));
  g_signal_connect (expander, "notify::expanded", G_CALLBACK (on_expanded), self);

  gtk_widget_set_valign (show, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (show, "flat");
  gtk_widget_set_tooltip_text (show, _("Show in Timeline"));
  g_object_set_data (G_OBJECT (show), "track", GUINT_TO_POINTER (id));
  g_signal_connect (show, "clicked", G_CALLBACK (on_show_clicked), self);
  adw_expander_row_add_action (ADW_EXPANDER_ROW (expander), show);

  gtk_list_box_append (GTK_LIST_BOX (self->list), expander);
  self->n_groups++;
}

static void
populate (KymoZoneView *self)
{
  KymoTrace *trace = kymo_session_get_trace (self->session);
  g_autoptr(GArray) todo = g_array_new (FALSE, FALSE, sizeof (guint));
  const guint *roots;
  guint n_roots = 0;

  /* Depth first in display order, so nested groups follow their parent. */
  roots = kymo_trace_get_root_tracks (trace, &n_roots);
  for (guint i = n_roots; i > 0; i--)
    g_array_append_val (todo, roots[i - 1]);
  while (todo->len > 0)
    {
      guint id = g_array_index (todo, guint, todo->len - 1);
      const KymoTrack *track = kymo_trace_get_track (trace, id);
      const guint *children;
      guint n_children = 0;

      g_array_set_size (todo, todo->len - 1);
      if (kymo_track_get_kind (track) != KYMO_TRACK_GROUP)
        continue;
      add_group (self, id);
      children = kymo_track_get_children (track, &n_children);
      for (guint i = n_children; i > 0; i--)
        g_array_append_val (todo, children[i - 1]);
    }
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), self->n_groups > 0 ? "list" : "empty");
}

static void
kymo_zone_view_constructed (GObject *object)
{
  KymoZoneView *self = (KymoZoneView *) object;

  G_OBJECT_CLASS (kymo_zone_view_parent_class)->constructed (object);
  populate (self);
}

static void
kymo_zone_view_dispose (GObject *object)
{
  KymoZoneView *self = (KymoZoneView *) object;

  g_clear_pointer (&self->stack, gtk_widget_unparent);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_zone_view_parent_class)->dispose (object);
}

static void
kymo_zone_view_get_property (GObject    *object,
                             guint       prop_id,
                             GValue     *value,
                             GParamSpec *pspec)
{
  KymoZoneView *self = KYMO_ZONE_VIEW (object);

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
kymo_zone_view_set_property (GObject      *object,
                             guint         prop_id,
                             const GValue *value,
                             GParamSpec   *pspec)
{
  KymoZoneView *self = KYMO_ZONE_VIEW (object);

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
kymo_zone_view_class_init (KymoZoneViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_zone_view_constructed;
  object_class->dispose = kymo_zone_view_dispose;
  object_class->get_property = kymo_zone_view_get_property;
  object_class->set_property = kymo_zone_view_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-zone-view");
}

static void
kymo_zone_view_init (KymoZoneView *self)
{
  GtkWidget *scroller, *clamp, *empty;

  self->stack = gtk_stack_new ();
  gtk_widget_set_parent (self->stack, GTK_WIDGET (self));

  empty = _kymo_details_empty_state_new ("view-list-symbolic", _("No Groups"),
                                         _("This trace has no processes, zones, cores or runtimes"));
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");

  self->list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->list, "boxed-list");
  gtk_widget_set_valign (self->list, GTK_ALIGN_START);
  clamp = adw_clamp_new ();
  adw_clamp_set_maximum_size (ADW_CLAMP (clamp), 720);
  gtk_widget_set_margin_start (clamp, 12);
  gtk_widget_set_margin_end (clamp, 12);
  gtk_widget_set_margin_top (clamp, 12);
  gtk_widget_set_margin_bottom (clamp, 12);
  adw_clamp_set_child (ADW_CLAMP (clamp), self->list);
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), clamp);
  gtk_stack_add_named (GTK_STACK (self->stack), scroller, "list");
}

GtkWidget *
kymo_zone_view_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_ZONE_VIEW, "session", session, NULL);
}

guint
kymo_zone_view_get_n_groups (KymoZoneView *self)
{
  g_return_val_if_fail (KYMO_IS_ZONE_VIEW (self), 0);

  return self->n_groups;
}
