/* kymo-window-clock.c: the time base the window shows (relative or wall clock)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo"

#include "config.h"


#include "kymo-window-private.h"
#include "kymo-trace-view.h"

static KymoClock
current_clock (KymoWindow *self)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "clock");
  g_autoptr(GVariant) state = action ? g_action_get_state (action) : NULL;
  KymoClock clock = KYMO_CLOCK_RELATIVE;

  if (state != NULL)
    kymo_clock_from_string (g_variant_get_string (state, NULL), &clock);
  return clock;
}

void
_kymo_window_clock_apply (KymoWindow *self)
{
  GtkWidget *view = adw_bin_get_child (self->trace_bin);
  KymoSession *session;
  KymoClock clock = current_clock (self);
  const char *note;

  if (!KYMO_IS_TRACE_VIEW (view))
    return;
  session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (view));
  kymo_session_set_utc (session, clock == KYMO_CLOCK_UTC);
  kymo_session_set_wallclock (session, clock != KYMO_CLOCK_RELATIVE);
  note = kymo_clock_fallback_note (kymo_session_get_trace (session), clock);
  if (note != NULL)
    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (note));
}

static void
on_clock_changed (GSimpleAction *action,
                  GVariant      *value,
                  gpointer       user_data)
{
  KymoWindow *self = user_data;
  KymoClock clock;

  if (!kymo_clock_from_string (g_variant_get_string (value, NULL), &clock))
    return;
  g_simple_action_set_state (action, value);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "clock", kymo_clock_to_string (clock));
  _kymo_window_clock_apply (self);
}

void
_kymo_window_clock_init (KymoWindow *self)
{
  g_autofree char *saved = NULL;
  KymoClock clock = KYMO_CLOCK_RELATIVE;
  GSimpleAction *action;

  if (self->settings != NULL)
    {
      g_autoptr(GSettingsSchema) schema = NULL;

      g_object_get (self->settings, "settings-schema", &schema, NULL);
      if (g_settings_schema_has_key (schema, "clock"))
        saved = g_settings_get_string (self->settings, "clock");
    }
  kymo_clock_from_string (saved, &clock);
  action = g_simple_action_new_stateful ("clock", G_VARIANT_TYPE_STRING,
                                         g_variant_new_string (kymo_clock_to_string (clock)));
  g_signal_connect (action, "change-state", G_CALLBACK (on_clock_changed), self);
  g_action_map_add_action (G_ACTION_MAP (self), G_ACTION (action));
  g_object_unref (action);
}
