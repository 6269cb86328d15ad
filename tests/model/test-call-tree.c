/* test-call-tree.c: folding spans and sampled stacks into a call tree
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-analysis.h"
#include "kymo-stacks.h"

static void
add_span (KymoTrace  *trace,
          guint       track,
          KymoTime    start,
          KymoTime    end,
          const char *name,
          guint       depth)
{
  kymo_track_add_span (kymo_trace_get_track (trace, track), start, end,
                       kymo_trace_intern (trace, name), depth, 0, 0);
}

/* T: A [0,100] holds B [0,30] (on its start, holding D) and C [70,100] (on
 * its end); E [100,150] starts where A ends and holds F; A [200,300] holds B. */
static KymoTrace *
nested_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  guint t = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "T");

  add_span (trace, t, 0, 100, "A", 0);
  add_span (trace, t, 100, 150, "E", 0);
  add_span (trace, t, 200, 300, "A", 0);
  add_span (trace, t, 0, 30, "B", 1);
  add_span (trace, t, 70, 100, "C", 1);
  add_span (trace, t, 100, 120, "F", 1);
  add_span (trace, t, 200, 250, "B", 1);
  add_span (trace, t, 10, 20, "D", 2);
  kymo_trace_seal (trace);
  return trace;
}

static char *
folded (KymoCallTree *tree)
{
  GString *out = g_string_new (NULL);

  kymo_call_tree_append_folded (tree, out);
  return g_string_free (out, FALSE);
}

static const KymoCallNode *
node_at (KymoCallTree *tree,
         const char   *path)
{
  g_auto(GStrv) names = g_strsplit (path, ";", -1);
  guint32 node = kymo_call_tree_find_path (tree, (const char * const *) names, g_strv_length (names));

  g_assert_cmpuint (node, !=, G_MAXUINT32);
  return &kymo_call_tree_get_nodes (tree, NULL)[node];
}

static void
test_spans_nested (void)
{
  g_autoptr(KymoTrace) trace = nested_trace ();
  g_autoptr(KymoCallTree) tree = NULL;
  g_autofree char *text = NULL;
  const KymoCallNode *nodes;

  tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE,
                               NULL, 0, NULL, NULL);
  g_assert_nonnull (tree);
  text = folded (tree);
  g_assert_cmpstr (text, ==,
                   "T;A 90\n"
                   "T;A;B 70\n"
                   "T;A;B;D 10\n"
                   "T;A;C 30\n"
                   "T;E 30\n"
                   "T;E;F 20\n");

  nodes = kymo_call_tree_get_nodes (tree, NULL);
  /* the root weighs the time of the outermost spans */
  g_assert_cmpint (nodes[0].total, ==, 250);
  g_assert_cmpint (node_at (tree, "T")->total, ==, 250);
  g_assert_cmpint (node_at (tree, "T;A")->total, ==, 200);
  g_assert_cmpint (node_at (tree, "T;A")->self, ==, 90);
  g_assert_cmpuint (node_at (tree, "T;A")->count, ==, 2);
  g_assert_cmpint (node_at (tree, "T;A;B")->total, ==, 80);
  g_assert_cmpuint (node_at (tree, "T;A;B")->count, ==, 2);
  g_assert_cmpint (node_at (tree, "T;E")->total, ==, 50);
  g_assert_cmpuint (node_at (tree, "T;A;B;D")->depth, ==, 4);
  /* a subtree is contiguous: A's holds B, D and C */
  g_assert_cmpuint (node_at (tree, "T;A")->n_descendants, ==, 3);
}

static void
test_spans_window (void)
{
  g_autoptr(KymoTrace) trace = nested_trace ();
  g_autoptr(KymoCallTree) tree = NULL;
  g_autoptr(KymoCallTree) empty = NULL;
  g_autofree char *text = NULL;

  /* A [0,100] and B [0,30] start before the window: they still name the
   * stacks of D and C but weigh nothing. */
  tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, 5, 300, NULL, 0, NULL, NULL);
  text = folded (tree);
  g_assert_cmpstr (text, ==,
                   "T;A 50\n"
                   "T;A;B 50\n"
                   "T;A;B;D 10\n"
                   "T;A;C 30\n"
                   "T;E 30\n"
                   "T;E;F 20\n");
  g_assert_cmpint (kymo_call_tree_get_nodes (tree, NULL)[0].total, ==, 190);

  empty = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, 160, 190, NULL, 0, NULL, NULL);
  g_assert_true (kymo_call_tree_is_empty (empty));
  g_assert_cmpuint (kymo_call_tree_get_n_nodes (empty), ==, 1);
}

