/* kymo-stacks.h: sampled call stacks (CPU and scheduler samples) in the model
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-types.h"

G_BEGIN_DECLS

typedef struct _KymoStacks KymoStacks;

/* A sample whose stack the trace never defined (e.g. a pool id with no entry). */
#define KYMO_NO_STACK G_MAXUINT32

/* One frame of a symbolised stack: names are interned in the trace. Inline
 * frames are frames of their own. */
typedef struct {
  guint32 name;      /* "tokio::runtime::task::raw::poll", or "0x55d0c0ffee" */
  guint32 location;  /* "tokio-1.52.2/src/x.rs:42", or 0 when unknown */
} KymoFrame;

typedef struct {
  KymoTime ts;
  guint32  track;    /* the track the sample belongs to (its thread) */
  guint32  stack;    /* a stack id, or KYMO_NO_STACK */
  guint32  kind;     /* interned: "cpu", "sched", … */
  guint32  source;   /* format-defined reference to the source record */
} KymoStackSample;

/* Building (before kymo_trace_seal(), one thread): frames outermost first.
 * Identical stacks share one id. */
guint32                kymo_stacks_add             (KymoStacks      *self,
                                                    const KymoFrame *frames,
                                                    gsize            n_frames);
void                   kymo_stacks_add_sample      (KymoStacks      *self,
                                                    guint            track,
                                                    KymoTime         ts,
                                                    guint32          stack,
                                                    guint32          kind,
                                                    guint32          source);
/* Room for @n_samples more samples: adding that many then copies nothing. */
void                   kymo_stacks_reserve_samples (KymoStacks      *self,
                                                    gsize            n_samples);

/* Appends @n_samples uninitialised samples and returns them for the
 * caller to fill, in any order, before the next call on @self: the bulk
 * form of kymo_stacks_add_sample(). Their pages are left to the caller
 * (kymo_mapped_populate()), e.g. to threads that each fill a stretch. */
KymoStackSample       *kymo_stacks_append_samples  (KymoStacks      *self,
                                                    gsize            n_samples);
/* Building is over: no stack or sample comes after. Orders the samples
 * now, on the calling thread, rather than in kymo_trace_seal(). For a
 * decoder that adds them on one of its threads while others still build. */
void                   kymo_stacks_finish          (KymoStacks      *self);

/* Reading. */
guint                  kymo_stacks_get_n_stacks    (KymoStacks      *self);
/* Outermost first; NULL with 0 for KYMO_NO_STACK or an unknown id. */
const KymoFrame       *kymo_stacks_get             (KymoStacks      *self,
                                                    guint32          stack,
                                                    gsize           *n_frames);
/* In time order once the trace is sealed (ties keep the order added). */
const KymoStackSample *kymo_stacks_get_samples     (KymoStacks      *self,
                                                    gsize           *n_samples);
/* Index of the first sample at or after @ts. */
gsize                  kymo_stacks_lower_bound     (KymoStacks      *self,
                                                    KymoTime         ts);

G_END_DECLS
