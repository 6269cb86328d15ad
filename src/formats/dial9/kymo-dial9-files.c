/* kymo-dial9-files.c: several dial9 files (a folder of rotated segments) as one trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "kymo-dial9-files.h"
#include "kymo-mapped.h"
#include "kymo-dial9-gzip.h"
#include "kymo-file-order.h"
#include "kymo-parts.h"

/* Files detection looks at in a folder before it gives up. */
#define DETECT_MAX_FILES 64

static int
compare_paths (gconstpointer x,
               gconstpointer y)
{
  return kymo_file_path_compare (*(const char * const *) x, *(const char * const *) y);
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

          /* A link to nothing is kept, so that it is reported as unreadable
           * rather than silently missing from the trace. */
          if (g_file_test (child, G_FILE_TEST_IS_REGULAR)
              || (g_file_test (child, G_FILE_TEST_IS_SYMLINK) && !g_file_test (child, G_FILE_TEST_EXISTS)))
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

/* Whether @path is a dial9 file, and what it inflates to; reads the first
 * and last bytes only. FALSE with a warning. */
static gboolean
probe_file (const char *path,
            D9File     *f,
            GPtrArray  *warnings)
{
  /* A gzip head needs a few hundred bytes to inflate five. */
  guint8 head[4096];
  guint8 tail[4];
  struct stat st;
  gssize n;
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0 || fstat (fd, &st) < 0 || (n = pread (fd, head, sizeof head, 0)) < 0)
    {
      int saved = errno;

      g_ptr_array_add (warnings, g_strdup_printf ("%s: cannot be read (%s)", path, g_strerror (saved)));
      if (fd >= 0)
        close (fd);
      return FALSE;
    }
  if (!looks_dial9 (head, (gsize) n))
    {
      g_ptr_array_add (warnings, g_strdup_printf ("%s: not a dial9 trace, skipped", path));
      close (fd);
      return FALSE;
    }
  f->path = g_strdup (path);
  f->gzip = d9_is_gzip (head, (gsize) n);
  f->file_size = (gsize) st.st_size;
  f->guess = f->file_size;
  if (f->gzip)
    f->guess = pread (fd, tail, sizeof tail, st.st_size - (off_t) sizeof tail) == sizeof tail
               ? d9_gzip_trusted_size (d9_u32 (tail), f->file_size) : 0;
  close (fd);
  return TRUE;
}

void
d9_file_set_free (D9FileSet *set)
{
  if (set == NULL)
    return;
  for (guint i = 0; i < set->files->len; i++)
    g_free (g_array_index (set->files, D9File, i).path);
  g_array_unref (set->files);
  g_ptr_array_unref (set->warnings);
  g_clear_pointer (&set->joined, g_bytes_unref);
  g_free (set);
}

D9FileSet *
d9_files_list (KymoLoadJob  *job,
               GError      **error)
{
  KymoInput *input = kymo_load_job_get_input (job);
  D9FileSet *set = g_new0 (D9FileSet, 1);
  g_autoptr(GPtrArray) paths = NULL;

  set->files = g_array_new (FALSE, TRUE, sizeof (D9File));
  set->warnings = g_ptr_array_new_with_free_func (g_free);
  paths = list_paths (input, set->warnings);
  for (guint i = 0; i < paths->len; i++)
    {
      D9File f = { 0 };

      if (probe_file (g_ptr_array_index (paths, i), &f, set->warnings))
        g_array_append_val (set->files, f);
    }
  if (set->files->len == 0)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, KYMO_NO_OFFSET,
                               input->is_dir ? "no dial9 trace in the folder" : "none of the files is a dial9 trace");
      d9_file_set_free (set);
      return NULL;
    }
  return set;
}

/* What inflating one file gave. */
typedef struct {
  GBytes  *own;     /* when it is not in the joined buffer */
  gsize    len;     /* the bytes that came out */
  char    *failed;  /* why it could not be read */
  gboolean redo;    /* libdeflate could not: zlib streaming, on the loading thread */
} D9Inflated;

typedef struct {
  D9FileSet    *set;
  KymoLoadJob  *job;
  guint8       *out;       /* every file at its start; NULL: each in its own buffer */
  D9Inflated   *done;      /* one per file */
  D9FileFunc    func;
  gpointer      user_data;
  GError      **error;
  guint64       read_bytes, total_bytes;  /* of the files on disk, for progress */
  gboolean      moved;     /* a file did not come out at the size its place was made for */
  gint         *filled;    /* per file, atomic: inflated already (NULL: none is) */
  gboolean      decoded;   /* and decoded meanwhile: progress stays there */
} D9Inflating;

struct _D9FileFill {
  D9Inflating  ing;
  GBytes      *bytes;      /* owns ing.out */
  gsize        total;
};

