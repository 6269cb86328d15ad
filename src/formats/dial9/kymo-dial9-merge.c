/* kymo-dial9-merge.c: later parts decoded on their own, merged in file order
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>
#include "kymo-dial9-decode.h"
#include "kymo-dial9-side.h"
#include "kymo-dial9-pair.h"

/* How far back from the end to look for the start of the last segment. */
#define LAST_SEGMENT_SEARCH ((gsize) 4 << 20)

guint
d9_parallel_threads (D9Loader *l)
{
  return kymo_load_options_get_threads (kymo_load_job_get_options (l->job), l->d->size, PARALLEL_MIN_BYTES);
}

/* Candidate segment starts: the first "TRC\0\1" in each of @n_regions
 * equal regions (a part may then hold several segments). Whether one is a
 * segment start at all is settled by the decoder before it. */
void
d9_find_candidates (D9Shared *sh,
                 guint     n_regions)
{
  static const guint8 magic[D9_HEADER_SIZE] = { 'T', 'R', 'C', 0, D9_VERSION };
  gsize region = sh->size / n_regions + 1;

  sh->cands = g_new (gsize, n_regions + 1);
  sh->n_cands = 0;
  for (guint r = 0; r < n_regions; r++)
    {
      gsize from = MAX ((gsize) r * region, D9_HEADER_SIZE);
      gsize to = MIN ((gsize) (r + 1) * region + D9_HEADER_SIZE - 1, sh->size);
      const guint8 *hit;

      if (sh->n_cands > 0 && sh->cands[sh->n_cands - 1] >= from)
        from = sh->cands[sh->n_cands - 1] + 1;
      if (from >= to || to - from < D9_HEADER_SIZE)
        continue;
      for (gsize at = from; to - at >= sizeof magic; at = hit - sh->data + 1)
        {
          hit = memchr (sh->data + at, magic[0], to - at - sizeof magic + 1);
          if (hit == NULL)
            break;
          if (memcmp (hit, magic, sizeof magic) == 0)
            {
              sh->cands[sh->n_cands++] = hit - sh->data;
              break;
            }
        }
    }

  /* The last segment is often the symbol table a symbolizer appends, which
   * a part cannot take over: on its own, only that part is decoded again. */
  if (sh->size > D9_HEADER_SIZE)
    {
      gsize floor = sh->size > LAST_SEGMENT_SEARCH ? sh->size - LAST_SEGMENT_SEARCH : 0;

      if (sh->n_cands > 0)
        floor = MAX (floor, sh->cands[sh->n_cands - 1] + 1);
      floor = MAX (floor, D9_HEADER_SIZE);
      for (gsize at = sh->size - sizeof magic + 1; at-- > floor;)
        if (sh->data[at] == magic[0] && memcmp (sh->data + at, magic, sizeof magic) == 0)
          {
            sh->cands[sh->n_cands++] = at;
            break;
          }
    }
}

D9Loader *
d9_spec_new (D9Shared *sh)
{
  D9Loader *l = g_new0 (D9Loader, 1);
  D9Spec *spec = g_new0 (D9Spec, 1);
  D9Data *d = d9_data_new ();

  d->data = sh->data;
  d->size = sh->size;
  spec->end_cand = G_MAXUINT;
  spec->names = g_hash_table_new (g_str_hash, g_str_equal);
  spec->strings = g_ptr_array_new_with_free_func (g_free);
  spec->notes = g_array_new (FALSE, TRUE, sizeof (D9TaskNote));
  spec->inserts = g_array_new (FALSE, FALSE, sizeof (D9Insert));
  spec->tracks = g_array_new (FALSE, FALSE, sizeof (D9SpecTrack));
  spec->metas = g_array_new (FALSE, FALSE, sizeof (gsize));
  d9_map_init (&spec->unknown_wakers);
  /* No job: only the loading thread reports progress. */
  d9_loader_init (l, NULL, NULL, d, g_hash_table_new (NULL, NULL), spec);
  l->streaming = sh->streaming;
  return l;
}

void
d9_spec_free (D9Loader *l)
{
  D9Spec *spec;
  D9Data *d;

  if (l == NULL)
    return;
  spec = l->spec;
  d = l->d;
  d9_loader_clear (l);
  d9_data_free (d);
  g_hash_table_unref (spec->names);
  g_ptr_array_unref (spec->strings);
  g_array_unref (spec->notes);
  g_array_unref (spec->inserts);
  g_array_unref (spec->tracks);
  g_array_unref (spec->metas);
  g_free (spec->track_map);
  d9_map_clear (&spec->unknown_wakers);
  g_free (spec->name_map);
  g_free (spec->worker_map);
  g_free (spec->task_map);
  g_free (spec->edges_at);
  g_free (spec);
  g_free (l);
}

