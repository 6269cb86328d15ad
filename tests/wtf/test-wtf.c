/* test-wtf.c: the Web Tracing Framework decoder
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "wtf-writer.h"

#define US 1000

enum {
  W_ZONE_CREATE = 2, W_ZONE_SET, W_ENTER, W_LEAVE, W_TRACING, W_APPEND, W_MARK,
  W_TIMESTAMP, W_RANGE_BEGIN, W_RANGE_END, W_FRAME_START, W_FRAME_END, W_BRANCH,
  W_EXTEND, W_TERMINATE, W_DISCONTINUITY, W_ALL, W_ARRAYS, W_INTERNAL, W_APPEND_GEN,
  W_INSTANT, W_UNKNOWN,
};

static const char all_sig[] =
  "bool b, int8 i8, uint8 u8, int16 i16, uint16 u16, int32 i32, uint32 u32, float32 f, "
  "ascii a, utf8 u, char c, wchar w, any j, flowId fl, time32 t, unsigned short us, long l";

static void
write_defines (WwWriter *w)
{
  ww_define (w, 1, W_ZONE_CREATE, 0, 0x28, "wtf.zone#create",
             "uint16 zoneId, ascii name, ascii type, ascii location");
  ww_define (w, 1, W_ZONE_SET, 0, 0x28, "wtf.zone#set", "uint16 zoneId");
  ww_define (w, 1, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
  ww_define (w, 1, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  ww_define (w, 1, W_TRACING, 1, 0x2C, "wtf.scope#enterTracing", NULL);
  ww_define (w, 1, W_APPEND, 0, 0x38, "wtf.scope#appendData", "ascii name, any value");
  ww_define (w, 1, W_MARK, 0, 0x28, "wtf.trace#mark", "ascii name, any value");
  ww_define (w, 1, W_TIMESTAMP, 0, 0x20, "wtf.trace#timeStamp", "ascii name, any value");
  ww_define (w, 1, W_RANGE_BEGIN, 0, 0x20, "wtf.timeRange#begin", "uint32 id, ascii name, any value");
  ww_define (w, 1, W_RANGE_END, 0, 0x20, "wtf.timeRange#end", "uint32 id");
  ww_define (w, 1, W_FRAME_START, 0, 0x08, "wtf.timing#frameStart", "uint32 number");
  ww_define (w, 1, W_FRAME_END, 0, 0x08, "wtf.timing#frameEnd", "uint32 number");
  ww_define (w, 1, W_BRANCH, 0, 0x20, "wtf.flow#branch", "flowId id, flowId parentId, ascii name, any value");
  ww_define (w, 1, W_EXTEND, 0, 0x20, "wtf.flow#extend", "flowId id, ascii name, any value");
  ww_define (w, 1, W_TERMINATE, 0, 0x20, "wtf.flow#terminate", "flowId id, any value");
  ww_define (w, 1, W_DISCONTINUITY, 0, 0x20, "wtf.trace#discontinuity", "");
  ww_define (w, 1, W_ALL, 1, 0, "my#all", all_sig);
  ww_define (w, 1, W_ARRAYS, 0, 0,  "my#arrays",
             "int8[] a8, uint8[] b8, int16[] a16, uint16[] b16, int32[] a32, uint32[] b32, "
             "float32[] af, sequence<ascii> as, bool[] ab, uint8[] nul");
  ww_define (w, 1, W_INTERNAL, 0, 0x08, "my#internal", NULL);
  ww_define (w, 1, W_APPEND_GEN, 0, 0x18, "wtf.scope#appendData_extra_int32", "int32 extra@1");
  ww_define (w, 1, W_INSTANT, 0, 0, "my#instant", "ascii label");
}

static void
write_all_args (WwWriter *w, guint32 time)
{
  ww_event (w, W_ALL, time);
  ww_int (w, WW_BOOL, 1);
  ww_int (w, WW_INT8, -5);
  ww_int (w, WW_UINT8, 250);
  ww_int (w, WW_INT16, -30000);
  ww_int (w, WW_UINT16, 60000);
  ww_int (w, WW_INT32, -2000000000);
  ww_int (w, WW_UINT32, 4000000000u);
  ww_float (w, 1.5f);
  ww_string (w, WW_ASCII, "hello");
  ww_string (w, WW_UTF8, "h\xc3\xa9llo");
  ww_int (w, WW_CHAR, 'A');
  ww_int (w, WW_WCHAR, 0x263A);
  ww_string (w, WW_ANY, "{\"k\":[1,2]}");
  ww_int (w, WW_FLOWID, 77);
  ww_int (w, WW_TIME32, 123456);
  ww_int (w, WW_UINT16, 7);
  ww_int (w, WW_INT32, -1);
}

static void
write_arrays (WwWriter *w, guint32 time)
{
  static const gint64 a8[] = { -1, 2, -3 }, b8[] = { 1, 255 }, a16[] = { -300 },
    b16[] = { 1, 2, 65535 }, a32[] = { -7, 8 }, b32[] = { 4000000000 }, af[] = { 2, -4 },
    ab[] = { 1, 0, 1, 1, 0 };
  static const char * const as[] = { "x", "yz" };

  ww_event (w, W_ARRAYS, time);
  ww_int_array (w, WW_INT8, a8, 3);
  ww_int_array (w, WW_UINT8, b8, 2);
  ww_int_array (w, WW_INT16, a16, 1);
  ww_int_array (w, WW_UINT16, b16, 3);
  ww_int_array (w, WW_INT32, a32, 2);
  ww_int_array (w, WW_UINT32, b32, 1);
  ww_int_array (w, WW_FLOAT32, af, 2);
  ww_string_array (w, as, 2);
  ww_int_array (w, WW_BOOL, ab, 5);
  ww_int_array (w, WW_UINT8, NULL, -1);
}

static void
enter (WwWriter *w, guint32 time, const char *name)
{
  ww_event (w, W_ENTER, time);
  ww_string (w, WW_ASCII, name);
}

static void
zone_set (WwWriter *w, guint32 time, guint id)
{
  ww_event (w, W_ZONE_SET, time);
  ww_int (w, WW_UINT16, id);
}

/* The same logical trace in every form; see test_model for what it shows. */
static GBytes *
build_trace (WwForm form)
{
  WwWriter *w = ww_new (form, "{\"contextType\":\"script\",\"title\":\"Test page\"}",
                        "{\"answer\":42}", 1367885827385);

  write_defines (w);
  enter (w, 100, "outer");                 /* before any zone: the default zone */
  ww_event (w, W_INSTANT, 150);
  ww_string (w, WW_ASCII, NULL);
  ww_event (w, W_LEAVE, 200);

  ww_event (w, W_ZONE_CREATE, 210);
  ww_int (w, WW_UINT16, 1);
  ww_string (w, WW_ASCII, "Main");
  ww_string (w, WW_ASCII, "script");
  ww_string (w, WW_ASCII, "main.js");
  ww_event (w, W_ZONE_CREATE, 211);
  ww_int (w, WW_UINT16, 2);
  ww_string (w, WW_ASCII, "Worker");
  ww_string (w, WW_ASCII, NULL);
  ww_string (w, WW_ASCII, NULL);
  zone_set (w, 212, 1);

  write_all_args (w, 300);                 /* a SCOPE-class event */
  ww_event (w, W_APPEND_GEN, 310);
  ww_int (w, WW_INT32, 42);
  ww_event (w, W_APPEND, 320);
  ww_string (w, WW_ASCII, "key");
  ww_string (w, WW_ANY, "{\"x\":1}");
  ww_event (w, W_TRACING, 330);
  ww_event (w, W_LEAVE, 340);
  ww_event (w, W_INTERNAL, 350);
  write_arrays (w, 360);
  ww_event (w, W_LEAVE, 400);

  if (form == WW_CHUNKED)
    {
      ww_flush_chunk (w, TRUE);
      ww_unknown_chunk (w);
    }

  zone_set (w, 410, 2);
  enter (w, 420, "w1");
  ww_event (w, W_BRANCH, 430);
  ww_int (w, WW_FLOWID, 7);
  ww_int (w, WW_FLOWID, 0);
  ww_string (w, WW_ASCII, "f");
  ww_string (w, WW_ANY, NULL);
  ww_event (w, W_LEAVE, 440);
  zone_set (w, 450, 1);
  enter (w, 460, "m2");
  ww_event (w, W_EXTEND, 470);
  ww_int (w, WW_FLOWID, 7);
  ww_string (w, WW_ASCII, "step");
  ww_string (w, WW_ANY, NULL);
  ww_event (w, W_TERMINATE, 480);
  ww_int (w, WW_FLOWID, 7);
  ww_string (w, WW_ANY, NULL);
  ww_event (w, W_LEAVE, 490);

  if (form == WW_CHUNKED)
    {
      ww_flush_chunk (w, FALSE);
      w->legacy_part = TRUE;     /* the rest in a legacy event buffer part */
    }

  ww_event (w, W_MARK, 500);
  ww_string (w, WW_ASCII, "M");
  ww_string (w, WW_ANY, "{\"a\":2}");
  ww_event (w, W_TIMESTAMP, 510);
  ww_string (w, WW_ASCII, "TS");
  ww_string (w, WW_ANY, NULL);
  ww_event (w, W_RANGE_BEGIN, 520);
  ww_int (w, WW_UINT32, 1);
  ww_string (w, WW_ASCII, "R1");
  ww_string (w, WW_ANY, NULL);
  ww_event (w, W_RANGE_BEGIN, 530);
  ww_int (w, WW_UINT32, 2);
  ww_string (w, WW_ASCII, "R2");
  ww_string (w, WW_ANY, NULL);
  ww_event (w, W_RANGE_END, 540);
  ww_int (w, WW_UINT32, 1);
  ww_event (w, W_FRAME_START, 550);
  ww_int (w, WW_UINT32, 1);
  ww_event (w, W_FRAME_END, 560);
  ww_int (w, WW_UINT32, 1);
  ww_event (w, W_DISCONTINUITY, 570);
  ww_event (w, W_RANGE_END, 580);
  ww_int (w, WW_UINT32, 2);

  /* The u32 µs clock wraps after ~71.6 minutes. */
  enter (w, 0xFFFFFF00u, "late");
  ww_event (w, W_LEAVE, 0x10);
  enter (w, 0x20, "open");                 /* never closed */
  return ww_finish (w);
}

