/* test-preview.c: a big load shows its start first, then the same trace as without previews
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-loader-private.h"
#include "kymo-preview-private.h"
#include "kymo-test-utils.h"
#include "../dial9/dial9-polls.h"

/* Previews from this size on, so that a test trace of a few hundred KiB
 * gets them; the default keeps them for inputs that take a while. */
#define TEST_MIN_SIZE (64 * 1024)

static GBytes *
make_trace (guint n_segments)
{
  GByteArray *b = g_byte_array_new ();

  for (guint n = 0; n < n_segments; n++)
    d9b_polls_segment (b, n, 2000, 2);
  return g_byte_array_free_to_bytes (b);
}

typedef struct {
  GMainLoop    *loop;
  KymoTrace    *trace;
  GError       *error;
  GPtrArray    *previews;  /* KymoTrace*, as ::preview gave them */
  GCancellable *cancellable;
  /* Cancel once the first preview reached the main context. */
  gboolean      cancel_after_preview;
  GMutex        mutex;
  GCond         cond;
  guint         n_seen;
} Run;

static void
on_preview (KymoLoader *loader,
            KymoTrace  *trace,
            Run        *run)
{
  g_assert_true (kymo_trace_is_sealed (trace));
  g_assert_true (kymo_loader_get_preview (loader) == trace);
  g_ptr_array_add (run->previews, g_object_ref (trace));
  g_mutex_lock (&run->mutex);
  run->n_seen++;
  g_cond_broadcast (&run->cond);
  g_mutex_unlock (&run->mutex);
}

/* On the loading thread: waits until preview @index reached the main
 * context (a later one would otherwise replace it before it is shown, as
 * it should for a user but not for a test that counts them); then, as a
 * user who presses Cancel while looking at it, may cancel. */
static void
preview_hook (KymoLoader *loader,
              guint       index,
              gpointer    data)
{
  Run *run = data;

  g_mutex_lock (&run->mutex);
  while (run->n_seen <= index)
    g_cond_wait (&run->cond, &run->mutex);
  g_mutex_unlock (&run->mutex);
  if (run->cancel_after_preview)
    g_cancellable_cancel (run->cancellable);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      data)
{
  Run *run = data;

  run->trace = kymo_loader_load_finish (KYMO_LOADER (object), result, &run->error);
  g_main_loop_quit (run->loop);
}

static void
run_init (Run *run)
{
  memset (run, 0, sizeof *run);
  run->loop = g_main_loop_new (NULL, FALSE);
  run->previews = g_ptr_array_new_with_free_func (g_object_unref);
  run->cancellable = g_cancellable_new ();
  g_mutex_init (&run->mutex);
  g_cond_init (&run->cond);
}

static void
run_clear (Run *run)
{
  g_main_loop_unref (run->loop);
  g_clear_object (&run->trace);
  g_clear_error (&run->error);
  g_ptr_array_unref (run->previews);
  g_object_unref (run->cancellable);
  g_mutex_clear (&run->mutex);
  g_cond_clear (&run->cond);
}

static KymoLoader *
run_load (Run       *run,
          KymoInput *input,
          guint      threads,
          gboolean   preview)
{
  KymoLoadOptions options = { .threads = threads, .preview = preview };
  KymoLoader *loader = kymo_loader_new (input, &options);

  g_signal_connect (loader, "preview", G_CALLBACK (on_preview), run);
  _kymo_loader_set_preview_hook_for_testing (preview_hook, run);
  kymo_loader_load_async (loader, run->cancellable, load_cb, run);
  g_main_loop_run (run->loop);
  _kymo_loader_set_preview_hook_for_testing (NULL, NULL);
  return loader;
}

/* The track of @final named as @track is in @preview: same names up the
 * tree (track ids may differ, the preview has fewer tracks). */
