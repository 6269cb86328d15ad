/* kymo-tband-text.h: Tonbandgerät streams written as hex or base64 text
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  KYMO_TBAND_ENCODING_BINARY,
  KYMO_TBAND_ENCODING_HEX,     /* whitespace ignored, "==== … ====" lines stripped */
  KYMO_TBAND_ENCODING_BASE64,
  KYMO_TBAND_ENCODING_JSON,    /* the web converter's demo: {"data":[{"core_id","hex"}]} */
} KymoTbandEncoding;

/* Looks at the first 4 KiB only. */
KymoTbandEncoding kymo_tband_guess_encoding (const guint8 *data,
                                             gsize         size);
const char       *kymo_tband_encoding_name  (KymoTbandEncoding encoding);

typedef enum {
  KYMO_TBAND_TEXT_OK,
  KYMO_TBAND_TEXT_BAD_CHAR,   /* *bad_offset: a character that does not belong */
  KYMO_TBAND_TEXT_TRUNCATED,  /* the text ends inside a byte */
} KymoTbandTextResult;

/* Decode @size bytes of text into @out (appended). On a bad character the
 * bytes before it are kept. */
KymoTbandTextResult kymo_tband_decode_hex    (const guint8 *data,
                                              gsize         size,
                                              GByteArray   *out,
                                              gsize        *bad_offset);
KymoTbandTextResult kymo_tband_decode_base64 (const guint8 *data,
                                              gsize         size,
                                              GByteArray   *out,
                                              gsize        *bad_offset);

G_END_DECLS
