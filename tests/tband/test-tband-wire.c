/* test-tband-wire.c: COBS framing, varints and text encodings
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "kymo-test-utils.h"
#include "tband/kymo-tband-cobs.h"
#include "tband/kymo-tband-text.h"

static void
roundtrip (const guint8 *data,
           gsize         len)
{
  g_autofree guint8 *encoded = g_malloc (kymo_tband_cobs_max_encoded (len));
  g_autofree guint8 *decoded = g_malloc (len + 1);
  gsize n, out_len = 0;

  n = kymo_tband_cobs_encode (data, len, encoded);
  g_assert_cmpuint (n, <=, kymo_tband_cobs_max_encoded (len));
  /* Only the delimiter may be zero. */
  g_assert_cmpint (encoded[n - 1], ==, 0);
  g_assert_null (memchr (encoded, 0, n - 1));
  g_assert_true (kymo_tband_cobs_decode (encoded, n - 1, decoded, &out_len));
  g_assert_cmpuint (out_len, ==, len);
  g_assert_true (len == 0 || memcmp (decoded, data, len) == 0);
}

static void
test_cobs_runs (void)
{
  guint8 data[1024];
  gsize lengths[] = { 0, 1, 2, 253, 254, 255, 256, 508, 509, 1000 };

  /* Runs of non-zero bytes around the 254-byte block limit. */
  for (guint i = 0; i < G_N_ELEMENTS (lengths); i++)
    {
      memset (data, 0xAB, sizeof data);
      roundtrip (data, lengths[i]);
      /* With zeros at the edges and in the middle. */
      data[0] = 0;
      roundtrip (data, MAX (lengths[i], 1));
      if (lengths[i] > 2)
        {
          data[lengths[i] - 1] = 0;
          data[lengths[i] / 2] = 0;
          roundtrip (data, lengths[i]);
        }
    }
  memset (data, 0, sizeof data);
  roundtrip (data, 300);
}

static void
test_cobs_ff_code (void)
{
  guint8 data[254], encoded[300], decoded[300];
  gsize n, len;

  /* 254 non-zero bytes fill one block: code 0xFF, no zero after it. */
  memset (data, 0x11, sizeof data);
  n = kymo_tband_cobs_encode (data, sizeof data, encoded);
  g_assert_cmpint (encoded[0], ==, 0xFF);
  g_assert_true (kymo_tband_cobs_decode (encoded, n - 1, decoded, &len));
  g_assert_cmpuint (len, ==, 254);

  /* A 0xFF block followed directly by the end decodes the same. */
  g_assert_true (kymo_tband_cobs_decode (encoded, 255, decoded, &len));
  g_assert_cmpuint (len, ==, 254);

  /* 0xFF, 254 bytes, then 0x02 'x': no zero between the two blocks. */
  encoded[255] = 0x02;
  encoded[256] = 'x';
  g_assert_true (kymo_tband_cobs_decode (encoded, 257, decoded, &len));
  g_assert_cmpuint (len, ==, 255);
  g_assert_cmpint (decoded[254], ==, 'x');

  /* 0x03 'a' 'b' then 0x02 'c': a zero between the blocks. */
  {
    const guint8 frame[] = { 0x03, 'a', 'b', 0x02, 'c' };

    g_assert_true (kymo_tband_cobs_decode (frame, sizeof frame, decoded, &len));
    g_assert_cmpuint (len, ==, 4);
    g_assert_cmpmem (decoded, 4, "ab\0c", 4);
  }
}

static void
test_cobs_bad (void)
{
  const guint8 overrun[] = { 0x05, 'a', 'b' };
  const guint8 zero_code[] = { 0x02, 'a', 0x00 };
  guint8 out[16];
  gsize len;

  g_assert_false (kymo_tband_cobs_decode (overrun, sizeof overrun, out, &len));
  g_assert_false (kymo_tband_cobs_decode (zero_code, sizeof zero_code, out, &len));
  g_assert_false (kymo_tband_cobs_decode ((const guint8 *) "\xFF", 1, out, &len));
}

static void
test_framer (void)
{
  /* empty frame, good frame, bad frame, good frame, unfinished tail */
  const guint8 stream[] = { 0x00, 0x02, 0x41, 0x00, 0x09, 0x41, 0x00, 0x03, 'x', 'y', 0x00, 0x02, 0x42 };
  KymoTbandFramer framer;
  const guint8 *payload;
  const char *reason;
  gsize offset, len;

  kymo_tband_framer_init (&framer, stream, sizeof stream);
  g_assert_cmpint (kymo_tband_framer_next (&framer, &offset, &payload, &len, &reason), ==, KYMO_TBAND_FRAME_OK);
  g_assert_cmpuint (offset, ==, 1);
  g_assert_cmpuint (len, ==, 1);
  g_assert_cmpint (payload[0], ==, 0x41);
  g_assert_cmpint (kymo_tband_framer_next (&framer, &offset, &payload, &len, &reason), ==, KYMO_TBAND_FRAME_BAD);
  g_assert_cmpuint (offset, ==, 4);
  g_assert_nonnull (reason);
  /* Resumes right after the next 0x00. */
  g_assert_cmpint (kymo_tband_framer_next (&framer, &offset, &payload, &len, &reason), ==, KYMO_TBAND_FRAME_OK);
  g_assert_cmpuint (offset, ==, 7);
  g_assert_cmpmem (payload, len, "xy", 2);
  g_assert_cmpint (kymo_tband_framer_next (&framer, &offset, &payload, &len, &reason), ==, KYMO_TBAND_FRAME_UNFINISHED);
  g_assert_cmpuint (offset, ==, 11);
  g_assert_cmpint (kymo_tband_framer_next (&framer, &offset, &payload, &len, &reason), ==, KYMO_TBAND_FRAME_END);
  kymo_tband_framer_clear (&framer);
}

