/* kymo-fuzz.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include "kymo.h"
#include "kymo-fuzz.h"

void
kymo_fuzz_run (const char    *format,
               const uint8_t *data,
               size_t         size)
{
  kymo_fuzz_run_threads (format, 0, data, size);
}

void
kymo_fuzz_run_threads (const char    *format,
                       unsigned       threads,
                       const uint8_t *data,
                       size_t         size)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "fuzz");
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoJsonWriter) writer = NULL;
  g_autoptr(GError) error = NULL;
  KymoLoadOptions options = { .format = format, .threads = threads };

  trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
  g_clear_error (&error);
  if (trace != NULL)
    {
      /* Reading the model back must be safe too. */
      for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
        {
          KymoTrack *track = kymo_trace_get_track (trace, t);
          gsize n;
          kymo_track_get_spans (track, &n);
          for (gsize i = 0; i < MIN (n, 64); i++)
            {
              KymoEventRef ref = { t, KYMO_EVENT_KIND_SPAN, (guint) i }, to;
              JsonObject *args = kymo_trace_describe_event (trace, &ref);
              if (args)
                json_object_unref (args);
              kymo_trace_follow_link (trace, &ref, &to);
            }
        }
      kymo_fuzz_analyse (trace);
    }

  writer = kymo_json_writer_new (NULL);
  kymo_dump_sync (input, &options, writer, &error);
}
