/* test-threads-same.c: every load gives the same whatever its threads
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each format splits its input at its own boundaries when it may use more
 * than one thread; what the user is shown (and what dump writes) must not
 * depend on it. Every sample, and larger inputs made by repeating them
 * (several segments, Units or frames per thread), is loaded and dumped at
 * 1, 2 and 7 threads. An explicit count lifts the decoders' size floors, so
 * even small inputs take the parallel paths.
 */
#include "config.h"

#include "kymo-test-utils.h"

static const guint thread_counts[] = { 2, 7 };

typedef struct {
  char *fingerprint;
  char *dump;
  gboolean dump_ok;
} Result;

static void
result_clear (Result *r)
{
  g_free (r->fingerprint);
  g_free (r->dump);
}

static void
load_with (KymoInput *input,
           guint      threads,
           Result    *r)
{
  KymoLoadOptions options = { .threads = threads };
  g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) dump_error = NULL;

  g_autofree char *fingerprint = NULL;

  trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
  fingerprint = kymo_test_fingerprint (trace, error != NULL ? error
                                              : trace != NULL ? kymo_trace_get_stop_error (trace) : NULL);
  /* Kept as digests: a sample's export runs to hundreds of megabytes. */
  r->fingerprint = g_compute_checksum_for_string (G_CHECKSUM_SHA256, fingerprint, -1);
  r->dump_ok = kymo_dump_sync (input, &options, writer, &dump_error);
  {
    g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
    const char *dumped = kymo_json_writer_get_string (writer);
    const char *message = dump_error != NULL ? dump_error->message : "";

    g_checksum_update (sum, (const guchar *) dumped, (gssize) strlen (dumped));
    g_checksum_update (sum, (const guchar *) message, (gssize) strlen (message));
    r->dump = g_strdup (g_checksum_get_string (sum));
  }
}

static void
assert_same_for_threads (KymoInput  *input,
                         const char *what)
{
  Result one = { 0 };

  load_with (input, 1, &one);
  for (guint i = 0; i < G_N_ELEMENTS (thread_counts); i++)
    {
      Result many = { 0 };

      load_with (input, thread_counts[i], &many);
      if (g_strcmp0 (one.fingerprint, many.fingerprint) != 0 || g_strcmp0 (one.dump, many.dump) != 0)
        g_test_message ("%s differs at %u threads", what, thread_counts[i]);
      g_assert_cmpstr (one.fingerprint, ==, many.fingerprint);
      g_assert_cmpstr (one.dump, ==, many.dump);
      g_assert_cmpint (one.dump_ok, ==, many.dump_ok);
      result_clear (&many);
    }
  result_clear (&one);
}

/* Every file of the samples, and each ATF session (a folder with a
 * manifest) as a whole. */
static void
collect_samples (const char *dir,
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
        collect_samples (path, out);
      else if (!g_str_has_suffix (name, ".md"))
        g_ptr_array_add (out, g_steal_pointer (&path));
    }
}

static void
test_samples (void)
{
  g_autofree char *root = kymo_test_sample_path (".");
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  if (root == NULL)
    return;
  collect_samples (root, paths);
  g_assert_cmpuint (paths->len, >, 0);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);

      g_assert_no_error (error);
      assert_same_for_threads (input, path);
    }
}

/* @relative repeated @times, as one input: many segments (dial9), Units
 * (RTC) or frames (Tonbandgerät) for the parts to split at. */
static void
test_repeated (gconstpointer data)
{
  const char *relative = data;
  g_autofree char *path = kymo_test_sample_path (relative);
  g_autofree char *contents = NULL;
  g_autoptr(GByteArray) repeated = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(KymoInput) input = NULL;
  gsize len;

  if (path == NULL)
    return;
  g_assert_true (g_file_get_contents (path, &contents, &len, NULL));
  for (guint i = 0; i < 6; i++)
    g_byte_array_append (repeated, (const guint8 *) contents, len);
  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&repeated));
  input = kymo_input_new_for_bytes (bytes, relative);
  assert_same_for_threads (input, relative);
}

int
main (int    argc,
      char **argv)
{
  static const char *repeated[] = {
    "dial9/2026-04-15-65026ee/demo-trace.bin",
    "rtc/generated-writer-lib/small.rtc",
    "tonbandgeraet/log.derived.bin",
  };

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/threads-same/samples", test_samples);
  for (guint i = 0; i < G_N_ELEMENTS (repeated); i++)
    {
      g_autofree char *name = g_strdup_printf ("/threads-same/repeated/%s", repeated[i]);
      g_test_add_data_func (name, repeated[i], test_repeated);
    }
  return g_test_run ();
}
