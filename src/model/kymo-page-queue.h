/* kymo-page-queue.h: pages a second thread faults in ahead of a decoder
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Ranges of whole pages to populate, taken a chunk at a time round robin so
 * that several arrays fill side by side, as a decoder writes them. The
 * owner guards it with its own lock. Populating never changes what memory
 * holds: it only moves the page faults to the thread that does it. */
typedef struct {
  GArray   *ranges;
  guint     next;
  gsize     chunk;
  gboolean  failed;
} KymoPageQueue;

/* The system's page size (4096 when it cannot be told). */
gsize    kymo_page_size               (void);

void     kymo_page_queue_init         (KymoPageQueue *queue,
                                       gsize          chunk);
void     kymo_page_queue_clear        (KymoPageQueue *queue);
/* Queues the whole pages inside [mem, mem + len); FALSE when nothing was
 * queued (no whole page, or the kernel cannot populate). */
gboolean kymo_page_queue_add          (KymoPageQueue *queue,
                                       gpointer       mem,
                                       gsize          len);
gboolean kymo_page_queue_is_empty     (const KymoPageQueue *queue);
void     kymo_page_queue_forget       (KymoPageQueue *queue);
/* Called with @lock held: populates the next chunk with @lock released. */
void     kymo_page_queue_populate_one (KymoPageQueue *queue,
                                       GMutex        *lock);

G_END_DECLS
