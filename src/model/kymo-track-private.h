/* kymo-track-private.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-span-tree.h"
#include "kymo-trace.h"

G_BEGIN_DECLS

/* Spans are staged in the order they are added, as final 24-byte spans; a
 * run records how many consecutive ones share a depth. Decoders add depth by
 * depth, so a track usually has one run per depth and seal moves nothing. */
typedef struct {
  guint32 depth;
  guint32 count;
} KymoDepthRun;

/* A growable array with an inline append: the hot path of every decoder. */
typedef struct {
  gpointer data;
  gsize    len;
  gsize    cap;
} KymoVec;

void _kymo_vec_grow (KymoVec *vec,
                     gsize    element_size,
                     gsize    min_cap);

static inline gpointer
_kymo_vec_push (KymoVec *vec,
                gsize    element_size)
{
  if (G_UNLIKELY (vec->len == vec->cap))
    _kymo_vec_grow (vec, element_size, vec->len + 1);
  return (char *) vec->data + element_size * vec->len++;
}

struct _KymoTrack
{
  KymoTrace     *trace;        /* unowned: the trace owns its tracks */
  guint          id;
  guint          parent;
  KymoTrackKind  kind;
  char          *name;
  char          *group_kind;
  char          *unit;
  gint64         sort_key;
  guint64        tag;
  GArray        *children;     /* guint */

  KymoVec        staged;       /* KymoSpan, until seal */
  KymoVec        staged_runs;  /* KymoDepthRun, until seal */
  KymoSpan      *spans;
  gsize          n_spans;
  guint          n_depths;
  gsize         *depth_offsets; /* [n_depths + 1] */
  KymoSpanTree  *trees;         /* [n_depths] */

  KymoVec        instants;     /* KymoInstant */
  KymoVec        samples;      /* KymoSample */
  KymoVec        annotations;  /* KymoAnnotation */

  KymoTime       start;
  KymoTime       end;
  guint          sealed : 1;
  guint          spans_done : 1; /* kymo_track_seal_spans() */
};

KymoTrack *_kymo_track_new    (KymoTrace     *trace,
                               guint          id,
                               guint          parent,
                               KymoTrackKind  kind,
                               const char    *name);
void       _kymo_track_free   (KymoTrack     *self);
/* Sealing, in this order; a trace may run each step on its tracks (and
 * every depth of every track) side by side. */
void       _kymo_track_seal_prepare    (KymoTrack *self);
gsize      _kymo_track_get_depth_count (KymoTrack *self,
                                        guint      depth);
void       _kymo_track_seal_depth      (KymoTrack *self,
                                        guint      depth);
void       _kymo_track_seal_finish     (KymoTrack *self);
/* Whether the spans were sealed ahead (their trees are built). */
gboolean   _kymo_track_get_spans_done  (KymoTrack *self);
gsize      _kymo_track_memory (KymoTrack     *self);

G_END_DECLS
