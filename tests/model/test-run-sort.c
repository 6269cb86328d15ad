/* test-run-sort.c: the run-merging sort orders as g_qsort_with_data does
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-run-sort.h"

typedef struct {
  guint32 key;
  guint32 id;   /* where it started: tells a stable sort from another */
} Item;

#define ITEM_LESS(x, y) ((x)->key < (y)->key)

KYMO_DEFINE_RUN_SORT (sort_items, Item, ITEM_LESS)

static int
compare_items (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const Item *x = a, *y = b;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* Arrays shaped as decoders emit them: sorted, a few late elements, ties,
 * concatenated sorted runs that overlap, per-thread batches (chained
 * before they are merged), hundreds of threads' batches, reversed, random; all with equal keys
 * (stability shows in the ids). */
static void
fill (Item   *items,
      gsize   n,
      guint   shape,
      GRand  *rand)
{
  gsize runs = 1 + g_rand_int_range (rand, 1, 40);

  for (gsize i = 0; i < n; i++)
    {
      switch (shape)
        {
        case 0:
          items[i].key = (guint32) (i / 3);
          break;
        case 1:
          items[i].key = (guint32) i + (g_rand_int_range (rand, 0, 50) == 0 ? 0 : 20);
          break;
        case 2:
          items[i].key = (guint32) ((i % (n / runs + 1)) * 2 + g_rand_int_range (rand, 0, 2));
          break;
        case 3:
          items[i].key = (guint32) (i / (n / runs + 1) * 7 + (i % (n / runs + 1)));
          break;
        case 4:
          /* Per-thread batches, concatenated: each thread's keys go on
           * from its last batch's (ties among threads), overlapping the
           * other threads' in time. Several copies of that, as a file
           * written again, whose times are the same as the first's. */
          {
            gsize threads = 1 + runs % 5, batch = 1 + runs % 7 * 3, copy = n / (runs % 3 + 1) + 1;
            gsize j = i % copy, b = j / batch;

            items[i].key = (guint32) ((b / threads) * batch * 2 + (j % batch) * 2 + (b % threads) % 2);
          }
          break;
        case 5:
          items[i].key = (guint32) (n - i) / 2;
          break;
        case 6:
          /* Hundreds of threads' batches (stack samples of many copies
           * of a trace): hundreds of chains. */
          {
            gsize threads = 300 + runs, batch = 4, b = i / batch;

            items[i].key = (guint32) ((b / threads) * batch + i % batch + (b % threads) % 3);
          }
          break;
        default:
          items[i].key = g_rand_int_range (rand, 0, (gint32) MAX (n / 4, 2));
          break;
        }
      items[i].id = (guint32) i;
    }
}

static void
test_same_as_qsort (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  const gsize sizes[] = { 0, 1, 2, 3, 17, 100, 1000, 4097, 20000, 100000 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint shape = 0; shape < 8; shape++)
      for (guint round = 0; round < 4; round++)
        {
          gsize n = sizes[s];
          g_autofree Item *ours = g_new (Item, MAX (n, 1));
          g_autofree Item *theirs = g_new (Item, MAX (n, 1));

          fill (ours, n, shape, rand);
          memcpy (theirs, ours, n * sizeof (Item));
          sort_items (ours, n);
          g_qsort_with_data (theirs, (gint) n, sizeof (Item), compare_items, NULL);
          g_assert_cmpmem (ours, n * sizeof (Item), theirs, n * sizeof (Item));
        }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/run-sort/same-as-qsort", test_same_as_qsort);
  return g_test_run ();
}
