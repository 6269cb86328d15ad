/* kymo-dial9-side.c: records for analyses and samples, taken as decoded; the records made final (the samples: kymo-dial9-samples.c)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>

#include "kymo-dial9-side-private.h"
#include "kymo-dial9-decode.h"

/* Kinds of the records as taken, before they are interned. */
enum {
  REC_POLL = 1,
  REC_WAKE,
  REC_SPAWN,
  REC_TERMINATE,
  REC_UNPARK,
  REC_CPU,     /* the CPU clock at a park or unpark (name: which) */
  REC_PARK,    /* interned only: a "cpu" record's name */
  N_REC,
};

static const char * const field_names[D9_N_SIDE_FIELDS] = {
  "worker_id", "task_id", "local_queue", "waker_task_id", "woken_task_id",
  "instrumented", "sched_wait_ns", "cpu_time_ns", "source", "callchain",
};

static D9SideKind
kind_of (const D9Schema *schema)
{
  static const struct { const char *name; D9SideKind kind; } names[] = {
    { "PollStartEvent", D9_SIDE_POLL },
    { "WakeEventEvent", D9_SIDE_WAKE },
    { "TaskSpawnEvent", D9_SIDE_SPAWN },
    { "TaskTerminateEvent", D9_SIDE_TERMINATE },
    { "WorkerParkEvent", D9_SIDE_PARK },
    { "WorkerUnparkEvent", D9_SIDE_UNPARK },
    { "CpuSampleEvent", D9_SIDE_SAMPLE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (schema->name_len == strlen (names[i].name) &&
        memcmp (schema->name, names[i].name, schema->name_len) == 0)
      return names[i].kind;
  return D9_SIDE_NONE;
}

void
d9_side_classify (D9Registry     *reg,
                  const D9Schema *schema,
                  D9Model        *model)
{
  memset (model->side_field, -1, sizeof model->side_field);
  model->side_chain_type = 0;
  model->side_kind = kind_of (schema);
  if (model->side_kind == D9_SIDE_NONE)
    return;
  for (guint k = 0; k < MIN (schema->n_fields, D9_MAX_KEPT_FIELDS); k++)
    {
      const D9Field *field = d9_schema_field (reg, schema, k);

      for (guint f = 0; f < D9_N_SIDE_FIELDS; f++)
        if (model->side_field[f] < 0 && field->name_len == strlen (field_names[f]) &&
            memcmp (field->name, field_names[f], field->name_len) == 0)
          {
            model->side_field[f] = (gint8) k;
            if (f == D9_SF_CALLCHAIN)
              model->side_chain_type = field->type & ~D9_OPTIONAL;
            break;
          }
    }
}

void
d9_side_init (D9Loader *l)
{
  l->side_records = d9_vec_new ();
  l->side_samples = d9_vec_new ();
  l->side_chains = d9_callchains_new (l->d->data);
  /* A part's are joined by moving their pages: see d9_side_join(). */
  l->side_records->map_from = l->side_samples->map_from = l->map_from;
  l->side_runs = NULL;
}

static void
run_clear (gpointer data)
{
  D9SideRun *run = data;

  if (!run->own)
    {
      d9_vec_free (run->records);
      d9_vec_free (run->samples);
      d9_callchains_free (run->chains);
    }
}

void
d9_side_clear (D9Loader *l)
{
  g_clear_pointer (&l->side_runs, g_array_unref);
  g_clear_pointer (&l->side_records, d9_vec_free);
  g_clear_pointer (&l->side_samples, d9_vec_free);
  g_clear_pointer (&l->side_chains, d9_callchains_free);
}

static inline void
push_record (D9Loader *l,
             guint64   ts,
             guint32   kind,
             guint64   key,
             guint64   value,
             guint32   source)
{
  KymoRecord *r = d9_vec_push (l->side_records, sizeof (KymoRecord));

  r->ts = (KymoTime) ts;
  r->key = key;
  r->value = value;
  r->kind = kind;
  r->name = 0;
  r->track = KYMO_NO_TRACK;
  r->source = source;
}

void
d9_side_take_event (D9Loader      *l,
                    const D9Model *model,
                    guint64        ts,
                    const guint64 *vals,
                    guint64        absent,
                    guint32        segment,
                    guint32        source)
{
#define HAS(f) (model->side_field[f] >= 0 && !(absent >> model->side_field[f] & 1))
#define VAL(f) (vals[model->side_field[f]])
  switch ((D9SideKind) model->side_kind)
    {
    case D9_SIDE_POLL:
      if (HAS (D9_SF_TASK) && HAS (D9_SF_WORKER))
        {
          KymoRecord *r;
          guint64 worker = VAL (D9_SF_WORKER);

          push_record (l, ts, REC_POLL, VAL (D9_SF_TASK), HAS (D9_SF_LOCAL_QUEUE) ? VAL (D9_SF_LOCAL_QUEUE) : 0, source);
          /* The worker's track is known once every worker is: its id
           * waits in name and track. */
          r = (KymoRecord *) (gpointer) l->side_records->data + l->side_records->len - 1;
          r->name = (guint32) (worker >> 32);
          r->track = (guint32) worker;
        }
      break;
    case D9_SIDE_WAKE:
      if (HAS (D9_SF_WOKEN))
        push_record (l, ts, REC_WAKE, VAL (D9_SF_WOKEN), HAS (D9_SF_WAKER) ? VAL (D9_SF_WAKER) : 0, source);
      break;
    case D9_SIDE_SPAWN:
      if (HAS (D9_SF_TASK))
        push_record (l, ts, REC_SPAWN, VAL (D9_SF_TASK),
                     HAS (D9_SF_INSTRUMENTED) ? VAL (D9_SF_INSTRUMENTED) != 0 : 1, source);
      break;
    case D9_SIDE_TERMINATE:
      if (HAS (D9_SF_TASK))
        push_record (l, ts, REC_TERMINATE, VAL (D9_SF_TASK), 0, source);
      break;
    case D9_SIDE_UNPARK:
      if (HAS (D9_SF_WORKER) && HAS (D9_SF_SCHED_WAIT))
        push_record (l, ts, REC_UNPARK, VAL (D9_SF_WORKER), VAL (D9_SF_SCHED_WAIT), source);
      G_GNUC_FALLTHROUGH;
    case D9_SIDE_PARK:
      /* Older files have no CPU clock: no share is better than a wrong one. */
      if (HAS (D9_SF_WORKER) && HAS (D9_SF_CPU_TIME))
        {
          push_record (l, ts, REC_CPU, VAL (D9_SF_WORKER), VAL (D9_SF_CPU_TIME), source);
          ((KymoRecord *) (gpointer) l->side_records->data)[l->side_records->len - 1].name =
            model->side_kind == D9_SIDE_PARK ? REC_PARK : REC_UNPARK;
        }
      break;
    case D9_SIDE_SAMPLE:
      {
        D9SideSample *s = d9_vec_push (l->side_samples, sizeof (D9SideSample));

        s->ts = (KymoTime) ts;
        s->worker = HAS (D9_SF_WORKER) ? VAL (D9_SF_WORKER) : D9_WORKER_NONE;
        s->source = source;
        s->sched = HAS (D9_SF_SOURCE) && VAL (D9_SF_SOURCE) == 1;
        s->chain_kind = CHAIN_NONE;
        s->chain = 0;
        if (HAS (D9_SF_CALLCHAIN) && model->side_chain_type == D9_POOLED_STACK)
          {
            s->chain_kind = CHAIN_POOLED;
            s->chain = (guint64) segment << 32 | (guint32) VAL (D9_SF_CALLCHAIN);
          }
        else if (HAS (D9_SF_CALLCHAIN) && model->side_chain_type == D9_STACK)
          {
            /* Found among the part's while the bytes are in cache. */
            s->chain = d9_callchains_add (l->side_chains, VAL (D9_SF_CALLCHAIN));
            s->chain_kind = s->chain != G_MAXUINT32 ? CHAIN_INLINE : CHAIN_NONE;
          }
      }
      break;
    case D9_SIDE_NONE:
    default:
      break;
    }
#undef HAS
#undef VAL
}

/* Ends the loader's own run where its arrays are now. */
static void
close_own_run (D9Loader *l)
{
  D9SideRun run = { l->side_records, l->side_samples, l->side_chains, 0, l->side_records->len, 0, l->side_samples->len,
                    0, 0, TRUE };

  if (l->side_runs == NULL)
    {
      l->side_runs = g_array_new (FALSE, FALSE, sizeof (D9SideRun));
      g_array_set_clear_func (l->side_runs, run_clear);
    }
  for (guint i = l->side_runs->len; i-- > 0;)
    {
      const D9SideRun *prev = &g_array_index (l->side_runs, D9SideRun, i);

      if (prev->own)
        {
          run.records_from = prev->records_to;
          run.samples_from = prev->samples_to;
          break;
        }
    }
  if (run.records_from < run.records_to || run.samples_from < run.samples_to)
    g_array_append_val (l->side_runs, run);
}

void
d9_side_merge_part (D9Loader *l,
                    D9Loader *c,
                    guint32   ordinal_base,
                    guint32   segment_base)
{
  D9SideRun run = { c->side_records, c->side_samples, c->side_chains, 0, c->side_records->len, 0,
                    c->side_samples->len, ordinal_base, segment_base, FALSE };

  close_own_run (l);
  c->side_records = d9_vec_new ();
  c->side_samples = d9_vec_new ();
  c->side_chains = d9_callchains_new (c->d->data);
  g_array_append_val (l->side_runs, run);
}

guint32
d9_worker_track (D9Loader *l,
                 guint64   id)
{
  guint32 index = id < 256 ? l->small_workers[id] - 1 : d9_map_lookup (&l->worker_map, id);

  if (index == G_MAXUINT32)
    return KYMO_NO_TRACK;
  return ((D9Worker *) g_ptr_array_index (l->workers, index))->track;
}

/* A record as taken made final: its kind interned, its track found, in
 * the loader's numbering. A spawn's location is left to finish_spawn(),
 * which interns: this runs on any thread. */
static inline void
finish_record (D9Loader      *l,
               KymoRecord    *r,
               const guint32 *kinds,
               guint32        ordinal_base)
{
  switch (r->kind)
    {
    case REC_POLL:
      r->track = d9_worker_track (l, (guint64) r->name << 32 | r->track);
      r->name = 0;
      break;
    case REC_CPU:
      r->name = kinds[r->name];
      G_GNUC_FALLTHROUGH;
    case REC_UNPARK:
      r->track = d9_worker_track (l, r->key);
      break;
    default:
      break;
    }
  r->kind = kinds[r->kind];
  r->source += ordinal_base;
}

/* A spawn's location: where it is, and the pool string its task was
 * spawned at (G_MAXUINT32: none), found while its piece is made final. */
typedef struct {
  gsize   at;
  guint32 loc;
} D9Spawn;

static guint32
spawn_loc (D9Loader *l,
           guint64   task)
{
  D9Data *d = l->d;
  /* Pool ids may be defined again later in a segment (the symbolizer
   * appends its strings): the location is the one decoding resolved. */
  guint32 index = d9_map_lookup (&d->task_map, task);

  return index != G_MAXUINT32 ? g_array_index (d->tasks, D9Task, index).spawn_loc : G_MAXUINT32;
}

/* Interns a spawn's location, once per pool string (@names: its name + 1,
 * or 0). */
static void
finish_spawn (D9Loader      *l,
              KymoRecord    *r,
              guint32        loc,
              guint32       *names)
{
  if (loc == G_MAXUINT32)
    return;
  if (names[loc] == 0)
    {
      const D9PoolString *ps = &g_array_index (l->d->pool_strings, D9PoolString, loc);
      g_autofree char *name = g_utf8_make_valid ((const char *) ps->data, ps->len);

      names[loc] = kymo_trace_intern (l->trace, name) + 1;
    }
  r->name = names[loc] - 1;
}

/* Records a piece makes final when the loader decoded alone, in place. */
#define PIECE_RECORDS ((gsize) 1 << 18)

/* Records [from, to) of a run, made final into @at of the joined array. */
typedef struct {
  guint    run;
  gsize    from;
  gsize    to;
  gsize    at;
  GArray  *spawns;   /* D9Spawn, or NULL */
  /* The sources it made, in order or not, and its first and last. */
  gboolean ordered;
  guint32  first_source;
  guint32  last_source;
} D9SidePiece;

struct _D9SideBuild {
  D9Loader     *l;
  guint32       kinds[N_REC];
  KymoRecord   *records;
  gsize         n_records;
  gboolean      in_place;  /* @records is the loader's own array */
  GArray       *pieces;    /* D9SidePiece; the samples' pieces come after */
  D9SampleFill *samples;
};

D9SideBuild *
d9_side_build_begin (D9Loader  *l,
                     guint     *n_pieces,
                     GError   **error)
{
  GCancellable *cancellable = kymo_load_job_get_cancellable (l->job);
  D9SideBuild *b;
  gsize at = 0;

  *n_pieces = 0;
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  b = g_new0 (D9SideBuild, 1);
  b->l = l;
  b->pieces = g_array_new (FALSE, FALSE, sizeof (D9SidePiece));
  if (l->d->n_events == 0)
    return b;
  close_own_run (l);

  b->kinds[0] = 0;
  b->kinds[REC_POLL] = kymo_trace_intern (l->trace, "poll");
  b->kinds[REC_WAKE] = kymo_trace_intern (l->trace, "wake");
  b->kinds[REC_SPAWN] = kymo_trace_intern (l->trace, "spawn");
  b->kinds[REC_TERMINATE] = kymo_trace_intern (l->trace, "terminate");
  b->kinds[REC_UNPARK] = kymo_trace_intern (l->trace, "unpark");
  b->kinds[REC_PARK] = kymo_trace_intern (l->trace, "park");
  b->kinds[REC_CPU] = kymo_trace_intern (l->trace, "cpu");

  for (guint r = 0; r < l->side_runs->len; r++)
    {
      const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);

      b->n_records += run->records_to - run->records_from;
    }
  b->in_place = l->side_runs->len == 1 && g_array_index (l->side_runs, D9SideRun, 0).own &&
                g_array_index (l->side_runs, D9SideRun, 0).records_from == 0;
  if (b->in_place)
    {
      /* Decoded here alone: the records are made final where they are. */
      b->records = (KymoRecord *) (gpointer) l->side_records->data;
      for (gsize from = 0; from < b->n_records; from += PIECE_RECORDS)
        {
          D9SidePiece piece = { 0, from, MIN (from + PIECE_RECORDS, b->n_records), from, NULL, TRUE, 0, 0 };
          g_array_append_val (b->pieces, piece);
        }
    }
  else
    {
      b->records = g_new (KymoRecord, MAX (b->n_records, 1));
      for (guint r = 0; r < l->side_runs->len; r++)
        {
          const D9SideRun *run = &g_array_index (l->side_runs, D9SideRun, r);
          D9SidePiece piece = { r, run->records_from, run->records_to, at, NULL, TRUE, 0, 0 };

          g_array_append_val (b->pieces, piece);
          at += run->records_to - run->records_from;
        }
    }
  b->samples = d9_sample_fill_new (l);
  *n_pieces = b->pieces->len + d9_sample_fill_get_n_pieces (b->samples) + 1;
  return b;
}

/* What making a piece's records final carries from one stretch of them
 * to the next (d9_place_run() hands them over in several). */
typedef struct {
  D9SideBuild *b;
  D9SidePiece *piece;
  guint32      base;
  guint32      prev;
  gboolean     ordered;
} D9Finish;

/* A D9MapRun: @n records at @in made final at @out, which may be @in or
 * overlap it from below (each is read whole before it is written). */
static void
finish_run (gconstpointer  data,
            guint8        *out,
            const guint8  *in,
            gsize          n)
{
  D9Finish *f = (D9Finish *) data;
  D9SideBuild *b = f->b;

  for (gsize i = 0; i < n; i++)
    {
      KymoRecord r = ((const KymoRecord *) (gconstpointer) in)[i];
      KymoRecord *to = (KymoRecord *) (gpointer) out + i;

      if (G_UNLIKELY (r.kind == REC_SPAWN))
        {
          D9Spawn spawn = { (gsize) (to - b->records), spawn_loc (b->l, r.key) };

          if (f->piece->spawns == NULL)
            f->piece->spawns = g_array_new (FALSE, FALSE, sizeof (D9Spawn));
          g_array_append_val (f->piece->spawns, spawn);
        }
      finish_record (b->l, &r, b->kinds, f->base);
      /* Sources wrap past 2^32 in the largest files: then seal sorts. */
      f->ordered &= r.source >= f->prev;
      f->prev = r.source;
      *to = r;
    }
}

void
d9_side_build_piece (D9SideBuild *b,
                     guint        index)
{
  D9Loader *l = b->l;
  D9SidePiece *piece;
  const D9SideRun *run;
  const guint8 *in;
  D9Finish f;
  gsize n, move_min, map_from;

  if (index >= b->pieces->len)
    {
      index -= b->pieces->len;
      if (index < d9_sample_fill_get_n_pieces (b->samples))
        d9_sample_piece (b->samples, index);
      else
        d9_chains_piece (b->samples);
      return;
    }
  piece = &g_array_index (b->pieces, D9SidePiece, index);
  run = &g_array_index (l->side_runs, D9SideRun, piece->run);
  in = run->records->data + piece->from * sizeof (KymoRecord);
  f = (D9Finish) { b, piece, b->in_place ? 0 : run->ordinal_base, 0, TRUE };
  n = piece->to - piece->from;

  /* A part's records, in a mapping of their own, have their pages moved
   * into place and are made final as they are shifted down over them: one
   * pass, and no new memory to fault in. */
  d9_vec_move_limits (&move_min, &map_from);
  d9_place_run (in, n, !b->in_place && !run->own && run->records->map_bytes > 0, sizeof (KymoRecord),
                move_min, &l->moves_left, finish_run, &f, (guint8 *) (b->records + piece->at));
  piece->ordered = f.ordered;
  if (n > 0)
    {
      piece->first_source = b->records[piece->at].source;
      piece->last_source = f.prev;
    }
  /* A part's records are its own: given back once copied. */
  if (!b->in_place && !run->own)
    d9_vec_clear (run->records);
}

void
d9_side_build_end (D9SideBuild   *b,
                   D9SampleOrder *order)
{
  D9Loader *l = b->l;

  if (b->n_records > 0)
    {
      g_autofree guint32 *names = NULL;

      /* In record order, as their names were always interned. */
      for (guint i = 0; i < b->pieces->len; i++)
        {
          GArray *spawns = g_array_index (b->pieces, D9SidePiece, i).spawns;

          if (spawns != NULL && names == NULL)
            names = g_new0 (guint32, l->d->pool_strings->len + 1);
          for (guint k = 0; spawns != NULL && k < spawns->len; k++)
            {
              const D9Spawn *spawn = &g_array_index (spawns, D9Spawn, k);

              finish_spawn (l, &b->records[spawn->at], spawn->loc, names);
            }
        }
      gboolean ordered = TRUE;
      guint32 last = 0;

      for (guint i = 0; i < b->pieces->len; i++)
        {
          const D9SidePiece *piece = &g_array_index (b->pieces, D9SidePiece, i);

          if (piece->to == piece->from)
            continue;
          ordered &= piece->ordered && piece->first_source >= last;
          last = piece->last_source;
        }
      if (b->in_place)
        b->records = d9_vec_steal (l->side_records, sizeof (KymoRecord));
      if (ordered)
        kymo_records_take_sorted (kymo_trace_get_records (l->trace), g_steal_pointer (&b->records), b->n_records);
      else
        kymo_records_take (kymo_trace_get_records (l->trace), g_steal_pointer (&b->records), b->n_records);
    }
  *order = (D9SampleOrder) { kymo_trace_get_stacks (l->trace), NULL, 0, 0, 2, NULL };
  if (b->samples != NULL)
    d9_add_samples (l, g_steal_pointer (&b->samples), order);
  d9_side_build_free (b);
}

void
d9_side_build_free (D9SideBuild *b)
{
  for (guint i = 0; i < b->pieces->len; i++)
    g_clear_pointer (&g_array_index (b->pieces, D9SidePiece, i).spawns, g_array_unref);
  g_array_unref (b->pieces);
  d9_sample_fill_free (b->samples);
  if (!b->in_place)
    g_free (b->records);
  g_free (b);
}
