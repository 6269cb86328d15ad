/* test-rtc.c: the Ruler Trace Container decoder
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "kymo-test-utils.h"
#include "kymo-rtc-test-writer.h"

/* Internal to the decoder, but its check value is part of the format. */
guint32 kymo_rtc_crc (const guint8 *data, gsize len);

/* ---- helpers ---------------------------------------------------------- */

typedef struct {
  char     **lines;
  GPtrArray *records;   /* JsonObject, parsed when first asked for */
  gboolean   ok;
  GError    *error;
} Dump;

static void
object_unref0 (gpointer object)
{
  if (object)
    json_object_unref (object);
}

static void
dump_clear (Dump *dump)
{
  g_clear_pointer (&dump->lines, g_strfreev);
  g_clear_pointer (&dump->records, g_ptr_array_unref);
  g_clear_error (&dump->error);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Dump, dump_clear)

static void
dump_bytes (const guint8 *data,
            gsize         size,
            Dump         *dump)
{
  g_autofree char *text = kymo_test_dump_bytes (data, size, "rtc", &dump->ok, &dump->error);
  guint n;

  /* Split by hand: ASan's strstr, which g_strsplit uses, is quadratic. */
  {
    GPtrArray *lines = g_ptr_array_new ();
    const char *p = text, *end = text + strlen (text), *nl;

    while (p < end)
      {
        nl = memchr (p, '\n', (gsize) (end - p));
        if (nl == NULL)
          nl = end;
        g_ptr_array_add (lines, g_strndup (p, (gsize) (nl - p)));
        p = nl + 1;
      }
    n = lines->len;
    g_ptr_array_add (lines, NULL);
    dump->lines = (char **) g_ptr_array_free (lines, FALSE);
  }
  dump->records = g_ptr_array_new_with_free_func (object_unref0);
  g_ptr_array_set_size (dump->records, n);
}

static JsonObject *
rec (Dump  *dump,
     guint  i)
{
  if (dump->records->pdata[i] == NULL)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();

      g_assert_true (json_parser_load_from_data (parser, dump->lines[i], -1, NULL));
      dump->records->pdata[i] = json_object_ref (json_node_get_object (json_parser_get_root (parser)));
    }
  return dump->records->pdata[i];
}

static void
dump_gbytes (GBytes *bytes,
             Dump   *dump)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  dump_bytes (data, size, dump);
}

static const char *
kind_of (JsonObject *o)
{
  return json_object_get_string_member (o, "kind");
}

static gboolean
line_is (Dump       *dump,
         guint       i,
         const char *kind)
{
  const char *line = dump->lines[i];

  return g_str_has_prefix (line, "{\"kind\":\"") &&
         g_str_has_prefix (line + 9, kind) && line[9 + strlen (kind)] == '"';
}

static guint
count_kind (Dump       *dump,
            const char *kind)
{
  guint n = 0;

  for (guint i = 0; dump->lines[i] != NULL; i++)
    if (line_is (dump, i, kind))
      {
        n++;
        if (g_strcmp0 (kind, "invalid") == 0)
          g_test_message ("invalid at %" G_GINT64_FORMAT ": %s",
                          json_object_get_int_member (rec (dump, i), "offset"),
                          json_object_get_string_member (rec (dump, i), "reason"));
      }
  return n;
}

/* Data lines begin {"kind":"data","offset":N,"id":N,"stream":S */
static gboolean
data_line (Dump       *dump,
           guint       i,
           const char *stream,
           guint64    *offset)
{
  static const char prefix[] = "{\"kind\":\"data\",\"offset\":";
  const char *line = dump->lines[i], *at;
  gsize n = strlen (stream);

  if (!g_str_has_prefix (line, prefix))
    return FALSE;
  at = strstr (line, ",\"stream\":\"");
  if (at == NULL || strncmp (at + 11, stream, n) != 0 || at[11 + n] != '"')
    return FALSE;
  *offset = g_ascii_strtoull (line + sizeof prefix - 1, NULL, 10);
  return TRUE;
}

/* The @nth data record of @stream, or NULL. */
static JsonObject *
data_of (Dump       *dump,
         const char *stream,
         guint       nth)
{
  guint64 offset;

  for (guint i = 0; dump->lines[i] != NULL; i++)
    if (data_line (dump, i, stream, &offset) && nth-- == 0)
      return rec (dump, i);
  return NULL;
}

static guint
count_data (Dump       *dump,
            const char *stream,
            guint64     from_offset)
{
  guint n = 0;
  guint64 offset;

  for (guint i = 0; dump->lines[i] != NULL; i++)
    if (data_line (dump, i, stream, &offset) && offset >= from_offset)
      n++;
  return n;
}

static guint
count_invalid (Dump       *dump,
               const char *needle)
{
  guint n = 0;

  for (guint i = 0; i < dump->records->len; i++)
    if (line_is (dump, i, "invalid") &&
        strstr (json_object_get_string_member (rec (dump, i), "reason"), needle))
      n++;
  return n;
}

static KymoTrace *
load_gbytes (GBytes  *bytes,
             GError **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);

  return kymo_test_load_bytes (data, size, "rtc", error);
}

static gboolean
has_warning (KymoTrace  *trace,
             const char *needle)
{
  gsize n;
  const KymoWarning *warnings = kymo_trace_get_warnings (trace, &n);

  for (gsize i = 0; i < n; i++)
    if (strstr (warnings[i].message, needle) != NULL)
      return TRUE;
  return FALSE;
}

static GBytes *
sample_bytes (const char *relative)
{
  g_autofree char *path = kymo_test_sample_path (relative);
  char *contents;
  gsize size;

  if (path == NULL)
    return NULL;
  g_assert_true (g_file_get_contents (path, &contents, &size, NULL));
  return g_bytes_new_take (contents, size);
}

static void
put_timespec (guint8   *out,
              guint64   sec,
              guint32   nsec,
              gboolean  big_endian)
{
  guint64 s = big_endian ? GUINT64_TO_BE (sec) : GUINT64_TO_LE (sec);
  guint32 n = big_endian ? GUINT32_TO_BE (nsec) : GUINT32_TO_LE (nsec);

  memcpy (out, &s, 8);
  memcpy (out + 8, &n, 4);
}

/* ---- framing ---------------------------------------------------------- */

static void
test_crc_check_value (void)
{
  RtcWriter w;

  g_assert_cmphex (kymo_rtc_crc ((const guint8 *) "123456789", 9), ==, 0x7EAD5C77);
  /* Long inputs take the sliced path; it must agree byte for byte. */
  rtcw_init (&w, 65536, 4096, FALSE);
  for (guint i = 0; i < 1000; i++)
    {
      guint8 b = (guint8) (i * 37 + 11);
      g_byte_array_append (w.out, &b, 1);
    }
  for (guint len = 0; len < 1000; len += 7)
    g_assert_cmphex (kymo_rtc_crc (w.out->data, len), ==, rtcw_crc (&w, w.out->data, len));
  g_bytes_unref (rtcw_free_to_bytes (&w));
}

