/* kymo-dial9-decode.h: the dial9 decoder's parts, shared by its files
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-loader.h"

G_BEGIN_DECLS

/* Later segments are decoded speculatively on other threads while the
 * first is decoded for real (see d9_load): a part is everything from one
 * "TRC\0\1" candidate to the next one its decoder reaches exactly at a
 * frame boundary. Such a decoder has no trace: it interns names into a
 * table of its own and numbers its own named tracks; what would change
 * the trace directly (metadata, the first clock sync) it notes, and the
 * merge replays all of it in file order. */
typedef struct {
  const guint8 *data;
  gsize         size;
  gsize        *cands;       /* candidate offsets, ascending */
  guint         n_cands;
  GCancellable *cancellable; /* the job's, seen by the parts */
  gint          cancel;      /* atomic: the load was cancelled */
  gint          abandon;     /* atomic: the parts are not needed after all */
  gint          done_kb;     /* atomic: bytes decoded / 1024, for progress */
  D9Loader    **parts;       /* per candidate, once decoded (or NULL) */
  KymoLoadJob  *job;
  gboolean      streaming;   /* as the loader decodes */
  /* Files decoded while later ones inflate (kymo-dial9-load.c): part i is
   * file i + 1, which @fill inflates into its place first (FALSE: it did
   * not come out at the size its place was made for), and which is
   * decoded no further than its end. NULL otherwise. */
  gboolean    (*fill) (gpointer data,
                       guint    file);
  gpointer      fill_data;
} D9Shared;

typedef struct {
  guint32 pos;               /* flows of the part before it */
  guint32 order;             /* the poll's source in the part */
  D9Flow  flow;
} D9Insert;

/* A named track a part made: its local number is its index. */
typedef struct {
  guint32       name;        /* local name */
  KymoTrackKind kind;
} D9SpecTrack;

struct _D9Spec {
  gboolean    complete;      /* decoded cleanly up to end_cand or the end */
  guint       end_cand;      /* G_MAXUINT: the end of the data */
  gboolean    has_order;
  KymoTime    first_order_ts;
  GHashTable *names;         /* name → local id + 1 */
  GPtrArray  *strings;       /* local id → name */
  GArray     *notes;         /* D9TaskNote, per task */
  D9Map       unknown_wakers; /* task ids that woke while not known polled here */
  GArray     *tracks;        /* D9SpecTrack, in the order the part made them */
  GArray     *metas;         /* gsize: offsets of segment metadata entries */
  KymoTime    wall_ts;       /* of the first clock sync (has_wallclock) */
  /* Set by the merge. */
  guint32     ordinal_base;
  guint32    *name_map;
  guint32    *worker_map;
  guint32    *task_map;
  guint      *track_map;     /* local track → the trace's */
  gsize      *edges_at;      /* per worker: where its edges go in the loader's */
  gsize       wakes_at;
  GArray     *inserts;       /* D9Insert, by pos */
};


typedef struct {
  D9Status status;
  gsize    offset;
  guint    end_cand;  /* stopped at this candidate (a segment), or G_MAXUINT */
  char     message[160];
} D9Stop;


/* Below this a file is decoded on one thread. */
#define PARALLEL_MIN_BYTES (4 << 20)
/* Each page move splits a mapping or two; a process has some 65,000. */
#define MAX_PAGE_MOVES 4096

/* The arrays that parts contribute to, per worker and for the loader. */
enum {
  K_SPANS0,
  K_LQ,
  K_WAKES,
  K_INSTANTS,
  K_DEEP,
  K_N_WORKER_KINDS,
  K_WAKE_INSTANTS = K_N_WORKER_KINDS,
  K_FLOWS,
  K_N_KINDS,
};

static const gsize kind_size[K_N_KINDS] = {
  sizeof (KymoSpan), sizeof (KymoSample), sizeof (KymoInstant), sizeof (KymoInstant),
  sizeof (D9DeepSpan), sizeof (KymoInstant), sizeof (D9Flow),
};

/* One run of elements in the final array: the loader's own [from, to), or
 * what a merged part decoded (from 1 when its first sample is dropped). */
typedef struct {
  D9Loader *part;
  guint     worker;
  gsize     from;
  gsize     to;
} D9Piece;

/* Slot 0 holds the loader's own arrays, slot 1 + i worker i's. */
typedef struct {
  GArray **pieces;   /* per slot: runs of D9Piece[K_N_KINDS] */
  gsize  (*marks)[K_N_KINDS];
  guint    n_slots;
  gsize    part_wake_instants;
} D9Merge;

