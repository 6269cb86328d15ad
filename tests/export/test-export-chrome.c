/* test-export-chrome.c: Chrome Trace Event JSON export of hand-built traces
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "kymo-test-utils.h"

/* Runs the export into a temporary file and returns the text. */
static char *
export_to_string (KymoTrace                     *trace,
                  const KymoExportChromeOptions *options,
                  GCancellable                  *cancellable,
                  gboolean                      *ok,
                  GError                       **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) local_error = NULL;
  char *text = NULL;
  FILE *out;
  int fd;

  fd = g_file_open_tmp ("kymo-export-XXXXXX.json", &path, &local_error);
  g_assert_no_error (local_error);
  out = fdopen (fd, "wb");
  g_assert_nonnull (out);
  *ok = kymo_export_chrome_full (trace, options, out, cancellable, error);
  g_assert_cmpint (fclose (out), ==, 0);
  g_assert_true (g_file_get_contents (path, &text, NULL, &local_error));
  g_assert_no_error (local_error);
  g_unlink (path);
  return text;
}

static JsonNode *
parse (const char *text)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* ts/dur are microseconds; our traces keep them small enough for doubles. */
static gint64
us_to_ns (JsonObject *event,
          const char *member)
{
  return (gint64) llround (json_object_get_double_member (event, member) * 1000.0);
}

typedef struct {
  guint32  a_main, a_worker, a_mem, zone_thread, lonely, notes, empty_group;
  guint    n_flows;
} Fixture;

/* Creation order differs from display order on purpose: the sort keys must
 * decide the process and thread order of the export. */
static KymoTrace *
build_trace (Fixture *f)
{
  KymoTrace *trace = kymo_trace_new ();
  guint proc_a, zone, n_outer, n_inner, n_leaf, n_tick;
  KymoTrack *t;

  f->lonely = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "lonely");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, f->lonely), 10);
  proc_a = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "proc A");
  kymo_track_set_group_kind (kymo_trace_get_track (trace, proc_a), "process");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, proc_a), 1);
  f->notes = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_ANNOTATION, "notes");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, f->notes), 20);
  f->empty_group = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_GROUP, "empty");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, f->empty_group), 30);

  f->a_worker = kymo_trace_add_track (trace, proc_a, KYMO_TRACK_THREAD, "worker");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, f->a_worker), 2);
  f->a_main = kymo_trace_add_track (trace, proc_a, KYMO_TRACK_THREAD, "main");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, f->a_main), 1);
  f->a_mem = kymo_trace_add_track (trace, proc_a, KYMO_TRACK_COUNTER, "mem");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, f->a_mem), 3);
  zone = kymo_trace_add_track (trace, proc_a, KYMO_TRACK_GROUP, "zone");
  kymo_track_set_sort_key (kymo_trace_get_track (trace, zone), 4);
  f->zone_thread = kymo_trace_add_track (trace, zone, KYMO_TRACK_THREAD, "zoned");

  n_outer = kymo_trace_intern (trace, "outer");
  n_inner = kymo_trace_intern (trace, "inner \"quoted\"");
  n_leaf = kymo_trace_intern (trace, "leaf");
  n_tick = kymo_trace_intern (trace, "tick");

  t = kymo_trace_get_track (trace, f->a_main);
  /* Added out of order and with equal starts at different depths. */
  kymo_track_add_span (t, 5000, 6000, n_outer, 0, 0, 0);
  kymo_track_add_span (t, 1000, 2000, n_leaf, 2, 0, 1);
  kymo_track_add_span (t, 1000, 4000, n_inner, 1, 0, 2);
  kymo_track_add_span (t, 1000, 4500, n_outer, 0, 0, 3);
  kymo_track_add_span (t, 1234567, 1234567 + 1001, n_outer, 0, KYMO_EVENT_INCOMPLETE, 4);
  kymo_track_add_instant (t, 1500, n_tick, 0, 0);
  kymo_track_add_instant (t, 1, n_tick, 0, 1);

  t = kymo_trace_get_track (trace, f->a_worker);
  kymo_track_add_span (t, 3000, 3500, n_leaf, 0, 0, 0);
  kymo_track_add_span (t, -1500, -10, n_leaf, 0, 0, 1);

  t = kymo_trace_get_track (trace, f->a_mem);
  kymo_track_add_sample (t, 0, 1.5);
  kymo_track_add_sample (t, 100, NAN);
  kymo_track_add_sample (t, 200, -3.0);

  t = kymo_trace_get_track (trace, f->zone_thread);
  kymo_track_add_span (t, 10, 110, n_leaf, 0, 0, 0);

  t = kymo_trace_get_track (trace, f->lonely);
  kymo_track_add_instant (t, 999, n_tick, 0, 0);

  t = kymo_trace_get_track (trace, f->notes);
  kymo_track_add_annotation (t, 700, 700, kymo_trace_intern (trace, "note"), "a point, with \"text\"", 0);
  kymo_track_add_annotation (t, 800, 1800, kymo_trace_intern (trace, "range"), "a range", 0);

  kymo_trace_add_flow (trace, f->a_main, 1500, f->a_worker, 3200, kymo_trace_intern (trace, "wakeup"), 0);
  kymo_trace_add_flow (trace, f->a_worker, 3400, f->zone_thread, 100, 0, 0);
  f->n_flows = 2;

  kymo_trace_set_metadata (trace, "host", "box");
  kymo_trace_seal (trace);
  return trace;
}

