/* test-atf.c: ATF v2 sessions, from hand-built files and the sample
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-test-utils.h"
#include "atf/kymo-atf.h"
#include "atf/kymo-atf-builder.h"
#include "kymo-test-atf-session.h"

#define MAIN_ID   G_GUINT64_CONSTANT (0x0000000100000001)
#define WORK_ID   G_GUINT64_CONSTANT (0x0000000100000002)
#define LEAF_ID   G_GUINT64_CONSTANT (0x0000000100000003)
#define ORPHAN_ID G_GUINT64_CONSTANT (0x00000002000000ff)

static const char manifest_text[] =
  "{\"threads\":[{\"id\":0,\"has_detail\":true},{\"id\":1,\"has_detail\":true}],"
  "\"time_start_ns\":0,\"time_end_ns\":0,\"clock_type\":1,"
  "\"modules\":[{\"module_id\":1,\"path\":\"/bin/app\"}],"
  "\"symbols\":["
  "{\"function_id\":\"0x0000000100000001\",\"module_id\":1,\"symbol_index\":1,\"name\":\"main\"},"
  "{\"function_id\":\"0x0000000100000002\",\"module_id\":1,\"symbol_index\":2,\"name\":\"work\"},"
  "{\"function_id\":\"0x0000000100000003\",\"module_id\":1,\"symbol_index\":3,\"name\":\"leaf\"}],"
  "\"format_version\":\"2.1\"}";

typedef struct {
  char *root;      /* scratch folder */
  char *pid_dir;   /* root/session_x/pid_77 */
} Session;

static void
session_init (Session *s)
{
  s->root = g_dir_make_tmp ("kymo-atf-test-XXXXXX", NULL);
  g_assert_nonnull (s->root);
  s->pid_dir = g_build_filename (s->root, "session_20260101_000000", "pid_77", NULL);
  g_assert_cmpint (g_mkdir_with_parents (s->pid_dir, 0755), ==, 0);
}

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
session_clear (Session *s)
{
  remove_tree (s->root);
  g_free (s->root);
  g_free (s->pid_dir);
}

