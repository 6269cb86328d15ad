/* kymo-trace-json.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-trace-json"

#include "config.h"

#include "kymo-trace-json.h"

void
kymo_trace_json_metadata (KymoJsonWriter *w,
                          KymoTrace      *trace)
{
  kymo_json_writer_begin_object (w);
  for (guint i = 0; i < kymo_trace_get_n_metadata (trace); i++)
    {
      const char *key, *value;

      kymo_trace_get_nth_metadata (trace, i, &key, &value);
      kymo_json_writer_key (w, key);
      kymo_json_writer_string (w, value, -1);
    }
  kymo_json_writer_end_object (w);
}

void
kymo_trace_json_warnings (KymoJsonWriter *w,
                          KymoTrace      *trace)
{
  const KymoWarning *warnings;
  gsize n_warnings;

  kymo_json_writer_begin_array (w);
  warnings = kymo_trace_get_warnings (trace, &n_warnings);
  for (gsize i = 0; i < n_warnings; i++)
    kymo_json_writer_string (w, warnings[i].message, -1);
  kymo_json_writer_end_array (w);
}
