/* test-dial9-lanes.c: the workers' on-CPU shares, CPU samples and wake marks of a generated trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-analysis.h"
#include "kymo-test-utils.h"
#include "dial9-lanes-scenario.h"

static KymoTrace *
load (void)
{
  g_autoptr(GByteArray) b = d9l_scenario ();
  g_autoptr(GError) error = NULL;
  KymoTrace *trace = kymo_test_load_bytes (b->data, b->len, "dial9", &error);

  g_assert_no_error (error);
  return trace;
}

/* Every park and unpark with a CPU clock gives a "cpu" record on its
 * worker's lane, named for which it is. */
static void
test_cpu_records (void)
{
  g_autoptr(KymoTrace) trace = load ();
  guint32 kind = kymo_trace_lookup_name (trace, "cpu");
  guint32 park = kymo_trace_lookup_name (trace, "park");
  guint32 unpark = kymo_trace_lookup_name (trace, "unpark");
  guint w0 = d9l_find_track (trace, "worker 0");
  const KymoRecord *r;
  guint n_cpu = 0, n_park = 0, n_w0 = 0;
  gsize n;

  g_assert_cmpuint (kind, !=, G_MAXUINT32);
  r = kymo_records_get_all (kymo_trace_get_records (trace), &n);
  for (gsize i = 0; i < n; i++)
    {
      if (r[i].kind != kind)
        continue;
      n_cpu++;
      g_assert_true (r[i].name == park || r[i].name == unpark);
      n_park += r[i].name == park;
      if (r[i].track == w0)
        {
          n_w0++;
          g_assert_cmpuint (r[i].key, ==, 0);
          if (r[i].ts == 2000 * D9L_US)
            g_assert_cmpuint (r[i].value, ==, 5250000);
        }
    }
  g_assert_cmpuint (n_cpu, ==, 9);
  g_assert_cmpuint (n_park, ==, 5);
  g_assert_cmpuint (n_w0, ==, 4);
}

