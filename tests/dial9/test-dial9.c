/* test-dial9.c: the dial9 decoder on hand-built streams and the real samples
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
/* MAP_FIXED_NOREPLACE */
#define _GNU_SOURCE

#include "config.h"

#include <stdlib.h>
#include <zlib.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#include "kymo-test-utils.h"
#include "dial9-builder.h"
#include "dial9/kymo-dial9-loader.h"
#include "dial9/kymo-dial9-parts-private.h"
#include "kymo-mapped.h"
#include "kymo-page-queue.h"

static gsize
n_spans (KymoTrack *track)
{
  gsize n = 0;
  kymo_track_get_spans (track, &n);
  return n;
}

static gsize
n_instants (KymoTrack *track)
{
  gsize n = 0;
  kymo_track_get_instants (track, &n);
  return n;
}

static KymoTrace *
load (GByteArray *b,
      GError    **error)
{
  return kymo_test_load_bytes (b->data, b->len, "dial9", error);
}

/* The dump as parsed JSON objects, one per line. */
static GPtrArray *
dump_lines (GByteArray *b,
            gboolean   *ok,
            GError    **error)
{
  g_autofree char *text = kymo_test_dump_bytes (b->data, b->len, "dial9", ok, error);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  for (guint i = 0; lines[i] != NULL; i++)
    if (*lines[i])
      {
        JsonNode *node = json_from_string (lines[i], NULL);
        g_assert_nonnull (node);
        g_ptr_array_add (out, node);
      }
  return out;
}

static JsonObject *
line (GPtrArray *lines,
      guint      i)
{
  return json_node_get_object (g_ptr_array_index (lines, i));
}

/* A small runtime: two workers, one task woken by another. */
static GByteArray *
build_runtime (void)
{
  GByteArray *b = g_byte_array_new ();
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *park[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *spawn[] = { "task_id:9", "spawn_loc:7", NULL };
  const char *queue[] = { "global_queue:11", NULL };

  d9b_header (b);
  d9b_schema (b, 0, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
  d9b_schema (b, 2, "WorkerParkEvent", TRUE, park);
  d9b_schema (b, 3, "WorkerUnparkEvent", TRUE, park);
  d9b_schema (b, 4, "WakeEventEvent", TRUE, wake);
  d9b_schema (b, 5, "TaskSpawnEvent", TRUE, spawn);
  d9b_schema (b, 6, "QueueSampleEvent", TRUE, queue);
  d9b_pool (b, 0, "src/main.rs:10");
  d9b_pool (b, 1, "src/worker.rs:20");
  d9b_reset (b, 1000000);
  /* t=1000000: task 7 spawned; worker 0 polls task 7 until 1000100 */
  d9b_event (b, 5, 0); d9b_varint (b, 7); d9b_u32 (b, 0);
  d9b_event (b, 0, 0); d9b_varint (b, 0); d9b_u8 (b, 3); d9b_varint (b, 7); d9b_u32 (b, 0);
  /* t=1000050: task 7 wakes task 8 */
  d9b_event (b, 4, 50); d9b_varint (b, 7); d9b_varint (b, 8); d9b_u8 (b, 1);
  d9b_event (b, 1, 50); d9b_varint (b, 0);
  /* t=1000200..1000300: worker 1 polls task 8 */
  d9b_event (b, 0, 100); d9b_varint (b, 1); d9b_u8 (b, 0); d9b_varint (b, 8); d9b_u32 (b, 1);
  d9b_event (b, 1, 100); d9b_varint (b, 1);
  /* worker 0 parks 1000400..1000900 */
  d9b_event (b, 2, 100); d9b_varint (b, 0); d9b_u8 (b, 0); d9b_varint (b, 5);
  d9b_event (b, 6, 100); d9b_u8 (b, 4);
  d9b_event (b, 3, 400); d9b_varint (b, 0); d9b_u8 (b, 2); d9b_varint (b, 6);
  return b;
}

static void
test_runtime_model (void)
{
  g_autoptr(GByteArray) b = build_runtime ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = load (b, &error);
  KymoTrack *w0, *w1, *lq, *gq;
  const KymoSpan *spans;
  const KymoFlow *flows;
  gsize n;
  KymoTime start, end;

  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));

  w0 = kymo_test_find_track (trace, "worker 0");
  w1 = kymo_test_find_track (trace, "worker 1");
  g_assert_nonnull (w0);
  g_assert_nonnull (w1);
  g_assert_cmpstr (kymo_track_get_group_kind (kymo_trace_get_track (trace, kymo_track_get_parent (w0))), ==, "runtime");

  /* Poll named by spawn location, then a park */
  spans = kymo_track_get_spans (w0, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (spans[0].start, ==, 1000000);
  g_assert_cmpint (spans[0].end, ==, 1000100);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[0])), ==, "src/main.rs:10");
  g_assert_cmpint (spans[1].start, ==, 1000400);
  g_assert_cmpint (spans[1].end, ==, 1000900);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[1])), ==, "parked");
  g_assert_true (kymo_span_flags (&spans[1]) & KYMO_EVENT_STATE);

  spans = kymo_track_get_spans (w1, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[0])), ==, "src/worker.rs:20");

  /* The wake: from worker 0 (polling the waker) to worker 1's next poll of task 8 */
  flows = kymo_trace_get_flows (trace, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (flows[0].from_track, ==, kymo_track_get_id (w0));
  g_assert_cmpint (flows[0].from_ts, ==, 1000050);
  g_assert_cmpuint (flows[0].to_track, ==, kymo_track_get_id (w1));
  g_assert_cmpint (flows[0].to_ts, ==, 1000200);
  g_assert_cmpuint (n_instants (w0), ==, 1);

  /* Queue depths */
  lq = kymo_test_find_track (trace, "worker 0 local queue");
  g_assert_nonnull (lq);
  kymo_track_get_samples (lq, &n);
  g_assert_cmpuint (n, ==, 3); /* 3, 0, 2 */
  gq = kymo_test_find_track (trace, "global queue");
  g_assert_nonnull (gq);
  g_assert_cmpfloat (kymo_track_get_samples (gq, &n)[0].value, ==, 4);

  kymo_trace_get_time_range (trace, &start, &end);
  g_assert_cmpint (start, ==, 1000000);
  g_assert_cmpint (end, ==, 1000900);

  /* Arguments on demand: the poll's task and its lifetime */
  {
    KymoEventRef ref = { kymo_track_get_id (w0), KYMO_EVENT_KIND_SPAN, 0 };
    g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, &ref);
    JsonObject *task;

    g_assert_nonnull (args);
    g_assert_cmpstr (json_object_get_string_member (args, "event"), ==, "PollStartEvent");
    g_assert_cmpint (json_object_get_int_member (args, "local_queue"), ==, 3);
    g_assert_cmpstr (json_object_get_string_member (args, "spawn_loc"), ==, "src/main.rs:10");
    task = json_object_get_object_member (args, "task");
    g_assert_nonnull (task);
    g_assert_cmpint (json_object_get_int_member (task, "spawned_ns"), ==, 1000000);
  }
}

/* The events most of a real file holds have a decode of their own: ids
 * of every varint length read as the generic loop reads them, and a
 * varint longer than ten bytes in any of them is damage there. */
