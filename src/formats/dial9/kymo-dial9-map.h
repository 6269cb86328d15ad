/* kymo-dial9-map.h: a small open-addressing map from u64 keys to u32 values
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* GHashTable boxes 64-bit keys; task ids, pool ids and worker ids are looked
 * up once per event, so this keeps them inline. */
typedef struct {
  guint64 *keys;
  guint32 *values;   /* value + 1; 0 marks an empty slot */
  gsize    mask;     /* capacity - 1 */
  gsize    n;
} D9Map;

static inline void
d9_map_init (D9Map *map)
{
  map->mask = 63;
  map->n = 0;
  map->keys = g_new (guint64, map->mask + 1);
  map->values = g_new0 (guint32, map->mask + 1);
}

static inline void
d9_map_clear (D9Map *map)
{
  g_clear_pointer (&map->keys, g_free);
  g_clear_pointer (&map->values, g_free);
  map->n = 0;
}

static inline gsize
d9_map_hash (guint64 key)
{
  key ^= key >> 33;
  key *= G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
  key ^= key >> 33;
  return (gsize) key;
}

/* G_MAXUINT32 when absent. */
static inline guint32
d9_map_lookup (const D9Map *map,
               guint64      key)
{
  gsize i = d9_map_hash (key) & map->mask;

  while (map->values[i])
    {
      if (map->keys[i] == key)
        return map->values[i] - 1;
      i = (i + 1) & map->mask;
    }
  return G_MAXUINT32;
}

/* Rehashes into @cap slots, a power of two above the keys held. */
static inline void
d9_map_resize (D9Map *map,
               gsize  cap)
{
  gsize old_cap = map->mask + 1;
  guint64 *old_keys = map->keys;
  guint32 *old_values = map->values;

  map->mask = cap - 1;
  map->keys = g_new (guint64, map->mask + 1);
  map->values = g_new0 (guint32, map->mask + 1);
  for (gsize j = 0; j < old_cap; j++)
    if (old_values[j])
      {
        gsize i = d9_map_hash (old_keys[j]) & map->mask;
        while (map->values[i])
          i = (i + 1) & map->mask;
        map->keys[i] = old_keys[j];
        map->values[i] = old_values[j];
      }
  g_free (old_keys);
  g_free (old_values);
}

static inline void
d9_map_grow (D9Map *map)
{
  d9_map_resize (map, (map->mask + 1) * 2);
}

/* Room for @n keys in all, so that inserting up to that many grows the
 * table at most once, here. */
static inline void
d9_map_reserve (D9Map *map,
                gsize  n)
{
  gsize cap = map->mask + 1;

  while ((n + 1) * 4 > cap * 3)
    cap *= 2;
  if (cap != map->mask + 1)
    d9_map_resize (map, cap);
}

/* Sets @key to @value (replacing an old value). */
static inline void
d9_map_insert (D9Map   *map,
               guint64  key,
               guint32  value)
{
  gsize i;

  if ((map->n + 1) * 4 > (map->mask + 1) * 3)
    d9_map_grow (map);
  i = d9_map_hash (key) & map->mask;
  while (map->values[i])
    {
      if (map->keys[i] == key)
        {
          map->values[i] = value + 1;
          return;
        }
      i = (i + 1) & map->mask;
    }
  map->keys[i] = key;
  map->values[i] = value + 1;
  map->n++;
}

G_END_DECLS