static void
test_shares (void)
{
  g_autoptr(KymoTrace) trace = load ();
  g_autoptr(KymoDial9Lanes) lanes = kymo_dial9_lanes_new (trace);
  guint w0 = d9l_find_track (trace, "worker 0"), w1 = d9l_find_track (trace, "worker 1"), w2 = d9l_find_track (trace, "worker 2");
  const KymoCpuPeriod *p;
  KymoTime cpu, active;
  gsize n;

  g_assert_true (kymo_dial9_lanes_has_cpu (lanes));

  p = kymo_dial9_lanes_get_periods (lanes, w0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (p[0].start, ==, 1000 * D9L_US);
  g_assert_cmpint (p[0].end, ==, 2000 * D9L_US);
  g_assert_cmpint (p[0].cpu, ==, 250 * D9L_US);
  g_assert_cmpfloat (kymo_cpu_period_share (&p[0]), ==, 0.25);
  g_assert_cmpint (p[1].start, ==, 3000 * D9L_US);
  g_assert_cmpint (p[1].cpu, ==, 750 * D9L_US);
  g_assert_cmpfloat (kymo_cpu_period_share (&p[1]), ==, 0.75);
  g_assert_true (kymo_dial9_lanes_get_cpu_total (lanes, w0, &cpu, &active));
  g_assert_cmpint (cpu, ==, 1000 * D9L_US);
  g_assert_cmpint (active, ==, 2000 * D9L_US);
  /* Any run of periods, as a zoomed-out column pools them */
  kymo_dial9_lanes_sum_periods (lanes, w0, 1, 2, &cpu, &active);
  g_assert_cmpint (cpu, ==, 750 * D9L_US);
  g_assert_cmpint (active, ==, 1000 * D9L_US);
  kymo_dial9_lanes_sum_periods (lanes, w0, 2, 9, &cpu, &active);
  g_assert_cmpint (active, ==, 0);

  /* The period holding a time, and none while parked */
  g_assert_true (kymo_dial9_lanes_find_period (lanes, w0, 1100 * D9L_US) == &p[0]);
  g_assert_true (kymo_dial9_lanes_find_period (lanes, w0, 4000 * D9L_US) == &p[1]);
  g_assert_null (kymo_dial9_lanes_find_period (lanes, w0, 2500 * D9L_US));
  g_assert_null (kymo_dial9_lanes_find_period (lanes, w0, 10));

  p = kymo_dial9_lanes_get_periods (lanes, w1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (p[0].end - p[0].start, ==, 2000 * D9L_US);
  g_assert_cmpfloat (kymo_cpu_period_share (&p[0]), ==, 1.0);

  /* The park before any unpark starts no period */
  p = kymo_dial9_lanes_get_periods (lanes, w2, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (p[0].start, ==, 1000 * D9L_US);
  g_assert_cmpfloat (kymo_cpu_period_share (&p[0]), ==, 0.0);

  /* A track that is no worker */
  g_assert_null (kymo_dial9_lanes_get_periods (lanes, G_MAXUINT, &n));
  g_assert_false (kymo_dial9_lanes_get_cpu_total (lanes, G_MAXUINT, &cpu, &active));
}

/* CPU-profile samples only: the scheduler sample is not a tick. */
static void
test_cpu_samples (void)
{
  g_autoptr(KymoTrace) trace = load ();
  g_autoptr(KymoDial9Lanes) lanes = kymo_dial9_lanes_new (trace);
  const KymoTime *ts;
  gsize n;

  ts = kymo_dial9_lanes_get_cpu_samples (lanes, d9l_find_track (trace, "worker 0"), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (ts[0], ==, 1200 * D9L_US);
  kymo_dial9_lanes_get_cpu_samples (lanes, d9l_find_track (trace, "worker 1"), &n);
  g_assert_cmpuint (n, ==, 0);
}

static void
test_wake_marks (void)
{
  g_autoptr(KymoTrace) trace = load ();
  g_autoptr(KymoDial9Tasks) tasks = kymo_dial9_tasks_new (trace, NULL);
  const KymoDial9Task *rows;
  g_autofree KymoWakeMark *marks = NULL;
  guint task1 = G_MAXUINT;
  gsize n;

  rows = kymo_dial9_tasks_get_rows (tasks, &n);
  for (guint i = 0; i < n; i++)
    if (rows[i].task_id == 1)
      task1 = i;
  g_assert_cmpuint (task1, !=, G_MAXUINT);
  marks = kymo_dial9_tasks_dup_wake_marks (tasks, task1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (marks[0].ts, ==, 2500 * D9L_US);
  g_assert_cmpint (marks[0].poll_start, ==, 3100 * D9L_US);
  g_assert_cmpuint (marks[0].track, ==, d9l_find_track (trace, "worker 0"));
  g_assert_cmpuint (marks[0].waker_track, ==, d9l_find_track (trace, "worker 1"));

  /* No wakes, no marks; a row past the end neither */
  g_assert_null (kymo_dial9_tasks_dup_wake_marks (tasks, task1 == 0 ? 1 : 0, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_null (kymo_dial9_tasks_dup_wake_marks (tasks, 99, &n));
}

/* A trace from before dial9 recorded CPU clocks has no shares, and no
 * share is made up. */
static void
test_no_clock (void)
{
  const char *park[] = { "worker_id:9", "local_queue:11", NULL };
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoDial9Lanes) lanes = NULL;

  d9b_header (b);
  d9b_schema (b, 0, "WorkerUnparkEvent", TRUE, park);
  d9b_schema (b, 1, "WorkerParkEvent", TRUE, park);
  d9b_reset (b, 1000);
  d9b_event (b, 0, 0); d9b_varint (b, 0); d9b_u8 (b, 0);
  d9b_event (b, 1, 500); d9b_varint (b, 0); d9b_u8 (b, 0);
  trace = kymo_test_load_bytes (b->data, b->len, "dial9", &error);
  g_assert_no_error (error);
  lanes = kymo_dial9_lanes_new (trace);
  g_assert_false (kymo_dial9_lanes_has_cpu (lanes));
}

/* Segments overlapping in time (here five copies of the scenario, one
 * after the other) give a worker's readings out of order: the periods are
 * those of the readings in time order, whichever way the lanes are made. */
static void
test_overlapping_copies (void)
{
  g_autoptr(GByteArray) one = d9l_scenario ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) single = load ();
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoDial9Lanes) expected = NULL;
  g_autoptr(KymoDial9Lanes) alone = NULL;
  g_autoptr(KymoDial9Lanes) with_tasks = NULL;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  KymoPoiThresholds t;

  for (guint i = 0; i < 5; i++)
    g_byte_array_append (b, one->data, one->len);
  trace = kymo_test_load_bytes (b->data, b->len, "dial9", &error);
  g_assert_no_error (error);
  kymo_poi_thresholds_init_default (&t);
  expected = kymo_dial9_lanes_new (single);
  alone = kymo_dial9_lanes_new (trace);
  tasks = kymo_dial9_tasks_new_with_lanes (trace, &t, &with_tasks);
  g_assert_nonnull (tasks);
  g_assert_true (kymo_dial9_lanes_has_cpu (with_tasks));

  for (guint w = 0; w < 2; w++)
    {
      g_autofree char *name = g_strdup_printf ("worker %u", w);
      guint track = d9l_find_track (trace, name);
      const KymoCpuPeriod *e, *p, *q;
      gsize n_e, n_p, n_q;

      g_assert_cmpuint (track, ==, d9l_find_track (single, name));
      e = kymo_dial9_lanes_get_periods (expected, track, &n_e);
      p = kymo_dial9_lanes_get_periods (alone, track, &n_p);
      q = kymo_dial9_lanes_get_periods (with_tasks, track, &n_q);
      g_assert_cmpuint (n_e, >, 0);
      g_assert_cmpuint (n_p, ==, n_e);
      g_assert_cmpuint (n_q, ==, n_e);
      for (gsize i = 0; i < n_e; i++)
        {
          g_assert_cmpint (p[i].start, ==, e[i].start);
          g_assert_cmpint (p[i].end, ==, e[i].end);
          g_assert_cmpint (p[i].cpu, ==, e[i].cpu);
          g_assert_cmpmem (&q[i], sizeof q[i], &p[i], sizeof p[i]);
        }
    }
}

/* The app asks for the lanes with the tasks, and the rows and points are
 * then put in order while the lanes are made: the table and the points
 * are the ones asked for alone, in both orders. */
static void
test_points_beside_lanes (void)
{
  g_autoptr(GByteArray) one = d9l_scenario ();
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoDial9Lanes) lanes = NULL;
  g_autoptr(KymoDial9Tasks) alone = NULL;
  g_autoptr(KymoDial9Tasks) with_lanes = NULL;
  const KymoDial9Task *rows, *rows_alone;
  gsize n_rows, n_alone;
  KymoPoiThresholds t;

  for (guint i = 0; i < 3; i++)
    g_byte_array_append (b, one->data, one->len);
  trace = kymo_test_load_bytes (b->data, b->len, "dial9", &error);
  g_assert_no_error (error);
  kymo_poi_thresholds_init_default (&t);
  /* Low enough that every kind of point is there. */
  t.long_poll_ns = 1;
  t.wake_delay_ns = 1;
  t.sched_delay_ns = 1;
  alone = kymo_dial9_tasks_new (trace, &t);
  with_lanes = kymo_dial9_tasks_new_with_lanes (trace, &t, &lanes);

  rows_alone = kymo_dial9_tasks_get_rows (alone, &n_alone);
  rows = kymo_dial9_tasks_get_rows (with_lanes, &n_rows);
  g_assert_cmpuint (n_rows, >, 0);
  g_assert_cmpuint (n_rows, ==, n_alone);
  g_assert_cmpmem (rows, n_rows * sizeof *rows, rows_alone, n_alone * sizeof *rows_alone);
  g_assert_cmpuint (kymo_dial9_tasks_get_n_polls (with_lanes), ==, kymo_dial9_tasks_get_n_polls (alone));
  g_assert_cmpuint (kymo_dial9_tasks_get_n_pois (with_lanes), >, 0);
  g_assert_cmpuint (kymo_dial9_tasks_get_n_pois (with_lanes), ==, kymo_dial9_tasks_get_n_pois (alone));
  for (gsize i = 0; i < kymo_dial9_tasks_get_n_pois (alone); i++)
    {
      g_assert_cmpmem (kymo_dial9_tasks_get_poi (with_lanes, KYMO_POI_TIME_ORDER, i), sizeof (KymoPoi),
                       kymo_dial9_tasks_get_poi (alone, KYMO_POI_TIME_ORDER, i), sizeof (KymoPoi));
      g_assert_cmpmem (kymo_dial9_tasks_get_poi (with_lanes, KYMO_POI_WORST_FIRST, i), sizeof (KymoPoi),
                       kymo_dial9_tasks_get_poi (alone, KYMO_POI_WORST_FIRST, i), sizeof (KymoPoi));
      if (i > 0)
        g_assert_cmpint (kymo_dial9_tasks_get_poi (alone, KYMO_POI_TIME_ORDER, i - 1)->start, <=,
                         kymo_dial9_tasks_get_poi (alone, KYMO_POI_TIME_ORDER, i)->start);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dial9/lanes/cpu-records", test_cpu_records);
  g_test_add_func ("/dial9/lanes/shares", test_shares);
  g_test_add_func ("/dial9/lanes/cpu-samples", test_cpu_samples);
  g_test_add_func ("/dial9/lanes/wake-marks", test_wake_marks);
  g_test_add_func ("/dial9/lanes/no-clock", test_no_clock);
  g_test_add_func ("/dial9/lanes/overlapping-copies", test_overlapping_copies);
  g_test_add_func ("/dial9/lanes/points-beside-lanes", test_points_beside_lanes);
  return g_test_run ();
}
