/* test-cli-query.c: `kymo-cli query` as users run it
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"

static char *
sample (void)
{
  return kymo_test_sample_path ("wtf/generated-cpp-bindings/example.wtf-trace");
}

static void
test_cli_query_formats (void)
{
  g_autofree char *path = sample ();
  const char *sql = "SELECT id, name, dur, dur / 1000.0 AS us, NULL AS missing FROM spans ORDER BY id LIMIT 3";
  g_autofree char *table = NULL, *csv = NULL, *json = NULL, *err = NULL;
  g_auto(GStrv) table_lines = NULL, csv_lines = NULL, json_lines = NULL;

  if (path == NULL)
    return;
  g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "query", sql, path, NULL }, &table, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "query", "--csv", sql, path, NULL }, &csv, &err), ==, 0);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "query", "--json", sql, path, NULL }, &json, &err), ==, 0);

  table_lines = g_strsplit (table, "\n", -1);
  csv_lines = g_strsplit (csv, "\n", -1);
  json_lines = g_strsplit (json, "\n", -1);
  g_assert_cmpuint (g_strv_length (table_lines), ==, 5);  /* header, 3 rows, "" */
  g_assert_cmpuint (g_strv_length (csv_lines), ==, 5);
  g_assert_cmpuint (g_strv_length (json_lines), ==, 4);
  g_assert_true (g_str_has_prefix (table_lines[0], "id  name"));
  g_assert_cmpstr (csv_lines[0], ==, "id,name,dur,us,missing");

  /* Columns line up: every row as wide as the header (right-aligned ids) */
  for (guint i = 1; i < 4; i++)
    g_assert_cmpint (strstr (table_lines[i], "  ") - table_lines[i], >=, 0);

  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      g_auto(GStrv) fields = g_strsplit (csv_lines[i + 1], ",", -1);
      JsonObject *o;

      json_parser_load_from_data (parser, json_lines[i], -1, &error);
      g_assert_no_error (error);
      o = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpint (json_object_get_int_member (o, "id"), ==, g_ascii_strtoll (fields[0], NULL, 10));
      g_assert_cmpint (json_object_get_int_member (o, "dur"), ==, g_ascii_strtoll (fields[2], NULL, 10));
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (o, "us"),
                                      json_object_get_int_member (o, "dur") / 1000.0, 1e-9);
      g_assert_true (json_node_is_null (json_object_get_member (o, "missing")));
      g_assert_cmpstr (fields[4], ==, "");
      g_assert_nonnull (strstr (table_lines[i + 1], json_object_get_string_member (o, "name")));
    }
}

static void
test_cli_query_errors (void)
{
  g_autofree char *path = sample ();
  g_autofree char *dir = NULL;
  g_autofree char *cwd = g_get_current_dir ();
  static const char *bad[] = {
    "SELEC 1",
    "ATTACH 'x.db' AS x",
    "CREATE TABLE t(x)",
    "SELECT load_extension('x')",
    "DELETE FROM spans",
    "PRAGMA journal_mode = WAL",
  };

  if (path == NULL)
    return;
  dir = g_dir_make_tmp ("kymo-cli-query-XXXXXX", NULL);
  g_assert_cmpint (chdir (dir), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *out = NULL, *err = NULL;

      g_assert_cmpint (kymo_test_run_cli ((const char *[]) { "query", bad[i], path, NULL }, &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_true (g_str_has_prefix (err, "kymo-cli: query: "));
      if (i == 0)
        g_assert_nonnull (strstr (err, "syntax error"));
      else
        g_assert_nonnull (strstr (err, "read-only: "));
    }
  {
    g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
    g_assert_null (g_dir_read_name (d));
  }
  g_assert_cmpint (chdir (cwd), ==, 0);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/query/formats", test_cli_query_formats);
  g_test_add_func ("/cli/query/errors", test_cli_query_errors);

  return g_test_run ();
}
