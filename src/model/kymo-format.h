/* kymo-format.h: what a format decoder provides, and what it may call
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-input.h"
#include "kymo-json-writer.h"
#include "kymo-trace.h"

G_BEGIN_DECLS

#define KYMO_LOAD_ERROR (kymo_load_error_quark ())

typedef enum {
  KYMO_LOAD_ERROR_UNKNOWN_FORMAT, /* not a trace Kymo reads */
  KYMO_LOAD_ERROR_CORRUPT,        /* damage the format cannot skip: decoding stopped */
  KYMO_LOAD_ERROR_TRUNCATED,      /* the input ends inside a record */
  KYMO_LOAD_ERROR_UNSUPPORTED,    /* a valid construct Kymo does not handle */
  KYMO_LOAD_ERROR_IO,
} KymoLoadError;

GQuark kymo_load_error_quark (void);

typedef struct _KymoLoadJob KymoLoadJob;

typedef struct {
  const char *format;      /* skip detection: "dial9", "rtc", "atf", "wtf", "tband" */
  const char *tband_mode;  /* "freertos", "bare-metal" or NULL for auto */
  gboolean    show_internal;
  /* Threads a load may use: 0 all the processors (a decoder may keep a
   * small input on one), 1 sequential, N exactly N where the format can
   * split its input. The result is the same for every value. */
  guint       threads;
  /* Publish partial traces while a big input loads (KymoLoader::preview);
   * the app asks for them, kymo-cli never does. */
  gboolean    preview;
} KymoLoadOptions;

/* The threads a load of @size bytes runs on, from @options->threads: 0
 * takes every processor once the input reaches @parallel_min bytes. */
guint kymo_load_options_get_threads (const KymoLoadOptions *options,
                                     gsize                  size,
                                     gsize                  parallel_min);

/* What a format's decoder makes of part of its input, for previews of a
 * load (KymoLoadOptions.preview). */
typedef enum {
  KYMO_FORMAT_PREVIEW_NONE   = 0,
  /* A prefix of a single file decodes to the start of its trace (the
   * decoder keeps everything before the cut). */
  KYMO_FORMAT_PREVIEW_PREFIX = 1 << 0,
  /* A folder's first files in name order, given as a list of files, decode
   * to the start of the folder's trace. */
  KYMO_FORMAT_PREVIEW_FILES  = 1 << 1,
} KymoFormatPreview;

struct _KymoFormat
{
  const char         *name;        /* "dial9": as --format= takes it */
  const char         *title;       /* "dial9 trace" (translatable, N_()) */
  const char * const *mime_types;
  const char * const *patterns;    /* glob patterns for the file chooser */

  /* How sure the format is that @input is its own: 0 no, 100 certain.
   * Content first; the name may break ties. Must be fast and never fail. */
  guint       (*detect)      (KymoInput          *input);
  /* Decodes into @trace (not sealed). On damage: sets @error, keeps every
   * event before it in @trace, returns FALSE. May seal the trace itself
   * (to build its link tables); the loader seals it otherwise. */
  gboolean    (*load)        (KymoLoadJob        *job,
                              KymoTrace          *trace,
                              GError            **error);
  /* Every record as JSON lines (../shared/specs/CLI.md). FALSE + @error when
   * decoding stopped at damage. */
  gboolean    (*dump)        (KymoLoadJob        *job,
                              KymoJsonWriter     *out,
                              GError            **error);
  /* Optional: arguments of one event, decoded from the input. */
  JsonObject *(*describe)    (KymoTrace          *trace,
                              const KymoEventRef *ref);
  /* Optional: the linked record. */
  gboolean    (*follow_link) (KymoTrace          *trace,
                              const KymoEventRef *from,
                              KymoEventRef       *to);
  KymoFormatPreview preview;
};

KymoInput             *kymo_load_job_get_input   (KymoLoadJob      *job);
const KymoLoadOptions *kymo_load_job_get_options (KymoLoadJob      *job);
GCancellable          *kymo_load_job_get_cancellable (KymoLoadJob  *job);
/* Cheap enough to call every few thousand records: reports progress (the
 * listener hears it a few times a second at most) and returns FALSE, with
 * G_IO_ERROR_CANCELLED set, once the load is cancelled. */
gboolean               kymo_load_job_progress    (KymoLoadJob      *job,
                                                  double            fraction,
                                                  const char       *message,
                                                  GError          **error);

/* Sets a KYMO_LOAD_ERROR "PATH: offset N: message" (offset left out when
 * KYMO_NO_OFFSET). */
void                   kymo_load_job_set_error   (KymoLoadJob      *job,
                                                  GError          **error,
                                                  KymoLoadError     code,
                                                  guint64           offset,
                                                  const char       *format,
                                                  ...) G_GNUC_PRINTF (5, 6);
/* Something the caller should hear that is not damage (a file of a folder
 * skipped, a later file's damage in a dump): a decoder never prints. A dump
 * hands these to its caller (kymo_dump_sync_full()); a load puts its own
 * into the trace (kymo_trace_add_warning()). */
void                   kymo_load_job_add_warning (KymoLoadJob      *job,
                                                  const char       *format,
                                                  ...) G_GNUC_PRINTF (2, 3);

G_END_DECLS