static KymoTrace *
load (GBytes *bytes, gboolean show_internal, GError **error)
{
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "test.wtf-trace");
  KymoLoadOptions options = { .show_internal = show_internal };

  return kymo_load_sync (input, &options, NULL, NULL, NULL, error);
}

static KymoTrack *
find_track (KymoTrace *trace, const char *parent_name, const char *name)
{
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, i);
      guint parent = kymo_track_get_parent (track);

      if (g_strcmp0 (kymo_track_get_name (track), name) != 0)
        continue;
      if (parent_name == NULL && parent == KYMO_NO_TRACK)
        return track;
      if (parent_name && parent != KYMO_NO_TRACK &&
          g_strcmp0 (kymo_track_get_name (kymo_trace_get_track (trace, parent)), parent_name) == 0)
        return track;
    }
  return NULL;
}

static const KymoSpan *
find_span (KymoTrace *trace, KymoTrack *track, const char *name, guint *depth, gsize *index)
{
  gsize n;
  const KymoSpan *spans = kymo_track_get_spans (track, &n);

  for (gsize i = 0; i < n; i++)
    if (g_strcmp0 (kymo_trace_get_name (trace, kymo_span_name (&spans[i])), name) == 0)
      {
        if (depth)
          *depth = kymo_track_get_span_depth (track, i);
        if (index)
          *index = i;
        return &spans[i];
      }
  return NULL;
}