static void
test_detect (void)
{
  RtcWriter w;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GBytes) shifted = NULL;
  g_autoptr(KymoInput) input = NULL;
  g_autoptr(KymoInput) input2 = NULL;
  g_autoptr(KymoInput) input3 = NULL;
  g_autoptr(GBytes) junk = g_bytes_new_static ("\x04\xb9\xb9 not a trace", 16);
  GByteArray *prefixed = g_byte_array_new ();
  gsize size;
  const guint8 *data;

  rtcw_init (&w, 65536, 4096, FALSE);
  rtcw_start (&w);
  rtcw_stop (&w);
  bytes = rtcw_free_to_bytes (&w);
  data = g_bytes_get_data (bytes, &size);
  input = kymo_input_new_for_bytes (bytes, "a.rtc");
  g_assert_true (kymo_formats_detect (input) == kymo_formats_lookup ("rtc"));

  /* A recording read from its middle: the Marker comes later. */
  for (guint i = 0; i < 5000; i++)
    g_byte_array_append (prefixed, (const guint8 *) "\x13\x55", 2);
  g_byte_array_append (prefixed, data, (guint) size);
  shifted = g_byte_array_free_to_bytes (prefixed);
  input2 = kymo_input_new_for_bytes (shifted, "b.bin");
  g_assert_true (kymo_formats_detect (input2) == kymo_formats_lookup ("rtc"));

  input3 = kymo_input_new_for_bytes (junk, "c.bin");
  g_assert_cmpuint (kymo_formats_lookup ("rtc")->detect (input3), ==, 0);
}

/* Every frame type, by hand: nop, padding, Marker, Index with sizes, index,
 * Meta, meta, Platform, Crc, and a value continued across other frames. */
static void
test_frame_types (void)
{
  RtcWriter w;
  g_autoptr(GBytes) bytes = NULL;
  g_auto(Dump) dump = { 0 };
  guint text, counter;
  JsonObject *o;

  rtcw_init (&w, 65536, 4096, FALSE);
  text = rtcw_stream (&w, "\"name\":\"text\",\"format\":\"utf-8\"", -1);
  rtcw_start (&w);
  rtcw_bytes (&w, "\x00", 1);                           /* nop */
  rtcw_padding (&w, 7);                                  /* padding */
  rtcw_raw_frame (&w, text, TRUE, "hel", 3);             /* continued… */
  counter = rtcw_stream (&w, "\"name\":\"n\",\"format\":\"uint8\"", 1); /* meta */
  rtcw_raw_frame (&w, counter, FALSE, "\x2a", 1);        /* …other frames between… */
  rtcw_index (&w, FALSE);                                /* …an index too… */
  rtcw_raw_frame (&w, text, FALSE, "lo", 2);             /* …then joined */
  rtcw_stop (&w);
  bytes = rtcw_free_to_bytes (&w);

  dump_gbytes (bytes, &dump);
  g_assert_no_error (dump.error);
  g_assert_true (dump.ok);
  g_assert_cmpuint (count_kind (&dump, "marker"), ==, 1);
  g_assert_cmpuint (count_kind (&dump, "meta"), ==, 2);
  g_assert_cmpuint (count_kind (&dump, "platform"), ==, 1);
  g_assert_cmpuint (count_kind (&dump, "invalid"), ==, 0);
  g_assert_cmpuint (count_kind (&dump, "crc"), ==, 1);
  for (guint i = 0; i < dump.records->len; i++)
    if (line_is (&dump, i, "crc"))
      g_assert_true (json_object_get_boolean_member (rec (&dump, i), "ok"));

  o = rec (&dump, 1);
  g_assert_cmpstr (kind_of (o), ==, "Index");
  g_assert_cmpint (json_object_get_int_member (o, "count"), ==, 0);

  o = rec (&dump, 2);
  g_assert_cmpstr (kind_of (o), ==, "meta");
  g_assert_cmpint (json_object_get_int_member (o, "next_id"), ==, 10);

  o = data_of (&dump, "n", 0);
  g_assert_nonnull (o);
  g_assert_cmpint (json_object_get_int_member (o, "value"), ==, 42);
  o = data_of (&dump, "text", 0);
  g_assert_nonnull (o);
  g_assert_cmpstr (json_object_get_string_member (o, "value"), ==, "hello");
}

/* A fixed-length value the writer cut at a unit boundary: the rest comes
 * after the index frame, shorter than the declared length. */
static void
test_fixed_split (void)
{
  RtcWriter w;
  g_autoptr(GBytes) bytes = NULL;
  g_auto(Dump) dump = { 0 };
  guint stream, n = 0, split = 0;

  rtcw_init (&w, 8192, 2048, FALSE);
  stream = rtcw_stream (&w, "\"name\":\"v\",\"format\":\"uint64le\"", 8);
  rtcw_start (&w);
  for (guint64 i = 0; i < 3000; i++)
    {
      guint64 v = GUINT64_TO_LE (i * 1000003);
      rtcw_write (&w, stream, &v, 8, FALSE);
    }
  rtcw_stop (&w);
  bytes = rtcw_free_to_bytes (&w);

  dump_gbytes (bytes, &dump);
  g_assert_true (dump.ok);
  g_assert_cmpuint (count_kind (&dump, "invalid"), ==, 0);
  g_assert_cmpuint (count_kind (&dump, "crc"), >, 2);
  for (guint i = 0; i < dump.records->len; i++)
    {
      JsonObject *o = rec (&dump, i);

      if (g_strcmp0 (kind_of (o), "data") != 0)
        continue;
      g_assert_cmpint (json_object_get_int_member (o, "value"), ==, (gint64) n * 1000003);
      if (json_object_has_member (o, "frames"))
        split++;
      n++;
    }
  g_assert_cmpuint (n, ==, 3000);
  g_assert_cmpuint (split, >, 3);
}

/* ---- payload formats -------------------------------------------------- */

typedef struct {
  const char *json;
  gint64      length;
  const char *bytes;
  gsize       len;
  const char *expect;   /* the value as JSON text */
} FormatCase;

