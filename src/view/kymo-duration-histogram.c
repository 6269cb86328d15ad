/* kymo-duration-histogram.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-find"

#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <glib/gi18n.h>

#include "kymo-duration-histogram.h"
#include "kymo-timeline-renderer.h"

#define N_BINS       KYMO_DURATION_HISTOGRAM_BINS
#define TEXT_ROW     40  /* two lines: the name, then the statistics */
#define AXIS_ROW     18
#define SIDE_PAD     8

typedef struct {
  gint64  dur;
  guint32 position;  /* in the search result */
} Entry;

/* Built in a thread from one result and one name; read-only afterwards. */
typedef struct {
  KymoSearchResult *result;
  guint32           name;
  Entry            *entries;    /* by duration */
  gsize             n_entries;
  gsize             bin_first[N_BINS + 1];
  double            log_min;
  double            log_max;
} Histogram;

struct _KymoDurationHistogram
{
  GtkWidget      parent_instance;

  KymoFindModel *model;
  guint32        name;         /* asked for, or KYMO_SESSION_NO_NAME */
  Histogram     *histogram;    /* NULL while computing or when empty */
  GCancellable  *cancellable;
  int            sel_first;    /* -1: no selection */
  int            sel_last;
  double         drag_x;
};

G_DEFINE_FINAL_TYPE (KymoDurationHistogram, kymo_duration_histogram, GTK_TYPE_WIDGET)

static void
histogram_free (Histogram *h)
{
  g_clear_pointer (&h->result, kymo_search_result_unref);
  g_free (h->entries);
  g_free (h);
}

static int
compare_entries (const void *a,
                 const void *b)
{
  const Entry *ea = a, *eb = b;

  if (ea->dur != eb->dur)
    return ea->dur < eb->dur ? -1 : 1;
  return ea->position < eb->position ? -1 : ea->position > eb->position;
}

static guint
bin_of (const Histogram *h,
        gint64           dur)
{
  double l;

  if (h->log_max <= h->log_min)
    return N_BINS / 2;
  l = log ((double) MAX (dur, 1));
  return (guint) CLAMP ((l - h->log_min) / (h->log_max - h->log_min) * N_BINS, 0, N_BINS - 1);
}

static guint32
default_name (KymoSearchResult *result)
{
  KymoTrace *trace = kymo_search_result_get_trace (result);
  g_autofree guint64 *spans = NULL;
  const KymoSearchHit *hits;
  gsize n;
  guint32 best = KYMO_SESSION_NO_NAME;

  /* the name with the most matching spans (instants have no duration) */
  spans = g_new0 (guint64, MAX (kymo_trace_get_n_names (trace), 1));
  hits = kymo_search_result_get_hits (result, &n);
  for (gsize i = 0; i < n; i++)
    if (hits[i].depth != KYMO_SEARCH_INSTANT)
      spans[kymo_search_hit_get_name (trace, &hits[i])]++;
  for (guint32 name = 0; name < kymo_trace_get_n_names (trace); name++)
    if (spans[name] > 0 && (best == KYMO_SESSION_NO_NAME || spans[name] > spans[best]))
      best = name;
  return best;
}

static void
compute_in_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  const Histogram *input = task_data;
  Histogram *h = g_new0 (Histogram, 1);
  KymoTrace *trace = kymo_search_result_get_trace (input->result);
  const KymoSearchHit *hits;
  gsize n, k = 0;

  h->result = kymo_search_result_ref (input->result);
  h->name = input->name != KYMO_SESSION_NO_NAME ? input->name : default_name (h->result);
  hits = kymo_search_result_get_hits (h->result, &n);
  h->entries = g_new (Entry, MAX (n, 1));
  for (gsize i = 0; i < n; i++)
    {
      KymoTime start, end;

      if (hits[i].depth == KYMO_SEARCH_INSTANT || kymo_search_hit_get_name (trace, &hits[i]) != h->name)
        continue;
      kymo_search_hit_get_times (trace, &hits[i], &start, &end);
      h->entries[k].dur = end - start;
      h->entries[k].position = (guint32) i;
      k++;
    }
  h->n_entries = k;
  if (g_cancellable_is_cancelled (cancellable))
    {
      histogram_free (h);
      g_task_return_error_if_cancelled (task);
      return;
    }
  qsort (h->entries, k, sizeof (Entry), compare_entries);
  if (k > 0)
    {
      h->log_min = log ((double) MAX (h->entries[0].dur, 1));
      h->log_max = log ((double) MAX (h->entries[k - 1].dur, 1));
    }
  /* sorted by duration, so each bin is one slice of the entries */
  for (guint b = 0, i = 0; b <= N_BINS; b++)
    {
      while (b < N_BINS && i < k && bin_of (h, h->entries[i].dur) < b)
        i++;
      h->bin_first[b] = b == N_BINS ? k : i;
    }
  g_task_return_pointer (task, h, (GDestroyNotify) histogram_free);
}

