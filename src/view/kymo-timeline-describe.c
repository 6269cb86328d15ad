/* kymo-timeline-describe.c: what the timeline says of what is under the pointer
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline"

#include "config.h"

#include <glib/gi18n.h>

#include <math.h>
#include <string.h>

#include "kymo-timeline-private.h"

static char *
format_time (KymoTimeline *self,
             KymoTime      ts)
{
  KymoTime origin;

  kymo_trace_get_time_range (kymo_session_get_trace (self->session), &origin, NULL);
  return kymo_timeline_format_duration (ts - (origin == KYMO_TIME_NONE ? 0 : origin));
}

static KymoDial9Lanes *
get_lanes (KymoTimeline *self)
{
  return self->dial9 != NULL ? kymo_dial9_analysis_get_lanes (self->dial9) : NULL;
}

/* "On CPU 25 % of its 1 ms active period", for a time on a worker lane. */
static void
append_period_share (KymoTimeline *self,
                     GString      *text,
                     guint         track,
                     KymoTime      ts)
{
  KymoDial9Lanes *lanes = get_lanes (self);
  const KymoCpuPeriod *period = lanes ? kymo_dial9_lanes_find_period (lanes, track, ts) : NULL;
  g_autofree char *active = NULL;

  if (period == NULL)
    return;
  active = kymo_timeline_format_duration (period->end - period->start);
  g_string_append_c (text, '\n');
  /* Translators: the share of an active period (unpark to park) a Tokio
   * worker's thread was running on a CPU; %s is a duration */
  g_string_append_printf (text, _("On CPU %.0f %% of its %s active period"),
                          100 * kymo_cpu_period_share (period), active);
}