typedef struct {
  GHashTable *thread_names;   /* "pid/tid" → name */
  GHashTable *process_names;  /* pid → name */
  GHashTable *process_sort;   /* pid → sort index */
  GHashTable *thread_sort;    /* "pid/tid" → sort index */
} Names;

static char *
thread_key (JsonObject *event)
{
  return g_strdup_printf ("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT,
                          json_object_get_int_member (event, "pid"),
                          json_object_get_int_member (event, "tid"));
}

static void
collect_names (JsonArray *events,
               Names     *names)
{
  names->thread_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  names->process_names = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  names->process_sort = g_hash_table_new (g_direct_hash, g_direct_equal);
  names->thread_sort = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      JsonObject *args;
      const char *name;
      gpointer pid;

      if (!g_str_equal (json_object_get_string_member (event, "ph"), "M"))
        continue;
      name = json_object_get_string_member (event, "name");
      args = json_object_get_object_member (event, "args");
      pid = GINT_TO_POINTER ((int) json_object_get_int_member (event, "pid"));
      if (g_str_equal (name, "process_name"))
        g_hash_table_insert (names->process_names, pid, g_strdup (json_object_get_string_member (args, "name")));
      else if (g_str_equal (name, "thread_name"))
        g_hash_table_insert (names->thread_names, thread_key (event),
                             g_strdup (json_object_get_string_member (args, "name")));
      else if (g_str_equal (name, "process_sort_index"))
        g_hash_table_insert (names->process_sort, pid,
                             GINT_TO_POINTER ((int) json_object_get_int_member (args, "sort_index") + 1));
      else if (g_str_equal (name, "thread_sort_index"))
        g_hash_table_insert (names->thread_sort, thread_key (event),
                             GINT_TO_POINTER ((int) json_object_get_int_member (args, "sort_index") + 1));
      else
        g_assert_not_reached ();
    }
}

static void
names_clear (Names *names)
{
  g_hash_table_unref (names->thread_names);
  g_hash_table_unref (names->process_names);
  g_hash_table_unref (names->process_sort);
  g_hash_table_unref (names->thread_sort);
}

/* "process name|thread name" of an event, or of its process for a counter. */
static char *
event_lane (JsonObject *event,
            Names      *names)
{
  g_autofree char *key = thread_key (event);
  gpointer pid = GINT_TO_POINTER ((int) json_object_get_int_member (event, "pid"));
  const char *process = g_hash_table_lookup (names->process_names, pid);
  const char *thread = g_hash_table_lookup (names->thread_names, key);

  g_assert_nonnull (process);
  if (g_str_equal (json_object_get_string_member (event, "ph"), "C"))
    return g_strdup (process);
  g_assert_nonnull (thread);
  return g_strdup_printf ("%s|%s", process, thread);
}

/* "args" is optional and json-glib warns on missing members. */
static JsonObject *
get_args (JsonObject *event)
{
  if (!json_object_has_member (event, "args"))
    return NULL;
  return json_object_get_object_member (event, "args");
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(char * const *) a, *(char * const *) b);
}

