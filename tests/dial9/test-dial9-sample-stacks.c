/* test-dial9-sample-stacks.c: CPU samples' call chains, inline and pooled,
 * become the same stacks in the same order on any number of threads
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-test-utils.h"
#include "dial9/kymo-dial9-callchains.h"
#include "dial9-builder.h"
#include "dial9-parts.h"

/* Segments enough to be decoded in parts (past 4 MiB). Each has samples
 * whose chains are inline or pooled: chains every segment shares, chains
 * of its own, chains that differ from a shared one only in a frame that
 * is neither the first, the middle nor the last, and pool stacks with the
 * bytes of a shared inline chain (the same stack), of their own, or never
 * defined (no stack). */
#define N_SEGMENTS 64
#define N_SAMPLES  2400
#define N_SHARED   8
#define CHAIN_LEN  5

enum {
  EV_POLL_START,
  EV_POLL_END,
  EV_INLINE,
  EV_POOLED,
};

/* What a sample was written with: its chain's addresses (leaf first), or
 * none (an undefined pool id). */
typedef struct {
  guint64 addrs[CHAIN_LEN];
  guint   n;
} Chain;

static void
shared_chain (Chain *c,
              guint  k)
{
  c->n = CHAIN_LEN;
  for (guint i = 0; i < CHAIN_LEN; i++)
    c->addrs[i] = 0x10000 + 0x100 * k + i;
}

static void
pick_chain (Chain  *c,
            guint   seg,
            guint32 r)
{
  switch (r % 4)
    {
    case 0:
    case 1:
      shared_chain (c, r / 4 % N_SHARED);
      break;
    case 2:
      /* Of this segment only, of one to three frames. */
      c->n = 1 + r / 4 % 3;
      for (guint i = 0; i < c->n; i++)
        c->addrs[i] = 0x500000 + 0x100 * seg + 0x10 * (r / 16 % 4) + i;
      break;
    default:
      /* A shared chain but for its second frame. */
      shared_chain (c, r / 4 % N_SHARED);
      c->addrs[1] = 0x900000 + r / 32 % 3;
      break;
    }
}

/* @overlapping: each segment starts before the previous one ends (the
 * parts are merged rather than streamed). Sets *@chains: per event
 * ordinal, the chain of a sample (n 0 for none) or NULL. */
static GByteArray *
build (gboolean    overlapping,
       GPtrArray **chains)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  const char *cpu_inline[] = { "worker_id:9", "source:11", "callchain:8", NULL };
  const char *cpu_pooled[] = { "worker_id:9", "source:11", "callchain:6", NULL };
  GByteArray *b = g_byte_array_new ();
  guint32 rng = 7;

  *chains = g_ptr_array_new_with_free_func (g_free);
  for (guint seg = 0; seg < N_SEGMENTS; seg++)
    {
      /* A segment's events take about half of @span. */
      guint64 span = (guint64) N_SAMPLES * 20;
      guint64 start = 1000000 + seg * (overlapping ? span / 4 : span);

      d9b_header (b);
      d9b_schema (b, EV_POLL_START, "PollStartEvent", TRUE, poll_start);
      d9b_schema (b, EV_POLL_END, "PollEndEvent", TRUE, poll_end);
      d9b_schema (b, EV_INLINE, "CpuSampleEvent", TRUE, cpu_inline);
      d9b_schema (b, EV_POOLED, "CpuSampleEvent", TRUE, cpu_pooled);
      d9b_pool (b, 0, "src/main.rs:1");
      /* Pool ids name other stacks in each segment: 1 a shared inline
       * chain's bytes, 2 this segment's own. */
      {
        Chain c;
        const guint64 own[] = { 0x700000 + seg, 0x700100 };

        shared_chain (&c, seg % N_SHARED);
        d9b_stack_pool (b, 1, c.addrs, c.n);
        d9b_stack_pool (b, 2, own, G_N_ELEMENTS (own));
      }
      d9b_reset (b, start);
      for (guint i = 0; i < N_SAMPLES; i++)
        {
          Chain *c = g_new0 (Chain, 1);
          guint worker = i % 3;

          rng = rng * 1103515245 + 12345;
          if (i % 50 == 0)
            {
              d9b_event (b, EV_POLL_START, i == 0 ? 0 : 5);
              d9b_varint (b, worker); d9b_u8 (b, 1); d9b_varint (b, 1 + i % 7); d9b_u32 (b, 0);
              g_ptr_array_add (*chains, NULL);
              d9b_event (b, EV_POLL_END, 5);
              d9b_varint (b, worker);
              g_ptr_array_add (*chains, NULL);
            }
          if (rng >> 16 & 1)
            {
              pick_chain (c, seg, rng >> 17);
              d9b_event (b, EV_INLINE, 10);
              d9b_varint (b, worker); d9b_u8 (b, 0);
              d9b_u32 (b, c->n);
              for (guint k = 0; k < c->n; k++)
                d9b_u64 (b, c->addrs[k]);
            }
          else
            {
              guint32 id = 1 + (rng >> 17) % 3;
              const guint64 own[] = { 0x700000 + seg, 0x700100 };

              if (id == 1)
                shared_chain (c, seg % N_SHARED);
              else if (id == 2)
                {
                  c->n = G_N_ELEMENTS (own);
                  memcpy (c->addrs, own, sizeof own);
                }
              d9b_event (b, EV_POOLED, 10);
              d9b_varint (b, worker); d9b_u8 (b, 0);
              d9b_u32 (b, id);
            }
          g_ptr_array_add (*chains, c);
        }
    }
  return b;
}

