/* test-tband.c: Tonbandgerät streams as a user loads and dumps them
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "tband/kymo-tband-cobs.h"
#include "tband/kymo-tband-events.h"
#include "tband/kymo-tband-load.h"
#include "tband/kymo-tband-model.h"

#define SAMPLE_FRAMES 3231

/* Building streams */

static void
add_event (GByteArray *out,
           guint       id,
           guint64     ts,
           guint64     a,
           guint64     b,
           const char *str)
{
  KymoTbandEvent event = { 0 };

  event.id = id;
  event.ts = ts;
  event.v[0].u = a;
  event.v[1].u = b;
  event.str = (const guint8 *) str;
  event.str_len = str ? strlen (str) : 0;
  kymo_tband_event_encode (out, &event);
}

static void
add_raw_frame (GByteArray   *out,
               const guint8 *payload,
               gsize         len)
{
  gsize old = out->len;

  g_byte_array_set_size (out, old + kymo_tband_cobs_max_encoded (len));
  g_byte_array_set_size (out, old + kymo_tband_cobs_encode (payload, len, out->data + old));
}

static KymoTrace *
load_mode (const guint8  *data,
           gsize          size,
           const char    *mode,
           GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "test-input");
  KymoLoadOptions options = { .format = "tband", .tband_mode = mode };

  return kymo_load_sync (input, &options, NULL, NULL, NULL, error);
}

static GPtrArray *
parse_lines (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *objects = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;
      JsonNode *node;

      if (lines[i][0] == '\0')
        continue;
      node = json_from_string (lines[i], &error);
      g_assert_no_error (error);
      g_assert_true (JSON_NODE_HOLDS_OBJECT (node));
      g_ptr_array_add (objects, node);
    }
  return objects;
}

static JsonObject *
line_object (GPtrArray *lines,
             guint      i)
{
  return json_node_get_object (g_ptr_array_index (lines, i));
}

/* Finds a track by its path of names from the top ("Core 0/CPU"). */
static KymoTrack *
find_track (KymoTrace  *trace,
            const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  guint parent = KYMO_NO_TRACK;
  KymoTrack *found = NULL;

  for (guint p = 0; parts[p] != NULL; p++)
    {
      found = NULL;
      for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
        {
          KymoTrack *track = kymo_trace_get_track (trace, t);

          if (kymo_track_get_parent (track) == parent &&
              g_strcmp0 (kymo_track_get_name (track), parts[p]) == 0)
            {
              found = track;
              break;
            }
        }
      if (found == NULL)
        return NULL;
      parent = kymo_track_get_id (found);
    }
  return found;
}

static gboolean
has_warning (KymoTrace  *trace,
             const char *needle)
{
  gsize n;
  const KymoWarning *warnings = kymo_trace_get_warnings (trace, &n);

  for (gsize i = 0; i < n; i++)
    if (strstr (warnings[i].message, needle) != NULL)
      return TRUE;
  return FALSE;
}

static void
assert_span (KymoTrace  *trace,
             KymoTrack  *track,
             gsize       index,
             const char *name,
             KymoTime    start,
             KymoTime    end)
{
  gsize n;
  const KymoSpan *spans = kymo_track_get_spans (track, &n);

  g_assert_cmpuint (index, <, n);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[index])), ==, name);
  g_assert_cmpint (spans[index].start, ==, start);
  g_assert_cmpint (spans[index].end, ==, end);
}

/* Every event id, hand-built */

static void
fill_event (KymoTbandEvent *event,
            guint           id,
            char           *str)
{
  const KymoTbandEventInfo *info = kymo_tband_event_info (id);

  memset (event, 0, sizeof *event);
  event->id = id;
  event->ts = 1000 + id;
  for (guint f = 0; f < info->n_fields; f++)
    {
      switch (info->fields[f].type)
        {
        case KYMO_TBAND_U8:
          event->v[f].u = 3;
          break;
        case KYMO_TBAND_U32:
          /* core_id must stay a plausible core. */
          event->v[f].u = id == KYMO_TBAND_CORE_ID ? 1 : 100000 + id * 7 + f;
          break;
        case KYMO_TBAND_U64:
          event->v[f].u = 5;
          break;
        case KYMO_TBAND_S64:
          event->v[f].s = -(gint64) id * 1000;
          break;
        case KYMO_TBAND_STR:
          g_snprintf (str, 32, "text-%02x", id);
          event->str = (const guint8 *) str;
          event->str_len = strlen (str);
          break;
        default:
          g_assert_not_reached ();
        }
    }
}

static void
test_every_event_id (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autofree char *text = NULL;
  guint n_ids = 0, line = 0;
  gboolean ok;
  char str[32];

  for (guint id = 0; id < 256; id++)
    {
      KymoTbandEvent event;

      if (kymo_tband_event_info (id) == NULL)
        continue;
      fill_event (&event, id, str);
      kymo_tband_event_encode (stream, &event);
      n_ids++;
    }
  /* 12 base ids, and 35 FreeRTOS ids (0x54-0x70, 0x7A-0x7F). */
  g_assert_cmpuint (n_ids, ==, 12 + 35);

  text = kymo_test_dump_bytes (stream->data, stream->len, "tband", &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  lines = parse_lines (text);
  g_assert_cmpuint (lines->len, ==, n_ids);

  for (guint id = 0; id < 256; id++)
    {
      const KymoTbandEventInfo *info = kymo_tband_event_info (id);
      KymoTbandEvent event;
      JsonObject *object, *fields;

      if (info == NULL)
        continue;
      fill_event (&event, id, str);
      object = line_object (lines, line++);
      g_assert_cmpstr (json_object_get_string_member (object, "kind"), ==, "event");
      g_assert_cmpint (json_object_get_int_member (object, "id"), ==, id);
      g_assert_cmpstr (json_object_get_string_member (object, "name"), ==, info->name);
      /* After the core_id event everything belongs to core 1. */
      g_assert_cmpint (json_object_get_int_member (object, "core"), ==, 1);
      g_assert_cmpint (json_object_has_member (object, "ts"), ==, info->has_ts);
      if (info->has_ts)
        g_assert_cmpint (json_object_get_int_member (object, "ts"), ==, 1000 + id);
      fields = json_object_get_object_member (object, "fields");
      g_assert_cmpuint (json_object_get_size (fields), ==, info->n_fields);
      for (guint f = 0; f < info->n_fields; f++)
        {
          const char *name = info->fields[f].name;

          if (info->fields[f].type == KYMO_TBAND_STR)
            g_assert_cmpstr (json_object_get_string_member (fields, name), ==, str);
          else if (info->fields[f].type == KYMO_TBAND_S64)
            g_assert_cmpint (json_object_get_int_member (fields, name), ==, event.v[f].s);
          else
            g_assert_cmpint (json_object_get_int_member (fields, name), ==, (gint64) event.v[f].u);
        }
    }

  /* In auto mode the FreeRTOS ids make it a FreeRTOS trace. */
  trace = kymo_test_load_bytes (stream->data, stream->len, "tband", &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpstr (kymo_trace_get_variant (trace), ==, "freertos");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "invalid_frames"), ==, "0");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "cores"), ==, "2");
}