static gboolean
same_track_path (KymoTrace *a,
                 guint      ta,
                 KymoTrace *b,
                 guint      tb)
{
  while (TRUE)
    {
      KymoTrack *x = kymo_trace_get_track (a, ta);
      KymoTrack *y = kymo_trace_get_track (b, tb);

      if (g_strcmp0 (kymo_track_get_name (x), kymo_track_get_name (y)) != 0 ||
          kymo_track_get_kind (x) != kymo_track_get_kind (y))
        return FALSE;
      ta = kymo_track_get_parent (x);
      tb = kymo_track_get_parent (y);
      if (ta == KYMO_NO_TRACK || tb == KYMO_NO_TRACK)
        return ta == tb;
    }
}

static guint
find_track (KymoTrace *final,
            KymoTrace *preview,
            guint      track)
{
  for (guint i = 0; i < kymo_trace_get_n_tracks (final); i++)
    if (same_track_path (final, i, preview, track))
      return i;
  return G_MAXUINT;
}

/* Spans side by side share their boundary: any of those at @span's start
 * may be it. A span still open where the preview was cut (@cut) ends there
 * in the preview, and where it really ends in the trace. */
static gboolean
has_span (KymoTrace      *final,
          KymoTrack      *track,
          guint           depth,
          const char     *name,
          const KymoSpan *span,
          gboolean        cut)
{
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));
  gsize n;
  const KymoSpan *spans = kymo_track_get_spans (track, &n);

  kymo_track_query_spans (track, depth, span->start, span->start, hits);
  for (guint h = 0; h < hits->len; h++)
    {
      const KymoSpan *s = &spans[g_array_index (hits, guint32, h)];

      if (s->start == span->start && (cut || s->end == span->end) &&
          g_str_equal (kymo_trace_get_name (final, kymo_span_name (s)), name))
        return TRUE;
    }
  return FALSE;
}

/* How many of @preview's spans and instants @final does not hold (track,
 * times, name), of *@n_events. */
static guint
count_outside (KymoTrace *preview,
               KymoTrace *final,
               guint     *n_events)
{
  KymoTime cut;
  guint outside = 0;

  kymo_trace_get_time_range (preview, NULL, &cut);
  *n_events = 0;
  for (guint t = 0; t < kymo_trace_get_n_tracks (preview); t++)
    {
      KymoTrack *track = kymo_trace_get_track (preview, t);
      guint ft = find_track (final, preview, t);
      KymoTrack *final_track;
      gsize n_spans, n_instants, n_final;
      const KymoSpan *spans = kymo_track_get_spans (track, &n_spans);
      const KymoInstant *instants = kymo_track_get_instants (track, &n_instants);
      const KymoInstant *finals;

      *n_events += n_spans + n_instants;
      if (ft == G_MAXUINT)
        {
          outside += n_spans + n_instants;
          continue;
        }
      final_track = kymo_trace_get_track (final, ft);
      for (gsize i = 0; i < n_spans; i++)
        if (!has_span (final, final_track, kymo_track_get_span_depth (track, i),
                       kymo_trace_get_name (preview, kymo_span_name (&spans[i])), &spans[i], spans[i].end >= cut))
          outside++;
      finals = kymo_track_get_instants (final_track, &n_final);
      for (gsize i = 0; i < n_instants; i++)
        {
          gsize j = kymo_track_lower_bound_instant (final_track, instants[i].ts);

          if (j >= n_final || finals[j].ts != instants[i].ts)
            outside++;
        }
    }
  return outside;
}

/* Every span and instant of @preview is in @final, on the track of the
 * same name, at the same times, with the same name: the user sees the
 * preview grow into the trace, nothing in it moves or goes away. */
static void
assert_preview_within (KymoTrace *preview,
                       KymoTrace *final)
{
  guint64 ps, pi, fs, fi;
  guint n;

  kymo_trace_count_events (preview, &ps, &pi, NULL, NULL);
  kymo_trace_count_events (final, &fs, &fi, NULL, NULL);
  g_assert_cmpuint (ps + pi, >, 0);
  g_assert_cmpuint (ps + pi, <, fs + fi);
  g_assert_cmpuint (count_outside (preview, final, &n), ==, 0);
}

/* Every sample of a format that previews from a prefix, with previews from
 * its first KiB on: the previews are starts of the trace. */
