/* kymo-dial9-side-private.h: what the side records (kymo-dial9-side.c) and the samples (kymo-dial9-samples.c) share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-side.h"

G_BEGIN_DECLS

enum {
  CHAIN_NONE,
  CHAIN_POOLED,  /* chain: segment << 32 | pool id */
  CHAIN_INLINE,  /* chain: its index in the run's D9Callchains */
};

/* A CPU or scheduler sample, symbolised once the whole stream is read. */
typedef struct {
  KymoTime ts;
  guint64  chain;    /* see the chain kinds; a pooled one's index in
                      * pool_stacks once its piece is done */
  guint64  worker;   /* worker id; its track once its piece is done */
  guint32  source;
  guint8   chain_kind;
  guint8   sched;
} D9SideSample;

/* A run of records and samples in file order: the loader's own
 * [from, to), or a merged part's whole arrays (owned). */
typedef struct {
  D9Vec        *records;
  D9Vec        *samples;
  D9Callchains *chains;
  gsize         records_from;
  gsize         records_to;
  gsize         samples_from;
  gsize         samples_to;
  guint32       ordinal_base;
  guint32       segment_base;
  gboolean      own;
} D9SideRun;

/* The track of worker @id, or KYMO_NO_TRACK (on any thread once the
 * workers are known). */
guint32       d9_worker_track     (D9Loader      *l,
                                   guint64        id);

/* The samples, beside the pairing: d9_sample_piece() and d9_chains_piece()
 * on any thread, then d9_add_samples() on the loading thread, which takes
 * the fill. */
D9SampleFill *d9_sample_fill_new  (D9Loader      *l);
void          d9_sample_fill_free (D9SampleFill  *f);
/* The samples' pieces (d9_sample_piece()); the chains' is one more. */
guint         d9_sample_fill_get_n_pieces (D9SampleFill *f);
void          d9_sample_piece     (D9SampleFill  *f,
                                   guint          index);
void          d9_chains_piece     (D9SampleFill  *f);
void          d9_add_samples      (D9Loader      *l,
                                   D9SampleFill  *f,
                                   D9SampleOrder *order);

G_END_DECLS
