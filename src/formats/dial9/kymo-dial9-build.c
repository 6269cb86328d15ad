/* kymo-dial9-build.c: runtimes, workers, paired spans and wake flows
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kymo-dial9-pair.h"
#include "kymo-dial9-pairing.h"
#include "kymo-dial9-side.h"
#include "kymo-parts.h"
#include "kymo-run-sort.h"
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

/* Orders by time, then by the event's place in the file. */
#define TS_LESS(x, y) ((x)->ts < (y)->ts || ((x)->ts == (y)->ts && (x)->source < (y)->source))
#define SPAN_LESS(x, y) ((x)->start < (y)->start || ((x)->start == (y)->start && (x)->source < (y)->source))

KYMO_DEFINE_RUN_SORT (sort_instants, KymoInstant, TS_LESS)
KYMO_DEFINE_RUN_SORT (sort_spans, KymoSpan, SPAN_LESS)

#define SYMBOL_LESS(x, y) \
  ((x)->addr < (y)->addr || ((x)->addr == (y)->addr && (x)->inline_depth < (y)->inline_depth))

/* Tables are written by address: a few runs, merged rather than sorted. */
KYMO_DEFINE_RUN_SORT (sort_symbols, D9Symbol, SYMBOL_LESS)

/* Sorts by address and inline depth and keeps one entry of each: rotated
 * segments each carry a symbol table, mostly of the same addresses, and a
 * copy per table would repeat every frame of a stack once per table. The
 * sort is stable, so the last table's entry is the one kept. */
static void
unique_symbols (GArray *symbols)
{
  D9Symbol *syms = (D9Symbol *) (gpointer) symbols->data;
  guint n = 0;

  sort_symbols (syms, symbols->len);
  for (guint i = 0; i < symbols->len; i++)
    {
      if (n > 0 && !SYMBOL_LESS (&syms[n - 1], &syms[i]))
        n--;
      syms[n++] = syms[i];
    }
  g_array_set_size (symbols, n);
}

static int
compare_worker_ids (gconstpointer a,
                    gconstpointer b)
{
  const D9Worker *x = *(D9Worker * const *) a, *y = *(D9Worker * const *) b;
  return x->id < y->id ? -1 : x->id > y->id;
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
    }
}

guint
d9_loader_lq_track (D9Loader *l,
                    D9Worker *w)
{
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
  return w->lq_track;
}

guint
d9_loader_wakes_track (D9Loader *l)
{
  if (l->wakes_track == KYMO_NO_TRACK)
    {
      l->wakes_track = kymo_trace_add_track (l->trace, default_group (l), KYMO_TRACK_INSTANT, "wakes");
      kymo_track_set_sort_key (kymo_trace_get_track (l->trace, l->wakes_track), G_MAXINT64 - 1);
    }
  return l->wakes_track;
}

static int
compare_creations (gconstpointer a,
                   gconstpointer b)
{
  const D9Creation *x = a, *y = b;

  return x->key < y->key ? -1 : x->key > y->key;
}

void
d9_create_tracks_in_order (D9Loader *l,
                           GArray   *creations)
{
  g_array_sort (creations, compare_creations);
  for (guint i = 0; i < creations->len; i++)
    {
      const D9Creation *c = &g_array_index (creations, D9Creation, i);

      if (c->worker == D9_FROM_WAKES)
        d9_loader_wakes_track (l);
      else
        d9_loader_lq_track (l, g_ptr_array_index (l->workers, c->worker));
    }
}

/* What merge() would have done for a streamed (time-ordered) input: the
 * tracks it creates on first use, in the same order (from what the arrays
 * will hold once the merged parts' are joined in: the flows need only the
 * tracks, so they can be replayed meanwhile). */
static void
create_stream_tracks (D9Loader *l)
{
  g_autoptr(GArray) creations = g_array_new (FALSE, FALSE, sizeof (D9Creation));

  for (guint i = 0; i < l->workers->len; i++)
    {
      D9Worker *w = g_ptr_array_index (l->workers, i);
      if (d9_loader_lq_len (l, w) > 0)
        {
          D9Creation c = { w->lq_first, i };
          g_array_append_val (creations, c);
        }
    }
  if (d9_loader_wake_instants_len (l) > 0)
    {
      D9Creation c = { l->wakes_first, D9_FROM_WAKES };
      g_array_append_val (creations, c);
    }
  d9_create_tracks_in_order (l, creations);
}

