/* kymo-test-utils.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-test-utils.h"

char *
kymo_test_sample_path (const char *relative)
{
  const char *dir = g_getenv ("KYMO_SAMPLES_DIR");
  g_autofree char *path = NULL;

  if (dir == NULL || !g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("../shared/samples is not here: sample tests skipped");
      return NULL;
    }
  path = g_build_filename (dir, relative, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_autofree char *msg = g_strdup_printf ("sample %s is missing: skipped", relative);
      g_test_skip (msg);
      return NULL;
    }
  return g_steal_pointer (&path);
}

static guint test_threads;

void
kymo_test_set_threads (guint threads)
{
  test_threads = threads;
}

KymoTrace *
kymo_test_load_bytes (const guint8  *data,
                      gsize          size,
                      const char    *format,
                      GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "test-input");
  KymoLoadOptions options = { .format = format, .threads = test_threads };

  return kymo_load_sync (input, &options, NULL, NULL, NULL, error);
}

KymoTrace *
kymo_test_load_path (const char  *path,
                     const char  *format,
                     GError     **error)
{
  g_autoptr(KymoInput) input = kymo_input_new_for_path (path, error);
  KymoLoadOptions options = { .format = format, .threads = test_threads };

  if (input == NULL)
    return NULL;
  return kymo_load_sync (input, &options, NULL, NULL, NULL, error);
}

char *
kymo_test_dump_bytes (const guint8  *data,
                      gsize          size,
                      const char    *format,
                      gboolean      *ok,
                      GError       **error)
{
  g_autoptr(GBytes) bytes = g_bytes_new (data, size);
  g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "test-input");
  g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);
  KymoLoadOptions options = { .format = format, .threads = test_threads };

  *ok = kymo_dump_sync (input, &options, writer, error);
  return g_strdup (kymo_json_writer_get_string (writer));
}

guint
kymo_test_every_prefix (const guint8 *data,
                        gsize         size,
                        const char   *format,
                        gsize         step)
{
  guint clean = 0;

  for (gsize len = 0; len <= size; len += MAX (step, 1))
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = kymo_test_load_bytes (data, len, format, &error);
      g_autofree char *dump = NULL;
      gboolean ok;

      if (trace != NULL && kymo_trace_get_stop_error (trace) == NULL)
        clean++;
      g_clear_error (&error);
      dump = kymo_test_dump_bytes (data, len, format, &ok, &error);
    }
  return clean;
}
