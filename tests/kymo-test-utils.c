/* kymo-test-utils.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <sys/wait.h>

#include <string.h>

#include <glib/gstdio.h>

#include "kymo-test-utils.h"

char *
kymo_test_sample_path (const char *relative)
{
  const char *dir = g_getenv ("KYMO_SAMPLES_DIR");
  g_autofree char *path = NULL;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("../shared/samples is not here: sample tests skipped");
      return NULL;
    }
  path = g_build_filename (dir, relative, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("sample %s is missing: skipped", relative);
      g_test_skip (msg);
      return NULL;
    }
  return g_steal_pointer (&path);
}

void
kymo_test_collect_samples (const char *dir,
                           GPtrArray  *out)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autofree char *manifest = g_build_filename (dir, "manifest.json", NULL);
  const char *name;

  if (d == NULL)
    return;
  if (g_file_test (manifest, G_FILE_TEST_EXISTS))
    {
      /* A pid folder: its session is the folder above. */
      g_autofree char *session = g_path_get_dirname (dir);

      if (!g_ptr_array_find_with_equal_func (out, session, g_str_equal, NULL))
        g_ptr_array_add (out, g_steal_pointer (&session));
      return;
    }
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        kymo_test_collect_samples (path, out);
      else if (!g_str_has_suffix (name, ".md"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

void
kymo_test_for_each_sample (KymoTestSampleFunc check)
{
  g_autofree char *root = kymo_test_sample_path (".");
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  if (root == NULL)
    return;
  kymo_test_collect_samples (root, paths);
  g_assert_cmpuint (paths->len, >, 0);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);

      g_assert_no_error (error);
      check (input, path);
    }
}

void
kymo_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      kymo_test_remove_tree (child);
    }
  g_remove (path);
}

static guint test_threads;

void
kymo_test_set_threads (guint threads)
{
  test_threads = threads;
}

KymoTrace *
kymo_test_load_bytes (const guint8  *data,
                      gsize          size,
                      const char    *format,
                      GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "test-input");
  KymoLoadOptions options = { .format = format, .threads = test_threads };

  return kymo_load_sync (input, &options, NULL, NULL, NULL, error);
}

KymoTrace *
kymo_test_load_path (const char  *path,
                     const char  *format,
                     GError     **error)
{
  g_autoptr(KymoInput) input = kymo_input_new_for_path (path, error);
  KymoLoadOptions options = { .format = format, .threads = test_threads };

  if (input == NULL)
    return NULL;
  return kymo_load_sync (input, &options, NULL, NULL, NULL, error);
}

KymoTrack *
kymo_test_find_track (KymoTrace  *trace,
                      const char *name)
{
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    if (g_strcmp0 (kymo_track_get_name (kymo_trace_get_track (trace, i)), name) == 0)
      return kymo_trace_get_track (trace, i);
  return NULL;
}

char *
kymo_test_dump_bytes (const guint8  *data,
                      gsize          size,
                      const char    *format,
                      gboolean      *ok,
                      GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "test-input");
  g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);
  KymoLoadOptions options = { .format = format, .threads = test_threads };

  *ok = kymo_dump_sync (input, &options, writer, error);
  return g_strdup (kymo_json_writer_get_string (writer));
}

guint
kymo_test_every_prefix (const guint8 *data,
                        gsize         size,
                        const char   *format,
                        gsize         step)
{
  guint clean = 0;

  for (gsize len = 0; len <= size; len += MAX (step, 1))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = kymo_test_load_bytes (data, len, format, &error);
      g_autofree char *dump = NULL;
      gboolean ok;

      if (trace != NULL && kymo_trace_get_stop_error (trace) == NULL)
        clean++;
      g_clear_error (&error);
      dump = kymo_test_dump_bytes (data, len, format, &ok, &error);
    }
  return clean;
}

static void
sum_bytes (GChecksum  *sum,
           const void *data,
           gsize       len)
{
  g_checksum_update (sum, data, (gssize) len);
}