static GByteArray *
build_shaped (guint    damaged,
              gboolean with_tid)
{
  GByteArray *b = g_byte_array_new ();
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  /* Newer files have no thread id at the park and the unpark. */
  const char *park[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", with_tid ? "tid:13" : NULL, NULL };
  const char *unpark[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", "sched_wait_ns:9",
                           with_tid ? "tid:13" : NULL, NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *plain[] = { NULL };
  const guint8 overlong[11] = { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00 };
#define VARINT(v, slot) (damaged == (slot) ? g_byte_array_append (b, overlong, 11), 0 : (d9b_varint (b, v), 0))

  d9b_header (b);
  d9b_schema (b, 0, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
  d9b_schema (b, 2, "WorkerParkEvent", TRUE, park);
  d9b_schema (b, 3, "WorkerUnparkEvent", TRUE, unpark);
  d9b_schema (b, 4, "WakeEventEvent", TRUE, wake);
  d9b_schema (b, 5, "Plain", TRUE, plain);
  d9b_pool (b, 0, "src/main.rs:10");
  d9b_reset (b, 1000000);
  d9b_event (b, 5, 0);
  /* Worker 300 (two bytes) polls the task with the largest id (ten) */
  d9b_event (b, 0, 0); VARINT (300, 1); d9b_u8 (b, 3); VARINT (G_MAXUINT64, 2); d9b_u32 (b, 0);
  d9b_event (b, 4, 50); VARINT (G_MAXUINT64, 3); VARINT (1 << 20, 4); d9b_u8 (b, 1);
  d9b_event (b, 1, 50); VARINT (300, 5);
  d9b_event (b, 2, 100); VARINT (300, 6); d9b_u8 (b, 0); VARINT (G_GUINT64_CONSTANT (1) << 35, 7);
  if (with_tid)
    d9b_u32 (b, 77);
  d9b_event (b, 3, 400); VARINT (300, 8); d9b_u8 (b, 2); VARINT (G_GUINT64_CONSTANT (1) << 36, 9);
  VARINT (1 << 14, 10);
  if (with_tid)
    d9b_u32 (b, 77);
  /* Worker 1 polls the woken task */
  d9b_event (b, 0, 100); d9b_varint (b, 1); d9b_u8 (b, 0); d9b_varint (b, 1 << 20); d9b_u32 (b, 0);
  d9b_event (b, 1, 100); d9b_varint (b, 1);
#undef VARINT
  return b;
}

static void
check_shaped_plans (gboolean with_tid)
{
  g_autoptr(GByteArray) b = build_shaped (0, with_tid);
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = load (b, &error);
  const KymoSpan *spans;
  const KymoFlow *flows;
  KymoTrack *w300, *w1;
  gsize n;

  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  w300 = kymo_test_find_track (trace, "worker 300");
  w1 = kymo_test_find_track (trace, "worker 1");
  g_assert_nonnull (w300);
  g_assert_nonnull (w1);
  spans = kymo_track_get_spans (w300, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpint (spans[0].start, ==, 1000000);
  g_assert_cmpint (spans[0].end, ==, 1000100);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[0])), ==, "src/main.rs:10");
  g_assert_cmpint (spans[1].start, ==, 1000200);
  g_assert_cmpint (spans[1].end, ==, 1000600);
  /* The wake joins the poll of the task with the ten-byte id to the
   * poll of the task it woke. */
  flows = kymo_trace_get_flows (trace, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpuint (flows[0].from_track, ==, kymo_track_get_id (w300));
  g_assert_cmpint (flows[0].from_ts, ==, 1000050);
  g_assert_cmpuint (flows[0].to_track, ==, kymo_track_get_id (w1));
  g_assert_cmpint (flows[0].to_ts, ==, 1000700);
  /* The one-byte fields between the varints: the local queue at the
   * poll, the park and the unpark. */
  {
    const KymoSample *lq = kymo_track_get_samples (kymo_test_find_track (trace, "worker 300 local queue"), &n);

    g_assert_cmpuint (n, ==, 3);
    g_assert_cmpfloat (lq[0].value, ==, 3);
    g_assert_cmpfloat (lq[1].value, ==, 0);
    g_assert_cmpfloat (lq[2].value, ==, 2);
  }
  /* The varints after them: the CPU clock at the park and the unpark,
   * and the kernel's scheduling wait at the unpark. */
  {
    const KymoRecord *records = kymo_records_get_all (kymo_trace_get_records (trace), &n);
    guint32 cpu = kymo_trace_lookup_name (trace, "cpu"), unpark = kymo_trace_lookup_name (trace, "unpark");
    guint64 want_cpu[] = { G_GUINT64_CONSTANT (1) << 35, G_GUINT64_CONSTANT (1) << 36 };
    guint n_cpu = 0, n_unpark = 0;

    for (gsize i = 0; i < n; i++)
      if (records[i].kind == cpu)
        {
          g_assert_cmpuint (n_cpu, <, G_N_ELEMENTS (want_cpu));
          g_assert_cmpuint (records[i].value, ==, want_cpu[n_cpu++]);
        }
      else if (records[i].kind == unpark)
        {
          g_assert_cmpuint (records[i].value, ==, 1 << 14);
          n_unpark++;
        }
    g_assert_cmpuint (n_cpu, ==, 2);
    g_assert_cmpuint (n_unpark, ==, 1);
  }

  for (guint slot = 1; slot <= 10; slot++)
    {
      g_autoptr(GByteArray) bad = build_shaped (slot, with_tid);
      g_autoptr(KymoTrace) cut = NULL;
      const GError *stop;

      g_test_message ("overlong varint in slot %u", slot);
      cut = load (bad, &error);
      g_assert_no_error (error);
      g_assert_nonnull (cut);
      stop = kymo_trace_get_stop_error (cut);
      g_assert_nonnull (stop);
      g_assert_error (stop, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT);
      /* What came before the damage stays */
      g_assert_cmpuint (n_instants (kymo_test_find_track (cut, "Plain")), ==, 1);
    }
}

static void
test_shaped_plans (void)
{
  check_shaped_plans (TRUE);
  check_shaped_plans (FALSE);
}

/* CPU samples with an inline call chain have a plan of their own: the
 * frames as the generic loop reads them, and a count past the end of the
 * input is a frame cut short there, at the event's start. */
static void
test_planned_call_chains (void)
{
  const char *cpu[] = { "worker_id:9", "source:11", "callchain:8", NULL };
  const char *plain[] = { NULL };

  for (guint cut = 0; cut < 3; cut++)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(JsonObject) args = NULL;
      KymoTrack *w2;
      KymoEventRef ref;
      JsonArray *chain;
      gsize n, last;

      d9b_header (b);
      d9b_schema (b, 0, "CpuSampleEvent", TRUE, cpu);
      d9b_schema (b, 1, "Plain", TRUE, plain);
      d9b_reset (b, 1000);
      d9b_event (b, 1, 0);
      d9b_event (b, 0, 10); d9b_varint (b, 2); d9b_u8 (b, 0);
      d9b_u32 (b, 3); d9b_u64 (b, 0x1111); d9b_u64 (b, 0x2222); d9b_u64 (b, 0x3333);
      last = b->len;
      d9b_event (b, 0, 10); d9b_varint (b, 2); d9b_u8 (b, 0);
      /* 0: whole; 1: two frames of three; 2: a count no input holds */
      d9b_u32 (b, cut == 2 ? G_MAXUINT32 : 3); d9b_u64 (b, 0x4444); d9b_u64 (b, 0x5555);
      if (cut == 0)
        d9b_u64 (b, 0x6666);
      d9b_event (b, 1, 10);

      trace = load (b, &error);
      g_assert_no_error (error);
      g_assert_null (kymo_trace_get_stop_error (trace));
      w2 = kymo_test_find_track (trace, "worker 2");
      g_assert_nonnull (w2);
      kymo_track_get_instants (w2, &n);
      g_assert_cmpuint (n, ==, cut == 0 ? 2 : 1);
      ref.track = kymo_track_get_id (w2);
      ref.kind = KYMO_EVENT_KIND_INSTANT;
      ref.index = n - 1;
      args = kymo_trace_describe_event (trace, &ref);
      chain = json_object_get_array_member (args, "callchain");
      g_assert_cmpuint (json_array_get_length (chain), ==, 3);
      g_assert_cmpstr (json_array_get_string_element (chain, 0), ==, cut == 0 ? "0x0000000000004444" : "0x0000000000001111");
      g_assert_cmpstr (json_array_get_string_element (chain, 2), ==, cut == 0 ? "0x0000000000006666" : "0x0000000000003333");
      g_assert_cmpuint (n_instants (kymo_test_find_track (trace, "Plain")), ==, cut == 0 ? 2 : 1);
      if (cut > 0)
        {
          g_autofree char *at = g_strdup_printf ("offset %" G_GSIZE_FORMAT ":", last);
          const KymoWarning *warnings;
          gsize n_warnings;
          gboolean found = FALSE;

          warnings = kymo_trace_get_warnings (trace, &n_warnings);
          for (gsize i = 0; i < n_warnings; i++)
            found |= g_str_has_prefix (warnings[i].message, at) && strstr (warnings[i].message, "ends inside a frame");
          g_assert_true (found);
        }
    }
}

/* Every field type, optional ones present and absent, through dump and describe. */
static void
test_field_types (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const char *fields[] = { "i:1", "f:2", "b:3", "s:4", "y:5", "ps:6", "p:7", "st:8", "v:9", "m:10",
                           "u8:11", "u16:12", "u32:13", "l:14", "dm:15", "o1:135", "o2:137", NULL };
  const guint64 frames[] = { 0x1000, 0x2000 };
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  JsonObject *ev, *f;
  JsonArray *a;
  gboolean ok;
  double x = 2.5;
  guint64 bits;

  d9b_header (b);
  d9b_schema (b, 9, "Everything", TRUE, fields);
  d9b_pool (b, 3, "pooled");
  d9b_stack_pool (b, 4, frames, 2);
  d9b_event (b, 9, 10);
  d9b_u64 (b, (guint64) -5);
  memcpy (&bits, &x, 8);
  d9b_u64 (b, bits);
  d9b_u8 (b, 1);
  d9b_str32 (b, "hello");
  d9b_u32 (b, 2); d9b_u8 (b, 0xab); d9b_u8 (b, 0xcd);
  d9b_u32 (b, 4);
  d9b_u32 (b, 3);
  d9b_u32 (b, 1); d9b_u64 (b, G_MAXUINT64);
  d9b_varint (b, 300);
  d9b_u32 (b, 1); d9b_str32 (b, "k"); d9b_str32 (b, "v");
  d9b_u8 (b, 200);
  d9b_u16 (b, 65000);
  d9b_u32 (b, 4000000000u);
  /* List [Varint 1, String "x"] */
  d9b_u32 (b, 2); d9b_u8 (b, 9); d9b_varint (b, 1); d9b_u8 (b, 4); d9b_str32 (b, "x");
  /* Map {U8 1: List []} */
  d9b_u32 (b, 1); d9b_u8 (b, 11); d9b_u8 (b, 1); d9b_u8 (b, 14); d9b_u32 (b, 0);
  d9b_u8 (b, 1); d9b_u32 (b, 77);
  d9b_u8 (b, 0);

  lines = dump_lines (b, &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_cmpuint (lines->len, ==, 5);
  g_assert_cmpstr (json_object_get_string_member (line (lines, 0), "kind"), ==, "header");
  a = json_object_get_array_member (line (lines, 1), "fields");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (a, 5), "type"), ==, "PooledStackFrames");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (a, 14), "type"), ==, "Map");
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (a, 15), "optional"));
  g_assert_cmpstr (json_object_get_string_member (line (lines, 3), "kind"), ==, "stack_pool");

  ev = line (lines, 4);
  g_assert_cmpstr (json_object_get_string_member (ev, "kind"), ==, "event");
  g_assert_cmpint (json_object_get_int_member (ev, "ts"), ==, 10);
  f = json_object_get_object_member (ev, "fields");
  g_assert_cmpint (json_object_get_int_member (f, "i"), ==, -5);
  g_assert_cmpfloat (json_object_get_double_member (f, "f"), ==, 2.5);
  g_assert_true (json_object_get_boolean_member (f, "b"));
  g_assert_cmpstr (json_object_get_string_member (f, "s"), ==, "hello");
  g_assert_cmpstr (json_object_get_string_member (f, "y"), ==, "abcd");
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (f, "ps"), 1), ==, 0x2000);
  g_assert_cmpstr (json_object_get_string_member (f, "p"), ==, "pooled");
  g_assert_cmpint (json_object_get_int_member (f, "v"), ==, 300);
  g_assert_cmpstr (json_array_get_string_element (json_array_get_array_element (json_object_get_array_member (f, "m"), 0), 1), ==, "v");
  g_assert_cmpint (json_object_get_int_member (f, "u8"), ==, 200);
  g_assert_cmpint (json_object_get_int_member (f, "u16"), ==, 65000);
  g_assert_cmpint (json_object_get_int_member (f, "u32"), ==, 4000000000u);
  a = json_object_get_array_member (f, "l");
  g_assert_cmpint (json_array_get_int_element (a, 0), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (a, 1), ==, "x");
  a = json_array_get_array_element (json_object_get_array_member (f, "dm"), 0);
  g_assert_cmpint (json_array_get_int_element (a, 0), ==, 1);
  g_assert_cmpint (json_array_get_length (json_array_get_array_element (a, 1)), ==, 0);
  /* A pool id not defined (yet) prints as itself */
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (f, "o1"), "pool_id"), ==, 77);
  g_assert_true (json_object_get_null_member (f, "o2"));

  /* The full u64 range prints exactly */
  {
    g_autofree char *text = kymo_test_dump_bytes (b->data, b->len, "dial9", &ok, NULL);
    g_assert_nonnull (strstr (text, "\"st\":[18446744073709551615]"));
  }

  /* The model: an instant on the schema's own track, described in full */
  trace = load (b, &error);
  g_assert_no_error (error);
  {
    KymoTrack *t = kymo_test_find_track (trace, "Everything");
    KymoEventRef ref;
    g_autoptr(JsonObject) args = NULL;

    g_assert_nonnull (t);
    g_assert_cmpuint (n_instants (t), ==, 1);
    ref.track = kymo_track_get_id (t);
    ref.kind = KYMO_EVENT_KIND_INSTANT;
    ref.index = 0;
    args = kymo_trace_describe_event (trace, &ref);
    g_assert_nonnull (args);
    g_assert_cmpstr (json_object_get_string_member (args, "s"), ==, "hello");
    g_assert_cmpstr (json_object_get_string_member (args, "p"), ==, "pooled");
    g_assert_true (json_object_has_member (args, "dm"));
    g_assert_true (json_object_get_null_member (args, "o2"));
  }
}