static void
write_manifest (Session *s, const char *text)
{
  g_autofree char *path = g_build_filename (s->pid_dir, "manifest.json", NULL);
  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

/* main → work → leaf ×2, then work returns, main returns; with detail
 * records (spec linking) on work's CALL and RETURN when @detail. */
static void
build_basic (KymoAtfThreadBuilder *b,
             guint                 thread,
             guint8                arch,
             gboolean              detail,
             KymoAtfPayloadLayout  layout)
{
  KymoAtfRegs regs = { { 11, 12, 13, 14, 15, 16, 17, 18 }, 0x100, 0x200, 0x300 };
  guint8 stack[16];

  for (guint i = 0; i < sizeof stack; i++)
    stack[i] = (guint8) (0xA0 + i);
  kymo_atf_builder_init (b, thread, arch);
  kymo_atf_builder_add_index (b, 1000, MAIN_ID, KYMO_ATF_CALL, 1, KYMO_ATF_NO_DETAIL);
  if (detail)
    kymo_atf_builder_add_linked (b, layout, 1100, WORK_ID, KYMO_ATF_CALL, 2, &regs, stack, sizeof stack);
  else
    kymo_atf_builder_add_index (b, 1100, WORK_ID, KYMO_ATF_CALL, 2, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (b, 1200, LEAF_ID, KYMO_ATF_CALL, 3, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (b, 1300, LEAF_ID, KYMO_ATF_RETURN, 3, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (b, 1400, LEAF_ID, KYMO_ATF_CALL, 3, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (b, 1500, LEAF_ID, KYMO_ATF_RETURN, 3, KYMO_ATF_NO_DETAIL);
  regs.x[0] = 42;
  if (detail)
    kymo_atf_builder_add_linked (b, layout, 1600, WORK_ID, KYMO_ATF_RETURN, 2, &regs, NULL, 0);
  else
    kymo_atf_builder_add_index (b, 1600, WORK_ID, KYMO_ATF_RETURN, 2, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (b, 2000, MAIN_ID, KYMO_ATF_RETURN, 1, KYMO_ATF_NO_DETAIL);
}

static void
write_thread (Session *s, guint thread, gboolean detail, gboolean footer)
{
  KymoAtfThreadBuilder b;

  build_basic (&b, thread, KYMO_ATF_ARCH_X86_64, detail, KYMO_ATF_PAYLOAD_RING);
  g_assert_true (kymo_atf_builder_write (&b, s->pid_dir, footer, NULL));
  kymo_atf_builder_clear (&b);
}

static guint
find_track (KymoTrace *trace, const char *name, guint parent)
{
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, i);
      if (g_str_equal (kymo_track_get_name (track), name) &&
          (parent == KYMO_NO_TRACK || kymo_track_get_parent (track) == parent))
        return i;
    }
  return KYMO_NO_TRACK;
}

static const char *
span_name (KymoTrace *trace, guint track, guint depth, gsize i)
{
  gsize n, first;
  const KymoSpan *spans = kymo_track_get_depth_spans (kymo_trace_get_track (trace, track), depth, &n, &first);

  g_assert_cmpuint (i, <, n);
  return kymo_trace_get_name (trace, kymo_span_name (&spans[i]));
}

/* Every detail record links to a span or exception, and back, in one step. */
static guint
check_links (KymoTrace *trace, guint detail_track)
{
  gsize n;
  const KymoInstant *instants = kymo_track_get_instants (kymo_trace_get_track (trace, detail_track), &n);
  guint linked = 0;

  for (gsize i = 0; i < n; i++)
    {
      KymoEventRef from = { detail_track, KYMO_EVENT_KIND_INSTANT, (guint) i }, target, back, again;
      g_autoptr(JsonObject) detail = kymo_trace_describe_event (trace, &from);
      g_autoptr(JsonObject) index = NULL;
      gint64 dseq;

      if (!(instants[i].name_flags >> 24 & KYMO_EVENT_LINKED))
        continue;
      g_assert_true (kymo_trace_follow_link (trace, &from, &target));
      g_assert_cmpuint (target.track, ==, kymo_track_get_parent (kymo_trace_get_track (trace, detail_track)));
      g_assert_true (kymo_trace_follow_link (trace, &target, &back));
      g_assert_cmpuint (back.track, ==, detail_track);
      g_assert_true (kymo_trace_follow_link (trace, &back, &again));
      g_assert_cmpuint (again.index, ==, target.index);
      g_assert_cmpint (again.kind, ==, target.kind);

      /* The detail seq shows on the span, as its CALL or its RETURN. */
      index = kymo_trace_describe_event (trace, &target);
      dseq = json_object_get_int_member (detail, "detail_seq");
      g_assert_true ((json_object_has_member (index, "detail_seq") &&
                      !json_object_get_null_member (index, "detail_seq") &&
                      json_object_get_int_member (index, "detail_seq") == dseq) ||
                     (json_object_has_member (index, "return_detail_seq") &&
                      json_object_get_int_member (index, "return_detail_seq") == dseq));
      linked++;
    }
  return linked;
}

static void
test_basic_with_detail (void)
{
  Session s;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint thread, detail;
  gsize n;
  const KymoSpan *spans;

  session_init (&s);
  write_manifest (&s, manifest_text);
  write_thread (&s, 0, TRUE, TRUE);
  write_thread (&s, 1, FALSE, TRUE);

  trace = kymo_test_load_path (s.root, "atf", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kymo_track_get_group_kind (kymo_trace_get_track (trace, find_track (trace, "Process 77", KYMO_NO_TRACK))), ==, "process");
  thread = find_track (trace, "Thread 0", KYMO_NO_TRACK);
  g_assert_cmpuint (thread, !=, KYMO_NO_TRACK);
  g_assert_cmpuint (find_track (trace, "Thread 1", KYMO_NO_TRACK), !=, KYMO_NO_TRACK);
  detail = find_track (trace, KYMO_ATF_DETAIL_TRACK_NAME, thread);
  g_assert_cmpuint (detail, !=, KYMO_NO_TRACK);

  spans = kymo_track_get_spans (kymo_trace_get_track (trace, thread), &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpuint (kymo_track_get_n_depths (kymo_trace_get_track (trace, thread)), ==, 3);
  g_assert_cmpstr (span_name (trace, thread, 0, 0), ==, "main");
  g_assert_cmpstr (span_name (trace, thread, 1, 0), ==, "work");
  g_assert_cmpstr (span_name (trace, thread, 2, 1), ==, "leaf");
  g_assert_cmpint (spans[0].start, ==, 1000);
  g_assert_cmpint (spans[0].end, ==, 2000);
  g_assert_true (kymo_span_flags (&spans[1]) & KYMO_EVENT_LINKED);
  g_assert_false (kymo_span_flags (&spans[0]) & KYMO_EVENT_LINKED);

  g_assert_cmpuint (check_links (trace, detail), ==, 2);

  {
    KymoEventRef ref = { thread, KYMO_EVENT_KIND_SPAN, 1 };
    g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);
    JsonObject *regs = json_object_get_object_member (args, "regs");
    JsonObject *ret_regs = json_object_get_object_member (args, "return_regs");

    g_assert_cmpstr (json_object_get_string_member (args, "function"), ==, "work");
    g_assert_cmpstr (json_object_get_string_member (args, "function_id"), ==, "0x0000000100000002");
    g_assert_cmpint (json_object_get_int_member (args, "thread"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (args, "depth"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (args, "index_seq"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (args, "detail_seq"), ==, 0);
    g_assert_cmpint (json_object_get_int_member (args, "return_index_seq"), ==, 6);
    g_assert_cmpstr (json_object_get_string_member (regs, "rdi"), ==, "0x000000000000000b");
    g_assert_cmpstr (json_object_get_string_member (regs, "rsp"), ==, "0x0000000000000012");
    g_assert_cmpstr (json_object_get_string_member (ret_regs, "rax"), ==, "0x000000000000002a");
    g_assert_cmpstr (json_object_get_string_member (args, "stack"), ==, "a0a1a2a3a4a5a6a7a8a9aaabacadaeaf");
  }
  session_clear (&s);
}

/* Every way to open the same session gives the same calls. */
static void
test_input_forms (void)
{
  Session s;
  g_autofree char *session_dir = NULL;
  g_autofree char *index_path = NULL;
  g_autofree char *manifest_path = NULL;
  const char *paths[4];

  session_init (&s);
  write_manifest (&s, manifest_text);
  write_thread (&s, 0, TRUE, TRUE);
  session_dir = g_path_get_dirname (s.pid_dir);
  index_path = g_build_filename (s.pid_dir, "thread_0", "index.atf", NULL);
  manifest_path = g_build_filename (s.pid_dir, "manifest.json", NULL);
  paths[0] = s.root;
  paths[1] = session_dir;
  paths[2] = s.pid_dir;
  paths[3] = index_path;

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autoptr(KymoInput) input = kymo_input_new_for_path (paths[i], NULL);
      g_autoptr(KymoTrace) trace = NULL;
      guint64 spans, instants;

      g_assert_true (kymo_formats_detect (input) == kymo_formats_lookup ("atf"));
      trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, NULL);
      g_assert_nonnull (trace);
      kymo_trace_count_events (trace, &spans, &instants, NULL, NULL);
      g_assert_cmpuint (spans, ==, 4);
      g_assert_cmpuint (instants, ==, 2);
      g_assert_cmpstr (span_name (trace, find_track (trace, "Thread 0", KYMO_NO_TRACK), 0, 0), ==, "main");
    }

  /* A session's own manifest.json opens its folder. */
  {
    g_autoptr(KymoInput) input = kymo_input_new_for_path (manifest_path, NULL);
    g_assert_true (kymo_formats_detect (input) == kymo_formats_lookup ("atf"));
  }
  session_clear (&s);
}

static void
test_bundle (void)
{
  Session s;
  g_autofree char *bundle = NULL;
  g_autofree char *bundle_manifest = NULL;
  g_autofree char *text = NULL;
  g_autofree char *outside = NULL;

  session_init (&s);
  write_thread (&s, 0, FALSE, TRUE);
  bundle = g_build_filename (s.root, "run.adabundle", NULL);
  g_assert_cmpint (g_mkdir (bundle, 0755), ==, 0);
  bundle_manifest = g_build_filename (bundle, "manifest.json", NULL);

  /* A session outside the bundle: "../" and absolute paths are refused. */
  text = g_strdup_printf ("{\"version\":1,\"trace_root\":\"\",\"trace_session\":\"../session_20260101_000000\"}");
  g_assert_true (g_file_set_contents (bundle_manifest, text, -1, NULL));
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KymoTrace) trace = kymo_test_load_path (bundle_manifest, "atf", &error);
    g_assert_null (trace);
    g_assert_nonnull (error);
  }
  g_free (text);
  outside = g_path_get_dirname (s.pid_dir);
  text = g_strdup_printf ("{\"version\":1,\"trace_session\":\"%s\"}", outside);
  g_assert_true (g_file_set_contents (bundle_manifest, text, -1, NULL));
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KymoTrace) trace = kymo_test_load_path (bundle, "atf", &error);
    g_assert_null (trace);
  }

  /* Inside the bundle: followed, by the folder or by its manifest. */
  {
    g_autofree char *inner = g_build_filename (bundle, "trace", "session_1", NULL);
    g_autofree char *from = g_path_get_dirname (s.pid_dir);
    g_autofree char *to = g_build_filename (inner, NULL);
    g_autofree char *pid = g_build_filename (inner, "pid_77", NULL);
    KymoAtfThreadBuilder b;

    g_assert_cmpint (g_mkdir_with_parents (pid, 0755), ==, 0);
    build_basic (&b, 3, KYMO_ATF_ARCH_ARM64, FALSE, KYMO_ATF_PAYLOAD_SPEC);
    g_assert_true (kymo_atf_builder_write (&b, pid, TRUE, NULL));
    kymo_atf_builder_clear (&b);
    g_free (text);
    text = g_strdup ("{\"version\":1,\"trace_root\":\"trace\",\"trace_session\":\"trace/session_1\",\"screen_path\":null}");
    g_assert_true (g_file_set_contents (bundle_manifest, text, -1, NULL));

    for (guint i = 0; i < 2; i++)
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(KymoTrace) trace = kymo_test_load_path (i ? bundle : bundle_manifest, NULL, &error);

        g_assert_no_error (error);
        g_assert_cmpuint (find_track (trace, "Thread 3", KYMO_NO_TRACK), !=, KYMO_NO_TRACK);
      }
  }
  session_clear (&s);
}

