/* kymo-timeline-ruler.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <math.h>

#include "kymo-timeline-ruler.h"
#include "kymo-timeline-layout.h"

static KymoTime
nice_step (double min_ns)
{
  static const KymoTime long_steps[] = {
    1000000000LL, 2000000000LL, 5000000000LL, 10000000000LL, 15000000000LL, 30000000000LL,
    60000000000LL, 120000000000LL, 300000000000LL, 600000000000LL, 900000000000LL,
    1800000000000LL, 3600000000000LL, 7200000000000LL, 21600000000000LL, 43200000000000LL,
    86400000000000LL,
  };
  KymoTime step = 1;

  if (min_ns >= 1e9)
    {
      for (guint i = 0; i < G_N_ELEMENTS (long_steps); i++)
        if (long_steps[i] >= min_ns)
          return long_steps[i];
      return (KymoTime) (ceil (min_ns / 86400e9) * 86400e9);
    }
  while (TRUE)
    {
      if (step >= min_ns)
        return step;
      if (step * 2 >= min_ns)
        return step * 2;
      if (step * 5 >= min_ns)
        return step * 5;
      step *= 10;
    }
}

static void
format_tick (char     *buf,
             gsize     size,
             KymoTime  t,
             KymoTime  step,
             gboolean  wallclock,
             gboolean  utc,
             gint64    offset)
{
  int decimals;

  if (wallclock)
    {
      gint64 epoch = t + offset;
      gint64 secs = epoch >= 0 ? epoch / 1000000000 : (epoch - 999999999) / 1000000000;
      gint64 frac = epoch - secs * 1000000000;
      g_autoptr(GDateTime) dt = utc ? g_date_time_new_from_unix_utc (secs) : g_date_time_new_from_unix_local (secs);
      g_autofree char *hms = dt ? g_date_time_format (dt, "%H:%M:%S") : g_strdup ("?");

      decimals = step >= 1000000000 ? 0 : (int) ceil (log10 (1e9 / step));
      decimals = CLAMP (decimals, 0, 9);
      if (decimals == 0)
        g_snprintf (buf, size, "%s", hms);
      else
        {
          char digits[16];
          g_snprintf (digits, sizeof digits, "%09" G_GINT64_FORMAT, frac);
          digits[decimals] = '\0';
          g_snprintf (buf, size, "%s.%s", hms, digits);
        }
      return;
    }

  {
    double v = (double) t;
    double mag = MAX (fabs (v), (double) step);
    double unit;
    const char *name;

    if (step >= 60000000000LL && fabs (v) >= 60e9)
      {
        gint64 s = t / 1000000000;
        if (fabs (v) >= 3600e9)
          g_snprintf (buf, size, "%s%" G_GINT64_FORMAT ":%02d:%02d", t < 0 ? "-" : "",
                      ABS (s) / 3600, (int) (ABS (s) / 60 % 60), (int) (ABS (s) % 60));
        else
          g_snprintf (buf, size, "%s%d:%02d", t < 0 ? "-" : "", (int) (ABS (s) / 60), (int) (ABS (s) % 60));
        return;
      }
    if (mag >= 1e9) { unit = 1e9; name = "s"; }
    else if (mag >= 1e6) { unit = 1e6; name = "ms"; }
    else if (mag >= 1e3) { unit = 1e3; name = "µs"; }
    else { unit = 1; name = "ns"; }
    decimals = step >= unit ? 0 : (int) ceil (log10 (unit / step) - 1e-9);
    decimals = CLAMP (decimals, 0, 9);
    g_snprintf (buf, size, "%.*f %s", decimals, v / unit, name);
  }
}

void
kymo_timeline_ruler_draw (GtkSnapshot             *snapshot,
                          PangoLayout             *layout,
                          const KymoTimelineTheme *theme,
                          KymoSession             *session,
                          KymoTime                 t0,
                          KymoTime                 t1,
                          double                   px_per_ns,
                          int                      width)
{
  KymoTrace *trace = kymo_session_get_trace (session);
  gboolean wallclock = FALSE;
  gint64 offset = 0;
  KymoTime origin, step, minor, first;
  char buf[64];

  gtk_snapshot_append_color (snapshot, &theme->ruler,
                             &GRAPHENE_RECT_INIT (0, 0, width, KYMO_TIMELINE_RULER_HEIGHT));
  gtk_snapshot_append_color (snapshot, &theme->grid,
                             &GRAPHENE_RECT_INIT (0, KYMO_TIMELINE_RULER_HEIGHT - 1, width, 1));

  kymo_trace_get_time_range (trace, &origin, NULL);
  if (origin == KYMO_TIME_NONE)
    origin = 0;
  if (kymo_session_get_wallclock (session) && kymo_trace_get_wallclock (trace, &offset))
    {
      wallclock = TRUE;
      origin = 0;
    }

  step = nice_step (100.0 / px_per_ns);
  minor = step >= 10 && step % 5 == 0 ? step / 5 : (step % 2 == 0 ? step / 2 : step);
  /* Ticks are multiples of the step relative to the origin. */
  first = (t0 - origin) / minor * minor + origin;
  if (first > t0)
    first -= minor;
  for (KymoTime t = first; t <= t1; t += minor)
    {
      double x = floor ((double) (t - t0) * px_per_ns) + 0.5;
      gboolean major = (t - origin) % step == 0;

      if (x < 0)
        continue;
      gtk_snapshot_append_color (snapshot, major ? &theme->dim : &theme->grid,
                                 &GRAPHENE_RECT_INIT (x - 0.5, major ? 10 : 18, 1,
                                                      KYMO_TIMELINE_RULER_HEIGHT - (major ? 10 : 18)));
      if (major)
        {
          int tw;

          format_tick (buf, sizeof buf, t - origin, step, wallclock, kymo_session_get_utc (session), offset);
          pango_layout_set_text (layout, buf, -1);
          pango_layout_get_pixel_size (layout, &tw, NULL);
          if (x + 3 + tw <= width)
            {
              gtk_snapshot_save (snapshot);
              gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x + 3, 1));
              gtk_snapshot_append_layout (snapshot, layout, &theme->dim);
              gtk_snapshot_restore (snapshot);
            }
        }
    }
}

void
kymo_timeline_ruler_draw_grid (GtkSnapshot             *snapshot,
                               const KymoTimelineTheme *theme,
                               KymoSession             *session,
                               KymoTime                 t0,
                               KymoTime                 t1,
                               double                   px_per_ns,
                               float                    top,
                               float                    bottom)
{
  KymoTime origin, step, first;

  kymo_trace_get_time_range (kymo_session_get_trace (session), &origin, NULL);
  if (origin == KYMO_TIME_NONE || kymo_session_get_wallclock (session))
    origin = 0;
  step = nice_step (100.0 / px_per_ns);
  first = (t0 - origin) / step * step + origin;
  for (KymoTime t = first; t <= t1; t += step)
    {
      double x = floor ((double) (t - t0) * px_per_ns);
      if (x < 0)
        continue;
      gtk_snapshot_append_color (snapshot, &theme->grid, &GRAPHENE_RECT_INIT (x, top, 1, bottom - top));
    }
}
