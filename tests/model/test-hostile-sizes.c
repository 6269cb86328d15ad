/* test-hostile-sizes.c: a valid start, then a gigabyte of zeros
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A preallocated file, a crashed writer or a hostile input: each format
 * must refuse the zeros (or, where they are legal padding, pass them) with
 * a bounded allocation. The file is sparse, so it costs no disk; each load
 * runs in a child process whose data segment is limited far below the
 * file's size, so that anything allocated in proportion to it fails.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/resource.h>
#include <glib/gstdio.h>
#include <zlib.h>

#include "kymo-test-utils.h"
#include "rtc/kymo-rtc-test-writer.h"

#define ZEROS ((goffset) 1 << 30)
/* Far below the file: thread stacks and the decoders' fixed tables fit. */
#define DATA_LIMIT ((rlim_t) 192 << 20)

typedef enum {
  EXPECT_REFUSED,  /* an error, or the events before the damage and a stop error */
  EXPECT_CLEAN,    /* the zeros are legal: loaded without a stop error */
} Expect;

typedef struct {
  const char *name;
  const char *format;      /* NULL: detect */
  const char *sample;      /* a sample's prefix, or NULL for @build */
  gsize       prefix;
  GBytes   *(*build) (void);
  const char *session_file; /* an ATF session: the file the zeros follow */
  Expect      expect;
} Case;

static GBytes *
build_dial9_header (void)
{
  return g_bytes_new_static ("TRC\0\x01", 5);
}

/* A gzip stream cut short: what it inflates the zeros after it to is
 * garbage, and possibly a great deal of it. */
static GBytes *
build_dial9_gzip (void)
{
  g_autoptr(GByteArray) plain = g_byte_array_new ();
  g_autofree guint8 *out = NULL;
  z_stream z = { 0 };
  gsize cap = 1 << 20;

  g_byte_array_append (plain, (const guint8 *) "TRC\0\x01", 5);
  for (guint i = 0; i < 20000; i++)
    {
      guint8 frame[9] = { 0x05, (guint8) i, (guint8) (i >> 8), 0, 0, 0, 0, 0, 0 };
      g_byte_array_append (plain, frame, sizeof frame);
    }
  out = g_malloc (cap);
  g_assert_cmpint (deflateInit2 (&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), ==, Z_OK);
  z.next_in = plain->data;
  z.avail_in = plain->len;
  z.next_out = out;
  z.avail_out = cap;
  g_assert_cmpint (deflate (&z, Z_FINISH), ==, Z_STREAM_END);
  deflateEnd (&z);
  /* Keep half of the stream: mid-block. */
  return g_bytes_new (out, z.total_out / 2);
}

static GBytes *
build_rtc (void)
{
  RtcWriter w;
  guint n;

  rtcw_init (&w, 65536, 4096, FALSE);
  n = rtcw_stream (&w, "\"name\":\"n\",\"format\":\"uint8\"", 1);
  rtcw_start (&w);
  for (guint i = 0; i < 1000; i++)
    {
      guint8 v = (guint8) i;
      rtcw_write (&w, n, &v, 1, FALSE);
    }
  return rtcw_free_to_bytes (&w);
}

/* More than the MiB after which RTC used to reserve its sample arrays for
 * the whole file at the rate read so far: zeros after it are padding, and
 * must cost no more than what was decoded. */
static GBytes *
build_rtc_long (void)
{
  RtcWriter w;
  guint clk, n;

  rtcw_init (&w, 65536, 4096, FALSE);
  clk = rtcw_stream (&w, "\"name\":\"clk\",\"clock\":true,\"format\":\"uint32le\",\"gain\":1e-6", 4);
  n = rtcw_stream (&w, "\"name\":\"n\",\"clock\":\"clk\",\"format\":\"uint8\"", 1);
  rtcw_start (&w);
  for (guint32 i = 0; rtcw_pos (&w) < (2u << 20); i++)
    {
      guint32 t = GUINT32_TO_LE (i);
      guint8 v = (guint8) i;

      rtcw_write (&w, clk, &t, 4, FALSE);
      for (guint j = 0; j < 8; j++)
        rtcw_write (&w, n, &v, 1, FALSE);
    }
  rtcw_stop (&w);
  return rtcw_free_to_bytes (&w);
}

