/* kymo-dial9-assemble.c: the merged parts' arrays joined into the loader's
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>
#include "kymo-dial9-decode.h"
#include "kymo-mapped.h"
#include "kymo-parts.h"

static gsize
piece_len (const D9Piece *pc,
           guint          kind)
{
  gsize n = pc->to - pc->from;

  if (kind == K_FLOWS && pc->part != NULL)
    n += pc->part->spec->inserts->len;
  return n;
}

/* Writes @n elements of a part's run at @in to @out in the loader's
 * numbering. @out may overlap @in from below. */
static void
map_run (guint          kind,
         const D9Spec  *spec,
         guint8        *out,
         const guint8  *in,
         gsize          n)
{
  guint32 base = spec->ordinal_base;

  switch (kind)
    {
    case K_SPANS0:
      for (gsize i = 0; i < n; i++)
        {
          KymoSpan span = ((const KymoSpan *) (gconstpointer) in)[i];

          span.name_flags = d9_map_name (spec, span.name_flags & KYMO_NAME_MAX) | (span.name_flags & ~KYMO_NAME_MAX);
          span.source += base;
          ((KymoSpan *) (gpointer) out)[i] = span;
        }
      break;

    case K_LQ:
      if (n > 0)
        memmove (out, in, n * sizeof (KymoSample));
      break;

    case K_WAKES:
    case K_INSTANTS:
    case K_WAKE_INSTANTS:
      for (gsize i = 0; i < n; i++)
        {
          KymoInstant instant = ((const KymoInstant *) (gconstpointer) in)[i];

          instant.name_flags = d9_map_name (spec, instant.name_flags);
          instant.source += base;
          ((KymoInstant *) (gpointer) out)[i] = instant;
        }
      break;

    case K_DEEP:
      for (gsize i = 0; i < n; i++)
        {
          D9DeepSpan deep = ((const D9DeepSpan *) (gconstpointer) in)[i];

          deep.span.name_flags = d9_map_name (spec, deep.span.name_flags & KYMO_NAME_MAX) |
                                 (deep.span.name_flags & ~KYMO_NAME_MAX);
          deep.span.source += base;
          ((D9DeepSpan *) (gpointer) out)[i] = deep;
        }
      break;

    case K_FLOWS:
      for (gsize i = 0; i < n; i++)
        {
          D9Flow f = ((const D9Flow *) (gconstpointer) in)[i];

          /* pad 1: the merge set where it comes from. */
          if (f.pad == 0)
            {
              if (f.from != D9_FROM_WAKES)
                f.from = spec->worker_map[f.from];
              f.source += base;
            }
          f.to = spec->worker_map[f.to];
          f.pad = 0;
          ((D9Flow *) (gpointer) out)[i] = f;
        }
      break;

    default:
      g_assert_not_reached ();
    }
}

typedef struct {
  guint         kind;
  const D9Spec *spec;
} KindMap;

static void
map_kind_run (gconstpointer  data,
              guint8        *out,
              const guint8  *in,
              gsize          n)
{
  const KindMap *m = data;

  map_run (m->kind, m->spec, out, in, n);
}

/* Puts @n elements of a part's array @v at @in into place at @out, in the
 * loader's numbering (see d9_place_run()). */
static void
place_run (D9Loader      *l,
           guint          kind,
           D9Loader      *c,
           const D9Vec   *v,
           guint8        *out,
           const guint8  *in,
           gsize          n)
{
  KindMap m = { kind, c->spec };

  d9_place_run (in, n, v != NULL && v->map_bytes > 0, d9_kind_size[kind], c->move_min, &l->moves_left,
                map_kind_run, &m, out);
}

/* Puts a part's run into place and frees the part's array. */
static void
copy_part (D9Loader      *l,
           guint          kind,
           guint8        *out,
           const D9Piece *pc)
{
  D9Loader *c = pc->part;
  gsize n = pc->to - pc->from;
  D9Vec *v = d9_kind_vec (c, pc->worker, kind);
  const guint8 *in = v != NULL ? v->data : (const guint8 *) d9_kind_array (c, pc->worker, kind)->data;

  if (in != NULL)
    in += pc->from * d9_kind_size[kind];
  place_run (l, kind, c, v, out, in, n);

  /* Nothing else reads it: give the memory back now, on this thread. */
  if (v != NULL)
    d9_vec_clear (v);
  else
    {
      D9Worker *w = g_ptr_array_index (c->workers, pc->worker);
      GArray **slot = kind == K_INSTANTS ? &w->instants : &w->deep;

      g_array_unref (*slot);
      *slot = g_array_new (FALSE, FALSE, d9_kind_size[kind]);
    }
}

/* Puts a part's run of flows, with those the merge inserted, into place
 * in the loader's numbering, then frees the part's flows. */