static gboolean
read_u32 (const guint8 *data,
          gsize         len,
          guint32      *out)
{
  const guint8 *p = data;
  gboolean ok = kymo_tband_read_u32 (&p, data + len, out);

  /* A failed read does not move. */
  g_assert_true (ok ? p == data + len : p == data);
  return ok;
}

static gboolean
read_u64 (const guint8 *data,
          gsize         len,
          guint64      *out)
{
  const guint8 *p = data;
  gboolean ok = kymo_tband_read_u64 (&p, data + len, out);

  g_assert_true (ok ? p == data + len : p == data);
  return ok;
}

static gboolean
read_s64 (const guint8 *data,
          gsize         len,
          gint64       *out)
{
  const guint8 *p = data;
  gboolean ok = kymo_tband_read_s64 (&p, data + len, out);

  g_assert_true (ok ? p == data + len : p == data);
  return ok;
}

static void
test_varint_u32 (void)
{
  guint32 v;

  g_assert_true (read_u32 ((const guint8 *) "\x00", 1, &v));
  g_assert_cmpuint (v, ==, 0);
  g_assert_true (read_u32 ((const guint8 *) "\x7F", 1, &v));
  g_assert_cmpuint (v, ==, 127);
  g_assert_true (read_u32 ((const guint8 *) "\x80\x01", 2, &v));
  g_assert_cmpuint (v, ==, 128);
  /* 5 bytes, 4 bits in the last: the largest u32. */
  g_assert_true (read_u32 ((const guint8 *) "\xFF\xFF\xFF\xFF\x0F", 5, &v));
  g_assert_cmpuint (v, ==, G_MAXUINT32);
  /* A fifth byte with more than 4 bits, or with the more bit, is too long. */
  g_assert_false (read_u32 ((const guint8 *) "\xFF\xFF\xFF\xFF\x1F", 5, &v));
  g_assert_false (read_u32 ((const guint8 *) "\xFF\xFF\xFF\xFF\x8F", 5, &v));
  g_assert_false (read_u32 ((const guint8 *) "\x80\x80\x80\x80\x80\x00", 6, &v));
  /* Unterminated. */
  g_assert_false (read_u32 ((const guint8 *) "\xFF\xFF\xFF\xFF", 4, &v));
  g_assert_false (read_u32 ((const guint8 *) "", 0, &v));
}

