/* kymo-dial9-build.c: runtimes, workers, paired spans and wake flows
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <stdlib.h>

#include "kymo-dial9-loader.h"

#define MAX_SPAN_DEPTH 255
#define MAX_LANES      64

static guint
default_group (D9Loader *l)
{
  if (l->default_group == KYMO_NO_TRACK)
    {
      const char *service = kymo_trace_get_metadata (l->trace, "service");
      const char *name = l->runtimes->len > 0 ? "other workers"
                         : service != NULL && *service ? service : "Tokio runtime";

      l->default_group = kymo_trace_add_track (l->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, name);
      kymo_track_set_group_kind (kymo_trace_get_track (l->trace, l->default_group), "runtime");
    }
  return l->default_group;
}

static int
compare_edges (gconstpointer a,
               gconstpointer b)
{
  const D9Edge *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->source < y->source ? -1 : x->source > y->source;
}

static int
compare_wakes (gconstpointer a,
               gconstpointer b)
{
  const D9Wake *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->source < y->source ? -1 : x->source > y->source;
}

static int
compare_instants (gconstpointer a,
                  gconstpointer b)
{
  const KymoInstant *x = a, *y = b;

  if (x->ts != y->ts)
    return x->ts < y->ts ? -1 : 1;
  return x->source < y->source ? -1 : x->source > y->source;
}

static int
compare_deep (gconstpointer a,
              gconstpointer b)
{
  const D9DeepSpan *x = a, *y = b;

  if (x->depth != y->depth)
    return x->depth < y->depth ? -1 : 1;
  if (x->span.start != y->span.start)
    return x->span.start < y->span.start ? -1 : 1;
  return x->span.source < y->span.source ? -1 : x->span.source > y->span.source;
}

static int
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const KymoSpan *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->source < y->source ? -1 : x->source > y->source;
}

static int
compare_symbols (gconstpointer a,
                 gconstpointer b)
{
  const D9Symbol *x = a, *y = b;

  if (x->addr != y->addr)
    return x->addr < y->addr ? -1 : 1;
  return x->inline_depth < y->inline_depth ? -1 : x->inline_depth > y->inline_depth;
}

static int
compare_worker_ids (gconstpointer a,
                    gconstpointer b)
{
  const D9Worker *x = *(D9Worker * const *) a, *y = *(D9Worker * const *) b;
  return x->id < y->id ? -1 : x->id > y->id;
}

/* Decoders mostly see events in order: sort only when they are not. */
static void
sort_if_needed (GArray       *array,
                GCompareFunc  compare)
{
  guint size = g_array_get_element_size (array);

  for (guint i = 1; i < array->len; i++)
    if (compare (array->data + (i - 1) * size, array->data + i * size) > 0)
      {
        g_array_sort (array, compare);
        return;
      }
}

static guint
group_for_worker (D9Loader *l,
                  guint64   id,
                  guint    *groups)
{
  for (guint r = 0; r < l->runtimes->len; r++)
    {
      D9Runtime *rt = g_ptr_array_index (l->runtimes, r);
      for (guint k = 0; k < rt->workers->len; k++)
        if (g_array_index (rt->workers, guint64, k) == id)
          return groups[r];
    }
  return default_group (l);
}

static void
create_worker_tracks (D9Loader *l)
{
  g_autofree guint *groups = g_new (guint, l->runtimes->len + 1);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

  for (guint r = 0; r < l->runtimes->len; r++)
    {
      D9Runtime *rt = g_ptr_array_index (l->runtimes, r);
      groups[r] = kymo_trace_add_track (l->trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, rt->name);
      kymo_track_set_group_kind (kymo_trace_get_track (l->trace, groups[r]), "runtime");
    }

  for (guint i = 0; i < l->workers->len; i++)
    g_ptr_array_add (sorted, g_ptr_array_index (l->workers, i));
  g_ptr_array_sort (sorted, compare_worker_ids);

  for (guint i = 0; i < sorted->len; i++)
    {
      D9Worker *w = g_ptr_array_index (sorted, i);
      g_autofree char *name = NULL;
      KymoTrack *track;

      if (w->id == D9_WORKER_BLOCKING)
        name = g_strdup ("blocking pool");
      else if (w->id == D9_WORKER_NONE)
        name = g_strdup ("other threads");
      else
        name = g_strdup_printf ("worker %" G_GUINT64_FORMAT, w->id);
      w->track = kymo_trace_add_track (l->trace, group_for_worker (l, w->id, groups), KYMO_TRACK_THREAD, name);
      track = kymo_trace_get_track (l->trace, w->track);
      kymo_track_set_tag (track, w->id);
      kymo_track_set_sort_key (track, (gint64) MIN (w->id, (guint64) G_MAXINT64 / 4) * 2);
      sort_if_needed (w->edges, compare_edges);
    }
}

