/* test-demangle.c: C++ and Rust symbols, and cargo paths, read as people read them
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-test-utils.h"

/* Raw spelling → what `c++filt RAW` prints (binutils 2.40, checked by hand). */
static const struct {
  const char *raw;
  const char *shown;
} names[] = {
  /* C++ with a parameter list, const and templates */
  { "_Z3fooiPKc", "foo(int, char const*)" },
  { "_ZNKSt6vectorIiSaIiEE4sizeEv", "std::vector<int, std::allocator<int> >::size() const" },
  { "_ZNSs4sizeEv", "std::basic_string<char, std::char_traits<char>, std::allocator<char> >::size()" },
  /* Rust legacy: the hash stays, as c++filt prints it */
  { "_ZN5tokio7runtime4task3raw7RawTask4poll17h5ba4e1fa2ad8ffa4E",
    "tokio::runtime::task::raw::RawTask::poll::h5ba4e1fa2ad8ffa4" },
  /* Rust v0 */
  { "_RNvCs15kBYyAo9fc_7mycrate7example", "mycrate[ca63f166dbe9294]::example" },
  { "_RINvNtC3std3mem8align_ofdE", "std[0]::mem::align_of::<f64>" },
  /* not mangled, or not valid mangling: kept as they are */
  { "poll", "poll" },
  { "main", "main" },
  { "_Zbogus", "_Zbogus" },
  { "_R", "_R" },
  { "_Z", "_Z" },
  { "Zoo_Z3fooi", "Zoo_Z3fooi" },
  /* Tokio's poll names are spawn locations: a crate under cargo's registry
   * starts at its folder, a project's own path stays as it is */
  { "/home/u/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/hyper-util-0.1.20/src/rt/tokio.rs:115:9",
    "hyper-util-0.1.20/src/rt/tokio.rs:115:9" },
  { "/rustc/90b35a6239c3d8bdabc530a6a0816f7ff89a0aaf/library/core/src/ops/function.rs:250:5",
    "library/core/src/ops/function.rs:250:5" },
  { "/local/home/u/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/lib/rustlib/src/rust/library/core/src/task/poll.rs:149",
    "library/core/src/task/poll.rs:149" },
  { "/home/u/src/app/main.rs:12:4", "/home/u/src/app/main.rs:12:4" },
  /* not UTF-8: shown with U+FFFD */
  { "bad\xff" "byte", "bad\xef\xbf\xbd" "byte" },
};

static KymoTrace *
make_trace (guint32 *ids)
{
  KymoTrace *trace = kymo_trace_new ();
  guint track = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "main");

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      ids[i] = kymo_trace_intern (trace, names[i].raw);
      kymo_track_add_span (kymo_trace_get_track (trace, track), 100 * i, 100 * i + 10 + i, ids[i], 0, 0, i);
    }
  kymo_trace_seal (trace);
  return trace;
}

static void
test_demangle_names (void)
{
  guint32 ids[G_N_ELEMENTS (names)];
  g_autoptr(KymoTrace) trace = make_trace (ids);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_assert_cmpstr (kymo_trace_get_name (trace, ids[i]), ==, names[i].shown);
      g_assert_cmpstr (kymo_trace_get_raw_name (trace, ids[i]), ==, names[i].raw);
      /* the file's spelling still finds the id */
      g_assert_cmpuint (kymo_trace_lookup_name (trace, names[i].raw), ==, ids[i]);
    }
  g_assert_cmpstr (kymo_trace_get_raw_name (trace, 99999), ==, "");
}

/* Nothing mangled: nothing copied, both spellings are the same string. */
static void
test_demangle_plain_trace (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  guint32 id = kymo_trace_intern (trace, "tokio::poll");

  kymo_trace_seal (trace);
  g_assert_true (kymo_trace_get_name (trace, id) == kymo_trace_get_raw_name (trace, id));
}

/* Statistics (and every other reader) group and print the shown name. */
static void
test_demangle_in_stats (void)
{
  guint32 ids[G_N_ELEMENTS (names)];
  g_autoptr(KymoTrace) trace = make_trace (ids);
  g_autoptr(GArray) rows = kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, NULL);
  gboolean seen = FALSE;

  g_assert_nonnull (rows);
  for (guint i = 0; i < rows->len; i++)
    {
      const KymoNameStats *row = &g_array_index (rows, KymoNameStats, i);

      g_assert_false (g_str_has_prefix (row->name, "_Z3"));
      if (g_str_equal (row->name, "foo(int, char const*)"))
        seen = TRUE;
    }
  g_assert_true (seen);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/demangle/names", test_demangle_names);
  g_test_add_func ("/demangle/plain-trace", test_demangle_plain_trace);
  g_test_add_func ("/demangle/stats", test_demangle_in_stats);
  return g_test_run ();
}
