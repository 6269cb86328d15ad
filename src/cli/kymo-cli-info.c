/* kymo-cli-info.c: `kymo-cli info`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-cli"

#include "config.h"

#include <stdio.h>

#include "kymo-cli-private.h"

typedef struct {
  guint64 spans;
  guint64 instants;
  guint64 samples;
  guint64 annotations;
} Counts;

static void
track_counts (KymoTrack *track,
              Counts    *counts)
{
  gsize n;

  kymo_track_get_spans (track, &n);
  counts->spans = n;
  kymo_track_get_instants (track, &n);
  counts->instants = n;
  kymo_track_get_samples (track, &n);
  counts->samples = n;
  kymo_track_get_annotations (track, &n);
  counts->annotations = n;
}

/* Depth-first in display order, the way the app lists tracks. */
static void
collect_tracks (KymoTrace   *trace,
                const guint *ids,
                guint        n_ids,
                GArray      *out)
{
  for (guint i = 0; i < n_ids; i++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, ids[i]);
      const guint *children;
      guint n_children;

      g_array_append_val (out, ids[i]);
      children = kymo_track_get_children (track, &n_children);
      collect_tracks (trace, children, n_children, out);
    }
}

static GArray *
ordered_tracks (KymoTrace *trace)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));
  const guint *roots;
  guint n_roots;

  roots = kymo_trace_get_root_tracks (trace, &n_roots);
  collect_tracks (trace, roots, n_roots, ids);
  return ids;
}

static guint
track_depth (KymoTrace *trace,
             KymoTrack *track)
{
  guint depth = 0;

  while (kymo_track_get_parent (track) != KYMO_NO_TRACK)
    {
      track = kymo_trace_get_track (trace, kymo_track_get_parent (track));
      depth++;
    }
  return depth;
}

static void
print_json (KymoTrace *trace)
{
  g_autoptr(KymoJsonWriter) w = kymo_json_writer_new (stdout);
  g_autoptr(GArray) ids = ordered_tracks (trace);
  const KymoFormat *format = kymo_trace_get_format (trace);
  gsize n_flows;
  guint64 spans, instants, samples, annotations;
  KymoTime start, end;

  kymo_trace_get_time_range (trace, &start, &end);
  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  kymo_trace_get_flows (trace, &n_flows);

  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "format");
  kymo_json_writer_string (w, format->name, -1);
  kymo_json_writer_key (w, "variant");
  kymo_json_writer_string (w, kymo_trace_get_variant (trace), -1);
  kymo_json_writer_key (w, "start_ns");
  if (start == KYMO_TIME_NONE) kymo_json_writer_null (w); else kymo_json_writer_int (w, start);
  kymo_json_writer_key (w, "end_ns");
  if (end == KYMO_TIME_NONE) kymo_json_writer_null (w); else kymo_json_writer_int (w, end);

  kymo_json_writer_key (w, "tracks");
  kymo_json_writer_begin_array (w);
  for (guint i = 0; i < ids->len; i++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, g_array_index (ids, guint, i));
      Counts c;

      track_counts (track, &c);
      kymo_json_writer_begin_object (w);
      kymo_json_writer_key (w, "id");
      kymo_json_writer_uint (w, kymo_track_get_id (track));
      kymo_json_writer_key (w, "name");
      kymo_json_writer_string (w, kymo_track_get_name (track), -1);
      kymo_json_writer_key (w, "kind");
      kymo_json_writer_string (w, kymo_track_kind_to_string (kymo_track_get_kind (track)), -1);
      if (kymo_track_get_group_kind (track))
        {
          kymo_json_writer_key (w, "group");
          kymo_json_writer_string (w, kymo_track_get_group_kind (track), -1);
        }
      kymo_json_writer_key (w, "parent");
      if (kymo_track_get_parent (track) == KYMO_NO_TRACK)
        kymo_json_writer_null (w);
      else
        kymo_json_writer_uint (w, kymo_track_get_parent (track));
      kymo_json_writer_key (w, "spans");
      kymo_json_writer_uint (w, c.spans);
      kymo_json_writer_key (w, "instants");
      kymo_json_writer_uint (w, c.instants);
      kymo_json_writer_key (w, "samples");
      kymo_json_writer_uint (w, c.samples);
      kymo_json_writer_key (w, "annotations");
      kymo_json_writer_uint (w, c.annotations);
      kymo_json_writer_end_object (w);
    }
  kymo_json_writer_end_array (w);

  kymo_json_writer_key (w, "spans");
  kymo_json_writer_uint (w, spans);
  kymo_json_writer_key (w, "instants");
  kymo_json_writer_uint (w, instants);
  kymo_json_writer_key (w, "samples");
  kymo_json_writer_uint (w, samples);
  kymo_json_writer_key (w, "annotations");
  kymo_json_writer_uint (w, annotations);
  kymo_json_writer_key (w, "flows");
  kymo_json_writer_uint (w, n_flows);

  kymo_json_writer_key (w, "metadata");
  kymo_trace_json_metadata (w, trace);

  kymo_json_writer_key (w, "warnings");
  kymo_trace_json_warnings (w, trace);
  kymo_json_writer_end_object (w);
  kymo_json_writer_end_line (w);
}

