/* kymo-clock.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-clock"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "kymo-clock.h"

static const char * const names[] = { "relative", "local", "utc" };

gboolean
kymo_clock_from_string (const char *text,
                        KymoClock  *clock)
{
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_strcmp0 (text, names[i]) == 0)
      {
        *clock = (KymoClock) i;
        return TRUE;
      }
  return FALSE;
}

const char *
kymo_clock_to_string (KymoClock clock)
{
  return (guint) clock < G_N_ELEMENTS (names) ? names[clock] : names[0];
}

char *
kymo_clock_format_absolute (KymoTrace *trace,
                            KymoClock  clock,
                            KymoTime   ts)
{
  g_autoptr(GDateTime) dt = NULL;
  g_autofree char *date = NULL;
  gint64 offset, epoch, secs, frac;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  if (clock == KYMO_CLOCK_RELATIVE || ts == KYMO_TIME_NONE || !kymo_trace_get_wallclock (trace, &offset))
    return NULL;
  if ((offset > 0 && ts > G_MAXINT64 - offset) || (offset < 0 && ts < G_MININT64 - offset))
    return NULL;
  epoch = ts + offset;
  /* Floor division: the fraction stays positive before 1970 too. */
  secs = epoch >= 0 ? epoch / 1000000000 : (epoch - 999999999) / 1000000000;
  frac = epoch - secs * 1000000000;
  dt = clock == KYMO_CLOCK_UTC ? g_date_time_new_from_unix_utc (secs) : g_date_time_new_from_unix_local (secs);
  if (dt == NULL)
    return NULL;
  date = g_date_time_format (dt, "%Y-%m-%d %H:%M:%S");
  if (clock == KYMO_CLOCK_UTC)
    return g_strdup_printf ("%s.%09" G_GINT64_FORMAT " UTC", date, frac);
  {
    g_autofree char *zone = g_date_time_format (dt, "%Z");
    return g_strdup_printf ("%s.%09" G_GINT64_FORMAT " %s", date, frac, zone ? zone : "");
  }
}

const char *
kymo_clock_fallback_note (KymoTrace *trace,
                          KymoClock  clock)
{
  gint64 offset;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  if (clock == KYMO_CLOCK_RELATIVE || kymo_trace_get_wallclock (trace, &offset))
    return NULL;
  return _("the trace has no clock sync: times are relative to its start");
}