static void
test_segments_and_reregistration (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const char *f1[] = { "a:9", NULL };
  const char *f2[] = { "a:11", "b:11", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GPtrArray) lines = NULL;
  gboolean ok;

  d9b_header (b);
  d9b_schema (b, 0, "First", TRUE, f1);
  d9b_schema (b, 0, "First", TRUE, f1); /* identical: accepted */
  d9b_reset (b, 5000);
  d9b_event (b, 0, 1); d9b_varint (b, 1);
  /* New segment: same type id, other schema, timestamp base back at 0 */
  d9b_header (b);
  d9b_schema (b, 0, "Second", TRUE, f2);
  d9b_event (b, 0, 7000); d9b_u8 (b, 1); d9b_u8 (b, 2);
  d9b_event (b, 0, 10); d9b_u8 (b, 1); d9b_u8 (b, 2);

  trace = load (b, &error);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  g_assert_cmpint (kymo_track_get_instants (kymo_test_find_track (trace, "First"), &(gsize) { 0 })[0].ts, ==, 5001);
  g_assert_cmpuint (n_instants (kymo_test_find_track (trace, "Second")), ==, 2);
  g_assert_cmpint (kymo_track_get_instants (kymo_test_find_track (trace, "Second"), &(gsize) { 0 })[1].ts, ==, 7010);

  lines = dump_lines (b, &ok, &error);
  g_assert_true (ok);
  g_assert_cmpuint (lines->len, ==, 9);
  g_assert_cmpstr (json_object_get_string_member (line (lines, 2), "kind"), ==, "schema");
  g_assert_cmpstr (json_object_get_string_member (line (lines, 3), "kind"), ==, "timestamp_reset");
  g_assert_cmpstr (json_object_get_string_member (line (lines, 5), "kind"), ==, "header");
}

typedef struct {
  const char *what;
  void      (*damage) (GByteArray *b);
  gint        code;
  guint64     offset;   /* G_MAXUINT64: do not check */
} ErrorCase;

static const char *plain_fields[] = { "v:9", NULL };

static void
good_prefix (GByteArray *b)
{
  d9b_header (b);
  d9b_schema (b, 1, "Plain", TRUE, plain_fields);
  d9b_event (b, 1, 5); d9b_varint (b, 1);
}

static void damage_tag (GByteArray *b) { d9b_u8 (b, 0x07); }
static void damage_unknown_type (GByteArray *b) { d9b_event (b, 2, 1); d9b_varint (b, 1); }
static void damage_field_type (GByteArray *b) { const char *f[] = { "x:16", NULL }; d9b_schema (b, 3, "Bad", TRUE, f); }
static void damage_redefine (GByteArray *b) { const char *f[] = { "v:11", NULL }; d9b_schema (b, 1, "Plain", TRUE, f); }
static void damage_optional (GByteArray *b) { const char *f[] = { "o:137", NULL }; d9b_schema (b, 4, "Opt", FALSE, f); d9b_event (b, 4, -1); d9b_u8 (b, 2); d9b_u8 (b, 0); }
static void damage_varint (GByteArray *b) { d9b_event (b, 1, 1); for (int i = 0; i < 11; i++) d9b_u8 (b, 0xff); d9b_u8 (b, 0); }
static void damage_nesting (GByteArray *b)
{
  const char *f[] = { "l:14", NULL };
  d9b_schema (b, 5, "Deep", FALSE, f);
  d9b_event (b, 5, -1);
  for (int i = 0; i < 40; i++) { d9b_u32 (b, 1); d9b_u8 (b, 14); }
  d9b_u32 (b, 0);
}
static void damage_list_tag (GByteArray *b) { const char *f[] = { "l:14", NULL }; d9b_schema (b, 5, "L", FALSE, f); d9b_event (b, 5, -1); d9b_u32 (b, 1); d9b_u8 (b, 0x42); d9b_u8 (b, 0); }
static void damage_version (GByteArray *b) { g_byte_array_append (b, (const guint8 *) "TRC\0\2", 5); }
static void damage_truncated_event (GByteArray *b) { d9b_event (b, 1, 1); d9b_u8 (b, 0x80); }
static void damage_truncated_pool (GByteArray *b) { d9b_u8 (b, 0x03); d9b_u32 (b, 1); d9b_u32 (b, 0); d9b_u32 (b, 100); d9b_u8 (b, 'x'); }

static const ErrorCase error_cases[] = {
  { "unknown frame tag", damage_tag, KYMO_LOAD_ERROR_CORRUPT, 29 },
  { "event without schema", damage_unknown_type, KYMO_LOAD_ERROR_CORRUPT, 29 },
  { "unknown field type", damage_field_type, KYMO_LOAD_ERROR_CORRUPT, G_MAXUINT64 },
  { "schema redefined", damage_redefine, KYMO_LOAD_ERROR_CORRUPT, 29 },
  { "bad presence byte", damage_optional, KYMO_LOAD_ERROR_CORRUPT, G_MAXUINT64 },
  { "varint too long", damage_varint, KYMO_LOAD_ERROR_CORRUPT, G_MAXUINT64 },
  { "nesting too deep", damage_nesting, KYMO_LOAD_ERROR_CORRUPT, G_MAXUINT64 },
  { "bad nested tag", damage_list_tag, KYMO_LOAD_ERROR_CORRUPT, G_MAXUINT64 },
  { "segment of another version", damage_version, KYMO_LOAD_ERROR_CORRUPT, 29 },
  { "truncated event", damage_truncated_event, KYMO_LOAD_ERROR_TRUNCATED, 29 },
  { "truncated pool", damage_truncated_pool, KYMO_LOAD_ERROR_TRUNCATED, 29 },
};

static void
test_error_paths (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      const ErrorCase *c = &error_cases[i];
      g_autoptr(GByteArray) b = g_byte_array_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(GError) dump_error = NULL;
      g_autoptr(KymoTrace) trace = NULL;
      g_autofree char *dump = NULL;
      gboolean ok;

      g_test_message ("case: %s", c->what);
      good_prefix (b);
      g_assert_cmpuint (b->len, ==, 29);
      c->damage (b);

      trace = load (b, &error);
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      /* The event before the damage stays */
      g_assert_cmpuint (n_instants (kymo_test_find_track (trace, "Plain")), ==, 1);
      if (c->code == KYMO_LOAD_ERROR_TRUNCATED)
        {
          gsize n_warnings;
          /* A trace still being written: a warning, not an error */
          g_assert_null (kymo_trace_get_stop_error (trace));
          kymo_trace_get_warnings (trace, &n_warnings);
          g_assert_cmpuint (n_warnings, >=, 1);
          g_assert_nonnull (strstr (kymo_trace_get_warnings (trace, &n_warnings)[0].message, "offset 29"));
        }
      else
        {
          const GError *stop = kymo_trace_get_stop_error (trace);
          g_assert_nonnull (stop);
          g_assert_error (stop, KYMO_LOAD_ERROR, c->code);
          if (c->offset != G_MAXUINT64)
            {
              g_autofree char *where = g_strdup_printf ("offset %" G_GUINT64_FORMAT ":", c->offset);
              g_assert_nonnull (strstr (stop->message, where));
            }
        }

      dump = kymo_test_dump_bytes (b->data, b->len, "dial9", &ok, &dump_error);
      g_assert_false (ok);
      g_assert_error (dump_error, KYMO_LOAD_ERROR, c->code);
      g_assert_nonnull (strstr (dump, "\"name\":\"Plain\",\"ts\":5"));
    }
}

static void
test_not_dial9 (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = kymo_test_load_bytes ((const guint8 *) "TRC\0\2xxxx", 9, "dial9", &error);

  g_assert_null (trace);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNSUPPORTED);
  g_clear_error (&error);
  trace = kymo_test_load_bytes ((const guint8 *) "hello world", 11, "dial9", &error);
  g_assert_null (trace);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT);
  g_clear_error (&error);
  /* Detection does not claim other bytes */
  trace = kymo_test_load_bytes ((const guint8 *) "hello world", 11, NULL, &error);
  g_assert_null (trace);
}

