/* test-call-tree-formats.c: folding the nested calls each format decodes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "atf/kymo-atf-builder.h"
#include "../wtf/wtf-writer.h"
#include "../dial9/dial9-builder.h"

/* One shape for every format, in the format's time unit: A [0,100] holds
 * B [0,30] (on A's start, holding D [10,20]) and C [70,100] (on A's end);
 * E [100,150] starts where A ends and holds F [100,120]. */
typedef struct {
  guint       time;
  gboolean    enter;
  const char *name;
  guint       depth;  /* 1 = outermost */
} Step;

static const Step shape[] = {
  { 0, TRUE, "A", 1 },   { 0, TRUE, "B", 2 },    { 10, TRUE, "D", 3 },  { 20, FALSE, "D", 3 },
  { 30, FALSE, "B", 2 }, { 70, TRUE, "C", 2 },   { 100, FALSE, "C", 2 }, { 100, FALSE, "A", 1 },
  { 100, TRUE, "E", 1 }, { 100, TRUE, "F", 2 },  { 120, FALSE, "F", 2 }, { 150, FALSE, "E", 1 },
};

/* The one track holding spans: the first frame of every stack. */
static const char *
span_track_name (KymoTrace *trace)
{
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    if (kymo_track_get_n_depths (kymo_trace_get_track (trace, t)) > 0)
      return kymo_track_get_name (kymo_trace_get_track (trace, t));
  g_assert_not_reached ();
}

static void
check_shape (KymoTrace *trace,
             gint64     unit)
{
  g_autoptr(KymoCallTree) tree = NULL;
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *expected = NULL;
  const char *t = span_track_name (trace);

  tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, 0, NULL, NULL);
  kymo_call_tree_append_folded (tree, out);
  expected = g_strdup_printf ("%s;A %" G_GINT64_FORMAT "\n%s;A;B %" G_GINT64_FORMAT "\n"
                              "%s;A;B;D %" G_GINT64_FORMAT "\n%s;A;C %" G_GINT64_FORMAT "\n"
                              "%s;E %" G_GINT64_FORMAT "\n%s;E;F %" G_GINT64_FORMAT "\n",
                              t, 40 * unit, t, 20 * unit, t, 10 * unit, t, 30 * unit, t, 30 * unit, t, 20 * unit);
  g_assert_cmpstr (out->str, ==, expected);
  /* totals: the root holds the outermost spans whole */
  g_assert_cmpint (kymo_call_tree_get_nodes (tree, NULL)[0].total, ==, 150 * unit);
}

enum { W_ENTER = 2, W_LEAVE };

static void
test_wtf (void)
{
  const WwForm forms[] = { WW_LEGACY_BE, WW_LEGACY_LE, WW_CHUNKED };

  for (guint f = 0; f < G_N_ELEMENTS (forms); f++)
    {
      WwWriter *w = ww_new (forms[f], "{}", NULL, 0);
      g_autoptr(GBytes) bytes = NULL;
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(GError) error = NULL;

      ww_define (w, 1, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
      ww_define (w, 1, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
      for (guint i = 0; i < G_N_ELEMENTS (shape); i++)
        {
          /* times are microseconds; 1000 keeps them clear of 0 */
          ww_event (w, shape[i].enter ? W_ENTER : W_LEAVE, 1000 + shape[i].time);
          if (shape[i].enter)
            ww_string (w, WW_ASCII, shape[i].name);
        }
      bytes = ww_finish (w);
      trace = kymo_test_load_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "wtf", &error);
      g_assert_no_error (error);
      check_shape (trace, 1000);
    }
}

static const char manifest_text[] =
  "{\"threads\":[{\"id\":0,\"has_detail\":false}],"
  "\"time_start_ns\":0,\"time_end_ns\":0,\"clock_type\":1,"
  "\"modules\":[{\"module_id\":1,\"path\":\"/bin/app\"}],"
  "\"symbols\":["
  "{\"function_id\":\"0x0000000100000001\",\"module_id\":1,\"symbol_index\":1,\"name\":\"A\"},"
  "{\"function_id\":\"0x0000000100000002\",\"module_id\":1,\"symbol_index\":2,\"name\":\"B\"},"
  "{\"function_id\":\"0x0000000100000003\",\"module_id\":1,\"symbol_index\":3,\"name\":\"C\"},"
  "{\"function_id\":\"0x0000000100000004\",\"module_id\":1,\"symbol_index\":4,\"name\":\"D\"},"
  "{\"function_id\":\"0x0000000100000005\",\"module_id\":1,\"symbol_index\":5,\"name\":\"E\"},"
  "{\"function_id\":\"0x0000000100000006\",\"module_id\":1,\"symbol_index\":6,\"name\":\"F\"}],"
  "\"format_version\":\"2.1\"}";

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *child = g_build_filename (path, name, NULL);
        remove_tree (child);
      }
  g_remove (path);
}