static void
check_model (WwForm form)
{
  g_autoptr(GBytes) bytes = build_trace (form);
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = load (bytes, FALSE, &error);
  KymoTrack *def, *main_track, *worker, *markers, *ranges, *frames;
  const KymoSpan *span;
  const KymoInstant *instants;
  const KymoAnnotation *notes;
  const KymoFlow *flows;
  guint depth;
  gsize n, index = 0;
  gint64 wallclock;
  static const char *variants[] = { "legacy-be", "legacy-le", "chunked" };

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_null (kymo_trace_get_stop_error (trace));
  g_assert_cmpstr (kymo_trace_get_variant (trace), ==, variants[form]);
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "context.title"), ==, "Test page");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "metadata.answer"), ==, "42");
  g_assert_true (kymo_trace_get_wallclock (trace, &wallclock));
  g_assert_cmpint (wallclock, ==, G_GINT64_CONSTANT (1367885827385) * 1000000);

  /* Zones are groups; events before any zone go to a default one. */
  def = find_track (trace, "Default", "Events");
  main_track = find_track (trace, "Main", "Events");
  worker = find_track (trace, "Worker", "Events");
  g_assert_nonnull (def);
  g_assert_nonnull (main_track);
  g_assert_nonnull (worker);
  g_assert_cmpstr (kymo_track_get_group_kind (kymo_trace_get_track (trace, kymo_track_get_parent (main_track))),
                   ==, "zone");

  span = find_span (trace, def, "outer", &depth, NULL);
  g_assert_nonnull (span);
  g_assert_cmpint (span->start, ==, 100 * US);
  g_assert_cmpint (span->end, ==, 200 * US);
  instants = kymo_track_get_instants (def, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (kymo_trace_get_name (trace, instants[0].name_flags & KYMO_NAME_MAX), ==, "my#instant");

  /* Scopes nest per zone; enterTracing is overhead. */
  span = find_span (trace, main_track, "my#all", &depth, &index);
  g_assert_nonnull (span);
  g_assert_cmpint (depth, ==, 0);
  g_assert_cmpint (span->start, ==, 300 * US);
  g_assert_cmpint (span->end, ==, 400 * US);
  {
    KymoEventRef ref = { kymo_track_get_id (main_track), KYMO_EVENT_KIND_SPAN, (guint) index };
    g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);
    JsonArray *k;

    g_assert_nonnull (args);
    g_assert_true (json_object_get_boolean_member (args, "b"));
    g_assert_cmpint (json_object_get_int_member (args, "i8"), ==, -5);
    g_assert_cmpint (json_object_get_int_member (args, "u8"), ==, 250);
    g_assert_cmpint (json_object_get_int_member (args, "i16"), ==, -30000);
    g_assert_cmpint (json_object_get_int_member (args, "u16"), ==, 60000);
    g_assert_cmpint (json_object_get_int_member (args, "i32"), ==, -2000000000);
    g_assert_cmpint (json_object_get_int_member (args, "u32"), ==, 4000000000);
    g_assert_cmpfloat (json_object_get_double_member (args, "f"), ==, 1.5);
    g_assert_cmpstr (json_object_get_string_member (args, "a"), ==, "hello");
    g_assert_cmpstr (json_object_get_string_member (args, "u"), ==, "h\xc3\xa9llo");
    g_assert_cmpstr (json_object_get_string_member (args, "c"), ==, "A");
    g_assert_cmpstr (json_object_get_string_member (args, "w"), ==, "\xe2\x98\xba");
    k = json_object_get_array_member (json_object_get_object_member (args, "j"), "k");
    g_assert_cmpint (json_array_get_length (k), ==, 2);
    g_assert_cmpint (json_object_get_int_member (args, "fl"), ==, 77);
    g_assert_cmpint (json_object_get_int_member (args, "t"), ==, 123456);
    g_assert_cmpint (json_object_get_int_member (args, "us"), ==, 7);
    g_assert_cmpint (json_object_get_int_member (args, "l"), ==, -1);
    /* Appended scope data merges into the enclosing span. */
    g_assert_cmpint (json_object_get_int_member (args, "extra"), ==, 42);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (args, "key"), "x"), ==, 1);
  }
  span = find_span (trace, main_track, "wtf.scope#enterTracing", &depth, NULL);
  g_assert_nonnull (span);
  g_assert_cmpint (depth, ==, 1);
  g_assert_cmpuint (kymo_span_flags (span), &, KYMO_EVENT_OVERHEAD);

  /* The arrays event is an instant; the internal one is hidden. */
  instants = kymo_track_get_instants (main_track, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (kymo_trace_get_name (trace, instants[0].name_flags & KYMO_NAME_MAX), ==, "my#arrays");
  {
    KymoEventRef ref = { kymo_track_get_id (main_track), KYMO_EVENT_KIND_INSTANT, 0 };
    g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);
    JsonArray *array;

    g_assert_nonnull (args);
    array = json_object_get_array_member (args, "a8");
    g_assert_cmpint (json_array_get_length (array), ==, 3);
    g_assert_cmpint (json_array_get_int_element (array, 2), ==, -3);
    array = json_object_get_array_member (args, "b16");
    g_assert_cmpint (json_array_get_int_element (array, 2), ==, 65535);
    array = json_object_get_array_member (args, "b32");
    g_assert_cmpint (json_array_get_int_element (array, 0), ==, 4000000000);
    array = json_object_get_array_member (args, "af");
    g_assert_cmpfloat (json_array_get_double_element (array, 1), ==, -4.0);
    array = json_object_get_array_member (args, "as");
    g_assert_cmpstr (json_array_get_string_element (array, 1), ==, "yz");
    array = json_object_get_array_member (args, "ab");
    g_assert_cmpint (json_array_get_length (array), ==, 5);
    g_assert_false (json_array_get_boolean_element (array, 1));
    g_assert_true (json_object_get_null_member (args, "nul"));
  }

  span = find_span (trace, worker, "w1", &depth, NULL);
  g_assert_nonnull (span);
  g_assert_cmpint (span->start, ==, 420 * US);

  /* A u32 wrap continues the clock. */
  span = find_span (trace, main_track, "late", &depth, NULL);
  g_assert_nonnull (span);
  g_assert_cmpint (span->start, ==, (gint64) 0xFFFFFF00u * US);
  g_assert_cmpint (span->end, ==, (G_GINT64_CONSTANT (0x100000000) + 0x10) * US);
  span = find_span (trace, main_track, "open", &depth, NULL);
  g_assert_nonnull (span);
  g_assert_cmpint (span->start, ==, (G_GINT64_CONSTANT (0x100000000) + 0x20) * US);
  g_assert_cmpuint (kymo_span_flags (span), &, KYMO_EVENT_INCOMPLETE);

  /* Flows: branch in the worker, extended and terminated in main. */
  flows = kymo_trace_get_flows (trace, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (flows[0].from_track, ==, kymo_track_get_id (worker));
  g_assert_cmpint (flows[0].from_ts, ==, 430 * US);
  g_assert_cmpuint (flows[0].to_track, ==, kymo_track_get_id (main_track));
  g_assert_cmpint (flows[0].to_ts, ==, 470 * US);
  g_assert_cmpint (flows[1].to_ts, ==, 480 * US);

  markers = find_track (trace, NULL, "Markers");
  g_assert_nonnull (markers);
  notes = kymo_track_get_annotations (markers, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (kymo_trace_get_name (trace, notes[0].name), ==, "M");
  g_assert_cmpstr (notes[0].text, ==, "{\"a\":2}");
  g_assert_cmpstr (kymo_trace_get_name (trace, notes[1].name), ==, "TS");
  g_assert_cmpstr (kymo_trace_get_name (trace, notes[2].name), ==, "wtf.trace#discontinuity");

  ranges = find_track (trace, NULL, "Time ranges");
  g_assert_nonnull (ranges);
  span = find_span (trace, ranges, "R1", &depth, NULL);
  g_assert_cmpint (span->end, ==, 540 * US);
  g_assert_cmpint (depth, ==, 0);
  span = find_span (trace, ranges, "R2", &depth, NULL);
  g_assert_cmpint (span->end, ==, 580 * US);
  g_assert_cmpint (depth, ==, 1);

  frames = find_track (trace, NULL, "Frames");
  g_assert_nonnull (frames);
  span = find_span (trace, frames, "Frame 1", NULL, NULL);
  g_assert_nonnull (span);
  g_assert_cmpint (span->end - span->start, ==, 10 * US);
}

static void
test_model_legacy_be (void)
{
  check_model (WW_LEGACY_BE);
}

static void
test_model_legacy_le (void)
{
  check_model (WW_LEGACY_LE);
}

static void
test_model_chunked (void)
{
  check_model (WW_CHUNKED);
}

static void
test_show_internal (void)
{
  g_autoptr(GBytes) bytes = build_trace (WW_CHUNKED);
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = load (bytes, TRUE, &error);
  KymoTrack *main_track;
  const KymoInstant *instants;
  gsize n;
  gboolean found = FALSE;

  g_assert_no_error (error);
  main_track = find_track (trace, "Main", "Events");
  instants = kymo_track_get_instants (main_track, &n);
  for (gsize i = 0; i < n; i++)
    if (g_strcmp0 (kymo_trace_get_name (trace, instants[i].name_flags & KYMO_NAME_MAX), "my#internal") == 0)
      {
        found = TRUE;
        g_assert_cmpuint (instants[i].name_flags >> 24, &, KYMO_EVENT_INTERNAL);
      }
  g_assert_true (found);
}

static JsonObject *
find_dump_line (char **lines, const char *kind, const char *name, JsonParser *parser)
{
  for (guint i = 0; lines[i]; i++)
    {
      JsonObject *object;

      if (lines[i][0] == '\0')
        continue;
      g_assert_true (json_parser_load_from_data (parser, lines[i], -1, NULL));
      object = json_node_get_object (json_parser_get_root (parser));
      if (g_strcmp0 (json_object_get_string_member (object, "kind"), kind) == 0 &&
          g_strcmp0 (json_object_get_string_member (object, "name"), name) == 0)
        return object;
    }
  return NULL;
}

static void
check_dump (WwForm form)
{
  g_autoptr(GBytes) bytes = build_trace (form);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(GStrv) lines = NULL;
  g_autofree char *text = NULL;
  JsonObject *object, *args;
  gboolean ok;
  guint n_defines = 0, n_events = 0;

  text = kymo_test_dump_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "wtf", &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      if (strstr (lines[i], "\"kind\":\"define\""))
        n_defines++;
      else if (strstr (lines[i], "\"kind\":\"event\""))
        n_events++;
    }
  g_assert_cmpuint (n_defines, ==, 21);
  g_assert_cmpuint (n_events, ==, 35);

  object = find_dump_line (lines, "define", "wtf.scope#leave", parser);
  g_assert_nonnull (object);
  g_assert_cmpint (json_object_get_int_member (object, "wire_id"), ==, W_LEAVE);
  g_assert_cmpstr (json_object_get_string_member (object, "class"), ==, "instance");
  g_assert_cmpint (json_object_get_int_member (object, "flags"), ==, 0x28);
  g_assert_true (json_object_get_null_member (object, "args"));

  object = find_dump_line (lines, "event", "my#all", parser);
  g_assert_nonnull (object);
  g_assert_cmpint (json_object_get_int_member (object, "ts"), ==, 300);
  args = json_object_get_object_member (object, "args");
  g_assert_cmpint (json_object_get_int_member (args, "u32"), ==, 4000000000);
  g_assert_cmpint (json_object_get_int_member (args, "t"), ==, 123456);
  g_assert_cmpstr (json_object_get_string_member (args, "w"), ==, "\xe2\x98\xba");
  g_assert_cmpfloat (json_object_get_double_member (args, "f"), ==, 1.5);
  g_assert_nonnull (json_object_get_object_member (args, "j"));

  object = find_dump_line (lines, "event", "my#instant", parser);
  g_assert_true (json_object_get_null_member (json_object_get_object_member (object, "args"), "label"));

  /* The raw time is printed, wrapped as stored. */
  object = find_dump_line (lines, "event", "wtf.scope#enter", parser);
  g_assert_nonnull (object);
}

