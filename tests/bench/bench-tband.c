/* bench-tband.c: loading a large Tonbandgerät stream, against cksum
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Generates a ≥ 100 MB FreeRTOS stream (task switches, state changes, queue
 * and mutex traffic, ISRs, markers) with our own encoder, shaped like the
 * real sample: 1 ns ticks, events ~140 µs apart on average, ~10 bytes a
 * frame. Loads it the way the app does, and prints the throughput beside
 * `cksum` of the same file; also the framing + event decoding alone.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-bench.h"
#include "tband/kymo-tband-cobs.h"
#include "tband/kymo-tband-events.h"

#define TARGET_BYTES ((gsize) 100 * 1000 * 1000 + 4096)
#define RUNS 3

typedef struct {
  GByteArray *out;
  guint64     ts;
} Writer;

/* One event: id, ts (when timed), u32/s64 fields, optional string. */
static void
emit (Writer     *w,
      guint8      id,
      gboolean    timed,
      guint       n,
      guint64     a,
      guint64     b,
      const char *str)
{
  guint8 raw[128], *p = raw;
  gsize old = w->out->len, len;

  *p++ = id;
  if (timed)
    {
      /* 20-280 µs apart, like the sample's 3,231 events in 444 ms. */
      w->ts += 20000 + (w->ts * 2654435761u >> 7) % 260000;
      p += kymo_tband_write_u64 (p, w->ts);
    }
  if (n > 0)
    p += kymo_tband_write_u64 (p, a);
  if (n > 1)
    p += kymo_tband_write_u64 (p, b);
  if (str != NULL)
    {
      len = strlen (str);
      memcpy (p, str, len);
      p += len;
    }
  len = p - raw;
  g_byte_array_set_size (w->out, old + kymo_tband_cobs_max_encoded (len));
  g_byte_array_set_size (w->out, old + kymo_tband_cobs_encode (raw, len, w->out->data + old));
}

static GByteArray *
generate (void)
{
  Writer w = { g_byte_array_sized_new (TARGET_BYTES + 4096), 1000 };
  static const char * const names[] = { "IDLE", "net", "sensor", "ui", "logger", "ctrl" };
  guint i = 0;

  emit (&w, KYMO_TBAND_TS_RESOLUTION_NS, FALSE, 1, 1, 0, NULL);
  for (guint t = 0; t < G_N_ELEMENTS (names); t++)
    {
      emit (&w, KYMO_TBAND_TASK_NAME, FALSE, 1, t + 1, 0, names[t]);
      emit (&w, KYMO_TBAND_TASK_PRIORITY_SET, TRUE, 2, t + 1, t, NULL);
    }
  emit (&w, KYMO_TBAND_TASK_IS_IDLE_TASK, FALSE, 2, 1, 0, NULL);
  emit (&w, KYMO_TBAND_QUEUE_NAME, FALSE, 1, 1, 0, "rx");
  emit (&w, KYMO_TBAND_QUEUE_NAME, FALSE, 1, 2, 0, "lock");
  emit (&w, KYMO_TBAND_QUEUE_KIND, FALSE, 2, 2, 3, NULL);
  emit (&w, KYMO_TBAND_ISR_NAME, FALSE, 1, 1, 0, "SysTick");
  emit (&w, KYMO_TBAND_EVTMARKER_NAME, FALSE, 1, 1, 0, "frame");
  emit (&w, KYMO_TBAND_VALMARKER_NAME, FALSE, 1, 1, 0, "load");

  while (w.out->len < TARGET_BYTES)
    {
      guint task = 1 + i % G_N_ELEMENTS (names);
      guint other = 1 + (i + 3) % G_N_ELEMENTS (names);

      emit (&w, KYMO_TBAND_TASK_SWITCHED_IN, TRUE, 1, task, 0, NULL);
      emit (&w, KYMO_TBAND_QUEUE_RECEIVE, TRUE, 2, 2, 0, NULL);
      emit (&w, KYMO_TBAND_QUEUE_SEND, TRUE, 2, 1, i % 8, NULL);
      emit (&w, KYMO_TBAND_TASK_TO_RDY_STATE, TRUE, 1, other, 0, NULL);
      emit (&w, KYMO_TBAND_ISR_ENTER, TRUE, 1, 1, 0, NULL);
      emit (&w, KYMO_TBAND_ISR_EXIT, TRUE, 1, 1, 0, NULL);
      emit (&w, KYMO_TBAND_QUEUE_SEND, TRUE, 2, 2, 1, NULL);
      if (i % 4 == 0)
        {
          emit (&w, KYMO_TBAND_EVTMARKER_BEGIN, TRUE, 1, 1, 0, "");
          emit (&w, KYMO_TBAND_VALMARKER, TRUE, 2, 1, (i % 100) << 1, NULL);
          emit (&w, KYMO_TBAND_EVTMARKER_END, TRUE, 1, 1, 0, NULL);
        }
      if (i % 3 == 0)
        emit (&w, KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_RECEIVE, TRUE, 2, 1, 100, NULL);
      else
        emit (&w, KYMO_TBAND_CURTASK_DELAY, TRUE, 1, 5, 0, NULL);
      if (i % 1000 == 0)
        emit (&w, KYMO_TBAND_DROPPED_EVT_CNT, TRUE, 1, i / 1000, 0, NULL);
      i++;
    }
  return w.out;
}

