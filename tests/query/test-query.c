/* test-query.c: SQL over the model agrees with the model
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"
#include "atf/kymo-atf-builder.h"
#include "../wtf/wtf-writer.h"

/* Every format, read in place from ../shared/samples. */
static const struct {
  const char *path;
  const char *format;
} samples[] = {
  { "dial9/head-6342350/demo-trace.bin", "dial9" },
  { "rtc/generated-writer-lib/default.rtc", "rtc" },
  { "atf/generated-ada-writer/ada_traces", "atf" },
  { "wtf/generated-cpp-bindings/example.wtf-trace", "wtf" },
  { "wtf/blk-client.wtf-trace", "wtf" },
  { "tonbandgeraet/log", "tband" },
};

/* Nested spans on three threads, an instant track and a counter. */
static KymoTrace *
generated_trace (void)
{
  KymoTrace *trace = kymo_trace_new ();
  const char *names[] = { "alpha", "beta", "gamma", "delta, with comma", "" };
  guint32 ids[G_N_ELEMENTS (names)];
  guint instant_track, counter_track;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    ids[i] = kymo_trace_intern (trace, names[i]);
  for (guint t = 0; t < 3; t++)
    {
      guint track = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "thread");
      KymoTrack *tr = kymo_trace_get_track (trace, track);

      for (guint r = 0; r < 200; r++)
        {
          gint64 lo = r * 10000 + g_test_rand_int_range (0, 1000);
          gint64 hi = lo + g_test_rand_int_range (0, 8000);
          gint64 c = lo;

          kymo_track_add_span (tr, lo, hi, ids[g_test_rand_int_range (0, 5)], 0, 0, 0);
          /* back-to-back children, some of zero length */
          while (c < hi && g_test_rand_bit ())
            {
              gint64 len = g_test_rand_int_range (0, 3000);
              gint64 e = MIN (hi, c + len);

              kymo_track_add_span (tr, c, e, ids[g_test_rand_int_range (0, 5)], 1, 0, 0);
              if (e > c + 2)
                kymo_track_add_span (tr, c + 1, e - 1, ids[g_test_rand_int_range (0, 5)], 2, 0, 0);
              c = e;
            }
        }
    }
  instant_track = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_INSTANT, "marks");
  for (guint i = 0; i < 50; i++)
    kymo_track_add_instant (kymo_trace_get_track (trace, instant_track), i * 777, ids[i % 3], 0, 0);
  counter_track = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_COUNTER, "queue");
  for (guint i = 0; i < 50; i++)
    kymo_track_add_sample (kymo_trace_get_track (trace, counter_track), i * 1000, i * 0.5);
  kymo_trace_seal (trace);
  return trace;
}

/* One shape of nested calls, written by the WTF and ATF writers: A [0,100]
 * holds B [0,30] (holding D [10,20]) and C [70,100]; E [100,150] starts
 * where A ends and holds F [100,120], whose parent is E, not A. */
typedef struct {
  guint       time;
  gboolean    enter;
  const char *name;
  guint       depth;
} Step;

static const Step shape[] = {
  { 0, TRUE, "A", 1 },   { 0, TRUE, "B", 2 },    { 10, TRUE, "D", 3 },  { 20, FALSE, "D", 3 },
  { 30, FALSE, "B", 2 }, { 70, TRUE, "C", 2 },   { 100, FALSE, "C", 2 }, { 100, FALSE, "A", 1 },
  { 100, TRUE, "E", 1 }, { 100, TRUE, "F", 2 },  { 120, FALSE, "F", 2 }, { 150, FALSE, "E", 1 },
};

enum { W_ENTER = 2, W_LEAVE, W_FETCH };