static void
place_part_flows (D9Loader      *l,
                  guint8        *out,
                  const D9Piece *pc)
{
  D9Loader *c = pc->part;
  const D9Spec *spec = c->spec;
  gsize n = pc->to - pc->from, i = 0, o = 0;
  const guint8 *in = n > 0 ? c->flows->data + pc->from * sizeof (D9Flow) : NULL;
  const D9Insert *ins = (const D9Insert *) (gpointer) spec->inserts->data;
  guint n_ins = spec->inserts->len, j = 0;

  for (;;)
    {
      gsize run_end = n;

      while (j < n_ins && ins[j].pos == i)
        {
          D9Flow f = ins[j++].flow;

          f.to = spec->worker_map[f.to];
          f.pad = 0;
          memcpy (out + o++ * sizeof (D9Flow), &f, sizeof f);
        }
      if (i == n)
        break;
      if (j < n_ins && ins[j].pos > i && ins[j].pos < n)
        run_end = ins[j].pos;
      place_run (l, K_FLOWS, c, c->flows, out + o * sizeof (D9Flow), in + i * sizeof (D9Flow), run_end - i);
      o += run_end - i;
      i = run_end;
    }
  /* The merge sorts its inserts by position, none past the end. */
  g_assert (o == n + n_ins);
  d9_vec_clear (c->flows);
}


void
d9_kept_free (D9Kept *kept)
{
  for (guint i = 0; i < kept->m.n_slots; i++)
    g_array_unref (kept->m.pieces[i]);
  g_free (kept->m.pieces);
  g_free (kept->m.marks);
  for (guint i = 0; i < kept->n_parts; i++)
    d9_spec_free (kept->parts[i]);
  g_free (kept->parts);
  g_free (kept);
}

D9Flow *
d9_loader_join_flows (D9Loader *l,
                      gsize    *n_flows)
{
  D9Vec *v = l->flows;
  GArray *pieces = NULL;
  gsize own_from = 0, total, end, size = sizeof (D9Flow);
  guint8 *base;

  if (l->kept != NULL && l->kept->m.n_slots > 0)
    {
      pieces = l->kept->m.pieces[0];
      own_from = l->kept->m.marks[0][K_FLOWS];
    }
  total = v->len - own_from;
  for (guint i = 0; pieces != NULL && i < pieces->len; i++)
    total += piece_len (&g_array_index (pieces, D9Piece, i * K_N_KINDS) + K_FLOWS, K_FLOWS);
  *n_flows = total;
  if (total == 0)
    {
      v->len = 0;
      return NULL;
    }

  /* As assemble_one lays out the other arrays: the loader's runs between
   * the parts', then the rest of its own. */
  v->data = g_realloc_n (v->data, total, size);
  base = v->data;
  end = total - (v->len - own_from);
  if (v->len > own_from)
    memmove (base + end * size, base + own_from * size, (v->len - own_from) * size);
  for (guint i = pieces != NULL ? pieces->len : 0; i-- > 0;)
    {
      const D9Piece *pc = &g_array_index (pieces, D9Piece, i * K_N_KINDS) + K_FLOWS;
      gsize n = piece_len (pc, K_FLOWS);

      if (g_atomic_int_get (&l->stop_flows))
        {
          v->len = 0;
          return NULL;
        }
      end -= n;
      if (pc->part != NULL)
        place_part_flows (l, base + end * size, pc);
      else if (n > 0)
        memmove (base + end * size, base + pc->from * size, n * size);
    }
  g_assert (end == 0);
  v->len = v->cap = 0;
  return (D9Flow *) g_steal_pointer (&v->data);
}

void
d9_loader_release_parts (D9Loader *l)
{
  g_clear_pointer (&l->kept, d9_kept_free);
}

/* The length of an array of @slot once the parts' runs are joined in. */
static gsize
assembled_len (D9Loader      *l,
               const D9Merge *m,
               guint          slot,
               guint          kind)
{
  GArray *pieces;
  gsize total;

  if (slot >= m->n_slots)
    return d9_kind_len (l, slot == 0 ? G_MAXUINT : slot - 1, kind);
  pieces = m->pieces[slot];
  total = d9_kind_len (l, slot == 0 ? G_MAXUINT : slot - 1, kind) - m->marks[slot][kind];
  for (guint i = 0; i < pieces->len; i++)
    total += piece_len (&g_array_index (pieces, D9Piece, i * K_N_KINDS) + kind, kind);
  return total;
}

gsize
d9_loader_lq_len (D9Loader *l,
                  D9Worker *w)
{
  if (l->kept == NULL || l->kept->assembled)
    return w->lq_samples->len;
  return assembled_len (l, &l->kept->m, 1 + w->index, K_LQ);
}

gsize
d9_loader_wake_instants_len (D9Loader *l)
{
  if (l->kept == NULL || l->kept->assembled)
    return l->wake_instants->len;
  return assembled_len (l, &l->kept->m, 0, K_WAKE_INSTANTS);
}

/* Joins the runs of one array: grown in place, the loader's own runs move
 * up and the parts' are copied in, from the last run down. */
