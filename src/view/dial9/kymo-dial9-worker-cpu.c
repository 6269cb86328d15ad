/* kymo-dial9-worker-cpu.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-dial9-worker-cpu.h"
#include "kymo-dial9-analysis.h"
#include "details/kymo-details-private.h"

static void
add_line (GtkWidget  *grid,
          int         row,
          const char *key,
          const char *value)
{
  GtkWidget *k = gtk_label_new (key);
  GtkWidget *v = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (k), 1);
  gtk_widget_add_css_class (k, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (v), 0);
  gtk_label_set_selectable (GTK_LABEL (v), TRUE);
  gtk_label_set_wrap (GTK_LABEL (v), TRUE);
  gtk_widget_set_hexpand (v, TRUE);
  gtk_grid_attach (GTK_GRID (grid), k, 0, row, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), v, 1, row, 1, 1);
}

gboolean
_kymo_dial9_add_active_period (KymoSession        *session,
                               GtkBox             *box,
                               const KymoEventRef *ref)
{
  KymoDial9Lanes *lanes;
  const KymoCpuPeriod *period;
  KymoTime start, end, cpu, active;
  g_autofree char *from = NULL, *to = NULL, *length = NULL, *used = NULL, *span_text = NULL, *share = NULL;
  GtkWidget *grid;
  int row = 0;

  if (ref == NULL || ref->kind == KYMO_EVENT_KIND_NONE || !kymo_dial9_analysis_applies (session))
    return FALSE;
  lanes = kymo_dial9_analysis_get_lanes (kymo_dial9_analysis_get (session));
  if (lanes == NULL || !kymo_session_get_event_extent (session, ref, &start, &end))
    return FALSE;
  /* The middle: a parked span begins where a period ends. */
  period = kymo_dial9_lanes_find_period (lanes, ref->track, start + (end - start) / 2);
  if (period == NULL)
    return FALSE;

  from = _kymo_details_format_time (session, period->start);
  to = _kymo_details_format_time (session, period->end);
  length = _kymo_details_format_duration (period->end - period->start);
  used = _kymo_details_format_duration (period->cpu);
  /* Translators: the worker's active period, from when it unparked to when it parked */
  span_text = g_strdup_printf (_("%s, unparked at %s, parked at %s"), length, from, to);
  /* Translators: CPU share of an active period: "25 % (250 µs)" */
  share = g_strdup_printf (_("%.0f %% (%s)"), 100 * kymo_cpu_period_share (period), used);

  gtk_box_append (box, _kymo_details_section_title (_("Active Period")));
  grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  gtk_widget_set_margin_start (grid, 12);
  gtk_widget_set_margin_end (grid, 12);
  add_line (grid, row++, _("Period"), span_text);
  add_line (grid, row++, _("On CPU"), share);
  if (kymo_dial9_lanes_get_cpu_total (lanes, ref->track, &cpu, &active) && active > 0)
    {
      g_autofree char *total = g_strdup_printf (_("%.0f %% of its active time"), 100.0 * cpu / active);
      add_line (grid, row++, _("Worker"), total);
    }
  gtk_box_append (box, grid);
  return TRUE;
}