static KymoTrace *
generated_wtf (void)
{
  WwWriter *w = ww_new (WW_LEGACY_LE, "{}", NULL, 0);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  KymoTrace *trace;

  ww_define (w, 1, W_ENTER, 1, 0x20, "wtf.scope#enter", "ascii name");
  ww_define (w, 1, W_LEAVE, 0, 0x28, "wtf.scope#leave", NULL);
  ww_define (w, 1, W_FETCH, 1, 0, "net#fetch", "ascii who, int32 bytes, float32 ratio");
  for (guint i = 0; i < G_N_ELEMENTS (shape); i++)
    {
      ww_event (w, shape[i].enter ? W_ENTER : W_LEAVE, 1000 + shape[i].time);
      if (shape[i].enter)
        ww_string (w, WW_ASCII, shape[i].name);
    }
  /* a scope with arguments */
  ww_event (w, W_FETCH, 1200);
  ww_string (w, WW_ASCII, "alice");
  ww_int (w, WW_INT32, 123456);
  ww_float (w, 0.5f);
  ww_event (w, W_LEAVE, 1300);
  bytes = ww_finish (w);
  trace = kymo_test_load_bytes (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), "wtf", &error);
  g_assert_no_error (error);
  return trace;
}

static const char manifest_text[] =
  "{\"threads\":[{\"id\":0,\"has_detail\":false}],"
  "\"time_start_ns\":0,\"time_end_ns\":0,\"clock_type\":1,"
  "\"modules\":[{\"module_id\":1,\"path\":\"/bin/app\"}],"
  "\"symbols\":["
  "{\"function_id\":\"0x0000000100000001\",\"module_id\":1,\"symbol_index\":1,\"name\":\"A\"},"
  "{\"function_id\":\"0x0000000100000002\",\"module_id\":1,\"symbol_index\":2,\"name\":\"B\"},"
  "{\"function_id\":\"0x0000000100000003\",\"module_id\":1,\"symbol_index\":3,\"name\":\"C\"},"
  "{\"function_id\":\"0x0000000100000004\",\"module_id\":1,\"symbol_index\":4,\"name\":\"D\"},"
  "{\"function_id\":\"0x0000000100000005\",\"module_id\":1,\"symbol_index\":5,\"name\":\"E\"},"
  "{\"function_id\":\"0x0000000100000006\",\"module_id\":1,\"symbol_index\":6,\"name\":\"F\"}],"
  "\"format_version\":\"2.1\"}";

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  if (dir != NULL)
    while ((name = g_dir_read_name (dir)))
      {
        g_autofree char *child = g_build_filename (path, name, NULL);
        remove_tree (child);
      }
  g_remove (path);
}

static KymoTrace *
generated_atf (void)
{
  g_autofree char *root = g_dir_make_tmp ("kymo-query-atf-XXXXXX", NULL);
  g_autofree char *pid_dir = g_build_filename (root, "session_20260101_000000", "pid_7", NULL);
  g_autofree char *manifest = g_build_filename (pid_dir, "manifest.json", NULL);
  g_autoptr(GError) error = NULL;
  KymoAtfThreadBuilder b;
  KymoTrace *trace;

  g_assert_cmpint (g_mkdir_with_parents (pid_dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (manifest, manifest_text, -1, NULL));
  kymo_atf_builder_init (&b, 0, KYMO_ATF_ARCH_ARM64);
  for (guint i = 0; i < G_N_ELEMENTS (shape); i++)
    kymo_atf_builder_add_index (&b, 1000 + shape[i].time,
                                G_GUINT64_CONSTANT (0x0000000100000000) + (shape[i].name[0] - 'A' + 1),
                                shape[i].enter ? KYMO_ATF_CALL : KYMO_ATF_RETURN, shape[i].depth,
                                KYMO_ATF_NO_DETAIL);
  g_assert_true (kymo_atf_builder_write (&b, pid_dir, TRUE, NULL));
  kymo_atf_builder_clear (&b);
  trace = kymo_test_load_path (root, "atf", &error);
  g_assert_no_error (error);
  remove_tree (root);
  return trace;
}

static GPtrArray *
load_traces (void)
{
  GPtrArray *traces = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (traces, generated_trace ());
  g_ptr_array_add (traces, generated_wtf ());
  g_ptr_array_add (traces, generated_atf ());
  if (g_getenv ("KYMO_SAMPLES_DIR") == NULL)
    {
      g_test_message ("KYMO_SAMPLES_DIR is not set: generated trace only");
      return traces;
    }
  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("KYMO_SAMPLES_DIR"), samples[i].path, NULL);
      g_autoptr(GError) error = NULL;
      KymoTrace *trace;

      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        {
          g_test_message ("%s is missing: skipped", path);
          continue;
        }
      trace = kymo_test_load_path (path, samples[i].format, &error);
      g_assert_no_error (error);
      g_ptr_array_add (traces, trace);
    }
  return traces;
}

