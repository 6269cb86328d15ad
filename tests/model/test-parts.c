/* test-parts.c: parts decoded on threads are joined in order, once each
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every parallel decoder rests on these promises: each part is decoded
 * exactly once, joins come in part order, the workers never run more than
 * the given number of parts ahead of the join, and a join that stops the
 * run stops it (nothing after it is joined, and the run comes back). Idle
 * work asked for is done by the workers until the run is freed.
 */
#include "config.h"

#include "kymo-parts.h"
#include "kymo-test-utils.h"

#define N_PARTS 500

typedef struct {
  gint      decoded[N_PARTS];
  guint64   result[N_PARTS];
  GArray   *joined;
  guint     stop_at;
  guint     ahead;
  gint      released;  /* parts the join is done with */
  gint      max_ahead; /* the most parts ever decoded past @released */
} Run;

static void
decode_part (guint    index,
             gpointer user)
{
  Run *run = user;
  guint64 x = index + 1;
  gint ahead = (gint) index - g_atomic_int_get (&run->released);

  /* Uneven work, so that workers overtake each other. */
  for (guint i = 0; i < (index % 7) * 2000; i++)
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  run->result[index] = x;
  g_atomic_int_inc (&run->decoded[index]);
  for (gint seen = g_atomic_int_get (&run->max_ahead); ahead > seen;
       seen = g_atomic_int_get (&run->max_ahead))
    if (g_atomic_int_compare_and_exchange (&run->max_ahead, seen, ahead))
      break;
}

static gboolean
join_part (guint    index,
           gpointer user)
{
  Run *run = user;

  g_array_append_val (run->joined, run->result[index]);
  g_atomic_int_set (&run->released, (gint) index + 1);
  return index + 1 != run->stop_at;
}

static GArray *
run_parts (guint    threads,
           guint    ahead,
           guint    stop_at,
           gboolean *finished,
           Run      *run)
{
  KymoLoadOptions options = { .threads = threads };

  memset (run, 0, sizeof *run);
  run->joined = g_array_new (FALSE, FALSE, sizeof (guint64));
  run->stop_at = stop_at;
  run->ahead = ahead;
  *finished = kymo_parts_run (&options, 0, 0, N_PARTS, ahead, decode_part, join_part, run);
  return run->joined;
}

static void
test_same_at_every_thread_count (void)
{
  g_autoptr(GArray) sequential = NULL;
  Run run;
  gboolean finished;

  sequential = run_parts (1, 0, 0, &finished, &run);
  g_assert_true (finished);
  g_assert_cmpuint (sequential->len, ==, N_PARTS);

  for (guint threads = 2; threads <= 7; threads++)
    {
      g_autoptr(GArray) joined = run_parts (threads, 0, 0, &finished, &run);

      g_assert_true (finished);
      g_assert_cmpuint (joined->len, ==, N_PARTS);
      g_assert_cmpmem (joined->data, joined->len * sizeof (guint64),
                       sequential->data, sequential->len * sizeof (guint64));
      for (guint i = 0; i < N_PARTS; i++)
        g_assert_cmpint (run.decoded[i], ==, 1);
    }
}

static void
test_ahead_bounds_the_workers (void)
{
  Run run;
  gboolean finished;
  g_autoptr(GArray) joined = run_parts (7, 3, 0, &finished, &run);

  g_assert_true (finished);
  g_assert_cmpuint (joined->len, ==, N_PARTS);
  /* A part is at most @ahead past the first one the join still holds. */
  g_assert_cmpint (run.max_ahead, <, 3);
}

static void
test_stop_at_a_join (void)
{
  Run run;
  gboolean finished;
  g_autoptr(GArray) joined = run_parts (4, 8, 42, &finished, &run);

  g_assert_false (finished);
  g_assert_cmpuint (joined->len, ==, 42);
  /* The workers stopped within their window instead of decoding the rest. */
  for (guint i = 42 + 8 + 4; i < N_PARTS; i++)
    g_assert_cmpint (run.decoded[i], ==, 0);
}

static void
test_one_thread_is_sequential (void)
{
  KymoLoadOptions options = { .threads = 1 };
  Run run = { 0 };
  g_autoptr(KymoParts) parts = kymo_parts_new (&options, 0, 0, N_PARTS, 0, decode_part, &run);

  g_assert_cmpuint (kymo_parts_get_threads (parts), ==, 1);
  /* Nothing runs until the loading thread asks for a part. */
  for (guint i = 0; i < N_PARTS; i++)
    g_assert_cmpint (run.decoded[i], ==, 0);
  kymo_parts_wait (parts, 0);
  g_assert_cmpint (run.decoded[0], ==, 1);
  g_assert_cmpint (run.decoded[1], ==, 0);
}

