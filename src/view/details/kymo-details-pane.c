/* kymo-details-pane.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include <adwaita.h>

#include "kymo-details-pane.h"
#include "kymo-details-pane-private.h"
#include "dial9/kymo-dial9-poll-stacks.h"
#include "dial9/kymo-dial9-worker-cpu.h"
#include "kymo-details-private.h"
#include "kymo-event-item.h"
#include "kymo-instant-list-model.h"
#include "atf/kymo-atf.h"

G_DEFINE_FINAL_TYPE (KymoDetailsPane, kymo_details_pane, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------ helpers */

gboolean
_kymo_details_pane_is_detail_track (KymoTrace *trace,
                                    guint      track)
{
  KymoTrack *t;

  if (track >= kymo_trace_get_n_tracks (trace))
    return FALSE;
  t = kymo_trace_get_track (trace, track);
  return kymo_track_get_kind (t) == KYMO_TRACK_INSTANT &&
         g_strcmp0 (kymo_track_get_name (t), KYMO_ATF_DETAIL_TRACK_NAME) == 0;
}

/* "Process 1 › Thread 0" */
static char *
track_path (KymoTrace *trace,
            guint      track)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GString *out = g_string_new (NULL);

  for (guint id = track; id != KYMO_NO_TRACK && id < kymo_trace_get_n_tracks (trace);
       id = kymo_track_get_parent (kymo_trace_get_track (trace, id)))
    g_ptr_array_add (names, (gpointer) kymo_track_get_name (kymo_trace_get_track (trace, id)));
  for (guint i = names->len; i > 0; i--)
    {
      if (out->len > 0)
        g_string_append (out, " › ");
      g_string_append (out, g_ptr_array_index (names, i - 1));
    }
  return g_string_free (out, FALSE);
}

char *
_kymo_details_pane_flags_to_string (guint flags)
{
  static const struct { guint flag; const char *name; } names[] = {
    { KYMO_EVENT_INCOMPLETE, N_("incomplete") },
    { KYMO_EVENT_OVERHEAD, N_("overhead") },
    { KYMO_EVENT_INTERNAL, N_("internal") },
    { KYMO_EVENT_LINKED, N_("linked") },
    { KYMO_EVENT_WARNING, N_("warning") },
    { KYMO_EVENT_STATE, N_("state") },
    { KYMO_EVENT_USER1, N_("user1") },
    { KYMO_EVENT_USER2, N_("user2") },
  };
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (flags & names[i].flag)
      {
        if (out->len > 0)
          g_string_append (out, ", ");
        g_string_append (out, _(names[i].name));
      }
  return g_string_free (out, FALSE);
}
/* ------------------------------------------------------------ links */

static gboolean
current_link (KymoDetailsPane *self,
              KymoEventRef    *to)
{
  if (!self->has_current)
    return FALSE;
  return kymo_trace_follow_link (get_trace (self), &self->current, to);
}

static void
update_link_button (KymoDetailsPane *self)
{
  KymoEventRef to;

  if (!current_link (self, &to))
    {
      gtk_widget_set_visible (self->link_button, FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "event.follow-link", FALSE);
      return;
    }
  gtk_button_set_label (GTK_BUTTON (self->link_button),
                        _kymo_details_pane_is_detail_track (get_trace (self), to.track)
                        ? _("Go to Detail Event") : _("Go to Index Event"));
  gtk_widget_set_visible (self->link_button, TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "event.follow-link", TRUE);
}

gboolean
kymo_details_pane_follow_link (KymoDetailsPane *self)
{
  KymoEventRef to;

  g_return_val_if_fail (KYMO_IS_DETAILS_PANE (self), FALSE);

  if (!current_link (self, &to))
    return FALSE;
  kymo_session_select_event (self->session, &to);
  return TRUE;
}

/* ------------------------------------------------------------ rebuild */

static void
clear_content (KymoDetailsPane *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->content)))
    gtk_box_remove (GTK_BOX (self->content), child);
}

