/* kymo-timeline-heat.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "kymo-timeline-heat.h"
#include "kymo-format.h"

/* log10 of the ends of the scale, in ns. */
#define HEAT_LOW  3.0
#define HEAT_HIGH 7.0
#define LEGEND_WIDTH KYMO_TIMELINE_SCALE_BAR_WIDTH
#define LEGEND_BAR 8

static void
hsl (double   h,
     double   s,
     double   l,
     GdkRGBA *out)
{
  double c = (1 - fabs (2 * l - 1)) * s;
  double hp = fmod (h, 360) / 60;
  double x = c * (1 - fabs (fmod (hp, 2) - 1));
  double r = 0, g = 0, b = 0, m = l - c / 2;

  if (hp < 1) { r = c; g = x; }
  else if (hp < 2) { r = x; g = c; }
  else if (hp < 3) { g = c; b = x; }
  else if (hp < 4) { g = x; b = c; }
  else if (hp < 5) { r = x; b = c; }
  else { r = c; b = x; }
  out->red = (float) (r + m);
  out->green = (float) (g + m);
  out->blue = (float) (b + m);
  out->alpha = 1;
}

void
kymo_timeline_heat_init (KymoTimelineHeat *heat,
                         gboolean          dark)
{
  for (guint i = 0; i < KYMO_HEAT_STEPS; i++)
    {
      double t = i / (double) (KYMO_HEAT_STEPS - 1);
      /* Teal through yellow to red: short polls recede, long ones shout. */
      hsl (190 - 190 * t, 0.75, dark ? 0.45 + 0.05 * t : 0.62 - 0.12 * t, &heat->steps[i]);
    }
  heat->parked = dark ? (GdkRGBA) { 0.30f, 0.32f, 0.36f, 1 } : (GdkRGBA) { 0.84f, 0.85f, 0.88f, 1 };
  heat->legend_bg = dark ? (GdkRGBA) { 0.12f, 0.12f, 0.14f, 0.85f } : (GdkRGBA) { 1, 1, 1, 0.85f };
}

gboolean
kymo_timeline_heat_applies (KymoTrace *trace)
{
  const KymoFormat *format = kymo_trace_get_format (trace);

  return format != NULL && g_strcmp0 (format->name, "dial9") == 0;
}

const GdkRGBA *
kymo_timeline_heat_colour (const KymoTimelineHeat *heat,
                           const KymoSpan         *span)
{
  KymoTime dur = span->end - span->start;
  double t;
  int step;

  if (kymo_span_flags (span) & KYMO_EVENT_STATE)
    return &heat->parked;
  t = ((dur > 0 ? log10 ((double) dur) : 0) - HEAT_LOW) / (HEAT_HIGH - HEAT_LOW);
  step = (int) floor (CLAMP (t, 0, 1) * (KYMO_HEAT_STEPS - 1) + 0.5);
  return &heat->steps[step];
}

static void
append_label (GtkSnapshot   *snapshot,
              PangoLayout   *layout,
              const char    *text,
              float          x,
              float          y,
              const GdkRGBA *colour)
{
  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, colour);
  gtk_snapshot_restore (snapshot);
}

float
kymo_timeline_append_scale (GtkSnapshot        *snapshot,
                            PangoLayout        *layout,
                            const char         *title,
                            const GdkRGBA      *steps,
                            guint               n_steps,
                            const char * const *ticks,
                            guint               n_ticks,
                            const GdkRGBA      *foreground,
                            const GdkRGBA      *background,
                            float               right,
                            float               bottom)
{
  int text_h, w;
  float x, y, box_w, box_h;

  pango_layout_set_text (layout, title, -1);
  pango_layout_get_pixel_size (layout, NULL, &text_h);
  box_w = LEGEND_WIDTH + 36;
  box_h = text_h * 2 + LEGEND_BAR + 8;
  x = right - box_w - 8;
  y = bottom - box_h;
  if (x < 0 || y < 0)
    return bottom;
  gtk_snapshot_append_color (snapshot, background, &GRAPHENE_RECT_INIT (x, y, box_w, box_h));
  append_label (snapshot, layout, title, x + 6, y + 2, foreground);
  for (guint i = 0; i < n_steps; i++)
    gtk_snapshot_append_color (snapshot, &steps[i],
                               &GRAPHENE_RECT_INIT (x + 18 + i * (float) LEGEND_WIDTH / n_steps, y + text_h + 3,
                                                    (float) LEGEND_WIDTH / n_steps + 0.5f, LEGEND_BAR));
  for (guint i = 0; i < n_ticks; i++)
    {
      float tx = x + 18 + i * (float) LEGEND_WIDTH / MAX (n_ticks - 1, 1);

      pango_layout_set_text (layout, ticks[i], -1);
      pango_layout_get_pixel_size (layout, &w, NULL);
      append_label (snapshot, layout, ticks[i], tx - w / 2.0f, y + text_h + LEGEND_BAR + 5, foreground);
    }
  return y;
}

