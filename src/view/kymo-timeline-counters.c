/* kymo-timeline-counters.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <math.h>

#include "kymo-timeline-counters.h"

#define COUNTER_BLOCK 64

typedef struct {
  double  min;
  double  max;
  gsize   n_blocks;
  double *block_min;   /* [n_blocks], only for large tracks */
  double *block_max;
} CounterSummary;

struct _KymoTimelineCounters
{
  GHashTable *summaries;   /* track id → CounterSummary */
};

static void
counter_summary_free (gpointer data)
{
  CounterSummary *summary = data;

  g_free (summary->block_min);
  g_free (summary->block_max);
  g_free (summary);
}

KymoTimelineCounters *
kymo_timeline_counters_new (void)
{
  KymoTimelineCounters *self = g_new0 (KymoTimelineCounters, 1);

  self->summaries = g_hash_table_new_full (NULL, NULL, NULL, counter_summary_free);
  return self;
}

void
kymo_timeline_counters_free (KymoTimelineCounters *self)
{
  if (self == NULL)
    return;
  g_hash_table_unref (self->summaries);
  g_free (self);
}

static CounterSummary *
get_summary (KymoTimelineCounters *self,
             KymoTrack            *track)
{
  guint id = kymo_track_get_id (track);
  CounterSummary *summary = g_hash_table_lookup (self->summaries, GUINT_TO_POINTER (id));
  const KymoSample *samples;
  gsize n;

  if (summary != NULL)
    return summary;

  /* Built once per track: the value range, and min/max per block so that a
   * column spanning millions of samples costs a few block reads. */
  samples = kymo_track_get_samples (track, &n);
  summary = g_new0 (CounterSummary, 1);
  summary->min = G_MAXDOUBLE;
  summary->max = -G_MAXDOUBLE;
  if (n > COUNTER_BLOCK * 32)
    {
      summary->n_blocks = (n + COUNTER_BLOCK - 1) / COUNTER_BLOCK;
      summary->block_min = g_new (double, summary->n_blocks);
      summary->block_max = g_new (double, summary->n_blocks);
    }
  for (gsize b = 0; b * COUNTER_BLOCK < n || (b == 0 && n == 0); b++)
    {
      double mn = G_MAXDOUBLE, mx = -G_MAXDOUBLE;
      for (gsize i = b * COUNTER_BLOCK; i < MIN (n, (b + 1) * COUNTER_BLOCK); i++)
        {
          double v = samples[i].value;
          if (isnan (v))
            continue;
          mn = MIN (mn, v);
          mx = MAX (mx, v);
        }
      if (summary->n_blocks)
        {
          summary->block_min[b] = mn;
          summary->block_max[b] = mx;
        }
      summary->min = MIN (summary->min, mn);
      summary->max = MAX (summary->max, mx);
      if (n == 0)
        break;
    }
  if (summary->min > summary->max)
    summary->min = summary->max = 0;
  if (summary->min > 0)
    summary->min = 0;
  if (summary->max == summary->min)
    summary->max = summary->min + 1;
  g_hash_table_insert (self->summaries, GUINT_TO_POINTER (id), summary);
  return summary;
}

static void
range_min_max (const CounterSummary *summary,
               const KymoSample     *samples,
               gsize                 lo,
               gsize                 hi,
               double               *mn,
               double               *mx)
{
  gsize i = lo;

  *mn = G_MAXDOUBLE;
  *mx = -G_MAXDOUBLE;
  while (i < hi)
    {
      if (summary->n_blocks && i % COUNTER_BLOCK == 0 && i + COUNTER_BLOCK <= hi)
        {
          *mn = MIN (*mn, summary->block_min[i / COUNTER_BLOCK]);
          *mx = MAX (*mx, summary->block_max[i / COUNTER_BLOCK]);
          i += COUNTER_BLOCK;
          continue;
        }
      if (!isnan (samples[i].value))
        {
          *mn = MIN (*mn, samples[i].value);
          *mx = MAX (*mx, samples[i].value);
        }
      i++;
    }
}

void
kymo_timeline_counters_draw (KymoTimelineCounters  *self,
                             GtkSnapshot           *snapshot,
                             KymoTrack             *track,
                             const GdkRGBA         *colour,
                             KymoTime               t0,
                             KymoTime               t1,
                             double                 px_per_ns,
                             int                    width,
                             const graphene_rect_t *bounds,
                             float                  top,
                             float                  h)
{
  const KymoSample *samples;
  CounterSummary *summary;
  guint n_columns = MAX (width, 1);
  gsize n, lo, hi;
  double scale;
  cairo_t *cr;

  samples = kymo_track_get_samples (track, &n);
  if (n == 0)
    return;
  summary = get_summary (self, track);
  scale = h / (summary->max - summary->min);
  lo = kymo_track_lower_bound_sample (track, t0);
  hi = kymo_track_lower_bound_sample (track, t1 + 1);
  /* The sample in force at the left edge. */
  if (lo > 0)
    lo--;
  if (hi <= lo)
    return;

#define TX(t) ((double) ((t) - t0) * px_per_ns)
#define VY(v) (top + h - ((v) - summary->min) * scale)
/* The first time in pixel column @x. */
#define XT(x) (t0 + (KymoTime) floor ((x) / px_per_ns))

  cr = gtk_snapshot_append_cairo (snapshot, bounds);
  cairo_rectangle (cr, bounds->origin.x, bounds->origin.y, bounds->size.width, bounds->size.height);
  cairo_clip (cr);
  cairo_set_line_width (cr, 1);
  gdk_cairo_set_source_rgba (cr, colour);

  if (hi - lo <= 2 * (gsize) n_columns)
    {
      /* Step plot through every sample. */
      double px = MAX (TX (samples[lo].ts), -1);
      double py = VY (samples[lo].value);
      cairo_move_to (cr, px, py);
      for (gsize i = lo + 1; i < hi + (hi < n ? 1 : 0); i++)
        {
          double x = MIN (TX (samples[i].ts), width + 1);
          double v = VY (samples[i].value);
          cairo_line_to (cr, x, py);
          cairo_line_to (cr, x, v);
          py = v;
        }
      if (hi >= n)
        cairo_line_to (cr, MIN (TX (kymo_track_get_end (track)), width), py);
      cairo_stroke (cr);
    }
  else
    {
      /* Min and max per pixel column, so that a one-sample spike survives. */
      gsize i = lo;
      double prev_last = NAN;
      for (guint c = 0; c < n_columns && i < n; c++)
        {
          KymoTime col_end = XT (c + 1);
          gsize j = kymo_track_lower_bound_sample (track, col_end);
          double mn, mx;
          if (j <= i)
            {
              if (!isnan (prev_last))
                {
                  cairo_move_to (cr, c, VY (prev_last) + 0.5);
                  cairo_line_to (cr, c + 1, VY (prev_last) + 0.5);
                }
              continue;
            }
          range_min_max (summary, samples, i, j, &mn, &mx);
          if (!isnan (prev_last))
            {
              mn = MIN (mn, prev_last);
              mx = MAX (mx, prev_last);
            }
          cairo_move_to (cr, c + 0.5, VY (mx));
          cairo_line_to (cr, c + 0.5, VY (mn) + 1);
          prev_last = samples[j - 1].value;
          i = j;
        }
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
#undef XT
#undef VY
#undef TX
}
