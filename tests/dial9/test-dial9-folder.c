/* test-dial9-folder.c: folders and several files of dial9 segments as one trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "dial9-builder.h"
#include "dial9/kymo-dial9-parts-private.h"

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

/* The threads option of dump_path() (0: as the loader decides). */
static guint threads;

static char *
dump_path (const char *path,
           gboolean   *ok)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoInput) input = kymo_input_new_for_path (path, &error);
  g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);
  KymoLoadOptions options = { .threads = threads };

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


/* A folder that dumps with a file skipped and two damaged: the first
 * damage is the dump's error, the rest reach the caller as warnings, and
 * the library itself writes nothing to standard error. */
static Folder *
warning_folder (GByteArray **s0)
{
  Folder *f = folder_new ();
  g_autoptr(GByteArray) s1 = segment (1);
  g_autoptr(GByteArray) s2 = segment (2);

  *s0 = segment (0);
  put (f, "trace.0", (*s0)->data, (*s0)->len);
  put (f, "trace.1", s1->data, s1->len - 3);
  put (f, "trace.2", s2->data, s2->len - 3);
  put (f, "notes.txt", (const guint8 *) "not a trace", 11);
  return f;
}

static void
test_folder_dump_warnings (void)
{
  g_autoptr(GByteArray) s0 = NULL;
  g_autoptr(Folder) f = warning_folder (&s0);
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoInput) input = kymo_input_new_for_path (f->dir, &error);
  g_autoptr(KymoJsonWriter) writer = kymo_json_writer_new (NULL);
  g_autoptr(GPtrArray) warnings = NULL;
  KymoLoadOptions options = { 0 };
  gboolean skip_named = FALSE, later_named = FALSE;
  g_autofree char *first = NULL;

  g_assert_no_error (error);
  if (g_test_subprocess ())
    {
      /* The parent checks that this prints nothing. */
      kymo_dump_sync_full (input, &options, writer, &warnings, NULL);
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
  g_test_trap_assert_stderr ("");

  g_assert_false (kymo_dump_sync_full (input, &options, writer, &warnings, &error));
  g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_TRUNCATED);
  g_assert_nonnull (strstr (error->message, "trace.1: offset"));
  g_assert_nonnull (warnings);
  for (guint i = 0; i < warnings->len; i++)
    {
      const char *w = g_ptr_array_index (warnings, i);

      skip_named |= strstr (w, "notes.txt: not a dial9 trace, skipped") != NULL;
      later_named |= strstr (w, "trace.2: offset") != NULL;
    }
  g_assert_true (skip_named);
  g_assert_true (later_named);
  /* Everything before the damage is still dumped: trace.0 whole first */
  first = kymo_test_dump_bytes (s0->data, s0->len, "dial9", &skip_named, NULL);
  g_assert_true (g_str_has_prefix (kymo_json_writer_get_string (writer), first));
}

/* kymo-cli says the warnings on standard error, keeps the dump on
 * standard output and exits 1 for the damage (CLI.md); a folder without
 * a dial9 file exits 2 naming it. */
static void
test_folder_cli (void)
{
  g_autoptr(GByteArray) s0 = NULL;
  g_autoptr(Folder) f = warning_folder (&s0);
  g_autoptr(Folder) clean = folder_new ();
  g_autoptr(Folder) none = folder_new ();
  g_autofree char *out = NULL, *err = NULL, *want = NULL;
  g_autofree char *skipped = g_strdup_printf ("kymo-cli: %s/notes.txt: not a dial9 trace, skipped\n", f->dir);
  gboolean ok;

  {
    const char *args[] = { "dump", f->dir, NULL };

    g_assert_cmpint (kymo_test_run_cli (args, &out, &err), ==, 1);
    g_assert_nonnull (strstr (err, skipped));
    g_assert_nonnull (strstr (err, "trace.2: offset"));
    g_assert_nonnull (strstr (err, "trace.1: offset"));
    want = kymo_test_dump_bytes (s0->data, s0->len, "dial9", &ok, NULL);
    g_assert_true (g_str_has_prefix (out, want));
  }

  /* Only a file skipped: the dump is whole, exit 0, the warning said */
  put (clean, "trace.0", s0->data, s0->len);
  put (clean, "README", (const guint8 *) "rotated traces", 14);
  {
    const char *args[] = { "dump", clean->dir, NULL };
    g_autofree char *clean_out = NULL, *clean_err = NULL;
    g_autofree char *readme = g_strdup_printf ("kymo-cli: %s/README: not a dial9 trace, skipped\n", clean->dir);

    g_assert_cmpint (kymo_test_run_cli (args, &clean_out, &clean_err), ==, 0);
    g_assert_cmpstr (clean_out, ==, want);
    g_assert_cmpstr (clean_err, ==, readme);
  }
  /* …and so does every command that answers from the loaded folder */
  for (guint i = 0; i < 3; i++)
    {
      const char *commands[][3] = { { "tasks", "--json", NULL }, { "stats", NULL, NULL }, { "flamegraph", NULL, NULL } };
      const char *args[] = { commands[i][0], clean->dir, commands[i][1], NULL };
      g_autofree char *cmd_out = NULL, *cmd_err = NULL;
      g_autofree char *readme = g_strdup_printf ("kymo-cli: %s/README: not a dial9 trace, skipped\n", clean->dir);

      g_assert_cmpint (kymo_test_run_cli (args, &cmd_out, &cmd_err), ==, 0);
      g_assert_cmpstr (cmd_err, ==, readme);
    }

  put (none, "notes.txt", (const guint8 *) "not a trace", 11);
  for (guint forced = 0; forced < 2; forced++)
    {
      const char *args[] = { forced ? "dump" : "info", forced ? "--format=dial9" : none->dir,
                             forced ? none->dir : NULL, NULL };
      g_autofree char *none_out = NULL, *none_err = NULL;

      g_assert_cmpint (kymo_test_run_cli (args, &none_out, &none_err), ==, 2);
      g_assert_nonnull (strstr (none_err, none->dir));
    }
}

