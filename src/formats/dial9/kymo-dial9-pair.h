/* kymo-dial9-pair.h: pairing span edges and resolving wakes, in merge order
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-loader.h"

G_BEGIN_DECLS

/* Shared by the pairing of a load that was not streamed
 * (kymo-dial9-pairing.c) and the streaming decoder (kymo-dial9-load.c),
 * inline because they run once per event.
 * When streaming, nothing goes into the trace yet: the worker tracks are
 * made at build time, after the runtimes are known. */

#define D9_MAX_SPAN_DEPTH 255

static inline void
d9_pair_lq_sample (D9Loader *l,
                   D9Worker *w,
                   KymoTime  ts,
                   guint64   aux,
                   guint32   source)
{
  guint64 lq = aux >> 32;
  double value;

  if (lq == 0)
    return;
  value = (double) (lq - 1);
  if (w->lq_valid && w->last_lq == value)
    return;
  if (l->streaming)
    {
      KymoSample s = { ts, value };

      if (!w->lq_valid)
        w->lq_first = source;
      *(KymoSample *) d9_vec_push (w->lq_samples, sizeof s) = s;
    }
  else
    kymo_track_add_sample (kymo_trace_get_track (l->trace, d9_loader_lq_track (l, w)), ts, value);
  w->lq_valid = TRUE;
  w->last_lq = value;
}

static inline void
d9_pair_close_depth0 (D9Loader *l,
                      D9Worker *w,
                      KymoTime  end,
                      guint     flags)
{
  KymoSpan span;

  if (w->state == D9_EDGE_POLL_START)
    {
      span.name_flags = MIN (w->open_name, KYMO_NAME_MAX) | (guint32) (flags & 0xFF) << 24;
      if (w->open_task != G_MAXUINT32)
        g_array_index (l->d->tasks, D9Task, w->open_task).worker = G_MAXUINT32;
    }
  else if (w->state == D9_EDGE_PARK)
    span.name_flags = MIN (l->name_parked, KYMO_NAME_MAX) | (guint32) ((flags | KYMO_EVENT_STATE) & 0xFF) << 24;
  else
    return;
  w->state = 0;
  span.start = w->open_start;
  span.end = MAX (end, w->open_start);
  span.source = w->open_source;
  /* The track takes the array whole when the worker is finished. */
  *(KymoSpan *) d9_vec_push (w->spans0, sizeof span) = span;
}

static inline void
d9_pair_close_deep (D9Worker *w,
                    guint     index,
                    KymoTime  end,
                    guint     flags)
{
  D9Open *open = &g_array_index (w->stack, D9Open, index);
  D9DeepSpan deep;

  deep.span.start = open->start;
  deep.span.end = MAX (end, open->start);
  deep.span.name_flags = (open->name & KYMO_NAME_MAX) | (guint32) flags << 24;
  deep.span.source = open->source;
  deep.depth = index + 1;
  g_array_append_val (w->deep, deep);
}

/* The spans entered on @w and not exited end at @end, unfinished. */
static inline void
d9_pair_close_stack (D9Worker *w,
                     KymoTime  end)
{
  for (guint j = w->stack->len; j-- > 0;)
    d9_pair_close_deep (w, j, end, KYMO_EVENT_INCOMPLETE);
  g_array_set_size (w->stack, 0);
}

