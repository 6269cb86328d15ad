/* kymo-dial9-files.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <libdeflate.h>
#include <glib/gstdio.h>

#include "kymo-dial9-files.h"
#include "kymo-dial9-gzip.h"

/* Files detection looks at in a folder before it gives up. */
#define DETECT_MAX_FILES 64
#define MAX_THREADS 16

static gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

int
d9_natural_compare (const char *a,
                    const char *b)
{
  while (*a && *b)
    {
      if (is_digit (*a) && is_digit (*b))
        {
          const char *ea = a, *eb = b;
          gsize la, lb;
          int c;

          while (*a == '0' && is_digit (a[1]))
            a++;
          while (*b == '0' && is_digit (b[1]))
            b++;
          for (ea = a; is_digit (*ea); ea++)
            ;
          for (eb = b; is_digit (*eb); eb++)
            ;
          la = ea - a;
          lb = eb - b;
          if (la != lb)
            return la < lb ? -1 : 1;
          if ((c = memcmp (a, b, la)) != 0)
            return c;
          a = ea;
          b = eb;
        }
      else
        {
          if (*a != *b)
            return (guchar) *a < (guchar) *b ? -1 : 1;
          a++;
          b++;
        }
    }
  return *a ? 1 : *b ? -1 : 0;
}

static int
compare_paths (gconstpointer x,
               gconstpointer y)
{
  const char *a = *(const char * const *) x, *b = *(const char * const *) y;
  g_autofree char *ba = g_path_get_basename (a);
  g_autofree char *bb = g_path_get_basename (b);
  int c = d9_natural_compare (ba, bb);

  return c != 0 ? c : strcmp (a, b);
}

/* A dial9 stream, plain or gzip (judged from the first bytes). */
static gboolean
looks_dial9 (const guint8 *data,
             gsize         size)
{
  guint8 head[D9_HEADER_SIZE];

  if (d9_is_gzip (data, size))
    {
      gsize n = d9_gunzip_head (data, size, head, sizeof head);
      return n >= 4 && memcmp (head, D9_MAGIC, 4) == 0;
    }
  return size >= 4 && memcmp (data, D9_MAGIC, 4) == 0;
}

gboolean
d9_files_wanted (KymoInput *input)
{
  return input->is_dir || (input->extra != NULL && input->extra->len > 0);
}

static gboolean
read_head (const char *path,
           guint8     *buf,
           gsize       max,
           gsize      *n)
{
  FILE *f = g_fopen (path, "rb");

  if (f == NULL)
    return FALSE;
  *n = fread (buf, 1, max, f);
  fclose (f);
  return TRUE;
}

gboolean
d9_files_dir_has_dial9 (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;
  guint seen = 0;

  if (dir == NULL)
    return FALSE;
  while ((name = g_dir_read_name (dir)) != NULL && seen < DETECT_MAX_FILES)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);
      /* A gzip head needs a few hundred bytes to inflate five. */
      guint8 head[4096];
      gsize n = 0;

      if (!g_file_test (child, G_FILE_TEST_IS_REGULAR))
        continue;
      seen++;
      if (read_head (child, head, sizeof head, &n) && looks_dial9 (head, n))
        return TRUE;
    }
  return FALSE;
}

/* Every regular file of the input, in natural name order. */
static GPtrArray *
list_paths (KymoInput  *input,
            GPtrArray  *warnings)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  if (input->is_dir)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GDir) dir = g_dir_open (input->main.path, 0, &error);
      const char *name;

      if (dir == NULL)
        {
          g_ptr_array_add (warnings, g_strdup_printf ("%s: %s", input->main.path, error->message));
          return paths;
        }
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          char *child = g_build_filename (input->main.path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_REGULAR))
            g_ptr_array_add (paths, child);
          else
            g_free (child);
        }
    }
  else
    {
      g_ptr_array_add (paths, g_strdup (input->main.path));
      for (guint i = 0; i < input->extra->len; i++)
        g_ptr_array_add (paths, g_strdup (((KymoInputPart *) g_ptr_array_index (input->extra, i))->path));
    }
  g_ptr_array_sort (paths, compare_paths);
  return paths;
}

typedef struct {
  char   *path;
  GBytes *mapped;
  GBytes *stream;     /* inflated (or the mapping itself) */
  gboolean fallback;  /* libdeflate could not: zlib streaming, on the caller's thread */
} Pending;

typedef struct {
  Pending *items;
  guint    n;
  gint     next;      /* atomic */
  GCancellable *cancellable;
} Work;

/* Whole members in memory: libdeflate, sized by gzip's own trailer. A
 * stream it cannot take (several members, a size past 4 GiB, damage) goes
 * to zlib, which also says how far it got. */
