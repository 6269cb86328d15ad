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
  /* What the last load read, and how: "Reload as…" reads them again. */
  GPtrArray            *loading_files;
  char                 *tband_mode;
  KymoTrace            *trace;
  GtkNativeDialog      *chooser;
  GtkNativeDialog      *export_chooser;
};

void _kymo_window_class_init_actions (GtkWidgetClass *widget_class);
void _kymo_window_clock_init         (KymoWindow     *self);
/* Shows the window's time base in the trace view's session. */
void _kymo_window_clock_apply        (KymoWindow     *self);
void _kymo_window_init_actions       (KymoWindow     *self);
void _kymo_window_update_actions     (KymoWindow     *self);
void _kymo_window_init_dnd           (KymoWindow     *self);
/* Export formats, as the Export dialog's "format" choice names them. */
#define KYMO_WINDOW_EXPORT_PNG    "png"
#define KYMO_WINDOW_EXPORT_SVG    "svg"
#define KYMO_WINDOW_EXPORT_CHROME "chrome"

void _kymo_window_class_init_export  (GtkWidgetClass *widget_class);
/* Images show the timeline as it is on screen (the selected time range if
 * there is one); Chrome JSON holds the whole trace, written in a thread. */
void     _kymo_window_export_async   (KymoWindow          *self,
                                      GFile               *file,
                                      const char          *format,
                                      GAsyncReadyCallback  callback,
                                      gpointer             user_data);
gboolean _kymo_window_export_finish  (KymoWindow          *self,
                                      GAsyncResult        *result,
                                      GError             **error);
void _kymo_window_dispose_export     (KymoWindow     *self);
/* Opens @files in this window when it is empty, else in a new window. */
void _kymo_window_open_files         (KymoWindow     *self,
                                      GFile * const  *files,
                                      guint           n_files);
void _kymo_window_open_files_full    (KymoWindow     *self,
                                      GFile * const  *files,
                                      guint           n_files,
                                      const KymoLoadOptions *options);

G_END_DECLS
