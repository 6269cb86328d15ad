/* test-dial9-folder.c: folders and several files of dial9 segments as one trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "dial9-builder.h"

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

/* One rotated segment: its own schemas (type ids reused with other
 * meanings), a pool, and polls on worker @n % 2. */
static GByteArray *
segment (guint n)
{
  GByteArray *b = g_byte_array_new ();
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  g_autofree char *loc = g_strdup_printf ("src/file%u.rs:%u:1", n, n + 1);

  d9b_header (b);
  d9b_schema (b, (guint16) (n % 2), "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, (guint16) (1 - n % 2), "PollEndEvent", TRUE, poll_end);
  d9b_pool (b, 3, loc);
  d9b_reset (b, 1000000 * (guint64) (n + 1));
  for (guint i = 0; i < 3; i++)
    {
      d9b_event (b, (guint16) (n % 2), 100); d9b_varint (b, n % 2); d9b_u8 (b, 0); d9b_varint (b, n * 10 + i); d9b_u32 (b, 3);
      d9b_event (b, (guint16) (1 - n % 2), 50); d9b_varint (b, n % 2);
    }
  return b;
}

typedef struct {
  char *dir;
} Folder;

static void
folder_free (Folder *f)
{
  g_autoptr(GDir) dir = g_dir_open (f->dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (f->dir, name, NULL);
      g_chmod (path, 0644);
      g_unlink (path);
    }
  g_rmdir (f->dir);
  g_free (f->dir);
  g_free (f);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Folder, folder_free)

static void
put (Folder       *f,
     const char   *name,
     const guint8 *data,
     gsize         len)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, (const char *) data, len, &error);
  g_assert_no_error (error);
}

static Folder *
folder_new (void)
{
  Folder *f = g_new0 (Folder, 1);
  g_autoptr(GError) error = NULL;

  f->dir = g_dir_make_tmp ("kymo-dial9-folder-XXXXXX", &error);
  g_assert_no_error (error);
  return f;
}

static char *
dump_path (const char *path,
           gboolean   *ok)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);
  g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);
  KymoLoadOptions options = { 0 };

  g_assert_no_error (error);
  *ok = kymo_dump_sync (input, &options, writer, NULL);
  return g_strdup (kymo_json_writer_get_string (writer));
}

/* trace.0 … trace.10, gzip and plain mixed, written out of order: the
 * folder dumps as the files' dumps one after the other, in natural order,
 * and loads as one trace. */
static void
test_folder_order (void)
{
  g_autoptr(Folder) f = folder_new ();
  static const guint order[] = { 10, 2, 0, 1 };
  static const guint natural[] = { 0, 1, 2, 10 };
  g_autoptr(GString) want = g_string_new (NULL);
  g_autofree char *got = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_autoptr(GByteArray) seg = segment (order[i]);
      g_autofree char *name = g_strdup_printf ("trace.%u", order[i]);

      if (order[i] % 2 == 0)
        {
          g_autoptr(GByteArray) gz = gzip_bytes (seg->data, seg->len);
          put (f, name, gz->data, gz->len);
        }
      else
        put (f, name, seg->data, seg->len);
    }
  for (guint i = 0; i < G_N_ELEMENTS (natural); i++)
    {
      g_autoptr(GByteArray) seg = segment (natural[i]);
      g_autofree char *one = kymo_test_dump_bytes (seg->data, seg->len, "dial9", &ok, NULL);

      g_assert_true (ok);
      g_string_append (want, one);
    }
  got = dump_path (f->dir, &ok);
  g_assert_true (ok);
  g_assert_cmpstr (got, ==, want->str);

  trace = kymo_test_load_path (f->dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (kymo_trace_get_format (trace)->name, ==, "dial9");
  {
    g_autoptr(KymoDial9Tasks) tasks = kymo_dial9_tasks_new (trace, NULL);
    gsize n;

    /* Three tasks per file: every file's polls are in */
    kymo_dial9_tasks_get_rows (tasks, &n);
    g_assert_cmpuint (n, ==, 12);
  }
}

/* A file cut short between others: what it holds before the damage is
 * kept, the files after it load, a warning names it and the offset; a file
 * that is not dial9 and one that cannot be read are warnings too. */
static void
test_folder_damage (void)
{
  g_autoptr(Folder) f = folder_new ();
  g_autoptr(GByteArray) s0 = segment (0);
  g_autoptr(GByteArray) s1 = segment (1);
  g_autoptr(GByteArray) s2 = segment (2);
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  const KymoWarning *warnings;
  gsize n, cut = s1->len - 3, clean_end;
  gboolean damage_named = FALSE, skip_named = FALSE;

  put (f, "trace.0", s0->data, s0->len);
  /* The last PollEndEvent of trace.1 loses its end */
  put (f, "trace.1", s1->data, cut);
  put (f, "trace.2", s2->data, s2->len);
  put (f, "notes.txt", (const guint8 *) "not a trace", 11);
  trace = kymo_test_load_path (f->dir, NULL, &error);
  g_assert_no_error (error);
  g_assert_null (kymo_trace_get_stop_error (trace));

  tasks = kymo_dial9_tasks_new (trace, NULL);
  kymo_dial9_tasks_get_rows (tasks, &n);
  g_assert_cmpuint (n, ==, 9);
  /* The frame that was cut starts 1 + 2 + 3 + 1 bytes before the end */
  clean_end = s1->len - 7;
  warnings = kymo_trace_get_warnings (trace, &n);
  for (gsize i = 0; i < n; i++)
    {
      g_autofree char *want = g_strdup_printf ("trace.1: offset %" G_GSIZE_FORMAT ":", clean_end);

      if (strstr (warnings[i].message, want) != NULL)
        damage_named = TRUE;
      if (strstr (warnings[i].message, "notes.txt: not a dial9 trace") != NULL)
        skip_named = TRUE;
    }
  g_assert_true (damage_named);
  g_assert_true (skip_named);

  /* A folder with nothing of dial9 in it: an error naming it */
  {
    g_autoptr(Folder) empty = folder_new ();
    g_autoptr(KymoTrace) none = NULL;
    g_autoptr(GError) none_error = NULL;
    KymoLoadOptions options = { .format = "dial9" };
    g_autoptr(KymoInput) input = NULL;

    put (empty, "notes.txt", (const guint8 *) "not a trace", 11);
    input = kymo_input_new_for_path (empty->dir, &none_error);
    g_assert_no_error (none_error);
    none = kymo_load_sync (input, &options, NULL, NULL, NULL, &none_error);
    g_assert_null (none);
    g_assert_nonnull (none_error);
    g_assert_nonnull (strstr (none_error->message, empty->dir));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dial9-folder/order", test_folder_order);
  g_test_add_func ("/dial9-folder/damage", test_folder_damage);
  return g_test_run ();
}