static void
test_dump_legacy_be (void)
{
  check_dump (WW_LEGACY_BE);
}

static void
test_dump_legacy_le (void)
{
  check_dump (WW_LEGACY_LE);
}

static void
test_dump_chunked (void)
{
  check_dump (WW_CHUNKED);
}

/* An argument type nobody knows: the event cannot be sized, so decoding
 * stops there and keeps what came before. */
static void
test_unknown_type (void)
{
  WwWriter *w = ww_new (WW_LEGACY_BE, "{}", NULL, 0);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  const GError *stop;
  gsize offset, n;
  g_autofree char *expected = NULL;

  ww_define (w, 1, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
  ww_define (w, 1, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  ww_define (w, 1, W_UNKNOWN, 0, 0, "my#odd", "int64 big");
  enter (w, 10, "kept");
  ww_event (w, W_LEAVE, 20);
  offset = w->file->len + w->events->len;
  ww_event (w, W_UNKNOWN, 30);
  ww_put (w, 1, 4);
  ww_put (w, 2, 4);
  enter (w, 40, "lost");
  bytes = ww_finish (w);

  trace = load (bytes, FALSE, &error);
  g_assert_no_error (error);
  stop = kymo_trace_get_stop_error (trace);
  g_assert_nonnull (stop);
  g_assert_error (stop, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT);
  expected = g_strdup_printf ("offset %" G_GSIZE_FORMAT ":", offset);
  g_assert_nonnull (strstr (stop->message, expected));
  kymo_track_get_spans (find_track (trace, "Default", "Events"), &n);
  g_assert_cmpuint (n, ==, 1);
}

static void
test_undefined_wire_id (void)
{
  WwWriter *w = ww_new (WW_CHUNKED, "{}", NULL, 0);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gboolean ok;

  ww_define (w, 1, W_INSTANT, 0, 0, "my#instant", "ascii label");
  ww_event (w, W_INSTANT, 5);
  ww_string (w, WW_ASCII, "fine");
  ww_event (w, 999, 6);
  bytes = ww_finish (w);
  text = kymo_test_dump_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "wtf", &ok, &error);
  g_assert_false (ok);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT);
  g_assert_nonnull (strstr (text, "\"label\":\"fine\""));
}

