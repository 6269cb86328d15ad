/* kymo-tband-input.h: the byte streams (one per core file) an input holds
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-format.h"
#include "kymo-tband-events.h"
#include "kymo-tband-text.h"

G_BEGIN_DECLS

typedef struct {
  char              *path;      /* for messages */
  int                core;      /* the file's core, or -1: core 0 until a core_id event */
  KymoTbandEncoding  encoding;
  GBytes            *owned;     /* decoded text; NULL when data points into the input */
  const guint8      *data;      /* the decoded byte stream */
  gsize              size;
  guint64            base;      /* where the stream starts in event source numbering */

  /* Text that stopped decoding: frames before it are still read. */
  GError            *stop;
} KymoTbandStream;

typedef struct {
  KymoInput     *input;         /* keeps binary streams' bytes alive */
  GPtrArray     *streams;       /* KymoTbandStream* */
  KymoTbandMode  mode;          /* from the options, or the demo JSON */
} KymoTbandStreams;

/* FALSE (with @error) only when the options or the input cannot be used at
 * all; damage in a stream is kept in its ->stop. */
KymoTbandStreams *kymo_tband_streams_open  (KymoInput              *input,
                                            const KymoLoadOptions  *options,
                                            GError                **error);
void              kymo_tband_streams_free  (KymoTbandStreams       *self);
/* The stream that holds @source (an event's source), with *offset into it. */
KymoTbandStream  *kymo_tband_streams_find  (KymoTbandStreams       *self,
                                            guint32                 source,
                                            gsize                  *offset);
/* "freertos", "bare-metal" or NULL (auto); FALSE for anything else. */
gboolean          kymo_tband_parse_mode    (const char             *text,
                                            KymoTbandMode          *mode);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoTbandStreams, kymo_tband_streams_free)

G_END_DECLS