static void
test_crashed_writer (void)
{
  Session s;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint64 spans;
  gsize n_warnings;

  session_init (&s);
  write_manifest (&s, manifest_text);
  write_thread (&s, 0, TRUE, FALSE);
  trace = kymo_test_load_path (s.pid_dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  kymo_trace_count_events (trace, &spans, NULL, NULL, NULL);
  g_assert_cmpuint (spans, ==, 4);
  kymo_trace_get_warnings (trace, &n_warnings);
  g_assert_cmpuint (n_warnings, >=, 1);
  g_assert_cmpuint (check_links (trace, find_track (trace, KYMO_ATF_DETAIL_TRACK_NAME, KYMO_NO_TRACK)), ==, 2);
  session_clear (&s);
}

static void
test_truncated_detail (void)
{
  Session s;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *detail_path = NULL;
  g_autofree char *data = NULL;
  gsize len;
  guint64 spans, instants;

  session_init (&s);
  write_manifest (&s, manifest_text);
  write_thread (&s, 0, TRUE, FALSE);
  detail_path = g_build_filename (s.pid_dir, "thread_0", "detail.atf", NULL);
  g_assert_true (g_file_get_contents (detail_path, &data, &len, NULL));
  g_assert_cmpuint (len, ==, 64 + 2 * 540);
  g_assert_true (g_file_set_contents (detail_path, data, len - 100, NULL));

  trace = kymo_test_load_path (s.pid_dir, "atf", &error);
  g_assert_no_error (error);
  g_assert_nonnull (kymo_trace_get_stop_error (trace));
  g_assert_true (g_error_matches (kymo_trace_get_stop_error (trace), KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_TRUNCATED));
  g_assert_nonnull (strstr (kymo_trace_get_stop_error (trace)->message, "detail.atf: offset 604"));
  kymo_trace_count_events (trace, &spans, &instants, NULL, NULL);
  g_assert_cmpuint (spans, ==, 4);
  g_assert_cmpuint (instants, ==, 1);
  g_assert_cmpuint (check_links (trace, find_track (trace, KYMO_ATF_DETAIL_TRACK_NAME, KYMO_NO_TRACK)), ==, 1);

  /* dump prints what is readable, then fails. */
  {
    g_autoptr(KymoInput) input = kymo_input_new_for_path (s.pid_dir, NULL);
    g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);
    g_autoptr(GError) dump_error = NULL;

    g_assert_false (kymo_dump_sync (input, NULL, writer, &dump_error));
    g_assert_nonnull (dump_error);
    g_assert_nonnull (strstr (kymo_json_writer_get_string (writer), "\"kind\":\"detail\""));
  }
  session_clear (&s);
}