static void
test_varint_u64 (void)
{
  guint8 buf[10];
  guint64 v;

  g_assert_true (read_u64 ((const guint8 *) "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 10, &v));
  g_assert_cmpuint (v, ==, G_MAXUINT64);
  g_assert_false (read_u64 ((const guint8 *) "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x03", 10, &v));
  g_assert_false (read_u64 ((const guint8 *) "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x81", 10, &v));
  g_assert_false (read_u64 ((const guint8 *) "\xFF\xFF\xFF\xFF", 4, &v));
  /* The writer's output reads back, at every length. */
  for (guint shift = 0; shift < 64; shift++)
    {
      guint64 value = ((guint64) 1 << shift) | 1;
      gsize n = kymo_tband_write_u64 (buf, value);

      g_assert_cmpuint (n, <=, 10);
      g_assert_true (read_u64 (buf, n, &v));
      g_assert_cmpuint (v, ==, value);
    }
  g_assert_cmpuint (kymo_tband_write_u64 (buf, G_MAXUINT64), ==, 10);
}

static void
test_varint_s64 (void)
{
  const gint64 values[] = { 0, 1, -1, 2, -2, 1000, -1000, G_MAXINT64, G_MININT64 + 1, G_MININT64 };
  const guint8 small[] = { 0, 1, 2, 3, 4, 5 };
  const gint64 expect[] = { 0, G_MININT64, 1, -1, 2, -2 };
  guint8 buf[10];
  gint64 v;

  for (guint i = 0; i < G_N_ELEMENTS (small); i++)
    {
      g_assert_true (read_s64 (&small[i], 1, &v));
      g_assert_cmpint (v, ==, expect[i]);
    }
  /* Negative zero is INT64_MIN, which fits in a single byte. */
  g_assert_cmpuint (kymo_tband_write_s64 (buf, G_MININT64), ==, 1);
  g_assert_cmpint (buf[0], ==, 0x01);
  g_assert_true (read_s64 ((const guint8 *) "\xFE\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 10, &v));
  g_assert_cmpint (v, ==, G_MAXINT64);
  g_assert_true (read_s64 ((const guint8 *) "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 10, &v));
  g_assert_cmpint (v, ==, G_MININT64 + 1);
  g_assert_false (read_s64 ((const guint8 *) "\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x03", 10, &v));
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      gsize n = kymo_tband_write_s64 (buf, values[i]);

      g_assert_true (read_s64 (buf, n, &v));
      g_assert_cmpint (v, ==, values[i]);
    }
}

static void
test_text_hex (void)
{
  const char *text = "==== START OF TONBANDGERAET BUFFER ====\n0a 5F 01\n6d\t79\r\n7\n4\n==== END OF TONBANDGERAET BUFFER ====\n";
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize bad = 0;

  g_assert_cmpint (kymo_tband_guess_encoding ((const guint8 *) text, strlen (text)), ==, KYMO_TBAND_ENCODING_HEX);
  g_assert_cmpint (kymo_tband_decode_hex ((const guint8 *) text, strlen (text), out, &bad), ==, KYMO_TBAND_TEXT_OK);
  g_assert_cmpmem (out->data, out->len, "\x0a\x5f\x01\x6d\x79\x74", 6);

  g_byte_array_set_size (out, 0);
  g_assert_cmpint (kymo_tband_decode_hex ((const guint8 *) "0a 5f 0", 7, out, &bad), ==, KYMO_TBAND_TEXT_TRUNCATED);
  g_assert_cmpuint (bad, ==, 6);
  g_assert_cmpuint (out->len, ==, 2);

  g_byte_array_set_size (out, 0);
  g_assert_cmpint (kymo_tband_decode_hex ((const guint8 *) "0a 5f zz", 8, out, &bad), ==, KYMO_TBAND_TEXT_BAD_CHAR);
  g_assert_cmpuint (bad, ==, 6);
  g_assert_cmpuint (out->len, ==, 2);
}

static void
test_text_base64 (void)
{
  const guint8 raw[] = { 0x0a, 0x5f, 0x01, 0x6d, 0x79, 0x00, 0xff };
  g_autofree char *b64 = g_base64_encode (raw, sizeof raw);
  g_autofree char *wrapped = NULL;
  g_autoptr(GByteArray) out = g_byte_array_new ();
  gsize bad = 0;

  wrapped = g_strdup_printf ("==== START OF TONBANDGERAET BUFFER ====\n%.4s\n%s\n==== END OF TONBANDGERAET BUFFER ====\n",
                             b64, b64 + 4);
  g_assert_cmpint (kymo_tband_guess_encoding ((const guint8 *) wrapped, strlen (wrapped)), ==, KYMO_TBAND_ENCODING_BASE64);
  g_assert_cmpint (kymo_tband_decode_base64 ((const guint8 *) wrapped, strlen (wrapped), out, &bad), ==, KYMO_TBAND_TEXT_OK);
  g_assert_cmpmem (out->data, out->len, raw, sizeof raw);

  /* Without padding too. */
  g_byte_array_set_size (out, 0);
  g_assert_cmpint (kymo_tband_decode_base64 ((const guint8 *) b64, strlen (b64) - 1, out, &bad), ==, KYMO_TBAND_TEXT_OK);
  g_assert_cmpmem (out->data, out->len, raw, sizeof raw);

  g_byte_array_set_size (out, 0);
  g_assert_cmpint (kymo_tband_decode_base64 ((const guint8 *) "Cl8B*", 5, out, &bad), ==, KYMO_TBAND_TEXT_BAD_CHAR);
  g_assert_cmpuint (bad, ==, 4);
  g_assert_cmpuint (out->len, ==, 3);

  g_assert_cmpint (kymo_tband_guess_encoding ((const guint8 *) "\x02\x41\x00", 3), ==, KYMO_TBAND_ENCODING_BINARY);
  g_assert_cmpint (kymo_tband_guess_encoding ((const guint8 *) " {\"data\":[]}", 12), ==, KYMO_TBAND_ENCODING_JSON);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/tband/cobs/runs", test_cobs_runs);
  g_test_add_func ("/tband/cobs/ff-code", test_cobs_ff_code);
  g_test_add_func ("/tband/cobs/bad", test_cobs_bad);
  g_test_add_func ("/tband/cobs/framer", test_framer);
  g_test_add_func ("/tband/varint/u32", test_varint_u32);
  g_test_add_func ("/tband/varint/u64", test_varint_u64);
  g_test_add_func ("/tband/varint/s64", test_varint_s64);
  g_test_add_func ("/tband/text/hex", test_text_hex);
  g_test_add_func ("/tband/text/base64", test_text_base64);

  return g_test_run ();
}