static void
test_truncation (void)
{
  for (WwForm form = WW_LEGACY_BE; form <= WW_CHUNKED; form++)
    {
      g_autoptr(GBytes) bytes = build_trace (form);
      gsize size = g_bytes_get_size (bytes);
      guint clean = kymo_test_every_prefix (g_bytes_get_data (bytes, NULL), size, "wtf", 1);

      /* Legacy files end wherever an event ends; chunked ones at chunk ends. */
      g_assert_cmpuint (clean, >=, 2);
    }
}

static void
test_detect (void)
{
  g_autoptr(GBytes) be = build_trace (WW_LEGACY_BE);
  g_autoptr(GBytes) le = build_trace (WW_LEGACY_LE);
  g_autoptr(GBytes) ch = build_trace (WW_CHUNKED);
  GBytes *all[] = { be, le, ch };

  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      g_autoptr(KymoInput) input = kymo_input_new_for_bytes (all[i], "x.bin");
      const KymoFormat *format = kymo_formats_detect (input);
      g_assert_nonnull (format);
      g_assert_cmpstr (format->name, ==, "wtf");
    }
}

/* An independent walk of a legacy big-endian file: counts the events and
 * the defines without Kymo's decoder. */
static gboolean
count_legacy (const guint8 *d, gsize size, guint *n_events, guint *n_defines, guint *n_types)
{
  g_autoptr(GHashTable) types = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree gint *sizes = g_new (gint, 65536 * 24);  /* per wire id and argument */
  g_autofree guint *n_args = g_new0 (guint, 65536);
  gsize p = 12, len;

#define BE16(q) ((guint) d[q] << 8 | d[(q) + 1])
#define BE32(q) ((guint32) d[q] << 24 | (guint32) d[(q) + 1] << 16 | (guint32) d[(q) + 2] << 8 | d[(q) + 3])
  /* context, flags + timebase, metadata */
  len = BE16 (p);
  p += len ? 4 + BE16 (p + 2) : 2;
  p += 12;
  len = BE16 (p);
  p += len ? 4 + BE16 (p + 2) : 2;

  *n_events = *n_defines = 0;
  n_args[1] = 5;
  sizes[24 + 0] = 2; sizes[24 + 1] = 2; sizes[24 + 2] = 4; sizes[24 + 3] = -1; sizes[24 + 4] = -1;
  while (p + 6 <= size)
    {
      guint wire = BE16 (p);
      gsize start;

      p += 6;
      start = p;
      for (guint a = 0; a < n_args[wire]; a++)
        {
          gint s = sizes[wire * 24 + a];
          if (s > 0)
            p += s;
          else if (s == -1)
            p += 2 + BE16 (p);
          else
            p += BE16 (p) ? 4 + BE16 (p + 2) : 2;
        }
      if (wire == 1)
        {
          guint id = BE16 (start);
          gsize q = start + 8 + 2 + BE16 (start + 8);
          g_autofree char *sig = g_strndup ((const char *) d + q + 2, BE16 (q));
          g_auto(GStrv) parts = g_strsplit (sig, ",", -1);

          (*n_defines)++;
          g_hash_table_add (types, g_strndup ((const char *) d + start + 10, BE16 (start + 8)));
          n_args[id] = 0;
          for (guint i = 0; sig[0] && parts[i]; i++)
            {
              g_autofree char *t = g_strstrip (g_strdup (parts[i]));

              g_assert_cmpuint (n_args[id], <, 24);
              *strrchr (t, ' ') = '\0';
              g_assert_null (strchr (t, '['));
              sizes[id * 24 + n_args[id]++] =
                g_str_has_suffix (t, "int8") || g_str_equal (t, "bool") ? 1 :
                g_str_has_suffix (t, "int16") ? 2 :
                g_str_equal (t, "ascii") ? -1 :
                g_str_equal (t, "utf8") || g_str_equal (t, "any") ? -2 : 4;
            }
        }
      else
        (*n_events)++;
    }
#undef BE16
#undef BE32
  *n_types = g_hash_table_size (types);
  return p == size;
}