static void
add_lq_sample (D9Loader *l,
               D9Worker *w,
               KymoTime  ts,
               guint64   aux)
{
  guint64 lq = aux >> 32;
  double value;

  if (lq == 0)
    return;
  value = (double) (lq - 1);
  if (w->lq_valid && w->last_lq == value)
    return;
  if (w->lq_track == KYMO_NO_TRACK)
    {
      KymoTrack *wt = kymo_trace_get_track (l->trace, w->track);
      g_autofree char *name = g_strdup_printf ("%s local queue", kymo_track_get_name (wt));
      KymoTrack *track;

      w->lq_track = kymo_trace_add_track (l->trace, kymo_track_get_parent (wt), KYMO_TRACK_COUNTER, name);
      track = kymo_trace_get_track (l->trace, w->lq_track);
      kymo_track_set_tag (track, w->id);
      kymo_track_set_sort_key (track, kymo_track_get_sort_key (wt) + 1);
    }
  kymo_track_add_sample (kymo_trace_get_track (l->trace, w->lq_track), ts, value);
  w->lq_valid = TRUE;
  w->last_lq = value;
}

static void
close_depth0 (D9Loader *l,
              D9Worker *w,
              KymoTime  end,
              guint     flags)
{
  KymoTrack *track = kymo_trace_get_track (l->trace, w->track);

  if (w->state == D9_EDGE_POLL_START)
    {
      kymo_track_add_span (track, w->open_start, end, w->open_name, 0, flags, w->open_source);
      if (w->open_task != G_MAXUINT32)
        g_array_index (l->d->tasks, D9Task, w->open_task).worker = G_MAXUINT32;
    }
  else if (w->state == D9_EDGE_PARK)
    kymo_track_add_span (track, w->open_start, end, l->name_parked, 0, flags | KYMO_EVENT_STATE,
                         w->open_source);
  w->state = 0;
}

static void
close_deep (D9Worker *w,
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

static void
process_edge (D9Loader     *l,
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

        close_depth0 (l, w, e->ts, KYMO_EVENT_INCOMPLETE);
        w->state = D9_EDGE_POLL_START;
        w->open_start = e->ts;
        w->open_name = e->name_kind & KYMO_NAME_MAX;
        w->open_source = e->source;
        w->open_task = task;
        if (task != G_MAXUINT32)
          {
            D9Task *t = &g_array_index (l->d->tasks, D9Task, task);

            t->worker = index;
            t->polls++;
            if (t->wake_track != KYMO_NO_TRACK)
              {
                kymo_trace_add_flow (l->trace, t->wake_track, t->wake_ts, w->track, e->ts,
                                     l->name_wake, t->wake_source);
                t->wake_track = KYMO_NO_TRACK;
              }
          }
        add_lq_sample (l, w, e->ts, e->aux);
      }
      break;

    case D9_EDGE_POLL_END:
      if (w->state == D9_EDGE_POLL_START)
        close_depth0 (l, w, e->ts, 0);
      add_lq_sample (l, w, e->ts, e->aux);
      break;

    case D9_EDGE_PARK:
      close_depth0 (l, w, e->ts, KYMO_EVENT_INCOMPLETE);
      w->state = D9_EDGE_PARK;
      w->open_start = e->ts;
      w->open_source = e->source;
      add_lq_sample (l, w, e->ts, e->aux);
      break;

    case D9_EDGE_UNPARK:
      if (w->state == D9_EDGE_PARK)
        close_depth0 (l, w, e->ts, 0);
      add_lq_sample (l, w, e->ts, e->aux);
      break;

    case D9_EDGE_ENTER:
      if (w->stack->len < MAX_SPAN_DEPTH)
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
              close_deep (w, j, e->ts, KYMO_EVENT_INCOMPLETE);
            close_deep (w, i, e->ts, 0);
            g_array_set_size (w->stack, i);
            break;
          }
      break;

    default:
      break;
    }
}