static void
test_field_limits (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *long_msg = g_strnfill (600, 'm');
  KymoTbandEvent event = { 0 };
  JsonObject *fields;
  gboolean ok;

  /* Negative zero is INT64_MIN. */
  add_raw_frame (stream, (const guint8 *) "\x0b\x01\x02\x01", 4);
  event.id = KYMO_TBAND_VALMARKER;
  event.ts = G_MAXUINT64;
  event.v[0].u = G_MAXUINT32;
  event.v[1].s = G_MAXINT64;
  kymo_tband_event_encode (stream, &event);
  /* A message longer than one COBS block (0xFF codes inside). */
  add_event (stream, KYMO_TBAND_EVTMARKER, 7, 1, 0, long_msg);
  g_assert_nonnull (memchr (stream->data, 0xFF, stream->len));

  text = kymo_test_dump_bytes (stream->data, stream->len, "tband", &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  lines = parse_lines (text);
  g_assert_cmpuint (lines->len, ==, 3);
  fields = json_object_get_object_member (line_object (lines, 0), "fields");
  g_assert_cmpint (json_object_get_int_member (fields, "val"), ==, G_MININT64);
  g_assert_true (strstr (text, "\"ts\":18446744073709551615") != NULL);
  g_assert_true (strstr (text, "\"valmarker_id\":4294967295") != NULL);
  fields = json_object_get_object_member (line_object (lines, 1), "fields");
  g_assert_cmpint (json_object_get_int_member (fields, "val"), ==, G_MAXINT64);
  fields = json_object_get_object_member (line_object (lines, 2), "fields");
  g_assert_cmpstr (json_object_get_string_member (fields, "msg"), ==, long_msg);
}

/* Damage */

static void
test_bad_frames_in_the_middle (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autofree char *text = NULL;
  guint64 offsets[5];
  guint n_bad = 0, n_events = 0;
  KymoTrack *marker;
  gsize n;
  gboolean ok;

  add_event (stream, KYMO_TBAND_EVTMARKER_NAME, 0, 1, 0, "Beat");
  add_event (stream, KYMO_TBAND_EVTMARKER, 1, 1, 0, "a");
  offsets[0] = stream->len;     /* a block that runs past the frame */
  g_byte_array_append (stream, (const guint8 *) "\x09\x07\x01\x00", 4);
  add_event (stream, KYMO_TBAND_EVTMARKER, 2, 1, 0, "b");
  offsets[1] = stream->len;     /* an id nobody defined */
  add_raw_frame (stream, (const guint8 *) "\x30\x05\x01", 3);
  add_event (stream, KYMO_TBAND_EVTMARKER, 3, 1, 0, "c");
  offsets[2] = stream->len;     /* bytes left over after isr_enter */
  add_raw_frame (stream, (const guint8 *) "\x04\x05\x01\x07", 4);
  add_event (stream, KYMO_TBAND_EVTMARKER, 4, 1, 0, "d");
  offsets[3] = stream->len;     /* a varint cut by the end of the frame */
  add_raw_frame (stream, (const guint8 *) "\x0b\x05\x01\x80", 4);
  add_event (stream, KYMO_TBAND_EVTMARKER, 5, 1, 0, "e");
  g_byte_array_append (stream, (const guint8 *) "\x00\x00", 2);   /* empty frames: silent */
  add_event (stream, KYMO_TBAND_EVTMARKER, 6, 1, 0, "f");
  offsets[4] = stream->len;     /* a frame holding nothing */
  g_byte_array_append (stream, (const guint8 *) "\x01\x00", 2);
  add_event (stream, KYMO_TBAND_EVTMARKER, 7, 1, 0, "g");

  text = kymo_test_dump_bytes (stream->data, stream->len, "tband", &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  lines = parse_lines (text);
  for (guint i = 0; i < lines->len; i++)
    {
      JsonObject *object = line_object (lines, i);

      if (g_str_equal (json_object_get_string_member (object, "kind"), "invalid"))
        {
          g_assert_cmpuint (n_bad, <, G_N_ELEMENTS (offsets));
          g_assert_cmpint (json_object_get_int_member (object, "offset"), ==, offsets[n_bad]);
          g_assert_true (strlen (json_object_get_string_member (object, "reason")) > 0);
          n_bad++;
        }
      else
        n_events++;
    }
  g_assert_cmpuint (n_bad, ==, 5);
  g_assert_cmpuint (n_events, ==, 8);

  trace = kymo_test_load_bytes (stream->data, stream->len, "tband", &error);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  marker = find_track (trace, "Beat");
  g_assert_nonnull (marker);
  kymo_track_get_instants (marker, &n);
  g_assert_cmpuint (n, ==, 7);
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "invalid_frames"), ==, "5");
  g_assert_true (has_warning (trace, "invalid frame"));
  /* Bad frames are marked on the core's lane too. */
  g_assert_nonnull (find_track (trace, "Core 0/Warnings"));
}

static void
test_unfinished_frame (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autofree char *text = NULL;
  g_autofree char *expect = NULL;
  gsize cut, n;
  gboolean ok;

  add_event (stream, KYMO_TBAND_EVTMARKER, 1, 1, 0, "a");
  add_event (stream, KYMO_TBAND_EVTMARKER, 2, 1, 0, "b");
  cut = stream->len;
  add_event (stream, KYMO_TBAND_EVTMARKER, 3, 1, 0, "c");
  g_byte_array_set_size (stream, stream->len - 1);

  text = kymo_test_dump_bytes (stream->data, stream->len, "tband", &ok, &error);
  g_assert_false (ok);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_TRUNCATED);
  expect = g_strdup_printf ("offset %" G_GSIZE_FORMAT ":", cut);
  g_assert_nonnull (strstr (error->message, expect));
  {
    g_autoptr(GPtrArray) lines = parse_lines (text);
    g_assert_cmpuint (lines->len, ==, 2);
  }
  g_clear_error (&error);

  trace = kymo_test_load_bytes (stream->data, stream->len, "tband", &error);
  g_assert_no_error (error);
  g_assert_nonnull (kymo_trace_get_stop_error (trace));
  kymo_track_get_instants (find_track (trace, "Marker #1"), &n);
  g_assert_cmpuint (n, ==, 2);
}

static void
test_modes (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) bare = NULL;
  g_autoptr(KymoTrace) rtos = NULL;
  g_autoptr(KymoTrace) bad = NULL;

  add_event (stream, KYMO_TBAND_ISR_ENTER, 1, 2, 0, NULL);
  add_event (stream, KYMO_TBAND_ISR_EXIT, 2, 2, 0, NULL);
  {
    g_autoptr(KymoTrace) trace = load_mode (stream->data, stream->len, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (kymo_trace_get_variant (trace), ==, "bare-metal");
  }

  add_event (stream, KYMO_TBAND_TASK_SWITCHED_IN, 3, 1, 0, NULL);
  bare = load_mode (stream->data, stream->len, "bare-metal", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kymo_trace_get_variant (bare), ==, "bare-metal");
  g_assert_cmpstr (kymo_trace_get_metadata (bare, "invalid_frames"), ==, "1");
  g_assert_null (find_track (bare, "Core 0/CPU"));

  rtos = load_mode (stream->data, stream->len, "freertos", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kymo_trace_get_variant (rtos), ==, "freertos");
  g_assert_nonnull (find_track (rtos, "Core 0/CPU"));

  bad = load_mode (stream->data, stream->len, "linux", &error);
  g_assert_null (bad);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNSUPPORTED);
}

