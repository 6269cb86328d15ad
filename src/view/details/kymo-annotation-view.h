/* kymo-annotation-view.h: every annotation, marker, range and load warning
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_ANNOTATION_VIEW (kymo_annotation_view_get_type ())

G_DECLARE_FINAL_TYPE (KymoAnnotationView, kymo_annotation_view, KYMO, ANNOTATION_VIEW, GtkWidget)

GtkWidget  *kymo_annotation_view_new             (KymoSession        *session);
/* The rows as shown (filtered, sorted): KymoAnnotationItems. */
GListModel *kymo_annotation_view_get_model       (KymoAnnotationView *self);
void        kymo_annotation_view_set_filter_text (KymoAnnotationView *self,
                                                  const char         *text);
/* Zooms the timeline to the row at @position of the shown model and
 * selects its event; a warning without a time does nothing. */
void        kymo_annotation_view_activate        (KymoAnnotationView *self,
                                                  guint               position);

G_END_DECLS