void
d9_spec_trim (D9Loader *c)
{
  D9Data *d = d9_data_new ();

  /* The merge copied its pools, symbols, checkpoints, tasks and schemas
   * into the loader's: only its event arrays and maps are still read. */
  d->data = c->d->data;
  d->size = c->d->size;
  d->n_events = c->d->n_events;
  d9_data_free (c->d);
  c->d = d;
  g_clear_pointer (&c->task_direct, g_free);
  c->n_task_direct = 0;
}

static void
spec_decode (D9Shared *sh,
             guint     index)
{
  D9Loader *l;
  D9Stop stop;

  if (sh->fill != NULL && !sh->fill (sh->fill_data, index + 1))
    return;
  l = d9_spec_new (sh);
  if (sh->fill != NULL && index + 1 < sh->n_cands)
    l->d->size = sh->cands[index + 1];
  if (d9_decode (l, sh, sh->cands[index], index + 1, &stop, NULL))
    {
      l->spec->complete = stop.status == D9_OK && !l->disorder;
      l->spec->end_cand = stop.end_cand;
      /* A file decoded to its end stops where the next one starts. */
      if (sh->fill != NULL && l->spec->complete && index + 1 < sh->n_cands)
        l->spec->end_cand = index + 1;
    }
  sh->parts[index] = l;
}

/* Decodes the part at candidate @index, on any thread. */
void
d9_spec_part (guint    index,
           gpointer data)
{
  D9Shared *sh = data;

  if (g_atomic_int_get (&sh->cancel) || g_atomic_int_get (&sh->abandon) ||
      g_cancellable_is_cancelled (sh->cancellable))
    return;
  spec_decode (sh, index);
}

const gsize d9_kind_size[K_N_KINDS] = {
  sizeof (KymoSpan), sizeof (KymoSample), sizeof (KymoInstant), sizeof (KymoInstant),
  sizeof (D9DeepSpan), sizeof (KymoInstant), sizeof (D9Flow),
};


D9Vec *
d9_kind_vec (D9Loader *l,
          guint     worker,
          guint     kind)
{
  D9Worker *w = worker != G_MAXUINT ? g_ptr_array_index (l->workers, worker) : NULL;

  switch (kind)
    {
    case K_SPANS0: return w->spans0;
    case K_LQ: return w->lq_samples;
    case K_WAKES: return w->wakes;
    /* A part's, in a vector; the loader's is a GArray. */
    case K_INSTANTS: return w->part_instants;
    case K_WAKE_INSTANTS: return l->wake_instants;
    case K_FLOWS: return l->flows;
    default: return NULL;
    }
}

GArray *
d9_kind_array (D9Loader *l,
            guint     worker,
            guint     kind)
{
  D9Worker *w = g_ptr_array_index (l->workers, worker);
  return kind == K_INSTANTS ? w->instants : w->deep;
}

gsize
d9_kind_len (D9Loader *l,
          guint     worker,
          guint     kind)
{
  D9Vec *v = d9_kind_vec (l, worker, kind);
  return v != NULL ? v->len : d9_kind_array (l, worker, kind)->len;
}

static GArray *
merge_slot (D9Merge *m,
            guint    slot)
{
  if (slot >= m->n_slots)
    {
      guint n = MAX (slot + 1, m->n_slots * 2);

      m->pieces = g_renew (GArray *, m->pieces, n);
      m->marks = g_realloc_n (m->marks, n, sizeof m->marks[0]);
      for (guint i = m->n_slots; i < n; i++)
        {
          m->pieces[i] = g_array_new (FALSE, FALSE, sizeof (D9Piece) * K_N_KINDS);
          memset (m->marks[i], 0, sizeof m->marks[i]);
        }
      m->n_slots = n;
    }
  return m->pieces[slot];
}

/* Ends the loader's own run in @slot and adds the part's after it
 * (@worker of the part, G_MAXUINT for slot 0). */
