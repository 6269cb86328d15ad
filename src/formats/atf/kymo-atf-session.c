/* kymo-atf-session.c: finding the processes and threads of a session
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Thread folders are found by listing folders, never by joining names read
 * from a manifest into paths; only an .adabundle's trace_session is followed,
 * and only when it stays inside the bundle (see kymo-atf-manifest.c).
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include "kymo-atf-private.h"
#include "kymo-byte-reader.h"

/* bundle → ada_traces → session_… → pid_… */
#define MAX_LEVEL 4

static void
thread_source_free (gpointer data)
{
  AtfThreadSource *source = data;

  g_free (source->index_path);
  g_free (source->detail_path);
  g_clear_pointer (&source->index_bytes, g_bytes_unref);
  g_clear_pointer (&source->detail_bytes, g_bytes_unref);
  g_free (source);
}

void
_kymo_atf_process_source_free (gpointer data)
{
  AtfProcessSource *source = data;

  g_free (source->dir);
  g_free (source->manifest_path);
  g_ptr_array_unref (source->threads);
  g_free (source);
}

static AtfProcessSource *
process_source_new (gint64      pid,
                    const char *dir)
{
  AtfProcessSource *source = g_new0 (AtfProcessSource, 1);

  source->pid = pid;
  source->dir = g_strdup (dir);
  source->threads = g_ptr_array_new_with_free_func (thread_source_free);
  return source;
}

/* "thread_12" with prefix "thread_" → 12 */
static gboolean
parse_numbered (const char *name,
                const char *prefix,
                guint64    *out)
{
  gsize n = strlen (prefix);
  const char *digits = name + n;

  if (strncmp (name, prefix, n) != 0 || digits[0] == '\0' || strlen (digits) > 10)
    return FALSE;
  for (const char *p = digits; *p; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return g_ascii_string_to_unsigned (digits, 10, 0, G_MAXUINT32, out, NULL);
}

static char *
child_file (const char *dir,
            const char *name)
{
  char *path = g_build_filename (dir, name, NULL);

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
    return path;
  g_free (path);
  return NULL;
}

static AtfJsonKind
file_json_kind (const char *path)
{
  g_autoptr(GBytes) bytes = NULL;
  gsize size;
  const guint8 *data;

  if (path == NULL || (bytes = _kymo_atf_map (path, NULL)) == NULL)
    return ATF_JSON_NONE;
  data = g_bytes_get_data (bytes, &size);
  return _kymo_atf_json_kind (data, size);
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  const char *na = *(const char * const *) a, *nb = *(const char * const *) b;
  guint64 ia, ib;

  /* pid_9 before pid_10 */
  if ((parse_numbered (na, "pid_", &ia) && parse_numbered (nb, "pid_", &ib)) ||
      (parse_numbered (na, "thread_", &ia) && parse_numbered (nb, "thread_", &ib)))
    return ia < ib ? -1 : ia > ib;
  return strcmp (na, nb);
}

/* Names of the sub-folders of @dir, sorted. */
static GPtrArray *
list_subdirs (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  if (d == NULL)
    return names;
  while ((name = g_dir_read_name (d)))
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, compare_names);
  return names;
}

static gint64
pid_of (const char *dir)
{
  g_autofree char *base = g_path_get_basename (dir);
  guint64 pid;

  return parse_numbered (base, "pid_", &pid) ? (gint64) pid : -1;
}

static AtfProcessSource *
scan_pid_dir (const char *dir)
{
  g_autoptr(GPtrArray) subdirs = list_subdirs (dir);
  AtfProcessSource *process = process_source_new (pid_of (dir), dir);
  g_autofree char *manifest = child_file (dir, "manifest.json");

  /* Whatever it holds: a broken manifest is reported, not skipped. */
  process->manifest_path = g_steal_pointer (&manifest);

  for (guint i = 0; i < subdirs->len; i++)
    {
      const char *name = g_ptr_array_index (subdirs, i);
      g_autofree char *thread_dir = NULL;
      AtfThreadSource *thread;
      guint64 number;

      if (!parse_numbered (name, "thread_", &number))
        continue;
      thread_dir = g_build_filename (dir, name, NULL);
      thread = g_new0 (AtfThreadSource, 1);
      thread->number = (guint) number;
      thread->index_path = child_file (thread_dir, "index.atf");
      thread->detail_path = child_file (thread_dir, "detail.atf");
      if (thread->index_path == NULL && thread->detail_path == NULL)
        {
          thread_source_free (thread);
          continue;
        }
      g_ptr_array_add (process->threads, thread);
    }
  return process;
}

static gboolean
has_thread_dirs (GPtrArray *subdirs)
{
  guint64 number;

  for (guint i = 0; i < subdirs->len; i++)
    if (parse_numbered (g_ptr_array_index (subdirs, i), "thread_", &number))
      return TRUE;
  return FALSE;
}

