/* kymo-dial9-side.h: what analyses need beyond the timeline
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-loader.h"

G_BEGIN_DECLS

/* The side records are taken while each part decodes, into the part's own
 * arrays, and joined in file order at the end: nothing reads the events
 * twice. They become the model's KymoRecords (polls' tasks, wakes, spawns,
 * terminations, kernel scheduling waits, CPU time at park and unpark) and
 * KymoStacks (CPU and scheduler samples, symbolised through the symbol
 * tables, which may come at the end of the stream). */

/* Sets @model's side_* from its schema. */
void     d9_side_classify   (D9Registry     *reg,
                             const D9Schema *schema,
                             D9Model        *model);
void     d9_side_init       (D9Loader       *l);
void     d9_side_clear      (D9Loader       *l);

void     d9_side_take_event (D9Loader       *l,
                             const D9Model  *model,
                             guint64         ts,
                             const guint64  *vals,
                             guint64         absent,
                             guint32         segment,
                             guint32         source);

/* One decoded event: @vals and @absent as decode() read them, @source its
 * ordinal in the part (wrapping past 2^32 as the sources do). */
static inline void
d9_side_take (D9Loader      *l,
              const D9Model *model,
              guint64        ts,
              const guint64 *vals,
              guint64        absent,
              guint32        segment,
              guint32        source)
{
  if (model->side_kind != D9_SIDE_NONE)
    d9_side_take_event (l, model, ts, vals, absent, segment, source);
}

/* The merge takes over part @c's records, after what @l took so far; its
 * ordinals and segments follow on from @ordinal_base and @segment_base. */
void     d9_side_merge_part (D9Loader       *l,
                             D9Loader       *c,
                             guint32         ordinal_base,
                             guint32         segment_base);

/* Once the workers' tracks exist: hands the records (the merged parts'
 * moved into place page by page as they are made final) and the
 * symbolised samples to the model, in three steps so that the records are
 * made final on the load's threads beside other work. _begin() (NULL when
 * cancelled) says how many pieces there are; _piece() makes piece i final
 * (on any thread: it interns nothing and makes no track); _end(), once
 * every piece is done, on the loading thread, hands them over, symbolises
 * the samples and frees @b; _free() frees it instead. */
typedef struct _D9SideBuild D9SideBuild;

D9SideBuild *d9_side_build_begin (D9Loader     *l,
                                  guint        *n_pieces,
                                  GError      **error);
void         d9_side_build_piece (D9SideBuild  *b,
                                  guint         index);
/* The samples' stack samples as the end leaves them, their stacks
 * added: two halves, [0, @n_low) and [@n_low, @n), which are filled and
 * sorted (d9_sample_order_sort()) on two threads at once, and are then in
 * time order. */
typedef struct _D9SampleFill D9SampleFill;

typedef struct {
  KymoStacks      *stacks;
  KymoStackSample *samples;
  gsize            n_low;
  gsize            n;
  gint             left;    /* atomic: halves still to sort */
  D9SampleFill    *fill;    /* what the halves are filled from */
} D9SampleOrder;

/* Sets *@order; frees @b. */
void         d9_side_build_end   (D9SideBuild   *b,
                                  D9SampleOrder *order);
/* Fills half @half (0 or 1) of @order, on any thread. */
void         d9_sample_order_fill (D9SampleOrder *order,
                                   guint          half);
/* Fills and sorts half @half; the last done frees what the halves were
 * filled from and finishes the stacks (kymo_stacks_finish()). */
void         d9_sample_order_sort (D9SampleOrder *order,
                                   guint          half);
/* Frees what the halves are filled from, if a half was never sorted. */
void         d9_sample_order_clear (D9SampleOrder *order);
void         d9_side_build_free  (D9SideBuild  *b);

G_END_DECLS