static void
add_piece (D9Merge  *m,
           D9Loader *l,
           guint     slot,
           D9Loader *part,
           guint     worker,
           gboolean  drop_first_lq)
{
  GArray *pieces = merge_slot (m, slot);
  D9Piece own[K_N_KINDS], theirs[K_N_KINDS];
  guint first = slot == 0 ? K_N_WORKER_KINDS : 0;
  guint last = slot == 0 ? K_N_KINDS : K_N_WORKER_KINDS;

  memset (own, 0, sizeof own);
  memset (theirs, 0, sizeof theirs);
  for (guint k = first; k < last; k++)
    {
      guint own_worker = slot == 0 ? G_MAXUINT : slot - 1;

      own[k].part = NULL;
      own[k].from = m->marks[slot][k];
      own[k].to = d9_kind_len (l, own_worker, k);
      m->marks[slot][k] = own[k].to;
      theirs[k].part = part;
      theirs[k].worker = worker;
      theirs[k].from = k == K_LQ && drop_first_lq ? 1 : 0;
      theirs[k].to = d9_kind_len (part, worker, k);
    }
  g_array_append_vals (pieces, own, 1);
  g_array_append_vals (pieces, theirs, 1);
}

/* The edge of part @c that closes @gw's open poll or park: the first poll
 * start or park, or the first poll end (unpark) for a poll (park). Sets
 * *source to its source + 1 (0: none) and *kind. */
static void
resolving_edge (D9Loader       *c,
                const D9Worker *gw,
                guint32        *source,
                D9EdgeKind     *kind)
{
  guint64 id = gw->id;
  guint32 index = id < 256 ? c->small_workers[id] - 1 : d9_map_lookup (&c->worker_map, id);
  const D9Worker *lw;

  *source = 0;
  if (index == G_MAXUINT32 || gw->state == 0)
    return;
  lw = g_ptr_array_index (c->workers, index);
  for (guint k = D9_EDGE_POLL_START; k <= D9_EDGE_UNPARK; k++)
    {
      guint32 s = lw->first_source[k - 1];

      if (s == 0 || (k == D9_EDGE_POLL_END && gw->state != D9_EDGE_POLL_START) ||
          (k == D9_EDGE_UNPARK && gw->state != D9_EDGE_PARK))
        continue;
      if (*source == 0 || s < *source)
        {
          *source = s;
          if (kind != NULL)
            *kind = k;
        }
    }
}

/* Named tracks, and what the part noted rather than set in the trace:
 * taken over in file order, as decoding the part here would have. */
static void
merge_named (D9Loader *l,
             D9Loader *c,
             guint32   ordinal_base)
{
  D9Spec *spec = c->spec;
  guint *track_map;

  track_map = spec->track_map = g_new (guint, spec->tracks->len + 1);
  for (guint i = 0; i < spec->tracks->len; i++)
    {
      const D9SpecTrack *t = &g_array_index (spec->tracks, D9SpecTrack, i);

      track_map[i] = d9_loader_name_track (l, d9_map_name (spec, t->name), t->kind);
    }

  for (guint i = 0; i < c->pending->len; i++)
    {
      D9Pending pending = g_array_index (c->pending, D9Pending, i);

      pending.track = track_map[pending.track];
      pending.instant.name_flags = MIN (d9_map_name (spec, pending.instant.name_flags), KYMO_NAME_MAX);
      pending.instant.source += ordinal_base;
      g_array_append_val (l->pending, pending);
    }
  for (guint i = 0; i < c->late->len; i++)
    {
      D9Late late = g_array_index (c->late, D9Late, i);

      late.track = track_map[late.track];
      late.name = d9_map_name (spec, late.name);
      late.source += ordinal_base;
      g_array_append_val (l->late, late);
    }
  for (guint i = 0; i < c->se_tracks->len; i++)
    {
      guint track = track_map[g_array_index (c->se_tracks, guint, i)];
      GArray *in = g_ptr_array_index (c->se_spans, i), *out = NULL;
      gsize at;

      for (guint k = 0; k < l->se_tracks->len && out == NULL; k++)
        if (g_array_index (l->se_tracks, guint, k) == track)
          out = g_ptr_array_index (l->se_spans, k);
      if (out == NULL)
        {
          g_array_append_val (l->se_tracks, track);
          out = g_array_new (FALSE, FALSE, sizeof (KymoSpan));
          g_ptr_array_add (l->se_spans, out);
        }
      at = out->len;
      g_array_append_vals (out, in->data, in->len);
      for (gsize k = at; k < out->len; k++)
        {
          KymoSpan *span = &g_array_index (out, KymoSpan, k);

          span->name_flags = d9_map_name (spec, span->name_flags);
          span->source += ordinal_base;
        }
    }

  g_array_append_vals (l->d->symbols, c->d->symbols->data, c->d->symbols->len);
  for (guint i = 0; i < spec->metas->len; i++)
    d9_meta_entries (l, g_array_index (spec->metas, gsize, i));
  if (!l->has_wallclock && c->has_wallclock)
    {
      l->has_wallclock = TRUE;
      l->wall_offset = c->wall_offset;
      kymo_trace_set_wallclock (l->trace, spec->wall_ts, c->wall_offset + spec->wall_ts);
    }
}

