/* kymo-atf-private.h: what the ATF decoder's files share
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-format.h"

G_BEGIN_DECLS

#define ATF_HEADER_SIZE  64
#define ATF_FOOTER_SIZE  64
#define ATF_EVENT_SIZE   32
#define ATF_DETAIL_HEAD  24
#define ATF_RING_LENGTH  540
#define ATF_NO_SEQ       G_MAXUINT32
/* Deeper calls than this are counted, not drawn (the model's depth limit). */
#define ATF_MAX_DEPTH    4096

/* Where a file stopped being readable: becomes "PATH: offset N: message". */
typedef struct {
  KymoLoadError code;
  guint64       offset;
  char         *message;   /* NULL: no damage */
} AtfDamage;

void     _kymo_atf_damage_set     (AtfDamage     *damage,
                                   KymoLoadError  code,
                                   guint64        offset,
                                   const char    *format,
                                   ...) G_GNUC_PRINTF (4, 5);
void     _kymo_atf_damage_clear   (AtfDamage     *damage);
void     _kymo_atf_damage_to_error (const AtfDamage *damage,
                                    const char      *path,
                                    GError         **error);

/* index.atf, read in place. */
typedef struct {
  const guint8 *data;
  gsize         size;
  guint8        arch;
  guint8        os;
  guint8        clock_type;
  guint32       flags;
  guint32       thread_id;
  const guint8 *events;      /* n_events × 32 bytes inside data */
  guint32       n_events;
  gboolean      has_footer;
} AtfIndexFile;

/* FALSE when not even the header is usable; @damage says why. TRUE with
 * @damage set when the events stop early (the ones before it are usable). */
gboolean _kymo_atf_index_parse    (AtfIndexFile  *file,
                                   const guint8  *data,
                                   gsize          size,
                                   AtfDamage     *damage);

static inline const guint8 *
_kymo_atf_index_event (const AtfIndexFile *file,
                       guint32             seq)
{
  return file->events + (gsize) seq * ATF_EVENT_SIZE;
}

/* detail.atf: records found by walking total_length. */
typedef struct {
  const guint8 *data;
  gsize         size;
  guint8        arch;
  guint32       thread_id;
  guint64      *offsets;     /* [n_records] */
  guint32       n_records;
  gboolean      has_footer;
} AtfDetailFile;

gboolean _kymo_atf_detail_parse   (AtfDetailFile *file,
                                   const guint8  *data,
                                   gsize          size,
                                   AtfDamage     *damage);
void     _kymo_atf_detail_clear   (AtfDetailFile *file);

typedef struct {
  guint32       length;
  guint16       event_type;
  guint16       flags;
  guint32       index_seq;
  guint32       thread_id;
  guint64       ts;
  /* Decoded payload, when it has a known layout. */
  gboolean      has_payload;
  gboolean      ring_layout;
  gboolean      has_depth;
  guint32       depth;
  guint64       function_id;
  guint64       x[8];
  guint64       lr;
  guint64       fp;
  guint64       sp;
  const guint8 *stack;
  gsize         stack_len;
} AtfDetailRecord;

void     _kymo_atf_detail_get     (const AtfDetailFile *file,
                                   guint32              seq,
                                   AtfDetailRecord     *record);

#define ATF_MAX_REGS 11
/* Register names by arch and event type (see CLI.md); returns how many. */
guint    _kymo_atf_detail_regs    (guint8                 arch,
                                   const AtfDetailRecord *record,
                                   const char           **names,
                                   guint64               *values);
const char *_kymo_atf_event_name  (guint32                kind);

/* manifest.json of a pid folder. */
typedef struct {
  GArray    *function_ids;   /* guint64 */
  GPtrArray *names;          /* char*, parallel to function_ids */
  char      *format_version;
  guint      n_modules;
  guint      n_threads;
} AtfManifest;