/* The model */

static GByteArray *
scenario (void)
{
  GByteArray *s = g_byte_array_new ();

  add_event (s, KYMO_TBAND_TS_RESOLUTION_NS, 0, 10, 0, NULL);
  add_event (s, KYMO_TBAND_TASK_NAME, 0, 1, 0, "A");
  add_event (s, KYMO_TBAND_TASK_NAME, 0, 2, 0, "old name");
  add_event (s, KYMO_TBAND_TASK_NAME, 0, 2, 0, "B");   /* the last name wins */
  add_event (s, KYMO_TBAND_TASK_NAME, 0, 3, 0, "IDLE");
  add_event (s, KYMO_TBAND_TASK_IS_IDLE_TASK, 0, 3, 0, NULL);
  add_event (s, KYMO_TBAND_QUEUE_NAME, 0, 7, 0, "lock");
  add_event (s, KYMO_TBAND_QUEUE_KIND, 0, 7, 3, NULL);
  add_event (s, KYMO_TBAND_QUEUE_NAME, 0, 8, 0, "jobs");
  add_event (s, KYMO_TBAND_ISR_NAME, 0, 5, 0, "UART");
  add_event (s, KYMO_TBAND_EVTMARKER_NAME, 0, 9, 0, "Phase");
  add_event (s, KYMO_TBAND_VALMARKER_NAME, 0, 4, 0, "Temp");
  add_event (s, KYMO_TBAND_TASK_EVTMARKER_NAME, 0, 1, 2, "B work");

  add_event (s, KYMO_TBAND_TASK_PRIORITY_SET, 1, 1, 3, NULL);
  add_event (s, KYMO_TBAND_TASK_PRIORITY_SET, 1, 2, 5, NULL);
  add_event (s, KYMO_TBAND_TASK_PRIORITY_SET, 1, 3, 0, NULL);
  add_event (s, KYMO_TBAND_TASK_SWITCHED_IN, 2, 1, 0, NULL);
  add_event (s, KYMO_TBAND_QUEUE_RECEIVE, 3, 7, 0, NULL);        /* A takes the mutex */
  add_event (s, KYMO_TBAND_CURTASK_DELAY, 4, 10, 0, NULL);
  add_event (s, KYMO_TBAND_TASK_SWITCHED_IN, 5, 2, 0, NULL);
  add_event (s, KYMO_TBAND_ISR_ENTER, 6, 5, 0, NULL);
  add_event (s, KYMO_TBAND_ISR_ENTER, 7, 6, 0, NULL);
  add_event (s, KYMO_TBAND_ISR_EXIT, 8, 6, 0, NULL);
  add_event (s, KYMO_TBAND_ISR_EXIT, 9, 5, 0, NULL);
  add_event (s, KYMO_TBAND_TASK_TO_RDY_STATE, 10, 1, 0, NULL);
  add_event (s, KYMO_TBAND_EVTMARKER_BEGIN, 11, 9, 0, "work");
  add_event (s, KYMO_TBAND_EVTMARKER, 12, 9, 0, "");
  add_event (s, KYMO_TBAND_EVTMARKER_END, 13, 9, 0, NULL);
  {
    KymoTbandEvent event = { .id = KYMO_TBAND_VALMARKER, .ts = 14 };

    event.v[0].u = 4;
    event.v[1].s = -5;
    kymo_tband_event_encode (s, &event);
  }
  add_event (s, KYMO_TBAND_TASK_EVTMARKER_BEGIN, 14, 1, 0, "step");
  add_event (s, KYMO_TBAND_TASK_EVTMARKER_END, 15, 1, 0, NULL);
  add_event (s, KYMO_TBAND_QUEUE_SEND, 15, 8, 1, NULL);
  add_event (s, KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_RECEIVE, 15, 7, 100, NULL);
  add_event (s, KYMO_TBAND_TASK_SWITCHED_IN, 16, 1, 0, NULL);
  add_event (s, KYMO_TBAND_QUEUE_SEND, 17, 7, 1, NULL);          /* A gives it back */
  add_event (s, KYMO_TBAND_DROPPED_EVT_CNT, 18, 3, 0, NULL);
  add_event (s, KYMO_TBAND_TASK_SUSPENDED, 19, 2, 0, NULL);
  add_event (s, KYMO_TBAND_TASK_SWITCHED_IN, 20, 3, 0, NULL);
  add_event (s, KYMO_TBAND_QUEUE_CUR_LENGTH, 19, 8, 0, NULL);    /* goes back in time: kept */
  return s;
}

