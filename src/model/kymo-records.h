/* kymo-records.h: numbers a format read from records, kept for analyses
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-types.h"

G_BEGIN_DECLS

typedef struct _KymoRecords KymoRecords;

/* One record of interest, with the entity it is about: analyses (tasks,
 * points of interest) read these instead of decoding the format again.
 * dial9 kinds: "poll" (key: task id, value: local queue depth), "wake"
 * (key: woken task, value: waking task, 0 when none), "spawn" (key: task
 * id, value: 1 when instrumented, name: spawn location), "terminate" (key:
 * task id), "unpark" (key: worker id, value: kernel scheduling wait in
 * ns), "cpu" (key: worker id, value: the worker thread's CPU clock in ns,
 * at each park and unpark that carries it; name: "park" or "unpark";
 * track: the worker's lane). */
typedef struct {
  KymoTime ts;
  guint64  key;
  guint64  value;
  guint32  kind;     /* interned */
  guint32  name;     /* interned text, or 0 */
  guint32  track;    /* where the record shows, or KYMO_NO_TRACK */
  guint32  source;   /* the record's source, as in spans and instants */
} KymoRecord;

/* Building (before kymo_trace_seal(), one thread). */
void              kymo_records_add     (KymoRecords      *self,
                                        const KymoRecord *records,
                                        gsize             n_records);

/* Adopts @records (g_malloc()ed, @n_records of them) when there are none
 * yet, else appends a copy and frees them. */
void              kymo_records_take    (KymoRecords      *self,
                                        KymoRecord       *records,
                                        gsize             n_records);
/* kymo_records_take() of records the caller knows are in source order
 * already (non-decreasing): sealing then reads them not at all. */
void              kymo_records_take_sorted (KymoRecords  *self,
                                            KymoRecord   *records,
                                            gsize         n_records);

/* In source order once the trace is sealed. */
const KymoRecord *kymo_records_get_all (KymoRecords      *self,
                                        gsize            *n_records);
/* The first record of @source, or NULL. */
const KymoRecord *kymo_records_find    (KymoRecords      *self,
                                        guint32           source);

G_END_DECLS
