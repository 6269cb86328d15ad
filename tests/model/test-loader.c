/* test-loader.c: detection, errors, progress, cancellation and damage
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-loader-private.h"
#include "kymo-test-utils.h"

/* A format of the test's own: "KYMOTEST" then u64 LE timestamps; a value of
 * G_MAXUINT64 is damage. Each record is an instant. */
#define MAGIC "KYMOTEST"

static guint
test_detect (KymoInput *input)
{
  if (input->main.size >= 8 && memcmp (input->main.data, MAGIC, 8) == 0)
    return 100;
  return 0;
}

static gint slow_ns;
static gint records_seen;

static gboolean
test_load (KymoLoadJob  *job,
           KymoTrace    *trace,
           GError      **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  KymoTrack *track = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_INSTANT, "records"));
  gsize n = (input->main.size - 8) / 8;
  guint32 name = kymo_trace_intern (trace, "record");

  for (gsize i = 0; i < n; i++)
    {
      guint64 value;

      memcpy (&value, input->main.data + 8 + i * 8, 8);
      value = GUINT64_FROM_LE (value);
      if (value == G_MAXUINT64)
        {
          kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_CORRUPT, 8 + i * 8, "bad record");
          return FALSE;
        }
      kymo_track_add_instant (track, (KymoTime) value, name, 0, (guint32) i);
      g_atomic_int_inc (&records_seen);

      if (i % 1000 == 0)
        {
          if (slow_ns)
            g_usleep (slow_ns / 1000);
          if (!kymo_load_job_progress (job, (double) i / n, "Reading records", error))
            return FALSE;
        }
    }
  return TRUE;
}

static const KymoFormat test_format = {
  .name = "kymo-test",
  .title = "Kymo test records",
  .detect = test_detect,
  .load = test_load,
};

static GBytes *
make_records (gsize n,
              gssize bad_at)
{
  GByteArray *buf = g_byte_array_new ();

  g_byte_array_append (buf, (const guint8 *) MAGIC, 8);
  for (gsize i = 0; i < n; i++)
    {
      guint64 v = GUINT64_TO_LE ((gssize) i == bad_at ? G_MAXUINT64 : i * 100);
      g_byte_array_append (buf, (const guint8 *) &v, 8);
    }
  return g_byte_array_free_to_bytes (buf);
}

static void
test_garbage_empty_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kymo-test-XXXXXX", NULL);
  g_autofree char *garbage = g_build_filename (dir, "garbage.bin", NULL);
  g_autofree char *empty = g_build_filename (dir, "empty.bin", NULL);
  g_autofree char *missing = g_build_filename (dir, "missing.bin", NULL);
  g_autoptr(KymoInput) input = NULL;
  KymoTrace *trace;

  g_file_set_contents (garbage, "this is not a trace at all, just words", -1, NULL);
  g_file_set_contents (empty, "", 0, NULL);

  trace = kymo_test_load_path (garbage, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, garbage));
  g_clear_error (&error);

  trace = kymo_test_load_path (empty, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT);
  g_assert_nonnull (strstr (error->message, "empty"));
  g_clear_error (&error);

  input = kymo_input_new_for_path (missing, &error);
  g_assert_null (input);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO);
  g_assert_nonnull (strstr (error->message, missing));
  g_clear_error (&error);

  /* An empty folder is no ATF session. */
  trace = kymo_test_load_path (dir, NULL, &error);
  g_assert_null (trace);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT);
  g_clear_error (&error);

  trace = kymo_test_load_path (garbage, "no-such-format", &error);
  g_assert_null (trace);
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT);

  g_unlink (garbage);
  g_unlink (empty);
  g_rmdir (dir);
}

static void
test_detect_and_load (void)
{
  g_autoptr(GBytes) bytes = make_records (5000, -1);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "records.bin");
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  guint64 instants;

  g_assert_true (kymo_formats_detect (input) == &test_format);
  trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (kymo_trace_is_sealed (trace));
  g_assert_true (kymo_trace_get_format (trace) == &test_format);
  g_assert_cmpstr (kymo_trace_get_title (trace), ==, "records.bin");
  kymo_trace_count_events (trace, NULL, &instants, NULL, NULL);
  g_assert_cmpuint (instants, ==, 5000);
  g_assert_null (kymo_trace_get_stop_error (trace));
}

static void
test_damage_keeps_what_came_before (void)
{
  g_autoptr(GBytes) bytes = make_records (3000, 2500);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "damaged.bin");
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const KymoWarning *warnings;
  guint64 instants;
  gsize n;

  trace = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);
  kymo_trace_count_events (trace, NULL, &instants, NULL, NULL);
  g_assert_cmpuint (instants, ==, 2500);
  g_assert_error (kymo_trace_get_stop_error (trace), KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT);
  g_assert_cmpstr (kymo_trace_get_stop_error (trace)->message, ==, "damaged.bin: offset 20008: bad record");
  warnings = kymo_trace_get_warnings (trace, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_nonnull (strstr (warnings[0].message, "offset 20008"));
}

typedef struct {
  GMainLoop *loop;
  KymoTrace *trace;
  GError    *error;
  guint      notifies;
  double     last_fraction;
  gboolean   off_main_thread;
} AsyncState;

static void
on_fraction (KymoLoader *loader,
             GParamSpec *pspec,
             AsyncState *state)
{
  double fraction = kymo_loader_get_fraction (loader);

  if (!g_main_context_is_owner (g_main_context_default ()))
    state->off_main_thread = TRUE;
  g_assert_cmpfloat (fraction, >=, state->last_fraction);
  state->last_fraction = fraction;
  state->notifies++;
}