static void
check_formats (gboolean big_endian)
{
  static const FormatCase le_cases[] = {
    { "\"format\":\"uint8\"", 1, "\xff", 1, "255" },
    { "\"format\":\"int8\"", 1, "\xff", 1, "-1" },
    { "\"format\":\"uint16le\"", -1, "\x34\x12", 2, "4660" },
    { "\"format\":\"uint16be\"", -1, "\x12\x34", 2, "4660" },
    { "\"format\":\"int16le\"", 2, "\xfe\xff", 2, "-2" },
    { "\"format\":\"int16be\"", 2, "\xff\xfe", 2, "-2" },
    { "\"format\":\"uint32le\"", 4, "\x78\x56\x34\x12", 4, "305419896" },
    { "\"format\":\"int32be\"", 4, "\xff\xff\xff\xfd", 4, "-3" },
    { "\"format\":\"uint64le\"", 8, "\xff\xff\xff\xff\xff\xff\xff\xff", 8, "18446744073709551615" },
    { "\"format\":\"int64be\"", 8, "\xff\xff\xff\xff\xff\xff\xff\xfc", 8, "-4" },
    { "\"format\":\"float32le\"", 4, "\x00\x00\xc0\x3f", 4, "1.5" },
    { "\"format\":\"float64be\"", 8, "\x40\x04\x00\x00\x00\x00\x00\x00", 8, "2.5" },
    { "\"format\":\"uleb128\"", -1, "\xe5\x8e\x26", 3, "624485" },
    { "\"format\":\"leb128\"", -1, "\xc0\xbb\x78", 3, "-123456" },
    { "\"format\":\"int16le\",\"gain\":0.5,\"offset\":10", 2, "\x04\x00", 2, "12.0" },
    { "\"format\":\"utf-8\"", -1, "h\xc3\xa9", 3, "\"h\xc3\xa9\"" },
    { "\"format\":\"json\"", -1, "{\"a\":[1,2]}", 11, "{\"a\":[1,2]}" },
    { "\"format\":\"raw\"", -1, "\x01\xab", 2, "\"01ab\"" },
    { "\"format\":\"png\"", -1, "\x89P", 2, "\"8950\"" },
    { "", -1, "\x00\xff", 2, "\"00ff\"" },
    { "\"format\":\"index\"", -1, "\x13\x08", 2, "{\"entries\":[[9,4]]}" },
  };
  RtcWriter w;
  g_autoptr(GBytes) bytes = NULL;
  g_auto(Dump) dump = { 0 };
  guint ids[G_N_ELEMENTS (le_cases)];
  guint native16, native_f64, platform;

  rtcw_init (&w, 65536, 4096, big_endian);
  for (guint i = 0; i < G_N_ELEMENTS (le_cases); i++)
    {
      g_autofree char *json = g_strdup_printf ("\"name\":\"s%u\"%s%s", i,
                                               *le_cases[i].json ? "," : "", le_cases[i].json);
      ids[i] = rtcw_stream (&w, json, le_cases[i].length);
    }
  native16 = rtcw_stream (&w, "\"name\":\"native16\",\"format\":\"uint16\"", 2);
  native_f64 = rtcw_stream (&w, "\"name\":\"nativef\",\"format\":\"float64\"", 8);
  platform = rtcw_stream (&w, "\"name\":\"plat\",\"format\":\"platform\"", 4);
  rtcw_start (&w);
  for (guint i = 0; i < G_N_ELEMENTS (le_cases); i++)
    rtcw_write (&w, ids[i], le_cases[i].bytes, le_cases[i].len, FALSE);
  {
    guint16 v = big_endian ? GUINT16_TO_BE (515) : GUINT16_TO_LE (515);
    double d = -0.25;
    guint64 bits;
    guint32 p = big_endian ? GUINT32_TO_BE (0x01020304) : GUINT32_TO_LE (0x01020304);

    memcpy (&bits, &d, 8);
    bits = big_endian ? GUINT64_TO_BE (bits) : GUINT64_TO_LE (bits);
    rtcw_write (&w, native16, &v, 2, FALSE);
    rtcw_write (&w, native_f64, &bits, 8, FALSE);
    rtcw_write (&w, platform, &p, 4, FALSE);
  }
  rtcw_stop (&w);
  bytes = rtcw_free_to_bytes (&w);

  dump_gbytes (bytes, &dump);
  g_assert_true (dump.ok);
  g_assert_cmpuint (count_kind (&dump, "invalid"), ==, 0);
  {
    /* Integers print exactly, the whole u64 range too. */
    gsize size;
    const guint8 *data = g_bytes_get_data (bytes, &size);
    gboolean ok;
    g_autofree char *text = kymo_test_dump_bytes (data, size, "rtc", &ok, NULL);
    g_assert_nonnull (strstr (text, "\"value\":18446744073709551615}"));
  }
  for (guint i = 0; i < G_N_ELEMENTS (le_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("s%u", i);
      JsonObject *o = data_of (&dump, name, 0);
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonNode *value;

      g_assert_nonnull (o);
      value = json_object_get_member (o, "value");
      g_assert_true (json_parser_load_from_data (parser, le_cases[i].expect, -1, NULL));
      if (JSON_NODE_HOLDS_VALUE (value) && json_node_get_value_type (value) != G_TYPE_STRING &&
          json_node_get_value_type (json_parser_get_root (parser)) == G_TYPE_DOUBLE)
        g_assert_cmpfloat_with_epsilon (json_node_get_double (value),
                                        json_node_get_double (json_parser_get_root (parser)), 1e-9);
      else
        {
          g_autofree char *got = json_to_string (value, FALSE);
          g_autofree char *want = json_to_string (json_parser_get_root (parser), FALSE);
          g_assert_cmpstr (got, ==, want);
        }
    }
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "native16", 0), "value"), ==, 515);
  g_assert_cmpfloat (json_object_get_double_member (data_of (&dump, "nativef", 0), "value"), ==, -0.25);
  g_assert_cmpstr (json_object_get_string_member (data_of (&dump, "plat", 0), "value"), ==,
                   big_endian ? "big-endian" : "little-endian");
}

static void
test_formats_little_endian (void)
{
  check_formats (FALSE);
}

static void
test_formats_big_endian (void)
{
  check_formats (TRUE);
}

/* ---- clocks and the model -------------------------------------------- */

static GBytes *
build_model_trace (void)
{
  RtcWriter w;
  guint clk, delta, sample, temp, log, stdout_, json, blob, remarks, loose;
  guint8 ts[12];

  rtcw_init (&w, 65536, 4096, FALSE);
  clk = rtcw_stream (&w, "\"name\":\"clk\",\"clock\":true,\"format\":\"timespec\"", -1);
  delta = rtcw_stream (&w, "\"name\":\"clk delta\",\"clock\":true,\"format\":\"uleb128\",\"gain\":1e-9,\"delta\":\"clk\"", -1);
  sample = rtcw_stream (&w, "\"name\":\"sample\",\"clock\":\"clk delta\",\"format\":\"int16le\",\"gain\":0.5,\"unit\":\"V\",\"length\":2", 2);
  temp = rtcw_stream (&w, "\"name\":\"temp\",\"clock\":\"clk\",\"format\":\"float32le\"", -1);
  log = rtcw_stream (&w, "\"name\":\"event\",\"clock\":\"clk delta\",\"format\":\"utf-8\"", -1);
  stdout_ = rtcw_stream (&w, "\"name\":\"stdout\",\"cont\":true,\"clock\":\"clk delta\",\"format\":\"utf-8\"", -1);
  json = rtcw_stream (&w, "\"name\":\"status\",\"clock\":\"clk\",\"format\":\"json\"", -1);
  blob = rtcw_stream (&w, "\"name\":\"blob\",\"clock\":\"clk\",\"format\":\"raw\",\"foo\":\"bar\"", -1);
  remarks = rtcw_stream (&w, "\"name\":\"remarks\",\"stream\":\"event\",\"format\":\"annotate/utf-8\"", -1);
  loose = rtcw_stream (&w, "\"name\":\"loose\",\"format\":\"uint8\"", 1);
  rtcw_start (&w);

  /* Read before any clock has a value: placed at the first clock time. */
  rtcw_write (&w, loose, "\x07", 1, FALSE);

  put_timespec (ts, 1000, 500, FALSE);
  rtcw_write (&w, clk, ts, 8, TRUE);            /* timespec in two frames */
  rtcw_write (&w, clk, ts + 8, 4, FALSE);
  rtcw_write (&w, sample, "\x04\x00", 2, FALSE); /* delta has no value yet */
  rtcw_write (&w, delta, "\xe8\x07", 2, FALSE);  /* +1000 ns */
  rtcw_write (&w, sample, "\x06\x00", 2, FALSE);
  rtcw_write (&w, temp, "\x00\x00\xc0\x3f", 4, FALSE);
  rtcw_write (&w, log, "first event\n", 12, FALSE);
  rtcw_write (&w, stdout_, "part one ", 9, FALSE);
  rtcw_write (&w, delta, "\xd0\x0f", 2, FALSE);  /* +2000 ns */
  rtcw_write (&w, stdout_, "and two\nsecond", 14, FALSE);
  rtcw_write (&w, json, "{\"state\":\"up\"}", 14, FALSE);
  rtcw_write (&w, blob, "\xde\xad\xbe\xef", 4, FALSE);
  put_timespec (ts, 1001, 0, FALSE);
  rtcw_write (&w, clk, ts, 12, FALSE);
  rtcw_write (&w, sample, "\x08\x00", 2, FALSE); /* delta not updated: 1000 s + 2000 ns */
  rtcw_write (&w, stdout_, " line\n", 6, FALSE);
  {
    /* Written now, about a time before: its own timestamp counts. */
    guint8 note[12 + 5];
    put_timespec (note, 1000, 600, FALSE);
    memcpy (note + 12, "oops!", 5);
    rtcw_write (&w, remarks, note, sizeof note, FALSE);
  }
  rtcw_stop (&w);
  return rtcw_free_to_bytes (&w);
}

