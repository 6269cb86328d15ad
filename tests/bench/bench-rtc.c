/* bench-rtc.c: load a generated 200+ MB RTC file, beside `cksum` of it
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-bench.h"
#include "../rtc/kymo-rtc-test-writer.h"

#define TARGET_BYTES (210u << 20)
#define RUNS 3

/* The mix of the reference writer's own example recordings (the samples'
 * default.rtc), scaled up: at 1 kHz a delta clock tick and a 16-bit sample
 * with a gain; a temperature every 10 ticks, an event line every 250, a
 * stdout line every 400, a full timestamp every 1000, a 3000-byte raw blob
 * every 7500 and an annotation every 20000. Default Unit sizes. */
static GBytes *
generate (void)
{
  RtcWriter w;
  guint clk, delta, sample, temp, event, out, blob, remarks;
  guint8 record[3000];
  guint64 tick = 0;

  for (guint i = 0; i < sizeof record; i++)
    record[i] = (guint8) (i * 7);
  rtcw_init (&w, 1 << 20, 1 << 17, FALSE);
  clk = rtcw_stream (&w, "\"name\":\"clk\",\"clock\":true,\"format\":\"timespec\"", -1);
  delta = rtcw_stream (&w, "\"name\":\"clk delta\",\"clock\":true,\"format\":\"uleb128\",\"gain\":1e-9,\"delta\":\"clk\"", -1);
  sample = rtcw_stream (&w, "\"name\":\"sample\",\"clock\":\"clk delta\",\"format\":\"int16le\",\"gain\":0.001,\"unit\":\"V\"", 2);
  temp = rtcw_stream (&w, "\"name\":\"temperature\",\"clock\":\"clk delta\",\"format\":\"float64le\"", 8);
  event = rtcw_stream (&w, "\"name\":\"event\",\"clock\":\"clk delta\",\"format\":\"utf-8\"", -1);
  out = rtcw_stream (&w, "\"name\":\"stdout\",\"cont\":true,\"clock\":\"clk delta\",\"format\":\"utf-8\"", -1);
  blob = rtcw_stream (&w, "\"name\":\"blob\",\"clock\":\"clk delta\",\"format\":\"raw\"", -1);
  remarks = rtcw_stream (&w, "\"name\":\"remarks\",\"stream\":\"event\",\"format\":\"annotate/utf-8\"", -1);
  rtcw_start (&w);

  while (rtcw_pos (&w) < TARGET_BYTES)
    {
      guint8 buf[16];
      gsize n = 0;
      guint64 d = (tick % 1000) * 1000000;
      gint16 v = GINT16_TO_LE ((gint16) ((tick * 31) % 20000 - 10000));

      if (tick % 1000 == 0)
        {
          guint64 sec = GUINT64_TO_LE (1767225600 + tick / 1000);
          guint32 nsec = 0;

          rtcw_write (&w, clk, &sec, 8, TRUE);
          rtcw_write (&w, clk, &nsec, 4, FALSE);
        }
      do
        {
          buf[n] = d & 0x7F;
          d >>= 7;
          if (d)
            buf[n] |= 0x80;
          n++;
        }
      while (d);
      rtcw_write (&w, delta, buf, n, FALSE);
      rtcw_write (&w, sample, &v, 2, FALSE);
      if (tick % 10 == 0)
        {
          double t = 20.0 + (double) (tick % 50) / 10.0;
          rtcw_write (&w, temp, &t, 8, FALSE);
        }
      if (tick % 250 == 0)
        {
          g_autofree char *line = g_strdup_printf ("event %" G_GUINT64_FORMAT, tick);
          rtcw_write (&w, event, line, strlen (line), FALSE);
        }
      if (tick % 400 == 0)
        {
          g_autofree char *line = g_strdup_printf ("log line %" G_GUINT64_FORMAT "\n", tick);
          rtcw_write (&w, out, line, strlen (line), FALSE);
        }
      if (tick % 7500 == 0)
        rtcw_write (&w, blob, record, sizeof record, FALSE);
      if (tick % 20000 == 10000)
        {
          guint8 note[12 + 32];
          guint64 sec = GUINT64_TO_LE (1767225600 + tick / 1000 - 1);
          guint32 nsec = 0;
          gsize len = 12 + (gsize) g_snprintf ((char *) note + 12, 32, "remark at %" G_GUINT64_FORMAT, tick);

          memcpy (note, &sec, 8);
          memcpy (note + 8, &nsec, 4);
          rtcw_write (&w, remarks, note, len, FALSE);
        }
      tick++;
    }
  rtcw_stop (&w);
  return rtcw_free_to_bytes (&w);
}