/* A file that cannot be read is a warning naming it; the others load. */
static void
test_folder_unreadable (void)
{
  g_autoptr(Folder) f = folder_new ();
  g_autoptr(GByteArray) s0 = segment (0);
  g_autoptr(GByteArray) s1 = segment (1);
  g_autofree char *locked = g_build_filename (f->dir, "trace.1", NULL);
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoDial9Tasks) tasks = NULL;
  const KymoWarning *warnings;
  gboolean named = FALSE;
  gsize n;

  put (f, "trace.0", s0->data, s0->len);
  put (f, "trace.1", s1->data, s1->len);
  g_chmod (locked, 0);
  if (access (locked, R_OK) == 0)
    {
      /* Permissions do not stop root: a link to nothing cannot be read by
       * anyone. */
      g_assert_cmpint (g_unlink (locked), ==, 0);
      g_assert_cmpint (symlink ("trace.1.gone", locked), ==, 0);
    }
  trace = kymo_test_load_path (f->dir, NULL, &error);
  g_assert_no_error (error);
  tasks = kymo_dial9_tasks_new (trace, NULL);
  kymo_dial9_tasks_get_rows (tasks, &n);
  g_assert_cmpuint (n, ==, 3);
  warnings = kymo_trace_get_warnings (trace, &n);
  for (gsize i = 0; i < n; i++)
    named |= strstr (warnings[i].message, "trace.1: cannot be read") != NULL;
  g_assert_true (named);
}

/* Loads folder @f at 1, 2 and 7 threads: dump and model the same at
 * each. @damaged: a warning names it (its dump then stops there); with
 * @parts >= 0, that many files after the first were decoded as parts of
 * their own at more than one thread, and none again. */
static void
check_threads_same (Folder     *f,
                    const char *damaged,
                    gint        parts)
{
  g_autofree char *dump1 = NULL, *print1 = NULL;

  for (threads = 1; threads <= 7; threads += threads == 1 ? 1 : 5)
    {
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *dump = NULL, *print = NULL;
      guint merged, redecoded;
      gboolean ok;

      kymo_test_set_threads (threads);
      dump = dump_path (f->dir, &ok);
      g_assert_true (ok == (damaged == NULL));
      d9_parts_reset_for_testing ();
      trace = kymo_test_load_path (f->dir, NULL, &error);
      d9_parts_get_for_testing (&merged, &redecoded);
      g_assert_no_error (error);
      if (damaged != NULL)
        {
          const KymoWarning *warnings;
          gboolean named = FALSE;
          gsize n;

          warnings = kymo_trace_get_warnings (trace, &n);
          for (gsize k = 0; k < n; k++)
            named |= strstr (warnings[k].message, damaged) != NULL;
          g_assert_true (named);
        }
      print = kymo_test_fingerprint (trace, NULL);
      if (threads == 1)
        {
          dump1 = g_steal_pointer (&dump);
          print1 = g_steal_pointer (&print);
          continue;
        }
      if (parts >= 0)
        {
          g_assert_cmpuint (merged, ==, (guint) parts);
          g_assert_cmpuint (redecoded, ==, 0);
        }
      g_assert_cmpstr (dump, ==, dump1);
      g_assert_cmpstr (print, ==, print1);
    }
  kymo_test_set_threads (0);
  threads = 0;
}