static void
check_unresolved (Session *s, const char *manifest, gboolean expect_warning)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  gsize n_warnings;

  if (manifest)
    write_manifest (s, manifest);
  write_thread (s, 0, FALSE, TRUE);
  trace = kymo_test_load_path (s->pid_dir, "atf", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (span_name (trace, find_track (trace, "Thread 0", KYMO_NO_TRACK), 0, 0), ==, "<0x0000000100000001>");
  kymo_trace_get_warnings (trace, &n_warnings);
  if (expect_warning)
    g_assert_cmpuint (n_warnings, ==, 1);
}

static void
test_manifest_missing (void)
{
  Session s;

  session_init (&s);
  check_unresolved (&s, NULL, TRUE);
  session_clear (&s);
}

static void
test_manifest_bad_json (void)
{
  Session s;

  session_init (&s);
  check_unresolved (&s, "{\"threads\": [ {\"id\": 0,", TRUE);
  session_clear (&s);
}

static void
test_symbols_missing (void)
{
  Session s;

  session_init (&s);
  check_unresolved (&s, "{\"threads\":[{\"id\":0,\"has_detail\":true}],\"time_start_ns\":0,"
                        "\"time_end_ns\":0,\"clock_type\":1,\"format_version\":\"2.0\"}", TRUE);
  session_clear (&s);
}

/* The spec's DetailFunctionPayload, arm64 register names. */
static void
test_spec_payload_arm64 (void)
{
  KymoAtfThreadBuilder b;
  g_autoptr(GBytes) index = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  Session s;

  session_init (&s);
  write_manifest (&s, manifest_text);
  build_basic (&b, 0, KYMO_ATF_ARCH_ARM64, TRUE, KYMO_ATF_PAYLOAD_SPEC);
  g_assert_true (kymo_atf_builder_write (&b, s.pid_dir, TRUE, NULL));
  kymo_atf_builder_clear (&b);

  trace = kymo_test_load_path (s.pid_dir, "atf", &error);
  g_assert_no_error (error);
  {
    guint detail = find_track (trace, KYMO_ATF_DETAIL_TRACK_NAME, KYMO_NO_TRACK);
    KymoEventRef ref = { detail, KYMO_EVENT_KIND_INSTANT, 1 };
    g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);
    JsonObject *regs = json_object_get_object_member (args, "regs");

    g_assert_cmpstr (json_object_get_string_member (args, "event"), ==, "return");
    g_assert_cmpstr (json_object_get_string_member (regs, "x0"), ==, "0x000000000000002a");
    g_assert_cmpstr (json_object_get_string_member (regs, "lr"), ==, "0x0000000000000100");
    g_assert_cmpstr (json_object_get_string_member (regs, "sp"), ==, "0x0000000000000300");
    g_assert_cmpstr (json_object_get_string_member (args, "stack"), ==, "");
    g_assert_cmpuint (check_links (trace, detail), ==, 2);
  }

  {
    g_autoptr(KymoInput) input = kymo_input_new_for_path (s.pid_dir, NULL);
    g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);

    g_assert_true (kymo_dump_sync (input, NULL, writer, NULL));
    g_assert_nonnull (strstr (kymo_json_writer_get_string (writer),
                              "{\"kind\":\"detail\",\"pid\":77,\"thread\":0,\"seq\":0,\"index_seq\":1,\"ts\":1100,"
                              "\"event_type\":3,\"flags\":0,\"length\":140,\"function_id\":4294967298,"
                              "\"regs\":{\"x0\":11,\"x1\":12,\"x2\":13,\"x3\":14,\"x4\":15,\"x5\":16,\"x6\":17,"
                              "\"x7\":18,\"lr\":256,\"fp\":512,\"sp\":768},\"stack\":\"a0a1a2a3a4a5a6a7a8a9aaabacadaeaf\"}"));
    g_assert_nonnull (strstr (kymo_json_writer_get_string (writer),
                              "{\"kind\":\"index\",\"pid\":77,\"thread\":0,\"seq\":1,\"ts\":1100,\"function_id\":4294967298,"
                              "\"function\":\"work\",\"event\":\"call\",\"depth\":2,\"detail_seq\":0}"));
  }
  session_clear (&s);
}

