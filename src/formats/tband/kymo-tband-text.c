/* kymo-tband-text.c: Tonbandgerät streams written as hex or base64 text
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-tband"

#include "config.h"

#include "kymo-tband-text.h"

#include <string.h>

#define DETECT_WINDOW 4096

static inline gboolean
is_space (guint8 c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static inline int
hex_value (guint8 c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

static inline int
base64_value (guint8 c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '+' || c == '-')
    return 62;
  if (c == '/' || c == '_')
    return 63;
  return -1;
}

/* "==== START OF TONBANDGERAET BUFFER ====" and its END twin: the firmware
 * prints them around a dump, and the web converter strips them. */
static inline gboolean
is_banner (const guint8 *p,
           const guint8 *end)
{
  return end - p >= 4 && memcmp (p, "====", 4) == 0;
}

static inline const guint8 *
skip_line (const guint8 *p,
           const guint8 *end)
{
  const guint8 *nl = memchr (p, '\n', end - p);

  return nl ? nl + 1 : end;
}

KymoTbandEncoding
kymo_tband_guess_encoding (const guint8 *data,
                           gsize         size)
{
  const guint8 *p = data, *end;
  gboolean all_hex = TRUE, all_base64 = TRUE;

  if (size == 0)
    return KYMO_TBAND_ENCODING_BINARY;
  end = data + MIN (size, DETECT_WINDOW);
  if (memchr (data, 0, end - data) != NULL)
    return KYMO_TBAND_ENCODING_BINARY;

  while (p < end && is_space (*p))
    p++;
  if (p < end && *p == '{')
    return KYMO_TBAND_ENCODING_JSON;

  while (p < end)
    {
      guint8 c = *p;

      if (is_space (c))
        {
          p++;
          continue;
        }
      if (is_banner (p, end))
        {
          p = skip_line (p, end);
          continue;
        }
      if (c == '=')
        {
          p++;
          continue;
        }
      if (hex_value (c) < 0)
        all_hex = FALSE;
      if (base64_value (c) < 0)
        all_base64 = FALSE;
      p++;
    }

  if (all_hex)
    return KYMO_TBAND_ENCODING_HEX;
  if (all_base64)
    return KYMO_TBAND_ENCODING_BASE64;
  return KYMO_TBAND_ENCODING_BINARY;
}

const char *
kymo_tband_encoding_name (KymoTbandEncoding encoding)
{
  switch (encoding)
    {
    case KYMO_TBAND_ENCODING_HEX:
      return "hex";
    case KYMO_TBAND_ENCODING_BASE64:
      return "base64";
    case KYMO_TBAND_ENCODING_JSON:
      return "json";
    case KYMO_TBAND_ENCODING_BINARY:
    default:
      return "binary";
    }
}

KymoTbandTextResult
kymo_tband_decode_hex (const guint8 *data,
                       gsize         size,
                       GByteArray   *out,
                       gsize        *bad_offset)
{
  const guint8 *p = data, *end = data + size;
  gsize start = out->len, o;
  gsize nibble_start = 0;
  int high = -1;

  /* Two hex digits make at most one byte: reserve once, trim at the end. */
  g_byte_array_set_size (out, start + size / 2 + 1);
  o = start;

  while (p < end)
    {
      guint8 c = *p;
      int v = hex_value (c);

      if (v < 0)
        {
          if (is_space (c))
            {
              p++;
              continue;
            }
          if (c == '=' && (p == data || p[-1] == '\n' || is_banner (p, end)))
            {
              p = skip_line (p, end);
              continue;
            }
          *bad_offset = p - data;
          g_byte_array_set_size (out, o);
          return KYMO_TBAND_TEXT_BAD_CHAR;
        }
      if (high < 0)
        {
          high = v;
          nibble_start = p - data;
        }
      else
        {
          out->data[o++] = (guint8) (high << 4 | v);
          high = -1;
        }
      p++;
    }

  g_byte_array_set_size (out, o);
  if (high >= 0)
    {
      *bad_offset = nibble_start;
      return KYMO_TBAND_TEXT_TRUNCATED;
    }
  return KYMO_TBAND_TEXT_OK;
}

KymoTbandTextResult
kymo_tband_decode_base64 (const guint8 *data,
                          gsize         size,
                          GByteArray   *out,
                          gsize        *bad_offset)
{
  const guint8 *p = data, *end = data + size;
  gsize start = out->len, o, quad_start = 0;
  guint32 acc = 0;
  guint n = 0;
  gboolean line_start = TRUE;

  g_byte_array_set_size (out, start + size / 4 * 3 + 3);
  o = start;

  while (p < end)
    {
      guint8 c = *p;
      int v = base64_value (c);

      if (v >= 0)
        {
          if (n == 0)
            quad_start = p - data;
          acc = acc << 6 | (guint32) v;
          if (++n == 4)
            {
              out->data[o++] = acc >> 16;
              out->data[o++] = acc >> 8;
              out->data[o++] = acc;
              n = 0;
              acc = 0;
            }
          line_start = FALSE;
          p++;
          continue;
        }
      if (is_space (c))
        {
          line_start = line_start || c == '\n';
          p++;
          continue;
        }
      if (c == '=' && line_start && is_banner (p, end))
        {
          p = skip_line (p, end);
          continue;
        }
      if (c == '=' && n >= 2)
        {
          /* Padding ends a group: 2 sextets give 1 byte, 3 give 2. */
          out->data[o++] = acc >> (n == 2 ? 4 : 10);
          if (n == 3)
            out->data[o++] = acc >> 2;
          n = 0;
          acc = 0;
          p++;
          while (p < end && *p == '=')
            p++;
          continue;
        }
      *bad_offset = p - data;
      g_byte_array_set_size (out, o);
      return KYMO_TBAND_TEXT_BAD_CHAR;
    }

  /* Unpadded base64 is common; only a lone sextet cannot make a byte. */
  if (n == 2 || n == 3)
    {
      out->data[o++] = acc >> (n == 2 ? 4 : 10);
      if (n == 3)
        out->data[o++] = acc >> 2;
      n = 0;
    }
  g_byte_array_set_size (out, o);
  if (n == 1)
    {
      *bad_offset = quad_start;
      return KYMO_TBAND_TEXT_TRUNCATED;
    }
  return KYMO_TBAND_TEXT_OK;
}
