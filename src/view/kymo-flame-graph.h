/* kymo-flame-graph.h: a flame graph of the flame model's call tree
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-flame-graph-renderer.h"
#include "kymo-flame-model.h"

G_BEGIN_DECLS

#define KYMO_TYPE_FLAME_GRAPH (kymo_flame_graph_get_type ())

G_DECLARE_FINAL_TYPE (KymoFlameGraph, kymo_flame_graph, KYMO, FLAME_GRAPH, GtkWidget)

GtkWidget                 *kymo_flame_graph_new             (KymoFlameModel            *model);
KymoFlameModel            *kymo_flame_graph_get_model       (KymoFlameGraph            *self);
/* The node that fills the width (0: the whole tree). */
guint32                    kymo_flame_graph_get_focus       (KymoFlameGraph            *self);
void                       kymo_flame_graph_set_focus       (KymoFlameGraph            *self,
                                                             guint32                    node);
/* Back to the focus's parent; FALSE at the root. */
gboolean                   kymo_flame_graph_zoom_out        (KymoFlameGraph            *self);
guint32                    kymo_flame_graph_get_hovered     (KymoFlameGraph            *self);
KymoFlameGraphOrientation  kymo_flame_graph_get_orientation (KymoFlameGraph            *self);
void                       kymo_flame_graph_set_orientation (KymoFlameGraph            *self,
                                                             KymoFlameGraphOrientation  orientation);
gboolean                   kymo_flame_graph_get_by_module   (KymoFlameGraph            *self);
void                       kymo_flame_graph_set_by_module   (KymoFlameGraph            *self,
                                                             gboolean                   by_module);
/* Where @node is drawn now; FALSE when it is not drawn. */
gboolean                   kymo_flame_graph_get_node_rect   (KymoFlameGraph            *self,
                                                             guint32                    node,
                                                             graphene_rect_t           *rect);
/* "name — total (percent), self" for @node of @tree, as hover shows it. */
char                      *kymo_flame_graph_describe_node   (KymoCallTree              *tree,
                                                             guint32                    node);

G_END_DECLS
