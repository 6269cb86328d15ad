/* test-dial9-pairing.c: each worker paired on its own gives what one
 * time-ordered pass over every edge and wake gives
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "kymo-test-utils.h"
#include "dial9-builder.h"
#include "dial9/kymo-dial9-pairing.h"

/* Workers act on one grid of times, so that events of different workers
 * share their times; tasks are few, so that each is polled on every
 * worker in turn (and, from copies, on two at once); wakes come from
 * tasks another worker polls at that very time, or from no task polled.
 * The copies of the whole repeat the same times, as concatenated segments
 * of a real trace do, so a worker's edges make several chains that tie
 * at every step. */

#define N_WORKERS 3
#define N_TASKS   6

enum {
  EV_POLL_START,
  EV_POLL_END,
  EV_PARK,
  EV_UNPARK,
  EV_WAKE,
  N_KINDS,
};

/* CPU samples: only test_many_samples() makes them. */
#define EV_CPU N_KINDS

typedef struct {
  guint64 ts;
  guint   kind;
  guint   worker;
  guint64 a;       /* task, local queue, or waker task */
  guint64 b;       /* local queue, or woken task */
} Event;

static GByteArray *
begin_file (void)
{
  GByteArray *b = g_byte_array_new ();
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *park[] = { "worker_id:9", "local_queue:11", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *cpu[] = { "worker_id:9", "source:11", "callchain:8", NULL };

  d9b_header (b);
  d9b_schema (b, EV_POLL_START, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, EV_POLL_END, "PollEndEvent", TRUE, poll_end);
  d9b_schema (b, EV_PARK, "WorkerParkEvent", TRUE, park);
  d9b_schema (b, EV_UNPARK, "WorkerUnparkEvent", TRUE, park);
  d9b_schema (b, EV_WAKE, "WakeEventEvent", TRUE, wake);
  d9b_schema (b, EV_CPU, "CpuSampleEvent", TRUE, cpu);
  d9b_pool (b, 0, "src/main.rs:10");
  return b;
}

static void
write_event (GByteArray  *b,
             const Event *e,
             guint64      delta)
{
  d9b_event (b, (guint16) e->kind, (gint32) delta);
  switch (e->kind)
    {
    case EV_POLL_START:
      d9b_varint (b, e->worker); d9b_u8 (b, (guint8) e->b); d9b_varint (b, e->a); d9b_u32 (b, 0);
      break;
    case EV_POLL_END:
      d9b_varint (b, e->worker);
      break;
    case EV_PARK:
    case EV_UNPARK:
      d9b_varint (b, e->worker); d9b_u8 (b, (guint8) e->b);
      break;
    case EV_CPU:
      /* One of a few inline call chains, of one to three frames. */
      d9b_varint (b, e->worker); d9b_u8 (b, 0);
      d9b_u32 (b, (guint32) (e->a % 3 + 1));
      for (guint64 k = 0; k <= e->a % 3; k++)
        d9b_u64 (b, 0x1000 + 0x10 * e->a + k);
      break;
    default:
      d9b_varint (b, e->a); d9b_varint (b, e->b); d9b_u8 (b, (guint8) e->worker);
      break;
    }
}

/* Per worker, its events on the shared grid (a few steps with none). */
static GArray **
make_workers (guint  n_steps,
              GRand *rand)
{
  GArray **workers = g_new (GArray *, N_WORKERS);

  for (guint w = 0; w < N_WORKERS; w++)
    workers[w] = g_array_new (FALSE, FALSE, sizeof (Event));
  for (guint i = 0; i < n_steps; i++)
    for (guint w = 0; w < N_WORKERS; w++)
      {
        Event e = { 1000 + 10 * (guint64) i, (guint) g_rand_int_range (rand, 0, N_KINDS + 1), w, 0, 0 };

        if (e.kind == N_KINDS)
          continue;
        if (e.kind == EV_WAKE)
          {
            /* Task 0 is none; N_TASKS + 1 is never polled. */
            e.a = (guint64) g_rand_int_range (rand, 0, N_TASKS + 2);
            e.b = (guint64) g_rand_int_range (rand, 1, N_TASKS + 1);
          }
        else
          {
            e.a = (guint64) g_rand_int_range (rand, 1, N_TASKS + 1);
            e.b = (guint64) g_rand_int_range (rand, 0, 3);
          }
        g_array_append_val (workers[w], e);
      }
  return workers;
}

/* @copies copies of every worker's events, as batches of at most
 * @max_batch events of one worker: each copy's batches in turn, or every
 * batch of every copy shuffled when @shuffle. */
static GByteArray *
write_file (GArray  **workers,
            guint     copies,
            guint     max_batch,
            gboolean  shuffle,
            GRand    *rand)
{
  GByteArray *b = begin_file ();
  g_autoptr(GArray) batches = g_array_new (FALSE, FALSE, sizeof (guint) * 3);

  for (guint c = 0; c < copies; c++)
    {
      guint at[N_WORKERS] = { 0 };
      gboolean more = TRUE;

      while (more)
        {
          more = FALSE;
          for (guint w = 0; w < N_WORKERS; w++)
            {
              guint n = (guint) g_rand_int_range (rand, 1, (gint32) max_batch + 1);
              guint batch[3];

              n = MIN (n, workers[w]->len - at[w]);
              batch[0] = w;
              batch[1] = at[w];
              batch[2] = at[w] + n;

              if (n == 0)
                continue;
              g_array_append_val (batches, batch);
              at[w] += n;
              more |= at[w] < workers[w]->len;
            }
        }
    }
  for (guint i = shuffle ? batches->len : 0; i-- > 1;)
    {
      guint j = (guint) g_rand_int_range (rand, 0, (gint32) i + 1);
      guint *x = &g_array_index (batches, guint, 3 * i), *y = &g_array_index (batches, guint, 3 * j);

      for (guint k = 0; k < 3; k++)
        {
          guint t = x[k];

          x[k] = y[k];
          y[k] = t;
        }
    }
  for (guint k = 0; k < batches->len; k++)
    {
      const guint *batch = &g_array_index (batches, guint, 3 * k);
      const Event *e = &g_array_index (workers[batch[0]], Event, 0);

      d9b_reset (b, e[batch[1]].ts);
      for (guint i = batch[1]; i < batch[2]; i++)
        write_event (b, &e[i], i == batch[1] ? 0 : e[i].ts - e[i - 1].ts);
    }
  return b;
}

/* Loaded with @threads, paired by the pass under test or (@reference) by
 * the plain one it must agree with. */
static KymoTrace *
load_trace (GByteArray *b,
              guint       threads,
              gboolean    reference)
{
  g_autoptr(GError) error = NULL;
  KymoTrace *trace;

  kymo_test_set_threads (threads);
  d9_pair_set_reference_for_testing (reference);
  trace = kymo_test_load_bytes (b->data, b->len, "dial9", &error);
  d9_pair_set_reference_for_testing (FALSE);
  kymo_test_set_threads (0);
  g_assert_no_error (error);
  if (kymo_trace_get_stop_error (trace) != NULL)
    g_error ("%s", kymo_trace_get_stop_error (trace)->message);
  return trace;
}

static char *
load_print (GByteArray *b,
            guint       threads,
            gboolean    reference,
            gsize      *n_flows)
{
  g_autoptr(KymoTrace) trace = load_trace (b, threads, reference);

  kymo_trace_get_flows (trace, n_flows);
  return kymo_test_fingerprint (trace, NULL);
}

static void
check (guint    n_steps,
       guint    copies,
       guint    max_batch,
       gboolean shuffle,
       guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  GArray **workers = make_workers (n_steps, rand);
  g_autoptr(GByteArray) b = write_file (workers, copies, max_batch, shuffle, rand);
  const guint threads[] = { 1, 2, 7 };
  gsize n_flows = 0;
  g_autofree char *want = load_print (b, 1, TRUE, &n_flows);

  /* Wakes scheduled polls, from workers and from the wakes track. */
  g_assert_cmpuint (n_flows, >, 10);
  g_assert_nonnull (strstr (want, ": wakes,"));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      gsize n;
      g_autofree char *got = load_print (b, threads[i], FALSE, &n);

      g_assert_cmpstr (got, ==, want);
    }
  for (guint w = 0; w < N_WORKERS; w++)
    g_array_unref (workers[w]);
  g_free (workers);
}