/* Takes over what part @c decoded, as if @l had decoded it. Only cheap
 * per-task and per-worker work here; the event arrays are joined later by
 * assemble(). */
int
d9_merge_part (D9Loader *l,
            D9Loader *c,
            D9Merge  *m)
{
  D9Spec *spec = c->spec;
  D9Data *d = l->d, *cd = c->d;
  guint32 ordinal_base, segment_base, string_base, stack_base, schema_base, field_base;
  guint32 *task_map;

  if (c->disorder)
    return MERGE_DISORDER;
  if (!spec->complete)
    return MERGE_REJECT;
  if (spec->has_order && spec->first_order_ts < l->order_ts)
    return MERGE_DISORDER;
  if (d->n_events + cd->n_events >= G_MAXUINT32)
    return MERGE_REJECT;
  /* The part was decoded with every worker idle. A poll or park still open
   * here ends at the worker's first edge that closes it; until then its
   * task is being polled, which the part could not know of when that task
   * woke another: then (or for a task polled twice at once) decode it here. */
  for (guint i = 0; i < l->workers->len; i++)
    {
      D9Worker *gw = g_ptr_array_index (l->workers, i);
      guint32 end = 0;

      if (gw->state == D9_EDGE_POLL_START && gw->open_task != G_MAXUINT32)
        {
          const D9Task *t = &g_array_index (d->tasks, D9Task, gw->open_task);
          guint32 local = d9_map_lookup (&cd->task_map, t->id);

          if (d9_map_lookup (&spec->unknown_wakers, t->id) != G_MAXUINT32)
            return MERGE_REJECT;
          if (local != G_MAXUINT32 && local < spec->notes->len)
            {
              const D9TaskNote *note = &g_array_index (spec->notes, D9TaskNote, local);

              resolving_edge (c, gw, &end, NULL);
              if ((note->flags & D9_TASK_POLLED) && (end == 0 || note->poll_source + 1 < end))
                return MERGE_REJECT;
            }
        }
    }
  for (guint i = 0; i < c->workers->len; i++)
    {
      guint64 id = ((D9Worker *) g_ptr_array_index (c->workers, i))->id;
      guint32 index = id < 256 ? l->small_workers[id] - 1 : d9_map_lookup (&l->worker_map, id);

      if (index != G_MAXUINT32 && ((D9Worker *) g_ptr_array_index (l->workers, index))->stack->len > 0)
        return MERGE_REJECT;
    }

  /* Names, in the order the part met them: the order decoding it here
   * would have interned them in. */
  spec->name_map = g_new (guint32, spec->strings->len + 1);
  for (guint i = 0; i < spec->strings->len; i++)
    spec->name_map[i] = kymo_trace_intern (l->trace, g_ptr_array_index (spec->strings, i));
  ordinal_base = (guint32) d->n_events;
  spec->ordinal_base = ordinal_base;

  /* Schemas, pools and checkpoints: segment numbers follow on. */
  segment_base = d->reg.segment;
  schema_base = d->reg.schemas->len;
  field_base = d->reg.fields->len;
  g_array_append_vals (d->reg.fields, cd->reg.fields->data, cd->reg.fields->len);
  for (guint i = 0; i < cd->reg.schemas->len; i++)
    {
      D9Schema schema = g_array_index (cd->reg.schemas, D9Schema, i);

      schema.first_field += field_base;
      schema.segment += segment_base;
      schema.model = G_MAXUINT32;
      g_array_append_val (d->reg.schemas, schema);
      d9_map_insert (&d->reg.by_segment, (guint64) schema.segment << 16 | schema.type_id, schema_base + i);
    }
  d->reg.segment += cd->reg.segment;

  string_base = d->pool_strings->len;
  for (guint i = 0; i < cd->pool_strings->len; i++)
    {
      D9PoolString ps = g_array_index (cd->pool_strings, D9PoolString, i);

      if (ps.name != G_MAXUINT32)
        ps.name = d9_map_name (spec, ps.name);
      g_array_append_val (d->pool_strings, ps);
    }
  stack_base = d->pool_stacks->len;
  g_array_append_vals (d->pool_stacks, cd->pool_stacks->data, cd->pool_stacks->len);
  /* The part's maps are kept as they are, for its segments: inserting
   * every key into the loader's maps cost a cache miss each. */
  d9_data_add_pool_chunk (d, cd, segment_base, string_base, stack_base);
  d9_side_merge_part (l, c, ordinal_base, segment_base);
  for (guint i = 0; i < cd->checkpoints->len; i++)
    {
      D9Checkpoint cp = g_array_index (cd->checkpoints, D9Checkpoint, i);

      cp.segment += segment_base;
      cp.ordinal += ordinal_base;
      g_array_append_val (d->checkpoints, cp);
    }

  /* Workers, then tasks, each in the order the part first met them. */
  spec->worker_map = g_new (guint32, c->workers->len + 1);
  for (guint i = 0; i < c->workers->len; i++)
    spec->worker_map[i] = d9_loader_worker (l, ((D9Worker *) g_ptr_array_index (c->workers, i))->id)->index;

  /* What was left open before ends first (as d9_pair_close_depth0()), and
   * before the tasks' polls here set where they run. */
  for (guint i = 0; i < c->workers->len; i++)
    {
      D9Worker *gw = g_ptr_array_index (l->workers, spec->worker_map[i]);
      D9Worker *lw = g_ptr_array_index (c->workers, i);
      guint32 end;
      D9EdgeKind kind = 0;

      resolving_edge (c, gw, &end, &kind);
      if (end != 0)
        {
          guint flags = kind == D9_EDGE_POLL_START || kind == D9_EDGE_PARK ? KYMO_EVENT_INCOMPLETE : 0;
          KymoTime ts = lw->first_ts[kind - 1];
          KymoSpan span;

          if (gw->state == D9_EDGE_POLL_START)
            {
              span.name_flags = MIN (gw->open_name, KYMO_NAME_MAX) | (guint32) (flags & 0xFF) << 24;
              if (gw->open_task != G_MAXUINT32)
                g_array_index (d->tasks, D9Task, gw->open_task).worker = G_MAXUINT32;
            }
          else
            span.name_flags = MIN (l->name_parked, KYMO_NAME_MAX) | (guint32) ((flags | KYMO_EVENT_STATE) & 0xFF) << 24;
          span.start = gw->open_start;
          span.end = MAX (ts, gw->open_start);
          span.source = gw->open_source;
          *(KymoSpan *) d9_vec_push (gw->spans0, sizeof span) = span;
          gw->state = 0;
        }
    }

  task_map = spec->task_map = g_new (guint32, cd->tasks->len + 1);
  for (guint i = 0; i < cd->tasks->len; i++)
    {
      const D9Task *lt = &g_array_index (cd->tasks, D9Task, i);
      D9TaskNote note = { 0 };
      D9Task *gt;
      gboolean keep_pending;

      task_map[i] = d9_loader_task (l, lt->id);
      gt = &g_array_index (d->tasks, D9Task, task_map[i]);
      if (i < spec->notes->len)
        note = g_array_index (spec->notes, D9TaskNote, i);

      gt->polls += lt->polls;
      if (lt->spawn != KYMO_TIME_NONE)
        gt->spawn = lt->spawn;
      if (lt->terminate != KYMO_TIME_NONE)
        gt->terminate = lt->terminate;
      /* A spawn event sets the location; a poll only when there is none. */
      if ((note.flags & D9_TASK_LOC_SET) || gt->spawn_loc == G_MAXUINT32)
        gt->spawn_loc = lt->spawn_loc != G_MAXUINT32 ? lt->spawn_loc + string_base : G_MAXUINT32;
      /* Only a poll here changes it (a poll open from before, closed
       * here, is handled with the workers). */
      if (note.flags & D9_TASK_POLLED)
        gt->worker = lt->worker != G_MAXUINT32 ? spec->worker_map[lt->worker] : G_MAXUINT32;

      /* A wake still pending from before makes the flow of the task's
       * first poll here (and a wake here before that poll did not count). */
      keep_pending = gt->wake_track != KYMO_NO_TRACK;
      if ((note.flags & D9_TASK_POLLED) && keep_pending)
        {
          if (note.flags & D9_TASK_HAD_FLOW)
            {
              D9Flow *f = (D9Flow *) (gpointer) c->flows->data + note.flow_pos;

              f->from = gt->wake_track;
              f->from_ts = gt->wake_ts;
              f->source = gt->wake_source;
              f->pad = 1;
            }
          else
            {
              D9Insert ins = { note.flow_pos, note.poll_source,
                               { gt->wake_ts, note.poll_ts, gt->wake_track, note.poll_worker, gt->wake_source, 1 } };
              g_array_append_val (spec->inserts, ins);
            }
          keep_pending = FALSE;
        }
      if (!keep_pending)
        {
          gt->wake_track = lt->wake_track;
          if (lt->wake_track != KYMO_NO_TRACK && lt->wake_track != D9_FROM_WAKES)
            gt->wake_track = spec->worker_map[lt->wake_track];
          gt->wake_ts = lt->wake_ts;
          gt->wake_source = lt->wake_track != KYMO_NO_TRACK ? lt->wake_source + ordinal_base : lt->wake_source;
        }
    }
  if (spec->inserts->len > 1)
    {
      /* By position, then in poll order. */
      for (guint i = 1; i < spec->inserts->len; i++)
        {
          D9Insert x = g_array_index (spec->inserts, D9Insert, i);
          guint j = i;

          while (j > 0 && (g_array_index (spec->inserts, D9Insert, j - 1).pos > x.pos ||
                           (g_array_index (spec->inserts, D9Insert, j - 1).pos == x.pos &&
                            g_array_index (spec->inserts, D9Insert, j - 1).order > x.order)))
            {
              g_array_index (spec->inserts, D9Insert, j) = g_array_index (spec->inserts, D9Insert, j - 1);
              j--;
            }
          g_array_index (spec->inserts, D9Insert, j) = x;
        }
    }

  for (guint i = 0; i < c->workers->len; i++)
    {
      D9Worker *lw = g_ptr_array_index (c->workers, i);
      D9Worker *gw = g_ptr_array_index (l->workers, spec->worker_map[i]);
      gboolean drop = FALSE;

      if (lw->state != 0)
        {
          gw->state = lw->state;
          gw->open_start = lw->open_start;
          gw->open_name = d9_map_name (spec, lw->open_name);
          gw->open_source = lw->open_source + ordinal_base;
          gw->open_task = lw->open_task != G_MAXUINT32 ? task_map[lw->open_task] : G_MAXUINT32;
        }
      for (guint k = 0; k < lw->stack->len; k++)
        {
          D9Open open = g_array_index (lw->stack, D9Open, k);

          open.name = d9_map_name (spec, open.name);
          open.source += ordinal_base;
          g_array_append_val (gw->stack, open);
        }
      if (lw->lq_samples->len > 0)
        {
          const KymoSample *first = (const KymoSample *) (gpointer) lw->lq_samples->data;

          drop = gw->lq_valid && gw->last_lq == first->value;
          if (!gw->lq_valid)
            gw->lq_first = lw->lq_first + ordinal_base;
        }
      if (lw->lq_valid)
        {
          gw->lq_valid = TRUE;
          gw->last_lq = lw->last_lq;
        }
      add_piece (m, l, 1 + gw->index, c, i, drop);
    }
  /* The first wake with no known waker makes its track. */
  if (c->wake_instants->len > 0 && l->wake_instants->len == 0 && m->part_wake_instants == 0)
    l->wakes_first = c->wakes_first + ordinal_base;
  m->part_wake_instants += c->wake_instants->len;
  add_piece (m, l, 0, c, G_MAXUINT, FALSE);
  g_array_append_vals (l->queue, c->queue->data, c->queue->len);
  merge_named (l, c, ordinal_base);

  l->min_ts = MIN (l->min_ts, c->min_ts);
  l->max_ts = MAX (l->max_ts, c->max_ts);
  if (spec->has_order)
    l->order_ts = c->order_ts;
  d->n_events += cd->n_events;
  return MERGE_OK;
}

