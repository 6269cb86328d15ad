/* kymo-annotation-item.h: one row of the annotation view
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "kymo.h"

G_BEGIN_DECLS

#define KYMO_TYPE_ANNOTATION_ITEM (kymo_annotation_item_get_type ())

G_DECLARE_FINAL_TYPE (KymoAnnotationItem, kymo_annotation_item, KYMO, ANNOTATION_ITEM, GObject)

/* @ref is NULL for a loader warning; @start is KYMO_TIME_NONE when the
 * warning has no time. Properties: "start", "end" (int64), "kind", "text",
 * "source" and "search" (all the text, for filtering). */
KymoAnnotationItem *kymo_annotation_item_new      (const KymoEventRef *ref,
                                                   KymoTime            start,
                                                   KymoTime            end,
                                                   const char         *kind,
                                                   const char         *text,
                                                   const char         *source);
/* NULL for a loader warning. */
const KymoEventRef *kymo_annotation_item_get_ref   (KymoAnnotationItem *self);
KymoTime            kymo_annotation_item_get_start (KymoAnnotationItem *self);
KymoTime            kymo_annotation_item_get_end   (KymoAnnotationItem *self);
const char         *kymo_annotation_item_get_kind  (KymoAnnotationItem *self);
const char         *kymo_annotation_item_get_text  (KymoAnnotationItem *self);
const char         *kymo_annotation_item_get_source (KymoAnnotationItem *self);

G_END_DECLS