static void
test_atf (void)
{
  g_autofree char *root = g_dir_make_tmp ("kymo-call-tree-XXXXXX", NULL);
  g_autofree char *pid_dir = g_build_filename (root, "session_20260101_000000", "pid_7", NULL);
  g_autofree char *manifest = g_build_filename (pid_dir, "manifest.json", NULL);
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  KymoAtfThreadBuilder b;

  g_assert_cmpint (g_mkdir_with_parents (pid_dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (manifest, manifest_text, -1, NULL));
  kymo_atf_builder_init (&b, 0, KYMO_ATF_ARCH_ARM64);
  for (guint i = 0; i < G_N_ELEMENTS (shape); i++)
    kymo_atf_builder_add_index (&b, 1000 + shape[i].time,
                                G_GUINT64_CONSTANT (0x0000000100000000) + (shape[i].name[0] - 'A' + 1),
                                shape[i].enter ? KYMO_ATF_CALL : KYMO_ATF_RETURN, shape[i].depth,
                                KYMO_ATF_NO_DETAIL);
  g_assert_true (kymo_atf_builder_write (&b, pid_dir, TRUE, NULL));
  kymo_atf_builder_clear (&b);

  trace = kymo_test_load_path (root, "atf", &error);
  g_assert_no_error (error);
  check_shape (trace, 1);
  remove_tree (root);
}

/* dial9 tracing spans (SpanEnter/SpanExit with parent ids) on one worker. */
static void
test_dial9 (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const char *enter[] = { "worker_id:9", "span_id:9", "parent_span_id:137", "span_name:7", "user:135", NULL };
  const char *exit_[] = { "worker_id:9", "span_id:9", "span_name:7", NULL };
  guint64 open_ids[8] = { 0 };
  guint last = 0, next_id = 1;

  d9b_header (b);
  d9b_schema (b, 0, "SpanEnter:app::s:src/a.rs:1", TRUE, enter);
  d9b_schema (b, 1, "SpanExit:app::s:src/a.rs:1", TRUE, exit_);
  for (guint k = 0; k < 6; k++)
    d9b_pool (b, k, (const char[]) { (char) ('A' + k), 0 });
  d9b_reset (b, 1000000);
  for (guint i = 0; i < G_N_ELEMENTS (shape); i++)
    {
      guint32 name = shape[i].name[0] - 'A';
      guint depth = shape[i].depth;

      d9b_event (b, shape[i].enter ? 0 : 1, (gint32) ((shape[i].time - last) * 1000));
      last = shape[i].time;
      d9b_varint (b, 3);
      if (shape[i].enter)
        {
          open_ids[depth] = next_id++;
          d9b_varint (b, open_ids[depth]);
          if (depth > 1)
            {
              d9b_u8 (b, 1);
              d9b_varint (b, open_ids[depth - 1]);
            }
          else
            d9b_u8 (b, 0);
          d9b_u32 (b, name);
          d9b_u8 (b, 0);
        }
      else
        {
          d9b_varint (b, open_ids[depth]);
          d9b_u32 (b, name);
        }
    }
  trace = kymo_test_load_bytes (b->data, b->len, "dial9", &error);
  g_assert_no_error (error);
  check_shape (trace, 1000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/call-tree/formats/wtf", test_wtf);
  g_test_add_func ("/call-tree/formats/atf", test_atf);
  g_test_add_func ("/call-tree/formats/dial9", test_dial9);

  return g_test_run ();
}
