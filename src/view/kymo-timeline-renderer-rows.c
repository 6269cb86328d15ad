/* kymo-timeline-renderer-rows.c: one row of the timeline: group headers, track titles, a track's lanes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-timeline-renderer"

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "kymo-timeline-renderer-private.h"

/* ---------------------------------------------------------------- counters */

static void
draw_counter (KymoTimelineFrame     *f,
              KymoTrack             *track,
              const KymoTimelineRow *row,
              float                  y)
{
  KymoTimelineRenderer *self = f->self;

  kymo_timeline_counters_draw (self->counters, f->snapshot, track,
                               &self->lines[_kymo_timeline_hue_for_string (kymo_track_get_name (track))],
                               f->t0, f->t1, f->px_per_ns, f->viewport->width,
                               &GRAPHENE_RECT_INIT (0, y, f->viewport->width, row->height),
                               y + KYMO_TIMELINE_ROW_PAD + 2, row->height - 2 * KYMO_TIMELINE_ROW_PAD - 4);
}

/* ---------------------------------------------------------------- rows */

/* "Process 31337" of kind "process" needs no suffix; "main" of kind
 * "process" does. */
static gboolean
name_mentions_kind (const char *name,
                    const char *kind)
{
  g_autofree char *name_folded = g_utf8_casefold (name, -1);
  g_autofree char *kind_folded = g_utf8_casefold (kind, -1);

  return strstr (name_folded, kind_folded) != NULL;
}