/* Then their events (the arrays joined by now). */
static void
fill_stream_tracks (D9Loader *l)
{
  if (l->wake_instants->len > 0)
    {
      KymoTrack *track = kymo_trace_get_track (l->trace, l->wakes_track);
      KymoInstant *in = (KymoInstant *) (gpointer) l->wake_instants->data;
      gsize n = l->wake_instants->len;

      /* Names packed as kymo_track_add_instant() packs them (no flags),
       * in place: the track adopts the array. Only a trace with more
       * names than that has any to clamp (the pass over the wakes cost
       * 4 ms on the folder, with the other core idle). */
      if (kymo_trace_get_n_names (l->trace) > KYMO_NAME_MAX)
        for (gsize k = 0; k < n; k++)
          in[k].name_flags = MIN (in[k].name_flags, KYMO_NAME_MAX);
      kymo_track_take_instants (track, d9_vec_steal (l->wake_instants, sizeof (KymoInstant)), n);
    }
  for (guint i = 0; i < l->workers->len; i++)
    {
      D9Worker *w = g_ptr_array_index (l->workers, i);

      if (w->lq_samples->len > 0)
        {
          KymoTrack *track = kymo_trace_get_track (l->trace, w->lq_track);
          /* The track adopts the array: no copy of the samples. */
          gsize n = w->lq_samples->len;

          kymo_track_take_samples (track, d9_vec_steal (w->lq_samples, sizeof (KymoSample)), n);
        }
    }
}

/* The flows, joined and turned into the trace's in place (a D9Flow and a
 * KymoFlow take the same room): the trace adopts the array. */
static void
replay_flows (D9Loader *l)
{
  gsize n;
  D9Flow *flows = d9_loader_join_flows (l, &n);
  KymoFlow *out = (KymoFlow *) (gpointer) flows;

  G_STATIC_ASSERT (sizeof (KymoFlow) == sizeof (D9Flow));
  if (flows == NULL)
    return;
  for (gsize i = 0; i < n; i++)
    {
      D9Flow f = flows[i];
      KymoFlow k;

      /* In runs, so that a join on another thread stops soon after a cancel. */
      if (i % 65536 == 0 && g_atomic_int_get (&l->stop_flows))
        {
          g_free (flows);
          return;
        }
      k.from_track = f.from == D9_FROM_WAKES ? l->wakes_track
                     : ((D9Worker *) g_ptr_array_index (l->workers, f.from))->track;
      k.to_track = ((D9Worker *) g_ptr_array_index (l->workers, f.to))->track;
      k.from_ts = f.from_ts;
      k.to_ts = f.to_ts;
      k.name = l->name_wake;
      k.source = f.source;
      out[i] = k;
    }
  kymo_trace_take_flows (l->trace, out, n);
}

/* The order a track's tree needs (kymo-span-tree.c): by start, longer
 * first. Pairing closes spans in time order, so only spans that start
 * together can be the wrong way round: a poll that another poll's start
 * cut short at once, before the one that then ran (copies of a trace
 * overlapping in time make that every time). Each moves back past the
 * few that start with it, as a stable sort would put it; past a budget
 * the rest is left to the track's sort at seal, which then has less to
 * do. */
#define SEAL_LESS(x, y) ((x)->start < (y)->start || ((x)->start == (y)->start && (x)->end > (y)->end))

static void
order_spans (KymoSpan *spans,
             gsize     n)
{
  gsize budget = n + 64;

  for (gsize i = 1; i < n; i++)
    if (G_UNLIKELY (SEAL_LESS (&spans[i], &spans[i - 1])))
      {
        KymoSpan t = spans[i];
        gsize j = i;

        do
          {
            spans[j] = spans[j - 1];
            j--;
          }
        while (j > 0 && SEAL_LESS (&t, &spans[j - 1]));
        spans[j] = t;
        if (budget <= i - j)
          return;
        budget -= i - j;
      }
}