static void
test_clocks_dump (void)
{
  g_autoptr(GBytes) bytes = build_model_trace ();
  g_auto(Dump) dump = { 0 };
  const gint64 base = G_GINT64_CONSTANT (1000000000500);

  dump_gbytes (bytes, &dump);
  g_assert_true (dump.ok);
  g_assert_cmpuint (count_kind (&dump, "invalid"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "clk", 0), "ts"), ==, base);
  g_assert_false (json_object_has_member (data_of (&dump, "sample", 0), "ts"));
  g_assert_false (json_object_has_member (data_of (&dump, "loose", 0), "ts"));
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "clk delta", 0), "ts"), ==, base + 1000);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "sample", 1), "ts"), ==, base + 1000);
  g_assert_cmpfloat (json_object_get_double_member (data_of (&dump, "sample", 1), "value"), ==, 3.0);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "temp", 0), "ts"), ==, base);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "sample", 2), "ts"), ==, base + 2000);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "remarks", 0), "ts"), ==, base + 100);
  g_assert_cmpstr (json_object_get_string_member (data_of (&dump, "remarks", 0), "value"), ==, "oops!");
  g_assert_true (JSON_NODE_HOLDS_OBJECT (json_object_get_member (data_of (&dump, "status", 0), "value")));
  g_assert_cmpstr (json_object_get_string_member (data_of (&dump, "blob", 0), "value"), ==, "deadbeef");
}

static void
test_model (void)
{
  g_autoptr(GBytes) bytes = build_model_trace ();
  g_autoptr(GError) error = NULL;
  g_autoptr(KymoTrace) trace = load_gbytes (bytes, &error);
  const gint64 base = G_GINT64_CONSTANT (1000000000500);
  KymoTrack *track;
  const KymoSample *samples;
  const KymoAnnotation *annotations;
  const KymoInstant *instants;
  JsonObject *details;
  gsize n;

  g_assert_no_error (error);
  g_assert_nonnull (trace);
  g_assert_null (kymo_trace_get_stop_error (trace));
  g_assert_cmpstr (kymo_trace_get_format (trace)->name, ==, "rtc");

  /* Numeric streams are counters, gain applied, with their unit. */
  track = kymo_test_find_track (trace, "sample");
  g_assert_nonnull (track);
  g_assert_cmpint (kymo_track_get_kind (track), ==, KYMO_TRACK_COUNTER);
  g_assert_cmpstr (kymo_track_get_unit (track), ==, "V");
  samples = kymo_track_get_samples (track, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpint (samples[0].ts, ==, base);   /* no delta yet: the latest clock */
  g_assert_cmpfloat (samples[0].value, ==, 2.0);
  g_assert_cmpint (samples[1].ts, ==, base + 1000);
  g_assert_cmpfloat (samples[1].value, ==, 3.0);
  g_assert_cmpint (samples[2].ts, ==, base + 2000);

  track = kymo_test_find_track (trace, "loose");
  samples = kymo_track_get_samples (track, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (samples[0].ts, ==, base);

  /* `cont` text is joined into lines, whatever the frames were. */
  track = kymo_test_find_track (trace, "stdout");
  g_assert_cmpint (kymo_track_get_kind (track), ==, KYMO_TRACK_LOG);
  annotations = kymo_track_get_annotations (track, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (annotations[0].text, ==, "part one and two");
  g_assert_cmpint (annotations[0].start, ==, base + 1000);
  g_assert_cmpstr (annotations[1].text, ==, "second line");
  g_assert_cmpint (annotations[1].start, ==, base + 2000);

  /* Annotations sit on their target stream, at their own time. */
  track = kymo_test_find_track (trace, "event");
  g_assert_cmpint (kymo_track_get_kind (track), ==, KYMO_TRACK_LOG);
  annotations = kymo_track_get_annotations (track, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpstr (annotations[0].text, ==, "oops!");
  g_assert_cmpint (annotations[0].start, ==, base + 100);
  g_assert_cmpstr (annotations[1].text, ==, "first event");
  g_assert_cmpint (annotations[1].start, ==, base + 1000);

  /* json → instants with the object in the details. */
  track = kymo_test_find_track (trace, "status");
  g_assert_cmpint (kymo_track_get_kind (track), ==, KYMO_TRACK_INSTANT);
  instants = kymo_track_get_instants (track, &n);
  g_assert_cmpuint (n, ==, 1);
  {
    KymoEventRef ref = { kymo_track_get_id (track), KYMO_EVENT_KIND_INSTANT, 0 };
    JsonObject *value;

    details = kymo_trace_describe_event (trace, &ref);
    g_assert_nonnull (details);
    value = json_object_get_object_member (details, "value");
    g_assert_cmpstr (json_object_get_string_member (value, "state"), ==, "up");
    json_object_unref (details);
  }

  /* raw → instants with size and a hex view; extra meta keys pass through. */
  track = kymo_test_find_track (trace, "blob");
  instants = kymo_track_get_instants (track, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (instants[0].ts, ==, base);
  {
    KymoEventRef ref = { kymo_track_get_id (track), KYMO_EVENT_KIND_INSTANT, 0 };

    details = kymo_trace_describe_event (trace, &ref);
    g_assert_nonnull (details);
    g_assert_cmpstr (json_object_get_string_member (details, "value"), ==, "deadbeef");
    g_assert_cmpint (json_object_get_int_member (details, "size"), ==, 4);
    g_assert_cmpstr (json_object_get_string_member (details, "foo"), ==, "bar");
    json_object_unref (details);
  }

  /* An Epoch clock gives wall-clock time. */
  {
    gint64 offset;
    g_assert_true (kymo_trace_get_wallclock (trace, &offset));
  }
  g_assert_nonnull (strstr (kymo_trace_get_metadata (trace, "clocks"), "clk (Unix epoch)"));
}

static void
test_unrelated_clocks (void)
{
  RtcWriter w;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_auto(Dump) dump = { 0 };
  guint cycles, ticks, a, b;
  KymoTrack *track;
  const KymoSample *samples;
  gsize n;

  rtcw_init (&w, 65536, 4096, FALSE);
  /* A 100 MHz counter with no known epoch, and a millisecond tick. */
  cycles = rtcw_stream (&w, "\"name\":\"cycles\",\"clock\":true,\"type\":\"uint64le\",\"gain\":1e-8", 8);
  ticks = rtcw_stream (&w, "\"name\":\"ticks\",\"clock\":true,\"format\":\"uint32le\",\"gain\":0.001,\"offset\":2", 4);
  a = rtcw_stream (&w, "\"name\":\"a\",\"clock\":\"cycles\",\"format\":\"uint8\"", 1);
  b = rtcw_stream (&w, "\"name\":\"b\",\"clock\":\"ticks\",\"format\":\"uint8\"", 1);
  rtcw_start (&w);
  {
    guint64 c = GUINT64_TO_LE (12345);
    guint32 t = GUINT32_TO_LE (7);

    rtcw_write (&w, cycles, &c, 8, FALSE);
    rtcw_write (&w, a, "\x01", 1, FALSE);
    rtcw_write (&w, ticks, &t, 4, FALSE);
    rtcw_write (&w, b, "\x02", 1, FALSE);
  }
  rtcw_stop (&w);
  bytes = rtcw_free_to_bytes (&w);

  dump_gbytes (bytes, &dump);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "cycles", 0), "ts"), ==, 123450);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "a", 0), "ts"), ==, 123450);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "ticks", 0), "ts"), ==, 2007000000);

  trace = load_gbytes (bytes, NULL);
  g_assert_nonnull (trace);
  track = kymo_test_find_track (trace, "b");
  samples = kymo_track_get_samples (track, &n);
  g_assert_cmpuint (n, ==, 1);
  g_assert_cmpint (samples[0].ts, ==, 2007000000);
  g_assert_true (has_warning (trace, "unrelated clocks"));
  g_assert_nonnull (strstr (kymo_trace_get_metadata (trace, "clocks"), "unknown epoch"));
  {
    gint64 offset;
    g_assert_false (kymo_trace_get_wallclock (trace, &offset));
  }
}

