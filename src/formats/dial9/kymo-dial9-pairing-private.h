/* kymo-dial9-pairing-private.h: the state of a pairing, which the workers'
 * pairing (kymo-dial9-pairing.c) and the wakes (kymo-dial9-wakes.c) share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-chains.h"
#include "kymo-dial9-pairing.h"

G_BEGIN_DECLS

/* The pass's order: by time, then by the event's place in the file. */
#define D9_TS_LESS(x, y) ((x)->ts < (y)->ts || ((x)->ts == (y)->ts && (x)->source < (y)->source))

/* Where the progress bar is once every worker is paired, and once the
 * wakes are resolved (building starts at D9_PROGRESS_DECODED). */
#define D9_PROGRESS_PAIRED   0.8
#define D9_PROGRESS_RESOLVED 0.83

/* A poll of a task on a worker: the time and place in the file of the
 * edges that started and ended it, which is all the wakes' pass needs of
 * the edges (an event's place in the file is its alone: no two edges or
 * wakes share one, so the place in an array never decides). */
typedef struct {
  KymoTime start_ts;
  KymoTime end_ts;
  guint32  start_source;
  guint32  end_source;
  guint32  task;
  gboolean ended;    /* FALSE: still open when the edges end */
} D9Poll;

typedef struct _D9Pairing D9Pairing;

/* The wakes put in time order as two halves at once: their chains (see
 * d9_wake_order_prepare()) merged, those before @pivot into the start of
 * @ordered, the rest after them. */
typedef struct {
  GArray   *segs;
  GArray   *heads;
  gboolean  chained;   /* FALSE: too many chains, sorted instead */
  gboolean  merge;     /* FALSE: half 0 sorts or keeps them, in place */
  D9Key     pivot;
  gsize     n_low;
  D9Leaf   *high;      /* per chain: where its keys from @pivot on start */
  GArray   *ordered;
  gint      left;      /* atomic: halves still to do */
  gboolean  ready;     /* under the pairing's lock */
} D9WakeOrder;

typedef struct {
  D9Pairing    *pg;
  D9Loader     *l;
  D9Worker     *w;
  KymoTrack    *track;     /* taken before the loading thread adds tracks */
  guint         index;
  const D9Edge *edges;
  gsize         n_edges;
  D9Poll       *polls;     /* in time order: room for one per edge */
  gsize         n_polls;
  guint32       open;      /* the open poll in @polls, or G_MAXUINT32 */
  D9Key         first_lq;  /* the edge that makes the local queue track */
} D9WorkerPairing;

struct _D9Pairing {
  D9Loader        *l;
  D9WorkerPairing *workers;
  guint            n_workers;
  GThread         *loading;   /* the thread that may report progress */
  gsize            total;     /* edges and wakes */
  gsize            done;      /* atomic: edges paired */
  gint             cancel;    /* atomic */
  guint           *order;     /* pairing parts, largest first */
  guint            n_extra;
  KymoPartFunc     extra;
  KymoPartStartFunc extra_end;
  guint            n_after;
  KymoPartFunc     after;
  gpointer         extra_data;
  D9PairedFunc     paired;
  D9Key            first_wake;
  gboolean         resolved;
  GError         **error;
  /* Workers paired, in the order they were, for the parts that then run
   * @paired: each takes the next (waiting for one if need be: every
   * pairing was taken by a thread before these parts were). */
  GMutex           lock;
  GCond            cond;
  guint           *walked;
  guint            n_walked;
  guint            n_taken;
  guint            n_extra_done;
  gboolean         end_done;  /* @extra_end ran (or never will) */
  D9WakeOrder      wo;
  gboolean         beside;    /* more than one thread: see part_kind() */
};

/* kymo-dial9-wakes.c: the wakes' chains, and the key that about halves
 * them; then the parts that wait for it and put each half in order. */
void     d9_wake_order_prepare (D9Pairing   *pg);
void     d9_wake_order_half    (D9Pairing   *pg,
                                guint        half);
void     d9_wake_order_clear   (D9WakeOrder *wo);

/* kymo-dial9-wakes.c: once the wakes are in order and every worker is
 * paired, the wakes' pass with the workers' polls. FALSE when cancelled. */
gboolean d9_resolve_wakes      (D9Pairing   *pg);

G_END_DECLS