/* @index is the worker's index in l->workers. */
static inline void
d9_pair_edge (D9Loader     *l,
              guint         index,
              D9Worker     *w,
              const D9Edge *e)
{
  guint kind = e->name_kind >> 24;

  switch (kind)
    {
    case D9_EDGE_POLL_START:
      {
        guint32 task = (guint32) e->aux;

        d9_pair_close_depth0 (l, w, e->ts, KYMO_EVENT_INCOMPLETE);
        w->state = D9_EDGE_POLL_START;
        w->open_start = e->ts;
        w->open_name = e->name_kind & KYMO_NAME_MAX;
        w->open_source = e->source;
        w->open_task = task;
        if (task != G_MAXUINT32)
          {
            D9Task *t = &g_array_index (l->d->tasks, D9Task, task);

            if (G_UNLIKELY (l->spec != NULL) && t->polls == 0)
              d9_spec_first_poll (l, task, index, e, t->wake_track != KYMO_NO_TRACK);
            t->worker = index;
            t->polls++;
            if (t->wake_track != KYMO_NO_TRACK)
              {
                if (l->streaming)
                  {
                    D9Flow flow = { t->wake_ts, e->ts, t->wake_track, index, t->wake_source, 0 };
                    *(D9Flow *) d9_vec_push (l->flows, sizeof flow) = flow;
                  }
                else
                  kymo_trace_add_flow (l->trace, t->wake_track, t->wake_ts, w->track, e->ts,
                                       l->name_wake, t->wake_source);
                t->wake_track = KYMO_NO_TRACK;
              }
          }
        d9_pair_lq_sample (l, w, e->ts, e->aux, e->source);
      }
      break;

    case D9_EDGE_POLL_END:
      if (w->state == D9_EDGE_POLL_START)
        d9_pair_close_depth0 (l, w, e->ts, 0);
      d9_pair_lq_sample (l, w, e->ts, e->aux, e->source);
      break;

    case D9_EDGE_PARK:
      d9_pair_close_depth0 (l, w, e->ts, KYMO_EVENT_INCOMPLETE);
      w->state = D9_EDGE_PARK;
      w->open_start = e->ts;
      w->open_source = e->source;
      d9_pair_lq_sample (l, w, e->ts, e->aux, e->source);
      break;

    case D9_EDGE_UNPARK:
      if (w->state == D9_EDGE_PARK)
        d9_pair_close_depth0 (l, w, e->ts, 0);
      d9_pair_lq_sample (l, w, e->ts, e->aux, e->source);
      break;

    case D9_EDGE_ENTER:
      if (w->stack->len < D9_MAX_SPAN_DEPTH)
        {
          D9Open open = { e->aux, e->ts, e->name_kind & KYMO_NAME_MAX, e->source };
          g_array_append_val (w->stack, open);
        }
      break;

    case D9_EDGE_EXIT:
      for (guint i = w->stack->len; i-- > 0;)
        if (g_array_index (w->stack, D9Open, i).span_id == e->aux)
          {
            /* Spans entered inside it and never exited end with it. */
            for (guint j = w->stack->len; j-- > i + 1;)
              d9_pair_close_deep (w, j, e->ts, KYMO_EVENT_INCOMPLETE);
            d9_pair_close_deep (w, i, e->ts, 0);
            g_array_set_size (w->stack, i);
            break;
          }
      break;

    case D9_EDGE_CUT:
      d9_pair_close_depth0 (l, w, e->ts, KYMO_EVENT_INCOMPLETE);
      d9_pair_close_stack (w, e->ts);
      break;

    default:
      break;
    }
}

/* @wake, from @from (a track, a worker or D9_FROM_WAKES), noted on the
 * task it wakes: the first wake since the task's last poll is the one
 * that scheduled the next. */
static inline void
d9_note_woken (D9Loader     *l,
               const D9Wake *wake,
               guint         from)
{
  if (wake->woken != G_MAXUINT32)
    {
      D9Task *t = &g_array_index (l->d->tasks, D9Task, wake->woken);

      if (t->wake_track == KYMO_NO_TRACK)
        {
          t->wake_track = from;
          t->wake_ts = wake->ts;
          t->wake_source = wake->source;
        }
    }
}

static inline void
d9_pair_wake (D9Loader     *l,
              const D9Wake *wake)
{
  guint32 waker = wake->waker != 0 ? d9_loader_find_task (l, wake->waker) : G_MAXUINT32;
  guint32 worker = waker != G_MAXUINT32 ? g_array_index (l->d->tasks, D9Task, waker).worker : G_MAXUINT32;
  guint from_track;

  /* A part decoded on its own cannot know whether the waker is being polled
   * since before it: the merge checks. */
  if (G_UNLIKELY (l->spec != NULL) && wake->waker != 0 &&
      (waker == G_MAXUINT32 || (worker == G_MAXUINT32 && g_array_index (l->d->tasks, D9Task, waker).polls == 0)))
    d9_spec_unknown_waker (l, wake->waker);

  if (worker != G_MAXUINT32)
    {
      D9Worker *w = g_ptr_array_index (l->workers, worker);
      KymoInstant instant = { wake->ts, l->name_wake, wake->source };

      *(KymoInstant *) d9_vec_push (w->wakes, sizeof instant) = instant;
      from_track = l->streaming ? worker : w->track;
    }
  else if (l->streaming)
    {
      KymoInstant instant = { wake->ts, l->name_wake, wake->source };

      if (l->wake_instants->len == 0)
        l->wakes_first = wake->source;
      *(KymoInstant *) d9_vec_push (l->wake_instants, sizeof instant) = instant;
      from_track = D9_FROM_WAKES;
    }
  else
    {
      from_track = d9_loader_wakes_track (l);
      kymo_track_add_instant (kymo_trace_get_track (l->trace, from_track), wake->ts, l->name_wake, 0,
                              wake->source);
    }

  d9_note_woken (l, wake, from_track);
}

G_END_DECLS
