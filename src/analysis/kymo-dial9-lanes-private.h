/* kymo-dial9-lanes-private.h: the workers' active periods, made from the
 * CPU readings a pass over the records collects
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-lanes.h"
#include "kymo-parts.h"
#include "kymo-records.h"

G_BEGIN_DECLS

typedef struct {
  KymoTime cpu;
  KymoTime active;
} KymoCpuSums;

struct _KymoDial9Lanes
{
  guint    n_tracks;
  GArray **periods;   /* [n_tracks]: KymoCpuPeriod, or NULL */
  GArray **sums;      /* [n_tracks]: KymoCpuSums before each period, and the total */
  GArray **samples;   /* [n_tracks]: KymoTime, or NULL */
  gboolean has_cpu;
};

/* A "cpu" record as the periods read it; whether it is an unpark is kept
 * beside it, in a byte: the readings are most of the memory the lanes
 * take while they are made, each page of it faulting in once. */
typedef struct {
  KymoTime ts;
  guint64  clock;
} KymoCpuReading;

/* The readings of one part of the records, per track, in record order:
 * a part is read on one thread, and the parts' readings of a track
 * follow each other in part order. */
typedef struct {
  guint            n_tracks;
  guint32          kind_cpu;   /* G_MAXUINT32: the trace has no readings */
  guint32          name_unpark;
  KymoCpuReading **of_track;   /* [n_tracks], NULL for none */
  guint8         **unpark;     /* [n_tracks]: per reading, whether it is an unpark */
  gsize           *len;
  gsize           *cap;
  gsize            room;       /* a track's first room, from the part's size */
  GArray         **breaks;     /* [n_tracks]: gsize, where the time goes back, or NULL */
} KymoCpuReadings;

/* @n_records: the part's records, of which about an eighth are a
 * worker's readings in dial9 traces. */
void            _kymo_cpu_readings_init        (KymoCpuReadings *readings,
                                                KymoTrace       *trace,
                                                gsize            n_records);
void            _kymo_cpu_readings_clear       (KymoCpuReadings *readings);
void            _kymo_cpu_readings_grow        (KymoCpuReadings *readings,
                                                guint            track);
void            _kymo_cpu_readings_note_break  (KymoCpuReadings *readings,
                                                guint            track);

/* Adds @record, a "cpu" record (see kymo-records.h). */
static inline void
_kymo_cpu_readings_add (KymoCpuReadings  *readings,
                        const KymoRecord *record)
{
  guint t = record->track;
  KymoCpuReading *r;

  if (t >= readings->n_tracks)
    return;
  if (G_UNLIKELY (readings->len[t] == readings->cap[t]))
    _kymo_cpu_readings_grow (readings, t);
  /* Noted here, where the previous reading is still in cache, rather than
   * found by a pass over them all. */
  if (G_UNLIKELY (readings->len[t] > 0 && record->ts < readings->of_track[t][readings->len[t] - 1].ts))
    _kymo_cpu_readings_note_break (readings, t);
  readings->unpark[t][readings->len[t]] = record->name == readings->name_unpark;
  r = &readings->of_track[t][readings->len[t]++];
  r->ts = record->ts;
  r->clock = record->value;
}

/* The lanes from the readings of @n_parts parts (cleared as they are
 * used), the tracks on the parts' threads. @meanwhile (may be NULL) runs
 * on the calling thread while the other threads start on the tracks:
 * work of one thread that does not read the readings, such as putting
 * the points of interest in order, then costs no time of its own. */
KymoDial9Lanes *_kymo_dial9_lanes_new_from_readings (KymoTrace         *trace,
                                                     KymoCpuReadings   *parts,
                                                     guint              n_parts,
                                                     KymoPartStartFunc  meanwhile,
                                                     gpointer           meanwhile_data);

G_END_DECLS