static void
assemble_one (D9Loader *l,
              D9Merge  *m,
              guint     slot,
              guint     kind,
              gsize     room)
{
  GArray *pieces = m->pieces[slot];
  guint worker = slot == 0 ? G_MAXUINT : slot - 1;
  gsize size = d9_kind_size[kind], own_len = d9_kind_len (l, worker, kind);
  gsize own_from = m->marks[slot][kind], total = assembled_len (l, m, slot, kind), end;
  D9Vec *v = d9_kind_vec (l, worker, kind);
  guint8 *base;

  if (v != NULL)
    {
      v->data = g_realloc_n (v->data, MAX (total + room, 1), size);
      v->len = total;
      v->cap = MAX (total + room, 1);
      base = v->data;
    }
  else
    {
      GArray *a = d9_kind_array (l, worker, kind);

      g_array_set_size (a, total);
      base = (guint8 *) a->data;
    }

  end = total - (own_len - own_from);
  if (own_len > own_from)
    memmove (base + end * size, base + own_from * size, (own_len - own_from) * size);
  for (guint i = pieces->len; i-- > 0;)
    {
      const D9Piece *pc = &g_array_index (pieces, D9Piece, i * K_N_KINDS) + kind;
      gsize n = piece_len (pc, kind);

      end -= n;
      if (pc->part != NULL)
        copy_part (l, kind, base + end * size, pc);
      else if (n > 0)
        memmove (base + end * size, base + pc->from * size, n * size);
    }
  g_assert (end == 0);
}

typedef struct {
  D9Loader *l;
  D9Merge  *m;
  guint    *jobs;     /* slot << 8 | kind */
  gsize    *rooms;    /* per job: elements to make room for after its own */
  guint     n_jobs;
  gint      cancel;   /* atomic */
  GError  **error;
  /* Work of its own, as part 0 before the jobs' (NULL: none). */
  void    (*first) (D9Loader *l);
} D9Assembly;

static void
assemble_part (guint    index,
               gpointer data)
{
  D9Assembly *a = data;

  if (g_atomic_int_get (&a->cancel))
    return;
  if (a->first != NULL && index-- == 0)
    {
      a->first (a->l);
      return;
    }
  assemble_one (a->l, a->m, a->jobs[index] >> 8, a->jobs[index] & 0xFF, a->rooms[index]);
}

/* The loading thread checks for a cancel between parts; the parts see the
 * flag (and the flows' replay stop_flows). */
static gboolean
assemble_join (guint    index,
               gpointer data)
{
  D9Assembly *a = data;

  if (!kymo_load_job_progress (a->l->job, D9_PROGRESS_DECODED, "Building the timeline", a->error))
    {
      g_atomic_int_set (&a->cancel, 1);
      g_atomic_int_set (&a->l->stop_flows, 1);
      return FALSE;
    }
  return TRUE;
}

/* FALSE when cancelled (the arrays are then only fit to be freed). With
 * more than one thread, @first (if not NULL) runs as a part of its own
 * while the arrays are joined: *first_done then says so. */
static gboolean
assemble (D9Loader  *l,
          D9Merge   *m,
          void     (*first) (D9Loader *l),
          gboolean  *first_done,
          GError   **error)
{
  g_autofree guint *jobs = g_new (guint, (gsize) m->n_slots * K_N_KINDS + 1);
  g_autofree gsize *rooms = g_new (gsize, (gsize) m->n_slots * K_N_KINDS + 1);
  const KymoLoadOptions *options = kymo_load_job_get_options (l->job);
  D9Assembly a = { l, m, jobs, rooms, 0, 0, error, NULL };
  gboolean ok;

  for (guint slot = 0; slot < m->n_slots; slot++)
    if (m->pieces[slot]->len > 0)
      for (guint k = slot == 0 ? K_N_WORKER_KINDS : 0; k < (slot == 0 ? K_N_KINDS : K_N_WORKER_KINDS); k++)
        if (k != K_FLOWS) /* joined on their own: d9_loader_join_flows */
          {
            /* A block with pages moved into it would be copied to grow:
             * room for what building adds (a worker's instants to its
             * wakes; the polls and spans it closes, and its deeper spans
             * after the first level's). */
            rooms[a.n_jobs] = k == K_WAKES ? assembled_len (l, m, slot, K_INSTANTS) + 16
                              : k == K_SPANS0 ? assembled_len (l, m, slot, K_DEEP) + 16 +
                                                ((D9Worker *) g_ptr_array_index (l->workers, slot - 1))->stack->len
                              : 0;
            jobs[a.n_jobs++] = slot << 8 | k;
          }
  *first_done = first != NULL && kymo_load_options_get_threads (options, l->d->size, PARALLEL_MIN_BYTES) > 1;
  if (*first_done)
    a.first = first;
  ok = kymo_parts_run (options, l->d->size, PARALLEL_MIN_BYTES, a.n_jobs + (a.first != NULL), 0,
                       assemble_part, assemble_join, &a);
  return ok && !g_atomic_int_get (&a.cancel);
}

gboolean
d9_loader_assemble (D9Loader  *l,
                    void     (*first) (D9Loader *l),
                    gboolean  *first_done,
                    GError   **error)
{
  *first_done = FALSE;
  if (l->kept == NULL || l->kept->assembled)
    return TRUE;
  l->kept->assembled = TRUE;
  return assemble (l, &l->kept->m, first, first_done, error);
}
