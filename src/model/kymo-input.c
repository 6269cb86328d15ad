/* kymo-input.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-input"

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gio/gunixinputstream.h>

#include "kymo-format.h"
#include "kymo-input.h"

static void
part_clear (KymoInputPart *part)
{
  g_clear_object (&part->file);
  g_clear_pointer (&part->path, g_free);
  g_clear_pointer (&part->bytes, g_bytes_unref);
  part->data = NULL;
  part->size = 0;
}

static void
part_free (gpointer data)
{
  KymoInputPart *part = data;

  part_clear (part);
  g_free (part);
}

static void
input_clear (gpointer data)
{
  KymoInput *self = data;

  part_clear (&self->main);
  g_clear_pointer (&self->extra, g_ptr_array_unref);
}

static KymoInput *
input_new (void)
{
  KymoInput *self = g_atomic_rc_box_new0 (KymoInput);

  self->main.core = -1;
  self->extra = g_ptr_array_new_with_free_func (part_free);
  return self;
}

KymoInput *
kymo_input_ref (KymoInput *self)
{
  return g_atomic_rc_box_acquire (self);
}

void
kymo_input_unref (KymoInput *self)
{
  g_atomic_rc_box_release_full (self, input_clear);
}

const char *
kymo_input_get_path (KymoInput *self)
{
  return self->main.path;
}

GBytes *
kymo_map_file (const char  *path,
               GError     **error)
{
  GMappedFile *mapped;
  GBytes *bytes;

  mapped = g_mapped_file_new (path, FALSE, error);
  if (mapped == NULL)
    return NULL;
  bytes = g_mapped_file_get_bytes (mapped);
  g_mapped_file_unref (mapped);
  return bytes;
}

static GBytes *
read_stdin (GError **error)
{
  g_autoptr(GInputStream) in = g_unix_input_stream_new (STDIN_FILENO, FALSE);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();

  if (g_output_stream_splice (out, in, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, error) < 0)
    return NULL;
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* Fills @part from @path. Handles "-" and the "file@N" core suffix. */
static gboolean
part_open (KymoInputPart  *part,
           const char     *path,
           gboolean       *is_dir,
           GError        **error)
{
  g_autofree char *real_path = NULL;
  GStatBuf st;

  part->core = -1;
  *is_dir = FALSE;

  if (g_str_equal (path, "-"))
    {
      part->path = g_strdup ("<stdin>");
      part->bytes = read_stdin (error);
      if (part->bytes == NULL)
        return FALSE;
      part->data = g_bytes_get_data (part->bytes, &part->size);
      return TRUE;
    }

  real_path = g_strdup (path);
  if (g_stat (real_path, &st) != 0)
    {
      const char *at = strrchr (path, '@');
      guint64 core;

      if (at != NULL && at[1] != '\0' &&
          g_ascii_string_to_unsigned (at + 1, 10, 0, 1024, &core, NULL))
        {
          g_free (real_path);
          real_path = g_strndup (path, at - path);
          part->core = (int) core;
        }
      if (g_stat (real_path, &st) != 0)
        {
          int saved = errno;
          g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO,
                       "%s: %s", path, g_strerror (saved));
          return FALSE;
        }
    }

  part->path = g_strdup (real_path);
  part->file = g_file_new_for_path (real_path);

  if (S_ISDIR (st.st_mode))
    {
      *is_dir = TRUE;
      return TRUE;
    }

  if (!S_ISREG (st.st_mode))
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO,
                   "%s: not a regular file or folder", path);
      return FALSE;
    }

  {
    g_autoptr(GError) local_error = NULL;

    part->bytes = kymo_map_file (real_path, &local_error);
    if (part->bytes == NULL)
      {
        g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO,
                     "%s: %s", path, local_error->message);
        return FALSE;
      }
  }
  part->data = g_bytes_get_data (part->bytes, &part->size);
  return TRUE;
}

KymoInput *
kymo_input_new_for_paths (const char * const  *paths,
                          guint                n_paths,
                          GError             **error)
{
  g_autoptr(KymoInput) self = input_new ();

  g_return_val_if_fail (n_paths > 0, NULL);

  if (!part_open (&self->main, paths[0], &self->is_dir, error))
    return NULL;

  for (guint i = 1; i < n_paths; i++)
    {
      KymoInputPart *part = g_new0 (KymoInputPart, 1);
      gboolean is_dir;

      g_ptr_array_add (self->extra, part);
      if (!part_open (part, paths[i], &is_dir, error))
        return NULL;
      if (is_dir)
        {
          g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO,
                       "%s: a folder can only be opened on its own", paths[i]);
          return NULL;
        }
    }

  return g_steal_pointer (&self);
}

KymoInput *
kymo_input_new_for_path (const char  *path,
                         GError     **error)
{
  return kymo_input_new_for_paths (&path, 1, error);
}

KymoInput *
kymo_input_new_for_files (GFile * const  *files,
                          guint           n_files,
                          GError        **error)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n_files; i++)
    {
      char *path = g_file_get_path (files[i]);

      if (path == NULL)
        {
          g_autofree char *uri = g_file_get_uri (files[i]);
          g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO,
                       "%s: only local files can be opened", uri);
          return NULL;
        }
      g_ptr_array_add (paths, path);
    }
  return kymo_input_new_for_paths ((const char * const *) paths->pdata, paths->len, error);
}

KymoInput *
kymo_input_new_for_file (GFile   *file,
                         GError **error)
{
  return kymo_input_new_for_files (&file, 1, error);
}

KymoInput *
kymo_input_new_for_bytes (GBytes     *bytes,
                          const char *name)
{
  KymoInput *self = input_new ();

  self->main.path = g_strdup (name ? name : "<memory>");
  self->main.bytes = g_bytes_ref (bytes);
  self->main.data = g_bytes_get_data (bytes, &self->main.size);
  return self;
}