static char *
chain_key (const Chain *c)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < c->n; i++)
    g_string_append_printf (s, "%" G_GINT64_MODIFIER "x,", c->addrs[i]);
  return g_string_free (s, FALSE);
}

/* Every sample's stack is its chain symbolised (unresolved addresses,
 * outermost first); one stack per distinct chain, numbered in the order
 * the samples in file order first have them. */
static void
check_stacks (KymoTrace *trace,
              GPtrArray *chains)
{
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  const KymoStackSample *samples;
  g_autoptr(GHashTable) distinct = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree guint32 *by_source = g_new (guint32, chains->len);
  guint32 next = 0;
  gsize n, n_written = 0;

  samples = kymo_stacks_get_samples (stacks, &n);
  for (guint i = 0; i < chains->len; i++)
    by_source[i] = G_MAXUINT32 - 1;
  for (gsize i = 0; i < n; i++)
    {
      const Chain *c;
      const KymoFrame *frames;
      gsize n_frames;

      g_assert_cmpuint (samples[i].source, <, chains->len);
      c = g_ptr_array_index (chains, samples[i].source);
      g_assert_nonnull (c);
      g_assert_cmpuint (by_source[samples[i].source], ==, G_MAXUINT32 - 1);
      by_source[samples[i].source] = samples[i].stack;
      if (i > 0)
        g_assert_cmpint (samples[i - 1].ts, <=, samples[i].ts);
      if (c->n == 0)
        {
          g_assert_cmpuint (samples[i].stack, ==, KYMO_NO_STACK);
          continue;
        }
      frames = kymo_stacks_get (stacks, samples[i].stack, &n_frames);
      g_assert_cmpuint (n_frames, ==, c->n);
      for (guint k = 0; k < c->n; k++)
        {
          g_autofree char *want = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", c->addrs[c->n - 1 - k]);

          g_assert_cmpstr (kymo_trace_get_name (trace, frames[k].name), ==, want);
          g_assert_cmpuint (frames[k].location, ==, 0);
        }
    }
  /* In file order, a stack seen for the first time is the next one. */
  for (guint i = 0; i < chains->len; i++)
    {
      const Chain *c = g_ptr_array_index (chains, i);

      if (c == NULL)
        continue;
      n_written++;
      g_assert_cmpuint (by_source[i], !=, G_MAXUINT32 - 1);
      if (c->n == 0)
        continue;
      if (g_hash_table_add (distinct, chain_key (c)))
        g_assert_cmpuint (by_source[i], ==, next++);
      else
        g_assert_cmpuint (by_source[i], <, next);
    }
  g_assert_cmpuint (n, ==, n_written);
  g_assert_cmpuint (kymo_stacks_get_n_stacks (stacks), ==, g_hash_table_size (distinct));
}