static void
test_sample_blk_client (void)
{
  g_autofree char *path = kymo_test_sample_path ("wtf/blk-client.wtf-trace");
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GMappedFile) file = NULL;
  g_autofree char *dump = NULL;
  guint n_events, n_defines, n_types, dumped_events = 0, dumped_defines = 0;
  gboolean ok;

  if (path == NULL)
    return;
  file = g_mapped_file_new (path, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (count_legacy ((const guint8 *) g_mapped_file_get_contents (file),
                               g_mapped_file_get_length (file), &n_events, &n_defines, &n_types));
  /* SOURCES.md: 458,446 events (defines included) and 137 event types
   * (distinct names: some wire ids are defined more than once). */
  g_assert_cmpuint (n_events + n_defines, ==, 458446);
  g_assert_cmpuint (n_types, ==, 137);

  dump = kymo_test_dump_bytes ((const guint8 *) g_mapped_file_get_contents (file),
                               g_mapped_file_get_length (file), "wtf", &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  /* Line by line (strstr over the whole text is quadratic under ASan). */
  for (const char *p = dump; *p; )
    {
      const char *nl = strchr (p, '\n');

      if (g_str_has_prefix (p, "{\"kind\":\"event\""))
        dumped_events++;
      else if (g_str_has_prefix (p, "{\"kind\":\"define\""))
        dumped_defines++;
      if (nl == NULL)
        break;
      p = nl + 1;
    }
  g_assert_cmpuint (dumped_events, ==, n_events);
  g_assert_cmpuint (dumped_defines, ==, n_defines);

  trace = kymo_test_load_path (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  g_assert_cmpstr (kymo_trace_get_variant (trace), ==, "legacy-be");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "context.title"), ==, "BLK");
}