static void
rebuild (KymoDetailsPane *self)
{
  KymoTrace *trace = get_trace (self);
  const KymoTrack *track;
  g_autofree char *path = NULL;
  const char *name = NULL;
  GtkWidget *grid;
  int row = 0;
  gsize n;

  clear_content (self);
  g_clear_pointer (&self->args, json_object_unref);

  if (!self->has_current)
    {
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "empty");
      /* The empty state says it: a second "No Event Selected" above it
       * only takes room from a short pane. */
      gtk_widget_set_visible (self->header, FALSE);
      gtk_label_set_text (GTK_LABEL (self->title), "");
      gtk_label_set_text (GTK_LABEL (self->subtitle), "");
      gtk_widget_set_sensitive (self->copy_button, FALSE);
      update_link_button (self);
      return;
    }

  track = kymo_trace_get_track (trace, self->current.track);
  self->args = kymo_trace_describe_event (trace, &self->current);
  path = track_path (trace, self->current.track);
  grid = _kymo_details_pane_new_grid ();
  gtk_widget_set_name (grid, "event");
  gtk_box_append (GTK_BOX (self->content), grid);
  _kymo_details_pane_grid_add (grid, &row, _("Track"), path, 0, FALSE);

  switch (self->current.kind)
    {
    case KYMO_EVENT_KIND_SPAN:
      {
        const KymoSpan *span = &kymo_track_get_spans (track, &n)[self->current.index];
        name = kymo_trace_get_name (trace, kymo_span_name (span));
        _kymo_details_pane_grid_add (grid, &row, _("Name"), name, 0, FALSE);
        _kymo_details_pane_add_span (self, grid, &row, track);
      }
      break;

    case KYMO_EVENT_KIND_INSTANT:
      {
        const KymoInstant *instant = &kymo_track_get_instants (track, &n)[self->current.index];
        g_autofree char *ts = _kymo_details_format_time (self->session, instant->ts);
        g_autofree char *flags = _kymo_details_pane_flags_to_string (instant->name_flags >> 24);

        name = kymo_trace_get_name (trace, instant->name_flags & KYMO_NAME_MAX);
        _kymo_details_pane_grid_add (grid, &row, _("Name"), name, 0, FALSE);
        _kymo_details_pane_grid_add (grid, &row, _("Time"), ts, 0, FALSE);
        if (*flags)
          _kymo_details_pane_grid_add (grid, &row, _("Flags"), flags, 0, FALSE);
        _kymo_details_pane_add_point_parents (self, track, instant->ts);
      }
      break;

    case KYMO_EVENT_KIND_SAMPLE:
      {
        const KymoSample *sample = &kymo_track_get_samples (track, &n)[self->current.index];
        g_autofree char *ts = _kymo_details_format_time (self->session, sample->ts);
        const char *unit = kymo_track_get_unit (track);
        g_autofree char *value = g_strdup_printf ("%.17g%s%s", sample->value, unit ? " " : "", unit ? unit : "");

        name = kymo_track_get_name (track);
        _kymo_details_pane_grid_add (grid, &row, _("Time"), ts, 0, FALSE);
        _kymo_details_pane_grid_add (grid, &row, _("Value"), value, 0, FALSE);
      }
      break;

    case KYMO_EVENT_KIND_ANNOTATION:
      {
        const KymoAnnotation *annotation = &kymo_track_get_annotations (track, &n)[self->current.index];
        g_autofree char *start = _kymo_details_format_time (self->session, annotation->start);

        name = kymo_trace_get_name (trace, annotation->name);
        _kymo_details_pane_grid_add (grid, &row, _("Name"), name, 0, FALSE);
        _kymo_details_pane_grid_add (grid, &row, annotation->end > annotation->start ? _("Start") : _("Time"), start,
                                     0, FALSE);
        if (annotation->end > annotation->start)
          {
            g_autofree char *end = _kymo_details_format_time (self->session, annotation->end);
            g_autofree char *dur = _kymo_details_format_duration (annotation->end - annotation->start);
            _kymo_details_pane_grid_add (grid, &row, _("End"), end, 0, FALSE);
            _kymo_details_pane_grid_add (grid, &row, _("Duration"), dur, 0, FALSE);
          }
        if (annotation->text && *annotation->text)
          _kymo_details_pane_grid_add (grid, &row, _("Text"), annotation->text, 0, FALSE);
      }
      break;

    case KYMO_EVENT_KIND_NONE:
    default:
      g_assert_not_reached ();
    }

  _kymo_details_pane_add_registers (self, "regs", _("Registers"));
  _kymo_details_pane_add_stack (self, "stack", _("Stack"));
  _kymo_details_pane_add_registers (self, "return_regs", _("Registers at Return"));
  _kymo_details_pane_add_stack (self, "return_stack", _("Stack at Return"));
  _kymo_details_pane_add_arguments (self);
  _kymo_dial9_add_poll_stacks (self->session, GTK_BOX (self->content), &self->current);
  _kymo_dial9_add_active_period (self->session, GTK_BOX (self->content), &self->current);

  gtk_label_set_text (GTK_LABEL (self->title), name && *name ? name : _("(unnamed)"));
  gtk_label_set_text (GTK_LABEL (self->subtitle), kymo_track_get_name (track));
  gtk_widget_set_visible (self->header, TRUE);
  gtk_widget_set_sensitive (self->copy_button, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "event");
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller)), 0);
  update_link_button (self);
}

