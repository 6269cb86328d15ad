/* kymo-stats.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-stats"

#include "config.h"

#include "kymo-stats.h"

#include <string.h>

#define CHECK_EVERY 65536

typedef struct {
  GArray   *durations;  /* KymoTime */
  KymoTime  total;
  KymoTime  self;
} Accumulator;

/* The union of one depth run's spans as disjoint intervals, with the
 * running length before each: the covered part of any [a, b] is then two
 * binary searches, however the spans overlap. */
typedef struct {
  GArray *starts;  /* KymoTime */
  GArray *ends;    /* KymoTime */
  GArray *before;  /* guint64: covered length of the intervals before i */
} Coverage;

static KymoTime
add_sat (KymoTime a,
         KymoTime b)
{
  KymoTime r;

  if (__builtin_add_overflow (a, b, &r))
    return b > 0 ? G_MAXINT64 : G_MININT64;
  return r;
}

static KymoTime
span_duration (const KymoSpan *span)
{
  KymoTime r;

  /* end >= start in the model, so only an overflow can go wrong */
  if (__builtin_sub_overflow (span->end, span->start, &r))
    return G_MAXINT64;
  return r;
}

static void
coverage_reset (Coverage *cov)
{
  g_array_set_size (cov->starts, 0);
  g_array_set_size (cov->ends, 0);
  g_array_set_size (cov->before, 0);
}

static void
coverage_push (Coverage *cov,
               KymoTime  start,
               KymoTime  end)
{
  guint64 before = 0;
  guint n = cov->starts->len;

  if (n > 0)
    before = g_array_index (cov->before, guint64, n - 1) +
             ((guint64) g_array_index (cov->ends, KymoTime, n - 1) -
              (guint64) g_array_index (cov->starts, KymoTime, n - 1));
  g_array_append_val (cov->starts, start);
  g_array_append_val (cov->ends, end);
  g_array_append_val (cov->before, before);
}

/* Spans given in start order. */
static void
coverage_build (Coverage       *cov,
                const KymoSpan *spans,
                const guint32  *indexes,
                guint           n)
{
  KymoTime cur_start = 0, cur_end = 0;
  gboolean open = FALSE;

  coverage_reset (cov);
  for (guint i = 0; i < n; i++)
    {
      const KymoSpan *s = &spans[indexes[i]];

      if (open && s->start <= cur_end)
        {
          cur_end = MAX (cur_end, s->end);
          continue;
        }
      if (open)
        coverage_push (cov, cur_start, cur_end);
      cur_start = s->start;
      cur_end = s->end;
      open = TRUE;
    }
  if (open)
    coverage_push (cov, cur_start, cur_end);
}

/* Length of the covered part of (-inf, t]. */
static guint64
coverage_upto (const Coverage *cov,
               KymoTime        t)
{
  const KymoTime *starts = (const KymoTime *) (gpointer) cov->starts->data;
  guint lo = 0, hi = cov->starts->len;
  KymoTime s, e;

  /* k = number of intervals starting before t */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (starts[mid] < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return 0;
  s = starts[lo - 1];
  e = g_array_index (cov->ends, KymoTime, lo - 1);
  return g_array_index (cov->before, guint64, lo - 1) + ((guint64) MIN (e, t) - (guint64) s);
}

static gboolean
accumulate_track (KymoTrack    *track,
                  KymoTime      from,
                  KymoTime      to,
                  Accumulator  *accs,
                  guint         n_names,
                  GArray       *indexes,
                  Coverage     *cov,
                  GCancellable *cancellable,
                  guint        *countdown,
                  GError      **error)
{
  guint n_depths = kymo_track_get_n_depths (track);
  const KymoSpan *all;
  gsize n_all;

  all = kymo_track_get_spans (track, &n_all);
  for (guint d = 0; d < n_depths; d++)
    {
      const KymoSpan *spans;
      gsize n, lo, hi;
      KymoTime max_end;

      spans = kymo_track_get_depth_spans (track, d, &n, NULL);
      lo = kymo_spans_lower_bound (spans, n, from, FALSE);
      hi = kymo_spans_lower_bound (spans, n, to, TRUE);
      if (lo >= hi)
        continue;

      max_end = spans[lo].end;
      for (gsize i = lo; i < hi; i++)
        max_end = MAX (max_end, spans[i].end);

      g_array_set_size (indexes, 0);
      kymo_track_query_spans (track, d + 1, spans[lo].start, max_end, indexes);
      coverage_build (cov, all, (const guint32 *) (gpointer) indexes->data, indexes->len);

      for (gsize i = lo; i < hi; i++)
        {
          const KymoSpan *span = &spans[i];
          guint32 name = kymo_span_name (span);
          /* an id the trace never interned reads as "", like id 0 */
          Accumulator *acc = &accs[name < n_names ? name : 0];
          KymoTime duration = span_duration (span);
          guint64 covered = coverage_upto (cov, span->end) - coverage_upto (cov, span->start);

          if (acc->durations == NULL)
            acc->durations = g_array_new (FALSE, FALSE, sizeof (KymoTime));
          g_array_append_val (acc->durations, duration);
          acc->total = add_sat (acc->total, duration);
          acc->self = add_sat (acc->self, (KymoTime) ((guint64) duration - MIN (covered, (guint64) duration)));

          if (--*countdown == 0)
            {
              *countdown = CHECK_EVERY;
              if (g_cancellable_set_error_if_cancelled (cancellable, error))
                return FALSE;
            }
        }
    }
  return TRUE;
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  KymoTime ta = *(const KymoTime *) a;
  KymoTime tb = *(const KymoTime *) b;

  return ta < tb ? -1 : ta > tb;
}

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const KymoNameStats *ra = a;
  const KymoNameStats *rb = b;
  int cmp;

  if (ra->total != rb->total)
    return ra->total > rb->total ? -1 : 1;
  cmp = strcmp (ra->name, rb->name);
  if (cmp != 0)
    return cmp;
  return ra->name_id < rb->name_id ? -1 : ra->name_id > rb->name_id;
}

