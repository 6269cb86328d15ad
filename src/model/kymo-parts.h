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
/* The threads the run uses, the loading thread included (≥ 1). */
guint      kymo_parts_get_threads (KymoParts          *parts);
/* Returns once part @index is decoded, decoding it here if no worker has
 * started it. Parts are waited for in increasing order. */
void       kymo_parts_wait     (KymoParts             *parts,
                                guint                  index);
/* With TRUE, kymo_parts_wait() does not sleep while a worker decodes the
 * part it waits for: it decodes the next part no worker has taken (within
 * @ahead) meanwhile. For joins that are light next to a decode, so that
 * the loading thread is one more decoder; a heavy join would wait longer
 * for its part. Call it on the loading thread, before the first wait. */
void       kymo_parts_set_wait_decodes (KymoParts     *parts,
                                        gboolean       wait_decodes);
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

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoParts, kymo_parts_free)

G_END_DECLS