/* What of a worker's track needs its edges paired, not the wakes. */
void
d9_finish_worker_spans (D9Loader  *l,
                        D9Worker  *w,
                        KymoTrack *track)
{
  d9_pair_close_depth0 (l, w, l->max_ts, KYMO_EVENT_INCOMPLETE);
  {
    /* Nothing is staged on the new track yet: it adopts the array, and
     * the deeper spans go into the room after it. */
    gsize n = w->spans0->len, cap;
    KymoSpan *spans;

    order_spans ((KymoSpan *) (gpointer) w->spans0->data, n);
    spans = d9_vec_steal_with_room (w->spans0, &cap);
    kymo_track_take_spans_with_room (track, 0, spans, n, cap);
  }
  d9_pair_close_stack (w, l->max_ts);

  if (w->deep->len > 0)
    {
      /* By depth, then by start: spans close in time order, so each
       * depth alone is in start order, or a few chains of it (copies
       * that overlap in time); all depths together are not, by far.
       * Counted by depth straight into the track's room after the
       * first level (a run per depth), then each depth sorted there. */
      gsize n = w->deep->len, at[D9_MAX_SPAN_DEPTH + 2] = { 0 };
      const D9DeepSpan *in = (const D9DeepSpan *) (gpointer) w->deep->data;
      KymoSpan *out = NULL;
      guint last = 0;

      for (gsize i = 0; i < n; i++)
        at[MIN (in[i].depth, D9_MAX_SPAN_DEPTH) + 1]++;
      for (guint d = 0; d <= D9_MAX_SPAN_DEPTH; d++)
        if (at[d + 1] > 0)
          {
            out = kymo_track_append_spans (track, d, at[d + 1]);
            last = d;
          }
      /* Runs that follow each other: the last one's place gives the first's. */
      out = out + at[last + 1] - n;
      for (guint d = 0; d <= D9_MAX_SPAN_DEPTH; d++)
        at[d + 1] += at[d];
      for (gsize i = 0; i < n; i++)
        {
          KymoSpan span = in[i].span;

          span.end = MAX (span.end, span.start);
          out[at[MIN (in[i].depth, D9_MAX_SPAN_DEPTH)]++] = span;
        }
      g_array_unref (w->deep);
      w->deep = g_array_new (FALSE, FALSE, sizeof (D9DeepSpan));
      for (gsize d = 0, from = 0; d <= D9_MAX_SPAN_DEPTH; d++)
        {
          sort_spans (out + from, at[d] - from);
          from = at[d];
        }
    }

  sort_instants ((KymoInstant *) (gpointer) w->instants->data, w->instants->len);
  /* Nothing adds spans to the track after this: their trees are built
   * here, beside the wakes' pass, rather than in the trace's seal. */
  kymo_track_seal_spans (track);
}

/* Then its instants, once the wakes are resolved: two sorted runs
 * (samples, wakes in time order), merged so that the track needs no sort
 * at seal. */
static void
finish_worker_instants (D9Loader  *l,
                        D9Worker  *w,
                        KymoTrack *track)
{
  {
    /* Merged into the (larger) wakes array, from the end down: no second
     * array. Ties keep the samples first. Names are interned ids, so they
     * are packed as kymo_track_add_instant() would pack them (no flags). */
    const KymoInstant *a = (const KymoInstant *) (gpointer) w->instants->data;
    gsize na = w->instants->len, nb = w->wakes->len, n = na + nb;
    KymoInstant *out;

    w->wakes->data = g_realloc_n (w->wakes->data, MAX (n, 1), sizeof (KymoInstant));
    w->wakes->cap = MAX (n, 1);
    out = (KymoInstant *) (gpointer) w->wakes->data;
    while (na > 0)
      {
        if (nb > 0 && !TS_LESS (&out[nb - 1], &a[na - 1]))
          {
            out[na + nb - 1] = out[nb - 1];
            nb--;
          }
        else
          {
            out[na + nb - 1] = a[na - 1];
            na--;
          }
      }
    w->wakes->len = n;
    kymo_track_take_instants (track, d9_vec_steal (w->wakes, sizeof (KymoInstant)), n);
  }

  /* The edges are done with: give their memory back before the next worker. */
  g_array_set_size (w->edges, 0);
  g_array_set_size (w->deep, 0);
  g_array_set_size (w->instants, 0);
  w->wakes->len = 0;
}

static void
finish_worker (D9Loader *l,
               D9Worker *w,
               gboolean  spans_done)
{
  KymoTrack *track = kymo_trace_get_track (l->trace, w->track);

  if (!spans_done)
    d9_finish_worker_spans (l, w, track);
  finish_worker_instants (l, w, track);
}

/* Below this many bytes of input, the tail's parts stay on one thread. */
#define TAIL_THREAD_MIN ((gsize) 4 << 20)