static void
test_sample_stacks (void)
{
  const guint threads[] = { 2, 7 };

  for (guint v = 0; v < 2; v++)
    {
      g_autoptr(GPtrArray) chains = NULL;
      g_autoptr(GByteArray) b = build (v == 1, &chains);
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) one = NULL;
      g_autofree char *want = NULL;
      const KymoStackSample *ws;
      gsize n_want;

      g_assert_cmpuint (b->len, >, 4u << 20);
      kymo_test_set_threads (1);
      one = kymo_test_load_bytes (b->data, b->len, "dial9", &error);
      g_assert_no_error (error);
      check_stacks (one, chains);
      want = kymo_test_fingerprint (one, NULL);
      ws = kymo_stacks_get_samples (kymo_trace_get_stacks (one), &n_want);
      for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
        {
          g_autoptr(KymoTrace) many = NULL;
          g_autofree char *got = NULL;
          KymoStacks *stacks;
          const KymoStackSample *gs;
          gsize n;

          many = d9t_load_in_parts (b->data, b->len, threads[t]);
          stacks = kymo_trace_get_stacks (many);
          gs = kymo_stacks_get_samples (stacks, &n);
          g_assert_cmpmem (gs, n * sizeof (KymoStackSample), ws, n_want * sizeof (KymoStackSample));
          g_assert_cmpuint (kymo_stacks_get_n_stacks (stacks), ==,
                            kymo_stacks_get_n_stacks (kymo_trace_get_stacks (one)));
          for (guint s = 0; s < kymo_stacks_get_n_stacks (stacks); s++)
            {
              gsize n_got, n_one;
              const KymoFrame *fg = kymo_stacks_get (stacks, s, &n_got);
              const KymoFrame *fo = kymo_stacks_get (kymo_trace_get_stacks (one), s, &n_one);

              g_assert_cmpmem (fg, n_got * sizeof (KymoFrame), fo, n_one * sizeof (KymoFrame));
            }
          got = kymo_test_fingerprint (many, NULL);
          g_assert_cmpstr (got, ==, want);
        }
      kymo_test_set_threads (0);
    }
}

/* Chains are one when their bytes are, wherever they are; those that
 * share their first, middle and last words are still told apart, and the
 * set grows past its first slots. */
static void
test_callchains (void)
{
  g_autoptr(GByteArray) b = g_byte_array_new ();
  g_autoptr(GArray) at = g_array_new (FALSE, FALSE, sizeof (guint64));
  D9Callchains *set;
  const guint n_distinct = 5000;

  for (guint copy = 0; copy < 3; copy++)
    for (guint i = 0; i < n_distinct; i++)
      {
        guint64 offset = b->len;

        g_array_append_val (at, offset);
        /* Four words: the second tells them apart. */
        d9b_u32 (b, 4);
        d9b_u64 (b, 0x1000);
        d9b_u64 (b, 0x2000 + i);
        d9b_u64 (b, 0x3000);
        d9b_u64 (b, 0x4000);
      }
  {
    guint64 offset = b->len;

    /* No frames at all. */
    g_array_append_val (at, offset);
    d9b_u32 (b, 0);
  }
  set = d9_callchains_new (b->data);
  for (guint i = 0; i < at->len; i++)
    {
      guint32 index = d9_callchains_add (set, g_array_index (at, guint64, i));

      if (i < n_distinct)
        g_assert_cmpuint (index, ==, i);
      else if (i < 3 * n_distinct)
        g_assert_cmpuint (index, ==, i % n_distinct);
      else
        g_assert_cmpuint (index, ==, n_distinct);
    }
  g_assert_cmpuint (set->n, ==, n_distinct + 1);
  for (guint i = 0; i < n_distinct; i++)
    g_assert_cmpuint (set->at[i], ==, g_array_index (at, guint64, i));
  d9_callchains_free (set);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/dial9/sample-stacks/threads", test_sample_stacks);
  g_test_add_func ("/dial9/sample-stacks/callchains", test_callchains);
  return g_test_run ();
}