/* The document's form: bare keys in meta, as older writers wrote it. */
static void
test_bare_meta_keys (void)
{
  RtcWriter w;
  g_autoptr(GBytes) bytes = NULL;
  g_auto(Dump) dump = { 0 };
  static const char meta[] = "[{id:9,name:\"x\",format:\"uint8\",length:1},10]";

  rtcw_init (&w, 65536, 4096, FALSE);
  rtcw_start (&w);
  rtcw_raw_frame (&w, 6, FALSE, meta, strlen (meta));
  w.length[9] = 1;
  rtcw_raw_frame (&w, 9, FALSE, "\x05", 1);
  rtcw_stop (&w);
  bytes = rtcw_free_to_bytes (&w);
  dump_gbytes (bytes, &dump);
  g_assert_true (dump.ok);
  g_assert_cmpint (json_object_get_int_member (data_of (&dump, "x", 0), "value"), ==, 5);
}

/* ---- damage ----------------------------------------------------------- */

static GBytes *
build_long_trace (guint n_values)
{
  RtcWriter w;
  guint clk, v, text;
  guint8 ts[12];

  rtcw_init (&w, 8192, 2048, FALSE);
  clk = rtcw_stream (&w, "\"name\":\"clk\",\"clock\":true,\"format\":\"timespec\"", -1);
  v = rtcw_stream (&w, "\"name\":\"v\",\"clock\":\"clk\",\"format\":\"uint32le\"", 4);
  text = rtcw_stream (&w, "\"name\":\"text\",\"clock\":\"clk\",\"format\":\"utf-8\"", -1);
  rtcw_start (&w);
  for (guint i = 0; i < n_values; i++)
    {
      guint32 x = GUINT32_TO_LE (i);

      put_timespec (ts, 100 + i, 0, FALSE);
      rtcw_write (&w, clk, ts, 12, FALSE);
      rtcw_write (&w, v, &x, 4, FALSE);
      if (i % 50 == 0)
        {
          g_autofree char *line = g_strdup_printf ("line %u", i);
          rtcw_write (&w, text, line, strlen (line), FALSE);
        }
    }
  rtcw_stop (&w);
  return rtcw_free_to_bytes (&w);
}

static void
test_bad_crc (void)
{
  g_autoptr(GBytes) good = build_long_trace (3000);
  g_autoptr(GBytes) bad = NULL;
  g_autoptr(KymoTrace) trace = NULL;
  g_auto(Dump) full = { 0 };
  g_auto(Dump) dump = { 0 };
  gsize size;
  const guint8 *good_data = g_bytes_get_data (good, &size);
  guint8 *copy = g_memdup2 (good_data, size);
  guint lost;

  g_assert_cmpuint (size, >, 4 * 8192);
  dump_gbytes (good, &full);
  lost = count_data (&full, "v", 8192) - count_data (&full, "v", 16384);
  copy[8192 + 3000] ^= 0x40;
  bad = g_bytes_new_take (copy, size);

  dump_gbytes (bad, &dump);
  g_assert_no_error (dump.error);
  g_assert_true (dump.ok);   /* a bad Unit does not stop decoding */
  g_assert_cmpuint (count_invalid (&dump, "CRC mismatch"), ==, 1);
  /* At most the rest of a value begun in the skipped Unit is lost too. */
  g_assert_cmpuint (count_kind (&dump, "invalid"), <=, 2);
  g_assert_cmpuint (count_data (&dump, "v", 0), ==, 3000 - lost);
  g_assert_cmpuint (count_data (&dump, "v", 16384), ==, count_data (&full, "v", 16384));

  trace = load_gbytes (bad, NULL);
  g_assert_nonnull (trace);
  g_assert_null (kymo_trace_get_stop_error (trace));
  g_assert_true (has_warning (trace, "CRC mismatch in the Unit of 7162 bytes at offset 8192"));
  {
    gsize n;
    kymo_track_get_samples (kymo_test_find_track (trace, "v"), &n);
    g_assert_cmpuint (n, ==, 3000 - lost);
  }
}

static void
test_garbage_before_marker (void)
{
  g_autoptr(GBytes) good = build_long_trace (100);
  GByteArray *array = g_byte_array_new ();
  g_autoptr(GBytes) bytes = NULL;
  g_auto(Dump) dump = { 0 };
  gsize size;
  const guint8 *data = g_bytes_get_data (good, &size);
  JsonObject *first;

  g_byte_array_append (array, (const guint8 *) "garbage!", 8);
  g_byte_array_append (array, data, (guint) size);
  bytes = g_byte_array_free_to_bytes (array);
  dump_gbytes (bytes, &dump);
  g_assert_true (dump.ok);
  first = rec (&dump, 0);
  g_assert_cmpstr (kind_of (first), ==, "invalid");
  g_assert_cmpint (json_object_get_int_member (first, "offset"), ==, 0);
  g_assert_cmpuint (count_data (&dump, "v", 0), ==, 100);
}

static void
test_unknown_stream_skips_unit (void)
{
  g_autoptr(GBytes) good = build_long_trace (2000);
  g_autoptr(GBytes) bytes = NULL;
  g_auto(Dump) full = { 0 };
  g_auto(Dump) dump = { 0 };
  gsize size;
  const guint8 *good_data = g_bytes_get_data (good, &size);
  guint8 *copy = g_memdup2 (good_data, size);
  guint32 crc;

  dump_gbytes (good, &full);
  /* A frame of stream 40 in the second Unit, with the Crc made right. */
  {
    gsize at = 8192 + 1025;

    for (guint i = 0; i < full.records->len; i++)
      {
        JsonObject *o = rec (&full, i);
        if (g_strcmp0 (kind_of (o), "data") == 0 &&
            (gsize) json_object_get_int_member (o, "offset") > 8192 + 3000)
          {
            at = (gsize) json_object_get_int_member (o, "offset");
            break;
          }
      }
    copy[at] = 40 << 1;
  }
  crc = kymo_rtc_crc (copy + 8192 + 1025, 8192 - 1025 - 5);
  crc = GUINT32_TO_LE (crc);
  memcpy (copy + 2 * 8192 - 4, &crc, 4);
  bytes = g_bytes_new_take (copy, size);

  dump_gbytes (bytes, &dump);
  g_assert_true (dump.ok);
  g_assert_cmpuint (count_invalid (&dump, "unknown stream 40"), ==, 1);
  g_assert_cmpuint (count_kind (&dump, "invalid"), <=, 2);
  g_assert_cmpuint (count_data (&dump, "v", 16384), ==, count_data (&full, "v", 16384));
  g_assert_cmpuint (count_data (&dump, "v", 0), <, 2000);
}

static void
test_cut_marker_at_end (void)
{
  g_autoptr(GBytes) good = build_long_trace (1000);
  g_auto(Dump) dump = { 0 };
  gsize size;
  const guint8 *data = g_bytes_get_data (good, &size);

  /* Cut inside the third Marker. */
  dump_bytes (data, 2 * 8192 + 500, &dump);
  g_assert_false (dump.ok);
  g_assert_error (dump.error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_TRUNCATED);
  g_assert_cmpuint (count_kind (&dump, "marker"), ==, 2);
  g_assert_cmpuint (count_kind (&dump, "crc"), ==, 2);
}

