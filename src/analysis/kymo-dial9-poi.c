/* kymo-dial9-poi.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9-poi"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "kymo-dial9-poi.h"
#include "kymo-dial9-poi-private.h"

void
kymo_poi_thresholds_init_default (KymoPoiThresholds *thresholds)
{
  g_return_if_fail (thresholds != NULL);

  thresholds->long_poll_ns = KYMO_POI_DEFAULT_LONG_POLL_NS;
  thresholds->wake_delay_ns = KYMO_POI_DEFAULT_WAKE_DELAY_NS;
  thresholds->sched_delay_ns = KYMO_POI_DEFAULT_SCHED_DELAY_NS;
}

const char *
kymo_poi_kind_to_string (KymoPoiKind kind)
{
  switch (kind)
    {
    case KYMO_POI_SCHED_DELAY:
      return _("Kernel scheduling delay");
    case KYMO_POI_LONG_POLL:
      return _("Long poll");
    case KYMO_POI_CPU_SAMPLES:
      return _("Poll with CPU samples");
    case KYMO_POI_WAKE_DELAY:
      return _("Wake to poll delay");
    case KYMO_POI_UNINSTRUMENTED:
      return _("Poll of an uninstrumented task");
    case KYMO_POI_N_KINDS:
    default:
      return "";
    }
}

typedef struct {
  guint64 key;
  guint32 index;
  guint32 pad;
} RadixKey;

#define DIGIT_BITS 11
#define N_DIGITS   6 /* 64 bits */
#define RADIX      (1 << DIGIT_BITS)

/* A stable LSD radix sort of @n keys; the counts of every digit are taken
 * in one pass, and a digit the keys all share costs nothing more. Returns
 * whichever of @a and @b holds the result. */
static RadixKey *
radix_sort (RadixKey *a,
            RadixKey *b,
            guint32   n)
{
  g_autofree guint32 *count = g_new0 (guint32, N_DIGITS * RADIX);
  RadixKey *src = a, *dst = b;

  for (guint32 i = 0; i < n; i++)
    for (guint d = 0; d < N_DIGITS; d++)
      count[d * RADIX + ((a[i].key >> (d * DIGIT_BITS)) & (RADIX - 1))]++;

  for (guint d = 0; d < N_DIGITS && n > 0; d++)
    {
      guint32 *c = count + d * RADIX;
      guint shift = d * DIGIT_BITS;
      guint32 sum = 0;

      if (c[(src[0].key >> shift) & (RADIX - 1)] == n)
        continue;
      for (guint k = 0; k < RADIX; k++)
        {
          guint32 here = c[k];
          c[k] = sum;
          sum += here;
        }
      for (guint32 i = 0; i < n; i++)
        dst[c[(src[i].key >> shift) & (RADIX - 1)]++] = src[i];
      {
        RadixKey *t = src;
        src = dst;
        dst = t;
      }
    }
  return src;
}

/* Signed to unsigned order. */
#define ORDERED(t) ((guint64) (t) ^ G_GUINT64_CONSTANT (0x8000000000000000))

/* Time order (start, then kind, then track; else as found), then worst
 * first as positions in it: the time order stably sorted by severity,
 * longest first. Radix passes over 16-byte keys and one gather: the
 * severities are random, so a merge sort would take log2 (n) passes over
 * the 40-byte points. A trace shorter than 52 days with fewer than 512
 * tracks (all of them, in practice) has start, kind and track in one key,
 * so one sort and one gather make the time order. */
KymoPoi *
_kymo_dial9_pois_order (const KymoPoi *pois,
                        guint32        n,
                        guint32       *worst)
{
  g_autofree RadixKey *a = g_new (RadixKey, MAX (n, 1));
  g_autofree RadixKey *b = g_new (RadixKey, MAX (n, 1));
  KymoPoi *timed = g_new (KymoPoi, MAX (n, 1));
  guint64 first = G_MAXUINT64, last = 0;
  guint32 max_track = 0;
  RadixKey *sorted;

  for (guint32 i = 0; i < n; i++)
    {
      first = MIN (first, ORDERED (pois[i].start));
      last = MAX (last, ORDERED (pois[i].start));
      max_track = MAX (max_track, pois[i].track);
    }
  if (n > 0 && max_track < (1 << 9) && last - first < G_GUINT64_CONSTANT (1) << 52)
    {
      for (guint32 i = 0; i < n; i++)
        a[i] = (RadixKey) { (ORDERED (pois[i].start) - first) << 12 | (guint64) pois[i].kind << 9 | pois[i].track,
                            i, 0 };
      sorted = radix_sort (a, b, n);
    }
  else
    {
      for (guint32 i = 0; i < n; i++)
        a[i] = (RadixKey) { (guint64) pois[i].kind << 32 | pois[i].track, i, 0 };
      sorted = radix_sort (a, b, n);
      for (guint32 i = 0; i < n; i++)
        sorted[i].key = ORDERED (pois[sorted[i].index].start);
      sorted = radix_sort (sorted, sorted == a ? b : a, n);
    }
  for (guint32 i = 0; i < n; i++)
    timed[i] = pois[sorted[i].index];

  for (guint32 i = 0; i < n; i++)
    a[i] = (RadixKey) { ~ORDERED (timed[i].severity), i, 0 };
  sorted = radix_sort (a, b, n);
  for (guint32 i = 0; i < n; i++)
    worst[i] = sorted[i].index;
  return timed;
}
