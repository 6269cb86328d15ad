/* bench-wtf.c: loading a large chunked .wtf-trace, beside `cksum` of the
 * same file
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <time.h>
#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-bench.h"
#include "../wtf/wtf-writer.h"

#define TARGET_BYTES (210u * 1024 * 1024)
#define N_THREADS    4
#define RUNS         3

enum { W_ZONE_CREATE = 2, W_ZONE_SET, W_LEAVE, W_ENTER, W_FRAME, W_WORK, W_TICK, W_APPEND };

/* Shaped like the C++ bindings' output: a meta chunk of defines and zones,
 * then per-thread chunks of ~1 MiB whose times interleave. */
static GBytes *
generate (guint64 *n_events)
{
  WwWriter *w = ww_new (WW_CHUNKED, "{\"contextType\":\"script\",\"title\":\"bench\"}", "{}", 0);
  guint32 time[N_THREADS] = { 0 };
  guint frame = 0;

  ww_define (w, 0, W_ZONE_CREATE, 0, 0x28, "wtf.zone#create",
             "uint16 zoneId, ascii name, ascii type, ascii location");
  ww_define (w, 0, W_ZONE_SET, 0, 0x28, "wtf.zone#set", "uint16 zoneId");
  ww_define (w, 0, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  ww_define (w, 0, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
  ww_define (w, 0, W_FRAME, 1, 0, "Example#Frame", "uint32 n");
  ww_define (w, 0, W_WORK, 1, 0, "Example#Work", "int32 depth, int32 i");
  ww_define (w, 0, W_TICK, 0, 0, "Example#Tick", "int32 i, float32 ratio, bool even, ascii label");
  ww_define (w, 0, W_APPEND, 0, 0x18, "__wtf_append_scope_20", "ascii frameName");
  for (guint t = 0; t < N_THREADS; t++)
    {
      g_autofree char *name = g_strdup_printf ("%u:Worker%c", t, 'A' + t);
      ww_event (w, W_ZONE_CREATE, 0);
      ww_int (w, WW_UINT16, t + 1);
      ww_string (w, WW_ASCII, name);
      ww_string (w, WW_ASCII, NULL);
      ww_string (w, WW_ASCII, "bench.cc");
    }
  ww_flush_chunk (w, FALSE);

  while (w->file->len < TARGET_BYTES)
    for (guint t = 0; t < N_THREADS; t++)
      {
        ww_event (w, W_ZONE_SET, time[t]);
        ww_int (w, WW_UINT16, t + 1);
        while (w->events->len < 1024 * 1024)
          {
            ww_event (w, W_FRAME, time[t]++);
            ww_int (w, WW_UINT32, frame++);
            ww_event (w, W_APPEND, time[t]);
            ww_string (w, WW_ASCII, "frame");
            for (gint i = 0; i < 4; i++)
              {
                ww_event (w, W_WORK, time[t]++);
                ww_int (w, WW_INT32, 1);
                ww_int (w, WW_INT32, i);
                ww_event (w, W_ENTER, time[t]++);
                ww_string (w, WW_ASCII, i % 2 ? "inner-odd" : "inner-even");
                ww_event (w, W_TICK, time[t]++);
                ww_int (w, WW_INT32, i);
                ww_float (w, i / 4.0f);
                ww_int (w, WW_BOOL, i % 2 == 0);
                ww_string (w, WW_ASCII, "tick");
                ww_event (w, W_LEAVE, time[t]++);
                ww_event (w, W_LEAVE, time[t]++);
              }
            ww_event (w, W_LEAVE, time[t]++);
          }
        ww_flush_chunk (w, FALSE);
      }
  *n_events = w->n_events;
  return ww_finish (w);
}

int
main (void)
{
  g_autofree char *dir = kymo_bench_scratch_dir ();
  g_autofree char *path = NULL;
  g_autoptr(GBytes) bytes = NULL;
  double times[RUNS], cpu[RUNS], cksum_s, load_s, cpu_s, mb;
  guint64 n_events = 0, spans = 0, instants = 0;

  if (dir == NULL)
    {
      fprintf (stderr, "bench-wtf: no scratch folder\n");
      return 1;
    }
  path = g_build_filename (dir, "bench.wtf-trace", NULL);
  bytes = generate (&n_events);
  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL))
    {
      fprintf (stderr, "bench-wtf: cannot write %s\n", path);
      return 1;
    }
  mb = g_bytes_get_size (bytes) / 1e6;
  g_clear_pointer (&bytes, g_bytes_unref);

  for (guint r = 0; r < RUNS; r++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);
      g_autoptr(KymoTrace) trace = NULL;
      gint64 t0 = g_get_monotonic_time ();
      struct timespec c0, c1;

      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &c0);

      if (input)
        trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
      times[r] = (g_get_monotonic_time () - t0) / 1e6;
      /* CPU time too: the machines are shared, so wall time is noisy. */
      clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &c1);
      cpu[r] = (c1.tv_sec - c0.tv_sec) + (c1.tv_nsec - c0.tv_nsec) / 1e9;
      if (trace == NULL || kymo_trace_get_stop_error (trace))
        {
          fprintf (stderr, "bench-wtf: %s\n", error ? error->message : kymo_trace_get_stop_error (trace)->message);
          return 1;
        }
      {
        guint64 samples, annotations;
        kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
      }
    }
  load_s = kymo_bench_median (times, RUNS);
  cpu_s = kymo_bench_median (cpu, RUNS);
  {
    const char *paths[] = { path };
    cksum_s = kymo_bench_cksum_seconds (paths, 1, RUNS);
  }

  printf ("wtf chunked: %.1f MB, %" G_GUINT64_FORMAT " events (%" G_GUINT64_FORMAT " spans, %"
          G_GUINT64_FORMAT " instants)\n", mb, n_events, spans, instants);
  printf ("load (decode + seal): %.3f s = %.0f MB/s; cksum: %.3f s = %.0f MB/s; ratio %.2f\n",
          load_s, mb / load_s, cksum_s, mb / cksum_s, load_s / cksum_s);
  printf ("load CPU time: %.3f s = %.0f MB/s\n", cpu_s, mb / cpu_s);

  g_unlink (path);
  g_rmdir (dir);
  return 0;
}