static const Case cases[] = {
  { "dial9-header", "dial9", NULL, 0, build_dial9_header, NULL, EXPECT_REFUSED },
  { "dial9-gzip", "dial9", NULL, 0, build_dial9_gzip, NULL, EXPECT_REFUSED },
  { "dial9-sample", NULL, "dial9/2026-04-15-65026ee/demo-trace.bin", 4096, NULL, NULL, EXPECT_REFUSED },
  { "dial9-gzip-sample", NULL, "dial9/head-6342350/demo-trace.bin", 4096, NULL, NULL, EXPECT_REFUSED },
  { "rtc", "rtc", NULL, 0, build_rtc, NULL, EXPECT_CLEAN },
  { "rtc-long", "rtc", NULL, 0, build_rtc_long, NULL, EXPECT_CLEAN },
  { "rtc-sample", NULL, "rtc/generated-writer-lib/default.rtc", 4096, NULL, NULL, EXPECT_CLEAN },
  { "tband-sample", "tband", "tonbandgeraet/log.derived.bin", 512, NULL, NULL, EXPECT_CLEAN },
  { "wtf-sample", NULL, "wtf/blk-client.wtf-trace", 4096, NULL, NULL, EXPECT_REFUSED },
  { "wtf-chunked-sample", NULL, "wtf/generated-cpp-bindings/tmp_threaded_torture_test_streamed.wtf-trace",
    4096, NULL, NULL, EXPECT_REFUSED },
  { "atf-index", "atf", "atf/generated-ada-writer/ada_traces/session_20260101_000000", 0, NULL,
    "pid_4242/thread_0/index.atf", EXPECT_CLEAN },
  { "atf-detail", "atf", "atf/generated-ada-writer/ada_traces/session_20260101_000000", 0, NULL,
    "pid_4242/thread_0/detail.atf", EXPECT_REFUSED },
};

static char *
scratch_dir (pid_t owner)
{
  g_autofree char *name = g_strdup_printf ("kymo-hostile-%d", (int) owner);

  return g_build_filename (g_get_tmp_dir (), name, NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
    }
  g_remove (path);
}

/* Copies the session folder @from into @to, file by file. */
static void
copy_tree (const char *from,
           const char *to)
{
  g_autoptr(GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *src = g_build_filename (from, name, NULL);
      g_autofree char *dst = g_build_filename (to, name, NULL);

      if (g_file_test (src, G_FILE_TEST_IS_DIR))
        copy_tree (src, dst);
      else
        {
          g_autofree char *contents = NULL;
          gsize len;

          g_assert_true (g_file_get_contents (src, &contents, &len, NULL));
          g_assert_true (g_file_set_contents (dst, contents, len, NULL));
        }
    }
}

static void
append_zeros (const char *path)
{
  int fd = g_open (path, O_WRONLY, 0);
  struct stat st;

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (fstat (fd, &st), ==, 0);
  g_assert_cmpint (ftruncate (fd, st.st_size + ZEROS), ==, 0);
  close (fd);
}

/* The file (or session folder) to load, made in @dir. */
static char *
make_input (const Case *c,
            const char *samples,
            const char *dir)
{
  g_autofree char *path = g_build_filename (dir, c->name, NULL);

  if (c->session_file != NULL)
    {
      g_autofree char *session = g_build_filename (samples, c->sample, NULL);
      g_autofree char *target = g_build_filename (path, c->session_file, NULL);

      copy_tree (session, path);
      append_zeros (target);
    }
  else
    {
      g_autoptr(GBytes) bytes = NULL;
      gsize len;
      const guint8 *data;

      if (c->sample != NULL)
        {
          g_autofree char *sample = g_build_filename (samples, c->sample, NULL);
          g_autofree char *contents = NULL;

          g_assert_true (g_file_get_contents (sample, &contents, &len, NULL));
          bytes = g_bytes_new (contents, MIN (len, c->prefix));
        }
      else
        bytes = c->build ();
      data = g_bytes_get_data (bytes, &len);
      g_assert_true (g_file_set_contents (path, (const char *) data, len, NULL));
      append_zeros (path);
    }
  return g_steal_pointer (&path);
}

/* In the child: limited, loads, and says what it found by its exit. */
static void
load_limited (const Case *c)
{
  g_autofree char *dir = scratch_dir (getppid ());
  g_autofree char *path = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const char *samples = g_getenv ("KYMO_SAMPLES_DIR");

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  path = make_input (c, samples, dir);

#ifndef __SANITIZE_ADDRESS__
  {
    /* Address sanitizer maps its shadow as data: no limit under it. */
    struct rlimit limit = { DATA_LIMIT, DATA_LIMIT };

    g_assert_cmpint (setrlimit (RLIMIT_DATA, &limit), ==, 0);
  }
#endif

  trace = kymo_test_load_path (path, c->format, &error);
  if (c->expect == EXPECT_REFUSED)
    {
      struct rusage usage;

      if (trace == NULL)
        g_assert_error (error, KYMO_LOAD_ERROR, error->code);
      else
        g_assert_nonnull (kymo_trace_get_stop_error (trace));
      /* Nor read past the damage: the mapped zeros would count here. */
      g_assert_cmpint (getrusage (RUSAGE_SELF, &usage), ==, 0);
      g_assert_cmpint (usage.ru_maxrss, <, (long) (DATA_LIMIT >> 10));
    }
  else
    {
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      g_assert_null (kymo_trace_get_stop_error (trace));
    }
}

static void
test_hostile (gconstpointer data)
{
  const Case *c = data;
  g_autofree char *dir = NULL;

  if (c->sample != NULL)
    {
      g_autofree char *sample = kymo_test_sample_path (c->sample);

      if (sample == NULL)
        return;
    }
  if (g_test_subprocess ())
    {
      load_limited (c);
      return;
    }

  dir = scratch_dir (getpid ());
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  remove_tree (dir);
  g_test_trap_assert_passed ();
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/hostile-sizes/%s", cases[i].name);
      g_test_add_data_func (name, &cases[i], test_hostile);
    }
  return g_test_run ();
}
