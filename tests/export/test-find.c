/* test-find.c: finding events by name and argument (KymoSearch, kymo-cli find)
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

#define RAW_POLL "_ZN5tokio7runtime4task3raw7RawTask4poll17h5ba4e1fa2ad8ffa4E"

/* Track "beta" is created first but listed second (sort keys), so "track
 * order" below is display order, not creation order.
 *   alpha  depth 0: [0] Render 100–400   [1] idle 500–900
 *          depth 1: [2] render_pass 100–300   [3] RENDER 600–700
 *   beta   depth 0: [0] render 100–300   [1] a.b*c 1000–1100   [2] RawTask::poll 2000–2100
 *          instants: [0] render! @100   [1] other @650   [2] bad\xff @3000
 *   counter: samples (never matched) */
static KymoTrace *
make_trace (guint *alpha,
            guint *beta)
{
  KymoTrace *trace = kymo_trace_new ();
  KymoTrack *a, *b, *c;

  *beta = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "beta");
  *alpha = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "alpha");
  a = kymo_trace_get_track (trace, *alpha);
  b = kymo_trace_get_track (trace, *beta);
  c = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_COUNTER, "render count"));
  kymo_track_set_sort_key (b, 2);
  kymo_track_set_sort_key (a, 1);
  kymo_track_set_sort_key (c, 3);

  kymo_track_add_span (a, 100, 400, kymo_trace_intern (trace, "Render"), 0, 0, 0);
  kymo_track_add_span (a, 500, 900, kymo_trace_intern (trace, "idle"), 0, 0, 0);
  kymo_track_add_span (a, 100, 300, kymo_trace_intern (trace, "render_pass"), 1, 0, 0);
  kymo_track_add_span (a, 600, 700, kymo_trace_intern (trace, "RENDER"), 1, 0, 0);
  kymo_track_add_span (b, 100, 300, kymo_trace_intern (trace, "render"), 0, 0, 0);
  kymo_track_add_span (b, 1000, 1100, kymo_trace_intern (trace, "a.b*c"), 0, 0, 0);
  kymo_track_add_span (b, 2000, 2100, kymo_trace_intern (trace, RAW_POLL), 0, 0, 0);
  kymo_track_add_instant (b, 100, kymo_trace_intern (trace, "render!"), 0, 0);
  kymo_track_add_instant (b, 650, kymo_trace_intern (trace, "other"), 0, 0);
  kymo_track_add_instant (b, 3000, kymo_trace_intern (trace, "bad\xff"), 0, 0);
  kymo_track_add_sample (c, 100, 1.0);
  kymo_trace_seal (trace);
  return trace;
}