typedef struct {
  GArray *rows;  /* KymoQueryValue, texts duplicated */
  guint   n_columns;
} Rows;

static gboolean
collect (KymoQuery            *query,
         const KymoQueryValue *values,
         gpointer              user_data)
{
  Rows *rows = user_data;

  rows->n_columns = kymo_query_get_n_columns (query);
  for (guint i = 0; i < rows->n_columns; i++)
    {
      KymoQueryValue v = values[i];

      v.text = v.type == KYMO_QUERY_TEXT ? g_strdup (v.text) : NULL;
      g_array_append_val (rows->rows, v);
    }
  return TRUE;
}

static void
rows_free (Rows *rows)
{
  for (guint i = 0; i < rows->rows->len; i++)
    g_free ((char *) g_array_index (rows->rows, KymoQueryValue, i).text);
  g_array_unref (rows->rows);
  g_free (rows);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Rows, rows_free)

static Rows *
run (KymoQuery  *query,
     const char *sql)
{
  g_autoptr(GError) error = NULL;
  Rows *rows = g_new0 (Rows, 1);

  rows->rows = g_array_new (FALSE, FALSE, sizeof (KymoQueryValue));
  kymo_query_run (query, sql, collect, rows, NULL, NULL, &error);
  g_assert_no_error (error);
  return rows;
}

static const KymoQueryValue *
cell (Rows  *rows,
      guint  row,
      guint  column)
{
  return &g_array_index (rows->rows, KymoQueryValue, row * rows->n_columns + column);
}

static guint
n_rows (Rows *rows)
{
  return rows->n_columns ? rows->rows->len / rows->n_columns : 0;
}

static void
test_query_stats (void)
{
  g_autoptr(GPtrArray) traces = load_traces ();

  for (guint t = 0; t < traces->len; t++)
    {
      KymoTrace *trace = g_ptr_array_index (traces, t);
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) stats = kymo_stats_compute (trace, KYMO_TIME_NONE, KYMO_TIME_NONE, NULL, &error);
      KymoQuery *query = kymo_query_new (trace, &error);
      g_autoptr(GHashTable) expected = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr(Rows) rows = NULL;
      guint64 total_count = 0;

      g_assert_no_error (error);
      for (guint i = 0; i < stats->len; i++)
        {
          KymoNameStats *s = &g_array_index (stats, KymoNameStats, i);
          g_hash_table_insert (expected, (gpointer) s->name, s);
        }
      rows = run (query, "SELECT name, count(*), sum(dur) FROM spans GROUP BY name");
      g_assert_cmpuint (n_rows (rows), ==, g_hash_table_size (expected));
      for (guint r = 0; r < n_rows (rows); r++)
        {
          KymoNameStats *s = g_hash_table_lookup (expected, cell (rows, r, 0)->text);

          g_assert_nonnull (s);
          g_assert_cmpint (cell (rows, r, 1)->integer, ==, s->count);
          g_assert_cmpint (cell (rows, r, 2)->integer, ==, s->total);
          /* GROUP BY comes out in name order without a sort of its own */
          if (r > 0)
            g_assert_cmpint (strcmp (cell (rows, r - 1, 0)->text, cell (rows, r, 0)->text), <, 0);
          total_count += s->count;
        }
      g_clear_pointer (&rows, rows_free);
      rows = run (query, "SELECT count(*) FROM spans");
      g_assert_cmpint (cell (rows, 0, 0)->integer, ==, total_count);

      /* The same through the track order an unsorted plan uses */
      g_clear_pointer (&rows, rows_free);
      rows = run (query, "SELECT name, count(*) FROM spans WHERE track >= 0 GROUP BY name");
      g_assert_cmpuint (n_rows (rows), ==, g_hash_table_size (expected));
      kymo_query_free (query);
    }
}