/* Up to @max bytes of a plain file into @dest: read(), not a mapping, so
 * the bytes are copied once and no page of the file is mapped. */
static void
read_into (const char  *path,
           guint8      *dest,
           gsize        max,
           D9Inflated  *r)
{
  int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);

  if (fd < 0)
    {
      r->failed = g_strdup (g_strerror (errno));
      return;
    }
  while (r->len < max)
    {
      gssize n = pread (fd, dest + r->len, MIN (max - r->len, (gsize) 1 << 30), (off_t) r->len);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          r->failed = g_strdup (g_strerror (errno));
          break;
        }
      if (n == 0)
        break;
      r->len += (gsize) n;
    }
  close (fd);
}

/* Real dial9 files inflate to some 4 to 5 times their size. */
#define POPULATE_RATIO 8

/* Part @index: file @index inflated (on any thread). Whole members in
 * memory go to libdeflate, sized by the trailer; anything it cannot take
 * (several members, damage, a size past 4 GiB) is left to zlib. */
static void
inflate_part (guint    index,
              gpointer user_data)
{
  D9Inflating *ing = user_data;
  D9File *f = &g_array_index (ing->set->files, D9File, index);
  D9Inflated *r = &ing->done[index];
  g_autoptr(GBytes) mapped = NULL;
  g_autoptr(GError) local = NULL;
  const guint8 *data;
  gsize size;
  guint8 *dest;

  if (ing->filled != NULL && g_atomic_int_get (&ing->filled[index]))
    return;
  /* Its place in the stream is written whole: populated in one call
   * rather than faulted in page by page. Not beyond what real files
   * inflate to, which a damaged member may not fill. */
  if (ing->out != NULL)
    kymo_mapped_populate (ing->out + f->start, MIN (f->guess, f->file_size * POPULATE_RATIO));
  if (!f->gzip && ing->out != NULL)
    {
      read_into (f->path, ing->out + f->start, f->guess, r);
      return;
    }
  if (f->gzip && f->guess == 0)
    {
      r->redo = TRUE;
      return;
    }
  mapped = kymo_map_file (f->path, &local);
  if (mapped == NULL)
    {
      r->failed = g_strdup (local->message);
      return;
    }
  if (!f->gzip)
    {
      r->len = g_bytes_get_size (mapped);
      r->own = g_steal_pointer (&mapped);
      return;
    }

  data = g_bytes_get_data (mapped, &size);
  dest = ing->out != NULL ? ing->out + f->start : g_try_malloc (f->guess);
  if (dest != NULL && d9_inflate_member (data, size, dest, f->guess))
    {
      r->len = f->guess;
      if (ing->out == NULL)
        r->own = g_bytes_new_take (g_steal_pointer (&dest), f->guess);
    }
  else
    r->redo = TRUE;
  if (ing->out == NULL)
    g_free (dest);
}

/* File @index, in order on the loading thread: what libdeflate left is
 * inflated here (zlib reports progress and warnings from this thread
 * only), and the file goes to its taker. */
static gboolean
join_part (guint    index,
           gpointer user_data)
{
  D9Inflating *ing = user_data;
  D9File *f = &g_array_index (ing->set->files, D9File, index);
  D9Inflated *r = &ing->done[index];
  gboolean ok = TRUE;

  if (r->failed != NULL)
    {
      g_ptr_array_add (ing->set->warnings, g_strdup_printf ("%s: cannot be read (%s)", f->path, r->failed));
      r->len = 0;
    }
  else if (r->redo)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(GBytes) mapped = kymo_map_file (f->path, &local);
      g_autofree char *warning = NULL;

      if (mapped != NULL)
        {
          gsize size;
          const guint8 *data = g_bytes_get_data (mapped, &size);

          r->own = d9_gunzip (ing->job, data, size, &warning, &local);
        }
      if (g_error_matches (local, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (ing->error, g_steal_pointer (&local));
          return FALSE;
        }
      if (warning != NULL)
        g_ptr_array_add (ing->set->warnings, g_strdup_printf ("%s: %s", f->path, warning));
      if (local != NULL)
        g_ptr_array_add (ing->set->warnings, g_strdup_printf ("%s: %s", f->path, local->message));
      r->len = r->own != NULL ? g_bytes_get_size (r->own) : 0;
    }
  if (ing->out != NULL && (r->own != NULL || r->len != f->guess))
    ing->moved = TRUE;
  f->size = f->keep = r->len;

  ing->read_bytes += f->file_size;
  if (!kymo_load_job_progress (ing->job, ing->decoded ? D9_PROGRESS_DECODED : D9_PROGRESS_READ * ing->read_bytes / MAX (ing->total_bytes, 1),
                               ing->decoded ? "Decoding" : "Decompressing", ing->error))
    return FALSE;
  if (ing->func != NULL)
    {
      if (r->len > 0)
        ok = ing->func (ing->set, index, g_steal_pointer (&r->own), ing->user_data, ing->error);
      g_clear_pointer (&r->own, g_bytes_unref);
    }
  return ok;
}