static void
test_spans_tracks (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(KymoCallTree) tree = NULL;
  g_autofree char *text = NULL;
  guint t0 = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "main");
  guint t1 = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "worker");
  guint only[] = { t1 };

  add_span (trace, t0, 0, 10, "a", 0);
  add_span (trace, t1, 0, 20, "b", 0);
  kymo_trace_seal (trace);

  tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE,
                               only, G_N_ELEMENTS (only), NULL, NULL);
  text = folded (tree);
  g_assert_cmpstr (text, ==, "worker;b 20\n");
}

/* Damaged input: X and Y overlap at one depth, Z runs past its parent, W has
 * no parent at all. Nothing loops; the overlaps fold as siblings. */
static void
test_spans_damaged (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(KymoCallTree) tree = NULL;
  g_autofree char *text = NULL;
  guint t = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "T");

  add_span (trace, t, 0, 50, "X", 0);
  add_span (trace, t, 40, 80, "Y", 0);
  add_span (trace, t, 45, 90, "Z", 1);
  add_span (trace, t, 200, 210, "W", 1);
  kymo_trace_seal (trace);

  tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE,
                               NULL, 0, NULL, NULL);
  text = folded (tree);
  g_assert_cmpstr (text, ==,
                   "T;W 10\n"
                   "T;X 50\n"
                   "T;Y 5\n"
                   "T;Y;Z 45\n");
}

static guint32
add_stack (KymoTrace   *trace,
           const char **names)
{
  KymoFrame frames[8];
  gsize n = 0;

  for (; names[n] != NULL; n++)
    {
      frames[n].name = kymo_trace_intern (trace, names[n]);
      frames[n].location = 0;
    }
  return kymo_stacks_add (kymo_trace_get_stacks (trace), frames, n);
}

static KymoTrace *
sampled_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  guint t0 = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "worker-0");
  guint t1 = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "worker-1");
  /* an inline frame is a frame of its own, outermost first */
  const char *poll[] = { "main", "tokio::runtime::poll", "app::handler", "app::parse", NULL };
  const char *raw[] = { "main", "0x55d0c0ffee", NULL };
  guint32 cpu = kymo_trace_intern (trace, "cpu");
  guint32 s_poll = add_stack (trace, poll);
  guint32 s_raw = add_stack (trace, raw);

  kymo_stacks_add_sample (stacks, t0, 10, s_poll, cpu, 0);
  kymo_stacks_add_sample (stacks, t0, 20, s_poll, cpu, 0);
  kymo_stacks_add_sample (stacks, t0, 30, s_raw, cpu, 0);
  kymo_stacks_add_sample (stacks, t1, 40, s_poll, cpu, 0);
  kymo_stacks_add_sample (stacks, t1, 50, KYMO_NO_STACK, cpu, 0);
  /* a stack id the trace never defined */
  kymo_stacks_add_sample (stacks, t1, 60, 999, cpu, 0);
  kymo_trace_seal (trace);
  return trace;
}

static void
test_samples (void)
{
  g_autoptr(KymoTrace) trace = sampled_trace ();
  g_autoptr(KymoCallTree) tree = NULL;
  g_autoptr(KymoCallTree) window = NULL;
  g_autofree char *text = NULL;
  g_autofree char *window_text = NULL;

  tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SAMPLES, KYMO_TIME_NONE, KYMO_TIME_NONE,
                               NULL, 0, NULL, NULL);
  text = folded (tree);
  g_assert_cmpstr (text, ==,
                   "worker-0;main;0x55d0c0ffee 1\n"
                   "worker-0;main;tokio::runtime::poll;app::handler;app::parse 2\n"
                   "worker-1;<unknown stack> 2\n"
                   "worker-1;main;tokio::runtime::poll;app::handler;app::parse 1\n");
  g_assert_cmpint (kymo_call_tree_get_nodes (tree, NULL)[0].total, ==, 6);
  g_assert_cmpint (node_at (tree, "worker-0;main")->total, ==, 3);
  g_assert_cmpuint (node_at (tree, "worker-0;main")->count, ==, 3);
  g_assert_cmpuint (node_at (tree, "worker-1;<unknown stack>")->kind, ==, KYMO_CALL_FRAME_UNKNOWN);

  window = kymo_call_tree_build (trace, KYMO_CALL_TREE_SAMPLES, 20, 40, NULL, 0, NULL, NULL);
  window_text = folded (window);
  g_assert_cmpstr (window_text, ==,
                   "worker-0;main;0x55d0c0ffee 1\n"
                   "worker-0;main;tokio::runtime::poll;app::handler;app::parse 1\n"
                   "worker-1;main;tokio::runtime::poll;app::handler;app::parse 1\n");
}