/* A recording read from its middle, where the first value after the Unit
 * start is the rest of a value cut at the Unit boundary. */
static void
test_mid_recording_split (void)
{
  RtcWriter w;
  g_autoptr(GBytes) bytes = NULL;
  g_auto(Dump) full = { 0 };
  g_auto(Dump) dump = { 0 };
  guint stream;
  gsize size, markers[8], n_markers = 0;
  const guint8 *data;
  guint fragments = 0;

  rtcw_init (&w, 4096, 2048, FALSE);
  stream = rtcw_stream (&w, "\"name\":\"v\",\"format\":\"uint64le\"", 8);
  rtcw_start (&w);
  for (guint64 i = 0; i < 1500; i++)
    {
      guint64 v = GUINT64_TO_LE (i);
      rtcw_write (&w, stream, &v, 8, FALSE);
    }
  rtcw_stop (&w);
  bytes = rtcw_free_to_bytes (&w);
  data = g_bytes_get_data (bytes, &size);
  dump_gbytes (bytes, &full);
  g_assert_cmpuint (count_data (&full, "v", 0), ==, 1500);

  for (guint i = 0; i < full.records->len && n_markers < G_N_ELEMENTS (markers); i++)
    if (line_is (&full, i, "marker"))
      markers[n_markers++] = (gsize) json_object_get_int_member (rec (&full, i), "offset");
  g_assert_cmpuint (n_markers, >=, 3);

  for (gsize m = 1; m < n_markers; m++)
    {
      g_auto(Dump) part = { 0 };
      gsize from = markers[m] - 100;
      guint64 first_after;
      JsonObject *o;


      dump_bytes (data + from, size - from, &part);
      g_assert_true (part.ok);
      /* Every value that begins after the Marker reads right. */
      first_after = count_data (&full, "v", 0) - count_data (&full, "v", markers[m]);
      o = data_of (&part, "v", 0);
      g_assert_nonnull (o);
      for (guint i = 0; i < part.records->len; i++)
        {
          JsonObject *r = rec (&part, i);
          if (g_strcmp0 (kind_of (r), "data") == 0)
            g_assert_cmpint (json_object_get_int_member (r, "value"), ==, (gint64) first_after++);
        }
      g_assert_cmpuint (first_after, ==, 1500);
      if (count_kind (&part, "invalid") > 1)
        fragments++;
    }
  /* The layout puts a cut value at some Unit start. */
  g_assert_cmpuint (fragments, >, 0);
}

/* ---- the samples ------------------------------------------------------ */

static void
check_sample_crcs (Dump  *dump,
                   guint  n_units)
{
  g_assert_true (dump->ok);
  g_assert_cmpuint (count_kind (dump, "invalid"), ==, 0);
  g_assert_cmpuint (count_kind (dump, "marker"), ==, n_units);
  g_assert_cmpuint (count_kind (dump, "crc"), ==, n_units);
  for (guint i = 0; i < dump->records->len; i++)
    if (line_is (dump, i, "crc"))
      g_assert_true (json_object_get_boolean_member (rec (dump, i), "ok"));
}

static void
test_sample_inputs (void)
{
  g_autoptr(GBytes) bytes = sample_bytes ("rtc/inputs.rtc");
  g_autoptr(KymoTrace) trace = NULL;
  g_auto(Dump) dump = { 0 };
  const KymoAnnotation *lines;
  KymoTrack *track;
  gsize n;

  if (bytes == NULL)
    return;
  dump_gbytes (bytes, &dump);
  check_sample_crcs (&dump, 1);
  g_assert_cmpuint (count_data (&dump, "clk", 0), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (data_of (&dump, "stdin", 2), "value"), ==, "third line\n");

  trace = load_gbytes (bytes, NULL);
  g_assert_nonnull (trace);
  g_assert_null (kymo_trace_get_stop_error (trace));
  track = kymo_test_find_track (trace, "stdin");
  g_assert_cmpint (kymo_track_get_kind (track), ==, KYMO_TRACK_LOG);
  lines = kymo_track_get_annotations (track, &n);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpstr (lines[0].text, ==, "hello from the ruler-trace inputs example");
  g_assert_cmpstr (lines[2].text, ==, "third line");
  g_assert_cmpint (lines[0].start, ==, json_object_get_int_member (data_of (&dump, "clk", 1), "ts"));
}

static void
test_sample_small (void)
{
  g_autoptr(GBytes) bytes = sample_bytes ("rtc/generated-writer-lib/small.rtc");
  g_autoptr(KymoTrace) trace = NULL;
  g_auto(Dump) dump = { 0 };
  guint64 spans, instants, samples, annotations;
  KymoTrack *track;
  gsize n;

  if (bytes == NULL)
    return;
  dump_gbytes (bytes, &dump);
  check_sample_crcs (&dump, 4);
  g_assert_cmpuint (count_kind (&dump, "index"), ==, 52);
  g_assert_cmpuint (count_data (&dump, "sample", 0), ==, 20000);
  g_assert_cmpuint (count_data (&dump, "temperature", 0), ==, 2000);
  g_assert_cmpuint (count_data (&dump, "blob", 0), ==, 2);
  g_assert_cmpuint (count_data (&dump, "remarks", 0), ==, 2);

  trace = load_gbytes (bytes, NULL);
  g_assert_nonnull (trace);
  g_assert_null (kymo_trace_get_stop_error (trace));
  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  g_assert_cmpuint (samples, ==, 22000);
  g_assert_cmpuint (instants, ==, 2);
  track = kymo_test_find_track (trace, "sample");
  {
    const KymoSample *s = kymo_track_get_samples (track, &n);
    g_assert_cmpuint (n, ==, 20000);
    for (gsize i = 0; i < n; i++)
      g_assert_cmpfloat (fabs (s[i].value), <=, 10.0);
  }
  track = kymo_test_find_track (trace, "blob");
  {
    KymoEventRef ref = { kymo_track_get_id (track), KYMO_EVENT_KIND_INSTANT, 0 };
    JsonObject *details = kymo_trace_describe_event (trace, &ref);

    g_assert_nonnull (details);
    g_assert_cmpint (json_object_get_int_member (details, "size"), ==, 3000);
    g_assert_cmpuint (strlen (json_object_get_string_member (details, "value")), ==, 6000);
    json_object_unref (details);
  }
  g_assert_true (kymo_track_get_annotations (kymo_test_find_track (trace, "event"), &n) != NULL);
  g_assert_cmpuint (n, ==, 82);
}

static void
test_sample_default (void)
{
  g_autoptr(GBytes) bytes = sample_bytes ("rtc/generated-writer-lib/default.rtc");
  g_autoptr(KymoTrace) trace = NULL;
  g_auto(Dump) dump = { 0 };
  guint64 spans, instants, samples, annotations;

  if (bytes == NULL)
    return;
  dump_gbytes (bytes, &dump);
  check_sample_crcs (&dump, 4);
  g_assert_cmpuint (count_data (&dump, "sample", 0), ==, 300000);

  trace = load_gbytes (bytes, NULL);
  g_assert_nonnull (trace);
  g_assert_null (kymo_trace_get_stop_error (trace));
  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  g_assert_cmpuint (samples, ==, 330000);
}