/* A few chains per worker, tied at every step. */
static void
test_overlapping_copies (void)
{
  for (guint32 seed = 1; seed <= 8; seed++)
    check (400, 3, 30, FALSE, seed);
}

/* Past the chains the merge takes: the edges are sorted first. */
static void
test_shuffled_batches (void)
{
  check (3000, 2, 3, TRUE, 11);
}

/* Past the threshold where pairing goes to the load's threads. */
static void
test_large (void)
{
  check (60000, 2, 500, FALSE, 5);
}

/* Wakes and no polls at all, past the threshold where pairing goes to
 * the load's threads: no worker to pair, the wakes' pass all the same. */
static void
test_wakes_only (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (3);
  GArray **workers = make_workers (40000, rand);
  g_autoptr(GByteArray) b = NULL;
  g_autofree char *want = NULL;
  const guint threads[] = { 2, 7 };
  gsize n_flows;

  for (guint w = 0; w < N_WORKERS; w++)
    for (guint i = 0; i < workers[w]->len; i++)
      {
        Event *e = &g_array_index (workers[w], Event, i);

        e->kind = EV_WAKE;
        e->a = (guint64) g_rand_int_range (rand, 0, N_TASKS + 2);
        e->b = (guint64) g_rand_int_range (rand, 1, N_TASKS + 1);
      }
  b = write_file (workers, 4, 300, FALSE, rand);
  want = load_print (b, 1, TRUE, &n_flows);
  g_assert_cmpuint (n_flows, ==, 0);
  g_assert_nonnull (strstr (want, ": wakes,"));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autofree char *got = load_print (b, threads[i], FALSE, &n_flows);

      g_assert_cmpstr (got, ==, want);
    }
  for (guint w = 0; w < N_WORKERS; w++)
    g_array_unref (workers[w]);
  g_free (workers);
}

