/* kymo-preferences-window.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KYMO_TYPE_PREFERENCES_WINDOW (kymo_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (KymoPreferencesWindow, kymo_preferences_window, KYMO, PREFERENCES_WINDOW, AdwPreferencesWindow)

GtkWidget *kymo_preferences_window_new (GtkWindow *parent);

G_END_DECLS
