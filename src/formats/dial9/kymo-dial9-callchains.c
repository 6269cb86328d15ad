/* kymo-dial9-callchains.c: the distinct inline call chains of CPU samples
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <string.h>

#include "kymo-dial9-callchains.h"
#include "kymo-dial9-wire.h"

#define MIN_SLOTS 64
/* Slots are numbered in 32 bits, and so are the chains (with room to spare). */
#define MAX_SLOTS ((guint32) 1 << 31)

D9Callchains *
d9_callchains_new (const guint8 *data)
{
  D9Callchains *set = g_new0 (D9Callchains, 1);

  set->data = data;
  return set;
}

void
d9_callchains_free (D9Callchains *set)
{
  if (set == NULL)
    return;
  g_free (set->at);
  g_free (set->slots);
  g_free (set);
}

static guint32
chain_hash (const guint8 *chain)
{
  guint32 n = d9_u32 (chain);
  guint64 h = G_GUINT64_CONSTANT (0xcbf29ce484222325) ^ n;

  /* A word at a time: chains are dozens of addresses long (four words at
   * a time measured slower). */
  for (guint32 i = 0; i < n; i++)
    {
      guint64 addr;

      memcpy (&addr, chain + 4 + (gsize) i * 8, 8);
      h = (h ^ addr) * G_GUINT64_CONSTANT (0x100000001b3);
      h ^= h >> 29;
    }
  return (guint32) (h ^ (h >> 32));
}

static gboolean
chain_equal (const guint8 *a,
             const guint8 *b)
{
  guint32 n = d9_u32 (a);

  return n == d9_u32 (b) && memcmp (a + 4, b + 4, (gsize) n * 8) == 0;
}

/* Twice the slots, each chain placed again by its hash (no chain is read). */
static void
grow (D9Callchains *set)
{
  guint32 size = set->slots == NULL ? MIN_SLOTS : 2 * (set->mask + 1);
  guint64 *old = set->slots;
  guint32 old_size = old == NULL ? 0 : set->mask + 1;

  set->slots = g_new0 (guint64, size);
  set->mask = size - 1;
  set->at = g_renew (guint64, set->at, size / 2);
  for (guint32 i = 0; i < old_size; i++)
    if (old[i] != 0)
      {
        guint32 s = (guint32) (old[i] >> 32) & set->mask;

        while (set->slots[s] != 0)
          s = (s + 1) & set->mask;
        set->slots[s] = old[i];
      }
  g_free (old);
}

/* Where a chain goes in set->recent: by its count, and its innermost,
 * middle and outermost addresses (distinct chains often share the
 * innermost and outermost: the middle one halved the misses). */
static inline guint32
recent_slot (const guint8 *chain)
{
  guint32 n = d9_u32 (chain);
  guint64 h = n;

  if (n > 0)
    h ^= (d9_u64 (chain + 4) + d9_u64 (chain + 4 + (gsize) (n - 1) * 8) * 3 +
          d9_u64 (chain + 4 + (gsize) (n / 2) * 8) * 5) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15);
  return (guint32) (h >> 32) % D9_RECENT_CHAINS;
}

static guint32
add_hashed (D9Callchains *set,
            guint64       at)
{
  const guint8 *chain = set->data + at;
  guint32 h = chain_hash (chain), s;

  if (set->slots == NULL)
    grow (set);
  for (s = h & set->mask; set->slots[s] != 0; s = (s + 1) & set->mask)
    {
      guint64 slot = set->slots[s];
      guint32 index = (guint32) slot - 1;

      if ((guint32) (slot >> 32) == h && chain_equal (set->data + set->at[index], chain))
        return index;
    }
  /* At most half full: probes stay short. */
  if (set->n >= (set->mask + 1) / 2)
    {
      if (set->mask >= MAX_SLOTS - 1)
        return G_MAXUINT32;
      grow (set);
      for (s = h & set->mask; set->slots[s] != 0; s = (s + 1) & set->mask)
        ;
    }
  set->slots[s] = (guint64) h << 32 | (set->n + 1);
  set->at[set->n] = at;
  return set->n++;
}

guint32
d9_callchains_add (D9Callchains *set,
                   guint64       at)
{
  const guint8 *chain = set->data + at;
  guint32 r = recent_slot (chain), index = set->recent[r] - 1;

  /* Samples repeat a few chains: comparing the bytes with the last one
   * met costs a fraction of hashing them all. */
  if (index != G_MAXUINT32 && chain_equal (set->data + set->at[index], chain))
    return index;
  index = add_hashed (set, at);
  set->recent[r] = index + 1;
  return index;
}