static void
test_query_parent (void)
{
  g_autoptr(GPtrArray) traces = load_traces ();

  for (guint t = 0; t < traces->len; t++)
    {
      KymoTrace *trace = g_ptr_array_index (traces, t);
      g_autoptr(GError) error = NULL;
      KymoQuery *query = kymo_query_new (trace, &error);
      g_autoptr(Rows) rows = run (query, "SELECT id, track, start, end, depth, parent FROM spans");
      guint n_parents = 0;

      for (guint r = 0; r < n_rows (rows); r++)
        {
          KymoEventRef ref, parent_ref;
          KymoTrack *track;
          const KymoSpan *spans;
          gsize n;
          gint64 depth = cell (rows, r, 4)->integer;

          g_assert_true (kymo_query_lookup_event (query, cell (rows, r, 0)->integer, &ref));
          g_assert_cmpint (ref.kind, ==, KYMO_EVENT_KIND_SPAN);
          track = kymo_trace_get_track (trace, ref.track);
          g_assert_cmpint (kymo_query_track_id (query, ref.track), ==, cell (rows, r, 1)->integer);
          spans = kymo_track_get_spans (track, &n);
          g_assert_cmpint (spans[ref.index].start, ==, cell (rows, r, 2)->integer);
          g_assert_cmpint (spans[ref.index].end, ==, cell (rows, r, 3)->integer);
          g_assert_cmpint (kymo_track_get_span_depth (track, ref.index), ==, depth);

          if (depth == 0)
            {
              g_assert_cmpint (cell (rows, r, 5)->type, ==, KYMO_QUERY_NULL);
              continue;
            }
          /* The span one depth up holding the start, as the timeline nests them */
          if (kymo_track_find_span_at (track, depth - 1, spans[ref.index].start) == G_MAXUINT32)
            {
              g_assert_cmpint (cell (rows, r, 5)->type, ==, KYMO_QUERY_NULL);
              continue;
            }
          g_assert_cmpint (cell (rows, r, 5)->type, ==, KYMO_QUERY_INTEGER);
          g_assert_true (kymo_query_lookup_event (query, cell (rows, r, 5)->integer, &parent_ref));
          g_assert_cmpuint (parent_ref.track, ==, ref.track);
          g_assert_cmpint (kymo_track_get_span_depth (track, parent_ref.index), ==, depth - 1);
          g_assert_cmpint (spans[parent_ref.index].start, <=, spans[ref.index].start);
          g_assert_cmpint (spans[parent_ref.index].end, >=, spans[ref.index].start);
          /* a well-formed child lies inside its parent whole */
          if (t < 3)
            g_assert_cmpint (spans[parent_ref.index].end, >=, spans[ref.index].end);
          n_parents++;
        }
      if (t == 0)
        g_assert_cmpuint (n_parents, >, 0);

      /* F starts where A ends and E starts: its parent is E */
      if (t == 1 || t == 2)
        {
          g_autoptr(Rows) f = run (query, "SELECT p.name FROM spans c JOIN spans p ON p.id = c.parent WHERE c.name = 'F'");
          g_autoptr(Rows) d = run (query, "SELECT p.name FROM spans c JOIN spans p ON p.id = c.parent WHERE c.name = 'D'");

          g_assert_cmpuint (n_rows (f), ==, 1);
          g_assert_cmpstr (cell (f, 0, 0)->text, ==, "E");
          g_assert_cmpstr (cell (d, 0, 0)->text, ==, "B");
        }

      /* parent = X finds exactly the children that name X */
      g_clear_pointer (&rows, rows_free);
      rows = run (query, "SELECT count(*) FROM spans a WHERE a.parent IS NOT NULL AND "
                         "(SELECT count(*) FROM spans c WHERE c.parent = a.parent) < 1");
      g_assert_cmpint (cell (rows, 0, 0)->integer, ==, 0);
      kymo_query_free (query);
    }
}

