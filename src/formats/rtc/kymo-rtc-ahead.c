/* kymo-rtc-ahead.c: Unit CRCs and page faults on KymoParts workers
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include "kymo-page-queue.h"
#include "kymo-parts.h"
#include "kymo-rtc-private.h"

/* The decoder spends its time on frames; two other costs of a load are
 * independent of them and go to the workers of a KymoParts run: the CRC of
 * every Unit and the page faults of the sample arrays, populated before
 * the decoder writes to them (populating never changes what is in memory).
 *
 * The parts are fixed byte ranges from the first Marker on. A worker walks
 * the Units whose Marker lies in its range, Marker to Marker as the
 * decoder does, and computes their CRCs; the decoder looks a CRC up by the
 * Unit's extent, so a Unit the worker saw otherwise (a false Marker in
 * damaged input, a walk that started inside a Unit) only yields an unused
 * entry and the decoder computes that CRC itself: the result is the same
 * as computing every CRC in place. With one thread there are no parts and
 * the decoder does both itself. */

/* A part: large enough that finding its first Marker costs little beside
 * its CRCs. */
#define PART_BYTES ((gsize) 1 << 20)
/* How many parts the workers run ahead of the decoder, at least, and per
 * thread. */
#define AHEAD_MIN        8
#define AHEAD_PER_THREAD 2
/* Pages are populated in chunks of at most this many bytes per array, so
 * that the arrays fill up side by side, as the decoder writes them. */
#define PAGE_CHUNK ((gsize) 256 << 10)
/* The decoder writes this many samples of an array before it asks for
 * more pages; the pages of the next POPULATE_AHEAD such windows are
 * populated meanwhile, never more, so that no page is populated that the
 * decoder does not write soon. */
#define POPULATE_WINDOW ((gsize) (256 << 10) / sizeof (KymoSample))
#define POPULATE_AHEAD  4
/* Smaller inputs are read faster than a thread starts. */
#define MIN_INPUT ((gsize) 4 << 20)

typedef struct {
  gsize    start;   /* after the Marker */
  gsize    len;     /* covered by the CRC */
  guint32  crc;
} AheadCrc;

struct _RtcAhead
{
  const guint8 *data;
  gsize         size;
  gsize         base;       /* the first Marker: part i starts i × PART_BYTES on */
  KymoParts    *parts;
  guint         n_parts;
  GArray      **crcs;       /* [n_slots]: part i's AheadCrc in slot i % n_slots */
  guint         n_slots;

  /* The decoder's */
  guint         part;       /* the part it looks in */
  gboolean      waited;     /* for @part */
  guint         next;       /* in @part's CRCs */

  GMutex        lock;       /* guards @pages */
  KymoPageQueue pages;
};

/* The CRCs of the Units whose Marker lies in part @index. */
static void
ahead_part (guint    index,
            gpointer user)
{
  RtcAhead *a = user;
  GArray *out = a->crcs[index % a->n_slots];
  const guint8 *data = a->data;
  gsize size = a->size, from = a->base + (gsize) index * PART_BYTES;
  gsize limit = MIN (from + PART_BYTES, size), step = 0, marker;

  g_array_set_size (out, 0);
  marker = index == 0 ? a->base : kymo_rtc_find_marker (data, size, from, limit);
  while (marker != RTC_NO_POS && marker < limit)
    {
      gsize start = marker + RTC_MARKER_SIZE, next, end;

      /* Stepping by the size of the Unit before, else looking, as the
       * decoder does. */
      if (step != 0 && step <= size - marker && kymo_rtc_is_marker (data, size, marker + step))
        next = marker + step;
      else
        {
          next = kymo_rtc_find_marker (data, size, start, size);
          step = next != RTC_NO_POS ? next - marker : 0;
        }
      end = next == RTC_NO_POS ? size : next;
      if (end - start >= RTC_CRC_FRAME_SIZE && data[end - RTC_CRC_FRAME_SIZE] == RTC_CRC_HEADER)
        {
          AheadCrc crc = { start, end - RTC_CRC_FRAME_SIZE - start, 0 };

          crc.crc = kymo_rtc_crc (data + start, crc.len);
          g_array_append_val (out, crc);
        }
      marker = next;
    }
}

/* A worker with no part to take populates a chunk of the sample arrays'
 * pages. */