static GByteArray *
gzip_bytes (const guint8 *data,
            gsize         len)
{
  GByteArray *out = g_byte_array_new ();
  z_stream z = { 0 };
  guint8 buf[4096];
  int ret;

  g_assert_cmpint (deflateInit2 (&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  z.next_in = (Bytef *) data;
  z.avail_in = (uInt) len;
  do
    {
      z.next_out = buf;
      z.avail_out = sizeof buf;
      ret = deflate (&z, Z_FINISH);
      g_byte_array_append (out, buf, sizeof buf - z.avail_out);
    }
  while (ret != Z_STREAM_END);
  deflateEnd (&z);
  return out;
}

static void
test_gzip (void)
{
  g_autoptr(GByteArray) plain = build_runtime ();
  gsize half = 40;
  g_autoptr(GByteArray) one = gzip_bytes (plain->data, plain->len);
  g_autoptr(GByteArray) a = gzip_bytes (plain->data, half);
  g_autoptr(GByteArray) c = gzip_bytes (plain->data + half, plain->len - half);
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) t1 = NULL;
  g_autoptr(KymoTrace) t2 = NULL;
  g_autoptr(KymoTrace) t3 = NULL;
  g_autofree char *d1 = NULL;
  g_autofree char *d2 = NULL;
  guint64 s1, s2, i1, i2;
  gboolean ok;

  /* Detected through gzip by inflating only the head */
  t1 = kymo_test_load_bytes (one->data, one->len, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr ("dial9", ==, kymo_trace_get_format (t1)->name);

  /* Two members cut in the middle of a frame */
  g_byte_array_append (a, c->data, c->len);
  t2 = kymo_test_load_bytes (a->data, a->len, NULL, &error);
  g_assert_no_error (error);
  kymo_trace_count_events (t1, &s1, &i1, NULL, NULL);
  kymo_trace_count_events (t2, &s2, &i2, NULL, NULL);
  g_assert_cmpuint (s1, ==, 3);
  g_assert_cmpuint (s1, ==, s2);
  g_assert_cmpuint (i1, ==, i2);

  d1 = kymo_test_dump_bytes (plain->data, plain->len, "dial9", &ok, NULL);
  g_assert_true (ok);
  d2 = kymo_test_dump_bytes (a->data, a->len, "dial9", &ok, NULL);
  g_assert_true (ok);
  g_assert_cmpstr (d1, ==, d2);

  /* A gzip stream cut short: what inflated loads, with a warning */
  t3 = kymo_test_load_bytes (one->data, one->len - 12, "dial9", &error);
  g_assert_no_error (error);
  g_assert_nonnull (t3);
  {
    gsize n_warnings;
    kymo_trace_get_warnings (t3, &n_warnings);
    g_assert_cmpuint (n_warnings, >=, 1);
  }
}

static void
test_wallclock_and_symbols (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const char *meta[] = { "entries:10", NULL };
  const char *clock[] = { "realtime_ns:9", NULL };
  const char *sym[] = { "addr:9", "size:9", "symbol_name:7", "inline_depth:9", NULL };
  const char *cpu[] = { "worker_id:9", "tid:13", "source:11", "thread_name:135", "callchain:8", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  KymoTime start, end;
  gint64 offset;

  d9b_header (b);
  d9b_schema (b, 0, "SegmentMetadataEvent", TRUE, meta);
  d9b_reset (b, G_GUINT64_CONSTANT (1776269044055185906));
  d9b_event (b, 0, 0);
  d9b_u32 (b, 2);
  d9b_str32 (b, "service"); d9b_str32 (b, "demo");
  d9b_str32 (b, "runtime.io"); d9b_str32 (b, "0,1");
  d9b_header (b);
  d9b_schema (b, 0, "ClockSyncEvent", TRUE, clock);
  d9b_schema (b, 1, "CpuSampleEvent", TRUE, cpu);
  d9b_reset (b, 2000000);
  d9b_event (b, 0, 0); d9b_varint (b, G_GUINT64_CONSTANT (1776269044000000000));
  d9b_event (b, 1, 100); d9b_varint (b, 1); d9b_u32 (b, 42); d9b_u8 (b, 0); d9b_u8 (b, 0);
  d9b_u32 (b, 2); d9b_u64 (b, 0x1010); d9b_u64 (b, 0x9999);
  d9b_event (b, 1, 900); d9b_varint (b, 3); d9b_u32 (b, 42); d9b_u8 (b, 1); d9b_u8 (b, 0); d9b_u32 (b, 0);
  /* The symbolizer's segment: timestamp 0 */
  d9b_header (b);
  d9b_schema (b, 0, "SymbolTableEntry", TRUE, sym);
  d9b_pool (b, 0, "my_function");
  d9b_event (b, 0, 0); d9b_varint (b, 0x1000); d9b_varint (b, 0x100); d9b_u32 (b, 0); d9b_varint (b, 0);

  trace = load (b, &error);
  g_assert_no_error (error);
  kymo_trace_get_time_range (trace, &start, &end);
  g_assert_cmpint (start, ==, 2000000);
  g_assert_cmpint (end, ==, 2001000);
  g_assert_true (kymo_trace_get_wallclock (trace, &offset));
  g_assert_cmpint (offset, ==, G_GINT64_CONSTANT (1776269044000000000) - 2000000);
  g_assert_cmpstr (kymo_trace_get_metadata (trace, "service"), ==, "demo");

  /* runtime.io lists workers 0 and 1: worker 1 sits in the "io" group, worker 3 does not */
  {
    KymoTrack *w1 = kymo_test_find_track (trace, "worker 1");
    KymoTrack *w3 = kymo_test_find_track (trace, "worker 3");
    const KymoInstant *in;
    KymoEventRef ref;
    g_autoptr(JsonObject) args = NULL;
    JsonArray *chain;
    gsize n;

    g_assert_nonnull (w1);
    g_assert_cmpstr (kymo_track_get_name (kymo_trace_get_track (trace, kymo_track_get_parent (w1))), ==, "io");
    g_assert_cmpstr (kymo_track_get_name (kymo_trace_get_track (trace, kymo_track_get_parent (w3))), !=, "io");
    in = kymo_track_get_instants (w1, &n);
    g_assert_cmpuint (n, ==, 1);
    g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name ((const KymoSpan *) &(KymoSpan) { 0, 0, in[0].name_flags, 0 })), ==, "CPU sample");

    /* The call chain is symbolised through the symbol table at the end */
    ref.track = kymo_track_get_id (w1);
    ref.kind = KYMO_EVENT_KIND_INSTANT;
    ref.index = 0;
    args = kymo_trace_describe_event (trace, &ref);
    g_assert_nonnull (args);
    chain = json_object_get_array_member (args, "callchain");
    g_assert_cmpstr (json_array_get_string_element (chain, 0), ==, "my_function");
    g_assert_cmpstr (json_array_get_string_element (chain, 1), ==, "0x0000000000009999");
  }
  /* Metadata feeds the model (service, wall clock, symbols): it is not a track */
  g_assert_null (kymo_test_find_track (trace, "SegmentMetadataEvent"));
  g_assert_null (kymo_test_find_track (trace, "ClockSyncEvent"));
  g_assert_null (kymo_test_find_track (trace, "SymbolTableEntry"));
}

/* CPU and scheduler samples reach KymoStacks symbolised: frames outermost
 * first, inline frames of their own, short file:line locations, unresolved
 * addresses as hex, undefined pool ids as KYMO_NO_STACK. */
static void
check_sampled_stacks (guint n_tables)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const char *cpu[] = { "worker_id:9", "tid:13", "source:11", "thread_name:135", "callchain:6", "cpu:137", NULL };
  const char *dump[] = { "task_id:9", "callchain:6", NULL };
  const char *sym[] = { "addr:9", "size:9", "symbol_name:7", "inline_depth:9", "source_file:7", "source_line:9", NULL };
  const char *cf[] = { "address:9", "symbol:4", "location:4", NULL };
  const guint64 chain[] = { 0x2010, 0x1004, 0x7777 };
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  KymoStacks *stacks;
  const KymoStackSample *samples;
  const KymoFrame *frames;
  gsize n, n_frames;
  static const char * const want[][2] = {
    { "0x7777", NULL },
    { "tokio::runtime::task::core::Core<T,S>::poll", "tokio-1.52.2/src/runtime/task/core.rs:364" },
    { "tokio::loom::std::unsafe_cell::UnsafeCell<T>::with_mut", "tokio-1.52.2/src/loom/std/unsafe_cell.rs:16" },
    { "leaf_fn", "src/main.rs:7" },
  };

  d9b_header (b);
  d9b_schema (b, 0, "CpuSampleEvent", TRUE, cpu);
  d9b_schema (b, 1, "TaskDumpEvent", TRUE, dump);
  d9b_stack_pool (b, 5, chain, G_N_ELEMENTS (chain));
  d9b_reset (b, 1000);
  d9b_event (b, 0, 0); d9b_varint (b, 0); d9b_u32 (b, 7); d9b_u8 (b, 0); d9b_u8 (b, 0); d9b_u32 (b, 5); d9b_u8 (b, 0);
  d9b_event (b, 0, 50); d9b_varint (b, 0); d9b_u32 (b, 7); d9b_u8 (b, 1); d9b_u8 (b, 0); d9b_u32 (b, 5); d9b_u8 (b, 0);
  /* pool id 99 is never defined */
  d9b_event (b, 0, 50); d9b_varint (b, 1); d9b_u32 (b, 8); d9b_u8 (b, 0); d9b_u8 (b, 0); d9b_u32 (b, 99); d9b_u8 (b, 0);
  d9b_event (b, 1, 10); d9b_varint (b, 3); d9b_u32 (b, 5);
  /* symbol tables at the end, in a segment of their own; rotated files
   * repeat them, segment after segment */
  for (guint t = 0; t < n_tables; t++)
    {
      d9b_header (b);
      d9b_schema (b, 0, "SymbolTableEntry", TRUE, sym);
      d9b_schema (b, 1, "CallframeDefEvent", TRUE, cf);
      d9b_pool (b, 1, "tokio::runtime::task::core::Core<T,S>::poll");
      d9b_pool (b, 2, "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/tokio-1.52.2/src/runtime/task/core.rs");
      d9b_pool (b, 3, "tokio::loom::std::unsafe_cell::UnsafeCell<T>::with_mut");
      d9b_pool (b, 4, "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/tokio-1.52.2/src/loom/std/unsafe_cell.rs");
      d9b_event (b, 0, 0); d9b_varint (b, 0x1004); d9b_varint (b, 0); d9b_u32 (b, 3); d9b_varint (b, 1); d9b_u32 (b, 4); d9b_varint (b, 16);
      d9b_event (b, 0, 0); d9b_varint (b, 0x1000); d9b_varint (b, 0x100); d9b_u32 (b, 1); d9b_varint (b, 0); d9b_u32 (b, 2); d9b_varint (b, 364);
      d9b_event (b, 0, 0); d9b_varint (b, 0x1004); d9b_varint (b, 0); d9b_u32 (b, 1); d9b_varint (b, 0); d9b_u32 (b, 2); d9b_varint (b, 364);
      d9b_event (b, 1, 0); d9b_varint (b, 0x2010); d9b_str32 (b, "leaf_fn"); d9b_str32 (b, "src/main.rs:7");
    }

  trace = load (b, &error);
  g_assert_no_error (error);
  g_assert_null (kymo_test_find_track (trace, "TaskDumpEvent"));
  g_assert_null (kymo_test_find_track (trace, "CallframeDefEvent"));

  stacks = kymo_trace_get_stacks (trace);
  samples = kymo_stacks_get_samples (stacks, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (samples[0].ts, ==, 1000);
  g_assert_cmpint (samples[1].ts, ==, 1050);
  g_assert_cmpint (samples[2].ts, ==, 1100);
  g_assert_cmpuint (samples[0].track, ==, kymo_track_get_id (kymo_test_find_track (trace, "worker 0")));
  g_assert_cmpuint (samples[2].track, ==, kymo_track_get_id (kymo_test_find_track (trace, "worker 1")));
  g_assert_cmpstr (kymo_trace_get_name (trace, samples[0].kind), ==, "cpu");
  g_assert_cmpstr (kymo_trace_get_name (trace, samples[1].kind), ==, "sched");
  g_assert_cmpuint (samples[0].stack, ==, samples[1].stack);
  g_assert_cmpuint (samples[2].stack, ==, KYMO_NO_STACK);

  frames = kymo_stacks_get (stacks, samples[0].stack, &n_frames);
  g_assert_cmpuint (n_frames, ==, G_N_ELEMENTS (want));
  for (guint i = 0; i < n_frames; i++)
    {
      g_assert_cmpstr (kymo_trace_get_name (trace, frames[i].name), ==, want[i][0]);
      if (want[i][1] == NULL)
        g_assert_cmpuint (frames[i].location, ==, 0);
      else
        g_assert_cmpstr (kymo_trace_get_name (trace, frames[i].location), ==, want[i][1]);
    }
}

static void
test_sampled_stacks (void)
{
  check_sampled_stacks (1);
}

/* The same symbol table in every segment names each frame once. */
static void
test_sampled_stacks_repeated_tables (void)
{
  check_sampled_stacks (3);
}

static void
test_tracing_spans (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  const char *enter[] = { "worker_id:9", "span_id:9", "parent_span_id:137", "span_name:7", "user:135", NULL };
  const char *exit_[] = { "worker_id:9", "span_id:9", "span_name:7", NULL };
  const char *req[] = { "worker_id:9", "duration_us:9", "route:7", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  KymoTrack *w, *reqs;
  const KymoSpan *spans;
  gsize n;

  d9b_header (b);
  d9b_schema (b, 0, "SpanEnter:app::outer:src/a.rs:1", TRUE, enter);
  d9b_schema (b, 1, "SpanExit:app::outer:src/a.rs:1", TRUE, exit_);
  d9b_schema (b, 2, "RequestEvent", TRUE, req);
  d9b_annotation (b, 2, 1, "dial9.role", "span.duration");
  d9b_annotation (b, 2, 1, "unit", "us");
  d9b_annotation (b, 2, 2, "dial9.role", "span.name");
  d9b_annotation (b, 99, 0, "unit", "ms"); /* no such type: skipped */
  d9b_pool (b, 0, "outer");
  d9b_pool (b, 1, "inner");
  d9b_pool (b, 2, "/get");
  d9b_reset (b, 10000);
  /* outer [10000, 10500], inner [10100, 10200] on worker 2 */
  d9b_event (b, 0, 0); d9b_varint (b, 2); d9b_varint (b, 11); d9b_u8 (b, 0); d9b_u32 (b, 0); d9b_u8 (b, 0);
  d9b_event (b, 0, 100); d9b_varint (b, 2); d9b_varint (b, 12); d9b_u8 (b, 1); d9b_varint (b, 11); d9b_u32 (b, 1); d9b_u8 (b, 0);
  d9b_event (b, 1, 100); d9b_varint (b, 2); d9b_varint (b, 12); d9b_u32 (b, 1);
  d9b_event (b, 1, 300); d9b_varint (b, 2); d9b_varint (b, 11); d9b_u32 (b, 0);
  /* two overlapping single-event requests, 0.3 us and 0.2 us, ending at 10600 and 10650 */
  d9b_event (b, 2, 100); d9b_varint (b, 2); d9b_varint (b, 0); d9b_u32 (b, 2);
  d9b_event (b, 2, 50); d9b_varint (b, 2); d9b_varint (b, 1); d9b_u32 (b, 2);

  trace = load (b, &error);
  g_assert_no_error (error);
  w = kymo_test_find_track (trace, "worker 2");
  g_assert_nonnull (w);
  g_assert_cmpuint (kymo_track_get_n_depths (w), ==, 3);
  spans = kymo_track_get_depth_spans (w, 1, &n, NULL);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (spans[0].start, ==, 10000);
  g_assert_cmpint (spans[0].end, ==, 10500);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[0])), ==, "outer");
  spans = kymo_track_get_depth_spans (w, 2, &n, NULL);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[0])), ==, "inner");

  reqs = kymo_test_find_track (trace, "RequestEvent");
  g_assert_nonnull (reqs);
  g_assert_cmpuint (n_spans (reqs), ==, 2);
  /* 1 us ending at 10650 overlaps the 0 us one at 10600: two lanes */
  g_assert_cmpuint (kymo_track_get_n_depths (reqs), ==, 2);
  spans = kymo_track_get_spans (reqs, &n);
  g_assert_cmpint (spans[0].start, ==, 9650);
  g_assert_cmpint (spans[0].end, ==, 10650);
  g_assert_cmpstr (kymo_trace_get_name (trace, kymo_span_name (&spans[0])), ==, "/get");
}

