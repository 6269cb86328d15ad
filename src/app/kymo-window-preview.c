/* kymo-window-preview.c: a big trace is shown from its start while the rest loads
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-window"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-window-private.h"
#include "kymo-session-carry.h"
#include "details/kymo-details-sidebar.h"
#include "kymo-timeline.h"
#include "kymo-trace-view.h"

/* The new timeline knows its height only after its first layout: the
 * scroll position is put back once its adjustment can hold it. */
typedef struct {
  double value;
} Scroll;

static void
restore_scroll (GtkAdjustment *adjustment,
                Scroll        *scroll)
{
  double max = gtk_adjustment_get_upper (adjustment) - gtk_adjustment_get_page_size (adjustment);

  if (gtk_adjustment_get_page_size (adjustment) <= 0)
    return;
  /* Once only: later changes (a group folded) are the user's. */
  gtk_adjustment_set_value (adjustment, MIN (scroll->value, MAX (max, 0)));
  g_signal_handlers_disconnect_by_func (adjustment, restore_scroll, scroll);
}

static void
carry_view (KymoTraceView *to,
            KymoTraceView *from)
{
  GtkAdjustment *old_adjustment = kymo_timeline_get_vadjustment (KYMO_TIMELINE (kymo_trace_view_get_timeline (from)));
  GtkAdjustment *adjustment = kymo_timeline_get_vadjustment (KYMO_TIMELINE (kymo_trace_view_get_timeline (to)));
  Scroll *scroll;

  kymo_session_carry_state (kymo_trace_view_get_session (to), kymo_trace_view_get_session (from));
  kymo_trace_view_set_bottom_visible (to, kymo_trace_view_get_bottom_visible (from));
  if (KYMO_IS_DETAILS_SIDEBAR (kymo_trace_view_get_details (from)) &&
      KYMO_IS_DETAILS_SIDEBAR (kymo_trace_view_get_details (to)))
    kymo_details_sidebar_set_page (KYMO_DETAILS_SIDEBAR (kymo_trace_view_get_details (to)),
                                   kymo_details_sidebar_get_page (KYMO_DETAILS_SIDEBAR (kymo_trace_view_get_details (from))));

  if (gtk_adjustment_get_value (old_adjustment) <= 0)
    return;
  scroll = g_new (Scroll, 1);
  scroll->value = gtk_adjustment_get_value (old_adjustment);
  g_signal_connect_data (adjustment, "changed", G_CALLBACK (restore_scroll), scroll,
                         (GClosureNotify) (void (*) (void)) g_free, 0);
}

static void
update_subtitle (KymoWindow *self)
{
  g_autofree char *subtitle = NULL;

  if (!self->showing_preview || self->loader == NULL)
    return;
  /* Translators: the window subtitle while the start of a trace is shown
   * and the rest loads; %d is a percentage */
  subtitle = g_strdup_printf (_("Loading… %d%%"), (int) (kymo_loader_get_fraction (self->loader) * 100));
  adw_window_title_set_subtitle (self->window_title, subtitle);
}

void
_kymo_window_show_trace_view (KymoWindow *self,
                              KymoTrace  *trace,
                              gboolean    partial)
{
  GtkWidget *old = adw_bin_get_child (self->trace_bin);
  GtkWidget *view = kymo_trace_view_new (trace);
  gboolean had_focus = FALSE;

  if (self->showing_preview && KYMO_IS_TRACE_VIEW (old))
    {
      GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

      carry_view (KYMO_TRACE_VIEW (view), KYMO_TRACE_VIEW (old));
      had_focus = focus != NULL && gtk_widget_is_ancestor (focus, old);
    }
  g_set_object (&self->trace, trace);
  self->showing_preview = partial;
  adw_bin_set_child (self->trace_bin, view);
  gtk_widget_set_visible (self->preview_bar, partial);
  /* No crossfade from one view of the trace to the next: it is in place. */
  gtk_stack_set_visible_child_full (self->stack, "trace",
                                    old != NULL ? GTK_STACK_TRANSITION_TYPE_NONE
                                                : gtk_stack_get_transition_type (self->stack));
  if (had_focus)
    gtk_widget_grab_focus (kymo_trace_view_get_timeline (KYMO_TRACE_VIEW (view)));
}

static void
on_preview (KymoLoader *loader,
            KymoTrace  *trace,
            KymoWindow *self)
{
  if (loader != self->loader)
    return;
  _kymo_window_show_trace_view (self, trace, TRUE);
  _kymo_window_clock_apply (self);
  update_subtitle (self);
  _kymo_window_update_actions (self);
}

void
_kymo_window_watch_previews (KymoWindow *self,
                             KymoLoader *loader)
{
  /* A new load starts over: its previews carry nothing from what the
   * window showed before. */
  self->showing_preview = FALSE;
  gtk_widget_set_visible (self->preview_bar, FALSE);
  g_object_bind_property (loader, "fraction", self->preview_progress, "fraction", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (loader, "preview", G_CALLBACK (on_preview), self, 0);
  g_signal_connect_object (loader, "notify::fraction", G_CALLBACK (update_subtitle), self, G_CONNECT_SWAPPED);
}

gboolean
_kymo_window_keep_preview (KymoWindow   *self,
                           const GError *error)
{
  AdwToast *toast;

  /* Damage or failure found after the preview goes to the error page as
   * for any load: a trace that is only a start is not what the file is. */
  if (!self->showing_preview || self->trace == NULL ||
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return FALSE;

  /* As Tracy keeps what it received: the user stopped waiting, not
   * looking. The preview stays, marked as partial. */
  gtk_widget_set_visible (self->preview_bar, FALSE);
  adw_window_title_set_subtitle (self->window_title, _("Partly loaded"));
  toast = adw_toast_new (_("Loading cancelled: showing the start of the trace"));
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
  return TRUE;
}