typedef struct {
  Run    run;     /* first: decode_part() takes it */
  GMutex lock;
  GCond  cond;
  guint  pending; /* idle work asked for and not done */
  guint  done;
} IdleRun;

static gboolean
idle_work (gpointer user)
{
  IdleRun *r = user;
  gboolean did = FALSE;

  g_mutex_lock (&r->lock);
  if (r->pending > 0)
    {
      r->pending--;
      r->done++;
      did = TRUE;
      g_cond_broadcast (&r->cond);
    }
  g_mutex_unlock (&r->lock);
  return did;
}

static void
ask_idle_work (IdleRun   *r,
               KymoParts *parts,
               guint      n)
{
  g_mutex_lock (&r->lock);
  r->pending += n;
  g_mutex_unlock (&r->lock);
  kymo_parts_wake (parts);
}

/* Idle work (populating pages) is done by the workers, also once every
 * part is taken: a wake reaches them until the run is freed. */
static void
test_idle_work_is_done (void)
{
  KymoLoadOptions options = { .threads = 3 };
  g_autoptr(KymoParts) parts = NULL;
  IdleRun r = { 0 };
  guint asked = 0;

  g_mutex_init (&r.lock);
  g_cond_init (&r.cond);
  r.run.joined = g_array_new (FALSE, FALSE, sizeof (guint64));
  parts = kymo_parts_new_full (&options, 0, 0, N_PARTS, 4, decode_part, idle_work, &r);
  g_assert_cmpuint (kymo_parts_get_threads (parts), ==, 3);
  for (guint i = 0; i < N_PARTS; i++)
    {
      kymo_parts_wait (parts, i);
      join_part (i, &r.run);
      kymo_parts_release (parts, i);
      if (i % 10 == 0)
        {
          ask_idle_work (&r, parts, 1);
          asked++;
        }
    }
  ask_idle_work (&r, parts, 5);
  asked += 5;

  /* Hangs (and the test times out) if a wake is lost or the workers left. */
  g_mutex_lock (&r.lock);
  while (r.pending > 0)
    g_cond_wait (&r.cond, &r.lock);
  g_mutex_unlock (&r.lock);
  g_assert_cmpuint (r.done, ==, asked);
  g_assert_cmpuint (r.run.joined->len, ==, N_PARTS);
  for (guint i = 0; i < N_PARTS; i++)
    g_assert_cmpint (r.run.decoded[i], ==, 1);

  g_clear_pointer (&parts, kymo_parts_free);
  g_array_unref (r.run.joined);
  g_cond_clear (&r.cond);
  g_mutex_clear (&r.lock);
}

/* Part 0 cannot finish before part 1 is decoded: with one worker busy on
 * part 0, only a loading thread that helps decodes part 1. */
typedef struct {
  GMutex  lock;
  GCond   cond;
  gboolean first_started;
  gboolean second_done;
  gboolean timed_out;
  GThread *loader;
  gint     by_loader;   /* parts the loading thread decoded */
} Helped;

static void
decode_dependent (guint    index,
                  gpointer user)
{
  Helped *h = user;

  if (g_thread_self () == h->loader)
    g_atomic_int_inc (&h->by_loader);
  g_mutex_lock (&h->lock);
  if (index == 0)
    {
      /* A bound only so that a broken pool fails instead of hanging. */
      gint64 until = g_get_monotonic_time () + 30 * G_TIME_SPAN_SECOND;

      h->first_started = TRUE;
      g_cond_broadcast (&h->cond);
      while (!h->second_done && !h->timed_out)
        if (!g_cond_wait_until (&h->cond, &h->lock, until))
          h->timed_out = TRUE;
    }
  else if (index == 1)
    {
      h->second_done = TRUE;
      g_cond_broadcast (&h->cond);
    }
  g_mutex_unlock (&h->lock);
}

