/* kymo-wtf-private.h: shared by the Web Tracing Framework decoder's files
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "kymo-format.h"

G_BEGIN_DECLS

/* Argument types of a `wtf.event#define` signature. */
typedef enum {
  WTF_TYPE_UNKNOWN,
  WTF_TYPE_BOOL,
  WTF_TYPE_INT8,
  WTF_TYPE_UINT8,
  WTF_TYPE_INT16,
  WTF_TYPE_UINT16,
  WTF_TYPE_INT32,
  WTF_TYPE_UINT32,
  WTF_TYPE_FLOAT32,
  WTF_TYPE_ASCII,
  WTF_TYPE_UTF8,
  WTF_TYPE_CHAR,
  WTF_TYPE_WCHAR,
  WTF_TYPE_ANY,
  WTF_TYPE_FLOWID,
  WTF_TYPE_TIME32,
} WtfType;

#define WTF_CLASS_INSTANCE 0
#define WTF_CLASS_SCOPE    1

#define WTF_FLAG_HIGH_FREQUENCY    0x02
#define WTF_FLAG_SYSTEM_TIME       0x04
#define WTF_FLAG_INTERNAL          0x08
#define WTF_FLAG_APPEND_SCOPE_DATA 0x10
#define WTF_FLAG_BUILTIN           0x20
#define WTF_FLAG_APPEND_FLOW_DATA  0x40

/* What the model does with an event type, decided once at its define. */
typedef enum {
  WTF_KIND_GENERIC,
  WTF_KIND_DEFINE,
  WTF_KIND_DISCONTINUITY,
  WTF_KIND_ZONE_CREATE,
  WTF_KIND_ZONE_DELETE,
  WTF_KIND_ZONE_SET,
  WTF_KIND_SCOPE_ENTER,
  WTF_KIND_SCOPE_ENTER_TRACING,
  WTF_KIND_SCOPE_LEAVE,
  WTF_KIND_APPEND_DATA,
  WTF_KIND_FLOW_BRANCH,
  WTF_KIND_FLOW_EXTEND,
  WTF_KIND_FLOW_TERMINATE,
  WTF_KIND_FLOW_APPEND,
  WTF_KIND_MARK,
  WTF_KIND_TIMESTAMP,
  WTF_KIND_TIME_RANGE_BEGIN,
  WTF_KIND_TIME_RANGE_END,
  WTF_KIND_FRAME_START,
  WTF_KIND_FRAME_END,
} WtfKind;

typedef struct {
  char    *name;
  guint8   type;      /* WtfType */
  guint8   is_array;
} WtfArg;

typedef struct _WtfEventType WtfEventType;
struct _WtfEventType
{
  guint16       wire_id;
  guint16       klass;
  guint32       flags;
  char         *name;
  char         *signature;     /* NULL when the define had none */
  WtfArg       *args;
  guint         n_args;
  WtfKind       kind;
  gboolean      sizable;       /* FALSE: an argument type is unknown */
  /* Bytes of arguments when every one has a fixed size, else -1. */
  gint          fixed_legacy;
  gint          fixed_binary;
  guint32       name_id;       /* interned while loading; 0 before */
  guint64       define_offset; /* where the define was, to pick the right
                                * one when a wire id is defined again */
  WtfEventType *older;         /* the previous define of the same wire id */
};

/* Every define, indexed by wire id; owns its types. */
typedef struct {
  GPtrArray     *all;          /* of WtfEventType*, owned */
  WtfEventType **by_wire;      /* 65536 entries */
} WtfTypeTable;

WtfTypeTable *wtf_type_table_new        (void);
void          wtf_type_table_free       (WtfTypeTable *table);
/* Adds a define (@signature may be NULL); the newest one for a wire id wins. */
WtfEventType *wtf_type_table_define     (WtfTypeTable *table,
                                         guint16       wire_id,
                                         guint16       klass,
                                         guint32       flags,
                                         const char   *name,
                                         gssize        name_len,
                                         const char   *signature,
                                         gssize        signature_len,
                                         guint64       define_offset);
/* The define in force for @wire_id at @offset, or NULL. */
WtfEventType *wtf_type_table_lookup_at  (WtfTypeTable *table,
                                         guint32       wire_id,
                                         guint64       offset);

/* How an event buffer is encoded. */
typedef enum {
  WTF_ENC_LEGACY_BE,   /* real legacy files and CFF legacy parts (float32 LE) */
  WTF_ENC_LEGACY_LE,   /* the legacy layout as wtf-trace.md states it */
  WTF_ENC_BINARY,      /* CFF binary event buffer: 4-byte LE slots */
} WtfEncoding;

/* One run of events plus the string table they may refer to. */
typedef struct {
  const guint8 *data;          /* the whole input */
  gsize         start;         /* absolute offsets of the events */
  gsize         end;
  WtfEncoding   enc;
  gsize         strtab_start;  /* absolute; strtab_size 0 for none */
  gsize         strtab_size;
  const guint32 *str_offsets;  /* n_strings + 1 entries, relative */
  guint         n_strings;
} WtfBuffer;