/* Files below this, together, inflate on the loading thread alone. */
#define PARALLEL_MIN_BYTES ((gsize) 1 << 20)

static gboolean
inflate_all (D9Inflating  *ing,
             gsize         total)
{
  const KymoLoadOptions *options = kymo_load_job_get_options (ing->job);
  guint n = ing->set->files->len;
  /* Files handed on one by one need a bound, or a slow taker lets every
   * file pile up inflated; in place, the buffer is there already. */
  guint ahead = ing->out != NULL ? 0 : 2 * kymo_load_options_get_threads (options, total, PARALLEL_MIN_BYTES);
  g_autoptr(KymoParts) parts = NULL;

  for (guint i = 0; i < n; i++)
    ing->total_bytes += g_array_index (ing->set->files, D9File, i).file_size;
  if (ing->done == NULL)
    ing->done = g_new0 (D9Inflated, n);
  parts = kymo_parts_new (options, total, PARALLEL_MIN_BYTES, n, ahead, inflate_part, ing);
  /* A join here is a progress report (or, rarely, zlib): the loading
   * thread inflates files too rather than sleep on the one it waits for. */
  kymo_parts_set_help (parts, TRUE);
  for (guint i = 0; i < n; i++)
    {
      kymo_parts_wait (parts, i);
      if (!join_part (i, ing))
        return FALSE;
      kymo_parts_release (parts, i);
    }
  return TRUE;
}

static void
inflated_free (D9Inflating *ing)
{
  for (guint i = 0; i < ing->set->files->len; i++)
    {
      g_clear_pointer (&ing->done[i].own, g_bytes_unref);
      g_free (ing->done[i].failed);
    }
  g_free (ing->done);
  g_free (ing->filled);
}

/* The files into one buffer: each where its guess placed it unless one
 * came out at another size, then all moved up against each other. */
static gboolean
join_inflated (D9Inflating *ing,
               GBytes      *fill_bytes)
{
  GArray *files = ing->set->files;
  gsize total = 0, at = 0;
  guint8 *out;

  if (!ing->moved)
    {
      for (guint i = 0; i < files->len; i++)
        total += g_array_index (files, D9File, i).size;
      ing->set->joined = g_bytes_new_from_bytes (fill_bytes, 0, total);
    }
  else
    {
      for (guint i = 0; i < files->len; i++)
        total += ing->done[i].len;
      out = g_try_malloc (MAX (total, 1));
      if (out == NULL)
        return FALSE;
      for (guint i = 0; i < files->len; i++)
        {
          D9File *f = &g_array_index (files, D9File, i);
          const guint8 *from = ing->done[i].own != NULL ? g_bytes_get_data (ing->done[i].own, NULL)
                                                         : ing->out + f->start;

          memcpy (out + at, from, ing->done[i].len);
          f->start = at;
          at += ing->done[i].len;
        }
      ing->set->joined = g_bytes_new_take (out, total);
    }

  /* Files that gave nothing are left out. */
  for (guint i = files->len; i-- > 0;)
    if (g_array_index (files, D9File, i).size == 0)
      {
        g_free (g_array_index (files, D9File, i).path);
        g_array_remove_index (files, i);
      }
  return TRUE;
}

D9FileFill *
d9_files_fill_new (D9FileSet    *set,
                   KymoLoadJob  *job,
                   GError      **error)
{
  D9FileFill *fill = g_new0 (D9FileFill, 1);
  guint8 *out;

  for (guint i = 0; i < set->files->len; i++)
    {
      D9File *f = &g_array_index (set->files, D9File, i);

      f->start = fill->total;
      fill->total += f->guess;
    }
  /* Each file is inflated straight into its place in the one stream the
   * decoder reads: no second copy to join them, and half the memory. */
  out = g_try_malloc (MAX (fill->total, 1));
  if (out == NULL)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_IO, KYMO_NO_OFFSET,
                               "not enough memory for the files inflated (%" G_GSIZE_FORMAT " bytes)", fill->total);
      g_free (fill);
      return NULL;
    }
  fill->bytes = g_bytes_new_take (out, fill->total);
  fill->ing.set = set;
  fill->ing.job = job;
  fill->ing.out = out;
  fill->ing.done = g_new0 (D9Inflated, set->files->len);
  fill->ing.filled = g_new0 (gint, set->files->len);
  return fill;
}

GBytes *
d9_files_fill_bytes (D9FileFill *fill)
{
  return fill->bytes;
}