enum {
  MERGE_OK,
  MERGE_REJECT,    /* decode the part for real instead */
  MERGE_DISORDER,  /* the file is not in time order: start again */
};


/* What a merge leaves for building: the parts' flows. */
struct _D9Kept {
  D9Merge    m;
  D9Loader **parts;
  guint      n_parts;
  /* FALSE until d9_loader_assemble() has joined the parts' arrays (the
   * build makes the tracks first, so that the flows replay meanwhile). */
  gboolean   assembled;
};

/* Whether an event has the field of @role: @absent has a bit per field
 * the event left out. */
static inline gboolean
d9_field_present (const D9Model *model,
                  D9Role         role,
                  guint64        absent)
{
  gint8 f = model->field[role];
  return f >= 0 && !(absent >> f & 1);
}

/* kymo-dial9-schema.c: what Kymo makes of a schema. */
guint32   d9_intern_len          (D9Loader       *l,
                                  const char     *str,
                                  gssize          len);
void      d9_classify            (D9Loader       *l,
                                  const D9Schema *schema,
                                  D9Model        *model);
void      d9_apply_annotations   (D9Loader       *l,
                                  D9Model        *model,
                                  const D9Schema *schema,
                                  gsize           entries,
                                  guint16         count);

/* kymo-dial9-loader.c: a decode's loader. */
void      d9_loader_init         (D9Loader       *l,
                                  KymoLoadJob    *job,
                                  KymoTrace      *trace,
                                  D9Data         *d,
                                  GHashTable     *tracks_by_name,
                                  D9Spec         *spec);
void      d9_loader_clear        (D9Loader       *l);

/* kymo-dial9-meta.c: metadata events. */
/* Sets the trace's metadata from the entries of a SegmentMetadataEvent
 * at @p (a part notes @p instead). */
void      d9_meta_entries        (D9Loader       *l,
                                  gsize           p);
void      d9_meta_event          (D9Loader       *l,
                                  const D9Model  *model,
                                  const guint64  *vals,
                                  guint64         absent);
void      d9_symbol_event        (D9Loader       *l,
                                  const D9Model  *model,
                                  const guint64  *vals,
                                  guint64         absent);

/* kymo-dial9-decode.c: one pass over the frames. */
gboolean  d9_decode              (D9Loader       *l,
                                  D9Shared       *sh,
                                  gsize           start,
                                  guint           next_cand,
                                  D9Stop         *stop,
                                  GError        **error);

/* kymo-dial9-merge.c: parts decoded on their own, merged in order. */
extern const gsize d9_kind_size[K_N_KINDS];
guint     d9_parallel_threads    (D9Loader       *l);
void      d9_find_candidates     (D9Shared       *sh,
                                  guint           n_regions);
D9Loader *d9_spec_new            (D9Shared       *sh);
void      d9_spec_free           (D9Loader       *l);
/* Frees what part @l holds that its merge copied into the loader's. */
void      d9_spec_trim           (D9Loader       *l);
void      d9_spec_part           (guint           index,
                                  gpointer        data);
D9Vec    *d9_kind_vec            (D9Loader       *l,
                                  guint           worker,
                                  guint           kind);
GArray   *d9_kind_array          (D9Loader       *l,
                                  guint           worker,
                                  guint           kind);
gsize     d9_kind_len            (D9Loader       *l,
                                  guint           worker,
                                  guint           kind);
int       d9_merge_part          (D9Loader       *l,
                                  D9Loader       *c,
                                  D9Merge        *m);
/* Makes the places of a merged part's edges and wakes in @l's arrays.
 * @room: the elements each array has room for (gsize; slot 0 the wakes,
 * 1 + i worker i's edges); @parts_left: parts after @c, which are likely
 * to add as much. */
void      d9_unordered_reserve   (D9Loader       *l,
                                  D9Loader       *c,
                                  GArray         *room,
                                  guint           parts_left);
/* Fills them (on any thread, while @l's arrays do not grow). */
void      d9_unordered_copy      (D9Loader       *l,
                                  D9Loader       *c);

/* kymo-dial9-assemble.c: the merged parts' arrays joined in. */
void      d9_kept_free           (D9Kept         *kept);

static inline guint32
d9_map_name (const D9Spec *spec,
             guint32       name)
{
  return name < spec->strings->len ? spec->name_map[name] : name;
}

G_END_DECLS