static void
test_invert (void)
{
  g_autoptr(KymoTrace) trace = nested_trace ();
  g_autoptr(KymoCallTree) tree = NULL;
  g_autoptr(KymoCallTree) callers = NULL;

  tree = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE,
                               NULL, 0, NULL, NULL);
  callers = kymo_call_tree_invert (tree);
  /* B's self time, then who called it */
  g_assert_cmpint (node_at (callers, "B")->self, ==, 70);
  g_assert_cmpint (node_at (callers, "B")->total, ==, 70);
  g_assert_cmpint (node_at (callers, "B;A")->total, ==, 70);
  g_assert_cmpint (node_at (callers, "B;A;T")->total, ==, 70);
  g_assert_cmpint (node_at (callers, "D;B;A;T")->total, ==, 10);
  g_assert_cmpint (kymo_call_tree_get_nodes (callers, NULL)[0].total, ==, 250);
}

static void
test_diff (void)
{
  g_autoptr(KymoTrace) trace = nested_trace ();
  g_autoptr(KymoCallTree) before = NULL;
  g_autoptr(KymoCallTree) after = NULL;
  g_autoptr(KymoCallTree) diff = NULL;
  g_autoptr(GArray) changes = NULL;
  const KymoCallChange *c;

  /* first A with its children vs the second A */
  before = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, 0, 99, NULL, 0, NULL, NULL);
  after = kymo_call_tree_build (trace, KYMO_CALL_TREE_SPANS, 200, 300, NULL, 0, NULL, NULL);
  diff = kymo_call_tree_diff (before, after);
  g_assert_true (kymo_call_tree_is_diff (diff));

  g_assert_cmpint (node_at (diff, "T;A")->base_self, ==, 40);
  g_assert_cmpint (node_at (diff, "T;A")->self, ==, 50);
  g_assert_cmpint (node_at (diff, "T;A")->base_total, ==, 100);
  g_assert_cmpint (node_at (diff, "T;A")->total, ==, 100);
  g_assert_cmpint (node_at (diff, "T;A;B")->base_self, ==, 20);
  g_assert_cmpint (node_at (diff, "T;A;B")->self, ==, 50);
  /* gone in the second: kept with no width */
  g_assert_cmpint (node_at (diff, "T;A;C")->base_self, ==, 30);
  g_assert_cmpint (node_at (diff, "T;A;C")->total, ==, 0);

  changes = kymo_call_tree_dup_changes (diff);
  g_assert_cmpuint (changes->len, ==, 4);
  c = &g_array_index (changes, KymoCallChange, 0);
  g_assert_cmpstr (c->name, ==, "B");     /* +30 */
  g_assert_cmpint (c->self - c->base_self, ==, 30);
  c = &g_array_index (changes, KymoCallChange, 1);
  g_assert_cmpstr (c->name, ==, "C");     /* -30 */
  c = &g_array_index (changes, KymoCallChange, 2);
  g_assert_cmpstr (c->name, ==, "A");     /* +10 */
  c = &g_array_index (changes, KymoCallChange, 3);
  g_assert_cmpstr (c->name, ==, "D");     /* -10 */
}

static void
on_built (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  GError **error = user_data;
  KymoCallTree *tree = kymo_call_tree_build_finish (result, error);

  g_assert_null (tree);
}

static void
on_built_ok (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  KymoCallTree **out = user_data;

  *out = kymo_call_tree_build_finish (result, NULL);
}

static void
test_async (void)
{
  g_autoptr(KymoTrace) trace = nested_trace ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoCallTree) tree = NULL;

  g_cancellable_cancel (cancellable);
  kymo_call_tree_build_async (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE,
                              NULL, 0, cancellable, on_built, &error);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);

  kymo_call_tree_build_async (trace, KYMO_CALL_TREE_SPANS, KYMO_TIME_NONE, KYMO_TIME_NONE,
                              NULL, 0, NULL, on_built_ok, &tree);
  while (tree == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpint (kymo_call_tree_get_nodes (tree, NULL)[0].total, ==, 250);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/call-tree/spans/nested", test_spans_nested);
  g_test_add_func ("/call-tree/spans/window", test_spans_window);
  g_test_add_func ("/call-tree/spans/tracks", test_spans_tracks);
  g_test_add_func ("/call-tree/spans/damaged", test_spans_damaged);
  g_test_add_func ("/call-tree/samples", test_samples);
  g_test_add_func ("/call-tree/invert", test_invert);
  g_test_add_func ("/call-tree/diff", test_diff);
  g_test_add_func ("/call-tree/async", test_async);

  return g_test_run ();
}
