/* test-dial9-merge.c: per-thread batches out of time order load as the same
 * events in time order do
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "kymo-test-utils.h"
#include "dial9/kymo-dial9-parts-private.h"
#include "dial9-builder.h"

/* A file in time order is paired while it is decoded; batches out of
 * order go through the merge (sorted runs chained, merged in parts by
 * key on the load's threads). Both must give the same timeline. */

#define N_THREADS 3

enum {
  EV_POLL_START,
  EV_POLL_END,
  EV_WAKE,
};

typedef struct {
  guint64 ts;
  guint   thread;
  guint   kind;
  guint64 a;       /* worker, or waker task */
  guint64 b;       /* task, or woken task */
} Event;

/* Each thread polls its own tasks and, while polling, wakes tasks of the
 * next thread. Times are unique: thread t's are t modulo N_THREADS. */
static GArray *
make_events (guint n_polls)
{
  GArray *events = g_array_new (FALSE, FALSE, sizeof (Event));

  for (guint t = 0; t < N_THREADS; t++)
    {
      guint64 ts = 1000 + t;

      for (guint i = 0; i < n_polls; i++)
        {
          guint64 task = (guint64) t * 1000 + i % 50 + 1;
          guint64 woken = (guint64) ((t + 1) % N_THREADS) * 1000 + (i * 7) % 50 + 1;
          guint64 len = N_THREADS * (2 + i % 9);
          Event start = { ts, t, EV_POLL_START, t, task };
          Event wake = { ts + N_THREADS, t, EV_WAKE, task, woken };
          Event end = { ts + len, t, EV_POLL_END, t, 0 };

          g_array_append_val (events, start);
          if (i % 3 != 0)
            g_array_append_val (events, wake);
          g_array_append_val (events, end);
          ts += len + N_THREADS * (1 + i % 4);
        }
    }
  return events;
}

static int
compare_ts (gconstpointer a,
            gconstpointer b)
{
  const Event *x = a, *y = b;
  return x->ts < y->ts ? -1 : x->ts > y->ts;
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
      d9b_varint (b, e->a); d9b_u8 (b, (guint8) (e->b % 5)); d9b_varint (b, e->b); d9b_u32 (b, 0);
      break;
    case EV_POLL_END:
      d9b_varint (b, e->a);
      break;
    default:
      d9b_varint (b, e->a); d9b_varint (b, e->b); d9b_u8 (b, 0);
      break;
    }
}

static GByteArray *
begin_file (void)
{
  GByteArray *b = g_byte_array_new ();
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };

  d9b_header (b);
  d9b_schema (b, EV_POLL_START, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, EV_POLL_END, "PollEndEvent", TRUE, poll_end);
  d9b_schema (b, EV_WAKE, "WakeEventEvent", TRUE, wake);
  d9b_pool (b, 0, "src/main.rs:10");
  return b;
}

typedef struct {
  guint   from;
  guint   to;
  guint64 key;
} Batch;

static int
compare_batches (gconstpointer a,
                 gconstpointer b)
{
  const Batch *x = a, *y = b;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* Writes @events (one thread's after another's) as batches of at most
 * @max_batch events of one thread each: in the order their first events
 * were, give or take @jitter (as threads flush their buffers), or
 * shuffled when @jitter is 0. */
static GByteArray *
write_batches (GArray *events,
               guint   max_batch,
               guint   jitter,
               GRand  *rand)
{
  GByteArray *b = begin_file ();
  g_autoptr(GArray) batches = g_array_new (FALSE, FALSE, sizeof (Batch));
  const Event *e = (const Event *) (gpointer) events->data;
  Batch *v;

  for (guint i = 0; i < events->len;)
    {
      guint n = (guint) g_rand_int_range (rand, 1, (gint32) max_batch + 1);
      Batch batch = { i, i, e[i].ts + (jitter > 0 ? (guint64) g_rand_int_range (rand, 0, (gint32) jitter) : 0) };

      while (batch.to < events->len && batch.to - i < n && e[batch.to].thread == e[i].thread)
        batch.to++;
      g_array_append_val (batches, batch);
      i = batch.to;
    }
  v = (Batch *) (gpointer) batches->data;
  if (jitter > 0)
    g_array_sort (batches, compare_batches);
  for (guint i = jitter > 0 ? 0 : batches->len; i-- > 1;)
    {
      guint j = (guint) g_rand_int_range (rand, 0, (gint32) i + 1);
      Batch t = v[i];

      v[i] = v[j];
      v[j] = t;
    }
  for (guint k = 0; k < batches->len; k++)
    {
      d9b_reset (b, e[v[k].from].ts);
      for (guint i = v[k].from; i < v[k].to; i++)
        write_event (b, &e[i], i == v[k].from ? 0 : e[i].ts - e[i - 1].ts);
    }
  return b;
}

static GByteArray *
write_in_order (GArray *events)
{
  GByteArray *b = begin_file ();
  g_autoptr(GArray) sorted = g_array_copy (events);
  const Event *e;

  g_array_sort (sorted, compare_ts);
  e = (const Event *) (gpointer) sorted->data;
  d9b_reset (b, e[0].ts);
  for (guint i = 0; i < sorted->len; i++)
    write_event (b, &e[i], i == 0 ? 0 : e[i].ts - e[i - 1].ts);
  return b;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* The timeline as a user sees it, line by line, without the events'
 * places in the file (which differ between the two files). */
static GPtrArray *
timeline (KymoTrace *trace)
{
  GPtrArray *out = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) flows = g_ptr_array_new_with_free_func (g_free);
  const KymoFlow *f;
  gsize n;

  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      const KymoSpan *spans = kymo_track_get_spans (track, &n);
      const KymoInstant *instants;
      const KymoSample *samples;

      g_ptr_array_add (out, g_strdup_printf ("track %s", kymo_track_get_name (track)));
      for (gsize i = 0; i < n; i++)
        g_ptr_array_add (out, g_strdup_printf ("span %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s %u", spans[i].start,
                                               spans[i].end, kymo_trace_get_name (trace, kymo_span_name (&spans[i])),
                                               kymo_span_flags (&spans[i])));
      instants = kymo_track_get_instants (track, &n);
      for (gsize i = 0; i < n; i++)
        g_ptr_array_add (out, g_strdup_printf ("instant %" G_GINT64_FORMAT " %s", instants[i].ts,
                                               kymo_trace_get_name (trace, instants[i].name_flags & KYMO_NAME_MAX)));
      samples = kymo_track_get_samples (track, &n);
      for (gsize i = 0; i < n; i++)
        g_ptr_array_add (out, g_strdup_printf ("sample %" G_GINT64_FORMAT " %g", samples[i].ts, samples[i].value));
    }
  f = kymo_trace_get_flows (trace, &n);
  for (gsize i = 0; i < n; i++)
    g_ptr_array_add (flows, g_strdup_printf ("flow %s %" G_GINT64_FORMAT " %s %" G_GINT64_FORMAT,
                                             kymo_track_get_name (kymo_trace_get_track (trace, f[i].from_track)),
                                             f[i].from_ts,
                                             kymo_track_get_name (kymo_trace_get_track (trace, f[i].to_track)),
                                             f[i].to_ts));
  g_ptr_array_sort (flows, compare_strings);
  for (guint i = 0; i < flows->len; i++)
    g_ptr_array_add (out, g_strdup (g_ptr_array_index (flows, i)));
  return out;
}