static void
test_model (void)
{
  g_autoptr(GByteArray) s = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  KymoTrack *track;
  const KymoInstant *instants;
  const KymoSample *samples;
  const guint *roots;
  guint n_roots;
  gsize n;
  gint64 key_a, key_b, key_idle;

  s = scenario ();
  trace = kymo_test_load_bytes (s->data, s->len, "tband", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kymo_trace_get_variant (trace), ==, "freertos");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "ts_resolution_ns"), ==, "10");

  /* The CPU lane: who runs, in ns (ticks × 10). */
  track = find_track (trace, "Core 0/CPU");
  g_assert_nonnull (track);
  kymo_track_get_spans (track, &n);
  g_assert_cmpuint (n, ==, 4);
  assert_span (trace, track, 0, "A", 20, 50);
  assert_span (trace, track, 1, "B", 50, 160);
  assert_span (trace, track, 2, "A", 160, 200);
  assert_span (trace, track, 3, "IDLE", 200, 200);

  /* Task states, SystemView style. */
  track = find_track (trace, "A/State");
  g_assert_nonnull (track);
  kymo_track_get_spans (track, &n);
  g_assert_cmpuint (n, ==, 5);
  assert_span (trace, track, 0, "running", 20, 50);
  assert_span (trace, track, 1, "delayed", 50, 100);
  assert_span (trace, track, 2, "ready", 100, 160);
  assert_span (trace, track, 3, "running", 160, 200);
  assert_span (trace, track, 4, "ready", 200, 200);
  g_assert_true (kymo_span_flags (&kymo_track_get_spans (track, &n)[0]) & KYMO_EVENT_STATE);

  track = find_track (trace, "B/State");
  g_assert_nonnull (track);
  assert_span (trace, track, 0, "running", 50, 160);
  assert_span (trace, track, 1, "blocked", 160, 190);
  assert_span (trace, track, 2, "suspended", 190, 200);

  /* What made B block: the frame behind the span, decoded on demand. */
  {
    KymoEventRef ref = { kymo_track_get_id (track), KYMO_EVENT_KIND_SPAN, 1 };
    g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);

    g_assert_nonnull (args);
    g_assert_cmpstr (json_object_get_string_member (args, "event"), ==, "curtask_block_on_queue_receive");
    g_assert_cmpstr (json_object_get_string_member (args, "queue"), ==, "lock");
    g_assert_cmpint (json_object_get_int_member (args, "ticks_to_wait"), ==, 100);
    g_assert_cmpint (json_object_get_int_member (args, "ts"), ==, 15);
  }

  samples = kymo_track_get_samples (find_track (trace, "B/Priority"), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (samples[0].value, ==, 5);

  /* Tasks by priority: B (5), A (3), then the idle task. */
  g_assert_nonnull (find_track (trace, "IDLE (idle task, core 0)"));
  roots = kymo_trace_get_root_tracks (trace, &n_roots);
  key_a = key_b = key_idle = -1;
  for (guint i = 0; i < n_roots; i++)
    {
      const char *name = kymo_track_get_name (kymo_trace_get_track (trace, roots[i]));

      if (g_str_equal (name, "A"))
        key_a = i;
      else if (g_str_equal (name, "B"))
        key_b = i;
      else if (g_str_has_prefix (name, "IDLE"))
        key_idle = i;
    }
  g_assert_cmpint (key_b, >=, 0);
  g_assert_cmpint (key_b, <, key_a);
  g_assert_cmpint (key_a, <, key_idle);
  g_assert_cmpstr (kymo_track_get_name (kymo_trace_get_track (trace, roots[0])), ==, "Core 0");

  /* Nested ISRs, named by isr_name. */
  track = find_track (trace, "Core 0/ISRs");
  g_assert_nonnull (track);
  g_assert_cmpuint (kymo_track_get_n_depths (track), ==, 2);
  assert_span (trace, track, 0, "UART", 60, 90);
  assert_span (trace, track, 1, "ISR #6", 70, 80);

  /* Event markers: spans and instants; value markers: counters. */
  track = find_track (trace, "Phase");
  assert_span (trace, track, 0, "work", 110, 130);
  instants = kymo_track_get_instants (track, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (instants[0].ts, ==, 120);
  g_assert_cmpstr (kymo_trace_get_name (trace, instants[0].name_flags & KYMO_NAME_MAX), ==, "Phase");
  samples = kymo_track_get_samples (find_track (trace, "Temp"), &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpfloat (samples[0].value, ==, -5);
  /* The task marker belongs to the task that ran (B), named for B. */
  assert_span (trace, find_track (trace, "B/B work"), 0, "step", 140, 150);

  /* Queues: length counters and operations; the mutex owner. */
  samples = kymo_track_get_samples (find_track (trace, "jobs (queue)/Length"), &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_nonnull (find_track (trace, "jobs (queue)/Operations"));
  track = find_track (trace, "lock (mutex)/Owner");
  g_assert_nonnull (track);
  assert_span (trace, track, 0, "taken by A", 30, 170);

  /* Dropped events are a visible warning. */
  instants = kymo_track_get_instants (find_track (trace, "Core 0/Warnings"), &n);
  g_assert_cmpuint (n, >=, 1);
  {
    gboolean found = FALSE;

    for (gsize i = 0; i < n; i++)
      if (instants[i].ts == 180 && (instants[i].name_flags >> 24) & KYMO_EVENT_WARNING)
        found = g_str_equal (kymo_trace_get_name (trace, instants[i].name_flags & KYMO_NAME_MAX),
                             "3 events dropped");
    g_assert_true (found);
  }
  g_assert_true (has_warning (trace, "3 events dropped"));
  g_assert_true (has_warning (trace, "goes back"));
}

static void
test_describe_every_span (void)
{
  g_autoptr(GByteArray) s = scenario ();
  g_autoptr(KymoTrace) trace = kymo_test_load_bytes (s->data, s->len, "tband", NULL);

  g_assert_nonnull (trace);
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      gsize n;

      kymo_track_get_spans (track, &n);
      for (gsize i = 0; i < n; i++)
        {
          KymoEventRef ref = { t, KYMO_EVENT_KIND_SPAN, (guint) i };
          g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);

          g_assert_nonnull (args);
          g_assert_true (json_object_has_member (args, "event"));
        }
    }
}

static void
test_multi_file (void)
{
  g_autoptr(GByteArray) core0 = g_byte_array_new ();
  g_autoptr(GByteArray) core1 = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kymo-tband-XXXXXX", &error);
  g_autofree char *path0 = g_build_filename (dir, "zero.bin", NULL);
  g_autofree char *path1 = g_build_filename (dir, "one.hex", NULL);
  g_autofree char *arg0 = g_strdup_printf ("%s@0", path0);
  g_autofree char *arg1 = g_strdup_printf ("%s@1", path1);
  const char *args[] = { arg1, arg0 };
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);
  g_autoptr(GString) hex = g_string_new (NULL);
  KymoLoadOptions options = { .format = "tband" };
  KymoTrack *cpu;
  gsize n;

  g_assert_no_error (error);
  add_event (core0, KYMO_TBAND_TASK_NAME, 0, 1, 0, "Zero");
  add_event (core0, KYMO_TBAND_TASK_SWITCHED_IN, 10, 1, 0, NULL);
  add_event (core0, KYMO_TBAND_TASK_SWITCHED_IN, 30, 2, 0, NULL);
  add_event (core1, KYMO_TBAND_TASK_NAME, 0, 2, 0, "One");
  add_event (core1, KYMO_TBAND_TASK_SWITCHED_IN, 20, 2, 0, NULL);
  add_event (core1, KYMO_TBAND_TASK_SWITCHED_IN, 40, 3, 0, NULL);
  g_assert_true (g_file_set_contents (path0, (const char *) core0->data, core0->len, NULL));
  /* Files may differ in encoding: core 1 as hex text. */
  for (guint i = 0; i < core1->len; i++)
    g_string_append_printf (hex, "%02x%c", core1->data[i], i % 8 == 7 ? '\n' : ' ');
  g_assert_true (g_file_set_contents (path1, hex->str, hex->len, NULL));

  input = kymo_input_new_for_paths (args, 2, &error);
  g_assert_no_error (error);
  trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "cores"), ==, "2");

  /* Merged by time: task 2 moves from core 1 to core 0 at 30. */
  cpu = find_track (trace, "Core 0/CPU");
  kymo_track_get_spans (cpu, &n);
  g_assert_cmpuint (n, ==, 2);
  assert_span (trace, cpu, 0, "Zero", 10, 30);
  cpu = find_track (trace, "Core 1/CPU");
  assert_span (trace, cpu, 0, "One", 20, 30);
  assert_span (trace, cpu, 1, "Task #3", 40, 40);

  g_assert_true (kymo_dump_sync (input, &options, writer, &error));
  g_assert_no_error (error);
  {
    g_autoptr(GPtrArray) lines = parse_lines (kymo_json_writer_get_string (writer));

    g_assert_cmpuint (lines->len, ==, 6);
    /* Stream order: the first file given (core 1) first. */
    g_assert_cmpint (json_object_get_int_member (line_object (lines, 0), "core"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (line_object (lines, 5), "core"), ==, 0);
  }

  /* A core past the last one the format has is an error, not an abort. */
  {
    g_autofree char *far = g_strdup_printf ("%s@%d", path0, KYMO_TBAND_MAX_CORES);
    const char *far_args[] = { far };
    g_autoptr(KymoInput) far_input = kymo_input_new_for_paths (far_args, 1, &error);
    g_autoptr(KymoTrace) far_trace = NULL;

    g_assert_no_error (error);
    far_trace = kymo_load_sync (far_input, &options, NULL, NULL, NULL, &error);
    g_assert_null (far_trace);
    g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNSUPPORTED);
    g_assert_nonnull (strstr (error->message, "out of range"));
    g_clear_error (&error);
  }

  g_unlink (path0);
  g_unlink (path1);
  g_rmdir (dir);
}