static void
on_loaded (GObject      *object,
           GAsyncResult *result,
           gpointer      data)
{
  AsyncState *state = data;

  state->trace = kymo_loader_load_finish (KYMO_LOADER (object), result, &state->error);
  g_main_loop_quit (state->loop);
}

static void
test_async_progress (void)
{
  g_autoptr(GBytes) bytes = make_records (400000, -1);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "big.bin");
  g_autoptr(KymoLoader) loader = kymo_loader_new (input, NULL);
  AsyncState state = { 0 };

  slow_ns = 2000000;  /* 2 ms per 1000 records: about 0.8 s in all */
  state.loop = g_main_loop_new (NULL, FALSE);
  g_signal_connect (loader, "notify::fraction", G_CALLBACK (on_fraction), &state);
  kymo_loader_load_async (loader, NULL, on_loaded, &state);
  g_main_loop_run (state.loop);
  slow_ns = 0;

  g_assert_no_error (state.error);
  g_assert_nonnull (state.trace);
  g_assert_false (state.off_main_thread);
  /* Throttled: a handful of updates, not one per record batch (400). */
  g_assert_cmpuint (state.notifies, >=, 1);
  g_assert_cmpuint (state.notifies, <, 100);
  g_assert_cmpstr (kymo_loader_get_message (loader), ==, "Reading records");
  /* A progress update may still be queued: it must not reach this frame. */
  g_signal_handlers_disconnect_by_data (loader, &state);
  g_object_unref (state.trace);
  g_main_loop_unref (state.loop);
}

static gboolean
cancel_soon (gpointer data)
{
  g_cancellable_cancel (data);
  return G_SOURCE_REMOVE;
}

static void
test_async_cancel (void)
{
  g_autoptr(GBytes) bytes = make_records (2000000, -1);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "huge.bin");
  g_autoptr(KymoLoader) loader = kymo_loader_new (input, NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  AsyncState state = { 0 };

  slow_ns = 2000000;  /* would take 4 s */
  records_seen = 0;
  state.loop = g_main_loop_new (NULL, FALSE);
  kymo_loader_load_async (loader, cancellable, on_loaded, &state);
  g_timeout_add (100, cancel_soon, cancellable);
  g_main_loop_run (state.loop);
  slow_ns = 0;

  g_assert_null (state.trace);
  g_assert_error (state.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* It stopped early rather than finishing the file. */
  g_assert_cmpint (g_atomic_int_get (&records_seen), <, 2000000);
  g_clear_error (&state.error);
  g_main_loop_unref (state.loop);
}

/* A load in phases whose threads report out of step: progress 0.6, then
 * 0.3 from a slower thread, then the last phase soon after. */
#define PHASES_MAGIC "KYMOPHAS"

static guint
phases_detect (KymoInput *input)
{
  return input->main.size >= 8 && memcmp (input->main.data, PHASES_MAGIC, 8) == 0 ? 100 : 0;
}

static gboolean
phases_load (KymoLoadJob  *job,
             KymoTrace    *trace,
             GError      **error)
{
  KymoTrack *track = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_INSTANT, "records"));

  kymo_track_add_instant (track, 1, kymo_trace_intern (trace, "record"), 0, 0);
  if (!kymo_load_job_progress (job, 0.6, "Decoding", error))
    return FALSE;
  /* Past the listeners' interval, so that the next report is heard. */
  g_usleep (150 * 1000);
  if (!kymo_load_job_progress (job, 0.3, "Decoding", error))
    return FALSE;
  /* Less than the interval, more than a new phase waits. */
  g_usleep (40 * 1000);
  return kymo_load_job_progress (job, 0.65, "Building the timeline", error);
}

static const KymoFormat phases_format = {
  .name = "kymo-test-phases",
  .title = "Kymo test phases",
  .detect = phases_detect,
  .load = phases_load,
};

typedef struct {
  double  fractions[8];
  char   *messages[8];
  guint   n;
} Heard;

static void
hear_progress (double      fraction,
               const char *message,
               gpointer    data)
{
  Heard *heard = data;

  if (heard->n < G_N_ELEMENTS (heard->fractions))
    {
      heard->fractions[heard->n] = fraction;
      heard->messages[heard->n] = g_strdup (message);
      heard->n++;
    }
}

/* A progress bar never goes back, and the last phase of a load shows even
 * when it starts soon after the previous report: it may be the longest. */
static void
test_progress_phases (void)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (PHASES_MAGIC "........", 16);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "phases.bin");
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  Heard heard = { 0 };

  trace = kymo_load_sync (input, NULL, hear_progress, &heard, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (trace);

  g_assert_cmpuint (heard.n, ==, 4);
  g_assert_cmpfloat (heard.fractions[0], ==, 0.6);
  g_assert_cmpfloat (heard.fractions[1], ==, 0.6);
  g_assert_cmpstr (heard.messages[2], ==, "Building the timeline");
  g_assert_cmpfloat (heard.fractions[2], ==, 0.65);
  g_assert_cmpfloat (heard.fractions[3], ==, 1.0);
  for (guint i = 0; i < heard.n; i++)
    g_free (heard.messages[i]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  _kymo_formats_add_for_testing (&test_format);
  _kymo_formats_add_for_testing (&phases_format);

  g_test_add_func ("/loader/garbage-empty-missing", test_garbage_empty_missing);
  g_test_add_func ("/loader/detect-and-load", test_detect_and_load);
  g_test_add_func ("/loader/damage-keeps-what-came-before", test_damage_keeps_what_came_before);
  g_test_add_func ("/loader/async-progress", test_async_progress);
  g_test_add_func ("/loader/async-cancel", test_async_cancel);
  g_test_add_func ("/loader/progress-phases", test_progress_phases);
  return g_test_run ();
}