float
kymo_timeline_heat_append_legend (const KymoTimelineHeat *heat,
                                  GtkSnapshot            *snapshot,
                                  PangoLayout            *layout,
                                  const GdkRGBA          *foreground,
                                  float                   right,
                                  float                   bottom)
{
  static const char * const ticks[] = { "1 µs", "100 µs", "10 ms" };

  return kymo_timeline_append_scale (snapshot, layout, _("Poll length"), heat->steps, KYMO_HEAT_STEPS,
                                     ticks, G_N_ELEMENTS (ticks), foreground, &heat->legend_bg, right, bottom - 8);
}

typedef struct {
  KymoTime start;
  KymoTime end;
} Wait;

struct _KymoTimelineSched
{
  KymoTrace  *trace;
  GHashTable *lanes;     /* track + 1 → GArray of Wait, by start */
  KymoTime    longest;
  gboolean    built;
};

KymoTimelineSched *
kymo_timeline_sched_new (KymoTrace *trace)
{
  KymoTimelineSched *self = g_new0 (KymoTimelineSched, 1);

  self->trace = g_object_ref (trace);
  self->lanes = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  return self;
}

void
kymo_timeline_sched_free (KymoTimelineSched *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->lanes);
  g_object_unref (self->trace);
  g_free (self);
}

static int
compare_waits (gconstpointer a,
               gconstpointer b)
{
  const Wait *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

static void
build (KymoTimelineSched *self)
{
  guint32 kind = kymo_trace_lookup_name (self->trace, "unpark");
  const KymoRecord *records;
  gsize n;
  GHashTableIter iter;
  gpointer value;

  self->built = TRUE;
  records = kymo_records_get_all (kymo_trace_get_records (self->trace), &n);
  for (gsize i = 0; kind != G_MAXUINT32 && i < n; i++)
    {
      const KymoRecord *r = &records[i];
      GArray *lane;
      Wait w;

      if (r->kind != kind || r->value == 0 || r->value > (guint64) G_MAXINT64 / 4 || r->track == KYMO_NO_TRACK)
        continue;
      lane = g_hash_table_lookup (self->lanes, GUINT_TO_POINTER (r->track + 1));
      if (lane == NULL)
        {
          lane = g_array_new (FALSE, FALSE, sizeof (Wait));
          g_hash_table_insert (self->lanes, GUINT_TO_POINTER (r->track + 1), lane);
        }
      w.end = r->ts;
      w.start = r->ts - (KymoTime) r->value;
      self->longest = MAX (self->longest, w.end - w.start);
      g_array_append_val (lane, w);
    }
  g_hash_table_iter_init (&iter, self->lanes);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_array_sort (value, compare_waits);
}

void
kymo_timeline_sched_draw (KymoTimelineSched *self,
                          GtkSnapshot       *snapshot,
                          guint              track,
                          KymoTime           t0,
                          KymoTime           t1,
                          double             px_per_ns,
                          float              y,
                          float              lane_height)
{
  static const GdkRGBA colour = { 0.88f, 0.11f, 0.14f, 1 };
  GArray *lane;
  const Wait *w;
  gsize lo = 0, hi;
  double last_x = -G_MAXDOUBLE;

  if (!self->built)
    build (self);
  lane = g_hash_table_lookup (self->lanes, GUINT_TO_POINTER (track + 1));
  if (lane == NULL)
    return;
  w = (const Wait *) (gpointer) lane->data;
  hi = lane->len;
  /* The first wait that may reach into the window. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (w[mid].start < t0 - self->longest)
        lo = mid + 1;
      else
        hi = mid;
    }
  for (gsize i = lo; i < lane->len && w[i].start <= t1; i++)
    {
      double x0, x1;

      if (w[i].end < t0)
        continue;
      x0 = (w[i].start - t0) * px_per_ns;
      x1 = (w[i].end - t0) * px_per_ns;
      /* One mark per pixel column is all that shows. */
      if (floor (x1) <= last_x)
        continue;
      last_x = floor (x1);
      gtk_snapshot_append_color (snapshot, &colour,
                                 &GRAPHENE_RECT_INIT (MAX (x0, -2), y + lane_height - 3, MAX (x1 - x0, 1), 3));
    }
}