static void
test_query_args (void)
{
  g_autoptr(GPtrArray) traces = load_traces ();

  for (guint t = 0; t < traces->len; t++)
    {
      KymoTrace *trace = g_ptr_array_index (traces, t);
      g_autoptr(GError) error = NULL;
      KymoQuery *query = kymo_query_new (trace, &error);
      g_autoptr(Rows) ids = run (query, "SELECT id FROM spans UNION ALL SELECT id FROM instants");
      guint step = MAX (n_rows (ids) / 200, 1);

      /* A WTF scope's arguments keep their types */
      if (t == 1)
        {
          g_autoptr(Rows) typed = run (query, "SELECT typeof(value) FROM args WHERE event = "
                                              "(SELECT id FROM spans WHERE name = 'net#fetch') AND key IN ('who', 'bytes', 'ratio') "
                                              "ORDER BY key");

          g_assert_cmpuint (n_rows (typed), ==, 3);
          g_assert_cmpstr (cell (typed, 0, 0)->text, ==, "integer");  /* bytes */
          g_assert_cmpstr (cell (typed, 1, 0)->text, ==, "real");     /* ratio */
          g_assert_cmpstr (cell (typed, 2, 0)->text, ==, "text");     /* who */
        }

      for (guint r = 0; r < n_rows (ids); r += step)
        {
          gint64 id = cell (ids, r, 0)->integer;
          g_autofree char *sql = g_strdup_printf ("SELECT key, value FROM args WHERE event = %" G_GINT64_FORMAT, id);
          g_autoptr(Rows) args = run (query, sql);
          g_autoptr(JsonObject) object = NULL;
          KymoEventRef ref;
          GList *members;
          guint i = 0;

          g_assert_true (kymo_query_lookup_event (query, id, &ref));
          g_assert_cmpint (kymo_query_event_id (query, &ref), ==, id);
          object = kymo_trace_describe_event (trace, &ref);
          members = object ? json_object_get_members (object) : NULL;
          g_assert_cmpuint (n_rows (args), ==, g_list_length (members));
          for (GList *l = members; l; l = l->next, i++)
            {
              JsonNode *node = json_object_get_member (object, l->data);
              const KymoQueryValue *v = cell (args, i, 1);

              g_assert_cmpstr (cell (args, i, 0)->text, ==, l->data);
              if (JSON_NODE_HOLDS_NULL (node))
                g_assert_cmpint (v->type, ==, KYMO_QUERY_NULL);
              else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
                {
                  g_assert_cmpint (v->type, ==, KYMO_QUERY_INTEGER);
                  g_assert_cmpint (v->integer, ==, json_node_get_int (node));
                }
              else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_DOUBLE)
                {
                  g_assert_cmpint (v->type, ==, KYMO_QUERY_REAL);
                  g_assert_cmpfloat (v->real, ==, json_node_get_double (node));
                }
              else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
                g_assert_cmpstr (v->text, ==, json_node_get_string (node));
              else
                g_assert_cmpint (v->type, ==, KYMO_QUERY_TEXT);
            }
          g_list_free (members);
        }
      kymo_query_free (query);
    }
}

/* The spans of the whole trace overlapping [t0, t1], by the interval trees. */
static GHashTable *
interval_ids (KymoQuery *query,
              KymoTime   t0,
              KymoTime   t1)
{
  KymoTrace *trace = kymo_query_get_trace (query);
  GHashTable *ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint t = 0; t < kymo_trace_get_n_tracks (trace); t++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, t);

      for (guint d = 0; d < kymo_track_get_n_depths (track); d++)
        {
          g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));

          kymo_track_query_spans (track, d, t0, t1, hits);
          for (guint i = 0; i < hits->len; i++)
            {
              KymoEventRef ref = { t, KYMO_EVENT_KIND_SPAN, g_array_index (hits, guint32, i) };
              gint64 *id = g_new (gint64, 1);

              *id = kymo_query_event_id (query, &ref);
              g_hash_table_add (ids, id);
            }
        }
    }
  return ids;
}