static void
process_wake (D9Loader *l,
              guint     index)
{
  const D9Wake *wake = &g_array_index (l->wakes, D9Wake, index);
  guint32 waker = wake->waker != 0 ? d9_map_lookup (&l->d->task_map, wake->waker) : G_MAXUINT32;
  guint32 worker = waker != G_MAXUINT32 ? g_array_index (l->d->tasks, D9Task, waker).worker : G_MAXUINT32;
  guint from_track;

  if (worker != G_MAXUINT32)
    {
      D9Worker *w = g_ptr_array_index (l->workers, worker);
      KymoInstant instant = { wake->ts, l->name_wake, wake->source };

      g_array_append_val (w->wakes, instant);
      from_track = w->track;
    }
  else
    {
      if (l->wakes_track == KYMO_NO_TRACK)
        {
          l->wakes_track = kymo_trace_add_track (l->trace, default_group (l), KYMO_TRACK_INSTANT, "wakes");
          kymo_track_set_sort_key (kymo_trace_get_track (l->trace, l->wakes_track), G_MAXINT64 - 1);
        }
      kymo_track_add_instant (kymo_trace_get_track (l->trace, l->wakes_track), wake->ts, l->name_wake, 0,
                              wake->source);
      from_track = l->wakes_track;
    }

  /* The first wake since the last poll is the one that scheduled it. */
  if (wake->woken != G_MAXUINT32)
    {
      D9Task *t = &g_array_index (l->d->tasks, D9Task, wake->woken);
      if (t->wake_track == KYMO_NO_TRACK)
        {
          t->wake_track = from_track;
          t->wake_ts = wake->ts;
          t->wake_source = wake->source;
        }
    }
}

/* A k-way merge of the workers' sorted edges and the wakes, in time order:
 * a wake needs to know which task each worker polls at its time. */
typedef struct {
  KymoTime ts;
  guint32  source;
  guint    stream;
} D9Head;

static gboolean
head_less (const D9Head *a,
           const D9Head *b)
{
  return a->ts < b->ts || (a->ts == b->ts && a->source < b->source);
}

static void
heap_push (D9Head *heap,
           guint  *n,
           D9Head  item)
{
  guint i = (*n)++;

  while (i > 0 && head_less (&item, &heap[(i - 1) / 2]))
    {
      heap[i] = heap[(i - 1) / 2];
      i = (i - 1) / 2;
    }
  heap[i] = item;
}

static D9Head
heap_pop (D9Head *heap,
          guint  *n)
{
  D9Head top = heap[0], last = heap[--(*n)];
  guint i = 0;

  for (;;)
    {
      guint c = 2 * i + 1;
      if (c >= *n)
        break;
      if (c + 1 < *n && head_less (&heap[c + 1], &heap[c]))
        c++;
      if (!head_less (&heap[c], &last))
        break;
      heap[i] = heap[c];
      i = c;
    }
  if (*n > 0)
    heap[i] = last;
  return top;
}

static gboolean
stream_head (D9Loader *l,
             guint     stream,
             D9Head   *head)
{
  D9Worker *w = g_ptr_array_index (l->workers, stream);
  const D9Edge *e;

  if (w->next >= w->edges->len)
    return FALSE;
  e = &g_array_index (w->edges, D9Edge, w->next);
  head->stream = stream;
  head->ts = e->ts;
  head->source = e->source;
  return TRUE;
}

static void
merge (D9Loader *l)
{
  guint n_streams = l->workers->len + 1, n = 0;
  g_autofree D9Head *heap = g_new (D9Head, n_streams);
  guint next_wake = 0;
  D9Head head;

  for (guint s = 0; s < l->workers->len; s++)
    if (stream_head (l, s, &head))
      heap_push (heap, &n, head);
  if (l->wakes->len > 0)
    {
      const D9Wake *wake = &g_array_index (l->wakes, D9Wake, 0);
      head.ts = wake->ts;
      head.source = wake->source;
      head.stream = l->workers->len;
      heap_push (heap, &n, head);
    }

  while (n > 0)
    {
      D9Head top = heap_pop (heap, &n);

      /* Run one stream for as long as it stays first: workers rarely
       * interleave at a fine grain, so this saves most heap traffic. */
      if (top.stream == l->workers->len)
        {
          for (;;)
            {
              const D9Wake *wake;

              process_wake (l, next_wake++);
              if (next_wake >= l->wakes->len)
                break;
              wake = &g_array_index (l->wakes, D9Wake, next_wake);
              head.ts = wake->ts;
              head.source = wake->source;
              head.stream = top.stream;
              if (n > 0 && head_less (&heap[0], &head))
                {
                  heap_push (heap, &n, head);
                  break;
                }
            }
        }
      else
        {
          D9Worker *w = g_ptr_array_index (l->workers, top.stream);

          for (;;)
            {
              process_edge (l, top.stream, w, &g_array_index (w->edges, D9Edge, w->next));
              w->next++;
              if (!stream_head (l, top.stream, &head))
                break;
              if (n > 0 && head_less (&heap[0], &head))
                {
                  heap_push (heap, &n, head);
                  break;
                }
            }
        }
    }
}

