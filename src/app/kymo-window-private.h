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
  GtkWidget            *preview_bar;
  GtkProgressBar       *preview_progress;

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
  /* self->trace is a preview of the running load (or what a cancelled one
   * left): the full trace replaces it in place. */
  gboolean              showing_preview;
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
/* Previews of a big load (kymo-window-preview.c). */
void _kymo_window_watch_previews     (KymoWindow     *self,
                                      KymoLoader     *loader);
/* Shows @trace, in place of the preview when one is shown (its view state
 * carried over); @partial: a preview, the load goes on. */
void _kymo_window_show_trace_view    (KymoWindow     *self,
                                      KymoTrace      *trace,
                                      gboolean        partial);
/* The load ended without a trace: TRUE when a preview stays on screen
 * (the user cancelled: what was loaded is kept). */
gboolean _kymo_window_keep_preview   (KymoWindow     *self,
                                      const GError   *error);
/* Export formats, as the Export dialog's "format" choice names them. */
#define KYMO_WINDOW_EXPORT_PNG    "png"
#define KYMO_WINDOW_EXPORT_SVG    "svg"
#define KYMO_WINDOW_EXPORT_CHROME "chrome"

void _kymo_window_class_init_export  (GtkWidgetClass *widget_class);
void _kymo_window_class_init_properties (GtkWidgetClass *widget_class);
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