static void
assert_same_set (GPtrArray *got,
                 GPtrArray *want)
{
  g_ptr_array_sort (got, compare_strings);
  g_ptr_array_sort (want, compare_strings);
  for (guint i = 0; i < MIN (got->len, want->len); i++)
    g_assert_cmpstr (g_ptr_array_index (got, i), ==, g_ptr_array_index (want, i));
  g_assert_cmpuint (got->len, ==, want->len);
}

/* The model's events as "lane ph cat name ts dur extra" lines. */
static GPtrArray *
model_events (KymoTrace *trace,
              Fixture   *f)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  struct { guint track; const char *lane; } lanes[] = {
    { f->a_main, "proc A|main" }, { f->a_worker, "proc A|worker" }, { f->a_mem, "proc A" },
    { f->zone_thread, "proc A / zone|zoned" }, { f->lonely, "lonely|lonely" }, { f->notes, "notes|notes" },
  };

  for (guint l = 0; l < G_N_ELEMENTS (lanes); l++)
    {
      KymoTrack *track = kymo_trace_get_track (trace, lanes[l].track);
      const KymoSpan *spans;
      const KymoInstant *instants;
      const KymoSample *samples;
      const KymoAnnotation *annotations;
      gsize n;

      spans = kymo_track_get_spans (track, &n);
      for (gsize i = 0; i < n; i++)
        g_ptr_array_add (lines, g_strdup_printf ("%s X span %s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s",
                                                 lanes[l].lane, kymo_trace_get_name (trace, kymo_span_name (&spans[i])),
                                                 spans[i].start, spans[i].end - spans[i].start,
                                                 (kymo_span_flags (&spans[i]) & KYMO_EVENT_INCOMPLETE) ? "incomplete" : "-"));
      instants = kymo_track_get_instants (track, &n);
      for (gsize i = 0; i < n; i++)
        g_ptr_array_add (lines, g_strdup_printf ("%s i instant %s %" G_GINT64_FORMAT " - -", lanes[l].lane,
                                                 kymo_trace_get_name (trace, instants[i].name_flags & KYMO_NAME_MAX),
                                                 instants[i].ts));
      samples = kymo_track_get_samples (track, &n);
      for (gsize i = 0; i < n; i++)
        if (isfinite (samples[i].value))
          g_ptr_array_add (lines, g_strdup_printf ("%s C counter %s %" G_GINT64_FORMAT " - %g", lanes[l].lane,
                                                   kymo_track_get_name (track), samples[i].ts, samples[i].value));
      annotations = kymo_track_get_annotations (track, &n);
      for (gsize i = 0; i < n; i++)
        {
          const KymoAnnotation *a = &annotations[i];

          if (a->end > a->start)
            g_ptr_array_add (lines, g_strdup_printf ("%s X annotation %s %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %s",
                                                     lanes[l].lane, kymo_trace_get_name (trace, a->name),
                                                     a->start, a->end - a->start, a->text));
          else
            g_ptr_array_add (lines, g_strdup_printf ("%s i annotation %s %" G_GINT64_FORMAT " - %s",
                                                     lanes[l].lane, kymo_trace_get_name (trace, a->name),
                                                     a->start, a->text));
        }
    }
  return lines;
}