static void
test_every_prefix (void)
{
  g_autoptr(GByteArray) b = build_runtime ();
  g_autoptr(GByteArray) gz = gzip_bytes (b->data, b->len);
  guint clean;

  clean = kymo_test_every_prefix (b->data, b->len, "dial9", 1);
  g_assert_cmpuint (clean, >, 0);
  kymo_test_every_prefix (gz->data, gz->len, "dial9", 1);
}


/* Everything a user can see of a loaded trace, names by id included. */
static char *
fingerprint (KymoTrace *trace,
             GError    *error)
{
  GString *out = g_string_new (NULL);
  const KymoFlow *flows;
  const KymoWarning *warnings;
  gsize n;
  KymoTime t0, t1;

  g_string_append_printf (out, "error %s\n", error ? error->message : "-");
  if (trace == NULL)
    return g_string_free (out, FALSE);
  kymo_trace_get_time_range (trace, &t0, &t1);
  g_string_append_printf (out, "range %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n", t0, t1);
  for (guint i = 0; i < kymo_trace_get_n_names (trace); i++)
    g_string_append_printf (out, "name %u %s\n", i, kymo_trace_get_name (trace, i));
  for (guint i = 0; i < kymo_trace_get_n_metadata (trace); i++)
    {
      const char *key, *value;
      kymo_trace_get_nth_metadata (trace, i, &key, &value);
      g_string_append_printf (out, "meta %s=%s\n", key, value);
    }
  warnings = kymo_trace_get_warnings (trace, &n);
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (out, "warning %" G_GUINT64_FORMAT " %s\n", warnings[i].offset, warnings[i].message);
  flows = kymo_trace_get_flows (trace, &n);
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (out, "flow %u %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u %u\n", flows[i].from_track,
                            flows[i].to_track, flows[i].from_ts, flows[i].to_ts, flows[i].name, flows[i].source);
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      const KymoSpan *spans = kymo_track_get_spans (track, &n);
      const KymoInstant *instants;
      const KymoSample *samples;

      g_string_append_printf (out, "track %u parent %u kind %d %s sort %" G_GINT64_FORMAT " tag %" G_GUINT64_FORMAT "\n",
                              t, kymo_track_get_parent (track), kymo_track_get_kind (track),
                              kymo_track_get_name (track), kymo_track_get_sort_key (track), kymo_track_get_tag (track));
      for (gsize i = 0; i < n; i++)
        {
          KymoEventRef ref = { t, KYMO_EVENT_KIND_SPAN, (guint32) i };
          g_autoptr(JsonObject) args = i % 7 == 0 ? kymo_trace_describe_event (trace, &ref) : NULL;
          g_autofree char *text = NULL;

          if (args != NULL)
            {
              g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), args);
              text = json_to_string (node, FALSE);
            }
          g_string_append_printf (out, " span %u %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %08x %u %s\n",
                                  kymo_track_get_span_depth (track, i), spans[i].start, spans[i].end,
                                  spans[i].name_flags, spans[i].source, text ? text : "");
        }
      instants = kymo_track_get_instants (track, &n);
      for (gsize i = 0; i < n; i++)
        g_string_append_printf (out, " instant %" G_GINT64_FORMAT " %08x %u\n", instants[i].ts,
                                instants[i].name_flags, instants[i].source);
      samples = kymo_track_get_samples (track, &n);
      for (gsize i = 0; i < n; i++)
        g_string_append_printf (out, " sample %" G_GINT64_FORMAT " %g\n", samples[i].ts, samples[i].value);
    }
  /* What the analyses read: records and sampled stacks. */
  {
    const KymoRecord *records = kymo_records_get_all (kymo_trace_get_records (trace), &n);
    KymoStacks *stacks = kymo_trace_get_stacks (trace);
    const KymoStackSample *ss;

    for (gsize i = 0; i < n; i++)
      g_string_append_printf (out, "record %u %" G_GINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %u %u %u\n",
                              records[i].kind, records[i].ts, records[i].key, records[i].value,
                              records[i].name, records[i].track, records[i].source);
    ss = kymo_stacks_get_samples (stacks, &n);
    for (gsize i = 0; i < n; i++)
      {
        const KymoFrame *frames = NULL;
        gsize n_frames = 0;

        g_string_append_printf (out, "stack sample %u %" G_GINT64_FORMAT " %u %u %u", ss[i].track, ss[i].ts,
                                ss[i].stack, ss[i].kind, ss[i].source);
        if (ss[i].stack != KYMO_NO_STACK)
          frames = kymo_stacks_get (stacks, ss[i].stack, &n_frames);
        for (gsize f = 0; f < n_frames; f++)
          g_string_append_printf (out, " %s", kymo_trace_get_name (trace, frames[f].name));
        g_string_append_c (out, '\n');
      }
  }
  return g_string_free (out, FALSE);
}