static void
on_selected_event_changed (KymoDetailsPane *self)
{
  const KymoEventRef *ref = kymo_session_get_selected_event (self->session);

  if (ref == NULL)
    self->has_current = FALSE;
  else
    {
      if (self->has_current && ref_equal (ref, &self->current))
        return;
      self->has_current = TRUE;
      self->current = *ref;
    }
  rebuild (self);
  _kymo_details_pane_sync_records (self);
}

/* ------------------------------------------------------------ JSON */

char *
kymo_details_pane_dup_event_json (KymoDetailsPane *self)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;
  KymoTrace *trace;
  const KymoTrack *track;
  g_autofree char *path = NULL;
  KymoTime start, end;
  static const char * const kinds[] = { "none", "span", "instant", "sample", "annotation" };

  g_return_val_if_fail (KYMO_IS_DETAILS_PANE (self), NULL);

  if (!self->has_current ||
      !kymo_session_get_event_extent (self->session, &self->current, &start, &end))
    return NULL;
  trace = get_trace (self);
  track = kymo_trace_get_track (trace, self->current.track);
  path = track_path (trace, self->current.track);

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, kinds[self->current.kind]);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, gtk_label_get_text (GTK_LABEL (self->title)));
  json_builder_set_member_name (builder, "track");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "start_ns");
  json_builder_add_int_value (builder, start);
  if (end != start || self->current.kind == KYMO_EVENT_KIND_SPAN)
    {
      json_builder_set_member_name (builder, "end_ns");
      json_builder_add_int_value (builder, end);
      json_builder_set_member_name (builder, "duration_ns");
      json_builder_add_int_value (builder, end - start);
    }
  if (self->current.kind == KYMO_EVENT_KIND_SPAN)
    {
      json_builder_set_member_name (builder, "depth");
      json_builder_add_int_value (builder, kymo_track_get_span_depth (track, self->current.index));
    }
  if (self->current.kind == KYMO_EVENT_KIND_SAMPLE)
    {
      gsize n;
      json_builder_set_member_name (builder, "value");
      json_builder_add_double_value (builder, kymo_track_get_samples (track, &n)[self->current.index].value);
    }
  if (self->args)
    {
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, self->args);
      json_builder_set_member_name (builder, "args");
      json_builder_add_value (builder, node);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/* ------------------------------------------------------------ actions */

static void
copy_value_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  _kymo_details_copy_text (widget, g_variant_get_string (parameter, NULL));
}

static void
copy_json_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  g_autofree char *json = kymo_details_pane_dup_event_json (KYMO_DETAILS_PANE (widget));

  if (json)
    _kymo_details_copy_text (widget, json);
}

static void
follow_link_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  kymo_details_pane_follow_link (KYMO_DETAILS_PANE (widget));
}

/* ------------------------------------------------------------ GObject */

static void
kymo_details_pane_constructed (GObject *object)
{
  KymoDetailsPane *self = (KymoDetailsPane *) object;

  G_OBJECT_CLASS (kymo_details_pane_parent_class)->constructed (object);

  g_signal_group_set_target (self->session_signals, self->session);
  on_selected_event_changed (self);
}

static void
kymo_details_pane_dispose (GObject *object)
{
  KymoDetailsPane *self = (KymoDetailsPane *) object;
  GtkWidget *child;

  if (self->session_signals)
    g_signal_group_set_target (self->session_signals, NULL);
  if (self->records_selection)
    g_signal_handlers_disconnect_by_data (self->records_selection, self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->records_selection);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  g_clear_pointer (&self->args, json_object_unref);
  G_OBJECT_CLASS (kymo_details_pane_parent_class)->dispose (object);
}

static void
kymo_details_pane_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  KymoDetailsPane *self = KYMO_DETAILS_PANE (object);

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
kymo_details_pane_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  KymoDetailsPane *self = KYMO_DETAILS_PANE (object);

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
kymo_details_pane_class_init (KymoDetailsPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_details_pane_constructed;
  object_class->dispose = kymo_details_pane_dispose;
  object_class->get_property = kymo_details_pane_get_property;
  object_class->set_property = kymo_details_pane_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "event.copy-value", "s", copy_value_action);
  gtk_widget_class_install_action (widget_class, "event.copy-json", NULL, copy_json_action);
  gtk_widget_class_install_action (widget_class, "event.follow-link", NULL, follow_link_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-details-pane");
}

