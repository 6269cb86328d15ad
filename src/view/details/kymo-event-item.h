/* kymo-event-item.h: one event of a sealed trace, as a list row
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "kymo.h"

G_BEGIN_DECLS

#define KYMO_TYPE_EVENT_ITEM (kymo_event_item_get_type ())

G_DECLARE_FINAL_TYPE (KymoEventItem, kymo_event_item, KYMO, EVENT_ITEM, GObject)

/* Created on demand by list models: never one per event up front. */
KymoEventItem      *kymo_event_item_new       (const KymoEventRef *ref,
                                               KymoTime            start,
                                               KymoTime            end,
                                               const char         *name,
                                               guint               flags);
const KymoEventRef *kymo_event_item_get_ref   (KymoEventItem      *self);
KymoTime            kymo_event_item_get_start (KymoEventItem      *self);
KymoTime            kymo_event_item_get_end   (KymoEventItem      *self);
const char         *kymo_event_item_get_name  (KymoEventItem      *self);
guint               kymo_event_item_get_flags (KymoEventItem      *self);

G_END_DECLS