static void
test_loader_helps_while_waiting (void)
{
  KymoLoadOptions options = { .threads = 2 };
  Helped h = { 0 };
  g_autoptr(KymoParts) parts = NULL;

  g_mutex_init (&h.lock);
  g_cond_init (&h.cond);
  h.loader = g_thread_self ();
  parts = kymo_parts_new (&options, 0, 0, 8, 0, decode_dependent, &h);
  kymo_parts_set_help (parts, TRUE);
  /* The one worker takes part 0 (nothing else claims it before). */
  g_mutex_lock (&h.lock);
  while (!h.first_started)
    g_cond_wait (&h.cond, &h.lock);
  g_mutex_unlock (&h.lock);
  for (guint i = 0; i < 8; i++)
    {
      kymo_parts_wait (parts, i);
      kymo_parts_release (parts, i);
    }
  g_assert_false (h.timed_out);
  g_assert_true (h.second_done);
  g_assert_cmpint (g_atomic_int_get (&h.by_loader), >, 0);
  g_clear_pointer (&parts, kymo_parts_free);
  g_cond_clear (&h.cond);
  g_mutex_clear (&h.lock);
}

static void
test_help_keeps_order_and_once (void)
{
  KymoLoadOptions options = { .threads = 3 };
  Run run = { 0 };
  g_autoptr(GArray) sequential = NULL;
  gboolean finished;
  g_autoptr(KymoParts) parts = NULL;

  sequential = run_parts (1, 0, 0, &finished, &run);
  memset (&run, 0, sizeof run);
  run.joined = g_array_new (FALSE, FALSE, sizeof (guint64));
  run.ahead = 4;
  parts = kymo_parts_new (&options, 0, 0, N_PARTS, 4, decode_part, &run);
  kymo_parts_set_help (parts, TRUE);
  for (guint i = 0; i < N_PARTS; i++)
    {
      kymo_parts_wait (parts, i);
      join_part (i, &run);
      kymo_parts_release (parts, i);
    }
  g_clear_pointer (&parts, kymo_parts_free);
  g_assert_cmpmem (run.joined->data, run.joined->len * sizeof (guint64),
                   sequential->data, sequential->len * sizeof (guint64));
  for (guint i = 0; i < N_PARTS; i++)
    g_assert_cmpint (run.decoded[i], ==, 1);
  /* Helping stays within the window too. */
  g_assert_cmpint (run.max_ahead, <, 4);
  g_array_unref (run.joined);
}

/* kymo_parts_run() by hand, with the loading thread decoding while it
 * waits: same promises as the run. */
static GArray *
run_helped (guint  threads,
                  guint  ahead,
                  Run   *run)
{
  KymoLoadOptions options = { .threads = threads };
  g_autoptr(KymoParts) parts = NULL;

  memset (run, 0, sizeof *run);
  run->joined = g_array_new (FALSE, FALSE, sizeof (guint64));
  run->ahead = ahead;
  parts = kymo_parts_new (&options, 0, 0, N_PARTS, ahead, decode_part, run);
  kymo_parts_set_help (parts, TRUE);
  for (guint i = 0; i < N_PARTS; i++)
    {
      kymo_parts_wait (parts, i);
      join_part (i, run);
      kymo_parts_release (parts, i);
    }
  return run->joined;
}

static void
test_help_same_at_every_thread_count (void)
{
  Run run;
  gboolean finished;
  g_autoptr(GArray) sequential = run_parts (1, 0, 0, &finished, &run);

  for (guint threads = 2; threads <= 7; threads += 5)
    for (guint ahead = 0; ahead <= 3; ahead += 3)
      {
        g_autoptr(GArray) joined = run_helped (threads, ahead, &run);

        g_assert_cmpmem (joined->data, joined->len * sizeof (guint64),
                         sequential->data, sequential->len * sizeof (guint64));
        for (guint i = 0; i < N_PARTS; i++)
          g_assert_cmpint (run.decoded[i], ==, 1);
        if (ahead > 0)
          g_assert_cmpint (run.max_ahead, <, (gint) ahead);
      }
}

typedef struct {
  GMutex   lock;
  GCond    cond;
  GThread *loading;
  guint    by_loading;  /* parts the loading thread decoded */
  gboolean held;        /* a worker held its part */
} Hold;

/* A worker's first part is done only once the loading thread has decoded
 * two parts, and the loading thread decodes none before a worker holds one:
 * without decoding while it waits, the loading thread would sleep on that
 * part for ever (the deadline only turns a hang into a failure). */
