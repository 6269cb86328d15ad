/* kymo-window-private.h: shared by kymo-window*.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-window.h"

G_BEGIN_DECLS

struct _KymoWindow
{
  AdwApplicationWindow  parent_instance;

  /* Template children */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkStack             *stack;
  AdwStatusPage        *loading_page;
  GtkProgressBar       *progress_bar;
  AdwBin               *trace_bin;
  GMenu                *recent_menu;

  /* NULL when the schema is not installed (running from a bare build). */
  GSettings            *settings;
  /* Cancelled when the window closes or the user presses Cancel. */
  GCancellable         *cancellable;
  KymoLoader           *loader;
  GFile                *loading_file;
  KymoTrace            *trace;
  GtkNativeDialog      *chooser;
};

void _kymo_window_class_init_actions (GtkWidgetClass *widget_class);
void _kymo_window_init_actions       (KymoWindow     *self);
void _kymo_window_update_actions     (KymoWindow     *self);
void _kymo_window_init_dnd           (KymoWindow     *self);
/* Opens @files in this window when it is empty, else in a new window. */
void _kymo_window_open_files         (KymoWindow     *self,
                                      GFile * const  *files,
                                      guint           n_files);

G_END_DECLS