static void
collect (const char  *dir,
         guint        level,
         GPtrArray   *out,
         GError     **error)
{
  g_autofree char *manifest = child_file (dir, "manifest.json");
  g_autoptr(GPtrArray) subdirs = NULL;
  AtfJsonKind kind = file_json_kind (manifest);
  gboolean found_pid = FALSE;

  if (level > MAX_LEVEL)
    return;

  if (kind == ATF_JSON_BUNDLE)
    {
      g_autoptr(GBytes) bytes = _kymo_atf_map (manifest, NULL);
      g_autoptr(GError) local_error = NULL;
      g_autofree char *target = NULL;
      gsize size = 0;
      const char *data = bytes ? g_bytes_get_data (bytes, &size) : NULL;

      target = data ? _kymo_atf_bundle_target (data, size, dir, &local_error) : NULL;
      if (target != NULL)
        collect (target, level + 1, out, error);
      else if (error && *error == NULL && local_error != NULL)
        g_set_error (error, KYMO_LOAD_ERROR, local_error->code, "%s: %s", manifest, local_error->message);
      return;
    }

  subdirs = list_subdirs (dir);
  if (kind == ATF_JSON_SESSION || has_thread_dirs (subdirs))
    {
      g_ptr_array_add (out, scan_pid_dir (dir));
      return;
    }

  for (guint i = 0; i < subdirs->len; i++)
    {
      const char *name = g_ptr_array_index (subdirs, i);
      guint64 pid;

      if (parse_numbered (name, "pid_", &pid))
        {
          g_autofree char *child = g_build_filename (dir, name, NULL);
          g_ptr_array_add (out, scan_pid_dir (child));
          found_pid = TRUE;
        }
    }
  if (found_pid)
    return;

  for (guint i = 0; i < subdirs->len; i++)
    {
      const char *name = g_ptr_array_index (subdirs, i);

      if (g_str_has_prefix (name, "session_") || g_str_equal (name, "ada_traces") ||
          g_str_equal (name, "trace") || g_str_has_suffix (name, ".adabundle"))
        {
          g_autofree char *child = g_build_filename (dir, name, NULL);
          collect (child, level + 1, out, error);
        }
    }
}

/* A lone index.atf or detail.atf given by path: its thread folder, and the
 * pid folder above it when it is one. */
static AtfProcessSource *
process_for_file (KymoInput *input,
                  gboolean   is_index)
{
  g_autofree char *thread_dir = g_path_get_dirname (input->main.path);
  g_autofree char *thread_base = g_path_get_basename (thread_dir);
  g_autofree char *pid_dir = g_path_get_dirname (thread_dir);
  AtfThreadSource *thread = g_new0 (AtfThreadSource, 1);
  AtfProcessSource *process;
  guint64 number;

  if (parse_numbered (thread_base, "thread_", &number))
    {
      process = process_source_new (pid_of (pid_dir), pid_dir);
      process->manifest_path = child_file (pid_dir, "manifest.json");
      if (process->manifest_path && file_json_kind (process->manifest_path) != ATF_JSON_SESSION)
        g_clear_pointer (&process->manifest_path, g_free);
      thread->number = (guint) number;
    }
  else
    {
      process = process_source_new (-1, thread_dir);
      thread->number = input->main.size >= 16 ? kymo_read_u32le (input->main.data + 12) : 0;
    }

  if (is_index)
    {
      thread->index_bytes = g_bytes_ref (input->main.bytes);
      thread->index_path = g_strdup (input->main.path);
      thread->detail_path = child_file (thread_dir, "detail.atf");
    }
  else
    {
      thread->index_path = child_file (thread_dir, "index.atf");
      thread->detail_bytes = g_bytes_ref (input->main.bytes);
      thread->detail_path = g_strdup (input->main.path);
    }
  g_ptr_array_add (process->threads, thread);
  return process;
}

GPtrArray *
_kymo_atf_discover (KymoInput  *input,
                    GError    **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func (_kymo_atf_process_source_free);
  g_autoptr(GError) local_error = NULL;
  const guint8 *data = input->main.data;
  gsize size = input->main.size;
  gboolean is_index = size >= 4 && memcmp (data, "ATI2", 4) == 0;
  gboolean is_detail = size >= 4 && memcmp (data, "ATD2", 4) == 0;

  if (input->is_dir)
    collect (input->main.path, 0, out, &local_error);
  else if ((is_index || is_detail) && input->main.file != NULL)
    g_ptr_array_add (out, process_for_file (input, is_index));
  else if (is_index || is_detail)
    {
      AtfProcessSource *process = process_source_new (-1, NULL);
      AtfThreadSource *thread = g_new0 (AtfThreadSource, 1);

      thread->number = size >= 16 ? kymo_read_u32le (data + 12) : 0;
      thread->index_path = g_strdup (input->main.path);
      if (is_index)
        thread->index_bytes = g_bytes_ref (input->main.bytes);
      else
        {
          thread->detail_path = g_steal_pointer (&thread->index_path);
          thread->detail_bytes = g_bytes_ref (input->main.bytes);
        }
      g_ptr_array_add (process->threads, thread);
      g_ptr_array_add (out, process);
    }
  else if (input->main.file != NULL)
    {
      g_autofree char *dir = g_path_get_dirname (input->main.path);

      switch (_kymo_atf_json_kind (data, size))
        {
        case ATF_JSON_BUNDLE:
          {
            g_autofree char *target = _kymo_atf_bundle_target ((const char *) data, size, dir, &local_error);

            if (target != NULL)
              collect (target, 1, out, &local_error);
            else
              g_prefix_error (&local_error, "%s: ", input->main.path);
          }
          break;
        case ATF_JSON_SESSION:
          g_ptr_array_add (out, scan_pid_dir (dir));
          break;
        case ATF_JSON_NONE:
        default:
          break;
        }
    }

  for (guint i = 0; i < out->len; i++)
    {
      AtfProcessSource *process = g_ptr_array_index (out, i);

      if (process->threads->len > 0)
        return g_steal_pointer (&out);
    }

  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  else
    g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNKNOWN_FORMAT,
                 "%s: no ATF session (no thread_N folder with an index.atf)", input->main.path);
  return NULL;
}