static void
on_computed (GObject      *source,
             GAsyncResult *res,
             gpointer      user_data)
{
  KymoDurationHistogram *self = KYMO_DURATION_HISTOGRAM (source);
  Histogram *h = g_task_propagate_pointer (G_TASK (res), NULL);

  if (h == NULL)
    return;
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->histogram, histogram_free);
  self->histogram = h;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
recompute (KymoDurationHistogram *self)
{
  KymoSearchResult *result = kymo_find_model_get_result (self->model);
  g_autoptr(GTask) task = NULL;
  Histogram *h;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->histogram, histogram_free);
  self->sel_first = self->sel_last = -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (result == NULL)
    return;

  h = g_new0 (Histogram, 1);
  h->result = kymo_search_result_ref (result);
  h->name = self->name;
  self->cancellable = g_cancellable_new ();
  task = g_task_new (self, self->cancellable, on_computed, NULL);
  g_task_set_source_tag (task, recompute);
  g_task_set_task_data (task, h, (GDestroyNotify) histogram_free);
  g_task_run_in_thread (task, compute_in_thread);
}

static void
percentile (const Histogram *h,
            guint            pct,
            char            *buf,
            gsize            size)
{
  gsize rank = (h->n_entries * pct + 99) / 100;
  g_autofree char *text = kymo_timeline_format_duration (h->entries[rank > 0 ? rank - 1 : 0].dur);

  g_strlcpy (buf, text, size);
}

static void
append_text (GtkSnapshot   *snapshot,
             PangoLayout   *layout,
             const char    *text,
             double         x,
             double         y,
             const GdkRGBA *colour)
{
  pango_layout_set_text (layout, text, -1);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, colour);
  gtk_snapshot_restore (snapshot);
}

static void
kymo_duration_histogram_snapshot (GtkWidget   *widget,
                                  GtkSnapshot *snapshot)
{
  KymoDurationHistogram *self = KYMO_DURATION_HISTOGRAM (widget);
  const Histogram *h = self->histogram;
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  GdkRGBA fg, bar, accent, dim;
  double bin_w, plot_h;
  gsize max_count = 1;
  char p50[32], p90[32], p99[32];
  g_autofree char *min = NULL, *max = NULL, *stats = NULL, *count = NULL;
  const char *name;

  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  dim = fg;
  dim.alpha *= 0.55f;
  bar = fg;
  bar.alpha *= 0.45f;
  gdk_rgba_parse (&accent, "#3584e4");

  if (h == NULL || h->n_entries == 0)
    {
      const char *text = kymo_find_model_get_result (self->model) == NULL ? _("Search to see durations")
                         : h == NULL ? _("Computing…") : _("No spans among the matches");
      append_text (snapshot, layout, text, SIDE_PAD, 4, &dim);
      return;
    }

  name = kymo_trace_get_name (kymo_search_result_get_trace (h->result), h->name);
  min = kymo_timeline_format_duration (h->entries[0].dur);
  max = kymo_timeline_format_duration (h->entries[h->n_entries - 1].dur);
  percentile (h, 50, p50, sizeof p50);
  percentile (h, 90, p90, sizeof p90);
  percentile (h, 99, p99, sizeof p99);
  count = g_strdup_printf ("%" G_GSIZE_FORMAT, h->n_entries);
  /* Translators: statistics over the durations of the spans of one name */
  stats = g_strdup_printf (_("min %s · p50 %s · p90 %s · p99 %s · max %s"),
                           min, p50, p90, p99, max);
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_width (layout, MAX (width - 2 * SIDE_PAD, 1) * PANGO_SCALE);
  {
    /* Translators: a span name and how many of its spans matched */
    g_autofree char *title = g_strdup_printf (_("%s — %s spans"), name, count);
    append_text (snapshot, layout, title, SIDE_PAD, 2, &fg);
  }
  append_text (snapshot, layout, stats, SIDE_PAD, 20, &dim);
  pango_layout_set_width (layout, -1);

  for (guint b = 0; b < N_BINS; b++)
    max_count = MAX (max_count, h->bin_first[b + 1] - h->bin_first[b]);
  bin_w = (width - 2.0 * SIDE_PAD) / N_BINS;
  plot_h = height - TEXT_ROW - AXIS_ROW - 4;
  if (plot_h < 4 || bin_w <= 0)
    return;

  for (guint b = 0; b < N_BINS; b++)
    {
      gsize c = h->bin_first[b + 1] - h->bin_first[b];
      gboolean selected = self->sel_first >= 0 && (int) b >= self->sel_first && (int) b <= self->sel_last;
      double bh;

      if (selected)
        {
          GdkRGBA wash = accent;
          wash.alpha = 0.15f;
          gtk_snapshot_append_color (snapshot, &wash,
                                     &GRAPHENE_RECT_INIT (SIDE_PAD + b * bin_w, TEXT_ROW, bin_w, plot_h));
        }
      if (c == 0)
        continue;
      /* a bin holding one span is still visible */
      bh = MAX (2.0, plot_h * (double) c / max_count);
      gtk_snapshot_append_color (snapshot, selected ? &accent : &bar,
                                 &GRAPHENE_RECT_INIT (SIDE_PAD + b * bin_w + 0.5, TEXT_ROW + plot_h - bh,
                                                      MAX (bin_w - 1, 1), bh));
    }
  gtk_snapshot_append_color (snapshot, &dim, &GRAPHENE_RECT_INIT (SIDE_PAD, TEXT_ROW + plot_h, width - 2 * SIDE_PAD, 1));

  /* the log axis: its two ends and the middle */
  {
    g_autofree char *mid = kymo_timeline_format_duration ((gint64) exp ((h->log_min + h->log_max) / 2));
    int tw, th;

    append_text (snapshot, layout, min, SIDE_PAD, TEXT_ROW + plot_h + 2, &dim);
    pango_layout_set_text (layout, mid, -1);
    pango_layout_get_pixel_size (layout, &tw, &th);
    append_text (snapshot, layout, mid, (width - tw) / 2.0, TEXT_ROW + plot_h + 2, &dim);
    pango_layout_set_text (layout, max, -1);
    pango_layout_get_pixel_size (layout, &tw, &th);
    append_text (snapshot, layout, max, width - SIDE_PAD - tw, TEXT_ROW + plot_h + 2, &dim);
  }
}