static void
test_export_events (void)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GPtrArray) want = NULL;
  g_autoptr(GPtrArray) got = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) flow_starts = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  g_autofree char *text = NULL;
  JsonObject *doc, *metadata;
  JsonArray *events;
  Names names;
  Fixture f;
  gboolean ok;
  guint n_flow_pairs = 0;

  trace = build_trace (&f);
  text = export_to_string (trace, NULL, NULL, &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);

  root = parse (text);
  doc = json_node_get_object (root);
  g_assert_cmpstr (json_object_get_string_member (doc, "displayTimeUnit"), ==, "ns");
  metadata = json_object_get_object_member (doc, "metadata");
  g_assert_nonnull (metadata);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (metadata, "trace"), "host"), ==, "box");
  g_assert_cmpint (json_object_get_int_member (metadata, "start-ns"), ==, -1500);
  g_assert_cmpint (json_object_get_int_member (metadata, "end-ns"), ==, 1234567 + 1001);

  events = json_object_get_array_member (doc, "traceEvents");
  collect_names (events, &names);

  /* groups are processes (nested ones named with their parent), top-level
   * tracks get their own, empty groups none; in display order */
  g_assert_cmpuint (g_hash_table_size (names.process_names), ==, 4);
  {
    const char *order[] = { "proc A", "proc A / zone", "lonely", "notes" };
    GHashTableIter iter;
    gpointer pid, name;

    g_hash_table_iter_init (&iter, names.process_names);
    while (g_hash_table_iter_next (&iter, &pid, &name))
      {
        int sort = GPOINTER_TO_INT (g_hash_table_lookup (names.process_sort, pid)) - 1;

        g_assert_cmpint (sort, >=, 0);
        g_assert_cmpint (sort, <, (int) G_N_ELEMENTS (order));
        g_assert_cmpstr (order[sort], ==, name);
      }
  }
  /* threads of proc A in sort-key order; the counter is no thread */
  {
    int main_sort = -1, worker_sort = -1;
    GHashTableIter iter;
    gpointer key, name;

    g_hash_table_iter_init (&iter, names.thread_names);
    while (g_hash_table_iter_next (&iter, &key, &name))
      {
        int sort = GPOINTER_TO_INT (g_hash_table_lookup (names.thread_sort, key)) - 1;

        g_assert_cmpint (sort, >=, 0);
        g_assert_cmpstr (name, !=, "mem");
        if (g_str_equal (name, "main"))
          main_sort = sort;
        else if (g_str_equal (name, "worker"))
          worker_sort = sort;
      }
    g_assert_cmpint (main_sort, >=, 0);
    g_assert_cmpint (main_sort, <, worker_sort);
    g_assert_cmpuint (g_hash_table_size (names.thread_names), ==, 5);
  }

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      const char *ph = json_object_get_string_member (event, "ph");
      const char *cat = json_object_get_string_member_with_default (event, "cat", "");
      JsonObject *args = get_args (event);
      g_autofree char *lane = NULL;
      g_autofree char *dur = NULL;
      const char *extra = "-";

      if (g_str_equal (ph, "M"))
        continue;
      lane = event_lane (event, &names);

      if (g_str_equal (ph, "s") || g_str_equal (ph, "f"))
        {
          gint64 id = json_object_get_int_member (event, "id");
          char *desc;

          g_assert_cmpstr (cat, ==, "flow");
          g_assert_cmpstr (json_object_get_string_member (event, "bp"), ==, "e");
          desc = g_strdup_printf ("%s %s %" G_GINT64_FORMAT, lane,
                                  json_object_get_string_member (event, "name"), us_to_ns (event, "ts"));
          if (g_str_equal (ph, "s"))
            {
              g_assert_false (g_hash_table_contains (flow_starts, GINT_TO_POINTER ((int) id)));
              g_hash_table_insert (flow_starts, GINT_TO_POINTER ((int) id), desc);
            }
          else
            {
              const char *start = g_hash_table_lookup (flow_starts, GINT_TO_POINTER ((int) id));
              g_autofree char *pair = NULL;

              g_assert_nonnull (start);
              pair = g_strdup_printf ("%s -> %s", start, desc);
              if (n_flow_pairs == 0)
                g_assert_cmpstr (pair, ==, "proc A|main wakeup 1500 -> proc A|worker wakeup 3200");
              else
                g_assert_cmpstr (pair, ==, "proc A|worker flow 3400 -> proc A / zone|zoned flow 100");
              n_flow_pairs++;
              g_free (desc);
            }
          continue;
        }

      if (g_str_equal (ph, "X"))
        dur = g_strdup_printf ("%" G_GINT64_FORMAT, us_to_ns (event, "dur"));
      if (g_str_equal (ph, "i"))
        g_assert_cmpstr (json_object_get_string_member (event, "s"), ==, "t");
      if (g_str_equal (ph, "C"))
        {
          g_autofree char *value = g_strdup_printf ("%g", json_object_get_double_member (args, "value"));
          g_ptr_array_add (got, g_strdup_printf ("%s C %s %s %" G_GINT64_FORMAT " - %s", lane, cat,
                                                 json_object_get_string_member (event, "name"),
                                                 us_to_ns (event, "ts"), value));
          continue;
        }
      if (args != NULL && json_object_has_member (args, "text"))
        extra = json_object_get_string_member (args, "text");
      else if (args != NULL && json_object_get_boolean_member_with_default (args, "incomplete", FALSE))
        extra = "incomplete";
      g_ptr_array_add (got, g_strdup_printf ("%s %s %s %s %" G_GINT64_FORMAT " %s %s", lane, ph, cat,
                                             json_object_get_string_member (event, "name"),
                                             us_to_ns (event, "ts"), dur ? dur : "-", extra));
    }

  want = model_events (trace, &f);
  assert_same_set (got, want);
  g_assert_cmpuint (n_flow_pairs, ==, f.n_flows);
  g_assert_cmpuint (g_hash_table_size (flow_starts), ==, f.n_flows);
  names_clear (&names);
}