static void
test_query_intervals (void)
{
  g_autoptr(GPtrArray) traces = load_traces ();

  for (guint t = 0; t < traces->len; t++)
    {
      KymoTrace *trace = g_ptr_array_index (traces, t);
      g_autoptr(GError) error = NULL;
      KymoQuery *query = kymo_query_new (trace, &error);
      KymoTime start, end;

      kymo_trace_get_time_range (trace, &start, &end);
      if (start == KYMO_TIME_NONE)
        {
          kymo_query_free (query);
          continue;
        }
      for (guint k = 0; k < 8; k++)
        {
          KymoTime t0 = start + (end - start) / 8 * k + g_test_rand_int_range (0, 1000);
          KymoTime t1 = t0 + (end - start) / (k + 3);
          g_autoptr(GHashTable) expected = interval_ids (query, t0, t1);
          g_autofree char *sql = g_strdup_printf ("SELECT id, start, end FROM spans WHERE start <= %" G_GINT64_FORMAT
                                                  " AND end >= %" G_GINT64_FORMAT, t1, t0);
          g_autofree char *between = g_strdup_printf ("SELECT count(*) FROM spans WHERE start BETWEEN %" G_GINT64_FORMAT
                                                      " AND %" G_GINT64_FORMAT, t0, t1);
          g_autofree char *scan = g_strdup_printf ("SELECT count(*) FROM spans WHERE start + 0 BETWEEN %" G_GINT64_FORMAT
                                                   " AND %" G_GINT64_FORMAT, t0, t1);
          g_autofree char *strict = g_strdup_printf ("SELECT count(*) FROM spans WHERE start > %" G_GINT64_FORMAT
                                                     " AND start < %" G_GINT64_FORMAT, t0, t1);
          g_autofree char *strict_scan = g_strdup_printf ("SELECT count(*) FROM spans WHERE start + 0 > %" G_GINT64_FORMAT
                                                          " AND start + 0 < %" G_GINT64_FORMAT, t0, t1);
          /* A span holding the whole window: its end lies past every start asked for. */
          g_autofree char *holding = g_strdup_printf ("SELECT count(*) FROM spans WHERE start <= %" G_GINT64_FORMAT
                                                      " AND end >= %" G_GINT64_FORMAT, t0, t1);
          g_autofree char *holding_scan = g_strdup_printf ("SELECT count(*) FROM spans WHERE start + 0 <= %" G_GINT64_FORMAT
                                                           " AND end + 0 >= %" G_GINT64_FORMAT, t0, t1);
          g_autoptr(Rows) h1 = run (query, holding);
          g_autoptr(Rows) h2 = run (query, holding_scan);
          g_autoptr(Rows) rows = run (query, sql);
          g_autoptr(Rows) a = run (query, between);
          g_autoptr(Rows) b = run (query, scan);
          g_autoptr(Rows) c = run (query, strict);
          g_autoptr(Rows) d = run (query, strict_scan);

          g_assert_cmpuint (n_rows (rows), ==, g_hash_table_size (expected));
          for (guint r = 0; r < n_rows (rows); r++)
            {
              gint64 id = cell (rows, r, 0)->integer;
              g_assert_true (g_hash_table_contains (expected, &id));
            }
          /* The indexed plans count what a plain scan counts (start + 0 hides the column). */
          g_assert_cmpint (cell (a, 0, 0)->integer, ==, cell (b, 0, 0)->integer);
          g_assert_cmpint (cell (c, 0, 0)->integer, ==, cell (d, 0, 0)->integer);
          g_assert_cmpint (cell (h1, 0, 0)->integer, ==, cell (h2, 0, 0)->integer);
          
        }

      /* id, track and name plans against scans */
      {
        g_autoptr(Rows) a = run (query, "SELECT count(*), sum(id) FROM spans WHERE track = 1 AND id > 3 AND id <= 900");
        g_autoptr(Rows) b = run (query, "SELECT count(*), sum(id) FROM spans WHERE track + 0 = 1 AND id + 0 > 3 AND id + 0 <= 900");
        g_autoptr(Rows) c = run (query, "SELECT count(*) FROM spans s JOIN spans p ON s.parent = p.id WHERE p.depth + 1 = s.depth");
        g_autoptr(Rows) d = run (query, "SELECT count(*) FROM spans WHERE parent IS NOT NULL");
        g_autoptr(Rows) e = run (query, "SELECT count(*) FROM instants WHERE ts >= 1000 AND ts < 20000");
        g_autoptr(Rows) f = run (query, "SELECT count(*) FROM instants WHERE ts + 0 >= 1000 AND ts + 0 < 20000");
        g_autoptr(Rows) g = run (query, "SELECT count(*) FROM counters WHERE ts > 1000 AND track = 4");
        g_autoptr(Rows) h = run (query, "SELECT count(*) FROM counters WHERE ts + 0 > 1000 AND track + 0 = 4");

        g_assert_cmpint (cell (a, 0, 0)->integer, ==, cell (b, 0, 0)->integer);
        g_assert_cmpint (cell (a, 0, 1)->type, ==, cell (b, 0, 1)->type);
        g_assert_cmpint (cell (c, 0, 0)->integer, ==, cell (d, 0, 0)->integer);
        g_assert_cmpint (cell (e, 0, 0)->integer, ==, cell (f, 0, 0)->integer);
        g_assert_cmpint (cell (g, 0, 0)->integer, ==, cell (h, 0, 0)->integer);
      }
      kymo_query_free (query);
    }
}