gboolean
d9_files_fill_one (D9FileFill *fill,
                   guint       index)
{
  D9Inflating *ing = &fill->ing;
  const D9File *f = &g_array_index (ing->set->files, D9File, index);
  const D9Inflated *r = &ing->done[index];

  if (!g_atomic_int_get (&ing->filled[index]))
    {
      inflate_part (index, ing);
      g_atomic_int_set (&ing->filled[index], 1);
    }
  return r->failed == NULL && !r->redo && r->own == NULL && r->len == f->guess;
}

void
d9_files_fill_free (D9FileFill *fill)
{
  if (fill == NULL)
    return;
  inflated_free (&fill->ing);
  g_bytes_unref (fill->bytes);
  g_free (fill);
}

gboolean
d9_files_fill_finish (D9FileFill  *fill,
                      gboolean     decoded,
                      GError     **error)
{
  D9Inflating *ing = &fill->ing;
  D9FileSet *set = ing->set;
  gboolean ok;

  ing->error = error;
  ing->decoded = decoded;
  ok = inflate_all (ing, fill->total);
  if (ok && !join_inflated (ing, fill->bytes))
    {
      kymo_load_job_set_error (ing->job, error, KYMO_LOAD_ERROR_IO, KYMO_NO_OFFSET,
                               "not enough memory for the files inflated");
      ok = FALSE;
    }
  ing->error = NULL;
  if (ok && set->files->len == 0)
    {
      kymo_load_job_set_error (ing->job, error, KYMO_LOAD_ERROR_CORRUPT, KYMO_NO_OFFSET,
                               "no dial9 file could be inflated");
      ok = FALSE;
    }
  return ok;
}

D9FileSet *
d9_files_open (KymoLoadJob  *job,
               GError      **error)
{
  D9FileSet *set = d9_files_list (job, error);
  D9FileFill *fill;
  gboolean ok;

  if (set == NULL)
    return NULL;
  fill = d9_files_fill_new (set, job, error);
  ok = fill != NULL && d9_files_fill_finish (fill, FALSE, error);
  d9_files_fill_free (fill);
  if (!ok)
    {
      d9_file_set_free (set);
      return NULL;
    }
  return set;
}

gboolean
d9_files_foreach (D9FileSet    *set,
                  KymoLoadJob  *job,
                  D9FileFunc    func,
                  gpointer      user_data,
                  GError      **error)
{
  D9Inflating ing = { 0 };
  gsize total = 0;
  gboolean ok;

  for (guint i = 0; i < set->files->len; i++)
    total += g_array_index (set->files, D9File, i).guess;
  ing.set = set;
  ing.job = job;
  ing.func = func;
  ing.user_data = user_data;
  ing.error = error;
  ok = inflate_all (&ing, total);
  inflated_free (&ing);
  return ok;
}

GBytes *
d9_files_join (D9FileSet *set)
{
  gsize total = 0, at = 0;
  gboolean cut = FALSE;
  const guint8 *from;
  guint8 *out;

  for (guint i = 0; i < set->files->len; i++)
    {
      D9File *f = &g_array_index (set->files, D9File, i);

      total += f->keep;
      cut |= f->keep != f->size;
    }
  if (!cut)
    return g_bytes_ref (set->joined);

  /* Damage cut out: a new stream (the old one may still be referenced by
   * a decode that is being thrown away). */
  from = g_bytes_get_data (set->joined, NULL);
  out = g_malloc (MAX (total, 1));
  for (guint i = 0; i < set->files->len; i++)
    {
      D9File *f = &g_array_index (set->files, D9File, i);

      memcpy (out + at, from + f->start, f->keep);
      f->start = at;
      f->size = f->keep;
      at += f->keep;
    }
  g_bytes_unref (set->joined);
  set->joined = g_bytes_new_take (out, total);
  return g_bytes_ref (set->joined);
}

/* How far a stream decodes, and how many events it holds that far: every
 * frame is walked (no model is built). */
static gsize
clean_length (const guint8  *data,
              gsize          size,
              D9Status      *status,
              const char   **message,
              guint64       *events)
{
  D9Registry reg;
  gsize pos = 0;

  d9_registry_init (&reg);
  *status = D9_OK;
  *message = NULL;
  *events = 0;
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
      *events += tag == D9_TAG_EVENT;
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
      const guint8 *data = (const guint8 *) g_bytes_get_data (set->joined, NULL) + f->start;
      gsize size = f->size;
      D9Status status;
      const char *message;
      gsize keep = clean_length (data, size, &status, &message, &f->events);

      if (status == D9_OK)
        continue;
      g_ptr_array_add (set->warnings,
                       g_strdup_printf ("%s: offset %" G_GSIZE_FORMAT ": %s; what follows in this file is left out",
                                        f->path, keep, status == D9_TRUNCATED ? "the file ends inside a frame" : message));
      f->keep = keep;
      f->cut = TRUE;
    }
}