static void
check_sample_opens (const char *relative, const char *variant)
{
  g_autofree char *path = kymo_test_sample_path (relative);
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  guint64 spans, instants, samples, annotations;

  if (path == NULL)
    return;
  trace = kymo_test_load_path (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  g_assert_cmpstr (kymo_trace_get_variant (trace), ==, variant);
  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  g_assert_cmpuint (spans, >, 0);
}

static void
test_sample_blk_server (void)
{
  check_sample_opens ("wtf/blk-server.wtf-trace", "legacy-be");
}

static void
test_sample_example (void)
{
  g_autofree char *path = kymo_test_sample_path ("wtf/generated-cpp-bindings/example.wtf-trace");
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autofree char *contents = NULL;
  gsize size;

  if (path == NULL)
    return;
  check_sample_opens ("wtf/generated-cpp-bindings/example.wtf-trace", "chunked");
  trace = kymo_test_load_path (path, NULL, &error);
  /* C++ zones are named "N:Thread". */
  g_assert_nonnull (find_track (trace, "0:WorkerA", "Events"));
  /* WTF_APPEND_SCOPE data shows with the enclosing Example#Frame span. */
  {
    KymoTrack *track = find_track (trace, "0:WorkerA", "Events");
    gsize index = 0;
    KymoEventRef ref;
    g_autoptr(JsonObject) args = NULL;

    g_assert_nonnull (track);
    g_assert_nonnull (find_span (trace, track, "Example#Frame", NULL, &index));
    ref = (KymoEventRef) { kymo_track_get_id (track), KYMO_EVENT_KIND_SPAN, (guint) index };
    args = kymo_trace_describe_event (trace, &ref);
    g_assert_nonnull (args);
    g_assert_true (json_object_has_member (args, "n"));
    g_assert_true (json_object_has_member (args, "frameName"));
  }
  g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
  kymo_test_every_prefix ((const guint8 *) contents, size, "wtf", 7);
}

static void
test_sample_torture (void)
{
  check_sample_opens ("wtf/generated-cpp-bindings/tmp_threaded_torture_test_streamed.wtf-trace", "chunked");
}

static int
run_cli (const char *command, const char *path)
{
  const char *cli = g_getenv ("KYMO_CLI");
  const char *argv[] = { cli, command, path, NULL };
  int status = -1;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL,
                               G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, NULL));
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