static void
test_encodings_and_detect (void)
{
  g_autoptr(GByteArray) s = scenario ();
  g_autofree char *b64 = g_base64_encode (s->data, s->len);
  g_autoptr(GString) hex = g_string_new ("==== START OF TONBANDGERAET BUFFER ====\n");
  g_autofree char *binary_dump = NULL, *hex_dump = NULL, *b64_dump = NULL;
  g_autofree char *json = NULL;
  gboolean ok;

  for (guint i = 0; i < s->len; i++)
    g_string_append_printf (hex, "%02X%c", s->data[i], i % 16 == 15 ? '\n' : ' ');
  g_string_append (hex, "\n==== END OF TONBANDGERAET BUFFER ====\n");

  binary_dump = kymo_test_dump_bytes (s->data, s->len, NULL, &ok, NULL);
  g_assert_true (ok);
  hex_dump = kymo_test_dump_bytes ((const guint8 *) hex->str, hex->len, NULL, &ok, NULL);
  g_assert_true (ok);
  b64_dump = kymo_test_dump_bytes ((const guint8 *) b64, strlen (b64), NULL, &ok, NULL);
  g_assert_true (ok);
  g_assert_cmpstr (binary_dump, ==, hex_dump);
  g_assert_cmpstr (binary_dump, ==, b64_dump);

  /* The web converter's demo JSON. */
  {
    g_autoptr(GString) plain = g_string_new (NULL);
    g_autofree char *json_dump = NULL;

    for (guint i = 0; i < s->len; i++)
      g_string_append_printf (plain, "%02x", s->data[i]);
    json = g_strdup_printf ("{\"title\":\"t\",\"trace_mode\":\"freertos\",\"data\":[{\"core_id\":0,\"hex\":\"%s\"}]}",
                            plain->str);
    json_dump = kymo_test_dump_bytes ((const guint8 *) json, strlen (json), NULL, &ok, NULL);
    g_assert_true (ok);
    g_assert_cmpstr (binary_dump, ==, json_dump);
  }

  /* One whose entries hold no hex string is an error, not an empty trace
   * (nor a crash: the fuzzer found this one). */
  {
    static const char empty[] = "{\"title\":\"t\",\"data\":[{\"core_id\":0,\"!hex\":\"0302\"}, 7]}";
    g_autoptr(GError) error = NULL;
    g_autoptr(KymoTrace) trace = load_mode ((const guint8 *) empty, strlen (empty), NULL, &error);

    g_assert_null (trace);
    g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT);
    g_assert_nonnull (strstr (error->message, "no entry with a"));
  }

  /* No magic, but frame shape tells it apart from text and noise. */
  {
    g_autoptr(GBytes) text = g_bytes_new_static ("hello, world: not a trace\n", 26);
    g_autoptr(KymoInput) input = kymo_input_new_for_bytes (text, "text");
    guint8 noise[4096];
    guint32 seed = 12345;

    g_assert_true (kymo_formats_detect (input) != kymo_formats_lookup ("tband"));
    for (guint i = 0; i < sizeof noise; i++)
      noise[i] = (guint8) ((seed = seed * 1103515245 + 12345) >> 16);
    {
      g_autoptr(GBytes) bytes = g_bytes_new (noise, sizeof noise);
      g_autoptr(KymoInput) noise_input = kymo_input_new_for_bytes (bytes, "noise");

      g_assert_true (kymo_formats_detect (noise_input) != kymo_formats_lookup ("tband"));
    }
  }
  {
    g_autoptr(GBytes) bytes = g_bytes_new (s->data, s->len);
    g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "stream");

    g_assert_true (kymo_formats_detect (input) == kymo_formats_lookup ("tband"));
  }
}

static void
test_every_prefix (void)
{
  g_autoptr(GByteArray) s = scenario ();
  guint clean = kymo_test_every_prefix (s->data, s->len, "tband", 1);

  /* A prefix is clean exactly when it ends on a frame boundary. */
  g_assert_cmpuint (clean, >, 10);
}

/* The real sample: hex text and its binary copy */

static GBytes *
read_sample (const char *name)
{
  g_autofree char *path = kymo_test_sample_path (name);
  g_autoptr(GError) error = NULL;
  char *contents;
  gsize len;

  if (path == NULL)
    return NULL;
  g_assert_true (g_file_get_contents (path, &contents, &len, &error));
  g_assert_no_error (error);
  return g_bytes_new_take (contents, len);
}

/* Counted without the decoder: non-empty runs ending in 0x00. */
static guint
count_frames (const guint8 *data,
              gsize         len)
{
  guint frames = 0;

  for (gsize i = 0; i < len; i++)
    if (data[i] == 0 && i > 0 && data[i - 1] != 0)
      frames++;
  return frames;
}

