/* kymo-details-pane-records.c: the detail records of the selected event's thread, beside its fields
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-details-pane-private.h"
#include "kymo-event-item.h"
#include "kymo-instant-list-model.h"
#include "atf/kymo-atf.h"

void
_kymo_details_pane_records_setup (GtkSignalListItemFactory *factory,
                                  GtkListItem              *list_item,
                                  gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *time = gtk_label_new (NULL);
  GtkWidget *name = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (time), 1);
  gtk_label_set_width_chars (GTK_LABEL (time), 12);
  gtk_widget_add_css_class (time, "dim-label");
  gtk_widget_add_css_class (time, "numeric");
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_widget_set_margin_end (box, 12);
  gtk_box_append (GTK_BOX (box), time);
  gtk_box_append (GTK_BOX (box), name);
  gtk_list_item_set_child (list_item, box);
}

void
_kymo_details_pane_records_bind (GtkSignalListItemFactory *factory,
                                 GtkListItem              *list_item,
                                 KymoDetailsPane          *self)
{
  KymoEventItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *time = gtk_widget_get_first_child (box);
  GtkWidget *name = gtk_widget_get_next_sibling (time);
  g_autofree char *time_text = _kymo_details_format_time (self->session, kymo_event_item_get_start (item));
  g_autofree char *name_text = NULL;

  name_text = g_strdup_printf ("%s%s", kymo_event_item_get_name (item),
                               (kymo_event_item_get_flags (item) & KYMO_EVENT_LINKED) ? "" : _("  (unlinked)"));
  gtk_label_set_text (GTK_LABEL (time), time_text);
  gtk_label_set_text (GTK_LABEL (name), name_text);
}

void
_kymo_details_pane_on_record_selected (GtkSingleSelection *selection,
                                       guint               position,
                                       guint               n_items,
                                       KymoDetailsPane    *self)
{
  guint selected = gtk_single_selection_get_selected (selection);
  KymoEventRef from = { self->records_track, KYMO_EVENT_KIND_INSTANT, selected }, to;

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;
  /* Selecting a record selects the call it belongs to; an unlinked record
   * selects itself. */
  self->syncing = TRUE;
  if (kymo_trace_follow_link (get_trace (self), &from, &to))
    kymo_session_select_event (self->session, &to);
  else
    kymo_session_select_event (self->session, &from);
  self->syncing = FALSE;
}

static void
set_records_track (KymoDetailsPane *self,
                   guint            track,
                   guint            thread)
{
  g_autoptr(KymoInstantListModel) model = NULL;
  g_autofree char *title = NULL;
  gsize n;

  if (track == self->records_track)
    return;
  self->records_track = track;
  self->syncing = TRUE;
  if (track == KYMO_NO_TRACK)
    {
      gtk_single_selection_set_model (self->records_selection, NULL);
      gtk_widget_set_visible (self->records_box, FALSE);
      self->syncing = FALSE;
      return;
    }
  model = kymo_instant_list_model_new (get_trace (self), track);
  gtk_single_selection_set_model (self->records_selection, G_LIST_MODEL (model));
  gtk_single_selection_set_selected (self->records_selection, GTK_INVALID_LIST_POSITION);
  kymo_track_get_instants (kymo_trace_get_track (get_trace (self), track), &n);
  /* Translators: %s is a thread name, %zu the number of records */
  title = g_strdup_printf (_("Detail Records of %s (%zu)"),
                           kymo_track_get_name (kymo_trace_get_track (get_trace (self), thread)), n);
  gtk_label_set_text (GTK_LABEL (self->records_title), title);
  gtk_widget_set_visible (self->records_box, TRUE);
  self->syncing = FALSE;
}

/* Shows the records of the selected event's thread with the linked one selected. */
void
_kymo_details_pane_sync_records (KymoDetailsPane *self)
{
  KymoTrace *trace = get_trace (self);
  guint thread = KYMO_NO_TRACK, records = KYMO_NO_TRACK;
  guint want = GTK_INVALID_LIST_POSITION;
  guint selected;
  KymoEventRef to;

  if (self->has_current)
    {
      if (_kymo_details_pane_is_detail_track (trace, self->current.track))
        {
          thread = kymo_track_get_parent (kymo_trace_get_track (trace, self->current.track));
          records = self->current.track;
        }
      else
        {
          thread = self->current.track;
          records = _kymo_details_find_child_track (trace, thread, KYMO_ATF_DETAIL_TRACK_NAME);
        }
      if (records != KYMO_NO_TRACK &&
          kymo_track_get_kind (kymo_trace_get_track (trace, records)) != KYMO_TRACK_INSTANT)
        records = KYMO_NO_TRACK;
    }
  /* Keep the list while nothing is selected, so a click in it is not lost. */
  if (!self->has_current)
    return;
  set_records_track (self, records, thread);
  if (records == KYMO_NO_TRACK)
    return;

  selected = gtk_single_selection_get_selected (self->records_selection);
  if (self->current.track == records && self->current.kind == KYMO_EVENT_KIND_INSTANT)
    want = self->current.index;
  else
    {
      KymoEventRef from = { records, KYMO_EVENT_KIND_INSTANT, selected };

      /* A span has a CALL and maybe a RETURN record: keep whichever is
       * selected when it leads to this span. */
      if (selected != GTK_INVALID_LIST_POSITION &&
          kymo_trace_follow_link (trace, &from, &to) && ref_equal (&to, &self->current))
        want = selected;
      else if (kymo_trace_follow_link (trace, &self->current, &to) && to.track == records)
        want = to.index;
    }

  if (want == selected)
    return;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->records_selection, want);
  if (want != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (self->records_view, "list.scroll-to-item", "u", want);
  self->syncing = FALSE;
}