/* The hits as "track:s<index>@depth" / "track:i<index>", comma-separated. */
static char *
describe_hits (KymoTrace        *trace,
               KymoSearchResult *result)
{
  g_autoptr(GString) out = g_string_new (NULL);
  const KymoSearchHit *hits;
  gsize n;

  hits = kymo_search_result_get_hits (result, &n);
  for (gsize i = 0; i < n; i++)
    {
      const char *track = kymo_track_get_name (kymo_trace_get_track (trace, hits[i].track));

      if (i > 0)
        g_string_append_c (out, ',');
      if (hits[i].depth == KYMO_SEARCH_INSTANT)
        g_string_append_printf (out, "%s:i%u", track, hits[i].index);
      else
        g_string_append_printf (out, "%s:s%u@%u", track, hits[i].index, hits[i].depth);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
find (KymoTrace  *trace,
      const char *query,
      KymoTime    from,
      KymoTime    to,
      guint       longest)
{
  g_autoptr(KymoSearch) search = kymo_search_new (trace, query);
  g_autoptr(KymoSearchResult) result = NULL;
  g_autoptr(GError) error = NULL;

  kymo_search_set_window (search, from, to);
  kymo_search_set_longest (search, longest);
  result = kymo_search_run (search, NULL, &error);
  g_assert_no_error (error);
  return describe_hits (trace, result);
}

#define ALL KYMO_TIME_NONE, KYMO_TIME_NONE

static void
test_find_names (void)
{
  guint alpha, beta;
  g_autoptr(KymoTrace) trace = make_trace (&alpha, &beta);
  struct {
    const char *query;
    const char *expected;
  } cases[] = {
    /* case-insensitive; ties at 100: alpha before beta, depth 0 before 1, spans before instants */
    { "render", "alpha:s0@0,alpha:s2@1,beta:s0@0,beta:i0,alpha:s3@1" },
    { "RENDER_", "alpha:s2@1" },
    /* regex and glob characters are literal */
    { ".", "beta:s1@0" },
    { "*", "beta:s1@0" },
    { "b*c", "beta:s1@0" },
    { "a.b", "beta:s1@0" },
    { "[a]", "" },
    /* demangled and mangled spellings */
    { "rawtask::poll", "beta:s2@0" },
    { "7RawTask4poll", "beta:s2@0" },
    /* invalid UTF-8 searches as shown */
    { "bad\xef\xbf\xbd", "beta:i2" },
    { "bad", "beta:i2" },
    /* empty: cleared; counter tracks never match */
    { "", "" },
    { "count", "" },
    { "nothing like it", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *got = find (trace, cases[i].query, ALL, 0);

      g_test_message ("query “%s”", cases[i].query);
      g_assert_cmpstr (got, ==, cases[i].expected);
    }
}

static void
test_find_longest (void)
{
  guint alpha, beta;
  g_autoptr(KymoTrace) trace = make_trace (&alpha, &beta);
  g_autofree char *two = find (trace, "render", ALL, 2);
  g_autofree char *three = find (trace, "render", ALL, 3);
  g_autofree char *many = find (trace, "render", ALL, 100);

  /* 300, then the two 200s starting at 100: alpha (track order) before beta;
   * instants are not spans and never count */
  g_assert_cmpstr (two, ==, "alpha:s0@0,alpha:s2@1");
  g_assert_cmpstr (three, ==, "alpha:s0@0,alpha:s2@1,beta:s0@0");
  g_assert_cmpstr (many, ==, "alpha:s0@0,alpha:s2@1,beta:s0@0,alpha:s3@1");
}

static void
test_find_window (void)
{
  guint alpha, beta;
  g_autoptr(KymoTrace) trace = make_trace (&alpha, &beta);
  g_autofree char *middle = find (trace, "render", 550, 650, 0);
  g_autofree char *edge = find (trace, "render", 300, 300, 0);
  g_autofree char *open_end = find (trace, "r", 2050, KYMO_TIME_NONE, 0);
  g_autofree char *longest = find (trace, "render", 250, 650, 1);

  /* events overlapping the window, both ends inclusive */
  g_assert_cmpstr (middle, ==, "alpha:s3@1");
  g_assert_cmpstr (edge, ==, "alpha:s0@0,alpha:s2@1,beta:s0@0");
  g_assert_cmpstr (open_end, ==, "beta:s2@0");
  g_assert_cmpstr (longest, ==, "alpha:s0@0");
}

static void
test_find_counts (void)
{
  guint alpha, beta;
  g_autoptr(KymoTrace) trace = make_trace (&alpha, &beta);
  g_autoptr(KymoSearch) search = kymo_search_new (trace, "e");
  g_autoptr(KymoSearchResult) result = kymo_search_run (search, NULL, NULL);
  const KymoSearchNameCount *counts;
  gsize n;
  guint64 total = 0;

  counts = kymo_search_result_get_name_counts (result, &n);
  for (gsize i = 0; i < n; i++)
    {
      total += counts[i].count;
      if (i > 0)
        g_assert_cmpuint (counts[i - 1].count, >=, counts[i].count);
    }
  g_assert_cmpuint (total, ==, kymo_search_result_get_n_hits (result));
  /* Render, idle, render_pass, RENDER, render, render!, other, tokio::runtime… */
  g_assert_cmpuint (n, ==, 8);
  g_assert_cmpuint (kymo_search_result_lower_bound (result, 101), ==, 4);
}

static void
on_search_done (GObject      *source,
                GAsyncResult *res,
                gpointer      data)
{
  KymoSearchResult **out = data;
  g_autoptr(GError) error = NULL;

  *out = kymo_search_run_finish (KYMO_SEARCH (source), res, &error);
  g_assert_no_error (error);
}

static void
test_find_async (void)
{
  guint alpha, beta;
  g_autoptr(KymoTrace) trace = make_trace (&alpha, &beta);
  g_autoptr(KymoSearch) search = kymo_search_new (trace, "render");
  g_autoptr(KymoSearchResult) result = NULL;
  g_autoptr(KymoSearch) cancelled = kymo_search_new (trace, "render");
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  KymoEventSet *set;

  kymo_search_run_async (search, NULL, on_search_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  set = kymo_search_result_get_event_set (result);
  g_assert_cmpuint (kymo_event_set_get_n_events (set), ==, 5);
  g_assert_true (kymo_event_set_contains_span (set, alpha, 0));
  g_assert_true (kymo_event_set_contains_span (set, alpha, 2));
  g_assert_true (kymo_event_set_contains_span (set, alpha, 3));
  g_assert_false (kymo_event_set_contains_span (set, alpha, 1));
  g_assert_true (kymo_event_set_contains_span (set, beta, 0));
  g_assert_true (kymo_event_set_contains_instant (set, beta, 0));
  g_assert_false (kymo_event_set_contains_instant (set, beta, 1));

  /* a cancelled search returns an error, never a result */
  g_cancellable_cancel (cancellable);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(KymoSearchResult) none = kymo_search_run (cancelled, cancellable, &error);

    g_assert_null (none);
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  }
}

/* --- on real files of each format: the engine against a brute force ----- */

static gboolean
brute_matches (KymoTrace  *trace,
               const char *needle,
               guint32     name)
{
  return kymo_search_name_matches (needle, kymo_trace_get_name (trace, name)) ||
         kymo_search_name_matches (needle, kymo_trace_get_raw_name (trace, name));
}

static void
check_against_brute_force (KymoTrace  *trace,
                           const char *query)
{
  g_autofree char *needle = kymo_search_fold (query);
  g_autoptr(KymoSearch) search = kymo_search_new (trace, query);
  g_autoptr(KymoSearchResult) result = kymo_search_run (search, NULL, NULL);
  KymoEventSet *set = kymo_search_result_get_event_set (result);
  const KymoSearchHit *hits;
  gsize n_hits, expected = 0;
  KymoTime last = G_MININT64;

  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      const KymoSpan *spans;
      const KymoInstant *instants;
      gsize n;

      spans = kymo_track_get_spans (track, &n);
      for (gsize i = 0; i < n; i++)
        if (brute_matches (trace, needle, kymo_span_name (&spans[i])))
          {
            g_assert_true (kymo_event_set_contains_span (set, t, i));
            expected++;
          }
      instants = kymo_track_get_instants (track, &n);
      for (gsize i = 0; i < n; i++)
        if (brute_matches (trace, needle, instants[i].name_flags & KYMO_NAME_MAX))
          {
            g_assert_true (kymo_event_set_contains_instant (set, t, i));
            expected++;
          }
    }
  hits = kymo_search_result_get_hits (result, &n_hits);
  g_assert_cmpuint (n_hits, ==, expected);
  g_assert_cmpuint (kymo_event_set_get_n_events (set), ==, expected);
  for (gsize i = 0; i < n_hits; i++)
    {
      KymoTime start, end;

      kymo_search_hit_get_times (trace, &hits[i], &start, &end);
      g_assert_cmpint (start, >=, last);
      last = start;
    }
}

static void
test_find_samples (void)
{
  static const char *samples[] = {
    "dial9/head-6342350/demo-trace.bin",
    "wtf/blk-client.wtf-trace",
    "rtc/generated-writer-lib/small.rtc",
    "atf/generated-ada-writer/ada_traces/session_20260101_000000",
    "tonbandgeraet/log",
  };

  for (guint s = 0; s < G_N_ELEMENTS (samples); s++)
    {
      g_autofree char *path = kymo_test_sample_path (samples[s]);
      g_autoptr(KymoTrace) trace = NULL;
      g_autoptr(GError) error = NULL;
      guint n_names;

      if (path == NULL)
        return;
      trace = kymo_test_load_path (path, NULL, &error);
      g_assert_no_error (error);
      n_names = kymo_trace_get_n_names (trace);
      /* a few slices of real names, upper-cased to check folding */
      for (guint id = 1; id < n_names; id += MAX (1, n_names / 7))
        {
          const char *name = kymo_trace_get_name (trace, id);
          gsize len = strlen (name);
          g_autofree char *slice = g_ascii_strup (name + len / 3, MIN (4, len - len / 3));

          if (slice[0] == '\0' || !g_utf8_validate (slice, -1, NULL))
            continue;
          g_test_message ("%s: “%s”", samples[s], slice);
          check_against_brute_force (trace, slice);
        }
    }
}

/* Over a million events: the tracks are scanned side by side, and the
 * result must be the one a single thread gives. */
static void
test_find_large (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint32 names[5];

  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autofree char *name = g_strdup_printf ("call_%u", k);
      names[k] = kymo_trace_intern (trace, name);
    }
  for (guint t = 0; t < 3; t++)
    {
      g_autofree char *name = g_strdup_printf ("thread %u", t);
      KymoTrack *track = kymo_trace_get_track (trace, kymo_trace_add_track (trace, KYMO_NO_TRACK,
                                                                            KYMO_TRACK_THREAD, name));

      for (guint i = 0; i < 200000; i++)
        {
          KymoTime start = (KymoTime) i * 100 + t * 7;

          kymo_track_add_span (track, start, start + 90, names[i % 5], 0, 0, i);
          kymo_track_add_span (track, start + 10, start + 20 + i % 50, names[(i * 3) % 5], 1, 0, i);
          kymo_track_add_instant (track, start + 50, names[(i * 7) % 5], 0, i);
        }
    }
  kymo_trace_seal (trace);
  check_against_brute_force (trace, "CALL_3");
  check_against_brute_force (trace, "call_");
}

/* --- kymo-cli find on a generated WTF file ------------------------------- */

enum { W_ENTER = 4, W_LEAVE, W_CALL, W_MARK };

static GBytes *
build_wtf (void)
{
  WwWriter *w = ww_new (WW_LEGACY_LE, "{\"contextType\":\"script\",\"title\":\"find\"}", "{}", 1367885827385);

  ww_define (w, 1, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
  ww_define (w, 1, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  ww_define (w, 1, W_CALL, 1, 0, "net#fetch", "ascii who, int32 bytes");
  ww_define (w, 1, W_MARK, 0, 0, "net#mark", "ascii label");

  ww_event (w, W_ENTER, 10);
  ww_string (w, WW_ASCII, "_Z3fooiPKc");
  ww_event (w, W_CALL, 20);
  ww_string (w, WW_ASCII, "alice");
  ww_int (w, WW_INT32, 123456);
  ww_event (w, W_LEAVE, 50);
  ww_event (w, W_LEAVE, 90);
  ww_event (w, W_MARK, 95);
  ww_string (w, WW_ASCII, "bob");
  ww_event (w, W_ENTER, 100);
  ww_string (w, WW_ASCII, "_Z3fooiPKc");
  ww_event (w, W_LEAVE, 300);
  return ww_finish (w);
}

static void
test_find_cli (void)
{
  g_autoptr(GBytes) bytes = build_wtf ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  KymoTime start, end;
  int fd;
  struct {
    const char *args[8];
    int         status;
    const char *expected;   /* %S is the trace's start in ns */
  } cases[] = {
    /* demangled and mangled spellings, in start order */
    { { "find", "--json", "FOO(int", NULL }, 0,
      "{\"kind\":\"span\",\"track\":\"%T\",\"name\":\"foo(int, char const*)\",\"start\":%10,\"end\":%90,\"dur\":80000,\"depth\":0}\n"
      "{\"kind\":\"span\",\"track\":\"%T\",\"name\":\"foo(int, char const*)\",\"start\":%100,\"end\":%300,\"dur\":200000,\"depth\":0}\n" },
    { { "find", "--json", "--longest", "1", "_Z3foo", NULL }, 0,
      "{\"kind\":\"span\",\"track\":\"%T\",\"name\":\"foo(int, char const*)\",\"start\":%100,\"end\":%300,\"dur\":200000,\"depth\":0}\n" },
    /* arguments only with --args; integers in decimal */
    { { "find", "--json", "alice", NULL }, 0, "" },
    { { "find", "--json", "--args", "ALICE", NULL }, 0,
      "{\"kind\":\"span\",\"track\":\"%T\",\"name\":\"net#fetch\",\"start\":%20,\"end\":%50,\"dur\":30000,\"depth\":1}\n" },
    { { "find", "--json", "--args", "3456", NULL }, 0,
      "{\"kind\":\"span\",\"track\":\"%T\",\"name\":\"net#fetch\",\"start\":%20,\"end\":%50,\"dur\":30000,\"depth\":1}\n" },
    { { "find", "--json", "--args", "bob", NULL }, 0,
      "{\"kind\":\"instant\",\"track\":\"%T\",\"name\":\"net#mark\",\"start\":%95,\"end\":%95,\"dur\":0}\n" },
    /* the window keeps what overlaps it */
    { { "find", "--json", "--from", "%60", "--to", "%100", "foo", NULL }, 0,
      "{\"kind\":\"span\",\"track\":\"%T\",\"name\":\"foo(int, char const*)\",\"start\":%10,\"end\":%90,\"dur\":80000,\"depth\":0}\n"
      "{\"kind\":\"span\",\"track\":\"%T\",\"name\":\"foo(int, char const*)\",\"start\":%100,\"end\":%300,\"dur\":200000,\"depth\":0}\n" },
    /* the table: right-aligned numbers, a last line "N matches" */
    { { "find", "fetch", NULL }, 0,
      "start  dur  depth  kind  track  name\n"
      "%20  30000      1  span  %T  net#fetch\n"
      "1 matches\n" },
    { { "find", "no such thing", NULL }, 0, "0 matches\n" },
    { { "find", "--longest", "-1", "x", NULL }, 2, "" },
    { { "find", "--from", "9", "--to", "1", "x", NULL }, 2, "" },
  };

  fd = g_file_open_tmp ("kymo-find-XXXXXX.wtf-trace", &path, &error);
  g_assert_no_error (error);
  close (fd);
  g_assert_true (g_file_set_contents (path, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  trace = kymo_test_load_path (path, NULL, &error);
  g_assert_no_error (error);
  kymo_trace_get_time_range (trace, &start, &end);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GString) expected = g_string_new (NULL);
      g_autofree char *out = NULL;
      g_autofree char *track = NULL;
      KymoTime base;
      const char *p;

      /* the one thread track the file makes */
      for (guint t = 0; t < kymo_trace_get_n_tracks (trace) && track == NULL; t++)
        if (kymo_track_get_n_depths (kymo_trace_get_track (trace, t)) > 0)
          track = g_strdup (kymo_track_get_name (kymo_trace_get_track (trace, t)));
      g_assert_nonnull (track);
      {
        /* "%<us>" is the time of the first foo (10 µs into the file) shifted */
        KymoTrack *tr = NULL;
        gsize n;

        for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
          if (g_str_equal (kymo_track_get_name (kymo_trace_get_track (trace, t)), track))
            tr = kymo_trace_get_track (trace, t);
        base = kymo_track_get_spans (tr, &n)[0].start - 10000;
      }
      for (guint a = 0; cases[i].args[a] != NULL; a++)
        {
          const char *arg = cases[i].args[a];

          if (arg[0] == '%')
            g_ptr_array_add (args, g_strdup_printf ("%" G_GINT64_FORMAT, base + 1000 * g_ascii_strtoll (arg + 1, NULL, 10)));
          else
            g_ptr_array_add (args, g_strdup (arg));
        }
      g_ptr_array_add (args, g_strdup (path));
      g_ptr_array_add (args, NULL);

      for (p = cases[i].expected; *p; p++)
        {
          if (*p == '%' && p[1] == 'T')
            {
              g_string_append (expected, track);
              p++;
            }
          else if (*p == '%')
            {
              char *endp;
              gint64 us = g_ascii_strtoll (p + 1, &endp, 10);

              g_string_append_printf (expected, "%" G_GINT64_FORMAT, base + 1000 * us);
              p = endp - 1;
            }
          else
            g_string_append_c (expected, *p);
        }

      g_test_message ("case %u", i);
      g_assert_cmpint (kymo_test_run_cli ((const char * const *) args->pdata, &out, NULL), ==, cases[i].status);
      if (cases[i].status == 0 && i != 7)
        g_assert_cmpstr (out, ==, expected->str);
      else if (i == 7)
        {
          /* the table pads to the widest cell: compare it with the spaces squeezed */
          g_auto(GStrv) lines = g_strsplit (out, "\n", -1);
          g_auto(GStrv) want = g_strsplit (expected->str, "\n", -1);

          g_assert_cmpuint (g_strv_length (lines), ==, g_strv_length (want));
          for (guint l = 0; lines[l] != NULL; l++)
            {
              g_auto(GStrv) got_cells = g_strsplit_set (g_strstrip (lines[l]), " ", -1);
              g_auto(GStrv) want_cells = g_strsplit_set (g_strstrip (want[l]), " ", -1);
              g_autofree char *got_joined = NULL;
              g_autofree char *want_joined = NULL;
              g_autoptr(GPtrArray) g = g_ptr_array_new ();
              g_autoptr(GPtrArray) w = g_ptr_array_new ();

              for (guint c = 0; got_cells[c]; c++)
                if (got_cells[c][0])
                  g_ptr_array_add (g, got_cells[c]);
              for (guint c = 0; want_cells[c]; c++)
                if (want_cells[c][0])
                  g_ptr_array_add (w, want_cells[c]);
              g_ptr_array_add (g, NULL);
              g_ptr_array_add (w, NULL);
              got_joined = g_strjoinv (" ", (char **) g->pdata);
              want_joined = g_strjoinv (" ", (char **) w->pdata);
              g_assert_cmpstr (got_joined, ==, want_joined);
            }
          /* columns line up: every row as wide as the header up to the name */
          g_assert_cmpuint (strstr (lines[0], "name") - lines[0], ==, strstr (lines[1], "net#fetch") - lines[1]);
        }
    }
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/find/names", test_find_names);
  g_test_add_func ("/find/longest", test_find_longest);
  g_test_add_func ("/find/window", test_find_window);
  g_test_add_func ("/find/counts", test_find_counts);
  g_test_add_func ("/find/async", test_find_async);
  g_test_add_func ("/find/samples", test_find_samples);
  g_test_add_func ("/find/large", test_find_large);
  g_test_add_func ("/find/cli", test_find_cli);
  return g_test_run ();
}