/* The decoder alone: COBS framing and event parsing, no model. */
static double
decode_seconds (const char *path,
                guint64    *n_events)
{
  g_autoptr(GMappedFile) file = g_mapped_file_new (path, FALSE, NULL);
  KymoTbandFramer framer;
  KymoTbandEvent event;
  const guint8 *payload;
  const char *reason;
  gsize offset, len;
  guint64 n = 0;
  gint64 t0;

  g_assert_nonnull (file);
  t0 = g_get_monotonic_time ();
  kymo_tband_framer_init (&framer, (const guint8 *) g_mapped_file_get_contents (file),
                          g_mapped_file_get_length (file));
  while (kymo_tband_framer_next (&framer, &offset, &payload, &len, &reason) != KYMO_TBAND_FRAME_END)
    n += kymo_tband_event_parse (payload, len, KYMO_TBAND_MODE_AUTO, &event, &reason);
  kymo_tband_framer_clear (&framer);
  *n_events = n;
  return (g_get_monotonic_time () - t0) / 1e6;
}

int
main (void)
{
  g_autoptr(GError) error = NULL;
  /* KYMO_BENCH_DIR keeps the generated stream there and reuses it;
   * KYMO_BENCH_RUNS sets the number of loads (for profiling). */
  const char *keep = g_getenv ("KYMO_BENCH_DIR");
  g_autofree char *dir = keep ? g_strdup (keep) : kymo_bench_scratch_dir ();
  guint runs = g_getenv ("KYMO_BENCH_RUNS") ? MAX (1, atoi (g_getenv ("KYMO_BENCH_RUNS"))) : RUNS;
  g_autofree double *times = g_new (double, runs);
  g_autofree double *user = g_new (double, runs);
  g_autofree double *sys = g_new (double, runs);
  g_autofree double *cpu = g_new (double, runs);
  g_autofree double *faults = g_new (double, runs);
  g_autofree char *path = NULL;
  g_autoptr(GByteArray) stream = NULL;
  double decode_times[RUNS], seconds, decode, cksum, mb;
  guint64 n_events = 0;
  guint64 spans = 0, instants = 0, samples = 0, annotations = 0;
  gsize heap_before, heap_after = 0;

  if (dir == NULL)
    {
      fprintf (stderr, "bench-tband: no scratch folder\n");
      return 1;
    }
  path = g_build_filename (dir, "stream.tband", NULL);
  if (keep)
    g_mkdir_with_parents (dir, 0755);
  if (!keep || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      stream = generate ();
      if (!g_file_set_contents (path, (const char *) stream->data, stream->len, &error))
        {
          fprintf (stderr, "bench-tband: %s\n", error->message);
          g_rmdir (dir);
          return 1;
        }
      g_clear_pointer (&stream, g_byte_array_unref);
    }
  {
    GStatBuf st;

    if (g_stat (path, &st) != 0)
      return 1;
    mb = st.st_size / 1e6;
  }

  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);
      g_autoptr(KymoTrace) trace = NULL;
      KymoLoadOptions options = { 0 };
      struct rusage r0, r1;
      gint64 t0;

      g_assert_no_error (error);
      heap_before = kymo_bench_heap_bytes ();
      getrusage (RUSAGE_SELF, &r0);
      t0 = g_get_monotonic_time ();
      trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
      times[r] = (g_get_monotonic_time () - t0) / 1e6;
      getrusage (RUSAGE_SELF, &r1);
      /* Every thread of the load: the wall time is only half the story on
       * a machine whose other processors are busy. */
      user[r] = (r1.ru_utime.tv_sec - r0.ru_utime.tv_sec) + (r1.ru_utime.tv_usec - r0.ru_utime.tv_usec) / 1e6;
      sys[r] = (r1.ru_stime.tv_sec - r0.ru_stime.tv_sec) + (r1.ru_stime.tv_usec - r0.ru_stime.tv_usec) / 1e6;
      /* On the shared VM the split between user and sys moves from one
       * series to the next while their sum holds: compare the sum. */
      cpu[r] = user[r] + sys[r];
      /* Pages faulted in or populated, by any thread: the model's arrays
       * are most of them, and each costs kernel time. */
      faults[r] = r1.ru_minflt - r0.ru_minflt;
      g_assert_no_error (error);
      g_assert_true (kymo_trace_get_format (trace) == kymo_formats_lookup ("tband"));
      heap_after = kymo_bench_heap_bytes () - heap_before;
      kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
    }
  seconds = kymo_bench_median (times, runs);
  for (guint r = 0; r < RUNS; r++)
    decode_times[r] = decode_seconds (path, &n_events);
  decode = kymo_bench_median (decode_times, RUNS);
  {
    const char *paths[] = { path };
    cksum = kymo_bench_cksum_seconds (paths, 1, RUNS);
  }

  printf ("tband: %.1f MB stream, %" G_GUINT64_FORMAT " events (%.1f bytes each), %" G_GUINT64_FORMAT " spans, %"
          G_GUINT64_FORMAT " instants, %" G_GUINT64_FORMAT " samples, model %.0f MB\n",
          mb, n_events, mb * 1e6 / MAX (n_events, 1), spans, instants, samples, heap_after / 1e6);
  printf ("tband: decode only (COBS + events) %.3f s = %.0f MB/s\n", decode, mb / decode);
  printf ("tband: load %.3f s = %.0f MB/s (target >= 400 MB/s); cksum %.3f s = %.0f MB/s; load/cksum %.2fx\n",
          seconds, mb / seconds, cksum, mb / cksum, seconds / cksum);
  printf ("tband: load CPU (all threads, median of %u) user %.3f s + sys %.3f s\n",
          runs, kymo_bench_median (user, runs), kymo_bench_median (sys, runs));
  printf ("tband: load CPU user + sys %.3f s (median of %u); minor page faults per load %.0f\n",
          kymo_bench_median (cpu, runs), runs, kymo_bench_median (faults, runs));

  if (!keep)
    {
      g_unlink (path);
      g_rmdir (dir);
    }
  return 0;
}