static gboolean
ahead_idle (gpointer user)
{
  RtcAhead *a = user;
  gboolean did = FALSE;

  g_mutex_lock (&a->lock);
  if (!kymo_page_queue_is_empty (&a->pages))
    {
      kymo_page_queue_populate_one (&a->pages, &a->lock);
      did = TRUE;
    }
  g_mutex_unlock (&a->lock);
  return did;
}

RtcAhead *
kymo_rtc_ahead_start (const guint8          *data,
                      gsize                  size,
                      gsize                  first_marker,
                      const KymoLoadOptions *options)
{
  RtcAhead *a;
  guint threads;

  if (first_marker >= size)
    return NULL;
  threads = kymo_load_options_get_threads (options, size, MIN_INPUT);
  if (threads < 2)
    return NULL;

  a = g_new0 (RtcAhead, 1);
  a->data = data;
  a->size = size;
  a->base = first_marker;
  a->n_parts = (guint) MIN ((size - first_marker + PART_BYTES - 1) / PART_BYTES, G_MAXUINT);
  a->n_slots = MAX (AHEAD_MIN, AHEAD_PER_THREAD * threads);
  a->crcs = g_new (GArray *, a->n_slots);
  for (guint i = 0; i < a->n_slots; i++)
    a->crcs[i] = g_array_new (FALSE, FALSE, sizeof (AheadCrc));
  g_mutex_init (&a->lock);
  kymo_page_queue_init (&a->pages, PAGE_CHUNK);
  a->parts = kymo_parts_new_full (options, size, MIN_INPUT, a->n_parts, a->n_slots,
                                  ahead_part, ahead_idle, a);
  return a;
}

void
kymo_rtc_ahead_stop (RtcAhead *a)
{
  if (a == NULL)
    return;
  kymo_parts_free (a->parts);
  for (guint i = 0; i < a->n_slots; i++)
    g_array_unref (a->crcs[i]);
  g_free (a->crcs);
  kymo_page_queue_clear (&a->pages);
  g_mutex_clear (&a->lock);
  g_free (a);
}

gboolean
kymo_rtc_ahead_crc (RtcAhead *a,
                    gsize     start,
                    gsize     len,
                    guint32  *crc)
{
  gsize marker = start - RTC_MARKER_SIZE;
  guint part;
  GArray *crcs;

  /* Units come in file order, so parts are asked for in order too. */
  if (start < RTC_MARKER_SIZE || marker < a->base)
    return FALSE;
  part = (guint) MIN ((marker - a->base) / PART_BYTES, G_MAXUINT);
  if (part >= a->n_parts || (a->waited && part < a->part))
    return FALSE;
  if (!a->waited || part > a->part)
    {
      if (a->waited)
        kymo_parts_release (a->parts, a->part);
      a->part = part;
      a->next = 0;
      a->waited = TRUE;
      kymo_parts_wait (a->parts, part);
    }

  crcs = a->crcs[part % a->n_slots];
  while (a->next < crcs->len && g_array_index (crcs, AheadCrc, a->next).start < start)
    a->next++;
  if (a->next < crcs->len)
    {
      const AheadCrc *entry = &g_array_index (crcs, AheadCrc, a->next);

      if (entry->start == start && entry->len == len)
        {
          *crc = entry->crc;
          return TRUE;
        }
    }
  return FALSE;
}

void
kymo_rtc_ahead_want_pages (RtcAhead   *a,
                           RtcSamples *samples)
{
  gsize from, to;
  gboolean added = FALSE;

  samples->limit = samples->cap;
  if (samples->cap - samples->len <= POPULATE_WINDOW)
    return;
  /* The next window the decoder takes as it comes; the ones after it are
   * for the workers. */
  from = MAX (samples->asked, samples->len + POPULATE_WINDOW);
  to = MIN (samples->len + POPULATE_AHEAD * POPULATE_WINDOW, samples->cap);
  if (to > from)
    {
      g_mutex_lock (&a->lock);
      added = kymo_page_queue_add (&a->pages, samples->data + from, (to - from) * sizeof (KymoSample));
      g_mutex_unlock (&a->lock);
    }
  samples->asked = MAX (samples->asked, to);
  samples->limit = samples->len + POPULATE_WINDOW;
  if (added)
    kymo_parts_wake (a->parts);
}

void
kymo_rtc_ahead_forget_pages (RtcAhead *a)
{
  g_mutex_lock (&a->lock);
  kymo_page_queue_forget (&a->pages);
  g_mutex_unlock (&a->lock);
}