static void
decode_hold (guint    index,
             gpointer user)
{
  Hold *h = user;
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  g_mutex_lock (&h->lock);
  if (g_thread_self () == h->loading)
    {
      /* Only once a worker holds a part does waiting without decoding hang. */
      while (!h->held)
        g_assert_true (g_cond_wait_until (&h->cond, &h->lock, deadline));
      h->by_loading++;
      g_cond_broadcast (&h->cond);
    }
  else if (!h->held)
    {
      h->held = TRUE;
      g_cond_broadcast (&h->cond);
      while (h->by_loading < 2)
        g_assert_true (g_cond_wait_until (&h->cond, &h->lock, deadline));
    }
  g_mutex_unlock (&h->lock);
}

static void
test_help_decodes_meanwhile (void)
{
  KymoLoadOptions options = { .threads = 2 };
  Hold h = { .loading = g_thread_self () };
  g_autoptr(KymoParts) parts = kymo_parts_new (&options, 0, 0, 8, 0, decode_hold, &h);

  kymo_parts_set_help (parts, TRUE);
  for (guint i = 0; i < 8; i++)
    {
      kymo_parts_wait (parts, i);
      kymo_parts_release (parts, i);
    }
  g_assert_cmpuint (h.by_loading, >=, 2);
}

/* kymo_parts_run() with nothing to join: the loading thread decodes parts
 * too, rather than leave every part to the one worker two threads make. */
static void
test_run_without_join_helps (void)
{
  KymoLoadOptions options = { .threads = 2 };
  Hold h = { .loading = g_thread_self () };

  g_assert_true (kymo_parts_run (&options, 0, 0, 8, 0, decode_hold, NULL, &h));
  g_assert_cmpuint (h.by_loading, >=, 2);
}

static void
note_start (gpointer user)
{
  Run *run = user;

  /* Before any join: nothing joined yet (1 + the joins so far). */
  run->ahead = run->joined->len + 1;
}

/* kymo_parts_run_helped(): the same joins as a sequential run at every
 * thread count, each part decoded once, the start hook before the first
 * join, and a join that stops the run stops it. */
static void
test_run_helped (void)
{
  g_autoptr(GArray) sequential = NULL;
  gboolean finished;
  Run run;
  const guint threads[] = { 1, 2, 3, 7 };

  sequential = run_parts (1, 0, 0, &finished, &run);
  g_assert_true (finished);
  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    {
      KymoLoadOptions options = { .threads = threads[t] };

      memset (&run, 0, sizeof run);
      run.joined = g_array_new (FALSE, FALSE, sizeof (guint64));
      run.stop_at = G_MAXUINT;
      g_assert_true (kymo_parts_run_helped (&options, 0, 0, N_PARTS, decode_part, join_part, note_start, &run));
      g_assert_cmpuint (run.ahead, ==, 1);
      g_assert_cmpmem (run.joined->data, run.joined->len * sizeof (guint64),
                       sequential->data, sequential->len * sizeof (guint64));
      for (guint i = 0; i < N_PARTS; i++)
        g_assert_cmpint (run.decoded[i], ==, 1);
      g_array_unref (run.joined);

      memset (&run, 0, sizeof run);
      run.joined = g_array_new (FALSE, FALSE, sizeof (guint64));
      run.stop_at = 40;
      g_assert_false (kymo_parts_run_helped (&options, 0, 0, N_PARTS, decode_part, join_part, NULL, &run));
      g_assert_cmpuint (run.joined->len, ==, 40);
      g_array_unref (run.joined);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/parts/same-at-every-thread-count", test_same_at_every_thread_count);
  g_test_add_func ("/parts/ahead-bounds-the-workers", test_ahead_bounds_the_workers);
  g_test_add_func ("/parts/stop-at-a-join", test_stop_at_a_join);
  g_test_add_func ("/parts/one-thread-is-sequential", test_one_thread_is_sequential);
  g_test_add_func ("/parts/idle-work-is-done", test_idle_work_is_done);
  g_test_add_func ("/parts/loader-helps-while-waiting", test_loader_helps_while_waiting);
  g_test_add_func ("/parts/help-keeps-order-and-once", test_help_keeps_order_and_once);
  g_test_add_func ("/parts/help-same-at-every-thread-count", test_help_same_at_every_thread_count);
  g_test_add_func ("/parts/help-decodes-meanwhile", test_help_decodes_meanwhile);
  g_test_add_func ("/parts/run-helped", test_run_helped);
  g_test_add_func ("/parts/run-without-join-helps", test_run_without_join_helps);
  return g_test_run ();
}