static void
sum_string (GChecksum  *sum,
            const char *text)
{
  text = text != NULL ? text : "(null)";
  /* With its end: "ab" "c" and "a" "bc" differ. */
  sum_bytes (sum, text, strlen (text) + 1);
}

char *
kymo_test_fingerprint (KymoTrace    *trace,
                       const GError *error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  const KymoWarning *warnings;
  const KymoFlow *flows;
  KymoTime range[2];
  gsize n;

  g_string_append_printf (out, "error: %s\n", error != NULL ? error->message : "none");
  if (trace == NULL)
    return g_string_free (g_steal_pointer (&out), FALSE);

  for (guint i = 0; i < kymo_trace_get_n_metadata (trace); i++)
    {
      const char *key, *value;

      kymo_trace_get_nth_metadata (trace, i, &key, &value);
      g_string_append_printf (out, "%s: %s\n", key, value);
    }
  warnings = kymo_trace_get_warnings (trace, &n);
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (out, "warning at %" G_GUINT64_FORMAT ": %s\n", warnings[i].offset, warnings[i].message);

  /* The events go into a digest: a trace holds millions. Names by text,
   * as they are shown, and every field of every event. */
  kymo_trace_get_time_range (trace, &range[0], &range[1]);
  sum_bytes (sum, range, sizeof range);
  for (guint i = 0; i < kymo_trace_get_n_names (trace); i++)
    sum_string (sum, kymo_trace_get_name (trace, i));
  flows = kymo_trace_get_flows (trace, &n);
  for (gsize i = 0; i < n; i++)
    {
      guint64 f[6] = { flows[i].from_track, flows[i].to_track, (guint64) flows[i].from_ts,
                       (guint64) flows[i].to_ts, flows[i].name, flows[i].source };
      sum_bytes (sum, f, sizeof f);
    }
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      const KymoSpan *spans = kymo_track_get_spans (track, &n);
      const KymoInstant *instants;
      const KymoSample *samples;
      const KymoAnnotation *annotations;
      gint64 head[4] = { kymo_track_get_parent (track), kymo_track_get_kind (track),
                         kymo_track_get_sort_key (track), (gint64) kymo_track_get_tag (track) };

      g_string_append_printf (out, "track %u: %s, %" G_GSIZE_FORMAT " spans\n", t, kymo_track_get_name (track), n);
      sum_bytes (sum, head, sizeof head);
      for (gsize i = 0; i < n; i++)
        {
          guint depth = kymo_track_get_span_depth (track, i);

          sum_bytes (sum, &spans[i], sizeof spans[i]);
          sum_bytes (sum, &depth, sizeof depth);
        }
      instants = kymo_track_get_instants (track, &n);
      for (gsize i = 0; i < n; i++)
        {
          guint64 v[3] = { (guint64) instants[i].ts, instants[i].name_flags, instants[i].source };
          sum_bytes (sum, v, sizeof v);
        }
      samples = kymo_track_get_samples (track, &n);
      for (gsize i = 0; i < n; i++)
        sum_bytes (sum, &samples[i], sizeof samples[i]);
      annotations = kymo_track_get_annotations (track, &n);
      for (gsize i = 0; i < n; i++)
        {
          guint64 v[4] = { (guint64) annotations[i].start, (guint64) annotations[i].end,
                           annotations[i].name, annotations[i].source };
          sum_bytes (sum, v, sizeof v);
          sum_string (sum, annotations[i].text);
        }
    }
  g_string_append_printf (out, "events: %s\n", g_checksum_get_string (sum));
  return g_string_free (g_steal_pointer (&out), FALSE);
}

int
kymo_test_run_cli (const char * const *args,
                   char              **out,
                   char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  const char *cli = g_getenv ("KYMO_CLI");
  int wait_status = 0;

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (gpointer) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                out, err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  return WEXITSTATUS (wait_status);
}
