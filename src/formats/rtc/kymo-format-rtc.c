/* kymo-format-rtc.c: the Ruler Trace Container
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-rtc-private.h"

/* A recording read from its middle has its first Marker up to a Unit in. */
#define DETECT_WINDOW ((gsize) 4 << 20)

static guint
detect (KymoInput *input)
{
  const guint8 *data = input->main.data;
  gsize size = input->main.size;

  if (input->is_dir || data == NULL)
    return 0;
  if (kymo_rtc_is_marker (data, size, 0))
    return 100;
  if (kymo_rtc_find_marker (data, size, 0, DETECT_WINDOW) != RTC_NO_POS)
    return 80;
  return 0;
}

static const char * const mime_types[] = { "application/x-ruler-trace", NULL };
static const char * const patterns[] = { "*.rtc", NULL };

const KymoFormat kymo_format_rtc = {
  .name = "rtc",
  .title = N_("Ruler Trace Container"),
  .mime_types = mime_types,
  .patterns = patterns,
  .detect = detect,
  .load = kymo_rtc_load,
  .dump = kymo_rtc_dump,
  .describe = kymo_rtc_describe,
  .preview = KYMO_FORMAT_PREVIEW_PREFIX,
};
