/* test-cli-flamegraph.c: `kymo-cli flamegraph` as users run it
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "../wtf/wtf-writer.h"

enum { W_ENTER = 2, W_LEAVE };

static void
enter (WwWriter   *w,
       guint32     time,
       const char *name)
{
  ww_event (w, W_ENTER, time);
  ww_string (w, WW_ASCII, name);
}

/* main [0,100 µs] holds parse [10,40] and draw [50,90] holding text
 * [60,70]; a second main [200,260] holds parse [200,230]. Names with a
 * space and a non-ASCII letter go through as they are. */
static char *
write_trace (void)
{
  WwWriter *w = ww_new (WW_LEGACY_LE, "{}", NULL, 0);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd;

  ww_define (w, 1, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
  ww_define (w, 1, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  enter (w, 1000, "main");
  enter (w, 1010, "parse");
  ww_event (w, W_LEAVE, 1040);
  enter (w, 1050, "draw text");
  enter (w, 1060, "glyph é");
  ww_event (w, W_LEAVE, 1070);
  ww_event (w, W_LEAVE, 1090);
  ww_event (w, W_LEAVE, 1100);
  enter (w, 1200, "main");
  enter (w, 1200, "parse");
  ww_event (w, W_LEAVE, 1230);
  ww_event (w, W_LEAVE, 1260);
  bytes = ww_finish (w);

  fd = g_file_open_tmp ("kymo-flame-XXXXXX.wtf-trace", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  return path;
}

/* The first frame: the track name as `info --json` prints it. */
static char *
track_name (const char *path)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *args[] = { "info", "--json", path, NULL };
  const char *p, *end;

  g_assert_cmpint (kymo_test_run_cli (args, &out, &err), ==, 0);
  /* the track holding spans: the first with a span count above 0 */
  for (p = strstr (out, "\"spans\":"); p != NULL && g_ascii_strtoll (p + 8, NULL, 10) == 0;
       p = strstr (p + 1, "\"spans\":"))
    ;
  g_assert_nonnull (p);
  /* its name is the last "name" before its span count */
  while (p > out && strncmp (p, "\"name\":\"", 8) != 0)
    p--;
  p += 8;
  end = strchr (p, '"');
  return g_strndup (p, end - p);
}

static void
test_folded (void)
{
  g_autofree char *path = write_trace ();
  g_autofree char *t = track_name (path);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  const char *args[] = { "flamegraph", path, NULL };

  g_assert_cmpint (kymo_test_run_cli (args, &out, &err), ==, 0);
  /* byte order: "main;draw text" < "main;parse"; self = duration − children */
  expected = g_strdup_printf ("%s;main 60000\n"
                              "%s;main;draw text 30000\n"
                              "%s;main;draw text;glyph é 10000\n"
                              "%s;main;parse 60000\n", t, t, t, t);
  g_assert_cmpstr (out, ==, expected);
  g_remove (path);
}

static void
test_window_and_svg (void)
{
  g_autofree char *path = write_trace ();
  g_autofree char *t = track_name (path);
  g_autofree char *svg = g_build_filename (g_get_tmp_dir (), "kymo-cli-flame-test.svg", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *svg_text = NULL;
  g_autofree char *info_out = NULL;
  g_autofree char *info_err = NULL;
  const char *info[] = { "info", "--json", path, NULL };
  gint64 start;
  const char *p;

  /* --from/--to are absolute trace ns: find where the trace starts */
  g_assert_cmpint (kymo_test_run_cli (info, &info_out, &info_err), ==, 0);
  p = strstr (info_out, "\"start_ns\":");
  g_assert_nonnull (p);
  start = g_ascii_strtoll (p + 11, NULL, 10);
  {
    /* spans starting in [start + 150 µs, start + 300 µs]: the second main */
    g_autofree char *from = g_strdup_printf ("%" G_GINT64_FORMAT, start + 150000);
    g_autofree char *to = g_strdup_printf ("%" G_GINT64_FORMAT, start + 300000);
    const char *args[] = { "flamegraph", "--from", from, "--to", to, path, NULL };

    g_assert_cmpint (kymo_test_run_cli (args, &out, &err), ==, 0);
  }
  expected = g_strdup_printf ("%s;main 30000\n%s;main;parse 30000\n", t, t);
  g_assert_cmpstr (out, ==, expected);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  {
    const char *args[] = { "flamegraph", "--svg", svg, path, NULL };
    int status = kymo_test_run_cli (args, &out, &err);

    /* a build without GTK (-Dui=false) says so instead of drawing */
    if (status == 2 && strstr (err, "no renderer") != NULL)
      {
        g_test_message ("no renderer in this build: --svg not checked");
        g_remove (path);
        return;
      }
    g_assert_cmpint (status, ==, 0);
  }
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_nonnull (strstr (svg_text, "<svg"));
  g_remove (svg);
  g_remove (path);
}

static void
test_samples_and_errors (void)
{
  g_autofree char *path = write_trace ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *samples[] = { "flamegraph", "--samples", path, NULL };
  const char *backwards[] = { "flamegraph", "--from", "10", "--to", "5", path, NULL };
  const char *missing[] = { "flamegraph", "/nonexistent/kymo-trace", NULL };

  /* no sampled stacks in a WTF trace: nothing to print, not an error */
  g_assert_cmpint (kymo_test_run_cli (samples, &out, &err), ==, 0);
  g_assert_cmpstr (out, ==, "");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (kymo_test_run_cli (backwards, &out, &err), ==, 2);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (kymo_test_run_cli (missing, &out, &err), ==, 2);
  g_remove (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/flamegraph/folded", test_folded);
  g_test_add_func ("/cli/flamegraph/window-and-svg", test_window_and_svg);
  g_test_add_func ("/cli/flamegraph/samples-and-errors", test_samples_and_errors);

  return g_test_run ();
}