static guint
count_files (const char *dir)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  guint n = 0;

  while (d && g_dir_read_name (d))
    n++;
  return n;
}

static void
test_query_refused (void)
{
  g_autoptr(KymoTrace) trace = generated_trace ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("kymo-query-XXXXXX", &error);
  g_autofree char *cwd = g_get_current_dir ();
  KymoQuery *query;
  static const struct {
    const char *sql;
    const char *message;
  } refused[] = {
    { "ATTACH 'stolen.db' AS x", "read-only: ATTACH is not allowed" },
    { "CREATE TABLE t(x)", "read-only: CREATE is not allowed" },
    { "CREATE TEMP TABLE t AS SELECT * FROM spans", "read-only: CREATE is not allowed" },
    { "SELECT load_extension('libevil')", "read-only: load_extension is not allowed" },
    { "PRAGMA temp_store = FILE", "read-only: PRAGMA is not allowed" },
    { "DELETE FROM spans", NULL },
    { "UPDATE spans SET name = 'x'", NULL },
    { "INSERT INTO tracks VALUES (1, 'x', 'y')", NULL },
    { "VACUUM INTO 'copy.db'", NULL },
    { "BEGIN", NULL },
  };

  g_assert_no_error (error);
  g_assert_cmpint (chdir (dir), ==, 0);
  query = kymo_query_new (trace, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_autoptr(GError) e = NULL;

      g_assert_false (kymo_query_run (query, refused[i].sql, NULL, NULL, NULL, NULL, &e));
      g_assert_error (e, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_REFUSED);
      g_assert_true (g_str_has_prefix (e->message, "read-only: "));
      if (refused[i].message)
        g_assert_cmpstr (e->message, ==, refused[i].message);
    }
  /* A big sort stays in memory too. */
  {
    g_autoptr(Rows) rows = run (query, "SELECT a.id FROM spans a, spans b ORDER BY a.dur * b.dur + a.id LIMIT 1");
    g_assert_cmpuint (n_rows (rows), ==, 1);
  }
  /* Reading pragmas are fine. */
  {
    g_autoptr(Rows) rows = run (query, "SELECT name FROM pragma_table_info('spans')");
    g_assert_cmpuint (n_rows (rows), ==, 8);
    g_assert_cmpstr (cell (rows, 4, 0)->text, ==, "end");
  }
  kymo_query_free (query);
  g_assert_cmpuint (count_files (dir), ==, 0);
  g_assert_cmpint (chdir (cwd), ==, 0);
  g_rmdir (dir);
}