static void
check_sample (KymoInput  *input,
              const char *path)
{
  const KymoFormat *format = kymo_formats_detect (input);
  g_autoptr(KymoLoader) loader = NULL;
  Run run;

  if (format == NULL || format->preview == KYMO_FORMAT_PREVIEW_NONE || input->is_dir)
    return;
  run_init (&run);
  loader = run_load (&run, input, 0, TRUE);
  g_assert_no_error (run.error);
  for (guint i = 0; i < run.previews->len; i++)
    {
      guint n, outside = count_outside (g_ptr_array_index (run.previews, i), run.trace, &n);

      g_test_message ("%s: preview %u: %u events", path, i, n);
      g_assert_cmpuint (outside, ==, 0);
    }
  run_clear (&run);
}

static void
test_samples (void)
{
  _kymo_preview_set_min_size_for_testing (1024);
  kymo_test_for_each_sample (check_sample);
  _kymo_preview_set_min_size_for_testing (TEST_MIN_SIZE);
}

static void
check_previews (KymoInput *input)
{
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;

  {
    g_autoptr(KymoTrace) plain = kymo_load_sync (input, NULL, NULL, NULL, NULL, &error);

    g_assert_no_error (error);
    expected = kymo_test_fingerprint (plain, NULL);
  }

  for (guint threads = 1; threads <= 2; threads++)
    {
      g_autoptr(KymoLoader) loader = NULL;
      g_autofree char *got = NULL;
      Run run;

      run_init (&run);
      loader = run_load (&run, input, threads, TRUE);
      g_assert_no_error (run.error);
      g_assert_nonnull (run.trace);
      /* Two starts, each holding more than the one before. */
      g_assert_cmpuint (run.previews->len, ==, 2);
      for (guint i = 0; i < run.previews->len; i++)
        assert_preview_within (g_ptr_array_index (run.previews, i), run.trace);
      assert_preview_within (g_ptr_array_index (run.previews, 0), g_ptr_array_index (run.previews, 1));
      /* A preview is not damage: no stop error, and it is named as the input. */
      g_assert_null (kymo_trace_get_stop_error (g_ptr_array_index (run.previews, 0)));
      g_assert_cmpstr (kymo_trace_get_title (g_ptr_array_index (run.previews, 0)), ==,
                       kymo_trace_get_title (run.trace));

      got = kymo_test_fingerprint (run.trace, NULL);
      g_assert_cmpstr (got, ==, expected);
      run_clear (&run);
    }
}

static void
test_prefix (void)
{
  g_autoptr(GBytes) bytes = make_trace (24);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "big.bin");

  g_assert_cmpuint (g_bytes_get_size (bytes), >=, TEST_MIN_SIZE * 2);
  check_previews (input);
}

static void
test_folder (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kymo-preview-XXXXXX", &error);
  g_autoptr(KymoInput) input = NULL;

  g_assert_no_error (error);
  /* Numbered as a rotating writer names them: 2 before 10. */
  for (guint n = 0; n < 20; n++)
    {
      g_autoptr(GByteArray) b = g_byte_array_new ();
      g_autofree char *name = g_strdup_printf ("trace.%u.bin", n);
      g_autofree char *path = g_build_filename (dir, name, NULL);

      d9b_polls_segment (b, n, 2000, 2);
      g_file_set_contents (path, (const char *) b->data, b->len, &error);
      g_assert_no_error (error);
    }
  input = kymo_input_new_for_path (dir, &error);
  g_assert_no_error (error);
  check_previews (input);

  /* The first preview is the first file: the earliest time of the folder. */
  {
    g_autoptr(KymoLoader) loader = NULL;
    KymoTime p0, p1, f0, f1;
    Run run;

    run_init (&run);
    loader = run_load (&run, input, 1, TRUE);
    kymo_trace_get_time_range (g_ptr_array_index (run.previews, 0), &p0, &p1);
    kymo_trace_get_time_range (run.trace, &f0, &f1);
    g_assert_cmpint (p0, ==, f0);
    g_assert_cmpint (p1, <, 1000000000 + 10000000 * 2);
    run_clear (&run);
  }
  kymo_test_remove_tree (dir);
}