/* A value read from the wire, pointing into the input. */
typedef struct {
  guint8   type;               /* WtfType */
  guint8   is_array;
  guint8   is_null;
  union {
    gint64   i;
    guint64  u;
    double   f;
    struct {
      const char *str;
      gsize       len;
      guint32     ordinal;     /* G_MAXUINT32 when inline */
    } s;
    struct {
      gsize    pos;            /* absolute offset of the first element */
      guint32  count;
    } a;
  };
} WtfValue;

typedef enum {
  WTF_READ_OK,
  WTF_READ_TRUNCATED,
  WTF_READ_BAD_STRING,
} WtfReadStatus;

/* Builds str_offsets for the table part at [start, start+size); @offsets is
 * reused between calls. */
void          wtf_buffer_set_strings    (WtfBuffer    *buffer,
                                         gsize         start,
                                         gsize         size,
                                         GArray       *offsets);
/* Reads one argument at *@pos (absolute), moving *@pos past it. */
WtfReadStatus wtf_read_value            (const WtfBuffer *buffer,
                                         const WtfArg    *arg,
                                         gsize           *pos,
                                         WtfValue        *value);
/* Reads the elements of an array value one at a time: start with
 * *@pos = value->a.pos. */
WtfReadStatus wtf_read_element          (const WtfBuffer *buffer,
                                         guint8           type,
                                         gsize           *pos,
                                         WtfValue        *value);
/* Moves *@pos past all arguments of @type. */
WtfReadStatus wtf_skip_args             (const WtfBuffer    *buffer,
                                         const WtfEventType *type,
                                         gsize              *pos);
/* Reads the event header at *@pos. */
gboolean      wtf_read_event_header     (const WtfBuffer *buffer,
                                         gsize           *pos,
                                         guint32         *wire_id,
                                         guint32         *time);

/* JSON of values (dump and describe). */
void          wtf_value_write           (const WtfBuffer *buffer,
                                         const WtfValue  *value,
                                         KymoJsonWriter  *out);
JsonNode     *wtf_value_to_node         (const WtfBuffer *buffer,
                                         const WtfValue  *value);

/* The file walk shared by load, dump and describe. */
typedef struct _WtfWalker WtfWalker;

typedef struct {
  guint64             offset;  /* of the event header */
  guint32             wire_id;
  guint32             time;
  const WtfEventType *type;
  const WtfBuffer    *buffer;
  gsize               args_pos;
  gsize               args_end;
} WtfEvent;

typedef struct {
  /* A define was read and added to the table (@type is the new one). */
  gboolean (*define)    (WtfWalker *walker, const WtfEvent *event, const WtfEventType *type,
                         gpointer user_data, GError **error);
  /* Any other event. */
  gboolean (*event)     (WtfWalker *walker, const WtfEvent *event,
                         gpointer user_data, GError **error);
  /* The header's JSON strings (either may be NULL), raw. */
  void     (*header)    (WtfWalker *walker, const char *variant, guint32 wtf_version,
                         guint32 flags, gint64 timebase_ms,
                         const char *context_json, gsize context_len,
                         const char *metadata_json, gsize metadata_len,
                         JsonObject *cff_header, gpointer user_data);
  /* Each event buffer, before its events. */
  void     (*buffer)    (WtfWalker *walker, const WtfBuffer *buffer, gpointer user_data);
} WtfWalkerFuncs;

struct _WtfWalker
{
  KymoLoadJob          *job;     /* for errors and progress; may be NULL */
  const guint8         *data;
  gsize                 size;
  WtfTypeTable         *types;   /* owned */
  const WtfWalkerFuncs *funcs;
  gpointer              user_data;
  GArray               *str_offsets;
  const char           *path;
};

/* Detects the variant from the first bytes: "legacy-be", "legacy-le",
 * "chunked", or NULL. */
const char   *wtf_detect_variant        (const guint8 *data,
                                         gsize         size);
void          wtf_walker_init           (WtfWalker            *walker,
                                         KymoLoadJob          *job,
                                         const guint8         *data,
                                         gsize                 size,
                                         const char           *path,
                                         const WtfWalkerFuncs *funcs,
                                         gpointer              user_data);
void          wtf_walker_clear          (WtfWalker            *walker);
/* Walks the whole input. FALSE + @error at damage (after calling back for
 * every event before it). */
gboolean      wtf_walker_run            (WtfWalker            *walker,
                                         GError              **error);
/* Sets a load error at @offset (works without a job, for describe). */
void          wtf_walker_error          (WtfWalker            *walker,
                                         GError              **error,
                                         KymoLoadError         code,
                                         guint64               offset,
                                         const char           *format,
                                         ...) G_GNUC_PRINTF (5, 6);

/* Model building (kymo-wtf-model.c). */
gboolean      wtf_load_model            (KymoLoadJob  *job,
                                         KymoTrace    *trace,
                                         GError      **error);
/* On-demand arguments (kymo-wtf-model.c). */
JsonObject   *wtf_describe              (KymoTrace          *trace,
                                         const KymoEventRef *ref);

G_END_DECLS
