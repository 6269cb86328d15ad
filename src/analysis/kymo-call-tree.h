/* kymo-call-tree.h: where the time went, folded into one tree of frames
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <gio/gio.h>

#include "kymo-trace.h"

G_BEGIN_DECLS

typedef enum {
  KYMO_CALL_TREE_SPANS,    /* weights are nanoseconds of self time */
  KYMO_CALL_TREE_SAMPLES,  /* weights are sample counts */
} KymoCallTreeSource;

typedef enum {
  KYMO_CALL_FRAME_ROOT,
  KYMO_CALL_FRAME_TRACK,    /* the first frame of every stack */
  KYMO_CALL_FRAME_NAMED,    /* a span name or a symbolised frame */
  KYMO_CALL_FRAME_UNKNOWN,  /* a sample whose stack the trace never defined */
} KymoCallFrameKind;

#define KYMO_CALL_TREE_UNKNOWN_STACK "<unknown stack>"

/* Nodes are stored in depth-first order, children sorted by name (byte
 * order): a node's subtree is [index, index + n_descendants]. Node 0 is the
 * root (no name; its total is the whole tree's weight). */
typedef struct {
  const char        *name;        /* owned by the trace (or static) */
  guint32            name_id;     /* the trace's id; track id for TRACK */
  guint32            parent;      /* G_MAXUINT32 for the root */
  guint32            n_descendants;
  guint16            depth;       /* 0 for the root */
  guint16            kind;        /* KymoCallFrameKind */
  gint64             self;
  gint64             total;
  /* Spans: how many spans folded here. Samples: samples through the node. */
  guint64            count;
  /* Only in a diff (kymo_call_tree_diff()): the first tree's weights. */
  gint64             base_self;
  gint64             base_total;
} KymoCallNode;

/* One name's self weight in both trees of a diff. */
typedef struct {
  const char *name;
  gint64      base_self;
  gint64      self;
} KymoCallChange;

typedef struct _KymoCallTree KymoCallTree;

#define KYMO_TYPE_CALL_TREE (kymo_call_tree_get_type ())

GType               kymo_call_tree_get_type        (void) G_GNUC_CONST;
KymoCallTree       *kymo_call_tree_ref             (KymoCallTree       *self);
void                kymo_call_tree_unref           (KymoCallTree       *self);

/* Folds @trace (sealed) between @from and @to (both inclusive;
 * KYMO_TIME_NONE leaves an end open): the spans, or the samples, that start
 * in the window, on the tracks listed (NULL: every track).
 *
 * Spans nest as the timeline draws them: a span's parent is the span one
 * depth up on the same track that encloses its start (the latest starting
 * one); spans that overlap without nesting fold as siblings, and a span
 * without an enclosing parent hangs from its track. A span's self time is
 * its duration minus its direct children's durations (clipped to it). A
 * span starting before @from still names its children's stack but adds no
 * weight. Cost: the spans in the window (plus their ancestors), never the
 * whole trace.
 *
 * Samples fold their stack outermost first under their track; a stack the
 * trace does not define folds as one frame "<unknown stack>", counted.
 *
 * NULL with G_IO_ERROR_CANCELLED when @cancellable fires. Thread-safe on a
 * sealed trace. */
KymoCallTree       *kymo_call_tree_build           (KymoTrace          *trace,
                                                    KymoCallTreeSource  source,
                                                    KymoTime            from,
                                                    KymoTime            to,
                                                    const guint        *tracks,
                                                    guint               n_tracks,
                                                    GCancellable       *cancellable,
                                                    GError            **error);
/* The same in a GTask thread; the callback runs once. */
void                kymo_call_tree_build_async     (KymoTrace          *trace,
                                                    KymoCallTreeSource  source,
                                                    KymoTime            from,
                                                    KymoTime            to,
                                                    const guint        *tracks,
                                                    guint               n_tracks,
                                                    GCancellable       *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer            user_data);
KymoCallTree       *kymo_call_tree_build_finish    (GAsyncResult       *result,
                                                    GError            **error);

/* The trees being compared keep the names alive: both traces are held. */
KymoTrace          *kymo_call_tree_get_trace       (KymoCallTree       *self);
KymoCallTreeSource  kymo_call_tree_get_source      (KymoCallTree       *self);
void                kymo_call_tree_get_range       (KymoCallTree       *self,
                                                    KymoTime           *from,
                                                    KymoTime           *to);
const KymoCallNode *kymo_call_tree_get_nodes       (KymoCallTree       *self,
                                                    guint              *n_nodes);
/* Children in name order: the first child of @node is @node + 1, the next
 * sibling of a child c is c + n_descendants + 1, up to the parent's end. */
guint               kymo_call_tree_get_n_nodes     (KymoCallTree       *self);
gboolean            kymo_call_tree_is_empty        (KymoCallTree       *self);
gboolean            kymo_call_tree_is_diff         (KymoCallTree       *self);
/* The node reached from the root by @path (names, root excluded), or
 * G_MAXUINT32. */
guint32             kymo_call_tree_find_path       (KymoCallTree       *self,
                                                    const char * const *path,
                                                    guint               n_path);
/* Names from the root (excluded) down to @node, borrowed. */
GPtrArray          *kymo_call_tree_dup_path        (KymoCallTree       *self,
                                                    guint32             node);

/* Callers: one first level per name holding its self weight, then who called
 * it, down to the track (the "bottom-up" view). */
KymoCallTree       *kymo_call_tree_invert          (KymoCallTree       *self);

/* A tree shaped like the union of both, weighted by @after, with @before's
 * weights in base_self / base_total (Brendan Gregg's differential flame
 * graph: width is the second profile, colour the change of self). */
KymoCallTree       *kymo_call_tree_diff            (KymoCallTree       *before,
                                                    KymoCallTree       *after);
/* Per name, self weight before and after, the largest absolute change
 * first (ties by name). Only for a diff. */
GArray             *kymo_call_tree_dup_changes     (KymoCallTree       *diff);

/* kymo_call_tree_invert() or kymo_call_tree_diff() (@before NULL: invert
 * @tree) in a GTask thread: both cost the size of the trees, which sampled
 * stacks can make large. */
void                kymo_call_tree_derive_async    (KymoCallTree       *before,
                                                    KymoCallTree       *tree,
                                                    GCancellable       *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer            user_data);
KymoCallTree       *kymo_call_tree_derive_finish   (GAsyncResult       *result,
                                                    GError            **error);

/* Folded stacks (flamegraph.pl, speedscope): one line per distinct stack,
 * frames root first joined by ';', a space, the integer self weight; lines in
 * byte order, equal stacks merged, weight 0 left out. */
void                kymo_call_tree_append_folded   (KymoCallTree       *self,
                                                    GString            *out);
/* FALSE with errno set when writing fails. */
gboolean            kymo_call_tree_write_folded    (KymoCallTree       *self,
                                                    FILE               *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoCallTree, kymo_call_tree_unref)

G_END_DECLS