/* The tail of building as parts on the load's threads, which share
 * nothing: the side records made final (in pieces), the flows (the
 * trace's flows, no track made), each worker's track. Once the records
 * are, the loading thread hands them over and symbolises the samples (the
 * only work that interns names) while the threads finish the rest. Tasks
 * are shared, so the open polls are closed first. */
typedef struct {
  D9Loader    *l;
  D9SideBuild *side;
  guint        n_pieces;   /* still to be made final */
  gboolean     flows;      /* the flows are still to be replayed */
  gboolean     spans_done; /* the workers' spans are on their tracks */
  GError     **error;
  gboolean     symbols;    /* the symbol tables are still to be made one */
} D9Tail;

#define PENDING_LESS(x, y) ((x)->instant.ts < (y)->instant.ts)

KYMO_DEFINE_RUN_SORT (sort_pending, D9Pending, PENDING_LESS)

/* The instants of named tracks, in time order (ties in the order they
 * came), so that those tracks need no sort at seal: a track's share of
 * them sorted is its share of them all sorted. @tracks: by track id (the
 * loading thread may add tracks meanwhile). */
static void
add_pending (D9Loader   *l,
             KymoTrack **tracks)
{
  D9Pending *pending = (D9Pending *) (gpointer) l->pending->data;

  sort_pending (pending, l->pending->len);
  for (guint i = 0; i < l->pending->len; i++)
    kymo_track_add_instant (tracks[pending[i].track], pending[i].instant.ts, pending[i].instant.name_flags, 0,
                            pending[i].instant.source);
}

/* What runs beside the pairing: the side records' pieces, the symbol
 * tables made one (only the samples' stacks, at the side records' end,
 * read them), the named tracks' instants, then the end, which takes
 * @side, and the two halves of the samples it leaves sorted. */
typedef struct {
  D9Loader     *l;
  D9SideBuild  *side;
  guint         n_pieces;
  KymoTrack   **tracks;   /* by id, as the decode left them */
  D9SampleOrder order;
} D9Side;

#define SIDE_PARTS(s) ((s)->n_pieces + 2)

static void
side_part (guint    index,
           gpointer data)
{
  D9Side *s = data;

  if (index < s->n_pieces)
    d9_side_build_piece (s->side, index);
  else if (index == s->n_pieces)
    unique_symbols (s->l->d->symbols);
  else
    add_pending (s->l, s->tracks);
}

static void
side_end (gpointer data)
{
  D9Side *s = data;

  d9_side_build_end (g_steal_pointer (&s->side), &s->order);
}

static void
side_after (guint    index,
            gpointer data)
{
  d9_sample_order_sort (&((D9Side *) data)->order, index);
}

/* When streaming, the samples are left to the trace's seal, which sorts
 * them beside the tracks. */
static void
tail_side_end (gpointer data)
{
  D9Tail *t = data;
  D9SampleOrder order;

  d9_side_build_end (g_steal_pointer (&t->side), &order);
  d9_sample_order_fill (&order, 0);
  d9_sample_order_fill (&order, 1);
  d9_sample_order_clear (&order);
}

/* Parts: the symbol tables (when @symbols), the pieces, the flows (when
 * @flows), then the workers. */
static void
tail_part (guint    index,
           gpointer data)
{
  D9Tail *t = data;

  if (t->symbols && index-- == 0)
    unique_symbols (t->l->d->symbols);
  else if (index < t->n_pieces)
    d9_side_build_piece (t->side, index);
  else if (t->flows && index == t->n_pieces)
    replay_flows (t->l);
  else
    finish_worker (t->l, g_ptr_array_index (t->l->workers, index - t->n_pieces - t->flows), t->spans_done);
}

static gboolean
tail_join (guint    index,
           gpointer data)
{
  D9Tail *t = data;
  guint n = t->symbols + t->n_pieces + t->flows + t->l->workers->len;

  /* The symbols' part, if any, is joined before the pieces'. */
  if (t->symbols && index-- == 0)
    return TRUE;
  if (index + 1 == t->n_pieces)
    tail_side_end (t);
  return kymo_load_job_progress (t->l->job, 0.85 + 0.12 * (index + 1) / n, "Building the timeline", t->error);
}

