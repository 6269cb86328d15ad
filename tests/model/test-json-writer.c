/* test-json-writer.c: what dump and export print
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "kymo.h"

static void
test_values (void)
{
  g_autoptr(KymoJsonWriter) w = kymo_json_writer_new (NULL);
  static const guint8 bytes[] = { 0x00, 0xab, 0xff };

  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "u");
  kymo_json_writer_uint (w, G_MAXUINT64);
  kymo_json_writer_key (w, "i");
  kymo_json_writer_int (w, G_MININT64);
  kymo_json_writer_key (w, "nan");
  kymo_json_writer_double (w, NAN);
  kymo_json_writer_key (w, "inf");
  kymo_json_writer_double (w, -INFINITY);
  kymo_json_writer_key (w, "f");
  kymo_json_writer_double (w, 0.5);
  kymo_json_writer_key (w, "big");
  kymo_json_writer_double (w, 1e300);
  kymo_json_writer_key (w, "hex");
  kymo_json_writer_hex (w, bytes, sizeof bytes);
  kymo_json_writer_key (w, "bad");
  kymo_json_writer_string (w, "a\xff" "b\n\"", -1);
  kymo_json_writer_key (w, "list");
  kymo_json_writer_begin_array (w);
  kymo_json_writer_bool (w, TRUE);
  kymo_json_writer_null (w);
  kymo_json_writer_begin_array (w);
  kymo_json_writer_end_array (w);
  kymo_json_writer_end_array (w);
  kymo_json_writer_end_object (w);
  kymo_json_writer_end_line (w);

  g_assert_cmpstr (kymo_json_writer_get_string (w), ==,
                   "{\"u\":18446744073709551615,\"i\":-9223372036854775808,\"nan\":\"NaN\","
                   "\"inf\":\"-Infinity\",\"f\":0.5,\"big\":1e+300,\"hex\":\"00abff\",\"bad\":\"a\xef\xbf\xbd" "b\\n\\\"\","
                   "\"list\":[true,null,[]]}\n");
}

static void
test_ns_as_us (void)
{
  static const struct { gint64 ns; const char *text; } cases[] = {
    { 1234567, "1234.567" }, { 1000, "1" }, { 0, "0" }, { 1, "0.001" },
    { 1230, "1.23" }, { -1500, "-1.5" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(KymoJsonWriter) w = kymo_json_writer_new (NULL);
      kymo_json_writer_ns_as_us (w, cases[i].ns);
      g_assert_cmpstr (kymo_json_writer_get_string (w), ==, cases[i].text);
    }
}

static void
test_output_parses (void)
{
  g_autoptr(KymoJsonWriter) w = kymo_json_writer_new (NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string ("{\"a\":[1,2.5,\"x\",null,{\"b\":false}]}", &error);

  g_assert_no_error (error);
  kymo_json_writer_node (w, node);
  g_assert_cmpstr (kymo_json_writer_get_string (w), ==, "{\"a\":[1,2.5,\"x\",null,{\"b\":false}]}");
  json_parser_load_from_data (parser, kymo_json_writer_get_string (w), -1, &error);
  g_assert_no_error (error);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-writer/values", test_values);
  g_test_add_func ("/json-writer/ns-as-us", test_ns_as_us);
  g_test_add_func ("/json-writer/output-parses", test_output_parses);
  return g_test_run ();
}