/* Out of time order, a part's edges and wakes are sorted and paired when
 * building, with the loader's: they join the loader's arrays, in the
 * loader's numbering, as decoding the part here would have left them. */
/* Makes room in @a for @need elements, or for @estimate when more: below
 * malloc's mmap threshold each doubling would copy the array again, and
 * above it an array with pages moved into it can no longer be remapped
 * (glibc copies it whole instead). So an estimate falling short grows it
 * by half as much again, and every estimate has an eighth of slack: room
 * never written costs no memory. */
static void
reserve (GArray *a,
         GArray *room,
         guint   slot,
         gsize   need,
         gsize   estimate)
{
  gsize len = a->len, had;

  if (slot >= room->len)
    g_array_set_size (room, slot + 1);
  had = g_array_index (room, gsize, slot);
  if (need <= had)
    return;
  need = MAX (need, estimate + estimate / 8);
  need = MAX (need, had + had / 2);
  g_array_set_size (a, need);
  g_array_set_size (a, len);
  g_array_index (room, gsize, slot) = need;
}

void
d9_unordered_reserve (D9Loader *l,
                      D9Loader *c,
                      GArray   *room,
                      guint     parts_left)
{
  D9Spec *spec = c->spec;

  spec->edges_at = g_new (gsize, c->workers->len + 1);
  for (guint i = 0; i < c->workers->len; i++)
    {
      D9Worker *lw = g_ptr_array_index (c->workers, i);
      D9Worker *gw = g_ptr_array_index (l->workers, spec->worker_map[i]);
      gsize n = lw->part_edges->len, at = gw->edges->len;

      reserve (gw->edges, room, 1 + gw->index, at + n, at + n * (parts_left + 1));
      g_array_set_size (gw->edges, at + n);
      spec->edges_at[i] = at;
    }
  spec->wakes_at = l->wakes->len;
  reserve (l->wakes, room, 0, l->wakes->len + c->part_wakes->len,
           l->wakes->len + c->part_wakes->len * (parts_left + 1));
  g_array_set_size (l->wakes, l->wakes->len + c->part_wakes->len);
}

