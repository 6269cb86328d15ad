/* kymo-dial9-chains.h: sorted runs chained, and merged through a tournament
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <string.h>

#include "kymo-dial9-loader.h"

G_BEGIN_DECLS

/* A worker's edges and the wakes are per-thread batches: the runs of one
 * thread follow on from each other in time and are chained into one
 * sorted sequence (a run goes after the chain it follows most closely);
 * copies of a trace that overlap in time make a chain each. The chains
 * are then merged in time order through a tournament. Past this many
 * chains an array is better sorted. */
#define D9_MAX_CHAINS 256

/* An element's place in the pass as one number, compared without
 * branches. Nothing live is ever D9_DONE. */
typedef unsigned __int128 D9Key;
#define D9_DONE (~(D9Key) 0)

static inline D9Key
d9_key (KymoTime ts,
        guint32  source,
        gsize    index)
{
  /* Signed times order as unsigned once the sign bit is flipped. */
  return (D9Key) ((guint64) ts ^ G_GUINT64_CONSTANT (0x8000000000000000)) << 64 | (D9Key) source << 32 |
         MIN (index, (gsize) G_MAXUINT32 - 1);
}

static inline D9Key
d9_edge_key (const D9Edge *edges,
             gsize         i)
{
  return d9_key (edges[i].ts, edges[i].source, i);
}

/* A tournament (loser) tree over @n leaves' current keys: one comparison
 * per level and step. */
typedef struct {
  guint  size;
  D9Key *keys;   /* per leaf, D9_DONE when it has nothing left */
  guint *tree;   /* tree[0] the winner, tree[node] the loser at a node */
} D9Tourney;

void d9_tourney_init  (D9Tourney *t,
                       guint      n);
/* Once the leaves' first keys are set. */
void d9_tourney_build (D9Tourney *t);
void d9_tourney_clear (D9Tourney *t);

/* The winner's next key is @key: the new winner. */
static inline guint
d9_tourney_replace (D9Tourney *t,
                    D9Key      key)
{
  guint top = t->tree[0], winner = top;

  t->keys[top] = key;
  for (guint node = (top + t->size) / 2; node > 0; node /= 2)
    {
      guint other = t->tree[node];
      D9Key other_key = t->keys[other];
      gboolean swap = other_key < key;

      /* Copies that overlap in time interleave their chains in a fixed
       * order: branches the predictor learns beat selects (measured). */
      t->tree[node] = swap ? winner : other;
      winner = swap ? other : winner;
      key = swap ? other_key : key;
    }
  t->tree[0] = winner;
  return winner;
}

/* A sorted run [from, to) of an array, and the next of its chain. */
typedef struct {
  gsize   from;
  gsize   to;
  guint32 next;      /* index in segs, or G_MAXUINT32 */
} D9Seg;

/* A worker's edges or the wakes: elements of @size whose time comes
 * first and whose source is at @source_at. */
typedef struct {
  const guint8 *data;
  gsize         size;
  gsize         source_at;
} D9Stream;

G_STATIC_ASSERT (G_STRUCT_OFFSET (D9Edge, ts) == 0 && G_STRUCT_OFFSET (D9Wake, ts) == 0);

static inline D9Key
d9_stream_key (const D9Stream *s,
               gsize           i)
{
  const guint8 *e = s->data + i * s->size;
  gint64 ts;
  guint32 source;

  memcpy (&ts, e, sizeof ts);
  memcpy (&source, e + s->source_at, sizeof source);
  return d9_key (ts, source, i);
}

static inline D9Key
d9_wake_key (const D9Wake *wakes,
             gsize         i)
{
  return d9_key (wakes[i].ts, wakes[i].source, i);
}

/* Finds a stream's runs (into @segs) and chains them (their first runs
 * into @heads); FALSE past D9_MAX_CHAINS chains. */
gboolean d9_chain_runs (const D9Stream *s,
                        gsize           n,
                        GArray         *segs,
                        GArray         *heads);

/* A chain's place: its current run's elements [next, end), and how far
 * its elements' pages were given back. */
typedef struct {
  gsize         next;
  gsize         end;
  guint32       seg;
  guint32       released_seg;
  const guint8 *released;
} D9Leaf;

/* Leaves for the chains (@heads) of @segs, and a tournament over them
 * whose keys the caller sets. */
D9Leaf *d9_leaves_new (GArray    *segs,
                       GArray    *heads,
                       D9Tourney *t);

/* How many elements ahead of a chain's next the tournament's merges
 * prefetch (see pair_worker). */
#define D9_PREFETCH_AHEAD 16

/* Moves @leaf on to its chain's next element: FALSE past its end. */
static inline gboolean
d9_leaf_next (D9Leaf *leaf,
              GArray *segs)
{
  guint32 next;
  const D9Seg *seg;

  if (++leaf->next < leaf->end)
    return TRUE;
  next = g_array_index (segs, D9Seg, leaf->seg).next;
  if (next == G_MAXUINT32)
    return FALSE;
  seg = &g_array_index (segs, D9Seg, next);
  leaf->seg = next;
  leaf->next = seg->from;
  leaf->end = seg->to;
  return TRUE;
}

/* Gives back the whole pages of [@from, @to), which nothing reads again;
 * returns where that stopped. */
const guint8 *d9_release_pages (const guint8 *from,
                                const guint8 *to);
/* The pages of what the chain of @leaf in @data (elements of @size) has
 * merged go back (pages that runs share are left). */
void          d9_release_leaf  (const guint8 *data,
                                gsize         size,
                                GArray       *segs,
                                D9Leaf       *leaf);

G_END_DECLS