/* Segments that the loader may decode on several threads and merge: wakes
 * pending across segments, queue depths repeated across them, polls and
 * spans left open at a segment's end, task spawns, metadata, a fake header
 * inside a string pool, a late segment going back in time. */
static GByteArray *
build_segments (gboolean disorder,
                guint    scale)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *park[] = { "worker_id:9", "local_queue:11", "cpu_time_ns:9", NULL };
  const char *wake[] = { "waker_task_id:9", "woken_task_id:9", "target_worker:11", NULL };
  const char *spawn[] = { "task_id:9", "spawn_loc:7", NULL };
  const char *cpu[] = { "worker_id:9", "source:11", "callchain:6", NULL };
  const char *enter[] = { "worker_id:9", "span_id:9", "span_name:7", NULL };
  const char *exit_[] = { "worker_id:9", "span_id:9", NULL };
  const char *meta[] = { "entries:10", NULL };
  GByteArray *b = g_byte_array_new ();
  guint64 ts = 1000;
  guint32 rng = 7;

  for (guint seg = 0; seg < 24; seg++)
    {
      guint64 base = 0;
      guint rounds = (40 + (seg * 37) % 90) * scale;

      d9b_header (b);
      d9b_schema (b, 3, "PollStartEvent", TRUE, poll_start);
      d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
      d9b_schema (b, 2, "WorkerParkEvent", TRUE, park);
      d9b_schema (b, 0, "WakeEventEvent", TRUE, wake);
      d9b_schema (b, 4, "CpuSampleEvent", TRUE, cpu);
      d9b_schema (b, 5, "SpanEnter:app::x:a.rs:1", TRUE, enter);
      d9b_schema (b, 6, "SpanExit:app::x:a.rs:1", TRUE, exit_);
      if (seg % 5 == 2)
        d9b_schema (b, 7, "TaskSpawnEvent", TRUE, spawn);
      if (seg % 7 == 3)
        d9b_schema (b, 8, "SegmentMetadataEvent", TRUE, meta);
      for (guint i = 0; i < 6; i++)
        {
          g_autofree char *loc = g_strdup_printf ("src/seg%u/t%u.rs:%u", seg % 9, i, i + 1);
          d9b_pool (b, i, loc);
        }
      d9b_pool (b, 50 + seg % 3, seg % 2 ? "outer" : "inner");
      /* Pooled call chains: the same ids name other stacks in each
       * segment, which a part's samples must keep. */
      for (guint i = 0; i < 2; i++)
        {
          const guint64 chain[] = { 0x1000 + seg, 0x2000 + i, 0x3000 + seg % 4 };

          d9b_stack_pool (b, i, chain, G_N_ELEMENTS (chain) - i);
        }
      if (seg % 4 == 1)
        {
          /* A header inside a pool string is no segment. */
          static const guint8 fake[] = { 'x', 'T', 'R', 'C', 0, 1, 0x02, 0x09, 0x00 };

          d9b_u8 (b, 0x03);
          d9b_u32 (b, 1);
          d9b_u32 (b, 60);
          d9b_u32 (b, sizeof fake);
          g_byte_array_append (b, fake, sizeof fake);
        }
      if (disorder && seg == 17)
        ts -= 5000;
      if (seg % 7 == 3)
        {
          d9b_event (b, 8, 0);
          d9b_u32 (b, 1);
          d9b_str32 (b, "runtime.main");
          d9b_str32 (b, "0,1");
        }
      for (guint r = 0; r < rounds; r++)
        {
          guint w = r % 3, task = (rng = rng * 1103515245 + 12345) >> 20;
          gboolean last = r + 1 == rounds;

          task %= 40;
#define STEP(dt) \
  do { ts += (dt); if (ts - base > 0xFFFFFF) { d9b_reset (b, ts); base = ts; } } while (0)
#define EV(type) \
  do { d9b_event (b, type, (gint32) (ts - base)); base = ts; } while (0)
          STEP (100);
          if (seg % 5 == 2 && r % 4 == 0)
            {
              EV (7);
              d9b_varint (b, task + 1);
              d9b_u32 (b, r % 6);
              STEP (10);
            }
          EV (3);
          d9b_varint (b, w);
          d9b_u8 (b, (r / 5) % 3);
          d9b_varint (b, task + 1);
          d9b_u32 (b, (task + seg) % 7);
          STEP (30);
          EV (0);
          d9b_varint (b, r % 9 == 0 ? 999 : task + 1);
          d9b_varint (b, (task * 7 + seg) % 40 + 1);
          d9b_u8 (b, 255);
          if (r % 3 == 0)
            {
              STEP (20);
              EV (5);
              d9b_varint (b, w);
              d9b_varint (b, r + 1);
              d9b_u32 (b, 50 + seg % 3);
              if (!(last && seg % 6 == 4))
                {
                  STEP (40);
                  EV (6);
                  d9b_varint (b, w);
                  d9b_varint (b, r + 1);
                }
            }
          if (r % 11 == 0)
            {
              STEP (5);
              EV (4);
              d9b_varint (b, w);
              d9b_u8 (b, r % 2);
              d9b_u32 (b, r % 3);
            }
          /* Some segments end with a poll still open. */
          if (!(last && seg % 8 == 5))
            {
              STEP (200);
              EV (1);
              d9b_varint (b, w);
            }
          if (r % 4 == 3)
            {
              STEP (50);
              EV (2);
              d9b_varint (b, w);
              d9b_u8 (b, 1);
              d9b_varint (b, r * 1000 + seg);
            }
#undef STEP
#undef EV
        }
    }
  return b;
}

static char *
load_fingerprint (const guint8 *data,
                  gsize         size,
                  const char   *threads)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;

  /* No other thread runs here: the loader joins its own. */
  kymo_test_set_threads ((guint) g_ascii_strtoull (threads, NULL, 10));
  trace = kymo_test_load_bytes (data, size, "dial9", &error);
  kymo_test_set_threads (0);
  return fingerprint (trace, error != NULL ? error : (GError *) (trace ? kymo_trace_get_stop_error (trace) : NULL));
}

/* Decoding segments on several threads gives the model of one thread,
 * whether the parts' arrays are copied or their pages moved into place
 * (a move minimum of 0 moves runs of any length). */
static void
test_parallel_same (void)
{
  const char *threads[] = { "2", "3", "4", "9" };

  for (guint v = 0; v < 4; v++)
    {
      d9_vec_set_move_min_for_testing (v >= 2 ? 0 : -1);
      /* Long enough for the parts' runs to span pages when moving. */
      g_autoptr(GByteArray) b = build_segments (v % 2 == 1, v >= 2 ? 25 : 1);
      gsize cuts[] = { b->len, b->len - 1, b->len * 2 / 3 + 1, b->len / 2, b->len / 3 + 7, 0 };

      /* The same with damage in a later segment. */
      if (v % 2 == 0)
        {
          g_autoptr(GByteArray) bad = g_byte_array_new ();
          g_autofree char *one = NULL;

          g_byte_array_append (bad, b->data, b->len);
          bad->data[bad->len * 3 / 4] = 0x77;
          one = load_fingerprint (bad->data, bad->len, "1");
          for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
            {
              g_autofree char *many = load_fingerprint (bad->data, bad->len, threads[t]);
              g_assert_cmpstr (one, ==, many);
            }
        }
      for (guint c = 0; c < G_N_ELEMENTS (cuts); c++)
        {
          g_autofree char *one = NULL;

          if (cuts[c] == 0)
            continue;
          one = load_fingerprint (b->data, cuts[c], "1");
          g_assert_nonnull (strstr (one, "flow "));
          for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
            {
              g_autofree char *many = load_fingerprint (b->data, cuts[c], threads[t]);
              g_assert_cmpstr (one, ==, many);
            }
        }
    }
  d9_vec_set_move_min_for_testing (-1);
}

/* Segments as a real file has them: each with its segment metadata, a
 * clock sync, a symbol table, single-event spans, a named instant track
 * and an event in wall-clock time besides its polls (@disorder: one
 * segment goes back in time, so the file does not stream). */
