/* kymo-dial9-pairing.h: each worker's edges paired on its own, then the wakes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-chains.h"
#include "kymo-dial9-loader.h"
#include "kymo-parts.h"

G_BEGIN_DECLS

/* For a load that was not streamed: pairs every worker's edges into spans
 * (on the load's threads, one worker a part) and resolves the wakes, with
 * the result one time-ordered pass over all edges and wakes gives. The
 * lazily made tracks (local queues, wakes) are made, in the order that
 * pass would make them; their events and the flows wait in the loader's
 * streaming arrays (w->lq_samples, l->wake_instants, l->flows), as after
 * a streamed load. Frees the edges and wakes. @paired runs on each
 * worker once it is paired (on any thread: it may touch that worker and
 * its track only), while the loading thread resolves the wakes. The
 * caller's @n_extra parts (@extra, which must not touch the workers, the
 * tasks or the tracks) run beside the pairing; then, once they are done
 * and every worker is paired, @extra_end (may be NULL) on any thread
 * beside the wakes' pass (it may intern names, as nothing else then does,
 * and read the workers' track ids, but not touch the workers, the tasks
 * or the tracks). Then @after's @n_after parts (may be none), on any
 * thread: a thread that would wait for @extra_end meanwhile takes one,
 * which waits for it instead. FALSE when cancelled (@extra_end may not
 * have run). */
typedef void (*D9PairedFunc) (D9Loader  *l,
                              D9Worker  *w,
                              KymoTrack *track);

gboolean d9_pair_workers (D9Loader          *l,
                          guint              n_extra,
                          KymoPartFunc       extra,
                          KymoPartStartFunc  extra_end,
                          guint              n_after,
                          KymoPartFunc       after,
                          gpointer           extra_data,
                          D9PairedFunc       paired,
                          GError           **error);

/* A track made on first use: a worker's local queue, or the wakes
 * (D9_FROM_WAKES), with the key of that first use. */
typedef struct {
  D9Key   key;
  guint32 worker;
} D9Creation;

/* kymo-dial9-build.c: the tracks of @creations made in the order of their
 * first use (sorts @creations). */
void     d9_create_tracks_in_order (D9Loader *l,
                                    GArray   *creations);

/* kymo-dial9-build.c: a worker's spans handed to its track, closed at the
 * trace's end (what of its track needs no wakes). */
void     d9_finish_worker_spans (D9Loader  *l,
                                 D9Worker  *w,
                                 KymoTrack *track);

/* Tests: TRUE makes d9_pair_workers() take the plain way it must agree
 * with: every edge and wake sorted by time, then paired one by one. */
void     d9_pair_set_reference_for_testing (gboolean reference);

G_END_DECLS
