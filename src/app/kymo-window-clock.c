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

static void
save_clock (KymoWindow *self,
            KymoClock   clock)
{
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "clock", kymo_clock_to_string (clock));
}

static void
show_fallback_note (KymoWindow  *self,
                    KymoSession *session,
                    KymoClock    clock)
{
  const char *note = kymo_clock_fallback_note (kymo_session_get_trace (session), clock);

  if (note != NULL)
    adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (note));
}

/* The timeline's "c" key turns wall clock on and off in the session: the
 * session is the one state, and the Time menu follows it. */
static void
on_session_clock_changed (KymoWindow  *self,
                          GParamSpec  *pspec,
                          KymoSession *session)
{
  GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), "clock");
  KymoClock clock = KYMO_CLOCK_RELATIVE;

  if (kymo_session_get_wallclock (session))
    clock = kymo_session_get_utc (session) ? KYMO_CLOCK_UTC : KYMO_CLOCK_LOCAL;
  if (action == NULL || clock == current_clock (self))
    return;
  g_simple_action_set_state (G_SIMPLE_ACTION (action), g_variant_new_string (kymo_clock_to_string (clock)));
  save_clock (self, clock);
  show_fallback_note (self, session, clock);
}

void
_kymo_window_clock_apply (KymoWindow *self)
{
  GtkWidget *view = adw_bin_get_child (self->trace_bin);
  KymoSession *session;
  KymoClock clock = current_clock (self);

  if (!KYMO_IS_TRACE_VIEW (view))
    return;
  session = kymo_trace_view_get_session (KYMO_TRACE_VIEW (view));
  if (g_object_get_data (G_OBJECT (session), "kymo-window-clock") == NULL)
    {
      /* Once per session: a new trace view brings a new session. */
      g_object_set_data (G_OBJECT (session), "kymo-window-clock", GINT_TO_POINTER (1));
      g_signal_connect_object (session, "notify::wallclock", G_CALLBACK (on_session_clock_changed),
                               self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::utc", G_CALLBACK (on_session_clock_changed),
                               self, G_CONNECT_SWAPPED);
    }
  /* The menu's choice is already the action's state: no echo back. */
  g_signal_handlers_block_by_func (session, on_session_clock_changed, self);
  kymo_session_set_utc (session, clock == KYMO_CLOCK_UTC);
  kymo_session_set_wallclock (session, clock != KYMO_CLOCK_RELATIVE);
  g_signal_handlers_unblock_by_func (session, on_session_clock_changed, self);
  show_fallback_note (self, session, clock);
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
  save_clock (self, clock);
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