/* Nearest rank: the smallest value with at least @p % of the values at or below it. */
static KymoTime
percentile (const KymoTime *sorted,
            guint64         n,
            guint           p)
{
  guint64 rank = (n * p + 99) / 100;

  return sorted[MAX (rank, 1) - 1];
}

static KymoTime
rounded_mean (KymoTime total,
              guint64  count)
{
  guint64 t = (guint64) total;  /* durations are never negative */

  return (KymoTime) (t / count + ((t % count) * 2 >= count ? 1 : 0));
}

GArray *
kymo_stats_compute (KymoTrace    *trace,
                    KymoTime      from,
                    KymoTime      to,
                    GCancellable *cancellable,
                    GError      **error)
{
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GArray) indexes = NULL;
  Accumulator *accs;
  Coverage cov;
  guint n_names, n_tracks;
  guint countdown = CHECK_EVERY;
  gboolean ok = TRUE;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);
  g_return_val_if_fail (kymo_trace_is_sealed (trace), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (from == KYMO_TIME_NONE)
    from = G_MININT64;
  if (to == KYMO_TIME_NONE)
    to = G_MAXINT64;

  rows = g_array_new (FALSE, FALSE, sizeof (KymoNameStats));
  if (from > to)
    return g_steal_pointer (&rows);

  n_names = kymo_trace_get_n_names (trace);
  n_tracks = kymo_trace_get_n_tracks (trace);
  /* Name ids are dense, so a plain array beats a hash table here. */
  accs = g_new0 (Accumulator, MAX (n_names, 1));
  indexes = g_array_new (FALSE, FALSE, sizeof (guint32));
  cov.starts = g_array_new (FALSE, FALSE, sizeof (KymoTime));
  cov.ends = g_array_new (FALSE, FALSE, sizeof (KymoTime));
  cov.before = g_array_new (FALSE, FALSE, sizeof (guint64));

  for (guint t = 0; t < n_tracks && ok; t++)
    ok = accumulate_track (kymo_trace_get_track (trace, t), from, to, accs, n_names, indexes, &cov,
                           cancellable, &countdown, error);

  for (guint i = 0; i < n_names; i++)
    {
      Accumulator *acc = &accs[i];
      KymoNameStats row = { 0 };
      const KymoTime *sorted;
      guint64 n;

      if (acc->durations == NULL)
        continue;
      if (ok)
        {
          g_array_sort (acc->durations, compare_time);
          sorted = (const KymoTime *) (gpointer) acc->durations->data;
          n = acc->durations->len;

          row.name_id = i;
          row.name = kymo_trace_get_name (trace, i);
          row.count = n;
          row.total = acc->total;
          row.self = acc->self;
          row.min = sorted[0];
          row.max = sorted[n - 1];
          row.mean = rounded_mean (acc->total, n);
          row.p50 = percentile (sorted, n, 50);
          row.p90 = percentile (sorted, n, 90);
          row.p99 = percentile (sorted, n, 99);
          g_array_append_val (rows, row);
        }
      g_array_unref (acc->durations);
    }
  g_free (accs);
  g_array_unref (cov.starts);
  g_array_unref (cov.ends);
  g_array_unref (cov.before);

  if (!ok)
    return NULL;
  g_array_sort (rows, compare_rows);
  return g_steal_pointer (&rows);
}

static void
append_csv_field (GString    *out,
                  const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

static void
append_csv_row (GString             *out,
                const KymoNameStats *row)
{
  append_csv_field (out, row->name != NULL ? row->name : "");
  g_string_append_printf (out,
                          ",%" G_GUINT64_FORMAT
                          ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                          ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT
                          ",%" G_GINT64_FORMAT ",%" G_GINT64_FORMAT "\n",
                          row->count, row->total, row->self, row->min, row->mean,
                          row->max, row->p50, row->p90, row->p99);
}

void
kymo_stats_append_csv (GArray  *rows,
                       GString *out)
{
  g_return_if_fail (rows != NULL);
  g_return_if_fail (out != NULL);

  g_string_append (out, KYMO_STATS_CSV_HEADER "\n");
  for (guint i = 0; i < rows->len; i++)
    append_csv_row (out, &g_array_index (rows, KymoNameStats, i));
}

gboolean
kymo_stats_write_csv (GArray *rows,
                      FILE   *out)
{
  g_autoptr(GString) line = g_string_new (KYMO_STATS_CSV_HEADER "\n");

  g_return_val_if_fail (rows != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  /* A row at a time: the whole table may be large. */
  for (guint i = 0; i <= rows->len; i++)
    {
      if (fwrite (line->str, 1, line->len, out) != line->len)
        return FALSE;
      g_string_truncate (line, 0);
      if (i < rows->len)
        append_csv_row (line, &g_array_index (rows, KymoNameStats, i));
    }
  return fflush (out) == 0;
}