/* Enough CPU samples that they are split in two at a time and the halves
 * sorted side by side: the samples come out as one stable sort by time
 * gives them (ties in file order), the same on every thread count. */
static void
test_many_samples (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (17);
  GArray **workers = make_workers (30000, rand);
  g_autoptr(GByteArray) b = NULL;
  g_autoptr(KymoTrace) want = NULL;
  const KymoStackSample *ws;
  const guint threads[] = { 1, 2, 7 };
  gsize n_want;

  for (guint w = 0; w < N_WORKERS; w++)
    for (guint i = 0; i < workers[w]->len; i++)
      {
        Event *e = &g_array_index (workers[w], Event, i);

        if (g_rand_int_range (rand, 0, 3) > 0)
          {
            e->kind = EV_CPU;
            e->a = (guint64) g_rand_int_range (rand, 0, 5);
          }
      }
  b = write_file (workers, 3, 200, FALSE, rand);
  want = load_trace (b, 1, TRUE);
  ws = kymo_stacks_get_samples (kymo_trace_get_stacks (want), &n_want);
  g_assert_cmpuint (n_want, >, 100000);
  g_assert_cmpuint (kymo_stacks_get_n_stacks (kymo_trace_get_stacks (want)), ==, 5);
  for (gsize i = 1; i < n_want; i++)
    g_assert_true (ws[i - 1].ts < ws[i].ts || (ws[i - 1].ts == ws[i].ts && ws[i - 1].source < ws[i].source));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr(KymoTrace) got = load_trace (b, threads[i], FALSE);
      const KymoStackSample *gs;
      gsize n;

      gs = kymo_stacks_get_samples (kymo_trace_get_stacks (got), &n);
      g_assert_cmpuint (n, ==, n_want);
      g_assert_cmpmem (gs, n * sizeof (KymoStackSample), ws, n_want * sizeof (KymoStackSample));
    }
  for (guint w = 0; w < N_WORKERS; w++)
    g_array_unref (workers[w]);
  g_free (workers);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dial9/pairing/overlapping-copies", test_overlapping_copies);
  g_test_add_func ("/dial9/pairing/shuffled-batches", test_shuffled_batches);
  g_test_add_func ("/dial9/pairing/large", test_large);
  g_test_add_func ("/dial9/pairing/wakes-only", test_wakes_only);
  g_test_add_func ("/dial9/pairing/many-samples", test_many_samples);
  return g_test_run ();
}