static void
print_text (KymoTrace *trace)
{
  g_autoptr(GArray) ids = ordered_tracks (trace);
  const KymoFormat *format = kymo_trace_get_format (trace);
  const KymoWarning *warnings;
  gsize n_warnings, n_flows;
  guint64 spans, instants, samples, annotations;
  KymoTime start, end;

  kymo_trace_get_time_range (trace, &start, &end);
  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  kymo_trace_get_flows (trace, &n_flows);

  printf ("File:        %s\n", kymo_input_get_path (kymo_trace_get_input (trace)));
  printf ("Format:      %s%s%s%s\n", format->name,
          kymo_trace_get_variant (trace) ? " (" : "",
          kymo_trace_get_variant (trace) ? kymo_trace_get_variant (trace) : "",
          kymo_trace_get_variant (trace) ? ")" : "");
  if (start != KYMO_TIME_NONE)
    printf ("Time range:  %" G_GINT64_FORMAT " – %" G_GINT64_FORMAT " ns (%.6f s)\n",
            start, end, (end - start) / 1e9);
  printf ("Events:      %" G_GUINT64_FORMAT " spans, %" G_GUINT64_FORMAT " instants, %"
          G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " annotations, %" G_GSIZE_FORMAT " flows\n",
          spans, instants, samples, annotations, n_flows);

  for (guint i = 0; i < kymo_trace_get_n_metadata (trace); i++)
    {
      const char *key, *value;
      kymo_trace_get_nth_metadata (trace, i, &key, &value);
      printf ("%s: %s\n", key, value);
    }

  printf ("Tracks:\n");
  for (guint i = 0; i < ids->len; i++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, g_array_index (ids, guint, i));
      guint depth = track_depth (trace, track);
      Counts c;

      track_counts (track, &c);
      printf ("  %*s%s [%s]", depth * 2, "", kymo_track_get_name (track),
              kymo_track_get_group_kind (track) ? kymo_track_get_group_kind (track)
                                                : kymo_track_kind_to_string (kymo_track_get_kind (track)));
      if (c.spans) printf (" %" G_GUINT64_FORMAT " spans", c.spans);
      if (c.instants) printf (" %" G_GUINT64_FORMAT " instants", c.instants);
      if (c.samples) printf (" %" G_GUINT64_FORMAT " samples", c.samples);
      if (c.annotations) printf (" %" G_GUINT64_FORMAT " annotations", c.annotations);
      printf ("\n");
    }

  warnings = kymo_trace_get_warnings (trace, &n_warnings);
  if (n_warnings)
    {
      printf ("Warnings:\n");
      for (gsize i = 0; i < n_warnings; i++)
        printf ("  %s\n", warnings[i].message);
    }
}

int
kymo_cli_info (const KymoCliOptions  *options,
               char                 **paths)
{
  g_autoptr(KymoTrace) trace = NULL;
  int status;

  trace = kymo_cli_load (options, paths, &status);
  if (trace == NULL)
    return status;

  if (options->json)
    print_json (trace);
  else
    print_text (trace);
  return status;
}
