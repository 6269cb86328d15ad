/* kymo-rtc-ahead.c: a second thread that works ahead of the decoder
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include "kymo-page-queue.h"
#include "kymo-rtc-private.h"

/* The decoder spends its time on frames; two other costs of a load are
 * independent of them and go to this thread: the CRC of every Unit
 * (a pure function of the bytes, looked up by the Unit's extent, so the
 * result is the same as computing it in place) and the page faults of the
 * sample arrays, populated before the decoder writes to them (populating
 * never changes what is in memory). With one processor there is no such
 * thread and the decoder does both itself. */

/* The CRCs this thread keeps ahead of the decoder before it turns to pages. */
#define CRC_AHEAD 4
/* Pages are populated in chunks of at most this many bytes per array, so
 * that the arrays fill up side by side, as the decoder writes them. */
#define PAGE_CHUNK ((gsize) 1 << 20)
/* Smaller inputs are read faster than a thread starts. */
#define MIN_INPUT ((gsize) 4 << 20)

typedef struct {
  gsize   start;   /* after the Marker */
  gsize   len;     /* covered by the CRC */
  guint32 crc;
  gboolean has_crc;
} AheadCrc;

struct _RtcAhead
{
  GMutex        lock;
  GCond         cond;
  GThread      *thread;
  const guint8 *data;
  gsize         size;

  /* The thread's own walk over the Units. */
  gsize         next_marker;
  gsize         step;       /* the last Unit's size, or 0 */

  /* Under @lock. */
  GArray       *crcs;       /* AheadCrc, in file order */
  guint         consumed;   /* how far the decoder has looked in @crcs */
  gboolean      walked;     /* @crcs holds every Unit there is */
  KymoPageQueue pages;
  gboolean      stop;
};

static void
walk_one (RtcAhead *a,
          AheadCrc *out)
{
  gsize marker = a->next_marker, start = marker + RTC_MARKER_SIZE, next, end;

  /* Stepping by the size of the Unit before, else looking: as the
   * decoder does, which computes its own CRC for a Unit seen otherwise. */
  if (a->step != 0 && a->step <= a->size - marker && kymo_rtc_is_marker (a->data, a->size, marker + a->step))
    next = marker + a->step;
  else
    {
      next = kymo_rtc_find_marker (a->data, a->size, start, a->size);
      a->step = next != RTC_NO_POS ? next - marker : 0;
    }
  end = next == RTC_NO_POS ? a->size : next;

  out->start = start;
  out->has_crc = FALSE;
  if (end - start >= RTC_CRC_FRAME_SIZE && a->data[end - RTC_CRC_FRAME_SIZE] == RTC_CRC_HEADER)
    {
      out->len = end - RTC_CRC_FRAME_SIZE - start;
      out->crc = kymo_rtc_crc (a->data + start, out->len);
      out->has_crc = TRUE;
    }
  a->next_marker = next;
}

/* Populates one chunk of the next array in turn; called with @lock held,
 * drops it while the kernel works. */
static gpointer
ahead_thread (gpointer user)
{
  RtcAhead *a = user;

  g_mutex_lock (&a->lock);
  while (!a->stop)
    {
      gboolean crc_left = !a->walked;

      if (crc_left && (a->crcs->len - a->consumed < CRC_AHEAD || kymo_page_queue_is_empty (&a->pages)))
        {
          AheadCrc crc;

          g_mutex_unlock (&a->lock);
          walk_one (a, &crc);
          g_mutex_lock (&a->lock);
          g_array_append_val (a->crcs, crc);
          a->walked = a->next_marker == RTC_NO_POS;
          g_cond_broadcast (&a->cond);
        }
      else if (!kymo_page_queue_is_empty (&a->pages))
        kymo_page_queue_populate_one (&a->pages, &a->lock);
      else
        g_cond_wait (&a->cond, &a->lock);
    }
  g_mutex_unlock (&a->lock);
  return NULL;
}

RtcAhead *
kymo_rtc_ahead_start (const guint8          *data,
                      gsize                  size,
                      gsize                  first_marker,
                      const KymoLoadOptions *options)
{
  RtcAhead *a;

  if (first_marker >= size || kymo_load_options_get_threads (options, size, MIN_INPUT) < 2)
    return NULL;

  a = g_new0 (RtcAhead, 1);
  g_mutex_init (&a->lock);
  g_cond_init (&a->cond);
  a->data = data;
  a->size = size;
  a->next_marker = first_marker;
  a->crcs = g_array_new (FALSE, FALSE, sizeof (AheadCrc));
  kymo_page_queue_init (&a->pages, PAGE_CHUNK);
  a->thread = g_thread_new ("kymo-rtc-ahead", ahead_thread, a);
  return a;
}

void
kymo_rtc_ahead_stop (RtcAhead *a)
{
  if (a == NULL)
    return;
  g_mutex_lock (&a->lock);
  a->stop = TRUE;
  g_cond_broadcast (&a->cond);
  g_mutex_unlock (&a->lock);
  g_thread_join (a->thread);

  g_array_unref (a->crcs);
  kymo_page_queue_clear (&a->pages);
  g_cond_clear (&a->cond);
  g_mutex_clear (&a->lock);
  g_free (a);
}

gboolean
kymo_rtc_ahead_crc (RtcAhead *a,
                    gsize     start,
                    gsize     len,
                    guint32  *crc)
{
  gboolean found = FALSE;

  g_mutex_lock (&a->lock);
  for (;;)
    {
      const AheadCrc *entry;

      while (a->consumed < a->crcs->len &&
             g_array_index (a->crcs, AheadCrc, a->consumed).start < start)
        a->consumed++;
      if (a->consumed < a->crcs->len)
        {
          /* The thread found the same Unit, or (in damaged input) another:
           * then the decoder computes its own. */
          entry = &g_array_index (a->crcs, AheadCrc, a->consumed);
          if (entry->start == start && entry->has_crc && entry->len == len)
            {
              *crc = entry->crc;
              found = TRUE;
            }
          break;
        }
      if (a->walked)
        break;
      g_cond_wait (&a->cond, &a->lock);
    }
  /* The thread may be waiting for the decoder to fall behind less. */
  g_cond_broadcast (&a->cond);
  g_mutex_unlock (&a->lock);
  return found;
}

void
kymo_rtc_ahead_populate (RtcAhead *a,
                         gpointer  mem,
                         gsize     len)
{
  g_mutex_lock (&a->lock);
  if (kymo_page_queue_add (&a->pages, mem, len))
    g_cond_broadcast (&a->cond);
  g_mutex_unlock (&a->lock);
}

void
kymo_rtc_ahead_forget_pages (RtcAhead *a)
{
  g_mutex_lock (&a->lock);
  kymo_page_queue_forget (&a->pages);
  g_mutex_unlock (&a->lock);
}
