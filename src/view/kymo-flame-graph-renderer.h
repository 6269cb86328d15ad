/* kymo-flame-graph-renderer.h: draws a call tree as a flame graph into a GtkSnapshot
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "kymo-analysis.h"

G_BEGIN_DECLS

#define KYMO_FLAME_GRAPH_ROW_HEIGHT 18
#define KYMO_FLAME_GRAPH_NO_NODE    G_MAXUINT32

typedef enum {
  KYMO_FLAME_GRAPH_ICICLE,  /* root at the top, callees below */
  KYMO_FLAME_GRAPH_FLAME,   /* root at the bottom, callees above */
} KymoFlameGraphOrientation;

/* Looked up when the style changes, never per frame. */
typedef struct {
  GdkRGBA  background;
  GdkRGBA  foreground;   /* text on the root row and the empty state */
  GdkRGBA  frame_text;   /* text on the coloured frames */
  GdkRGBA  accent;       /* hover and selection outlines */
  GdkRGBA  match;        /* search matches */
  gboolean dark;
} KymoFlameGraphTheme;

/* What one frame shows. */
typedef struct {
  KymoCallTree              *tree;
  guint32                    focus;       /* this node fills the width */
  guint32                    hover;       /* or KYMO_FLAME_GRAPH_NO_NODE */
  guint32                    selected;    /* or KYMO_FLAME_GRAPH_NO_NODE */
  KymoFlameGraphOrientation  orientation;
  gboolean                   by_module;   /* colour by crate/module rather than by name */
  const guint8              *matches;     /* per node: holds the search text; NULL: no search */
  int                        width;
  int                        height;
} KymoFlameGraphView;

void      kymo_flame_render_theme_init_default (KymoFlameGraphTheme      *theme,
                                               gboolean                  dark);

/* The height that shows every level of @focus's subtree and its ancestors. */
int       kymo_flame_render_natural_height     (KymoCallTree             *tree,
                                               guint32                   focus);

/* Draws @view with @layout (its font set by the caller; reused for every
 * label). Frames narrower than a quarter pixel are skipped with their
 * subtrees. */
void      kymo_flame_render_snapshot           (GtkSnapshot              *snapshot,
                                               PangoLayout              *layout,
                                               const KymoFlameGraphTheme *theme,
                                               const KymoFlameGraphView *view);

/* The node drawn at (@x, @y), or KYMO_FLAME_GRAPH_NO_NODE. */
guint32   kymo_flame_render_pick               (const KymoFlameGraphView *view,
                                               double                    x,
                                               double                    y);
/* Where @node is drawn; FALSE when it is not (culled or outside the focus). */
gboolean  kymo_flame_render_get_node_rect      (const KymoFlameGraphView *view,
                                               guint32                   node,
                                               graphene_rect_t          *rect);

/* The frame colour: a stable hash of the name (or of its first "::" part). */
void      kymo_flame_render_frame_color        (const char               *name,
                                               gboolean                  by_module,
                                               GdkRGBA                  *color);
/* Per node of @tree: whether its name holds @text, Unicode case folded
 * (each distinct name folded once); NULL when @text is NULL or empty. */
guint8   *kymo_flame_render_match_nodes        (KymoCallTree             *tree,
                                               const char               *text);
/* The crate or module of a Rust/C++ path: its first "::" component. */
char     *kymo_flame_render_module_of          (const char               *name);

/* Draws the whole tree, unzoomed, to an SVG file @width pixels wide. */
gboolean  kymo_flame_render_export_svg         (KymoCallTree             *tree,
                                               KymoFlameGraphOrientation orientation,
                                               int                       width,
                                               const char               *path,
                                               GError                  **error);

G_END_DECLS