/* Writes @n of a part's edges at @in to @out in the loader's numbering.
 * @out may overlap @in from below. */
static void
map_edges (gconstpointer data,
           guint8       *out,
           const guint8 *in,
           gsize         n)
{
  const D9Spec *spec = data;
  guint32 base = spec->ordinal_base;

  for (gsize k = 0; k < n; k++)
    {
      D9Edge e = ((const D9Edge *) (gconstpointer) in)[k];
      guint32 kind = e.name_kind >> 24, name = e.name_kind & KYMO_NAME_MAX;

      /* A poll's end carries no name. */
      if (kind != D9_EDGE_POLL_END)
        name = d9_map_name (spec, name);
      e.name_kind = (name & KYMO_NAME_MAX) | kind << 24;
      if (kind == D9_EDGE_POLL_START && (guint32) e.aux != G_MAXUINT32)
        e.aux = (e.aux & ~(guint64) G_MAXUINT32) | spec->task_map[(guint32) e.aux];
      e.source += base;
      ((D9Edge *) (gpointer) out)[k] = e;
    }
}

static void
map_wakes (gconstpointer data,
           guint8       *out,
           const guint8 *in,
           gsize         n)
{
  const D9Spec *spec = data;
  guint32 base = spec->ordinal_base;

  for (gsize k = 0; k < n; k++)
    {
      D9Wake wake = ((const D9Wake *) (gconstpointer) in)[k];

      if (wake.woken != G_MAXUINT32)
        wake.woken = spec->task_map[wake.woken];
      wake.source += base;
      ((D9Wake *) (gpointer) out)[k] = wake;
    }
}

void
d9_unordered_copy (D9Loader *l,
                   D9Loader *c)
{
  const D9Spec *spec = c->spec;

  for (guint i = 0; i < c->workers->len; i++)
    {
      D9Worker *lw = g_ptr_array_index (c->workers, i);
      D9Worker *gw = g_ptr_array_index (l->workers, spec->worker_map[i]);

      d9_vec_place (lw->part_edges, sizeof (D9Edge), c->move_min, &l->moves_left, map_edges, spec,
                    (guint8 *) gw->edges->data + spec->edges_at[i] * sizeof (D9Edge));
    }
  d9_vec_place (c->part_wakes, sizeof (D9Wake), c->move_min, &l->moves_left, map_wakes, spec,
                (guint8 *) l->wakes->data + spec->wakes_at * sizeof (D9Wake));
}