const char *
kymo_timeline_kind_label (const char *kind)
{
  static const struct { const char *kind; const char *label; } labels[] = {
    /* Group kinds */
    { "process", N_("process") },
    { "zone", N_("zone") },
    { "core", N_("core") },
    { "runtime", N_("runtime") },
    /* Track kinds */
    { "group", N_("group") },
    { "thread", N_("thread") },
    { "counter", N_("counter") },
    { "instant", N_("instant") },
    { "marker", N_("marker") },
    { "annotation", N_("annotation") },
    { "log", N_("log") },
  };

  g_return_val_if_fail (kind != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (g_str_equal (kind, labels[i].kind))
      return _(labels[i].label);
  return kind;
}

static void
draw_group_header (KymoTimelineFrame     *f,
                   const KymoTimelineRow *row,
                   KymoTrack             *track,
                   float                  y)
{
  KymoTimelineRenderer *self = f->self;
  const char *name = kymo_track_get_name (track);
  const char *kind = kymo_track_get_group_kind (track);
  g_autofree char *text = NULL;
  float x = 4 + row->indent * 12;
  float ty = y + (row->height - self->text_height) / 2.0f;

  gtk_snapshot_append_color (f->snapshot, &self->theme.header,
                             &GRAPHENE_RECT_INIT (0, y, f->viewport->width, row->height));
  if (kind != NULL && *kind == '\0')
    kind = NULL;
  if (*name == '\0' && kind != NULL)
    {
      name = kymo_timeline_kind_label (kind);
      kind = NULL;
    }
  text = g_strdup_printf ("%s %s%s", row->collapsed ? "▸" : "▾", row->pinned ? "• " : "", name);
  _kymo_timeline_frame_append_text (f, text, x, ty, &self->theme.foreground);
  if (kind != NULL && !name_mentions_kind (name, kind))
    _kymo_timeline_frame_append_text (f, kymo_timeline_kind_label (kind), x + _kymo_timeline_renderer_text_width (self, text) + 8,
                                      ty, &self->theme.dim);
}

/* The strip at the top of a track: its name, where no event is drawn. */
static void
draw_track_title (KymoTimelineFrame     *f,
                  const KymoTimelineRow *row,
                  KymoTrack             *track,
                  float                  y)
{
  KymoTimelineRenderer *self = f->self;
  const char *name = kymo_track_get_name (track);
  g_autofree char *pinned_name = NULL;
  GdkRGBA strip = self->theme.grid;
  float x = 6 + row->indent * 12;

  if (y + row->title_height < f->top || y > f->bottom)
    return;
  strip.alpha *= 0.5f;
  gtk_snapshot_append_color (f->snapshot, &strip,
                             &GRAPHENE_RECT_INIT (0, y, f->viewport->width, row->title_height));
  if (*name == '\0')
    return;
  if (row->pinned)
    name = pinned_name = g_strdup_printf ("• %s", name);
  gtk_snapshot_push_clip (f->snapshot, &GRAPHENE_RECT_INIT (0, y, f->viewport->width, row->title_height));
  _kymo_timeline_frame_append_text (f, name, x, y + (row->title_height - self->text_height) / 2.0f,
                                    &self->theme.foreground);
  gtk_snapshot_pop (f->snapshot);
}

/* A track's row without its title strip: where its events go. */
void
_kymo_timeline_content_row (const KymoTimelineRow *row,
                            float                  y,
                            KymoTimelineRow       *content,
                            float                 *content_y)
{
  *content = *row;
  content->height = row->height - row->title_height;
  content->lanes_y = row->lanes_y - row->title_height;
  content->y = row->y + row->title_height;
  content->title_height = 0;
  *content_y = y + row->title_height;
}

/* Over a worker's polls: kernel scheduling delays, CPU samples, the
 * selected task's wakes, and above them the on-CPU band. */
static void
draw_worker_extras (KymoTimelineFrame *f,
                    guint              track,
                    float              lane_y)
{
  KymoTimelineRenderer *self = f->self;

  kymo_timeline_sched_draw (self->sched, f->snapshot, track, f->t0, f->t1, f->px_per_ns, lane_y,
                            KYMO_TIMELINE_LANE_HEIGHT);
  kymo_timeline_cpu_draw_band (&self->cpu, self->lanes, f->snapshot, track, f->t0, f->t1, f->px_per_ns,
                               lane_y - KYMO_TIMELINE_CPU_BAND, KYMO_TIMELINE_CPU_BAND - 1);
  kymo_timeline_cpu_draw_ticks (&self->cpu, self->lanes, f->snapshot, track, f->t0, f->t1, f->px_per_ns, lane_y);
  kymo_timeline_cpu_draw_wakes (&self->cpu, &self->wakes, f->snapshot, track, f->t0, f->t1, f->px_per_ns,
                                f->viewport->width, lane_y, KYMO_TIMELINE_LANE_HEIGHT);
}

void
_kymo_timeline_frame_draw_row (KymoTimelineFrame     *f,
                               const KymoTimelineRow *row,
                               float                  y)
{
  KymoTrack *track = kymo_trace_get_track (f->self->trace, row->track);
  gsize n_instants, n_annotations;
  KymoTimelineRow content;
  float cy;

  f->self->stats.rows_drawn++;
  if (row->kind == KYMO_TRACK_GROUP)
    {
      draw_group_header (f, row, track, y);
      return;
    }

  draw_track_title (f, row, track, y);
  _kymo_timeline_content_row (row, y, &content, &cy);
  kymo_track_get_instants (track, &n_instants);
  kymo_track_get_annotations (track, &n_annotations);

  if (content.kind == KYMO_TRACK_COUNTER)
    draw_counter (f, track, &content, cy);

  if (kymo_track_get_n_depths (track) > 0)
    {
      guint n_depths = kymo_track_get_n_depths (track);
      for (guint d = 0; d < n_depths; d++)
        {
          float lane_y = cy + content.lanes_y + d * KYMO_TIMELINE_LANE_HEIGHT;
          if (lane_y + KYMO_TIMELINE_LANE_HEIGHT < f->top || lane_y > f->bottom)
            continue;
          f->heat_lane = f->self->heat_on && d == 0 && content.kind == KYMO_TRACK_THREAD;
          _kymo_timeline_frame_draw_depth (f, track, d, lane_y);
          if (f->heat_lane)
            draw_worker_extras (f, row->track, lane_y);
          f->heat_lane = FALSE;
        }
    }
  if (n_annotations > 0)
    _kymo_timeline_frame_draw_annotations (f, track, &content, cy);
  if (n_instants > 0)
    {
      if (content.kind == KYMO_TRACK_THREAD)
        {
          _kymo_timeline_frame_draw_instants (f, track, cy + 1, KYMO_TIMELINE_INSTANT_STRIP);
          _kymo_timeline_frame_highlight_instants (f, track, cy + 1, KYMO_TIMELINE_INSTANT_STRIP);
        }
      else
        {
          _kymo_timeline_frame_draw_instants (f, track, cy + KYMO_TIMELINE_ROW_PAD,
                                              content.height - 2 * KYMO_TIMELINE_ROW_PAD);
          _kymo_timeline_frame_highlight_instants (f, track, cy + KYMO_TIMELINE_ROW_PAD,
                                                   content.height - 2 * KYMO_TIMELINE_ROW_PAD);
        }
    }
  gtk_snapshot_append_color (f->snapshot, &f->self->theme.grid,
                             &GRAPHENE_RECT_INIT (0, y + row->height - 1, f->viewport->width, 1));
}