static void
test_sample (void)
{
  g_autoptr(GBytes) hex = read_sample ("tonbandgeraet/log");
  g_autoptr(GBytes) bin = NULL;
  g_autoptr(GByteArray) decoded = g_byte_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *hex_dump = NULL, *bin_dump = NULL;
  const char *text;
  gsize len;
  int high = -1;
  gboolean ok;

  if (hex == NULL)
    return;
  bin = read_sample ("tonbandgeraet/log.derived.bin");
  if (bin == NULL)
    return;

  /* Hex-decode the text here, independently of the decoder. */
  text = g_bytes_get_data (hex, &len);
  for (gsize i = 0; i < len; i++)
    {
      int v = g_ascii_xdigit_value (text[i]);

      if (v < 0)
        continue;
      if (high < 0)
        high = v;
      else
        {
          guint8 b = high << 4 | v;
          g_byte_array_append (decoded, &b, 1);
          high = -1;
        }
    }
  g_assert_cmpuint (decoded->len, ==, g_bytes_get_size (bin));
  g_assert_cmpuint (count_frames (decoded->data, decoded->len), ==, SAMPLE_FRAMES);
  {
    const guint8 *b = g_bytes_get_data (bin, &len);
    g_assert_cmpuint (count_frames (b, len), ==, SAMPLE_FRAMES);
  }

  hex_dump = kymo_test_dump_bytes (g_bytes_get_data (hex, NULL), g_bytes_get_size (hex), NULL, &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  bin_dump = kymo_test_dump_bytes (g_bytes_get_data (bin, NULL), g_bytes_get_size (bin), NULL, &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_true (g_str_equal (hex_dump, bin_dump));
  {
    g_autoptr(GPtrArray) lines = parse_lines (bin_dump);

    g_assert_cmpuint (lines->len, ==, SAMPLE_FRAMES);
    g_assert_null (strstr (bin_dump, "\"kind\":\"invalid\""));
  }

  for (guint i = 0; i < 2; i++)
    {
      GBytes *bytes = i == 0 ? hex : bin;
      g_autoptr(KymoTrace) trace = kymo_test_load_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                                         NULL, &error);
      KymoTrack *cpu;
      gsize n;

      g_assert_no_error (error);
      g_assert_nonnull (trace);
      g_assert_null (kymo_trace_get_stop_error (trace));
      g_assert_cmpstr (kymo_trace_get_variant (trace), ==, "freertos");
      g_assert_cmpstr (kymo_trace_get_metadata (trace, "frames"), ==, G_STRINGIFY (SAMPLE_FRAMES));
      g_assert_cmpstr (kymo_trace_get_metadata (trace, "invalid_frames"), ==, "0");
      g_assert_cmpstr (kymo_trace_get_metadata (trace, "encoding"), ==, i == 0 ? "hex" : "binary");
      cpu = find_track (trace, "Core 0/CPU");
      g_assert_nonnull (cpu);
      kymo_track_get_spans (cpu, &n);
      g_assert_cmpuint (n, >, 100);
      g_assert_nonnull (find_track (trace, "mytask1/State"));
      g_assert_nonnull (find_track (trace, "IDLE (idle task, core 0)"));
      g_assert_nonnull (find_track (trace, "Tmr Svc (timer task)"));
      g_assert_nonnull (find_track (trace, "mymutex1 (mutex)/Owner"));
      g_assert_nonnull (find_track (trace, "my_q1 (queue)/Length"));
    }
}

/* Loading with and without the parsing thread */

/* Everything a user can see of a loaded trace, as one checksum. */
static char *
trace_fingerprint (KymoTrace *trace)
{
  g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
  const GError *stop = kymo_trace_get_stop_error (trace);
  const KymoWarning *warnings;
  KymoTime start, end;
  gsize n;

#define ADD(value) G_STMT_START { guint64 v_ = (guint64) (value); g_checksum_update (sum, (const guchar *) &v_, sizeof v_); } G_STMT_END
#define ADD_STR(text) g_checksum_update (sum, (const guchar *) ((text) ? (text) : "(null)"), -1)

  for (guint i = 0; i < kymo_trace_get_n_names (trace); i++)
    ADD_STR (kymo_trace_get_name (trace, i));
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, i);
      const KymoSpan *spans = kymo_track_get_spans (track, &n);
      const KymoInstant *instants;
      const KymoSample *samples;
      const guint *children;
      guint n_children;

      ADD_STR (kymo_track_get_name (track));
      ADD_STR (kymo_track_get_group_kind (track));
      ADD (kymo_track_get_parent (track));
      ADD (kymo_track_get_kind (track));
      ADD (kymo_track_get_sort_key (track));
      ADD (kymo_track_get_tag (track));
      children = kymo_track_get_children (track, &n_children);
      for (guint c = 0; c < n_children; c++)
        ADD (children[c]);
      ADD (n);
      g_checksum_update (sum, (const guchar *) spans, n * sizeof *spans);
      instants = kymo_track_get_instants (track, &n);
      ADD (n);
      g_checksum_update (sum, (const guchar *) instants, n * sizeof *instants);
      samples = kymo_track_get_samples (track, &n);
      ADD (n);
      g_checksum_update (sum, (const guchar *) samples, n * sizeof *samples);
    }
  warnings = kymo_trace_get_warnings (trace, &n);
  for (gsize i = 0; i < n; i++)
    {
      ADD (warnings[i].offset);
      ADD (warnings[i].ts);
      ADD_STR (warnings[i].message);
    }
  for (guint i = 0; i < kymo_trace_get_n_metadata (trace); i++)
    {
      const char *key, *value;

      kymo_trace_get_nth_metadata (trace, i, &key, &value);
      ADD_STR (key);
      ADD_STR (value);
    }
  kymo_trace_get_time_range (trace, &start, &end);
  ADD (start);
  ADD (end);
  ADD_STR (kymo_trace_get_variant (trace));
  ADD_STR (stop ? stop->message : NULL);
#undef ADD
#undef ADD_STR

  return g_strdup (g_checksum_get_string (sum));
}

/* A few MB of everything the parsing has to carry across the places where
 * it cuts the stream: core switches (one out of range), bad and empty
 * frames, lone 0x00 bytes, frames longer than a COBS block with strings in
 * them, values of 0 (COBS blocks inside a frame), and an unfinished frame at
 * the end. */
static GByteArray *
long_stream (void)
{
  GByteArray *out = g_byte_array_new ();
  g_autofree char *long_text = g_strnfill (300, 'x');
  static const guint8 unknown[] = { 0x33, 0x01 };
  static const guint8 empty_and_zero[] = { 0x01, 0x00, 0x00 };
  static const guint8 unfinished[] = { 0x05, 0x54, 0x81, 0x82 };
  guint64 ts = 1000;

  add_event (out, KYMO_TBAND_TS_RESOLUTION_NS, 0, 10, 0, NULL);
  add_event (out, KYMO_TBAND_QUEUE_KIND, 0, 2, 3, NULL);
  add_event (out, KYMO_TBAND_ISR_NAME, 0, 1, 0, "Tick");
  for (guint i = 0; out->len < 3 * 1000 * 1000; i++)
    {
      ts += 50 + i % 7;
      if (i % 997 == 0)
        add_event (out, KYMO_TBAND_CORE_ID, ts, (i / 997) % 3, 0, NULL);
      if (i % 4999 == 0)
        add_event (out, KYMO_TBAND_CORE_ID, ts, 5000, 0, NULL);
      add_event (out, KYMO_TBAND_TASK_SWITCHED_IN, ts, 1 + i % 5, 0, NULL);
      add_event (out, KYMO_TBAND_QUEUE_RECEIVE, ts + 1, 1 + i % 2, 0, NULL);
      add_event (out, KYMO_TBAND_QUEUE_SEND, ts + 2, 1 + i % 2, i % 3, NULL);
      add_event (out, KYMO_TBAND_ISR_ENTER, ts + 3, 1 + i % 2, 0, NULL);
      add_event (out, KYMO_TBAND_ISR_EXIT, ts + 4, 1 + i % 2, 0, NULL);
      add_event (out, KYMO_TBAND_CURTASK_BLOCK_ON_QUEUE_RECEIVE, ts + 5, 1, 100, NULL);
      if (i % 5 == 0)
        {
          add_event (out, KYMO_TBAND_EVTMARKER_BEGIN, ts + 6, 1, 0, i % 2003 == 0 ? long_text : "");
          add_event (out, KYMO_TBAND_VALMARKER, ts + 7, 1, (i % 100) << 1, NULL);
          add_event (out, KYMO_TBAND_EVTMARKER_END, ts + 8, 1, 0, NULL);
        }
      if (i % 1013 == 0)
        add_raw_frame (out, unknown, sizeof unknown);
      if (i % 1511 == 0)
        g_byte_array_append (out, empty_and_zero, sizeof empty_and_zero);
      if (i % 3001 == 0)
        add_event (out, KYMO_TBAND_TASK_NAME, 0, 1 + i % 5, 0, long_text + i % 200);
    }
  g_byte_array_append (out, unfinished, sizeof unfinished);
  return out;
}

