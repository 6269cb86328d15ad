/* kymo-json-writer.h: streamed JSON with exact integers, for dump and export
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct _KymoJsonWriter KymoJsonWriter;

/* Writes to @out (not closed); or, with @out NULL, into a string kept in memory. */
KymoJsonWriter *kymo_json_writer_new          (FILE           *out);
void            kymo_json_writer_free         (KymoJsonWriter *self);
/* The text written so far when writing to memory (borrowed). */
const char     *kymo_json_writer_get_string   (KymoJsonWriter *self);
/* Keep at most this many bytes of pretty-less output before flushing. */
gboolean        kymo_json_writer_flush        (KymoJsonWriter *self);

void            kymo_json_writer_begin_object (KymoJsonWriter *self);
void            kymo_json_writer_end_object   (KymoJsonWriter *self);
void            kymo_json_writer_begin_array  (KymoJsonWriter *self);
void            kymo_json_writer_end_array    (KymoJsonWriter *self);
void            kymo_json_writer_key          (KymoJsonWriter *self,
                                               const char     *key);
void            kymo_json_writer_int          (KymoJsonWriter *self,
                                               gint64          value);
void            kymo_json_writer_uint         (KymoJsonWriter *self,
                                               guint64         value);
/* Non-finite values print as "NaN", "Infinity", "-Infinity". */
void            kymo_json_writer_double       (KymoJsonWriter *self,
                                               double          value);
/* A time in ns as microseconds with the nanoseconds kept: 1234567 → 1234.567 */
void            kymo_json_writer_ns_as_us     (KymoJsonWriter *self,
                                               gint64          ns);
void            kymo_json_writer_bool         (KymoJsonWriter *self,
                                               gboolean        value);
void            kymo_json_writer_null         (KymoJsonWriter *self);
/* Invalid UTF-8 becomes U+FFFD. @len may be -1 for a NUL-terminated string. */
void            kymo_json_writer_string       (KymoJsonWriter *self,
                                               const char     *str,
                                               gssize          len);
void            kymo_json_writer_hex          (KymoJsonWriter *self,
                                               const guint8   *data,
                                               gsize           len);
void            kymo_json_writer_node         (KymoJsonWriter *self,
                                               JsonNode       *node);
/* Ends a JSON-lines record: writes a newline. */
void            kymo_json_writer_end_line     (KymoJsonWriter *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoJsonWriter, kymo_json_writer_free)

G_END_DECLS