static void
finish_worker (D9Loader *l,
               D9Worker *w)
{
  KymoTrack *track = kymo_trace_get_track (l->trace, w->track);

  close_depth0 (l, w, l->max_ts, KYMO_EVENT_INCOMPLETE);
  for (guint j = w->stack->len; j-- > 0;)
    close_deep (w, j, l->max_ts, KYMO_EVENT_INCOMPLETE);
  g_array_set_size (w->stack, 0);

  sort_if_needed (w->deep, compare_deep);
  for (guint i = 0; i < w->deep->len; i++)
    {
      const D9DeepSpan *deep = &g_array_index (w->deep, D9DeepSpan, i);
      kymo_track_add_span (track, deep->span.start, deep->span.end, kymo_span_name (&deep->span),
                           deep->depth, kymo_span_flags (&deep->span), deep->span.source);
    }

  /* Two sorted runs (samples in file order, wakes from the merge): merge
   * them so that the track needs no sort at seal. */
  sort_if_needed (w->instants, compare_instants);
  {
    const KymoInstant *a = (const KymoInstant *) (gpointer) w->instants->data;
    const KymoInstant *b = (const KymoInstant *) (gpointer) w->wakes->data;
    guint i = 0, j = 0;

    while (i < w->instants->len || j < w->wakes->len)
      {
        const KymoInstant *in;

        if (j >= w->wakes->len || (i < w->instants->len && compare_instants (&a[i], &b[j]) <= 0))
          in = &a[i++];
        else
          in = &b[j++];
        kymo_track_add_instant (track, in->ts, in->name_flags, 0, in->source);
      }
  }

  /* The edges are done with: give their memory back before the next worker. */
  g_array_set_size (w->edges, 0);
  g_array_set_size (w->deep, 0);
  g_array_set_size (w->instants, 0);
  g_array_set_size (w->wakes, 0);
}

static void
add_single_event_spans (D9Loader *l)
{
  for (guint i = 0; i < l->se_spans->len; i++)
    {
      GArray *spans = g_ptr_array_index (l->se_spans, i);
      KymoTrack *track = kymo_trace_get_track (l->trace, g_array_index (l->se_tracks, guint, i));
      KymoTime lanes[MAX_LANES];
      guint n_lanes = 0;

      sort_if_needed (spans, compare_spans);
      for (guint k = 0; k < spans->len; k++)
        {
          const KymoSpan *s = &g_array_index (spans, KymoSpan, k);
          guint lane = 0;

          /* Overlapping spans (concurrent requests) go to the first free lane. */
          while (lane < n_lanes && lanes[lane] > s->start)
            lane++;
          if (lane == MAX_LANES)
            lane = MAX_LANES - 1;
          else if (lane == n_lanes)
            n_lanes++;
          lanes[lane] = MAX (lanes[lane], s->end);
          if (s->start < l->min_ts)
            l->min_ts = s->start;
          kymo_track_add_span (track, s->start, s->end, kymo_span_name (s), lane, 0, s->source);
        }
    }
}

static void
add_late (D9Loader *l)
{
  for (guint i = 0; i < l->late->len; i++)
    {
      const D9Late *late = &g_array_index (l->late, D9Late, i);
      KymoTime ts = l->min_ts;

      /* Wall-clock stamps land where the clock sync says, if that is inside
       * the trace; symbol tables have no meaningful time. */
      if (late->wall && l->has_wallclock)
        {
          KymoTime mono = late->ts - l->wall_offset;
          if (mono >= l->min_ts && mono <= l->max_ts)
            ts = mono;
        }
      kymo_track_add_instant (kymo_trace_get_track (l->trace, late->track), ts, late->name, 0, late->source);
    }
}

void
d9_build_model (D9Loader *l)
{
  g_array_sort (l->d->symbols, compare_symbols);

  if (l->min_ts > l->max_ts)
    l->min_ts = l->max_ts = 0;

  create_worker_tracks (l);
  sort_if_needed (l->wakes, compare_wakes);
  merge (l);
  for (guint i = 0; i < l->workers->len; i++)
    finish_worker (l, g_ptr_array_index (l->workers, i));

  if (l->queue->len > 0)
    {
      KymoTrack *track;

      l->queue_track = kymo_trace_add_track (l->trace, default_group (l), KYMO_TRACK_COUNTER, "global queue");
      track = kymo_trace_get_track (l->trace, l->queue_track);
      kymo_track_set_sort_key (track, G_MAXINT64 - 2);
      for (guint i = 0; i < l->queue->len; i++)
        {
          const KymoSample *s = &g_array_index (l->queue, KymoSample, i);
          kymo_track_add_sample (track, s->ts, s->value);
        }
    }

  add_single_event_spans (l);
  add_late (l);
  kymo_trace_set_time_range (l->trace, l->min_ts, l->max_ts);
}