/* Truncated anywhere: no crash, every whole Unit before the cut kept. */
static void
test_sample_truncated (void)
{
  g_autoptr(GBytes) bytes = sample_bytes ("rtc/generated-writer-lib/small.rtc");
  g_autoptr(GArray) cuts = NULL;
  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_auto(Dump) full = { 0 };
  const guint8 *data;
  gsize size;

  if (bytes == NULL)
    return;
  data = g_bytes_get_data (bytes, &size);
  dump_gbytes (bytes, &full);
  for (guint i = 0; i < full.records->len; i++)
    {
      guint64 at;

      if (data_line (&full, i, "sample", &at))
        {
          gsize offset = (gsize) at;
          g_array_append_val (offsets, offset);
        }
    }

  /* Every offset near the unit boundaries, and a stride elsewhere. */
  cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  for (gsize at = 0; at <= size; at += 509)
    g_array_append_val (cuts, at);
  for (gsize b = 0; b < size; b += 4096)
    for (gsize d = 0; d < 16; d++)
      {
        gsize lo = b >= 8 ? b - 8 + d : d, hi = b + 1025 - 8 + d;
        if (lo <= size)
          g_array_append_val (cuts, lo);
        if (hi <= size)
          g_array_append_val (cuts, hi);
      }

  for (guint i = 0; i < cuts->len; i++)
    {
      gsize len = g_array_index (cuts, gsize, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = kymo_test_load_bytes (data, len, "rtc", &error);
      gsize whole = len / 65536 * 65536, n = 0;
      guint expect = 0;
      KymoTrack *track;

      /* The samples of the whole Units before the cut. */
      while (expect < offsets->len && g_array_index (offsets, gsize, expect) < whole)
        expect++;

      if (trace == NULL)
        {
          /* Nothing read yet: the cut is reported, nothing else is lost. */
          g_assert_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_TRUNCATED);
          g_assert_cmpuint (expect, ==, 0);
          continue;
        }
      track = kymo_test_find_track (trace, "sample");
      if (track)
        kymo_track_get_samples (track, &n);
      g_assert_cmpuint (n + 1, >=, expect);
      g_assert_cmpuint (n, <=, 20000);
    }
}

static void
test_sample_mid_file (void)
{
  g_autoptr(GBytes) bytes = sample_bytes ("rtc/generated-writer-lib/small.rtc");
  g_auto(Dump) full = { 0 };
  const guint8 *data;
  gsize size;

  if (bytes == NULL)
    return;
  data = g_bytes_get_data (bytes, &size);
  dump_gbytes (bytes, &full);

  for (gsize from = 1; from < size; from += 30011)
    {
      g_auto(Dump) part = { 0 };
      g_autoptr(KymoTrace) trace = NULL;
      gsize marker = (from + 65535) / 65536 * 65536;
      const char *streams[] = { "sample", "temperature", "event", "stdout", "blob" };

      if (marker >= size)
        continue;
      dump_bytes (data + from, size - from, &part);
      g_assert_true (part.ok);
      g_assert_cmpstr (kind_of (rec (&part, 0)), ==, "invalid");
      for (guint s = 0; s < G_N_ELEMENTS (streams); s++)
        g_assert_cmpuint (count_data (&part, streams[s], 0), ==, count_data (&full, streams[s], marker));

      trace = kymo_test_load_bytes (data + from, size - from, "rtc", NULL);
      g_assert_nonnull (trace);
      g_assert_null (kymo_trace_get_stop_error (trace));
    }
}

static void
test_sample_flipped (void)
{
  g_autoptr(GBytes) bytes = sample_bytes ("rtc/generated-writer-lib/small.rtc");
  g_auto(Dump) full = { 0 };
  const guint8 *data;
  gsize size;

  if (bytes == NULL)
    return;
  data = g_bytes_get_data (bytes, &size);
  dump_gbytes (bytes, &full);

  for (gsize at = 65536 + 1025; at < 131072 - 5; at += 16001)
    {
      g_autofree guint8 *copy = g_memdup2 (data, size);
      g_auto(Dump) dump = { 0 };
      g_autoptr(KymoTrace) trace = NULL;
      g_autofree char *expect = g_strdup_printf ("CRC mismatch in the Unit of %d bytes at offset 65536",
                                                 65536 - 1025 - 5);

      copy[at] ^= 0x10;
      dump_bytes (copy, size, &dump);
      g_assert_true (dump.ok);
      g_assert_cmpuint (count_kind (&dump, "invalid"), ==, 1);
      g_assert_cmpuint (count_data (&dump, "sample", 131072), ==, count_data (&full, "sample", 131072));
      g_assert_cmpuint (count_data (&dump, "sample", 0), ==,
                        count_data (&full, "sample", 0) -
                        (count_data (&full, "sample", 65536) - count_data (&full, "sample", 131072)));

      trace = kymo_test_load_bytes (copy, size, "rtc", NULL);
      g_assert_nonnull (trace);
      g_assert_null (kymo_trace_get_stop_error (trace));
      g_assert_true (has_warning (trace, expect));
    }
}

/* ---- the thread working ahead ----------------------------------------- */

/* A data logger's recording over many Units, over several of the byte
 * ranges whose CRCs workers compute: a delta clock, two fixed-size streams,
 * text and an annotation. */
static GBytes *
build_logger_trace (guint64 *n_ticks)
{
  RtcWriter w;
  guint clk, delta, sample, temp, event, remarks;
  guint64 tick;

  rtcw_init (&w, 1 << 16, 1 << 12, FALSE);
  clk = rtcw_stream (&w, "\"name\":\"clk\",\"clock\":true,\"format\":\"timespec\"", -1);
  delta = rtcw_stream (&w, "\"name\":\"d\",\"clock\":true,\"format\":\"uleb128\",\"gain\":1e-9,\"delta\":\"clk\"", -1);
  sample = rtcw_stream (&w, "\"name\":\"sample\",\"clock\":\"d\",\"format\":\"int16le\",\"gain\":0.5", 2);
  temp = rtcw_stream (&w, "\"name\":\"temperature\",\"clock\":\"d\",\"format\":\"float64le\"", 8);
  event = rtcw_stream (&w, "\"name\":\"event\",\"clock\":\"d\",\"format\":\"utf-8\"", -1);
  remarks = rtcw_stream (&w, "\"name\":\"remarks\",\"stream\":\"event\",\"format\":\"annotate/utf-8\"", -1);
  rtcw_start (&w);
  for (tick = 0; rtcw_pos (&w) < (3u << 20); tick++)
    {
      guint8 buf[10];
      gsize n = 0;
      guint64 d = (tick % 1000) * 1000;
      gint16 v = GINT16_TO_LE ((gint16) ((tick * 37) % 30000 - 15000));

      if (tick % 1000 == 0)
        {
          guint8 ts[12];

          put_timespec (ts, 1000 + tick / 1000, 0, FALSE);
          rtcw_write (&w, clk, ts, 12, FALSE);
        }
      do
        {
          buf[n] = d & 0x7F;
          d >>= 7;
          if (d)
            buf[n] |= 0x80;
          n++;
        }
      while (d);
      rtcw_write (&w, delta, buf, n, FALSE);
      rtcw_write (&w, sample, &v, 2, FALSE);
      if (tick % 7 == 0)
        {
          double t = (double) (tick % 100) / 8.0;
          rtcw_write (&w, temp, &t, 8, FALSE);
        }
      if (tick % 333 == 0)
        {
          g_autofree char *line = g_strdup_printf ("event %" G_GUINT64_FORMAT, tick);
          rtcw_write (&w, event, line, strlen (line), FALSE);
        }
      if (tick % 5000 == 2500)
        {
          guint8 note[12 + 16];

          put_timespec (note, 1000 + tick / 1000, 5, FALSE);
          memcpy (note + 12, "remark here", 11);
          rtcw_write (&w, remarks, note, 12 + 11, FALSE);
        }
    }
  rtcw_stop (&w);
  if (n_ticks)
    *n_ticks = tick;
  return rtcw_free_to_bytes (&w);
}