/* Per thread, complete events come in start order with the enclosing span
 * first, the order viewers nest equal timestamps in. */
static void
test_export_span_order (void)
{
  g_autoptr(KymoTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  JsonArray *events;
  gint64 last_ts = G_MININT64, last_end = G_MAXINT64;
  guint n_main = 0;
  Fixture f;
  gboolean ok;

  trace = build_trace (&f);
  text = export_to_string (trace, NULL, NULL, &ok, &error);
  g_assert_true (ok);
  root = parse (text);
  events = json_object_get_array_member (json_node_get_object (root), "traceEvents");

  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      gint64 ts, end;

      if (!g_str_equal (json_object_get_string_member (event, "ph"), "X") ||
          json_object_get_int_member (event, "tid") != f.a_main + 1)
        continue;
      ts = us_to_ns (event, "ts");
      end = ts + us_to_ns (event, "dur");
      g_assert_cmpint (ts, >=, last_ts);
      if (ts == last_ts)
        g_assert_cmpint (end, <=, last_end);
      last_ts = ts;
      last_end = end;
      n_main++;
    }
  g_assert_cmpuint (n_main, ==, 5);
}

static void
test_export_time_format (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  KymoExportChromeOptions options = { KYMO_EXPORT_CHROME_ARGS_AUTO, 0 };
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  guint32 name = kymo_trace_intern (trace, "s");
  static const struct { gint64 start, end; const char *ts, *dur; } cases[] = {
    { 1, 11, "0.001", "0.01" },
    { 100, 1100, "0.1", "1" },
    { 1001, 2011, "1.001", "1.01" },
    { 1234567, 1234567 + 1100, "1234.567", "1.1" },
    { -1500, -1499, "-1.5", "0.001" },
    { 1700000000123456789, 1700000000123456789 + 999, "1700000000123456.789", "0.999" },
  };
  gboolean ok;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    kymo_track_add_span (track, cases[i].start, cases[i].end, name, i, 0, i);
  kymo_trace_seal (trace);

  text = export_to_string (trace, &options, NULL, &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  root = parse (text);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *expect = g_strdup_printf ("\"ts\":%s,\"dur\":%s", cases[i].ts, cases[i].dur);
      g_assert_nonnull (strstr (text, expect));
    }

  /* An origin shifts every time and is recorded. */
  g_clear_pointer (&text, g_free);
  g_clear_pointer (&root, json_node_unref);
  options.origin = 1000;
  text = export_to_string (trace, &options, NULL, &ok, &error);
  g_assert_true (ok);
  g_assert_nonnull (strstr (text, "\"ts\":-0.999,\"dur\":0.01"));
  g_assert_nonnull (strstr (text, "\"ts\":0.001,\"dur\":1.01"));
  root = parse (text);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (json_node_get_object (root), "metadata"),
                                               "time-origin-ns"), ==, 1000);
}

/* A format whose describe() gives every event its index and kind. */
static guint n_described;

static JsonObject *
fake_describe (KymoTrace          *trace,
               const KymoEventRef *ref)
{
  JsonObject *object = json_object_new ();

  n_described++;
  json_object_set_int_member (object, "index", ref->index);
  json_object_set_int_member (object, "kind", ref->kind);
  return object;
}

static const KymoFormat fake_format = {
  .name = "fake",
  .describe = fake_describe,
};