static void
kymo_details_pane_init (KymoDetailsPane *self)
{
  GtkWidget *header, *titles, *empty, *records_scroller;
  g_autoptr(GtkListItemFactory) factory = NULL;

  self->records_track = KYMO_NO_TRACK;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 12);
  gtk_widget_set_margin_top (header, 8);
  gtk_widget_set_margin_bottom (header, 4);
  titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_hexpand (titles, TRUE);
  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->title), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (self->title), TRUE);
  gtk_widget_set_focusable (self->title, FALSE);
  gtk_widget_add_css_class (self->title, "title-4");
  self->subtitle = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->subtitle, "dim-label");
  gtk_box_append (GTK_BOX (titles), self->title);
  gtk_box_append (GTK_BOX (titles), self->subtitle);
  self->link_button = gtk_button_new_with_label (_("Go to Detail Event"));
  gtk_widget_set_valign (self->link_button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->link_button), "event.follow-link");
  gtk_widget_set_tooltip_text (self->link_button, _("Jump across the link (J)"));
  self->copy_button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  gtk_widget_set_valign (self->copy_button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->copy_button), "event.copy-json");
  gtk_widget_set_tooltip_text (self->copy_button, _("Copy Event as JSON"));
  gtk_box_append (GTK_BOX (header), titles);
  gtk_box_append (GTK_BOX (header), self->link_button);
  gtk_box_append (GTK_BOX (header), self->copy_button);
  gtk_widget_set_parent (header, GTK_WIDGET (self));
  self->header = header;
  gtk_widget_set_visible (header, FALSE);

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  empty = _kymo_details_empty_state_new ("input-mouse-symbolic", _("No Event Selected"),
                                         _("Click an event in the timeline to see its details"));
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  self->content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_margin_start (self->content, 12);
  gtk_widget_set_margin_end (self->content, 12);
  gtk_widget_set_margin_bottom (self->content, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->content);
  gtk_stack_add_named (GTK_STACK (self->stack), self->scroller, "event");

  /* The fields and the thread's detail records share a short pane: a split
   * the user can move, each side scrolling on its own. */
  self->split = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_vexpand (self->split, TRUE);
  gtk_paned_set_wide_handle (GTK_PANED (self->split), TRUE);
  gtk_paned_set_start_child (GTK_PANED (self->split), self->stack);
  gtk_paned_set_resize_start_child (GTK_PANED (self->split), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->split), FALSE);
  gtk_widget_set_size_request (self->stack, -1, 48);
  gtk_widget_set_parent (self->split, GTK_WIDGET (self));

  self->records_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_visible (self->records_box, FALSE);
  self->records_title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->records_title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->records_title), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->records_title, "heading");
  gtk_widget_set_margin_start (self->records_title, 12);
  gtk_widget_set_margin_top (self->records_title, 6);
  gtk_widget_set_margin_bottom (self->records_title, 6);
  gtk_box_append (GTK_BOX (self->records_box), self->records_title);
  self->records_selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->records_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->records_selection, TRUE);
  g_signal_connect (self->records_selection, "selection-changed",
                    G_CALLBACK (_kymo_details_pane_on_record_selected), self);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (_kymo_details_pane_records_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (_kymo_details_pane_records_bind), self);
  self->records_view = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->records_selection)),
                                          g_steal_pointer (&factory));
  records_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (records_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (records_scroller, TRUE);
  gtk_widget_set_size_request (records_scroller, -1, 48);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (records_scroller), self->records_view);
  gtk_box_append (GTK_BOX (self->records_box), records_scroller);
  gtk_paned_set_end_child (GTK_PANED (self->split), self->records_box);
  gtk_paned_set_resize_end_child (GTK_PANED (self->split), TRUE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->split), FALSE);

  self->session_signals = g_signal_group_new (KYMO_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-event",
                                  G_CALLBACK (on_selected_event_changed), self);
}

GtkWidget *
kymo_details_pane_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_DETAILS_PANE, "session", session, NULL);
}

KymoSession *
kymo_details_pane_get_session (KymoDetailsPane *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_PANE (self), NULL);

  return self->session;
}
