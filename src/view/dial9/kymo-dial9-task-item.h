/* kymo-dial9-task-item.h: one row of the tasks table
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-analysis.h"

G_BEGIN_DECLS

#define KYMO_TYPE_DIAL9_TASK_ITEM (kymo_dial9_task_item_get_type ())

G_DECLARE_FINAL_TYPE (KymoDial9TaskItem, kymo_dial9_task_item, KYMO, DIAL9_TASK_ITEM, GObject)

KymoDial9TaskItem   *kymo_dial9_task_item_new       (KymoDial9Tasks    *tasks,
                                                     guint              row);
guint                kymo_dial9_task_item_get_row   (KymoDial9TaskItem *self);
const KymoDial9Task *kymo_dial9_task_item_get_task  (KymoDial9TaskItem *self);
const char          *kymo_dial9_task_item_get_spawn_loc (KymoDial9TaskItem *self);

G_END_DECLS
