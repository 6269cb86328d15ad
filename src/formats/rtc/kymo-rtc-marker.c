/* kymo-rtc-marker.c: finding Markers, where reading can always start again
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include "kymo-rtc-private.h"

static guint8 marker_run[RTC_FRAME_MAX];

static gpointer
build_run (gpointer data)
{
  memset (marker_run, RTC_MARKER_BYTE, sizeof marker_run);
  return NULL;
}

gboolean
kymo_rtc_is_marker (const guint8 *data,
                    gsize         size,
                    gsize         at)
{
  static GOnce once = G_ONCE_INIT;

  if (at > size || size - at < RTC_MARKER_SIZE || data[at] != RTC_MARKER_HEADER)
    return FALSE;
  g_once (&once, build_run, NULL);
  return memcmp (data + at + 1, marker_run, RTC_FRAME_MAX) == 0;
}

gsize
kymo_rtc_find_marker (const guint8 *data,
                      gsize         size,
                      gsize         from,
                      gsize         limit)
{
  limit = MIN (limit, size);
  if (from >= limit)
    return RTC_NO_POS;

  /* The 1024 B9 bytes of a Marker at m ≥ from cover exactly one of the
   * probes from + 1 + k × 1024, so only one byte in 1024 is looked at
   * until a probe lands on B9. */
  for (gsize probe = from + 1; probe < size && probe <= limit + RTC_FRAME_MAX; probe += RTC_FRAME_MAX)
    {
      gsize start = probe;

      if (data[probe] != RTC_MARKER_BYTE)
        continue;
      while (start > from + 1 && probe - start < RTC_FRAME_MAX - 1 && data[start - 1] == RTC_MARKER_BYTE)
        start--;
      if (start - 1 < limit && kymo_rtc_is_marker (data, size, start - 1))
        return start - 1;
    }
  return RTC_NO_POS;
}

gboolean
kymo_rtc_is_cut_marker (const guint8 *data,
                        gsize         size,
                        gsize         at)
{
  if (at >= size || size - at >= RTC_MARKER_SIZE || data[at] != RTC_MARKER_HEADER)
    return FALSE;
  for (gsize i = at + 1; i < size; i++)
    if (data[i] != RTC_MARKER_BYTE)
      return FALSE;
  return TRUE;
}