/* CPU seconds of this process: the machine may be busy with other work. */
static double
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
         usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

int
main (void)
{
  /* KYMO_BENCH_DIR keeps the generated file there and reuses it;
   * KYMO_BENCH_RUNS sets the number of loads (for medians and profiling). */
  const char *keep = g_getenv ("KYMO_BENCH_DIR");
  g_autofree char *dir = keep ? g_strdup (keep) : kymo_bench_scratch_dir ();
  guint runs = g_getenv ("KYMO_BENCH_RUNS") ? MAX (1, atoi (g_getenv ("KYMO_BENCH_RUNS"))) : RUNS;
  g_autofree double *times = g_new (double, runs);
  g_autofree double *cpu = g_new (double, runs);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  double cksum, mb;
  guint64 spans = 0, instants = 0, samples = 0, annotations = 0;
  gsize size;

  if (dir == NULL)
    {
      fprintf (stderr, "bench-rtc: no scratch folder\n");
      return 1;
    }
  path = g_build_filename (dir, "bench.rtc", NULL);
  if (keep)
    g_mkdir_with_parents (dir, 0755);
  if (!keep || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autoptr(GBytes) bytes = generate ();
      const guint8 *data = g_bytes_get_data (bytes, &size);

      if (!g_file_set_contents (path, (const char *) data, (gssize) size, &error))
        {
          fprintf (stderr, "bench-rtc: %s\n", error->message);
          if (!keep)
            g_rmdir (dir);
          return 1;
        }
    }
  {
    GStatBuf st;

    if (g_stat (path, &st) != 0)
      {
        fprintf (stderr, "bench-rtc: %s is gone\n", path);
        return 1;
      }
    size = (gsize) st.st_size;
  }
  mb = size / 1e6;

  /* KYMO_BENCH_RTC_KEEP=PATH keeps a copy of the file for profiling the
   * load alone (perf, kymo-cli) without the generator in the picture. */
  if (g_getenv ("KYMO_BENCH_RTC_KEEP") != NULL)
    {
      g_autofree char *contents = NULL;
      gsize len;

      if (!g_file_get_contents (path, &contents, &len, &error) ||
          !g_file_set_contents (g_getenv ("KYMO_BENCH_RTC_KEEP"), contents, (gssize) len, &error))
        {
          fprintf (stderr, "bench-rtc: %s\n", error->message);
          if (!keep)
            {
              g_unlink (path);
              g_rmdir (dir);
            }
          return 1;
        }
    }

  for (guint r = 0; r < runs; r++)
    {
      g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);
      g_autoptr(KymoTrace) trace = NULL;
      gint64 t0 = g_get_monotonic_time ();
      double c0 = cpu_seconds ();

      if (input != NULL)
        trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
      times[r] = (g_get_monotonic_time () - t0) / 1e6;
      cpu[r] = cpu_seconds () - c0;
      if (trace == NULL || kymo_trace_get_stop_error (trace) != NULL)
        {
          fprintf (stderr, "bench-rtc: %s\n", error ? error->message : "stopped at damage");
          if (!keep)
            {
              g_unlink (path);
              g_rmdir (dir);
            }
          return 1;
        }
      kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
    }
  {
    const char *paths[] = { path };
    cksum = kymo_bench_cksum_seconds (paths, 1, runs);
  }
  if (!keep)
    {
      g_unlink (path);
      g_rmdir (dir);
    }

  {
    double load = kymo_bench_median (times, runs);
    double load_cpu = kymo_bench_median (cpu, runs);

    printf ("rtc: %.1f MB generated: %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT
            " instants, %" G_GUINT64_FORMAT " annotations\n", mb, samples, instants, annotations);
    printf ("rtc: load %.3f s = %.0f MB/s; cksum %.3f s = %.0f MB/s (load is %.2f× cksum's time)\n",
            load, mb / load, cksum, mb / cksum, load / cksum);
    printf ("rtc: load CPU time %.3f s = %.0f MB/s of CPU (wall time includes waiting on a busy machine)\n",
            load_cpu, mb / load_cpu);
    printf ("rtc: target 400 MB/s: %s\n", mb / load >= 400 ? "met" : "NOT met");
  }
  return 0;
}
