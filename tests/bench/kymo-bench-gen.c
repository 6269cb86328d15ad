/* kymo-bench-gen.c: writes the inputs run-bench.sh times kymo-cli on
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 *   kymo-bench-gen atf PID_DIR THREADS EVENTS_PER_THREAD SYMBOLS(0|1) MAX_DEPTH [EXCEPTION_EVERY]
 *   kymo-bench-gen rtc FILE STREAMS MEGABYTES
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "kymo-test-atf-session.h"
#include "../rtc/kymo-rtc-test-writer.h"

/* A recorder of many channels: one delta clock at 100 kHz, and each tick a
 * 16-bit sample on every stream (gain and unit as a DAQ writes them), a
 * float64 on every fourth, until @bytes. Default Unit sizes. */
static gboolean
write_rtc (const char *path,
           guint       n_streams,
           gsize       bytes)
{
  RtcWriter w;
  guint clk, delta, streams[RTCW_MAX_STREAMS];
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  guint64 tick = 0;

  n_streams = CLAMP (n_streams, 1, RTCW_MAX_STREAMS - 16);
  rtcw_init (&w, 1 << 20, 1 << 17, FALSE);
  clk = rtcw_stream (&w, "\"name\":\"clk\",\"clock\":true,\"format\":\"timespec\"", -1);
  delta = rtcw_stream (&w, "\"name\":\"clk delta\",\"clock\":true,\"format\":\"uleb128\",\"gain\":1e-9,\"delta\":\"clk\"", -1);
  for (guint s = 0; s < n_streams; s++)
    {
      g_autofree char *json = s % 4 == 3
        ? g_strdup_printf ("\"name\":\"channel %u\",\"clock\":\"clk delta\",\"format\":\"float64le\"", s)
        : g_strdup_printf ("\"name\":\"channel %u\",\"clock\":\"clk delta\",\"format\":\"int16le\",\"gain\":0.001,\"unit\":\"V\"", s);
      streams[s] = rtcw_stream (&w, json, s % 4 == 3 ? 8 : 2);
    }
  rtcw_start (&w);
  while (rtcw_pos (&w) < bytes)
    {
      /* The time since the last full timestamp, uleb128. */
      guint64 since = (tick % 100000) * 10000;
      guint8 d[10];
      gsize n = 0;

      if (tick % 100000 == 0)
        {
          guint64 sec = GUINT64_TO_LE (1767225600 + tick / 100000);
          guint32 nsec = 0;

          rtcw_write (&w, clk, &sec, 8, TRUE);
          rtcw_write (&w, clk, &nsec, 4, FALSE);
        }
      do
        {
          d[n] = since & 0x7F;
          since >>= 7;
          if (since)
            d[n] |= 0x80;
          n++;
        }
      while (since);
      rtcw_write (&w, delta, d, n, FALSE);
      for (guint s = 0; s < n_streams; s++)
        {
          if (s % 4 == 3)
            {
              double v = (double) ((tick + s) % 1000) / 10.0;
              rtcw_write (&w, streams[s], &v, 8, FALSE);
            }
          else
            {
              gint16 v = GINT16_TO_LE ((gint16) ((tick * (s + 3)) % 20000 - 10000));
              rtcw_write (&w, streams[s], &v, 2, FALSE);
            }
        }
      tick++;
    }
  rtcw_stop (&w);
  out = rtcw_free_to_bytes (&w);
  if (!g_file_set_contents (path, g_bytes_get_data (out, NULL), (gssize) g_bytes_get_size (out), &error))
    {
      fprintf (stderr, "kymo-bench-gen: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  if (argc >= 7 && g_str_equal (argv[1], "atf"))
    {
      KymoTestAtfShape shape = {
        .n_threads = (guint) atoi (argv[3]),
        .events_per_thread = (guint) atoi (argv[4]),
        .symbols = atoi (argv[5]) != 0,
        .max_depth = (guint) atoi (argv[6]),
        .n_functions = 2000,
        .exception_every = argc >= 8 ? (guint) atoi (argv[7]) : 0,
      };

      kymo_test_write_atf_session (argv[2], &shape);
      return 0;
    }
  if (argc >= 5 && g_str_equal (argv[1], "rtc"))
    return write_rtc (argv[2], (guint) atoi (argv[3]), (gsize) atoi (argv[4]) << 20) ? 0 : 1;
  fprintf (stderr, "usage: kymo-bench-gen atf PID_DIR THREADS EVENTS_PER_THREAD SYMBOLS MAX_DEPTH [EXCEPTION_EVERY]\n"
                   "       kymo-bench-gen rtc FILE STREAMS MEGABYTES\n");
  return 2;
}