/* The same folder, big enough for parts on several threads and with a
 * gzip file zlib must take (two members): dump and model identical at
 * 1, 2 and 7 threads. */
static void
test_folder_threads (void)
{
  g_autoptr(Folder) f = folder_new ();

  for (guint i = 0; i < 24; i++)
    {
      g_autoptr(GByteArray) seg = segment (i);
      g_autofree char *name = g_strdup_printf ("trace.%u%s", i, i % 3 == 0 ? ".gz" : "");

      /* Enough records that the folder passes the parallel threshold */
      for (guint k = 0; k < 4000; k++)
        {
          d9b_event (seg, (guint16) (i % 2), 100); d9b_varint (seg, i % 2); d9b_u8 (seg, 0);
          d9b_varint (seg, i * 10 + k % 3); d9b_u32 (seg, 3);
          d9b_event (seg, (guint16) (1 - i % 2), 50); d9b_varint (seg, i % 2);
        }
      if (i % 3 == 0)
        {
          g_autoptr(GByteArray) gz = gzip_bytes (seg->data, seg->len / 2);
          g_autoptr(GByteArray) gz2 = gzip_bytes (seg->data + seg->len / 2, seg->len - seg->len / 2);

          /* i == 9: two members, which libdeflate leaves to zlib */
          if (i == 9)
            g_byte_array_append (gz, gz2->data, gz2->len);
          else
            {
              g_byte_array_unref (gz);
              gz = gzip_bytes (seg->data, seg->len);
            }
          put (f, name, gz->data, gz->len);
        }
      else
        put (f, name, seg->data, seg->len);
    }
  check_threads_same (f, NULL, -1);
}

/* Files that inflate whole and decode cleanly are parts of their own:
 * each is decoded while later ones inflate, and none is decoded again on
 * the loading thread. Dump and model are those of one thread, in time
 * order or not (@v 1: every other file goes back in time), and with a
 * damaged file in the middle (@v 2), which is left to the files joined. */
static void
test_folder_parts (void)
{
  const char *meta[] = { "entries:10", NULL };

  for (guint v = 0; v < 3; v++)
    {
      g_autoptr(Folder) f = folder_new ();
      guint32 rng = 11;

      for (guint i = 0; i < 12; i++)
        {
          g_autoptr(GByteArray) seg = segment (i);
          g_autofree char *name = g_strdup_printf ("trace.%u%s", i, i % 2 == 0 ? ".gz" : "");
          g_autofree char *n = g_strdup_printf ("%u", i);
          gsize damage = 0;

          d9b_schema (seg, 7, "SegmentMetadataEvent", TRUE, meta);
          d9b_event (seg, 7, 0);
          d9b_u32 (seg, 1);
          d9b_str32 (seg, "file"); d9b_str32 (seg, n);
          if (v == 1 && i % 2 == 1)
            d9b_reset (seg, 1000000 * (guint64) i - 500000);
          /* Varied enough that gzip's trailer is trusted for the size. */
          for (guint k = 0; k < 2000; k++)
            {
              if (v == 2 && i == 6 && k == 1000)
                damage = seg->len;
              rng = rng * 1103515245 + 12345;
              d9b_event (seg, (guint16) (i % 2), 100 + (rng >> 16) % 50); d9b_varint (seg, i % 2);
              d9b_u8 (seg, (rng >> 8) & 0xFF);
              d9b_varint (seg, i * 10 + (rng >> 20) % 9); d9b_u32 (seg, 3);
              d9b_event (seg, (guint16) (1 - i % 2), 50 + (rng >> 24) % 40); d9b_varint (seg, i % 2);
            }
          /* An unknown frame tag halfway through the file. */
          if (damage > 0)
            seg->data[damage] = 0x77;
          if (i % 2 == 0)
            {
              g_autoptr(GByteArray) gz = gzip_bytes (seg->data, seg->len);

              put (f, name, gz->data, gz->len);
            }
          else
            put (f, name, seg->data, seg->len);
        }
      check_threads_same (f, v == 2 ? "trace.6.gz: offset " : NULL, v < 2 ? 11 : -1);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/dial9-folder/order", test_folder_order);
  g_test_add_func ("/dial9-folder/damage", test_folder_damage);
  g_test_add_func ("/dial9-folder/dump-warnings", test_folder_dump_warnings);
  g_test_add_func ("/dial9-folder/cli", test_folder_cli);
  g_test_add_func ("/dial9-folder/unreadable", test_folder_unreadable);
  g_test_add_func ("/dial9-folder/threads", test_folder_threads);
  g_test_add_func ("/dial9-folder/parts", test_folder_parts);
  return g_test_run ();
}