/* Over a worker's title strip or its CPU band, where no event is. */
static char *
describe_worker_at (KymoTimeline *self,
                    double        x,
                    double        y)
{
  KymoDial9Lanes *lanes = get_lanes (self);
  const KymoTimelineRow *row;
  KymoTime cpu, active;
  double ry;
  guint r;
  g_autofree char *name = NULL;
  g_autofree char *cpu_text = NULL;
  g_autofree char *active_text = NULL;
  GString *text;

  if (lanes == NULL || y < KYMO_TIMELINE_RULER_HEIGHT)
    return NULL;
  ry = y - KYMO_TIMELINE_RULER_HEIGHT + floor (gtk_adjustment_get_value (self->vadjustment));
  r = kymo_timeline_layout_find_row (self->layout, (int) floor (ry));
  if (r >= kymo_timeline_layout_get_n_rows (self->layout))
    return NULL;
  row = kymo_timeline_layout_get_row (self->layout, r);
  ry -= row->y;
  if (!kymo_dial9_lanes_get_cpu_total (lanes, row->track, &cpu, &active) || active <= 0)
    return NULL;
  name = g_markup_escape_text (kymo_track_get_name (kymo_trace_get_track (kymo_session_get_trace (self->session),
                                                                            row->track)), -1);
  text = g_string_new (NULL);
  if (ry < row->title_height)
    {
      cpu_text = kymo_timeline_format_duration (cpu);
      active_text = kymo_timeline_format_duration (active);
      g_string_append_printf (text, "<b>%s</b>\n", name);
      /* Translators: a Tokio worker's CPU time over the time it was not
       * parked; the %s are durations */
      g_string_append_printf (text, _("On CPU %.0f %% of its active time (%s of %s)"),
                              100.0 * cpu / active, cpu_text, active_text);
    }
  else if (ry >= row->lanes_y - KYMO_TIMELINE_CPU_BAND && ry < row->lanes_y)
    {
      g_string_append_printf (text, "<b>%s</b>", name);
      append_period_share (self, text, row->track, _kymo_timeline_time_at (self, x));
    }
  if (text->len == 0 || strchr (text->str, '\n') == NULL)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

char *
kymo_timeline_describe_at (KymoTimeline *self,
                           double        x,
                           double        y)
{
  KymoTrace *trace = kymo_session_get_trace (self->session);
  KymoTimelineViewport viewport;
  KymoEventRef ref;
  KymoTrack *track;
  KymoTime start, end;
  g_autofree char *start_text = NULL;
  g_autofree char *duration = NULL;
  const char *name = "";
  GString *text;

  g_return_val_if_fail (KYMO_IS_TIMELINE (self), NULL);

  _kymo_timeline_viewport_init (self, &viewport);
  if (!kymo_timeline_renderer_pick (self->renderer, self->session, self->layout, &viewport, x, y, &ref) ||
      !kymo_session_get_event_extent (self->session, &ref, &start, &end))
    return describe_worker_at (self, x, y);
  track = kymo_trace_get_track (trace, ref.track);
  start_text = format_time (self, start);
  duration = kymo_timeline_format_duration (end - start);
  text = g_string_new (NULL);

  switch (ref.kind)
    {
    case KYMO_EVENT_KIND_SPAN:
      {
        gsize n;
        const KymoSpan *span = &kymo_track_get_spans (track, &n)[ref.index];
        name = kymo_trace_get_name (trace, kymo_span_name (span));
        g_string_append_printf (text, "<b>%s</b>\n", name);
        g_string_append_printf (text, _("Start: %s"), start_text);
        g_string_append_c (text, '\n');
        if (kymo_span_flags (span) & KYMO_EVENT_INCOMPLETE)
          g_string_append_printf (text, _("Duration: %s (never ended)"), duration);
        else
          g_string_append_printf (text, _("Duration: %s"), duration);
        g_string_append_c (text, '\n');
        g_string_append_printf (text, _("Depth: %u"), kymo_track_get_span_depth (track, ref.index));
        /* The middle: a parked span begins where a period ends. */
        append_period_share (self, text, ref.track, start + (end - start) / 2);
        break;
      }
    case KYMO_EVENT_KIND_INSTANT:
      {
        gsize n;
        const KymoInstant *instant = &kymo_track_get_instants (track, &n)[ref.index];
        name = kymo_trace_get_name (trace, instant->name_flags & KYMO_NAME_MAX);
        g_string_append_printf (text, "<b>%s</b>\n", name);
        g_string_append_printf (text, _("At: %s"), start_text);
        break;
      }
    case KYMO_EVENT_KIND_SAMPLE:
      {
        gsize n;
        const KymoSample *sample = &kymo_track_get_samples (track, &n)[ref.index];
        const char *unit = kymo_track_get_unit (track);
        g_string_append_printf (text, "<b>%g%s%s</b>\n", sample->value, unit ? " " : "", unit ? unit : "");
        g_string_append_printf (text, _("At: %s"), start_text);
        break;
      }
    case KYMO_EVENT_KIND_ANNOTATION:
      {
        gsize n;
        const KymoAnnotation *a = &kymo_track_get_annotations (track, &n)[ref.index];
        g_autofree char *escaped = g_markup_escape_text (a->text ? a->text : "", -1);
        name = kymo_trace_get_name (trace, a->name);
        g_string_append_printf (text, "<b>%s</b>\n%s\n", name, escaped);
        g_string_append_printf (text, _("Start: %s"), start_text);
        g_string_append_c (text, '\n');
        g_string_append_printf (text, _("Duration: %s"), duration);
        break;
      }
    case KYMO_EVENT_KIND_NONE:
    default:
      break;
    }

  {
    g_autofree char *track_name = g_markup_escape_text (kymo_track_get_name (track), -1);
    g_string_append_c (text, '\n');
    g_string_append_printf (text, _("Track: %s"), track_name);
  }
  /* Names come from the trace: never let them be read as markup. */
  if (*name)
    {
      g_autofree char *escaped = g_markup_escape_text (name, -1);
      g_autofree char *bold = g_strdup_printf ("<b>%s</b>", name);
      g_autofree char *safe = g_strdup_printf ("<b>%s</b>", escaped);
      char *pos = strstr (text->str, bold);
      if (pos)
        {
          gssize at = pos - text->str;
          g_string_erase (text, at, strlen (bold));
          g_string_insert (text, at, safe);
        }
    }
  return g_string_free (text, FALSE);
}
