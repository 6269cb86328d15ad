/* kymo-test-widget.h: what widget tests share (run under Xvfb)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Runs what the main loop has ready, without blocking. */
void kymo_test_spin           (void);
/* Runs the main loop until @done says so; a guard keeps a broken widget
 * from hanging the suite (no timing is asserted). */
void kymo_test_spin_until     (gboolean  (*done) (gpointer),
                               gpointer    data);
/* Waits until the window has drawn a frame with @widget as it is now. */
void kymo_test_wait_for_frame (GtkWidget  *widget);
/* Saves @widget as its window draws it to @name in the test build folder,
 * and checks it is not blank. */
void kymo_test_save_png       (GtkWidget  *widget,
                               const char *name);

/* Runs the main loop until @done says so, failing after 20 s rather than
 * hanging the suite (no timing is asserted). */
void       kymo_test_wait_until      (gboolean  (*done) (gpointer),
                                      gpointer    data);
/* For waiting until a widget is on screen. */
gboolean   kymo_test_is_mapped       (gpointer    widget);
/* @widget or its first descendant of @type, depth first; NULL if none. */
GtkWidget *kymo_test_find_descendant (GtkWidget  *widget,
                                      GType       type);
/* The first window of @type shown over @parent (a dialog); NULL if none. */
GtkWindow *kymo_test_find_transient  (GtkWindow  *parent,
                                      GType       type);

G_END_DECLS
