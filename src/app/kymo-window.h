/* kymo-window.h: one window per trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "kymo.h"

G_BEGIN_DECLS

#define KYMO_TYPE_WINDOW (kymo_window_get_type ())

G_DECLARE_FINAL_TYPE (KymoWindow, kymo_window, KYMO, WINDOW, AdwApplicationWindow)

KymoWindow *kymo_window_new       (GtkApplication     *application);
/* Loads @files as one input (several files that belong together, such as
 * one Tonbandgerät file per core) into this window. */
void        kymo_window_load      (KymoWindow         *self,
                                   GFile * const      *files,
                                   guint               n_files);
/* The same with load options (@options may be NULL): a Tonbandgerät mode. */
void        kymo_window_load_full (KymoWindow         *self,
                                   GFile * const      *files,
                                   guint               n_files,
                                   const KymoLoadOptions *options);
/* TRUE while the window shows neither a trace nor a load in progress. */
gboolean    kymo_window_is_empty  (KymoWindow         *self);
KymoTrace  *kymo_window_get_trace (KymoWindow         *self);

G_END_DECLS