static GPtrArray *
load_timeline (GByteArray *b,
               guint       threads)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;

  kymo_test_set_threads (threads);
  trace = kymo_test_load_bytes (b->data, b->len, "dial9", &error);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  return timeline (trace);
}

/* Batches that overlap a little in time make a few chains of runs per
 * array; shuffled ones make too many, and the arrays are sorted first. */
static void
check_batches (guint max_batch,
               guint jitter)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7 + max_batch);
  /* Past two parts of the merge (2^17 edges and wakes each). */
  g_autoptr(GArray) events = make_events (40000);
  g_autoptr(GByteArray) ordered = write_in_order (events);
  g_autoptr(GByteArray) batches = write_batches (events, max_batch, jitter, rand);
  g_autoptr(GPtrArray) want = load_timeline (ordered, 1);
  const guint threads[] = { 1, 2, 7 };
  gboolean has_flows = FALSE;

  for (guint k = 0; k < want->len; k++)
    has_flows |= g_str_has_prefix (g_ptr_array_index (want, k), "flow worker 0 ");
  g_assert_true (has_flows);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr(GPtrArray) got = load_timeline (batches, threads[i]);

      /* The first line that differs, rather than megabytes of both. */
      for (guint k = 0; k < MIN (got->len, want->len); k++)
        g_assert_cmpstr (g_ptr_array_index (got, k), ==, g_ptr_array_index (want, k));
      g_assert_cmpuint (got->len, ==, want->len);
    }
  kymo_test_set_threads (0);
}

static void
test_overlapping_batches (void)
{
  check_batches (40, 20000);
}

static void
test_shuffled_batches (void)
{
  check_batches (2, 0);
}

/* A segment in time order of more than a MiB, then batches out of order:
 * a file that only goes out of order a little way in, as real samples do
 * (after up to 1.5 MB). It loads the same on every thread count, and on
 * more than one it is not streamed first only to start again. */
static void
test_out_of_order_later (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (11);
  g_autoptr(GArray) head = make_events (17000);
  g_autoptr(GArray) events = make_events (60000);
  g_autoptr(GByteArray) file = write_in_order (head);
  g_autoptr(GByteArray) batches = write_batches (events, 40, 20000, rand);
  g_autoptr(GPtrArray) want = NULL;
  const guint threads[] = { 2, 7 };

  /* The probe of the start sees only the first segment. */
  g_assert_cmpuint (file->len, >, 1 << 20);
  g_assert_cmpuint (file->len, <, 2 << 20);
  g_byte_array_append (file, batches->data, batches->len);
  g_assert_cmpuint (file->len, >, 4 << 20);

  want = load_timeline (file, 1);
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr(GPtrArray) got = NULL;

      d9_parts_reset_for_testing ();
      got = load_timeline (file, threads[i]);
      g_assert_cmpuint (d9_parts_get_restarts_for_testing (), ==, 0);
      for (guint k = 0; k < MIN (got->len, want->len); k++)
        g_assert_cmpstr (g_ptr_array_index (got, k), ==, g_ptr_array_index (want, k));
      g_assert_cmpuint (got->len, ==, want->len);
    }
  kymo_test_set_threads (0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dial9/merge/overlapping-batches", test_overlapping_batches);
  g_test_add_func ("/dial9/merge/shuffled-batches", test_shuffled_batches);
  g_test_add_func ("/dial9/merge/out-of-order-later", test_out_of_order_later);
  return g_test_run ();
}
