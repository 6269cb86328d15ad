/* kymo-find-item.h: one row of the find results (made on demand)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "kymo-analysis.h"

G_BEGIN_DECLS

#define KYMO_TYPE_FIND_ITEM (kymo_find_item_get_type ())

G_DECLARE_FINAL_TYPE (KymoFindItem, kymo_find_item, KYMO, FIND_ITEM, GObject)

KymoFindItem *kymo_find_item_new          (KymoSearchResult *result,
                                           guint             position);
/* Position of the match in the start-ordered results. */
guint         kymo_find_item_get_position (KymoFindItem     *self);
const char   *kymo_find_item_get_name     (KymoFindItem     *self);
const char   *kymo_find_item_get_track    (KymoFindItem     *self);
/* Nanoseconds since the start of the trace. */
gint64        kymo_find_item_get_start    (KymoFindItem     *self);
gint64        kymo_find_item_get_duration (KymoFindItem     *self);

G_END_DECLS
