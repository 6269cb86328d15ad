/* kymo-page-queue.c: pages a second thread faults in ahead of a decoder
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-page-queue"

#include "config.h"

#include <errno.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "kymo-page-queue.h"

typedef struct {
  guint8 *at;
  gsize   len;
} PageRange;

gsize
kymo_page_size (void)
{
  static gsize size;

  if (g_once_init_enter (&size))
    {
      long value = sysconf (_SC_PAGESIZE);
      g_once_init_leave (&size, value > 0 ? (gsize) value : 4096);
    }
  return size;
}

void
kymo_page_queue_init (KymoPageQueue *queue,
                      gsize          chunk)
{
  queue->ranges = g_array_new (FALSE, FALSE, sizeof (PageRange));
  queue->next = 0;
  queue->chunk = MAX (chunk, kymo_page_size ());
  queue->failed = FALSE;
}

void
kymo_page_queue_clear (KymoPageQueue *queue)
{
  g_clear_pointer (&queue->ranges, g_array_unref);
}

gboolean
kymo_page_queue_add (KymoPageQueue *queue,
                     gpointer       mem,
                     gsize          len)
{
  gsize page = kymo_page_size ();
  /* madvise() takes whole pages; those at the edges fault as usual. */
  guintptr from = ((guintptr) mem + page - 1) & ~(guintptr) (page - 1);
  guintptr to = ((guintptr) mem + len) & ~(guintptr) (page - 1);
  PageRange range = { (guint8 *) from, to - from };

  if (to <= from || queue->failed)
    return FALSE;
  g_array_append_val (queue->ranges, range);
  return TRUE;
}

gboolean
kymo_page_queue_is_empty (const KymoPageQueue *queue)
{
  return queue->ranges->len == 0;
}

void
kymo_page_queue_forget (KymoPageQueue *queue)
{
  g_array_set_size (queue->ranges, 0);
}

void
kymo_page_queue_populate_one (KymoPageQueue *queue,
                              GMutex        *lock)
{
  PageRange *range;
  guint8 *at;
  gsize len;
  int result = -1, error = EINVAL;

  if (queue->ranges->len == 0)
    return;
  if (queue->next >= queue->ranges->len)
    queue->next = 0;
  range = &g_array_index (queue->ranges, PageRange, queue->next);
  at = range->at;
  len = MIN (range->len, queue->chunk);
  range->at += len;
  range->len -= len;
  if (range->len == 0)
    g_array_remove_index (queue->ranges, queue->next);
  else
    queue->next++;

  g_mutex_unlock (lock);
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  result = madvise (at, len, MADV_POPULATE_WRITE);
  error = errno;
#endif
  g_mutex_lock (lock);
  /* An older kernel does not know it (EINVAL): the writer then takes its
   * page faults itself. An array moved since is no longer mapped there
   * (ENOMEM), which costs nothing. */
  if (result != 0 && error == EINVAL)
    {
      queue->failed = TRUE;
      kymo_page_queue_forget (queue);
    }
}
