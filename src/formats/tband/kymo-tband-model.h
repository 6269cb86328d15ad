/* kymo-tband-model.h: Tonbandgerät events as core, task, ISR and marker lanes
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-trace.h"
#include "kymo-tband-events.h"

G_BEGIN_DECLS

/* More cores than this in a core_id event is treated as damage. */
#define KYMO_TBAND_MAX_CORES 1024

typedef struct _KymoTbandModel KymoTbandModel;

KymoTbandModel *kymo_tband_model_new      (KymoTrace            *trace);
void            kymo_tband_model_free     (KymoTbandModel       *self);

/* Feeds one event of @core in time order. @source is what spans and
 * instants made from it carry; @offset is where it is for warnings. */
void            kymo_tband_model_event    (KymoTbandModel       *self,
                                           guint                 core,
                                           const KymoTbandEvent *event,
                                           guint32               source,
                                           guint64               offset);
/* A decoded frame as the load hands it over: small, as millions of them
 * go from the decoding thread to the model, from one processor's cache to
 * the other's. */
typedef enum {
  KYMO_TBAND_RECORD_EVENT,      /* a timed event with at most two fields, each below 256 */
  KYMO_TBAND_RECORD_FULL,       /* any other event (kept beside the record) */
  KYMO_TBAND_RECORD_BAD,        /* a frame that did not decode */
  KYMO_TBAND_RECORD_BAD_CORE,   /* a core_id event with a core out of range */
  KYMO_TBAND_RECORD_UNFINISHED, /* bytes at the end of a stream without a closing 0x00 */
  KYMO_TBAND_RECORD_SWITCH,     /* the records after it are on another core or stream */
} KymoTbandRecordKind;

typedef struct {
  guint64 ts;
  guint32 at;         /* EVENT: its offset from the run's; others: what is kept beside */
  guint8  kind;       /* KymoTbandRecordKind */
  guint8  id;
  guint8  v0;
  guint8  v1;
} KymoTbandRecord;

/* Where a run of EVENT records is. */
typedef struct {
  guint   core;
  guint64 offset_base;   /* a record's offset in its stream is offset_base + at */
  guint64 source_base;   /* its source is source_base + its offset (none past 32 bits) */
} KymoTbandRun;

/* Feeds the leading KYMO_TBAND_RECORD_EVENT records of @records, all in
 * @run, as kymo_tband_model_event() would; returns how many. */
guint           kymo_tband_model_records  (KymoTbandModel        *self,
                                           const KymoTbandRecord *records,
                                           guint                  n,
                                           const KymoTbandRun    *run);
/* How far the load is (@done of @total input bytes): busy tracks reserve
 * room for what the rest of the input will bring at the same rate. */
void            kymo_tband_model_set_progress (KymoTbandModel   *self,
                                           guint64               done,
                                           guint64               total);
/* Called with the part of an array the model will write next, for another
 * thread to populate its pages. */
typedef void (*KymoTbandPopulateFunc) (gpointer at,
                                       gsize    len,
                                       gpointer user_data);

void            kymo_tband_model_set_populate (KymoTbandModel   *self,
                                           KymoTbandPopulateFunc func,
                                           gpointer              user_data);
/* A frame that did not decode: a warning marker on @core's lane. */
void            kymo_tband_model_invalid  (KymoTbandModel       *self,
                                           guint                 core,
                                           guint64               offset,
                                           const char           *reason);
/* A capped trace warning (the model's own warnings count against the cap). */
void            kymo_tband_model_warn     (KymoTbandModel       *self,
                                           guint64               offset,
                                           const char           *format,
                                           ...) G_GNUC_PRINTF (3, 4);
/* Closes what is still open at the end of the trace and names the tracks. */
void            kymo_tband_model_finish   (KymoTbandModel       *self);

gboolean        kymo_tband_model_is_freertos (KymoTbandModel    *self);
guint           kymo_tband_model_n_cores  (KymoTbandModel       *self);
guint64         kymo_tband_model_resolution (KymoTbandModel     *self);

/* Names as they stand after the load (NULL when never named). */
const char     *kymo_tband_model_task_name  (KymoTbandModel     *self,
                                             guint32             task_id);
const char     *kymo_tband_model_queue_name (KymoTbandModel     *self,
                                             guint32             queue_id);
const char     *kymo_tband_model_isr_name   (KymoTbandModel     *self,
                                             guint32             isr_id);

G_END_DECLS
