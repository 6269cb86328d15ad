/* fuzz-atf.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is loaded twice: as a lone in-memory image (an index.atf or
 * detail.atf), and split into a session folder so that the manifest, index
 * and detail parsers all see hostile bytes:
 *
 *   u32le manifest_len, u32le index_len, manifest bytes, index bytes,
 *   detail bytes (the rest); lengths are clamped to what is there.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "kymo.h"
#include "kymo-fuzz.h"

static char *session_dir;

static void
put (const char   *dir,
     const char   *name,
     const guint8 *data,
     gsize         size)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  if (size == 0)
    {
      g_remove (path);
      return;
    }
  g_file_set_contents (path, (const char *) data, size, NULL);
}

static void
remove_session (void)
{
  static const char * const files[] = {
    "pid_1/thread_0/index.atf", "pid_1/thread_0/detail.atf", "pid_1/manifest.json",
    "pid_1/thread_0", "pid_1",
  };

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (session_dir, files[i], NULL);
      g_remove (path);
    }
  g_remove (session_dir);
}

static void
read_back (KymoTrace *trace)
{
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      gsize n_spans, n_instants;

      kymo_track_get_spans (track, &n_spans);
      kymo_track_get_instants (track, &n_instants);
      for (guint kind = KYMO_EVENT_KIND_SPAN; kind <= KYMO_EVENT_KIND_INSTANT; kind++)
        for (gsize i = 0; i < MIN (kind == KYMO_EVENT_KIND_SPAN ? n_spans : n_instants, 64) + 1; i++)
          {
            KymoEventRef ref = { t, kind, (guint) i }, to, back;
            JsonObject *args = kymo_trace_describe_event (trace, &ref);

            if (args)
              json_object_unref (args);
            if (kymo_trace_follow_link (trace, &ref, &to))
              {
                g_assert (to.track < kymo_trace_get_n_tracks (trace));
                kymo_trace_follow_link (trace, &to, &back);
              }
          }
    }
}

static void
run_session (const uint8_t *data,
             size_t         size)
{
  g_autofree char *pid_dir = NULL;
  g_autofree char *thread_dir = NULL;
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(KymoJsonWriter) writer = NULL;
  KymoLoadOptions options = { .format = "atf" };
  guint32 manifest_len, index_len;
  const guint8 *p;
  gsize rest;

  if (size < 8)
    return;
  if (session_dir == NULL)
    {
      session_dir = g_dir_make_tmp ("kymo-fuzz-atf-XXXXXX", NULL);
      if (session_dir == NULL)
        return;
      atexit (remove_session);
    }
  pid_dir = g_build_filename (session_dir, "pid_1", NULL);
  thread_dir = g_build_filename (pid_dir, "thread_0", NULL);
  g_mkdir_with_parents (thread_dir, 0700);

  memcpy (&manifest_len, data, 4);
  memcpy (&index_len, data + 4, 4);
  manifest_len = GUINT32_FROM_LE (manifest_len);
  index_len = GUINT32_FROM_LE (index_len);
  p = data + 8;
  rest = size - 8;
  manifest_len = MIN (manifest_len, rest);
  put (pid_dir, "manifest.json", p, manifest_len);
  p += manifest_len;
  rest -= manifest_len;
  index_len = MIN (index_len, rest);
  put (thread_dir, "index.atf", p, index_len);
  p += index_len;
  rest -= index_len;
  put (thread_dir, "detail.atf", p, rest);

  input = kymo_input_new_for_path (session_dir, NULL);
  if (input == NULL)
    return;
  trace = kymo_load_sync (input, &options, NULL, NULL, NULL, NULL);
  if (trace != NULL)
    read_back (trace);
  writer = kymo_json_writer_new (NULL);
  kymo_dump_sync (input, &options, writer, NULL);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  kymo_fuzz_run ("atf", data, size);
  run_session (data, size);
  return 0;
}