guint
kymo_duration_histogram_bin_at_x (KymoDurationHistogram *self,
                                  double                 x)
{
  double bin_w;

  g_return_val_if_fail (KYMO_IS_DURATION_HISTOGRAM (self), 0);

  bin_w = (gtk_widget_get_width (GTK_WIDGET (self)) - 2.0 * SIDE_PAD) / N_BINS;
  if (bin_w <= 0)
    return 0;
  return (guint) CLAMP ((x - SIDE_PAD) / bin_w, 0, N_BINS - 1);
}

static void
on_drag_begin (KymoDurationHistogram *self,
               double                 x,
               double                 y)
{
  self->drag_x = x;
}

static void
on_drag_update (KymoDurationHistogram *self,
                double                 dx,
                double                 dy)
{
  guint a = kymo_duration_histogram_bin_at_x (self, self->drag_x);
  guint b = kymo_duration_histogram_bin_at_x (self, self->drag_x + dx);

  if (self->histogram == NULL || fabs (dx) < 3)
    return;
  self->sel_first = MIN (a, b);
  self->sel_last = MAX (a, b);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end (KymoDurationHistogram *self,
             double                 dx,
             double                 dy)
{
  guint a = kymo_duration_histogram_bin_at_x (self, self->drag_x);
  guint b = kymo_duration_histogram_bin_at_x (self, self->drag_x + dx);

  /* a click (no drag) shows every match again */
  if (fabs (dx) < 3)
    kymo_duration_histogram_clear_selection (self);
  else
    kymo_duration_histogram_select_bins (self, MIN (a, b), MAX (a, b));
}

static void
kymo_duration_histogram_dispose (GObject *object)
{
  KymoDurationHistogram *self = KYMO_DURATION_HISTOGRAM (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->histogram, histogram_free);
  g_clear_object (&self->model);
  G_OBJECT_CLASS (kymo_duration_histogram_parent_class)->dispose (object);
}

static void
kymo_duration_histogram_measure (GtkWidget      *widget,
                                 GtkOrientation  orientation,
                                 int             for_size,
                                 int            *minimum,
                                 int            *natural,
                                 int            *minimum_baseline,
                                 int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 200 : TEXT_ROW + AXIS_ROW + 40;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 420 : 160;
}

static void
kymo_duration_histogram_class_init (KymoDurationHistogramClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = kymo_duration_histogram_dispose;
  widget_class->snapshot = kymo_duration_histogram_snapshot;
  widget_class->measure = kymo_duration_histogram_measure;
  gtk_widget_class_set_css_name (widget_class, "kymo-duration-histogram");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
kymo_duration_histogram_init (KymoDurationHistogram *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();

  self->name = KYMO_SESSION_NO_NAME;
  self->sel_first = self->sel_last = -1;
  g_signal_connect_swapped (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect_swapped (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect_swapped (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), _("Drag across bins to mark those spans; click to mark every match"));
}

static void
on_result (KymoDurationHistogram *self)
{
  /* a new search starts from its most common name again */
  self->name = KYMO_SESSION_NO_NAME;
  recompute (self);
}

GtkWidget *
kymo_duration_histogram_new (KymoFindModel *model)
{
  KymoDurationHistogram *self;

  g_return_val_if_fail (KYMO_IS_FIND_MODEL (model), NULL);

  self = g_object_new (KYMO_TYPE_DURATION_HISTOGRAM, NULL);
  self->model = g_object_ref (model);
  g_signal_connect_object (model, "notify::result", G_CALLBACK (on_result), self, G_CONNECT_SWAPPED);
  recompute (self);
  return GTK_WIDGET (self);
}

void
kymo_duration_histogram_set_name (KymoDurationHistogram *self,
                                  guint32                name)
{
  g_return_if_fail (KYMO_IS_DURATION_HISTOGRAM (self));

  if (self->histogram != NULL && self->histogram->name == name)
    return;
  self->name = name;
  recompute (self);
}

guint32
kymo_duration_histogram_get_name (KymoDurationHistogram *self)
{
  g_return_val_if_fail (KYMO_IS_DURATION_HISTOGRAM (self), KYMO_SESSION_NO_NAME);

  return self->histogram ? self->histogram->name : self->name;
}

gboolean
kymo_duration_histogram_is_ready (KymoDurationHistogram *self)
{
  g_return_val_if_fail (KYMO_IS_DURATION_HISTOGRAM (self), FALSE);

  return self->histogram != NULL;
}

guint64
kymo_duration_histogram_get_bin (KymoDurationHistogram *self,
                                 guint                  bin,
                                 gint64                *lo,
                                 gint64                *hi)
{
  const Histogram *h;
  gsize first, last;

  g_return_val_if_fail (KYMO_IS_DURATION_HISTOGRAM (self), 0);
  g_return_val_if_fail (bin < N_BINS, 0);

  h = self->histogram;
  if (h == NULL || h->n_entries == 0)
    return 0;
  first = h->bin_first[bin];
  last = h->bin_first[bin + 1];
  if (lo != NULL)
    *lo = first < last ? h->entries[first].dur : 0;
  if (hi != NULL)
    *hi = first < last ? h->entries[last - 1].dur : 0;
  return last - first;
}

void
kymo_duration_histogram_select_bins (KymoDurationHistogram *self,
                                     guint                  first,
                                     guint                  last)
{
  const Histogram *h;
  KymoSession *session;
  g_autoptr(KymoEventSet) set = NULL;
  const KymoSearchHit *hits;
  gsize n;

  g_return_if_fail (KYMO_IS_DURATION_HISTOGRAM (self));
  g_return_if_fail (first <= last && last < N_BINS);

  h = self->histogram;
  session = kymo_find_model_get_session (self->model);
  if (h == NULL || session == NULL)
    return;
  self->sel_first = first;
  self->sel_last = last;
  hits = kymo_search_result_get_hits (h->result, &n);
  set = kymo_event_set_new (kymo_search_result_get_trace (h->result));
  /* the bins are one slice of the duration-ordered entries */
  for (gsize i = h->bin_first[first]; i < h->bin_first[last + 1]; i++)
    kymo_event_set_add_span (set, hits[h->entries[i].position].track, hits[h->entries[i].position].index);
  kymo_session_set_highlight (session, set);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
kymo_duration_histogram_clear_selection (KymoDurationHistogram *self)
{
  KymoSearchResult *result = kymo_find_model_get_result (self->model);
  KymoSession *session = kymo_find_model_get_session (self->model);

  g_return_if_fail (KYMO_IS_DURATION_HISTOGRAM (self));

  self->sel_first = self->sel_last = -1;
  if (session != NULL)
    kymo_session_set_highlight (session, result ? kymo_search_result_get_event_set (result) : NULL);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