/* Everything a load gives, as text. */
static char *
trace_text (KymoTrace *trace)
{
  GString *out = g_string_new (NULL);
  const GError *stop = kymo_trace_get_stop_error (trace);
  const KymoWarning *warnings;
  gsize n;

  g_string_append_printf (out, "stop %s\n", stop ? stop->message : "-");
  warnings = kymo_trace_get_warnings (trace, &n);
  for (gsize i = 0; i < n; i++)
    g_string_append_printf (out, "warning %" G_GUINT64_FORMAT " %s\n", warnings[i].offset, warnings[i].message);
  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);
      const KymoSample *samples = kymo_track_get_samples (track, &n);
      const KymoInstant *instants;
      const KymoAnnotation *annotations;

      g_string_append_printf (out, "track %s %d\n", kymo_track_get_name (track), kymo_track_get_kind (track));
      for (gsize i = 0; i < n; i++)
        g_string_append_printf (out, "s %" G_GINT64_FORMAT " %.17g\n", samples[i].ts, samples[i].value);
      instants = kymo_track_get_instants (track, &n);
      for (gsize i = 0; i < n; i++)
        g_string_append_printf (out, "i %" G_GINT64_FORMAT " %u %u\n", instants[i].ts,
                                instants[i].name_flags, instants[i].source);
      annotations = kymo_track_get_annotations (track, &n);
      for (gsize i = 0; i < n; i++)
        g_string_append_printf (out, "a %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %u %u %s\n",
                                annotations[i].start, annotations[i].end, annotations[i].name,
                                annotations[i].source, annotations[i].text);
    }
  return g_string_free (out, FALSE);
}

/* Names the first line that differs: the texts are long. */
static void
assert_same_text (const char *a,
                  const char *b)
{
  gsize line = 1, at = 0;

  while (a[at] != '\0' && a[at] == b[at])
    if (a[at++] == '\n')
      line++;
  if (a[at] != b[at])
    {
      g_autofree char *x = g_strndup (a + at, 80);
      g_autofree char *y = g_strndup (b + at, 80);

      g_error ("line %zu differs: \"%s\" and \"%s\"", line, x, y);
    }
}

static void
check_ahead_same (const guint8 *data,
                  gsize         size)
{
  /* Sequential, one worker, and more workers than parts at a time. */
  static const guint threads[] = { 1, 2, 7 };
  char *text[G_N_ELEMENTS (threads)] = { NULL, };
  char *dumped[G_N_ELEMENTS (threads)] = { NULL, };
  gboolean ok[G_N_ELEMENTS (threads)];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_autoptr(KymoTrace) trace = NULL;

      kymo_test_set_threads (threads[i]);
      trace = kymo_test_load_bytes (data, size, "rtc", NULL);
      g_assert_nonnull (trace);
      text[i] = trace_text (trace);
      dumped[i] = kymo_test_dump_bytes (data, size, "rtc", &ok[i], NULL);
    }
  kymo_test_set_threads (0);
  for (guint i = 1; i < G_N_ELEMENTS (threads); i++)
    {
      assert_same_text (text[0], text[i]);
      assert_same_text (dumped[0], dumped[i]);
      g_assert_cmpint (ok[0], ==, ok[i]);
    }
  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_free (text[i]);
      g_free (dumped[i]);
    }
}

/* CRCs and page faults on workers must not change what loads: whole,
 * damaged, cut short, or read from the middle. */
static void
test_ahead_same (void)
{
  guint64 n_ticks;
  g_autoptr(GBytes) bytes = build_logger_trace (&n_ticks);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  g_autofree guint8 *copy = g_memdup2 (data, size);
  const gsize flips[] = { 3 * 65536 + 4000, 17 * 65536 + 1024, 30 * 65536 + 65000 };

  g_assert_cmpuint (size, >, 3u << 20);
  /* Units smaller than the writer's default size, over more than one
   * default size: every one is read, every sample kept. */
  {
    g_autoptr(KymoTrace) trace = load_gbytes (bytes, NULL);
    gsize n, n_warnings;

    g_assert_nonnull (trace);
    kymo_track_get_samples (kymo_test_find_track (trace, "sample"), &n);
    g_assert_cmpuint (n, ==, n_ticks);
    kymo_trace_get_warnings (trace, &n_warnings);
    g_assert_cmpuint (n_warnings, ==, 0);
  }
  check_ahead_same (data, size);

  for (guint i = 0; i < G_N_ELEMENTS (flips); i++)
    copy[flips[i]] ^= 0x21;
  check_ahead_same (copy, size);

  check_ahead_same (data, 2 * 1024 * 1024 + 12345);
  check_ahead_same (data + 1500001, size - 1500001);
  check_ahead_same (copy + 65536 + 1, size - 65536 - 1);

  /* A false Marker inside a Unit, where a worker's walk starts. */
  memcpy (copy, data, size);
  copy[(2u << 20) + 20000] = 0x04;
  memset (copy + (2u << 20) + 20001, 0xB9, 1024);
  check_ahead_same (copy, size);
}

static void
cancel_on_progress (double      fraction,
                    const char *message,
                    gpointer    data)
{
  g_cancellable_cancel (data);
}

/* A cancelled load stops with the other thread running too, and joins it. */
static void
test_ahead_cancel (void)
{
  g_autoptr(GBytes) bytes = build_logger_trace (NULL);

  for (int ahead = 0; ahead < 2; ahead++)
    {
      g_autoptr(KymoInput) input = kymo_input_new_for_bytes (bytes, "test-input");
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GError) error = NULL;
      g_autoptr(KymoTrace) trace = NULL;
      KymoLoadOptions options = { .format = "rtc", .threads = ahead + 1 };

      trace = kymo_load_sync (input, &options, cancel_on_progress, cancellable, cancellable, &error);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_null (trace);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/rtc/crc-check-value", test_crc_check_value);
  g_test_add_func ("/rtc/detect", test_detect);
  g_test_add_func ("/rtc/frame-types", test_frame_types);
  g_test_add_func ("/rtc/fixed-split", test_fixed_split);
  g_test_add_func ("/rtc/formats-le", test_formats_little_endian);
  g_test_add_func ("/rtc/formats-be", test_formats_big_endian);
  g_test_add_func ("/rtc/clocks-dump", test_clocks_dump);
  g_test_add_func ("/rtc/model", test_model);
  g_test_add_func ("/rtc/unrelated-clocks", test_unrelated_clocks);
  g_test_add_func ("/rtc/bare-meta-keys", test_bare_meta_keys);
  g_test_add_func ("/rtc/bad-crc", test_bad_crc);
  g_test_add_func ("/rtc/garbage-before-marker", test_garbage_before_marker);
  g_test_add_func ("/rtc/unknown-stream", test_unknown_stream_skips_unit);
  g_test_add_func ("/rtc/cut-marker", test_cut_marker_at_end);
  g_test_add_func ("/rtc/mid-recording-split", test_mid_recording_split);
  g_test_add_func ("/rtc/ahead-same", test_ahead_same);
  g_test_add_func ("/rtc/ahead-cancel", test_ahead_cancel);
  g_test_add_func ("/rtc/sample/inputs", test_sample_inputs);
  g_test_add_func ("/rtc/sample/small", test_sample_small);
  g_test_add_func ("/rtc/sample/default", test_sample_default);
  g_test_add_func ("/rtc/sample/truncated", test_sample_truncated);
  g_test_add_func ("/rtc/sample/mid-file", test_sample_mid_file);
  g_test_add_func ("/rtc/sample/flipped", test_sample_flipped);

  return g_test_run ();
}
