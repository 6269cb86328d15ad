/* test-cli-export.c: `kymo-cli export` and `kymo-cli stats` as users run them
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"

static char *
write_temp (const char *contents,
            const char *template)
{
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd;

  fd = g_file_open_tmp (template, &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  return path;
}

static void
test_cli_usage_errors (void)
{
  g_autofree char *junk = write_temp ("this is no trace at all\n", "kymo-junk-XXXXXX.txt");
  g_autofree char *out_path = g_build_filename (g_get_tmp_dir (), "kymo-cli-export-never-written.json", NULL);
  struct {
    const char *args[8];
  } cases[] = {
    { { "export", junk, NULL } },                                 /* no --chrome */
    { { "export", "--chrome", "/nonexistent/kymo/trace", NULL } },
    { { "export", "--chrome", junk, "-o", out_path, NULL } },     /* not a known format */
    { { "stats", "--from", "soon", junk, NULL } },
    { { "stats", "--from", "5", "--to", "1", junk, NULL } },
    { { "stats", "/nonexistent/kymo/trace", NULL } },
    { { "stats", NULL } },
  };

  g_unlink (out_path);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (kymo_test_run_cli (cases[i].args, &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_true (g_str_has_prefix (err, "kymo-cli: "));
    }
  /* an unreadable trace does not create (or clobber) the output */
  g_assert_false (g_file_test (out_path, G_FILE_TEST_EXISTS));
  g_unlink (junk);
}

/* The first sample a decoder of this tree can read, or NULL. */
static char *
loadable_sample (KymoTrace **trace)
{
  static const char *candidates[] = {
    "tonbandgeraet/log",
    "rtc/generated-writer-lib/small.rtc",
    "wtf/generated-cpp-bindings/example.wtf-trace",
    "dial9/head-6342350/demo-trace.bin",
    "atf/generated-ada-writer/ada_traces",
  };
  const char *dir = g_getenv ("KYMO_SAMPLES_DIR");

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("../shared/samples is not here: sample tests skipped");
      return NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      g_autofree char *path = g_build_filename (dir, candidates[i], NULL);

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        continue;
      *trace = kymo_test_load_path (path, NULL, NULL);
      /* Every format has a decoder: a sample that is there must load. */
      g_assert_nonnull (*trace);
      return g_steal_pointer (&path);
    }
  g_test_skip ("none of the expected samples is in ../shared/samples");
  return NULL;
}

static void
test_cli_export_sample (void)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *sample = loadable_sample (&trace);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *out_path = NULL;
  g_autofree char *file_text = NULL;
  guint64 spans, instants, samples, annotations;
  guint64 n_x = 0, n_i = 0, n_c = 0, n_s = 0, n_f = 0;
  int expected = 0;
  JsonArray *events;

  if (sample == NULL)
    return;
  if (kymo_trace_get_stop_error (trace) != NULL)
    expected = 1;

  g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "export", "--chrome", sample, NULL }, &out, &err), ==, expected);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  events = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (event, "ph");

      n_x += g_str_equal (ph, "X");
      n_i += g_str_equal (ph, "i");
      n_c += g_str_equal (ph, "C");
      n_s += g_str_equal (ph, "s");
      n_f += g_str_equal (ph, "f");
    }
  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  /* annotations are "X" (ranges) or "i" (points); NaN samples are left out */
  g_assert_cmpuint (n_x + n_i, ==, spans + instants + annotations);
  g_assert_cmpuint (n_c, <=, samples);
  g_assert_cmpuint (n_s, ==, n_f);

  /* -o writes the same document to a file, - to standard output */
  out_path = g_build_filename (g_get_tmp_dir (), "kymo-cli-export-test.json", NULL);
  g_clear_pointer (&err, g_free);
  {
    g_autofree char *out2 = NULL;

    g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "export", "--chrome", sample, "-o", out_path, NULL }, &out2, &err),
                     ==, expected);
    g_assert_cmpstr (out2, ==, "");
  }
  g_assert_true (g_file_get_contents (out_path, &file_text, NULL, NULL));
  g_assert_cmpstr (file_text, ==, out);
  g_unlink (out_path);
  {
    g_autofree char *out3 = NULL;
    g_autofree char *err3 = NULL;

    g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "export", "--chrome", "-o", "-", sample, NULL }, &out3, &err3),
                     ==, expected);
    g_assert_cmpstr (out3, ==, out);
  }
}

static void
test_cli_stats_sample (void)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GArray) rows = NULL;
  g_autoptr(GString) csv = g_string_new (NULL);
  g_autofree char *sample = loadable_sample (&trace);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *table = NULL;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  KymoTime start, end;
  int expected;

  if (sample == NULL)
    return;
  expected = kymo_trace_get_stop_error (trace) != NULL ? 1 : 0;

  rows = kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, NULL);
  kymo_stats_append_csv (rows, csv);
  g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "stats", "--csv", sample, NULL }, &out, &err), ==, expected);
  g_assert_cmpstr (out, ==, csv->str);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* the first half of the trace */
  kymo_trace_get_time_range (trace, &start, &end);
  if (start != KYMO_TIME_NONE)
    {
      KymoTime mid = start + (end - start) / 2;

      from = g_strdup_printf ("%" G_GINT64_FORMAT, start);
      to = g_strdup_printf ("%" G_GINT64_FORMAT, mid);
      g_clear_pointer (&rows, g_array_unref);
      g_string_truncate (csv, 0);
      rows = kymo_stats_compute (trace, start, mid, NULL, NULL);
      kymo_stats_append_csv (rows, csv);
      g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "stats", "--csv", "--from", from, "--to", to, sample, NULL },
                                &out, &err), ==, expected);
      g_assert_cmpstr (out, ==, csv->str);
      g_clear_pointer (&err, g_free);
    }

  /* the text table has a header and one line per name */
  g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "stats", sample, NULL }, &table, &err), ==, expected);
  g_assert_true (g_str_has_prefix (table, "name"));
  {
    g_auto(GStrv) lines = g_strsplit (table, "\n", -1);
    g_autoptr(GArray) all = kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, NULL);

    /* header, rows, "(times in ns)", "" */
    g_assert_cmpuint (g_strv_length (lines), ==, all->len + 3);
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/cli/usage-errors", test_cli_usage_errors);
  g_test_add_func ("/export/cli/export-sample", test_cli_export_sample);
  g_test_add_func ("/export/cli/stats-sample", test_cli_stats_sample);

  return g_test_run ();
}