/* CALL never returned, a stray RETURN, an EXCEPTION that unwinds. */
static void
test_unbalanced (void)
{
  KymoAtfThreadBuilder b;
  g_autoptr(GBytes) index = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const KymoSpan *spans;
  const KymoInstant *instants;
  gsize n, n_warnings;
  KymoTrack *track;

  kymo_atf_builder_init (&b, 5, KYMO_ATF_ARCH_X86_64);
  kymo_atf_builder_add_index (&b, 100, ORPHAN_ID, KYMO_ATF_RETURN, 1, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (&b, 200, MAIN_ID, KYMO_ATF_CALL, 1, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (&b, 300, WORK_ID, KYMO_ATF_CALL, 2, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (&b, 400, LEAF_ID, KYMO_ATF_CALL, 3, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (&b, 500, LEAF_ID, KYMO_ATF_EXCEPTION, 3, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (&b, 700, WORK_ID, KYMO_ATF_RETURN, 2, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (&b, 900, LEAF_ID, KYMO_ATF_CALL, 2, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (&b, 1000, LEAF_ID, KYMO_ATF_RETURN, 2, KYMO_ATF_NO_DETAIL);
  kymo_atf_builder_add_index (&b, 5000, WORK_ID, KYMO_ATF_CALL, 2, KYMO_ATF_NO_DETAIL);
  index = kymo_atf_builder_index_bytes (&b, TRUE);
  kymo_atf_builder_clear (&b);

  /* A lone index.atf image loads from memory. */
  trace = kymo_test_load_bytes (g_bytes_get_data (index, NULL), g_bytes_get_size (index), NULL, &error);
  g_assert_no_error (error);
  track = kymo_trace_get_track (trace, find_track (trace, "Thread 5", KYMO_NO_TRACK));
  spans = kymo_track_get_spans (track, &n);
  g_assert_cmpuint (n, ==, 5);
  /* main never returned: to the end of the trace */
  g_assert_cmpint (spans[0].start, ==, 200);
  g_assert_cmpint (spans[0].end, ==, 5000);
  g_assert_true (kymo_span_flags (&spans[0]) & KYMO_EVENT_INCOMPLETE);
  /* leaf was unwound by the exception */
  {
    gsize nd, first;
    const KymoSpan *d2 = kymo_track_get_depth_spans (track, 2, &nd, &first);
    g_assert_cmpuint (nd, ==, 1);
    g_assert_cmpint (d2[0].end, ==, 500);
    g_assert_true (kymo_span_flags (&d2[0]) & KYMO_EVENT_WARNING);
  }
  instants = kymo_track_get_instants (track, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (instants[0].ts, ==, 500);
  g_assert_cmpstr (kymo_trace_get_name (trace, instants[0].name_flags & KYMO_NAME_MAX), ==, "exception in <0x0000000100000003>");
  kymo_trace_get_warnings (trace, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 1);

  g_assert_cmpuint (kymo_test_every_prefix (g_bytes_get_data (index, NULL), g_bytes_get_size (index), "atf", 1), >, 0);
}

/* Threads matched side by side: those with nothing left open are finished
 * on the worker right away, the rest once the end of the trace is known.
 * Both must see the same trace end and keep their warnings; a depth holds
 * more spans than the decoder's counting pass sees in one block. */
static void
test_parallel_finish (void)
{
  Session s;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const KymoWarning *warnings;
  gsize n, n_warnings;
  guint stray_warnings = 0;

  session_init (&s);
  write_manifest (&s, manifest_text);
  for (guint t = 0; t < 6; t++)
    {
      KymoAtfThreadBuilder b;
      guint64 ts = 1000 + t;

      kymo_atf_builder_init (&b, t, KYMO_ATF_ARCH_ARM64);
      if (t == 1)
        kymo_atf_builder_add_index (&b, 500, MAIN_ID, KYMO_ATF_CALL, 1, KYMO_ATF_NO_DETAIL);
      if (t == 4)
        kymo_atf_builder_add_index (&b, 600, ORPHAN_ID, KYMO_ATF_RETURN, 1, KYMO_ATF_NO_DETAIL);
      /* More spans per depth than one chunk holds. */
      for (guint i = 0; i < 3000 * (t + 1); i++)
        {
          kymo_atf_builder_add_index (&b, ts, WORK_ID, KYMO_ATF_CALL, 2, KYMO_ATF_NO_DETAIL);
          kymo_atf_builder_add_index (&b, ts + 3, LEAF_ID, KYMO_ATF_CALL, 3, KYMO_ATF_NO_DETAIL);
          kymo_atf_builder_add_index (&b, ts + 5, LEAF_ID, KYMO_ATF_RETURN, 3, KYMO_ATF_NO_DETAIL);
          kymo_atf_builder_add_index (&b, ts + 7, WORK_ID, KYMO_ATF_RETURN, 2, KYMO_ATF_NO_DETAIL);
          ts += 10;
        }
      g_assert_true (kymo_atf_builder_write (&b, s.pid_dir, TRUE, NULL));
      kymo_atf_builder_clear (&b);
    }

  trace = kymo_test_load_path (s.pid_dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  for (guint t = 0; t < 6; t++)
    {
      g_autofree char *name = g_strdup_printf ("Thread %u", t);
      KymoTrack *track = kymo_trace_get_track (trace, find_track (trace, name, KYMO_NO_TRACK));
      const KymoSpan *spans = kymo_track_get_spans (track, &n);
      gsize expect = 2 * 3000 * (t + 1) + (t == 1);

      g_assert_cmpuint (n, ==, expect);
      if (t == 1)
        {
          /* Never returned: to the last record of any thread (thread 5's). */
          g_assert_cmpint (spans[0].start, ==, 500);
          g_assert_cmpint (spans[0].end, ==, 1000 + 5 + (3000 * 6 - 1) * 10 + 7);
          g_assert_true (kymo_span_flags (&spans[0]) & KYMO_EVENT_INCOMPLETE);
        }
    }
  warnings = kymo_trace_get_warnings (trace, &n_warnings);
  for (gsize i = 0; i < n_warnings; i++)
    if (strstr (warnings[i].message, "Thread 4: 1 RETURN record(s) without a matching CALL") != NULL)
      stray_warnings++;
  g_assert_cmpuint (stray_warnings, ==, 1);
  session_clear (&s);
}

/* Two processes, one named by its manifest and one not, each with
 * exceptions, and a thread cut short (its open calls end at the trace's
 * end, which another thread sets): the threads of a session are decoded
 * side by side and joined in order, so what the user is shown does not
 * depend on how many threads the load uses, nor which decoded what. */
/* The names, then a digest of the spans of every track with their names'
 * ids: the same for two loads only if names were interned in the same
 * order. */
static char *
spans_and_names (KymoTrace *trace)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GString) spans = g_string_new (NULL);

  for (guint id = 0; id < kymo_trace_get_n_names (trace); id++)
    g_string_append_printf (out, "name %u %s\n", id, kymo_trace_get_name (trace, id));
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);

      for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
        {
          gsize n, first;
          const KymoSpan *spans_at = kymo_track_get_depth_spans (track, d, &n, &first);

          for (gsize i = 0; i < n; i++)
            g_string_append_printf (spans, "%s %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u %x\n",
                                    kymo_track_get_name (track), d, spans_at[i].start, spans_at[i].end,
                                    kymo_span_name (&spans_at[i]), kymo_span_flags (&spans_at[i]));
        }
    }
  {
    g_autofree char *digest = g_compute_checksum_for_string (G_CHECKSUM_SHA256, spans->str, (gssize) spans->len);

    g_string_append_printf (out, "%" G_GSIZE_FORMAT " bytes of spans, sha256 %s\n", spans->len, digest);
  }
  return g_string_free (out, FALSE);
}

/* Three threads, no symbol table: main, then 30000 calls under it (their
 * depth's spans outgrow an array of their own and move into the track),
 * one left open. With @swap, the file has the second call before the
 * first, as a writer that went back in time: the match starts again in
 * time order and names the functions in the order they were first called,
 * not the order it first met them in. */
static void
write_calls (const char *pid_dir,
             gboolean    swap)
{
  g_autofree char *manifest = g_build_filename (pid_dir, "manifest.json", NULL);

  g_assert_cmpint (g_mkdir_with_parents (pid_dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (manifest, "{\"threads\":[],\"time_start_ns\":0,\"time_end_ns\":0,"
                                      "\"clock_type\":1,\"format_version\":\"2.1\"}", -1, NULL));
  for (guint thread = 0; thread < 3; thread++)
    {
      KymoAtfThreadBuilder b;
      guint64 ts = 1000;

      kymo_atf_builder_init (&b, thread, KYMO_ATF_ARCH_ARM64);
      kymo_atf_builder_add_index (&b, ts, MAIN_ID, KYMO_ATF_CALL, 1, KYMO_ATF_NO_DETAIL);
      for (guint i = 0; i < 30000; i++)
        {
          guint k = swap && i < 2 ? 1 - i : i;
          guint64 f = WORK_ID + thread * 7 + k % 40;
          guint64 at = ts + 10 + k * 10;

          kymo_atf_builder_add_index (&b, at, f, KYMO_ATF_CALL, 2, KYMO_ATF_NO_DETAIL);
          if (k != 29999)
            kymo_atf_builder_add_index (&b, at + 5, f, KYMO_ATF_RETURN, 2, KYMO_ATF_NO_DETAIL);
        }
      g_assert_true (kymo_atf_builder_write (&b, pid_dir, TRUE, NULL));
      kymo_atf_builder_clear (&b);
    }
}

static void
test_out_of_order_without_symbols (void)
{
  g_autofree char *root = g_dir_make_tmp ("kymo-atf-test-XXXXXX", NULL);
  g_autofree char *in_order = g_build_filename (root, "in-order", "pid_1", NULL);
  g_autofree char *swapped = g_build_filename (root, "swapped", "pid_1", NULL);
  static const guint thread_counts[] = { 1, 2, 7 };
  g_autofree char *expected = NULL;

  write_calls (in_order, FALSE);
  write_calls (swapped, TRUE);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KymoTrace) trace = kymo_test_load_path (in_order, "atf", &error);
    gsize n;

    g_assert_no_error (error);
    expected = spans_and_names (trace);
    kymo_track_get_spans (kymo_trace_get_track (trace, find_track (trace, "Thread 2", KYMO_NO_TRACK)), &n);
    g_assert_cmpuint (n, ==, 30001);
    /* The first function called is named first. */
    g_assert_cmpstr (span_name (trace, find_track (trace, "Thread 0", KYMO_NO_TRACK), 1, 0), ==,
                     kymo_trace_get_name (trace, kymo_trace_intern (trace, "<0x0000000100000002>")));
  }
  for (guint i = 0; i < G_N_ELEMENTS (thread_counts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = NULL;
      g_autofree char *got = NULL;

      kymo_test_set_threads (thread_counts[i]);
      trace = kymo_test_load_path (swapped, "atf", &error);
      g_assert_no_error (error);
      got = spans_and_names (trace);
      g_assert_cmpstr (got, ==, expected);
    }
  kymo_test_set_threads (0);
  kymo_test_remove_tree (root);
}

static void
test_processes_any_thread_count (void)
{
  g_autofree char *root = g_dir_make_tmp ("kymo-atf-test-XXXXXX", NULL);
  g_autofree char *named = g_build_filename (root, "pid_1", NULL);
  g_autofree char *unnamed = g_build_filename (root, "pid_2", NULL);
  g_autofree char *cut = g_build_filename (unnamed, "thread_1", "index.atf", NULL);
  KymoTestAtfShape shape = { .n_threads = 3, .events_per_thread = 6000, .symbols = TRUE,
                             .max_depth = 12, .n_functions = 150, .exception_every = 97 };
  static const guint thread_counts[] = { 1, 2, 7 };
  g_autofree char *first = NULL;
  g_autofree char *contents = NULL;
  gsize len;

  kymo_test_write_atf_session (named, &shape);
  shape.symbols = FALSE;
  shape.n_threads = 2;
  kymo_test_write_atf_session (unnamed, &shape);
  /* The footer and the last records gone, as when the writer crashed. */
  g_assert_true (g_file_get_contents (cut, &contents, &len, NULL));
  g_assert_true (g_file_set_contents (cut, contents, (gssize) (len - 64 - 32 * 333), NULL));

  for (guint i = 0; i < G_N_ELEMENTS (thread_counts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = NULL;
      g_autofree char *fingerprint = NULL;
      guint incomplete = 0;
      KymoTime start, end;

      kymo_test_set_threads (thread_counts[i]);
      trace = kymo_test_load_path (root, "atf", &error);
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      fingerprint = kymo_test_fingerprint (trace, error);
      if (first == NULL)
        first = g_steal_pointer (&fingerprint);
      else
        g_assert_cmpstr (fingerprint, ==, first);

      kymo_trace_get_time_range (trace, &start, &end);
      for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
        {
          gsize n;
          const KymoSpan *spans = kymo_track_get_spans (kymo_trace_get_track (trace, t), &n);

          for (gsize j = 0; j < n; j++)
            if (kymo_span_flags (&spans[j]) & KYMO_EVENT_INCOMPLETE)
              {
                g_assert_cmpint (spans[j].end, ==, end);
                incomplete++;
              }
        }
      g_assert_cmpuint (incomplete, >, 0);
    }
  kymo_test_set_threads (0);
  remove_tree (root);
}

static void
cancel_on_progress (double      fraction,
                    const char *message,
                    gpointer    user_data)
{
  if (g_strcmp0 (message, "Reading calls") == 0)
    g_cancellable_cancel (user_data);
}

/* Cancelled while its threads are being matched, whichever thread notices
 * it first, a load stops with the cancel error and no trace. */
static void
test_cancel_while_matching (void)
{
  g_autofree char *root = g_dir_make_tmp ("kymo-atf-test-XXXXXX", NULL);
  g_autofree char *pid_dir = g_build_filename (root, "pid_3", NULL);
  KymoTestAtfShape shape = { .n_threads = 4, .events_per_thread = 300000, .max_depth = 12, .n_functions = 100 };
  static const guint thread_counts[] = { 1, 2, 7 };

  kymo_test_write_atf_session (pid_dir, &shape);
  for (guint i = 0; i < G_N_ELEMENTS (thread_counts); i++)
    {
      KymoLoadOptions options = { .threads = thread_counts[i] };
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(KymoInput) input = kymo_input_new_for_path (root, NULL);
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(GError) error = NULL;

      g_assert_nonnull (input);
      trace = kymo_load_sync (input, &options, cancel_on_progress, cancellable, cancellable, &error);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (trace);
    }
  remove_tree (root);
}

/* The real writer's pattern: index-lane records, then detail-lane copies
 * with detail_seq and later timestamps. */
static void
test_duplicates (void)
{
  KymoAtfThreadBuilder b;
  g_autoptr(GBytes) index = NULL;
  g_autoptr(GBytes) detail = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  Session s;
  guint64 ids[] = { MAIN_ID, WORK_ID, WORK_ID, MAIN_ID };
  guint32 kinds[] = { KYMO_ATF_CALL, KYMO_ATF_CALL, KYMO_ATF_RETURN, KYMO_ATF_RETURN };
  guint32 depths[] = { 1, 2, 2, 1 };
  guint thread;
  gsize n;

  session_init (&s);
  write_manifest (&s, manifest_text);
  kymo_atf_builder_init (&b, 0, KYMO_ATF_ARCH_X86_64);
  for (guint round = 0; round < 2; round++)
    {
      guint64 base = 1000 + round * 1000;

      for (guint i = 0; i < 4; i++)
        kymo_atf_builder_add_index (&b, base + i * 100, ids[i], kinds[i], depths[i], KYMO_ATF_NO_DETAIL);
      for (guint i = 0; i < 4; i++)
        {
          guint32 seq = b.n_index;
          kymo_atf_builder_add_index (&b, base + i * 100 + 40, ids[i], kinds[i], depths[i], b.n_detail);
          kymo_atf_builder_add_detail (&b, KYMO_ATF_PAYLOAD_RING, seq, kinds[i], base + i * 100 + 40,
                                       ids[i], depths[i], NULL, NULL, 0);
        }
    }
  g_assert_true (kymo_atf_builder_write (&b, s.pid_dir, TRUE, NULL));
  kymo_atf_builder_clear (&b);

  trace = kymo_test_load_path (s.pid_dir, "atf", &error);
  g_assert_no_error (error);
  thread = find_track (trace, "Thread 0", KYMO_NO_TRACK);
  kymo_track_get_spans (kymo_trace_get_track (trace, thread), &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (span_name (trace, thread, 0, 1), ==, "main");
  g_assert_cmpint (kymo_track_get_spans (kymo_trace_get_track (trace, thread), &n)[1].start, ==, 2000);
  g_assert_cmpuint (check_links (trace, find_track (trace, KYMO_ATF_DETAIL_TRACK_NAME, thread)), ==, 8);
  session_clear (&s);
}

static void
test_detect (void)
{
  Session s;
  g_autofree char *path = NULL;
  static const char not_atf[] = "{\"name\":\"my-app\",\"version\":\"1.0\",\"threads\":4}";

  session_init (&s);
  path = g_build_filename (s.root, "manifest.json", NULL);
  g_assert_true (g_file_set_contents (path, not_atf, -1, NULL));
  {
    g_autoptr(KymoInput) input = kymo_input_new_for_path (path, NULL);
    g_assert_cmpuint (kymo_formats_lookup ("atf")->detect (input), ==, 0);
  }
  {
    g_autoptr(KymoInput) input = kymo_input_new_for_path (s.root, NULL);
    g_assert_cmpuint (kymo_formats_lookup ("atf")->detect (input), ==, 0);
  }
  {
    static const guint8 junk[] = "ATI2 but not really";
    g_autoptr(GError) error = NULL;
    g_autoptr(KymoTrace) trace = kymo_test_load_bytes (junk, sizeof junk, NULL, &error);
    g_assert_null (trace);
    g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_TRUNCATED);
  }
  session_clear (&s);
}

static void
test_sample (void)
{
  g_autofree char *path = kymo_test_sample_path ("atf/generated-ada-writer/ada_traces");
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint thread, detail;
  gsize n, n_warnings;

  if (path == NULL)
    return;
  trace = kymo_test_load_path (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kymo_trace_get_variant (trace), ==, "2.1");
  g_assert_cmpuint (find_track (trace, "Process 4242", KYMO_NO_TRACK), !=, KYMO_NO_TRACK);
  kymo_trace_get_warnings (trace, &n_warnings);
  g_assert_cmpuint (n_warnings, ==, 0);

  /* 2560 records on thread 0, 640 of them detail-lane copies: 960 calls. */
  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *name = g_strdup_printf ("Thread %u", t);
      thread = find_track (trace, name, KYMO_NO_TRACK);
      kymo_track_get_spans (kymo_trace_get_track (trace, thread), &n);
      g_assert_cmpuint (n, ==, 960);
      g_assert_cmpuint (kymo_track_get_n_depths (kymo_trace_get_track (trace, thread)), ==, 4);
    }
  thread = find_track (trace, "Thread 0", KYMO_NO_TRACK);
  g_assert_cmpstr (span_name (trace, thread, 0, 0), ==, "process_frame");
  g_assert_cmpstr (span_name (trace, thread, 2, 0), ==, "demo_alloc");
  detail = find_track (trace, KYMO_ATF_DETAIL_TRACK_NAME, thread);
  kymo_track_get_instants (kymo_trace_get_track (trace, detail), &n);
  g_assert_cmpuint (n, ==, 640);
  g_assert_cmpuint (check_links (trace, detail), ==, 640);

  {
    KymoEventRef ref = { detail, KYMO_EVENT_KIND_INSTANT, 0 };
    g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);
    JsonObject *regs = json_object_get_object_member (args, "regs");

    g_assert_cmpint (json_object_get_int_member (args, "index_seq"), ==, 960);
    g_assert_cmpstr (json_object_get_string_member (regs, "rdi"), ==, "0x0000000000001000");
    g_assert_cmpuint (strlen (json_object_get_string_member (args, "stack")), ==, 256);
  }
}

/* Threads are finished side by side once all are joined: with no symbol
 * table (every name a thread meets is its own until the join interns
 * it), calls left open, exceptions and detail records, what a user is
 * shown is the same for every thread count. */
static void
test_finish_any_thread_count (void)
{
  Session s;
  g_autofree char *expected = NULL;
  static const guint counts[] = { 1, 2, 3, 7 };

  session_init (&s);
  write_manifest (&s, "{\"threads\":[],\"time_start_ns\":0,\"time_end_ns\":0,\"clock_type\":1,"
                      "\"modules\":[],\"format_version\":\"2.1\"}");
  for (guint t = 0; t < 5; t++)
    {
      KymoAtfThreadBuilder b;
      KymoAtfRegs regs = { { 1, 2, 3, 4, 5, 6, 7, 8 }, 0x100, 0x200, 0x300 };
      guint64 open_id = G_GUINT64_CONSTANT (0x0000000300000000) + t;
      guint64 ts = 1000;

      build_basic (&b, t, KYMO_ATF_ARCH_ARM64, t % 2 == 0, KYMO_ATF_PAYLOAD_SPEC);
      /* Each thread meets functions the one before did not, first. */
      kymo_atf_builder_add_index (&b, 2000, open_id, KYMO_ATF_CALL, 1, KYMO_ATF_NO_DETAIL);
      for (guint i = 0; i < 4000; i++)
        {
          guint64 f = G_GUINT64_CONSTANT (0x0000000400000000) + (i * 7 + t * 13) % 97;

          ts = 3000 + (guint64) i * 10;
          kymo_atf_builder_add_index (&b, ts, f, KYMO_ATF_CALL, 2, KYMO_ATF_NO_DETAIL);
          if (i % 501 == 0)
            kymo_atf_builder_add_index (&b, ts + 2, f, KYMO_ATF_EXCEPTION, 2, KYMO_ATF_NO_DETAIL);
          if (i % 333 == 0)
            kymo_atf_builder_add_linked (&b, KYMO_ATF_PAYLOAD_SPEC, ts + 5, f, KYMO_ATF_RETURN, 2, &regs, NULL, 0);
          else
            kymo_atf_builder_add_index (&b, ts + 5, f, KYMO_ATF_RETURN, 2, KYMO_ATF_NO_DETAIL);
        }
      /* The open call ends where the latest thread does. */
      kymo_atf_builder_add_index (&b, ts + 10 + 100 * t, open_id, KYMO_ATF_EXCEPTION, 1, KYMO_ATF_NO_DETAIL);
      g_assert_true (kymo_atf_builder_write (&b, s.pid_dir, TRUE, NULL));
      kymo_atf_builder_clear (&b);
    }

  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = NULL;
      g_autofree char *fingerprint = NULL;

      kymo_test_set_threads (counts[i]);
      trace = kymo_test_load_path (s.pid_dir, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      fingerprint = kymo_test_fingerprint (trace, NULL);
      if (expected == NULL)
        expected = g_steal_pointer (&fingerprint);
      else
        g_assert_cmpstr (fingerprint, ==, expected);
    }
  kymo_test_set_threads (0);
  session_clear (&s);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/atf/basic-with-detail", test_basic_with_detail);
  g_test_add_func ("/atf/input-forms", test_input_forms);
  g_test_add_func ("/atf/bundle", test_bundle);
  g_test_add_func ("/atf/crashed-writer", test_crashed_writer);
  g_test_add_func ("/atf/truncated-detail", test_truncated_detail);
  g_test_add_func ("/atf/manifest-missing", test_manifest_missing);
  g_test_add_func ("/atf/manifest-bad-json", test_manifest_bad_json);
  g_test_add_func ("/atf/symbols-missing", test_symbols_missing);
  g_test_add_func ("/atf/processes-any-thread-count", test_processes_any_thread_count);
  g_test_add_func ("/atf/cancel-while-matching", test_cancel_while_matching);
  g_test_add_func ("/atf/spec-payload-arm64", test_spec_payload_arm64);
  g_test_add_func ("/atf/unbalanced", test_unbalanced);
  g_test_add_func ("/atf/parallel-finish", test_parallel_finish);
  g_test_add_func ("/atf/finish-any-thread-count", test_finish_any_thread_count);
  g_test_add_func ("/atf/duplicates", test_duplicates);
  g_test_add_func ("/atf/out-of-order-without-symbols", test_out_of_order_without_symbols);
  g_test_add_func ("/atf/detect", test_detect);
  g_test_add_func ("/atf/sample", test_sample);
  return g_test_run ();
}
