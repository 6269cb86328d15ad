/* kymo-parts.h: a load's input decoded in parts on threads, joined in order
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-format.h"

G_BEGIN_DECLS

/* Every format that decodes in parallel does it the same way: it splits its
 * input at its own boundaries (segments, files, threads, Units, frames)
 * into parts numbered 0 … n-1, a pool decodes parts into per-part results,
 * and the loading thread joins the results in part order. Decoding part i
 * must depend on nothing but i, so that the joined result is the same for
 * every thread count; the threads come from the load option `threads`.
 *
 * The loading thread takes part of the work itself: a part no worker has
 * started when it is wanted is decoded on the spot, so one thread means
 * plain sequential decoding and a slow worker never stalls the join.
 * Workers stay at most @ahead parts in front of the join, which bounds the
 * memory the results take. */
typedef struct _KymoParts KymoParts;

/* Decodes part @index (on any thread). */
typedef void     (*KymoPartFunc)     (guint    index,
                                      gpointer user_data);
/* Joins part @index, on the loading thread, in order. FALSE stops the run:
 * parts after @index are neither joined nor, once running ones finish,
 * decoded. */
typedef gboolean (*KymoPartJoinFunc) (guint    index,
                                      gpointer user_data);

/* Starts the workers: kymo_load_options_get_threads (@options, @size,
 * @parallel_min) threads in all, the loading thread included. @ahead 0
 * means no bound (results are kept until the end anyway). */
KymoParts *kymo_parts_new      (const KymoLoadOptions *options,
                                gsize                  size,
                                gsize                  parallel_min,
                                guint                  n_parts,
                                guint                  ahead,
                                KymoPartFunc           decode,
                                gpointer               user_data);
/* Optional work a worker may do while it may not claim a part (it is
 * @ahead parts in front of the join, or every part is claimed), such as
 * populating pages the join will write: called on a worker, without the
 * parts' lock; TRUE when it did something (it is then called again
 * before the worker sleeps). */
typedef gboolean (*KymoPartIdleFunc) (gpointer user_data);

/* kymo_parts_new() with @idle (may be NULL). With @idle the workers stay
 * until kymo_parts_free(), since idle work may come up to the end. */
KymoParts *kymo_parts_new_full (const KymoLoadOptions *options,
                                gsize                  size,
                                gsize                  parallel_min,
                                guint                  n_parts,
                                guint                  ahead,
                                KymoPartFunc           decode,
                                KymoPartIdleFunc       idle,
                                gpointer               user_data);
/* There is idle work: wakes a sleeping worker to call @idle again. */
void       kymo_parts_wake     (KymoParts             *parts);
/* While the loading thread waits for a part a worker is decoding, it
 * decodes the next parts no worker has started (within @ahead) instead of
 * sleeping, when @help is TRUE (default FALSE; set it before the first
 * wait). With few threads this is most of the loading thread's share of
 * the work: one worker otherwise stays ahead and decodes nearly every
 * part alone. The cost: a join may come one part later than the part it
 * joins was done. */
void       kymo_parts_set_help (KymoParts             *parts,
                                gboolean               help);
/* The threads the run uses, the loading thread included (≥ 1). */
guint      kymo_parts_get_threads (KymoParts          *parts);
/* Returns once part @index is decoded, decoding it here if no worker has
 * started it. Parts are waited for in increasing order. */
void       kymo_parts_wait     (KymoParts             *parts,
                                guint                  index);
/* The loading thread is done with the result of part @index and every part
 * before it: workers may move on to the part @ahead after it. */
void       kymo_parts_release  (KymoParts             *parts,
                                guint                  index);
/* Stops the workers after the parts they are decoding and joins them;
 * safe at any point, e.g. on damage or cancel. */
void       kymo_parts_free     (KymoParts             *parts);

/* The whole cycle: decodes @n_parts parts on the threads @options give and
 * calls @join (may be NULL) on each in order. FALSE when a join stopped it. */
gboolean   kymo_parts_run      (const KymoLoadOptions *options,
                                gsize                  size,
                                gsize                  parallel_min,
                                guint                  n_parts,
                                guint                  ahead,
                                KymoPartFunc           decode,
                                KymoPartJoinFunc       join,
                                gpointer               user_data);

/* Runs on the loading thread once the workers have started. */
typedef void     (*KymoPartStartFunc) (gpointer user_data);

/* kymo_parts_run() for parts that each take a while, with no bound ahead:
 * the loading thread takes the next part no worker has started rather than
 * wait for the one it is to join (kymo_parts_set_help()), and runs @start
 * (may be NULL) before the first join. */
gboolean   kymo_parts_run_helped (const KymoLoadOptions *options,
                                  gsize                  size,
                                  gsize                  parallel_min,
                                  guint                  n_parts,
                                  KymoPartFunc           decode,
                                  KymoPartJoinFunc       join,
                                  KymoPartStartFunc      start,
                                  gpointer               user_data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoParts, kymo_parts_free)

G_END_DECLS
