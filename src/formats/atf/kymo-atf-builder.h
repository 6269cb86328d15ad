/* kymo-atf-builder.h: writes ATF v2 index and detail images
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Our own writer, used by the demo generator, the tests, the fuzz corpus and
 * the benchmark. It only needs GLib, so the demo tool can compile it in
 * without the model library.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define KYMO_ATF_NO_DETAIL   G_MAXUINT32

#define KYMO_ATF_ARCH_X86_64 1
#define KYMO_ATF_ARCH_ARM64  2

#define KYMO_ATF_CALL        1
#define KYMO_ATF_RETURN      2
#define KYMO_ATF_EXCEPTION   3

/* Detail event types */
#define KYMO_ATF_DETAIL_CALL   3
#define KYMO_ATF_DETAIL_RETURN 4

typedef enum {
  /* The 540-byte record the real drain thread writes (516-byte payload). */
  KYMO_ATF_PAYLOAD_RING,
  /* The spec's DetailFunctionPayload: 100 bytes, then the stack bytes. */
  KYMO_ATF_PAYLOAD_SPEC,
} KymoAtfPayloadLayout;

typedef struct {
  guint       thread_id;
  guint8      arch;
  guint8      os;
  GByteArray *index;     /* header + events (footer added by _finish) */
  GByteArray *detail;    /* header + events, or NULL before the first detail */
  guint32     n_index;
  guint32     n_detail;
  guint64     index_first_ts;
  guint64     index_last_ts;
  guint64     detail_first_ts;
  guint64     detail_last_ts;
} KymoAtfThreadBuilder;

typedef struct {
  guint64 x[8];          /* x0–x7, or rdi rsi rdx rcx r8 r9 rbp rsp (CALL) / rax (RETURN) */
  guint64 lr;
  guint64 fp;
  guint64 sp;
} KymoAtfRegs;

void      kymo_atf_builder_init         (KymoAtfThreadBuilder *self,
                                         guint                 thread_id,
                                         guint8                arch);
void      kymo_atf_builder_clear        (KymoAtfThreadBuilder *self);
/* Appends an index event; returns its index_seq. */
guint32   kymo_atf_builder_add_index    (KymoAtfThreadBuilder *self,
                                         guint64               ts,
                                         guint64               function_id,
                                         guint32               kind,
                                         guint32               call_depth,
                                         guint32               detail_seq);
/* Appends a detail event linked back to @index_seq; returns its detail_seq. */
guint32   kymo_atf_builder_add_detail   (KymoAtfThreadBuilder *self,
                                         KymoAtfPayloadLayout  layout,
                                         guint32               index_seq,
                                         guint32               kind,
                                         guint64               ts,
                                         guint64               function_id,
                                         guint32               call_depth,
                                         const KymoAtfRegs    *regs,
                                         const guint8         *stack,
                                         gsize                 stack_len);
/* One call with a detail record on both ends, the way the spec links them. */
guint32   kymo_atf_builder_add_linked   (KymoAtfThreadBuilder *self,
                                         KymoAtfPayloadLayout  layout,
                                         guint64               ts,
                                         guint64               function_id,
                                         guint32               kind,
                                         guint32               call_depth,
                                         const KymoAtfRegs    *regs,
                                         const guint8         *stack,
                                         gsize                 stack_len);
/* Final images. With @footer FALSE the header keeps event_count 0 and
 * footer_offset 64, as a writer that crashed leaves it. */
GBytes   *kymo_atf_builder_index_bytes  (KymoAtfThreadBuilder *self,
                                         gboolean              footer);
GBytes   *kymo_atf_builder_detail_bytes (KymoAtfThreadBuilder *self,
                                         gboolean              footer);
/* Writes thread_<id>/index.atf (and detail.atf when there are details)
 * under @pid_dir. */
gboolean  kymo_atf_builder_write        (KymoAtfThreadBuilder *self,
                                         const char           *pid_dir,
                                         gboolean              footer,
                                         GError              **error);

/* module_id as the real writer computes it: FNV-1a-32 of the lower-cased path. */
guint32   kymo_atf_module_id            (const char           *path);

G_END_DECLS
