/* kymo-rtc-ahead.c: a second thread that works ahead of the decoder
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif
#include <unistd.h>

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

typedef struct {
  guint8 *at;
  gsize   len;
} AheadPages;

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
  GArray       *pages;      /* AheadPages still to populate */
  guint         next_pages; /* round robin over @pages */
  gboolean      populate_failed;
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
static void
populate_one (RtcAhead *a)
{
  AheadPages *pages;
  guint8 *at;
  gsize len;
  int result = -1, error = EINVAL;

  if (a->next_pages >= a->pages->len)
    a->next_pages = 0;
  pages = &g_array_index (a->pages, AheadPages, a->next_pages);
  at = pages->at;
  len = MIN (pages->len, PAGE_CHUNK);
  pages->at += len;
  pages->len -= len;
  if (pages->len == 0)
    g_array_remove_index (a->pages, a->next_pages);
  else
    a->next_pages++;

  g_mutex_unlock (&a->lock);
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  result = madvise (at, len, MADV_POPULATE_WRITE);
  error = errno;
#endif
  g_mutex_lock (&a->lock);
  /* An older kernel does not know it (EINVAL): then the decoder takes its
   * faults itself. An array the decoder has moved since is no longer
   * mapped there (ENOMEM), which costs nothing. */
  if (result != 0 && error == EINVAL)
    {
      a->populate_failed = TRUE;
      g_array_set_size (a->pages, 0);
    }
}

static gpointer
ahead_thread (gpointer user)
{
  RtcAhead *a = user;

  g_mutex_lock (&a->lock);
  while (!a->stop)
    {
      gboolean crc_left = !a->walked;

      if (crc_left && (a->crcs->len - a->consumed < CRC_AHEAD || a->pages->len == 0))
        {
          AheadCrc crc;

          g_mutex_unlock (&a->lock);
          walk_one (a, &crc);
          g_mutex_lock (&a->lock);
          g_array_append_val (a->crcs, crc);
          a->walked = a->next_marker == RTC_NO_POS;
          g_cond_broadcast (&a->cond);
        }
      else if (a->pages->len > 0)
        populate_one (a);
      else
        g_cond_wait (&a->cond, &a->lock);
    }
  g_mutex_unlock (&a->lock);
  return NULL;
}

static gint ahead_mode = -1;

void
kymo_rtc_set_ahead (int mode)
{
  g_atomic_int_set (&ahead_mode, mode);
}

static gboolean
wanted (gsize size)
{
  int mode = g_atomic_int_get (&ahead_mode);
  const char *env = g_getenv ("KYMO_RTC_AHEAD");

  /* 0 never starts the thread, 1 always does: tests use both to check
   * that the results are the same. */
  if (mode < 0 && env != NULL && env[0] != '\0')
    mode = atoi (env) != 0;
  if (mode >= 0)
    return mode != 0;
  return size >= MIN_INPUT && g_get_num_processors () > 1;
}

RtcAhead *
kymo_rtc_ahead_start (const guint8 *data,
                      gsize         size,
                      gsize         first_marker)
{
  RtcAhead *a;

  if (first_marker >= size || !wanted (size))
    return NULL;

  a = g_new0 (RtcAhead, 1);
  g_mutex_init (&a->lock);
  g_cond_init (&a->cond);
  a->data = data;
  a->size = size;
  a->next_marker = first_marker;
  a->crcs = g_array_new (FALSE, FALSE, sizeof (AheadCrc));
  a->pages = g_array_new (FALSE, FALSE, sizeof (AheadPages));
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
  g_array_unref (a->pages);
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
  static gsize page_size;
  guintptr from, to;
  AheadPages pages;

  if (g_once_init_enter (&page_size))
    {
      long value = sysconf (_SC_PAGESIZE);
      g_once_init_leave (&page_size, value > 0 ? (gsize) value : 4096);
    }
  /* madvise() takes whole pages; those at the edges are left to the
   * decoder. */
  from = ((guintptr) mem + page_size - 1) & ~(guintptr) (page_size - 1);
  to = ((guintptr) mem + len) & ~(guintptr) (page_size - 1);
  if (to <= from)
    return;

  pages.at = (guint8 *) from;
  pages.len = to - from;
  g_mutex_lock (&a->lock);
  if (!a->populate_failed)
    {
      g_array_append_val (a->pages, pages);
      g_cond_broadcast (&a->cond);
    }
  g_mutex_unlock (&a->lock);
}

void
kymo_rtc_ahead_forget_pages (RtcAhead *a)
{
  g_mutex_lock (&a->lock);
  g_array_set_size (a->pages, 0);
  g_mutex_unlock (&a->lock);
}