/* Takes @side, whose pieces are done when @pieces_done. */
static gboolean
finish_tail (D9Loader    *l,
             D9SideBuild *side,
             guint        n_pieces,
             gboolean     pieces_done,
             gboolean     flows,
             GError     **error)
{
  D9Tail t = { l, side, side == NULL || pieces_done ? 0 : n_pieces, flows, pieces_done, error, FALSE };
  gboolean ok;

  for (guint i = 0; i < l->workers->len; i++)
    d9_pair_close_depth0 (l, g_ptr_array_index (l->workers, i), l->max_ts, KYMO_EVENT_INCOMPLETE);
  /* With pieces the side records' end waits for their joins: the symbol
   * tables, which it reads, are made one beside them. */
  if (!pieces_done)
    {
      t.symbols = t.n_pieces > 0;
      if (!t.symbols)
        unique_symbols (l->d->symbols);
    }
  ok = kymo_parts_run_helped (kymo_load_job_get_options (l->job), l->d->size, TAIL_THREAD_MIN,
                              t.symbols + t.n_pieces + flows + l->workers->len, tail_part, tail_join,
                              t.n_pieces == 0 && t.side != NULL ? tail_side_end : NULL, &t);
  g_clear_pointer (&t.side, d9_side_build_free);
  return ok;
}

static void
add_single_event_spans (D9Loader *l)
{
  for (guint i = 0; i < l->se_spans->len; i++)
    {
      GArray *spans = g_ptr_array_index (l->se_spans, i);
      KymoTrack *track = kymo_trace_get_track (l->trace, g_array_index (l->se_tracks, guint, i));
      KymoTime lanes[MAX_LANES] = { 0 };
      guint n_lanes = 0;

      sort_spans ((KymoSpan *) (gpointer) spans->data, spans->len);
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

gboolean
d9_build_model (D9Loader  *l,
                GError   **error)
{
  gboolean flows_done, pieces_done = FALSE, ok;
  g_autofree KymoTrack **tracks = NULL;
  D9SideBuild *side;
  guint n_pieces, n_tracks;

  if (l->min_ts > l->max_ts)
    l->min_ts = l->max_ts = 0;

  /* The named tracks' instants: beside the pairing, when there is one. */
  n_tracks = kymo_trace_get_n_tracks (l->trace);
  tracks = g_new (KymoTrack *, n_tracks + 1);
  for (guint i = 0; i < n_tracks; i++)
    tracks[i] = kymo_trace_get_track (l->trace, i);
  if (l->streaming)
    add_pending (l, tracks);

  create_worker_tracks (l);
  if (l->streaming)
    {
      gboolean has_flows = d9_loader_has_flows (l);

      create_stream_tracks (l);
      /* The flows need only the tracks: replayed while the arrays are joined. */
      if (!d9_loader_assemble (l, has_flows ? replay_flows : NULL, &flows_done, error))
        return FALSE;
      flows_done |= !has_flows;
      side = d9_side_build_begin (l, &n_pieces, error);
      if (side == NULL)
        return FALSE;
    }
  else
    {
      D9Side beside = { l, NULL, 0, tracks, { NULL } };

      /* The parts' instants join the loader's (their edges and wakes
       * already have). */
      if (!d9_loader_assemble (l, NULL, &flows_done, error))
        return FALSE;
      d9_loader_release_parts (l);
      /* The side records are made final beside the pairing. */
      beside.side = d9_side_build_begin (l, &beside.n_pieces, error);
      if (beside.side == NULL)
        return FALSE;
      ok = d9_pair_workers (l, SIDE_PARTS (&beside), side_part, side_end, 2, side_after, &beside,
                            d9_finish_worker_spans, error);
      /* A half is left unsorted only when cancelled. */
      d9_sample_order_clear (&beside.order);
      if (!ok)
        {
          g_clear_pointer (&beside.side, d9_side_build_free);
          return FALSE;
        }
      /* Its end ran beside the wakes' pass. */
      g_assert (beside.side == NULL);
      side = NULL;
      n_pieces = 0;
      pieces_done = TRUE;
      flows_done = FALSE;
    }
  fill_stream_tracks (l);

  /* What makes tracks comes before the tail, which makes none. */
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

  ok = finish_tail (l, side, n_pieces, pieces_done, !flows_done, error);
  /* The merged parts' flows are replayed by now. */
  d9_loader_release_parts (l);
  kymo_trace_set_time_range (l->trace, l->min_ts, l->max_ts);
  return ok;
}