/* The fingerprint of @data loaded with @threads, in @mode, with or without
 * the loop for short simple frames. */
static char *
fingerprint_load (const guint8 *data,
                  gsize         size,
                  const char   *mode,
                  guint         threads,
                  gboolean      fast)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;

  kymo_test_set_threads (threads);
  kymo_tband_set_fast_frames (fast);
  trace = load_mode (data, size, mode, &error);
  kymo_tband_set_fast_frames (TRUE);
  kymo_test_set_threads (0);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  return trace_fingerprint (trace);
}

static char *
fingerprint_with_threads (const guint8 *data,
                          gsize         size,
                          guint         threads)
{
  return fingerprint_load (data, size, NULL, threads, TRUE);
}

static void
test_threads_agree (void)
{
  g_autoptr(GByteArray) stream = long_stream ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  const gsize cuts[] = { stream->len, stream->len - 1, 2 * 1000 * 1000 + 7, 65536 * 5 + 3, 65535, 100 };

  /* What a user gets does not depend on the thread. */
  for (guint i = 0; i < G_N_ELEMENTS (cuts); i++)
    {
      g_autofree char *one = fingerprint_with_threads (stream->data, cuts[i], 1);
      g_autofree char *two = fingerprint_with_threads (stream->data, cuts[i], 2);
      g_autofree char *seven = fingerprint_with_threads (stream->data, cuts[i], 7);

      g_assert_cmpstr (one, ==, two);
      g_assert_cmpstr (one, ==, seven);
    }

  /* And it is the stream: the damage is seen, the rest kept. */
  trace = load_mode (stream->data, stream->len, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "cores"), ==, "3");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "invalid_frames"), !=, "0");
  g_assert_nonnull (kymo_trace_get_stop_error (trace));
  g_assert_true (has_warning (trace, "core id 5000 is too large"));
  g_assert_true (has_warning (trace, "empty event"));
  g_assert_true (has_warning (trace, "unknown event id"));
  g_assert_nonnull (find_track (trace, "Core 2/CPU"));
  g_assert_nonnull (find_track (trace, "Core 1/ISRs"));
  g_assert_cmpuint (stream->len, >, 3 * 1000 * 1000);
}

/* Short frames of every shape the loop for simple frames could take
 * wrongly: fields of 0 (COBS blocks inside a frame, up to three), of 127,
 * 128, 255, 256 and more (one- and more-byte varints, around what a
 * record holds), timestamps of one byte and of nine, COBS chains that run
 * past their frame or end early, payloads of 15 and 16 bytes, unknown ids,
 * lone 0x00 bytes and core switches. */
static const guint32 short_frame_values[] = { 0, 1, 127, 128, 255, 256, 70000 };

static GByteArray *
short_frame_stream (guint *receives)
{
  const guint32 *values = short_frame_values;
  const guint n_values = G_N_ELEMENTS (short_frame_values);
  static const guint8 past_end[] = { 0x05, 0x54, 0x11, 0x00 };
  static const guint8 early_end[] = { 0x02, 0x54, 0x03, 0x11, 0x22, 0x00 };
  static const guint8 two_zeros[] = { 0x02, 0x62, 0x01, 0x02, 0x22, 0x00 };
  static const guint8 lone_zeros[] = { 0x00, 0x00 };
  static const guint8 unknown[] = { 0x33, 0x01 };
  static const guint8 junk15[15] = { 0x54, 0x81, 0x82, 0x83, 0x04, 0x05, 0x06, 0x07,
                                     0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E };
  static const guint8 junk16[16] = { 0x62, 0x05, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
                                     0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E };
  /* Every so often: bytes as they are, or a payload to frame. */
  static const struct {
    guint         every;
    const guint8 *bytes;
    gsize         len;
    gboolean      framed;
  } extras[] = {
    { 13, past_end, sizeof past_end, TRUE },
    { 17, early_end, sizeof early_end, TRUE },
    { 19, two_zeros, sizeof two_zeros, TRUE },
    { 23, lone_zeros, sizeof lone_zeros, TRUE },
    { 29, unknown, sizeof unknown, FALSE },
    { 31, junk15, sizeof junk15, FALSE },
    { 37, junk16, sizeof junk16, FALSE },
  };
  GByteArray *out = g_byte_array_new ();
  guint64 ts = 0;

  add_event (out, KYMO_TBAND_QUEUE_KIND, 0, 2, 3, NULL);
  for (guint i = 0; out->len < 400 * 1000; i++)
    {
      guint32 a = values[i % n_values];
      guint32 b = values[(i / n_values) % n_values];

      /* Timestamps of 9 bytes for the last part. */
      ts = out->len > 320 * 1000 && ts < ((guint64) 1 << 58) ? (guint64) 1 << 58 : ts + i % 200;
      add_event (out, KYMO_TBAND_QUEUE_SEND, ts, 1 + i % 3, a, NULL);
      add_event (out, KYMO_TBAND_QUEUE_RECEIVE, ts, a, b, NULL);
      receives[i % n_values]++;
      add_event (out, KYMO_TBAND_TASK_SWITCHED_IN, ts, b, 0, NULL);
      add_event (out, KYMO_TBAND_TASK_PRIORITY_SET, ts, 1 + i % 4, a, NULL);
      add_event (out, KYMO_TBAND_ISR_ENTER, ts, a, 0, NULL);
      add_event (out, KYMO_TBAND_ISR_EXIT, ts, a, 0, NULL);
      add_event (out, KYMO_TBAND_VALMARKER, ts, 1, (guint64) b << 1, NULL);
      for (guint e = 0; e < G_N_ELEMENTS (extras); e++)
        if (i % extras[e].every == 0)
          {
            if (extras[e].framed)
              g_byte_array_append (out, extras[e].bytes, extras[e].len);
            else
              add_raw_frame (out, extras[e].bytes, extras[e].len);
          }
      if (i % 101 == 0)
        add_event (out, KYMO_TBAND_CORE_ID, ts, (i / 101) % 2, 0, NULL);
    }
  return out;
}

static gboolean
has_sample (KymoTrace *trace,
            double     value)
{
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      gsize n;
      const KymoSample *samples = kymo_track_get_samples (kymo_trace_get_track (trace, t), &n);

      for (gsize i = 0; i < n; i++)
        if (samples[i].value == value)
          return TRUE;
    }
  return FALSE;
}