static void
inflate_one (struct libdeflate_decompressor *dec,
             Pending                        *p)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (p->mapped, &size);
  gsize isize, in_used = 0, out_used = 0;
  guint8 *out;
  enum libdeflate_result r;

  if (!d9_is_gzip (data, size))
    {
      p->stream = g_bytes_ref (p->mapped);
      return;
    }
  isize = size >= 18 ? d9_u32 (data + size - 4) : 0;
  if (isize == 0 || isize < size / 4)
    {
      p->fallback = TRUE;
      return;
    }
  out = g_try_malloc (isize);
  if (out == NULL)
    {
      p->fallback = TRUE;
      return;
    }
  r = libdeflate_gzip_decompress_ex (dec, data, size, out, isize, &in_used, &out_used);
  if (r != LIBDEFLATE_SUCCESS || in_used != size || out_used != isize)
    {
      g_free (out);
      p->fallback = TRUE;
      return;
    }
  p->stream = g_bytes_new_take (out, out_used);
}

static gpointer
work_thread (gpointer data)
{
  Work *work = data;
  struct libdeflate_decompressor *dec = libdeflate_alloc_decompressor ();

  for (;;)
    {
      guint i = (guint) g_atomic_int_add (&work->next, 1);

      if (i >= work->n || g_cancellable_is_cancelled (work->cancellable))
        break;
      if (dec == NULL)
        work->items[i].fallback = TRUE;
      else
        inflate_one (dec, &work->items[i]);
    }
  if (dec != NULL)
    libdeflate_free_decompressor (dec);
  return NULL;
}

void
d9_file_set_free (D9FileSet *set)
{
  if (set == NULL)
    return;
  for (guint i = 0; i < set->files->len; i++)
    {
      D9File *f = &g_array_index (set->files, D9File, i);
      g_free (f->path);
      g_clear_pointer (&f->stream, g_bytes_unref);
    }
  g_array_unref (set->files);
  g_ptr_array_unref (set->warnings);
  g_free (set);
}

D9FileSet *
d9_files_open (KymoLoadJob  *job,
               GError      **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  GCancellable *cancellable = kymo_load_job_get_cancellable (job);
  D9FileSet *set = g_new0 (D9FileSet, 1);
  g_autoptr(GPtrArray) paths = NULL;
  g_autofree Pending *items = NULL;
  g_autoptr(GPtrArray) threads = g_ptr_array_new ();
  Work work = { 0 };
  guint n = 0, n_threads;

  set->files = g_array_new (FALSE, TRUE, sizeof (D9File));
  set->warnings = g_ptr_array_new_with_free_func (g_free);
  paths = list_paths (input, set->warnings);
  items = g_new0 (Pending, paths->len + 1);

  /* Map each file; keep the dial9 ones. */
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(GError) local = NULL;
      GBytes *bytes = kymo_map_file (path, &local);
      gsize size;
      const guint8 *data;

      if (bytes == NULL)
        {
          g_ptr_array_add (set->warnings, g_strdup_printf ("%s: cannot be read (%s)", path, local->message));
          continue;
        }
      data = g_bytes_get_data (bytes, &size);
      if (!looks_dial9 (data, size))
        {
          g_ptr_array_add (set->warnings, g_strdup_printf ("%s: not a dial9 trace, skipped", path));
          g_bytes_unref (bytes);
          continue;
        }
      items[n].path = g_strdup (path);
      items[n].mapped = bytes;
      n++;
    }
  if (n == 0)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, KYMO_NO_OFFSET,
                               input->is_dir ? "no dial9 trace in the folder" : "none of the files is a dial9 trace");
      d9_file_set_free (set);
      return NULL;
    }

  /* Inflate on several threads. */
  work.items = items;
  work.n = n;
  work.cancellable = cancellable;
  n_threads = MIN (MIN (g_get_num_processors (), MAX_THREADS), n);
  for (guint t = 1; t < n_threads; t++)
    g_ptr_array_add (threads, g_thread_new ("dial9-inflate", work_thread, &work));
  work_thread (&work);
  for (guint t = 0; t < threads->len; t++)
    g_thread_join (g_ptr_array_index (threads, t));

  for (guint i = 0; i < n; i++)
    {
      Pending *p = &items[i];
      D9File f = { 0 };

      if (p->stream == NULL && !g_cancellable_is_cancelled (cancellable))
        {
          g_autofree char *warning = NULL;
          g_autoptr(GError) local = NULL;
          gsize size;
          const guint8 *data = g_bytes_get_data (p->mapped, &size);

          /* Here, on the loading thread, zlib may report progress. */
          p->stream = d9_gunzip (job, data, size, &warning, &local);
          if (warning != NULL)
            g_ptr_array_add (set->warnings, g_strdup_printf ("%s: %s", p->path, warning));
          if (local != NULL)
            g_ptr_array_add (set->warnings, g_strdup_printf ("%s: %s", p->path, local->message));
        }
      g_bytes_unref (p->mapped);
      if (p->stream == NULL || g_bytes_get_size (p->stream) == 0)
        {
          g_free (p->path);
          g_clear_pointer (&p->stream, g_bytes_unref);
          continue;
        }
      f.path = p->path;
      f.stream = p->stream;
      f.keep = g_bytes_get_size (p->stream);
      g_array_append_val (set->files, f);
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      d9_file_set_free (set);
      return NULL;
    }
  if (set->files->len == 0)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_CORRUPT, KYMO_NO_OFFSET, "no dial9 file could be inflated");
      d9_file_set_free (set);
      return NULL;
    }
  return set;
}

