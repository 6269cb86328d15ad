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

#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "kymo-test-atf-session.h"

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

static void
test_samples (void)
{
  kymo_test_for_each_sample (assert_same_for_threads);
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

static KymoTrace *
load_session (const char *session,
              guint       threads)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoInput) input = kymo_input_new_for_path (session, &error);
  KymoLoadOptions options = { .threads = threads };
  KymoTrace *trace;

  g_assert_no_error (error);
  trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace;
}

/* A session whose manifest has no symbol table is built on the threads
 * like one that has (names are interned in the same order), and gives the
 * same spans: only their names differ, one for one. */
static void
test_atf_without_symbols (gconstpointer data)
{
  const KymoTestAtfShape *base = data;
  g_autofree char *dir = g_dir_make_tmp ("kymo-atf-XXXXXX", NULL);
  g_autofree char *with_dir = g_build_filename (dir, "with", "pid_1", NULL);
  g_autofree char *without_dir = g_build_filename (dir, "without", "pid_1", NULL);
  g_autofree char *with = g_build_filename (dir, "with", NULL);
  g_autofree char *without = g_build_filename (dir, "without", NULL);
  KymoTestAtfShape shape = *base;
  g_autoptr(KymoTrace) named = NULL;
  g_autoptr(KymoTrace) unnamed = NULL;
  g_autoptr(GHashTable) name_map = g_hash_table_new (NULL, NULL);
  g_autoptr(KymoInput) input = NULL;
  guint64 n_spans = 0;

  shape.symbols = TRUE;
  kymo_test_write_atf_session (with_dir, &shape);
  shape.symbols = FALSE;
  kymo_test_write_atf_session (without_dir, &shape);

  input = kymo_input_new_for_path (without, NULL);
  assert_same_for_threads (input, "ATF session without symbols");

  named = load_session (with, 2);
  unnamed = load_session (without, 2);
  g_assert_cmpuint (kymo_trace_get_n_tracks (named), ==, kymo_trace_get_n_tracks (unnamed));
  for (guint t = 0; t < kymo_trace_get_n_tracks (named); t++)
    {
      gsize n, m;
      const KymoSpan *a = kymo_track_get_spans (kymo_trace_get_track (named, t), &n);
      const KymoSpan *b = kymo_track_get_spans (kymo_trace_get_track (unnamed, t), &m);

      g_assert_cmpuint (n, ==, m);
      for (gsize i = 0; i < n; i++)
        {
          gpointer seen;

          g_assert_cmpint (a[i].start, ==, b[i].start);
          g_assert_cmpint (a[i].end, ==, b[i].end);
          g_assert_cmpuint (a[i].source, ==, b[i].source);
          g_assert_cmpuint (kymo_span_flags (&a[i]), ==, kymo_span_flags (&b[i]));
          g_assert_cmpuint (kymo_track_get_span_depth (kymo_trace_get_track (named, t), i), ==,
                            kymo_track_get_span_depth (kymo_trace_get_track (unnamed, t), i));
          /* One name for one name, and the unnamed one is the id. */
          seen = g_hash_table_lookup (name_map, GUINT_TO_POINTER (kymo_span_name (&a[i]) + 1));
          if (seen == NULL)
            g_hash_table_insert (name_map, GUINT_TO_POINTER (kymo_span_name (&a[i]) + 1),
                                 GUINT_TO_POINTER (kymo_span_name (&b[i]) + 1));
          else
            g_assert_cmpuint (GPOINTER_TO_UINT (seen) - 1, ==, kymo_span_name (&b[i]));
          g_assert_true (g_str_has_prefix (kymo_trace_get_name (unnamed, kymo_span_name (&b[i])), "<0x"));
          n_spans++;
        }
    }
  g_assert_cmpuint (n_spans, >, 0);
  kymo_test_remove_tree (dir);
}

static const KymoTestAtfShape atf_shapes[] = {
  { .n_threads = 4, .events_per_thread = 20000, .max_depth = 12, .n_functions = 500 },
  { .n_threads = 3, .events_per_thread = 20000, .max_depth = 1, .n_functions = 50 },
  { .n_threads = 3, .events_per_thread = 20000, .max_depth = 40, .n_functions = 300, .exception_every = 97 },
  { .n_threads = 1, .events_per_thread = 20000, .max_depth = 8, .n_functions = 100 },
};

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
  for (guint i = 0; i < G_N_ELEMENTS (atf_shapes); i++)
    {
      g_autofree char *name = g_strdup_printf ("/threads-same/atf-without-symbols/%u", i);
      g_test_add_data_func (name, &atf_shapes[i], test_atf_without_symbols);
    }
  for (guint i = 0; i < G_N_ELEMENTS (repeated); i++)
    {
      g_autofree char *name = g_strdup_printf ("/threads-same/repeated/%s", repeated[i]);
      g_test_add_data_func (name, repeated[i], test_repeated);
    }
  return g_test_run ();
}