static void
test_export_args (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GError) error = NULL;
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  guint32 name = kymo_trace_intern (trace, "s");
  KymoExportChromeOptions options = { KYMO_EXPORT_CHROME_ARGS_AUTO, 0 };
  gboolean ok;

  kymo_trace_set_format (trace, &fake_format);
  kymo_track_add_span (track, 50, 60, name, 1, 0, 0);
  kymo_track_add_span (track, 0, 100, name, 0, 0, 0);
  kymo_track_add_instant (track, 70, name, 0, 0);
  kymo_trace_seal (trace);

  for (guint mode = KYMO_EXPORT_CHROME_ARGS_AUTO; mode <= KYMO_EXPORT_CHROME_ARGS_NEVER; mode++)
    {
      g_autofree char *text = NULL;
      g_autoptr(JsonNode) root = NULL;
      JsonArray *events;
      guint n_with_args = 0;

      options.args = mode;
      n_described = 0;
      text = export_to_string (trace, &options, NULL, &ok, &error);
      g_assert_no_error (error);
      g_assert_true (ok);
      root = parse (text);
      events = json_object_get_array_member (json_node_get_object (root), "traceEvents");
      for (guint i = 0; i < json_array_get_length (events); i++)
        {
          JsonObject *event = json_array_get_object_element (events, i);
          const char *ph = json_object_get_string_member (event, "ph");
          JsonObject *args;

          if (g_str_equal (ph, "M"))
            continue;
          args = get_args (event);
          if (args == NULL)
            continue;
          n_with_args++;
          /* the reference names the event in the sealed trace's arrays */
          if (g_str_equal (ph, "X"))
            {
              g_assert_cmpint (json_object_get_int_member (args, "kind"), ==, KYMO_EVENT_KIND_SPAN);
              /* depth 0 (index 0) is [0, 100], depth 1 (index 1) is [50, 60] */
              g_assert_cmpint (json_object_get_int_member (args, "index"), ==,
                               us_to_ns (event, "ts") == 0 ? 0 : 1);
            }
          else
            {
              g_assert_cmpint (json_object_get_int_member (args, "kind"), ==, KYMO_EVENT_KIND_INSTANT);
              g_assert_cmpint (json_object_get_int_member (args, "index"), ==, 0);
            }
        }
      /* a three-event trace is far below the limit: AUTO decodes */
      g_assert_cmpuint (n_with_args, ==, mode == KYMO_EXPORT_CHROME_ARGS_NEVER ? 0 : 3);
      g_assert_cmpuint (n_described, ==, mode == KYMO_EXPORT_CHROME_ARGS_NEVER ? 0 : 3);
    }
}

static void
test_export_cancel (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  guint32 name = kymo_trace_intern (trace, "s");
  gboolean ok;

  for (guint i = 0; i < 100000; i++)
    kymo_track_add_span (track, i * 10, i * 10 + 5, name, 0, 0, i);
  kymo_trace_seal (trace);

  g_cancellable_cancel (cancellable);
  text = export_to_string (trace, NULL, cancellable, &ok, &error);
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  /* it stopped early rather than after writing everything */
  g_assert_cmpuint (strlen (text), <, 100000 * 40);
}

static void
test_export_write_error (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GError) error = NULL;
  guint id = kymo_trace_add_track (trace, KYMO_NO_TRACK, KYMO_TRACK_THREAD, "t");
  KymoTrack *track = kymo_trace_get_track (trace, id);
  FILE *out;

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full");
      return;
    }
  kymo_track_add_span (track, 0, 5, kymo_trace_intern (trace, "s"), 0, 0, 0);
  kymo_trace_seal (trace);
  out = fopen ("/dev/full", "wb");
  g_assert_nonnull (out);
  g_assert_false (kymo_export_chrome (trace, out, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE);
  fclose (out);
}

static void
test_export_empty (void)
{
  g_autoptr(KymoTrace) trace = kymo_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  JsonObject *doc;
  gboolean ok;

  kymo_trace_seal (trace);
  text = export_to_string (trace, NULL, NULL, &ok, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  root = parse (text);
  doc = json_node_get_object (root);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (doc, "traceEvents")), ==, 0);
  g_assert_true (json_object_get_null_member (json_object_get_object_member (doc, "metadata"), "start-ns"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/export/chrome/events", test_export_events);
  g_test_add_func ("/export/chrome/span-order", test_export_span_order);
  g_test_add_func ("/export/chrome/time-format", test_export_time_format);
  g_test_add_func ("/export/chrome/args", test_export_args);
  g_test_add_func ("/export/chrome/cancel", test_export_cancel);
  g_test_add_func ("/export/chrome/write-error", test_export_write_error);
  g_test_add_func ("/export/chrome/empty", test_export_empty);

  return g_test_run ();
}