/* CLI.md: 0 decoded whole, 1 stopped at damage, 2 not a trace. */
static void
test_cli_exit_status (void)
{
  const char *cli = g_getenv ("KYMO_CLI");
  g_autoptr(GBytes) bytes = build_trace (WW_CHUNKED);
  g_autofree char *dir = NULL, *whole = NULL, *cut = NULL, *junk = NULL;

  if (cli == NULL || !g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("kymo-cli is not built");
      return;
    }
  dir = g_dir_make_tmp ("kymo-wtf-XXXXXX", NULL);
  whole = g_build_filename (dir, "whole.wtf-trace", NULL);
  cut = g_build_filename (dir, "cut.wtf-trace", NULL);
  junk = g_build_filename (dir, "junk.wtf-trace", NULL);
  g_assert_true (g_file_set_contents (whole, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL));
  g_assert_true (g_file_set_contents (cut, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes) - 3, NULL));
  g_assert_true (g_file_set_contents (junk, "not a trace at all", -1, NULL));

  g_assert_cmpint (run_cli ("dump", whole), ==, 0);
  g_assert_cmpint (run_cli ("info", whole), ==, 0);
  g_assert_cmpint (run_cli ("dump", cut), ==, 1);
  g_assert_cmpint (run_cli ("dump", junk), ==, 2);

  g_unlink (whole);
  g_unlink (cut);
  g_unlink (junk);
  g_rmdir (dir);
}

/* `replay-wtf`'s corpus comes from here: `test-wtf --write-corpus DIR`. */
static int
write_corpus (const char *dir)
{
  for (WwForm form = WW_LEGACY_BE; form <= WW_CHUNKED; form++)
    {
      g_autoptr(GBytes) bytes = build_trace (form);
      g_autofree char *name = g_strdup_printf ("%s/trace-%u.wtf-trace", dir, form);
      if (!g_file_set_contents (name, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), NULL))
        return 1;
    }
  return 0;
}

int
main (int argc, char *argv[])
{
  if (argc == 3 && g_str_equal (argv[1], "--write-corpus"))
    return write_corpus (argv[2]);

  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/wtf/model/legacy-be", test_model_legacy_be);
  g_test_add_func ("/wtf/model/legacy-le", test_model_legacy_le);
  g_test_add_func ("/wtf/model/chunked", test_model_chunked);
  g_test_add_func ("/wtf/model/show-internal", test_show_internal);
  g_test_add_func ("/wtf/dump/legacy-be", test_dump_legacy_be);
  g_test_add_func ("/wtf/dump/legacy-le", test_dump_legacy_le);
  g_test_add_func ("/wtf/dump/chunked", test_dump_chunked);
  g_test_add_func ("/wtf/errors/unknown-type", test_unknown_type);
  g_test_add_func ("/wtf/errors/undefined-wire-id", test_undefined_wire_id);
  g_test_add_func ("/wtf/errors/truncation", test_truncation);
  g_test_add_func ("/wtf/detect", test_detect);
  g_test_add_func ("/wtf/cli/exit-status", test_cli_exit_status);
  g_test_add_func ("/wtf/samples/blk-client", test_sample_blk_client);
  g_test_add_func ("/wtf/samples/blk-server", test_sample_blk_server);
  g_test_add_func ("/wtf/samples/example", test_sample_example);
  g_test_add_func ("/wtf/samples/torture", test_sample_torture);
  return g_test_run ();
}