/* A folder's previews are its first files in the order its decoder reads
 * them (natural, bytewise: "t-1" before "t.2" before "t.10"), not in the
 * order file managers collate names in, which puts "t.2" first: then a
 * preview would not be the start of the trace. */
static void
test_folder_file_order (void)
{
  static const char *names[] = { "t.10.bin", "t.2.bin", "u.3.bin", "t-1.bin", "u.4.bin",
                                 "u.5.bin", "u.6.bin", "u.7.bin", "u.8.bin", "u.9.bin" };
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kymo-preview-XXXXXX", &error);
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(GPtrArray) plan = NULL;
  g_autofree char *filler = g_malloc0 (TEST_MIN_SIZE / 8);
  KymoInput *second;

  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (dir, names[i], NULL);

      g_file_set_contents (path, filler, TEST_MIN_SIZE / 8, &error);
      g_assert_no_error (error);
    }
  input = kymo_input_new_for_path (dir, &error);
  g_assert_no_error (error);
  plan = _kymo_preview_plan (input, kymo_formats_lookup ("dial9"));

  g_assert_cmpuint (plan->len, ==, 2);
  g_assert_true (g_str_has_suffix (((KymoInput *) g_ptr_array_index (plan, 0))->main.path, "/t-1.bin"));
  second = g_ptr_array_index (plan, 1);
  g_assert_true (g_str_has_suffix (second->main.path, "/t-1.bin"));
  g_assert_cmpuint (second->extra->len, ==, 1);
  g_assert_true (g_str_has_suffix (((KymoInputPart *) g_ptr_array_index (second->extra, 0))->path, "/t.2.bin"));
  kymo_test_remove_tree (dir);
}

/* Cancel while the preview is shown: the load ends cancelled and the
 * preview stays, for the window to keep showing what was loaded (as Tracy
 * does). */
static void
test_cancel_keeps_preview (void)
{
  g_autoptr(GBytes) bytes = make_trace (24);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "big.bin");
  g_autoptr(KymoLoader) loader = NULL;
  Run run;

  run_init (&run);
  run.cancel_after_preview = TRUE;
  loader = run_load (&run, input, 2, TRUE);
  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (run.trace);
  g_assert_cmpuint (run.previews->len, ==, 1);
  g_assert_true (kymo_loader_get_preview (loader) == g_ptr_array_index (run.previews, 0));
  g_assert_true (kymo_trace_is_sealed (kymo_loader_get_preview (loader)));
  run_clear (&run);
}

/* Small inputs, and loads that do not ask (kymo-cli), get no preview. */
static void
test_no_preview (void)
{
  g_autoptr(GBytes) small = make_trace (1);
  g_autoptr(GBytes) big = make_trace (24);
  g_autoptr(KymoInput) small_input = kymo_input_new_for_bytes (small, "small.bin");
  g_autoptr(KymoInput) big_input = kymo_input_new_for_bytes (big, "big.bin");
  g_autoptr(KymoLoader) a = NULL;
  g_autoptr(KymoLoader) b = NULL;
  Run run;

  g_assert_cmpuint (g_bytes_get_size (small), <, TEST_MIN_SIZE);

  run_init (&run);
  a = run_load (&run, small_input, 0, TRUE);
  g_assert_no_error (run.error);
  g_assert_nonnull (run.trace);
  g_assert_cmpuint (run.previews->len, ==, 0);
  g_assert_null (kymo_loader_get_preview (a));
  run_clear (&run);

  run_init (&run);
  b = run_load (&run, big_input, 0, FALSE);
  g_assert_no_error (run.error);
  g_assert_cmpuint (run.previews->len, ==, 0);
  run_clear (&run);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  _kymo_preview_set_min_size_for_testing (TEST_MIN_SIZE);

  g_test_add_func ("/preview/prefix", test_prefix);
  g_test_add_func ("/preview/folder", test_folder);
  g_test_add_func ("/preview/folder-file-order", test_folder_file_order);
  g_test_add_func ("/preview/cancel-keeps-preview", test_cancel_keeps_preview);
  g_test_add_func ("/preview/small-or-not-asked", test_no_preview);
  g_test_add_func ("/preview/samples", test_samples);
  return g_test_run ();
}