static GByteArray *
build_metadata_segments (gboolean disorder)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *meta[] = { "entries:10", NULL };
  const char *clock[] = { "realtime_ns:9", NULL };
  const char *sym[] = { "addr:9", "size:9", "symbol_name:7", "inline_depth:9", NULL };
  const char *req[] = { "worker_id:9", "duration_us:9", "route:7", NULL };
  const char *mark[] = { "value:9", NULL };
  GByteArray *b = g_byte_array_new ();
  guint64 ts = 5000;

  for (guint seg = 0; seg < 16; seg++)
    {
      g_autofree char *n = g_strdup_printf ("%u", seg);
      g_autofree char *fn = g_strdup_printf ("function_%u", seg % 5);
      g_autofree char *route = g_strdup_printf ("/route/%u", seg % 3);
      guint64 base;

      d9b_header (b);
      d9b_schema (b, 0, "PollStartEvent", TRUE, poll_start);
      d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
      d9b_schema (b, 2, "SegmentMetadataEvent", TRUE, meta);
      d9b_schema (b, 3, "ClockSyncEvent", TRUE, clock);
      d9b_schema (b, 4, "SymbolTableEntry", TRUE, sym);
      d9b_schema (b, 5, seg % 2 ? "RequestEvent" : "QueryEvent", TRUE, req);
      d9b_annotation (b, 5, 1, "dial9.role", "span.duration");
      d9b_annotation (b, 5, 1, "unit", "ns");
      d9b_annotation (b, 5, 2, "dial9.role", "span.name");
      d9b_schema (b, 6, seg % 3 ? "MarkEvent" : "OtherMarkEvent", TRUE, mark);
      d9b_pool (b, 0, "src/main.rs:1");
      d9b_pool (b, 1, fn);
      d9b_pool (b, 2, route);

      if (disorder && seg == 9)
        ts -= 20000;
      base = ts;
      d9b_reset (b, ts);
      d9b_event (b, 2, 0);
      d9b_u32 (b, 2);
      d9b_str32 (b, "segment"); d9b_str32 (b, n);
      d9b_str32 (b, "runtime.main"); d9b_str32 (b, seg < 8 ? "0" : "0,1");
      d9b_event (b, 3, 0); d9b_varint (b, G_GUINT64_CONSTANT (1776269044000000000) + seg * 1000 + ts);
      for (guint r = 0; r < 400; r++)
        {
          d9b_event (b, 0, 100); d9b_varint (b, r % 2); d9b_u8 (b, r % 3); d9b_varint (b, r % 7 + 1); d9b_u32 (b, 0);
          d9b_event (b, 5, 20); d9b_varint (b, r % 2); d9b_varint (b, r % 9 * 40); d9b_u32 (b, 2);
          d9b_event (b, 1, 80); d9b_varint (b, r % 2);
          if (r % 50 == 0)
            {
              d9b_event (b, 6, 0);
              d9b_varint (b, r);
            }
          ts += 200;
        }
      g_assert_cmpuint (ts, ==, base + 400 * 200);
      /* An event in wall-clock time, then the symbolizer's table (time 0). */
      d9b_reset (b, G_GUINT64_CONSTANT (1776269044000000000) + ts);
      d9b_event (b, 6, 0); d9b_varint (b, seg);
      d9b_reset (b, 0);
      d9b_event (b, 4, 0); d9b_varint (b, 0x1000 + seg * 0x100); d9b_varint (b, 0x100); d9b_u32 (b, 1); d9b_varint (b, 0);
    }
  return b;
}

/* Segments full of metadata decode in parallel: every part is merged and
 * none is decoded again on the loading thread, and the model is the one
 * thread's (metadata last set wins, the first clock sync sets the wall
 * clock, named tracks in file order). */
static void
test_parallel_metadata (void)
{
  const char *threads[] = { "2", "3", "7" };

  for (guint v = 0; v < 2; v++)
    {
      g_autoptr(GByteArray) b = build_metadata_segments (v == 1);
      g_autofree char *one = load_fingerprint (b->data, b->len, "1");

      g_assert_nonnull (strstr (one, "meta segment=15\n"));
      g_assert_nonnull (strstr (one, "meta runtime.main=0,1\n"));
      for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
        {
          g_autofree char *many = NULL;
          guint merged, redecoded;

          d9_parts_reset_for_testing ();
          many = load_fingerprint (b->data, b->len, threads[t]);
          d9_parts_get_for_testing (&merged, &redecoded);
          g_assert_cmpstr (one, ==, many);
          g_assert_cmpuint (merged, >=, 3);
          g_assert_cmpuint (redecoded, ==, 0);
        }
      {
        g_autoptr(GError) error = NULL;
        g_autoptr(KymoTrace) trace = NULL;
        gint64 offset;

        kymo_test_set_threads (3);
        trace = load (b, &error);
        kymo_test_set_threads (0);
        g_assert_no_error (error);
        g_assert_true (kymo_trace_get_wallclock (trace, &offset));
        g_assert_cmpint (offset, ==, G_GINT64_CONSTANT (1776269044000000000));
        g_assert_nonnull (kymo_test_find_track (trace, "MarkEvent"));
        g_assert_nonnull (kymo_test_find_track (trace, "RequestEvent"));
        g_assert_null (kymo_test_find_track (trace, "SymbolTableEntry"));
      }
    }
}

/* Pages moved out of a part's array leave their old range mapped until the
 * array is freed: were it a hole, another thread's new mapping could land
 * there, and freeing the array would unmap that mapping from under it. */
static void
test_moved_range_kept (void)
{
#if defined(__linux__) && defined(MAP_FIXED_NOREPLACE)
  gsize page = kymo_page_size (), len = 8 * page, move_min, map_from;
  D9Vec v = { 0 };
  KymoMoved mv;
  guint8 *dst, *hole;
  void *p;

  d9_vec_set_move_min_for_testing (0);
  d9_vec_move_limits (&move_min, &map_from);
  d9_vec_set_move_min_for_testing (-1);
  if (map_from == 0)
    {
      g_test_skip ("pages are copied here, never moved");
      return;
    }

  v.cap = len;
  d9_vec_grow_mapped (&v, 1);
  v.len = len;
  for (gsize i = 0; i < len; i++)
    v.data[i] = (guint8) (i * 7 + i / page);
  /* Off a page boundary, as a run's place in the joined array is. */
  dst = mmap (NULL, len + 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (dst != MAP_FAILED);
  g_assert_true (kymo_mapped_move_pages (dst + 100, v.data, len, 0, &mv));
  g_assert_cmpuint (mv.hi, >, mv.lo);
  for (gsize i = mv.lo; i < mv.hi; i++)
    g_assert_cmpuint (mv.at[i], ==, (guint8) (i * 7 + i / page));

  hole = v.data + mv.lo;
  p = mmap (hole, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != MAP_FAILED)
    munmap (p, page);
  g_assert_true (p != (void *) hole);

  d9_vec_clear (&v);
  munmap (dst, len + 2 * page);
#else
  g_test_skip ("pages are moved only on Linux");
#endif
}

/* A part's vector in a mapping of its own keeps every element it was
 * given across the remaps that grow it, room is populated ahead of the
 * writes (resident before they come), and kymo_mapped_populate() leaves
 * what a range held as it was. */
static void
test_mapped_vector_grows (void)
{
#if defined(__linux__)
  gsize page = kymo_page_size (), move_min, map_from, n = (3 << 20) + 1000;
  D9Vec v = { 0 };
  guint8 *block, res[4];
  guint64 sum = 0;

  d9_vec_set_move_min_for_testing (0);
  d9_vec_move_limits (&move_min, &map_from);
  d9_vec_set_move_min_for_testing (-1);
  v.map_from = map_from > 0 ? map_from : 0;
  for (guint64 i = 0; i < n; i++)
    *(guint64 *) d9_vec_push (&v, sizeof (guint64)) = i * 2654435761u;
  g_assert_cmpuint (v.len, ==, n);
  g_assert_cmpuint (v.cap, >=, v.len);
  for (guint64 i = 0; i < n; i++)
    sum += ((guint64 *) (gpointer) v.data)[i] == i * 2654435761u;
  g_assert_cmpuint (sum, ==, n);
  if (v.map_bytes > 0)
    {
      /* The room up to cap is resident already: mincore sees it. */
      guint8 *last = (guint8 *) ((guintptr) (v.data + v.cap * sizeof (guint64) - 1) & ~(guintptr) (page - 1));

      g_assert_cmpuint (v.cap * sizeof (guint64), <=, v.map_bytes);
      g_assert_cmpint (mincore (last, page, res), ==, 0);
      g_assert_true (res[0] & 1);
    }
  d9_vec_clear (&v);

  block = g_malloc (8 * page);
  for (gsize i = 0; i < 8 * page; i++)
    block[i] = (guint8) (i * 13 + 5);
  kymo_mapped_populate (block + 100, 5 * page + 3);
  kymo_mapped_populate (block, 0);
  for (gsize i = 0; i < 8 * page; i++)
    g_assert_cmpuint (block[i], ==, (guint8) (i * 13 + 5));
  g_free (block);
#else
  g_test_skip ("vectors are mapped only on Linux");
#endif
}

/* An independent frame walker: counts segments and events per schema name,
 * sharing no code with the decoder. */
typedef struct {
  guint64     segments;
  guint64     frames;
  guint64     events;
  GHashTable *by_name; /* char* → count */
} Walk;

static guint64
rd (const guint8 *p, guint n)
{
  guint64 v = 0;
  for (guint i = n; i-- > 0;)
    v = v << 8 | p[i];
  return v;
}

static gsize
walk_value (const guint8 *d, gsize p, guint8 t)
{
  guint64 n;

  if (t & 0x80)
    {
      if (d[p++] == 0)
        return p;
      t &= 0x7f;
    }
  switch (t)
    {
    case 1: case 2: return p + 8;
    case 3: case 11: return p + 1;
    case 12: return p + 2;
    case 6: case 7: case 13: return p + 4;
    case 4: case 5: return p + 4 + rd (d + p, 4);
    case 8: return p + 4 + 8 * rd (d + p, 4);
    case 9: while (d[p] & 0x80) p++; return p + 1;
    case 10:
      n = rd (d + p, 4); p += 4;
      for (guint64 i = 0; i < 2 * n; i++) p += 4 + rd (d + p, 4);
      return p;
    case 14: case 15:
      n = rd (d + p, 4) * (t == 15 ? 2 : 1); p += 4;
      for (guint64 i = 0; i < n; i++) { guint8 tt = d[p++]; p = walk_value (d, p, tt); }
      return p;
    default:
      g_assert_not_reached ();
    }
}

static void
walk (const guint8 *d,
      gsize         size,
      Walk         *w)
{
  char *names[65536] = { 0 };
  GByteArray *types[65536] = { 0 };
  gboolean ts[65536] = { 0 };
  gsize p = 0;

  w->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  while (p < size)
    {
      guint8 tag = d[p];
      w->frames++;
      if (tag == 'T')
        {
          w->segments++;
          p += 5;
          continue;
        }
      p++;
      if (tag == 1)
        {
          guint id = rd (d + p, 2), nl = rd (d + p + 2, 2), nf;
          g_free (names[id]);
          names[id] = g_strndup ((const char *) d + p + 4, nl);
          p += 4 + nl;
          ts[id] = d[p];
          nf = rd (d + p + 1, 2);
          p += 3;
          if (types[id]) g_byte_array_unref (types[id]);
          types[id] = g_byte_array_new ();
          for (guint i = 0; i < nf; i++)
            {
              p += 2 + rd (d + p, 2);
              g_byte_array_append (types[id], d + p, 1);
              p++;
            }
        }
      else if (tag == 2)
        {
          guint id = rd (d + p, 2);
          p += 2 + (ts[id] ? 3 : 0);
          for (guint i = 0; i < types[id]->len; i++)
            p = walk_value (d, p, types[id]->data[i]);
          w->events++;
          g_hash_table_insert (w->by_name, g_strdup (names[id]),
                               GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (w->by_name, names[id])) + 1));
        }
      else if (tag == 3 || tag == 4)
        {
          guint64 n = rd (d + p, 4);
          p += 4;
          for (guint64 i = 0; i < n; i++)
            p += 8 + rd (d + p + 4, 4) * (tag == 4 ? 8 : 1);
        }
      else if (tag == 5)
        p += 8;
      else if (tag == 6)
        {
          guint n;
          while (d[p] & 0x80) p++;
          p++;
          n = rd (d + p, 2);
          p += 2;
          for (guint i = 0; i < n; i++)
            {
              p += 4 + rd (d + p + 2, 2);
              p += 4 + rd (d + p, 4);
            }
        }
      else
        g_assert_not_reached ();
    }
  g_assert_cmpuint (p, ==, size);
  for (guint i = 0; i < 65536; i++)
    {
      g_free (names[i]);
      if (types[i]) g_byte_array_unref (types[i]);
    }
}