GBytes *
d9_files_join (D9FileSet *set)
{
  gsize total = 0, at = 0;
  guint8 *out;

  for (guint i = 0; i < set->files->len; i++)
    total += g_array_index (set->files, D9File, i).keep;
  out = g_malloc (MAX (total, 1));
  for (guint i = 0; i < set->files->len; i++)
    {
      D9File *f = &g_array_index (set->files, D9File, i);

      f->start = at;
      memcpy (out + at, g_bytes_get_data (f->stream, NULL), f->keep);
      at += f->keep;
    }
  return g_bytes_new_take (out, total);
}

/* How far a stream decodes: every frame is walked (no model is built). */
static gsize
clean_length (const guint8  *data,
              gsize          size,
              D9Status      *status,
              const char   **message)
{
  D9Registry reg;
  gsize pos = 0;

  d9_registry_init (&reg);
  *status = D9_OK;
  *message = NULL;
  while (pos < size)
    {
      gsize p = pos + 1;
      guint8 tag = data[pos];
      D9Status st = D9_OK;

      switch (tag)
        {
        case D9_TAG_HEADER:
          if (!d9_is_header (data, size, pos))
            {
              st = size - pos < D9_HEADER_SIZE ? D9_TRUNCATED : D9_CORRUPT;
              *message = "bad segment header";
              break;
            }
          d9_registry_new_segment (&reg);
          p = pos + D9_HEADER_SIZE;
          break;
        case D9_TAG_SCHEMA:
          {
            guint32 index;
            gboolean is_new;

            st = d9_registry_parse (&reg, data, size, &p, &index, &is_new, message);
          }
          break;
        case D9_TAG_EVENT:
          {
            const D9Schema *schema;
            const D9Field *fields;

            if (size - p < 2)
              {
                st = D9_TRUNCATED;
                break;
              }
            schema = d9_registry_lookup (&reg, d9_u16 (data + p));
            if (schema == NULL)
              {
                st = D9_CORRUPT;
                *message = "event of a type_id with no schema";
                break;
              }
            p += 2;
            if (schema->has_ts)
              {
                if (size - p < 3)
                  {
                    st = D9_TRUNCATED;
                    break;
                  }
                p += 3;
              }
            fields = &g_array_index (reg.fields, D9Field, schema->first_field);
            for (guint i = 0; i < schema->n_fields && st == D9_OK; i++)
              st = d9_skip_value (data, size, &p, fields[i].type, 0);
            if (st == D9_CORRUPT)
              *message = "bad value in an event";
          }
          break;
        case D9_TAG_STRING_POOL:
          {
            guint32 count;
            st = d9_check_string_pool (data, size, &p, &count);
          }
          break;
        case D9_TAG_STACK_POOL:
          {
            guint32 count;
            st = d9_check_stack_pool (data, size, &p, &count);
          }
          break;
        case D9_TAG_TS_RESET:
          if (size - p < 8)
            st = D9_TRUNCATED;
          p += 8;
          break;
        case D9_TAG_ANNOTATIONS:
          {
            guint64 type_id;
            guint16 count;
            gsize entries;

            st = d9_check_annotations (data, size, &p, &type_id, &count, &entries);
          }
          break;
        default:
          st = D9_CORRUPT;
          *message = "unknown frame tag";
          break;
        }
      if (st != D9_OK)
        {
          *status = st;
          if (*message == NULL)
            *message = st == D9_TRUNCATED ? "the file ends inside a frame" : "corrupt frame";
          break;
        }
      pos = p;
    }
  d9_registry_clear (&reg);
  return pos;
}

void
d9_files_cut_damage (D9FileSet *set)
{
  for (guint i = 0; i < set->files->len; i++)
    {
      D9File *f = &g_array_index (set->files, D9File, i);
      gsize size;
      const guint8 *data = g_bytes_get_data (f->stream, &size);
      D9Status status;
      const char *message;
      gsize keep = clean_length (data, size, &status, &message);

      if (status == D9_OK)
        continue;
      g_ptr_array_add (set->warnings,
                       g_strdup_printf ("%s: offset %" G_GSIZE_FORMAT ": %s; what follows in this file is left out",
                                        f->path, keep, status == D9_TRUNCATED ? "the file ends inside a frame" : message));
      f->keep = keep;
    }
}
