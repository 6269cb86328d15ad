/* test-pivot.c: the pivot from probes about halves the keys it is given
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "kymo-pivot.h"

/* Keys in one array, and what the helper asked of them. */
typedef struct {
  const gint64 *keys;
  gsize         n;
  gsize         reads;
  gsize         last;     /* the last position read */
  guint8       *seen;     /* per key: read at least once */
} Reader;

static void
read_key (gsize    position,
          gpointer key,
          gpointer user_data)
{
  Reader *r = user_data;

  /* Readers over pieces rely on this. */
  g_assert_cmpuint (position, <, r->n);
  if (r->reads > 0)
    g_assert_cmpuint (position, >=, r->last);
  r->last = position;
  r->reads++;
  r->seen[position] = 1;
  *(gint64 *) key = r->keys[position];
}

static int
compare_keys (gconstpointer a,
              gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return x < y ? -1 : x > y;
}

/* The pivot of @keys, checking how the helper read them. */
static gint64
pivot_of (const gint64 *keys,
          gsize         n)
{
  g_autofree guint8 *seen = g_new0 (guint8, MAX (n, 1));
  Reader r = { keys, n, 0, 0, seen };
  gint64 pivot = 0;

  g_assert_true (kymo_pivot_from_probes (n, sizeof (gint64), compare_keys, read_key, &r, &pivot));
  g_assert_cmpuint (r.reads, ==, KYMO_PIVOT_PROBES);
  /* Fewer keys than probes: every one of them counts. */
  if (n <= KYMO_PIVOT_PROBES)
    for (gsize i = 0; i < n; i++)
      g_assert_true (seen[i]);
  return pivot;
}

/* How many of @keys sort before @pivot. */
static gsize
count_below (const gint64 *keys,
             gsize         n,
             gint64        pivot)
{
  gsize below = 0;

  for (gsize i = 0; i < n; i++)
    below += keys[i] < pivot;
  return below;
}

static void
test_pivot_none (void)
{
  Reader r = { NULL, 0, 0, 0, NULL };
  gint64 pivot = 42;

  /* No keys: nothing read, and no pivot to split at. */
  g_assert_false (kymo_pivot_from_probes (0, sizeof (gint64), compare_keys, read_key, &r, &pivot));
  g_assert_cmpuint (r.reads, ==, 0);
  g_assert_cmpint (pivot, ==, 42);
}

static void
test_pivot_one (void)
{
  gint64 key = -7;

  g_assert_cmpint (pivot_of (&key, 1), ==, -7);
}

/* Sorted keys: the pivot is the one at the middle probe's position, with
 * odd and even counts, below the probes' count and above it. */
static void
test_pivot_counts (void)
{
  static const gsize counts[] = { 2, 3, 7, 8, 1022, 1023, 1024, 4096, 100001, 100002 };

  for (guint c = 0; c < G_N_ELEMENTS (counts); c++)
    {
      gsize n = counts[c];
      g_autofree gint64 *keys = g_new (gint64, n);
      gsize middle = KYMO_PIVOT_PROBES / 2 * n / KYMO_PIVOT_PROBES;

      for (gsize i = 0; i < n; i++)
        keys[i] = (gint64) i * 3 - (gint64) n;
      g_assert_cmpint (pivot_of (keys, n), ==, keys[middle]);
      /* About half below it (within a probe's spacing): the split it
       * makes is worth making. */
      g_assert_cmpuint (count_below (keys, n, keys[middle]), <=, n / 2);
      g_assert_cmpuint (count_below (keys, n, keys[middle]) + n / KYMO_PIVOT_PROBES + 1, >=, n / 2);
    }
}

/* Fewer keys than probes, out of order: each is read, the middle one of
 * them in order wins. */
static void
test_pivot_few_unsorted (void)
{
  static const gint64 keys[] = { 9, -3, 4, 0, 7, 1, 8, 2, 6, 5, -1 };
  gint64 pivot = pivot_of (keys, G_N_ELEMENTS (keys));

  g_assert_cmpint (pivot, ==, 4);
  g_assert_cmpuint (count_below (keys, G_N_ELEMENTS (keys), pivot), ==, 5);
}

/* Equal keys: the pivot is one of them, all of them or most. */
static void
test_pivot_duplicates (void)
{
  gsize n = 50000;
  g_autofree gint64 *keys = g_new (gint64, n);

  for (gsize i = 0; i < n; i++)
    keys[i] = 11;
  g_assert_cmpint (pivot_of (keys, n), ==, 11);

  /* A few smaller and larger around a run of equal keys. */
  for (gsize i = 0; i < n; i++)
    keys[i] = i < n / 10 ? -1 : i >= n - n / 10 ? 99 : 11;
  g_assert_cmpint (pivot_of (keys, n), ==, 11);

  /* Three keys, each a third: the middle one. */
  for (gsize i = 0; i < n; i++)
    keys[i] = (gint64) (i % 3);
  g_assert_cmpint (pivot_of (keys, n), ==, 1);
}

/* Keys in no order (a fixed seed): about half below the pivot. */
static void
test_pivot_random (void)
{
  gsize n = 200000;
  g_autofree gint64 *keys = g_new (gint64, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (1023);
  gsize below;

  for (gsize i = 0; i < n; i++)
    keys[i] = (gint64) g_rand_int (rand) - G_MAXINT32;
  below = count_below (keys, n, pivot_of (keys, n));
  g_assert_cmpuint (below, >, n / 2 - n / 8);
  g_assert_cmpuint (below, <, n / 2 + n / 8);
}

/* Keys wider than a word, as the dial9 wakes' are. */
typedef struct {
  guint64 high;
  guint64 low;
} Wide;

static void
read_wide (gsize    position,
           gpointer key,
           gpointer user_data)
{
  Wide *w = key;

  /* The position in the low word, the high word alike for all. */
  w->high = 5;
  w->low = (guint64) position;
}

static int
compare_wide (gconstpointer a,
              gconstpointer b)
{
  const Wide *x = a, *y = b;

  if (x->high != y->high)
    return x->high < y->high ? -1 : 1;
  return x->low < y->low ? -1 : x->low > y->low;
}

static void
test_pivot_wide (void)
{
  Wide pivot = { 0, 0 };

  g_assert_true (kymo_pivot_from_probes (3000, sizeof (Wide), compare_wide, read_wide, NULL, &pivot));
  g_assert_cmpuint (pivot.high, ==, 5);
  g_assert_cmpuint (pivot.low, ==, KYMO_PIVOT_PROBES / 2 * 3000 / KYMO_PIVOT_PROBES);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/pivot/none", test_pivot_none);
  g_test_add_func ("/pivot/one", test_pivot_one);
  g_test_add_func ("/pivot/counts", test_pivot_counts);
  g_test_add_func ("/pivot/few-unsorted", test_pivot_few_unsorted);
  g_test_add_func ("/pivot/duplicates", test_pivot_duplicates);
  g_test_add_func ("/pivot/random", test_pivot_random);
  g_test_add_func ("/pivot/wide", test_pivot_wide);

  return g_test_run ();
}