static guint64
count (Walk       *w,
       const char *prefix)
{
  GHashTableIter iter;
  gpointer key, value;
  guint64 n = 0;

  g_hash_table_iter_init (&iter, w->by_name);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (g_str_has_prefix (key, prefix) && (prefix[strlen (prefix) - 1] == ':' || g_str_equal (key, prefix)))
      n += GPOINTER_TO_SIZE (value);
  return n;
}

static GBytes *
read_sample (const char *path)
{
  g_autofree char *raw = NULL;
  gsize len;
  GByteArray *out;
  z_stream z = { 0 };
  guint8 buf[65536];
  int ret = Z_OK;

  g_assert_true (g_file_get_contents (path, &raw, &len, NULL));
  if (len < 2 || (guint8) raw[0] != 0x1f || (guint8) raw[1] != 0x8b)
    return g_bytes_new (raw, len);
  out = g_byte_array_new ();
  g_assert_cmpint (inflateInit2 (&z, 16 + MAX_WBITS), ==, Z_OK);
  z.next_in = (Bytef *) raw;
  z.avail_in = (uInt) len;
  while (ret != Z_STREAM_END)
    {
      z.next_out = buf;
      z.avail_out = sizeof buf;
      ret = inflate (&z, Z_NO_FLUSH);
      g_assert_true (ret == Z_OK || ret == Z_STREAM_END);
      g_byte_array_append (out, buf, sizeof buf - z.avail_out);
    }
  inflateEnd (&z);
  return g_byte_array_free_to_bytes (out);
}

typedef struct {
  const char *dir;
  guint64     events;    /* counted by hand with a separate script when the samples were added */
  guint64     segments;
} Sample;

static const Sample samples[] = {
  { "2026-03-18-94300d9", 4625, 1 },
  { "2026-03-19-b65c163", 138543, 1 },
  { "2026-04-15-65026ee", 26192, 8 },
  { "head-6342350", 210639, 14 },
};

static void
test_sample (gconstpointer data)
{
  const Sample *s = data;
  g_autofree char *rel = g_strdup_printf ("dial9/%s/demo-trace.bin", s->dir);
  g_autofree char *path = kymo_test_sample_path (rel);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(KymoJsonWriter) writer = NULL;
  Walk w = { 0 };
  guint64 worker_spans = 0, worker_instants = 0, instants, spans, dumped_events = 0;
  gsize n_flows;
  const char *text;
  KymoTime start, end;

  if (path == NULL)
    return;
  bytes = read_sample (path);
  walk (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &w);
  g_assert_cmpuint (w.events, ==, s->events);
  g_assert_cmpuint (w.segments, ==, s->segments);

  trace = kymo_test_load_path (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));
  g_assert_cmpstr (kymo_trace_get_format (trace)->name, ==, "dial9");

  /* Every poll and park became a span, every tracing span enter too */
  for (guint i = 0; i < kymo_trace_get_n_tracks (trace); i++)
    {
      KymoTrack *t = kymo_trace_get_track (trace, i);
      if (kymo_track_get_kind (t) == KYMO_TRACK_THREAD && kymo_track_get_parent (t) != KYMO_NO_TRACK)
        {
          worker_spans += n_spans (t);
          worker_instants += n_instants (t);
        }
    }
  g_assert_cmpuint (worker_spans, ==, count (&w, "PollStartEvent") + count (&w, "WorkerParkEvent") +
                                      count (&w, "SpanEnter:"));
  /* Nothing is left out: every event that is not a span edge, a queue sample,
   * metadata the model consumes or a task dump is an instant somewhere;
   * every wake is an instant too. */
  kymo_trace_count_events (trace, &spans, &instants, NULL, NULL);
  g_assert_cmpuint (instants, ==, w.events - count (&w, "PollStartEvent") - count (&w, "PollEndEvent") -
                                  count (&w, "WorkerParkEvent") - count (&w, "WorkerUnparkEvent") -
                                  count (&w, "SpanEnter:") - count (&w, "SpanExit:") -
                                  count (&w, "QueueSampleEvent") - count (&w, "SymbolTableEntry") -
                                  count (&w, "ClockSyncEvent") - count (&w, "SegmentMetadataEvent") -
                                  count (&w, "CallframeDefEvent") - count (&w, "TaskDumpEvent"));
  /* Metadata is never a track */
  g_assert_null (kymo_test_find_track (trace, "SymbolTableEntry"));
  g_assert_null (kymo_test_find_track (trace, "ClockSyncEvent"));
  g_assert_null (kymo_test_find_track (trace, "SegmentMetadataEvent"));
  g_assert_null (kymo_test_find_track (trace, "CallframeDefEvent"));
  g_assert_null (kymo_test_find_track (trace, "TaskDumpEvent"));
  /* Every CPU sample is in the model's stacks, on its worker's track */
  {
    gsize n_samples;

    kymo_stacks_get_samples (kymo_trace_get_stacks (trace), &n_samples);
    g_assert_cmpuint (n_samples, ==, count (&w, "CpuSampleEvent"));
  }
  kymo_trace_get_flows (trace, &n_flows);
  g_assert_cmpuint (n_flows, >, 0);
  g_assert_cmpuint (n_flows, <=, count (&w, "WakeEventEvent"));
  (void) worker_instants;

  /* Wall-clock and symbol-table stamps do not stretch the range */
  kymo_trace_get_time_range (trace, &start, &end);
  g_assert_cmpint (start, >, 0);
  g_assert_cmpint (end - start, <, G_GINT64_CONSTANT (60000000000));

  /* The dump prints every frame */
  input = kymo_input_new_for_path (path, &error);
  g_assert_no_error (error);
  writer = kymo_json_writer_new (NULL);
  g_assert_true (kymo_dump_sync (input, NULL, writer, &error));
  text = kymo_json_writer_get_string (writer);
  /* Line by line: strstr() from each hit would rescan the rest under ASan. */
  for (const char *p = text; *p;)
    {
      if (strncmp (p, "{\"kind\":\"event\"", 15) == 0)
        dumped_events++;
      while (*p && *p != '\n')
        p++;
      if (*p)
        p++;
    }
  g_assert_cmpuint (dumped_events, ==, w.events);
  g_hash_table_unref (w.by_name);
}

/* KYMO_DIAL9_WRITE_CORPUS=DIR writes the hand-built streams as the fuzz
 * corpus (tests/fuzz/corpus/dial9). */
static void
write_corpus (const char *dir)
{
  g_autoptr(GByteArray) runtime = build_runtime ();
  g_autoptr(GByteArray) gz = gzip_bytes (runtime->data, runtime->len);
  g_autofree char *p1 = g_build_filename (dir, "runtime.bin", NULL);
  g_autofree char *p2 = g_build_filename (dir, "runtime.bin.gz", NULL);

  g_assert_true (g_file_set_contents (p1, (const char *) runtime->data, runtime->len, NULL));
  g_assert_true (g_file_set_contents (p2, (const char *) gz->data, gz->len, NULL));
  for (guint i = 0; i < G_N_ELEMENTS (error_cases); i++)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();
      g_autofree char *name = g_strdup_printf ("damage-%02u.bin", i);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      good_prefix (b);
      error_cases[i].damage (b);
      g_assert_true (g_file_set_contents (path, (const char *) b->data, b->len, NULL));
    }
}

int
main (int   argc,
      char *argv[])
{
  if (g_getenv ("KYMO_DIAL9_WRITE_CORPUS"))
    {
      write_corpus (g_getenv ("KYMO_DIAL9_WRITE_CORPUS"));
      return 0;
    }
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dial9/runtime-model", test_runtime_model);
  g_test_add_func ("/dial9/field-types", test_field_types);
  g_test_add_func ("/dial9/shaped-plans", test_shaped_plans);
  g_test_add_func ("/dial9/planned-call-chains", test_planned_call_chains);
  g_test_add_func ("/dial9/segments", test_segments_and_reregistration);
  g_test_add_func ("/dial9/error-paths", test_error_paths);
  g_test_add_func ("/dial9/not-dial9", test_not_dial9);
  g_test_add_func ("/dial9/gzip", test_gzip);
  g_test_add_func ("/dial9/wallclock-symbols", test_wallclock_and_symbols);
  g_test_add_func ("/dial9/sampled-stacks", test_sampled_stacks);
  g_test_add_func ("/dial9/sampled-stacks-repeated-tables", test_sampled_stacks_repeated_tables);
  g_test_add_func ("/dial9/tracing-spans", test_tracing_spans);
  g_test_add_func ("/dial9/every-prefix", test_every_prefix);
  g_test_add_func ("/dial9/parallel-same", test_parallel_same);
  g_test_add_func ("/dial9/parallel-metadata", test_parallel_metadata);
  g_test_add_func ("/dial9/moved-range-kept", test_moved_range_kept);
  g_test_add_func ("/dial9/mapped-vector-grows", test_mapped_vector_grows);
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *name = g_strdup_printf ("/dial9/sample/%s", samples[i].dir);
      g_test_add_data_func (name, &samples[i], test_sample);
    }
  return g_test_run ();
}