static void
test_query_invalid (void)
{
  g_autoptr(KymoTrace) trace = generated_trace ();
  g_autoptr(GError) error = NULL;
  KymoQuery *query = kymo_query_new (trace, &error);
  int offset;

  g_assert_false (kymo_query_run (query, "SELECT name FROM spans WHER id = 1", NULL, NULL, NULL, &offset, &error));
  g_assert_error (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "near \"id\": syntax error");
  g_assert_cmpint (offset, ==, 28);
  g_clear_error (&error);

  g_assert_false (kymo_query_run (query, "SELECT nope FROM spans", NULL, NULL, NULL, &offset, &error));
  g_assert_error (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "no such column: nope");
  g_clear_error (&error);

  g_assert_false (kymo_query_run (query, "SELECT 1; SELECT 2", NULL, NULL, NULL, &offset, &error));
  g_assert_error (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_true (kymo_query_run (query, "SELECT 1; -- done\n", NULL, NULL, NULL, &offset, &error));
  g_assert_no_error (error);
  kymo_query_free (query);

  /* An unsealed trace cannot be queried yet. */
  {
    g_autoptr(KymoTrace) loading = kymo_trace_new ();

    g_assert_null (kymo_query_new (loading, &error));
    g_assert_error (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_NOT_LOADED);
  }
}

static gpointer
cancel_soon (gpointer data)
{
  g_usleep (50 * 1000);
  g_cancellable_cancel (data);
  return NULL;
}

static void
test_query_cancel (void)
{
  g_autoptr(KymoTrace) trace = generated_trace ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  KymoQuery *query = kymo_query_new (trace, &error);
  GThread *thread;

  /* Runs for hours unless cancelled. */
  thread = g_thread_new ("cancel", cancel_soon, cancellable);
  g_assert_false (kymo_query_run (query, "SELECT count(*) FROM spans a, spans b, spans c, spans d",
                                  NULL, NULL, cancellable, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_thread_join (thread);
  g_clear_error (&error);

  /* The connection is still good afterwards. */
  g_assert_true (kymo_query_run (query, "SELECT count(*) FROM spans", NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  kymo_query_free (query);
}

static void
test_query_memory (void)
{
  g_autoptr(KymoTrace) trace = generated_trace ();
  g_autoptr(GError) error = NULL;
  KymoQuery *query = kymo_query_new (trace, &error);

  kymo_query_set_memory_limit (8 << 20);
  /* A cartesian product sorted: far beyond 8 MiB */
  g_assert_false (kymo_query_run (query, "SELECT a.name, b.name, a.id * b.id FROM spans a, spans b ORDER BY 3 DESC",
                                  NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, KYMO_QUERY_ERROR, KYMO_QUERY_ERROR_MEMORY);
  g_assert_true (strstr (error->message, "8 MiB") != NULL);
  kymo_query_set_memory_limit ((gint64) 1 << 30);
  g_clear_error (&error);
  g_assert_true (kymo_query_run (query, "SELECT count(*) FROM spans", NULL, NULL, NULL, NULL, &error));
  kymo_query_free (query);
}

static void
test_query_row_event (void)
{
  g_autoptr(KymoTrace) trace = generated_trace ();
  g_autoptr(GError) error = NULL;
  KymoQuery *query = kymo_query_new (trace, &error);
  g_autoptr(Rows) rows = run (query, "SELECT track, start, end FROM spans WHERE depth = 1 LIMIT 20");
  g_autoptr(Rows) ids = run (query, "SELECT id FROM spans WHERE depth = 1 LIMIT 20");
  g_autoptr(Rows) inst = run (query, "SELECT track, ts, id FROM instants LIMIT 5");

  g_assert_cmpuint (n_rows (rows), ==, 20);
  for (guint r = 0; r < n_rows (rows); r++)
    {
      KymoEventRef a, b;

      /* row_event looks at the columns of the statement last run */
      kymo_query_run (query, "SELECT track, start, end FROM spans LIMIT 0", NULL, NULL, NULL, NULL, &error);
      g_assert_true (kymo_query_row_event (query, cell (rows, r, 0), &a));
      kymo_query_run (query, "SELECT id FROM spans LIMIT 0", NULL, NULL, NULL, NULL, &error);
      g_assert_true (kymo_query_row_event (query, cell (ids, r, 0), &b));
      g_assert_cmpuint (a.track, ==, b.track);
      g_assert_cmpint (a.kind, ==, KYMO_EVENT_KIND_SPAN);
      /* same start and end: at worst an equal span of another depth */
      {
        gsize n;
        const KymoSpan *spans = kymo_track_get_spans (kymo_trace_get_track (trace, a.track), &n);
        g_assert_cmpint (spans[a.index].start, ==, spans[b.index].start);
        g_assert_cmpint (spans[a.index].end, ==, spans[b.index].end);
      }
    }
  kymo_query_run (query, "SELECT track, ts FROM instants LIMIT 0", NULL, NULL, NULL, NULL, &error);
  for (guint r = 0; r < n_rows (inst); r++)
    {
      KymoEventRef a;

      g_assert_true (kymo_query_row_event (query, cell (inst, r, 0), &a));
      g_assert_cmpint (a.kind, ==, KYMO_EVENT_KIND_INSTANT);
      g_assert_cmpint (kymo_query_event_id (query, &a), ==, cell (inst, r, 2)->integer);
    }
  kymo_query_free (query);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/query/stats", test_query_stats);
  g_test_add_func ("/query/parent", test_query_parent);
  g_test_add_func ("/query/args", test_query_args);
  g_test_add_func ("/query/intervals", test_query_intervals);
  g_test_add_func ("/query/refused", test_query_refused);
  g_test_add_func ("/query/invalid", test_query_invalid);
  g_test_add_func ("/query/cancel", test_query_cancel);
  g_test_add_func ("/query/memory", test_query_memory);
  g_test_add_func ("/query/row-event", test_query_row_event);

  return g_test_run ();
}
