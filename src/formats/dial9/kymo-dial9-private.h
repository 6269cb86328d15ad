/* kymo-dial9-private.h: what the dial9 loader keeps, for building and describe
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-format.h"
#include "kymo-dial9-wire.h"

G_BEGIN_DECLS

/* Events at or after 2020-01-01 in ns are wall-clock stamped (NOTES.md §1.6). */
#define D9_WALLCLOCK_MIN G_GINT64_CONSTANT (1577836800000000000)

/* One checkpoint every this many events lets describe find event N by
 * walking at most this many frames. */
#define D9_CHECKPOINT_EVERY 256

/* Field values of one event kept while it is handled: later fields are
 * decoded (to find the frame's end) but not kept. */
#define D9_MAX_KEPT_FIELDS 64

#define D9_WORKER_BLOCKING 254
#define D9_WORKER_NONE     255

/* Checkpoints are sorted by ordinal, at most D9_CHECKPOINT_EVERY apart
 * within a part decoded on its own (so at most twice that overall). */
typedef struct {
  guint64 offset;  /* of the event frame's tag */
  guint64 base;    /* timestamp base before it */
  guint32 segment;
  guint32 ordinal; /* of the event (G_MAXUINT32 past that) */
} D9Checkpoint;

typedef struct {
  const guint8 *data;
  guint32       len;
  guint32       name;  /* interned on first use, or G_MAXUINT32 */
} D9PoolString;

typedef struct {
  const guint8 *frames; /* u64 LE addresses, leaf first */
  guint32       count;
} D9PoolStack;

typedef struct {
  guint64       addr;
  guint64       size;
  guint64       line;
  const guint8 *name;
  const guint8 *file;
  guint32       name_len;
  guint32       file_len;
  guint32       inline_depth;
} D9Symbol;

typedef struct {
  guint64  id;
  KymoTime spawn;      /* KYMO_TIME_NONE when not seen */
  KymoTime terminate;
  guint32  spawn_loc;  /* index into pool_strings, or G_MAXUINT32 */
  guint32  worker;     /* while being polled: worker index, else G_MAXUINT32 */
  guint32  polls;
  /* A wake waiting for the task's next poll (kept here, not looked up in
   * the wakes array: that one is far too big to touch at random). */
  guint32  wake_source;  /* KYMO_NO_SOURCE when none */
  guint    wake_track;
  KymoTime wake_ts;
} D9Task;

/* A merged part's pools, left in the part's own maps (keyed by its own
 * segment numbers) rather than inserted one by one into the loader's: the
 * segments after @segment_base up to @segment_last of the whole stream. */
typedef struct {
  guint32 segment_base;
  guint32 segment_last;
  guint32 string_base;  /* its first in pool_strings */
  guint32 stack_base;   /* its first in pool_stacks */
  D9Map   strings;
  D9Map   stacks;
} D9PoolChunk;

/* What the format keeps for describe(). */
typedef struct {
  GBytes       *bytes;        /* the decompressed stream (or the input's bytes) */
  const guint8 *data;
  gsize         size;
  D9Registry    reg;
  GArray       *checkpoints;  /* D9Checkpoint */
  guint64       n_events;
  GArray       *pool_strings; /* D9PoolString */
  D9Map         string_map;   /* segment << 32 | pool_id → index */
  GArray       *pool_stacks;  /* D9PoolStack */
  D9Map         stack_map;
  /* D9PoolChunk, by segment: the merged parts' pools, which the two maps
   * above do not hold (NULL when none). */
  GArray       *pool_chunks;
  GArray       *symbols;      /* D9Symbol, sorted by address */
  GArray       *tasks;        /* D9Task */
  D9Map         task_map;     /* task id → index */
} D9Data;

D9Data     *d9_data_new          (void);
void        d9_data_free         (gpointer data);

/* Index in pool_strings / pool_stacks of pool id @pool_id of @segment (the
 * latest definition), or G_MAXUINT32. */
guint32     d9_data_string_index (D9Data *d, guint32 segment, guint32 pool_id);
guint32     d9_data_stack_index  (D9Data *d, guint32 segment, guint32 pool_id);
/* Takes over the pool maps of @part, whose segments follow @segment_base
 * and whose pools start at @string_base and @stack_base: lookups of its
 * segments go to them from now on. */
void        d9_data_add_pool_chunk (D9Data *d,
                                    D9Data *part,
                                    guint32 segment_base,
                                    guint32 string_base,
                                    guint32 stack_base);

/* Resolves a pooled string / stack of @segment (the latest definition). */
const D9PoolString *d9_data_pool_string (D9Data *d, guint32 segment, guint32 pool_id);
const D9PoolStack  *d9_data_pool_stack  (D9Data *d, guint32 segment, guint32 pool_id);
/* The symbols for @addr (inlined frames in order), or 0 found. */
guint       d9_data_symbolize    (D9Data        *d,
                                  guint64        addr,
                                  const D9Symbol **first);

/* The decompressed bytes of @input (a new ref of the input's own bytes when
 * not gzip). NULL with @error when nothing inflated; *warning for a stream
 * cut short. */
GBytes     *d9_open_stream       (KymoLoadJob   *job,
                                  char         **warning,
                                  GError       **error);

gboolean    d9_load              (KymoLoadJob   *job,
                                  KymoTrace     *trace,
                                  GError       **error);
gboolean    d9_dump              (KymoLoadJob    *job,
                                  KymoJsonWriter *out,
                                  GError        **error);
JsonObject *d9_describe          (KymoTrace          *trace,
                                  const KymoEventRef *ref);

/* Progress: reading (and inflating) up to 0.5, decoding up to
 * D9_PROGRESS_DECODED, building the tracks after it. Building takes about
 * as long as decoding on real files. */
#define D9_PROGRESS_READ    0.5
#define D9_PROGRESS_DECODED 0.7
#define D9_PROGRESS_DECODING(f) (D9_PROGRESS_READ + (D9_PROGRESS_DECODED - D9_PROGRESS_READ) * (f))

G_END_DECLS