static void
test_fast_frames_agree (void)
{
  guint receives[G_N_ELEMENTS (short_frame_values)] = { 0 };
  g_autoptr(GByteArray) shorts = short_frame_stream (receives);
  g_autoptr(GByteArray) longs = long_stream ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  GByteArray *streams[] = { shorts, longs };
  const char *modes[] = { NULL, "bare-metal" };

  /* The loop for simple frames reads a stream as the full parser does,
   * cut anywhere, on either thread. */
  for (guint s = 0; s < G_N_ELEMENTS (streams); s++)
    for (guint m = 0; m < G_N_ELEMENTS (modes); m++)
      for (guint threads = 1; threads <= 2; threads++)
        {
          const gsize cuts[] = { streams[s]->len, streams[s]->len - 3, 65536 * 3 + 17 };

          for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
            {
              g_autofree char *fast = fingerprint_load (streams[s]->data, cuts[c], modes[m], threads, TRUE);
              g_autofree char *full = fingerprint_load (streams[s]->data, cuts[c], modes[m], threads, FALSE);

              g_assert_cmpstr (fast, ==, full);
            }
        }

  /* And what it read is the stream: every field value, the damage. */
  trace = load_mode (shorts->data, shorts->len, NULL, &error);
  g_assert_nonnull (trace);
  for (guint v = 0; v < G_N_ELEMENTS (short_frame_values); v++)
    {
      g_autofree char *path = g_strdup_printf ("queue #%u/Operations", short_frame_values[v]);
      KymoTrack *ops = find_track (trace, path);
      gsize n;

      /* Queue lengths are second fields, queue ids first ones; queues
       * from 4 on only ever see these receives. */
      g_assert_true (has_sample (trace, short_frame_values[v]));
      g_assert_nonnull (ops);
      kymo_track_get_instants (ops, &n);
      if (short_frame_values[v] >= 4)
        g_assert_cmpuint (n, ==, receives[v]);
    }
  g_assert_true (has_warning (trace, "bad COBS"));
  g_assert_true (has_warning (trace, "unknown event id"));
  g_assert_nonnull (find_track (trace, "Core 1/CPU"));
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "invalid_frames"), !=, "0");
}

/* Megabytes without a 0x00 are a few huge bad frames, found in one pass. */
static void
test_few_zeros (void)
{
  g_autoptr(GByteArray) stream = g_byte_array_new ();
  g_autofree char *one = NULL, *two = NULL, *seven = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  gsize start;

  add_event (stream, KYMO_TBAND_TASK_SWITCHED_IN, 10, 1, 0, NULL);
  start = stream->len;
  g_byte_array_set_size (stream, start + 6 * 1000 * 1000);
  memset (stream->data + start, 0xE5, stream->len - start);
  stream->data[start + 1000 * 1000] = 0x00;
  stream->data[start + 1000 * 1000 + 1] = 0x00;
  stream->data[start + 5 * 1000 * 1000] = 0x00;
  one = fingerprint_with_threads (stream->data, stream->len, 1);
  two = fingerprint_with_threads (stream->data, stream->len, 2);
  seven = fingerprint_with_threads (stream->data, stream->len, 7);
  g_assert_cmpstr (one, ==, two);
  g_assert_cmpstr (one, ==, seven);

  trace = load_mode (stream->data, stream->len, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "frames"), ==, "3");
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "invalid_frames"), ==, "2");
  g_assert_nonnull (kymo_trace_get_stop_error (trace));
}

/* Several streams are parsed by workers, a run per stream, and merged on
 * the loading thread: the merge must not depend on the threads. One stream
 * has everything long_stream() carries, the other starts inside a frame
 * and has its timestamps shifted by the damage. */
static void
test_threads_agree_merged (void)
{
  g_autoptr(GByteArray) stream = long_stream ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kymo-tband-XXXXXX", &error);
  g_autofree char *path0 = g_build_filename (dir, "zero.bin", NULL);
  g_autofree char *path1 = g_build_filename (dir, "one.bin", NULL);
  g_autofree char *arg0 = g_strdup_printf ("%s@0", path0);
  g_autofree char *arg1 = g_strdup_printf ("%s@1", path1);
  const char *args[] = { arg0, arg1 };
  static const guint threads[] = { 1, 2, 7 };
  g_autofree char *first = NULL;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (path0, (const char *) stream->data, stream->len, NULL));
  g_assert_true (g_file_set_contents (path1, (const char *) stream->data + 777777, 1500000, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr(KymoInput) input = kymo_input_new_for_paths (args, 2, &error);
      KymoLoadOptions options = { .format = "tband", .threads = threads[i] };
      g_autoptr(KymoTrace) trace = NULL;
      g_autofree char *fingerprint = NULL;

      g_assert_no_error (error);
      trace = kymo_load_sync (input, &options, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      g_assert_cmpstr (kymo_trace_get_metadata (trace, "streams"), ==, "2");
      fingerprint = trace_fingerprint (trace);
      if (first == NULL)
        first = g_steal_pointer (&fingerprint);
      else
        g_assert_cmpstr (first, ==, fingerprint);
    }
  g_unlink (path0);
  g_unlink (path1);
  g_rmdir (dir);
}

static void
cancel_on_progress (double      fraction,
                    const char *message,
                    gpointer    data)
{
  g_cancellable_cancel (data);
}

static void
test_cancel (void)
{
  g_autoptr(GByteArray) stream = long_stream ();

  for (guint threads = 1; threads <= 7; threads += 6)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (stream->data, stream->len);
      g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "test-input");
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = NULL;
      KymoLoadOptions options = { .format = "tband", .threads = threads };

      trace = kymo_load_sync (input, &options, cancel_on_progress, cancellable, cancellable, &error);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (trace);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tband/events/every-id", test_every_event_id);
  g_test_add_func ("/tband/events/field-limits", test_field_limits);
  g_test_add_func ("/tband/damage/bad-frames-in-the-middle", test_bad_frames_in_the_middle);
  g_test_add_func ("/tband/damage/unfinished-frame", test_unfinished_frame);
  g_test_add_func ("/tband/modes", test_modes);
  g_test_add_func ("/tband/model/scenario", test_model);
  g_test_add_func ("/tband/model/describe", test_describe_every_span);
  g_test_add_func ("/tband/input/multi-file", test_multi_file);
  g_test_add_func ("/tband/input/encodings-and-detect", test_encodings_and_detect);
  g_test_add_func ("/tband/input/every-prefix", test_every_prefix);
  g_test_add_func ("/tband/sample", test_sample);
  g_test_add_func ("/tband/load/fast-frames-agree", test_fast_frames_agree);
  g_test_add_func ("/tband/load/threads-agree", test_threads_agree);
  g_test_add_func ("/tband/load/threads-agree-merged", test_threads_agree_merged);
  g_test_add_func ("/tband/load/few-zeros", test_few_zeros);
  g_test_add_func ("/tband/load/cancel", test_cancel);

  return g_test_run ();
}