void     _kymo_atf_manifest_init  (AtfManifest   *manifest);
void     _kymo_atf_manifest_clear (AtfManifest   *manifest);
gboolean _kymo_atf_manifest_parse (AtfManifest   *manifest,
                                   const char    *data,
                                   gsize          size,
                                   GError       **error);
/* The folder an .adabundle manifest's trace_session (or trace_root) names,
 * when it stays inside @bundle_dir; NULL with @error otherwise. */
char    *_kymo_atf_bundle_target  (const char    *data,
                                   gsize          size,
                                   const char    *bundle_dir,
                                   GError       **error);
/* What a manifest.json is, from a quick look at its text. */
typedef enum {
  ATF_JSON_NONE,
  ATF_JSON_SESSION,
  ATF_JSON_BUNDLE,
} AtfJsonKind;
AtfJsonKind _kymo_atf_json_kind   (const guint8  *data,
                                   gsize          size);

/* The threads and processes an input holds, found by listing folders. */
typedef struct {
  guint     number;          /* N of thread_N, or the header's thread_id */
  char     *index_path;      /* NULL when missing */
  char     *detail_path;     /* NULL when missing */
  GBytes   *index_bytes;     /* preloaded (the input itself), or NULL */
  GBytes   *detail_bytes;    /* preloaded, or NULL */
} AtfThreadSource;

typedef struct {
  gint64     pid;            /* -1 when unknown */
  char      *dir;            /* NULL for memory input */
  char      *manifest_path;  /* NULL when absent */
  GPtrArray *threads;        /* AtfThreadSource*, ascending number */
} AtfProcessSource;

/* NULL with @error when @input holds no ATF session. */
GPtrArray *_kymo_atf_discover     (KymoInput     *input,
                                   GError       **error);

/* Maps @path; NULL with a warning-worthy @error. */
GBytes    *_kymo_atf_map          (const char    *path,
                                   GError       **error);

/* kymo-atf-dump.c */
gboolean   _kymo_atf_dump         (KymoLoadJob    *job,
                                   KymoJsonWriter *out,
                                   GError        **error);
/* kymo-atf-describe.c */
JsonObject *_kymo_atf_describe    (KymoTrace          *trace,
                                   const KymoEventRef *ref);
gboolean   _kymo_atf_follow_link  (KymoTrace          *trace,
                                   const KymoEventRef *from,
                                   KymoEventRef       *to);

/* The per-thread state a loaded trace keeps (kymo_trace_get_format_data). */
typedef struct {
  guint          number;
  gint64         pid;
  GBytes        *index_bytes;
  GBytes        *detail_bytes;
  AtfIndexFile   index;
  AtfDetailFile  detail;
  guint          track;
  guint          detail_track;   /* KYMO_NO_TRACK without detail records */
  /* detail_seq → instant index on detail_track */
  guint32       *det_instant;
  /* detail_seq → span index on track, or ATF_TARGET_INSTANT | instant
   * index (an exception), or ATF_NO_SEQ */
  guint32       *det_target;
  /* span index + 1 → RETURN index_seq + 1, for linked spans only */
  GHashTable    *ret_links;
} AtfThread;

#define ATF_TARGET_INSTANT 0x80000000u

typedef struct {
  GPtrArray *threads;            /* AtfThread* */
  GArray    *track_thread;       /* guint per track id: thread index or G_MAXUINT */
} AtfData;

void       _kymo_atf_thread_free  (gpointer data);
AtfThread *_kymo_atf_data_lookup  (AtfData  *data,
                                   guint     track,
                                   gboolean *is_detail_track);
/* Whether index record @index_seq and detail record @detail_seq name each other. */
gboolean   _kymo_atf_linked       (const AtfThread *thread,
                                   guint32          index_seq,
                                   guint32          detail_seq);
/* "<0x%016x>": the name of a function the manifest does not resolve. */
char      *_kymo_atf_unresolved   (guint64 function_id);

void       _kymo_atf_process_source_free (gpointer data);

G_END_DECLS
