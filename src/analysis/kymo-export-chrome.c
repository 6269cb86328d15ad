/* kymo-export-chrome.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-export-chrome"

#include "config.h"

#include "kymo-export-chrome.h"

#include <errno.h>
#include <math.h>

#include "kymo-format.h"
#include "kymo-json-writer.h"
#include "kymo-trace-json.h"

/* How many events go out between checks for cancellation and write errors. */
#define CHECK_EVERY 4096

typedef struct {
  guint  pid;
  guint  track;
  char  *name;
} Process;

typedef struct {
  KymoTrace      *trace;
  KymoJsonWriter *w;
  GCancellable   *cancellable;
  FILE           *out;
  KymoTime        origin;
  gboolean        with_args;
  guint           countdown;

  /* Indexed by track id; 0 means the track has no pid / tid of its own. */
  guint          *pid;
  guint          *tid;
  GArray         *processes;   /* Process, in display order */
  GArray         *threads;     /* guint track id, in display order */
} Export;

static void
process_clear (gpointer data)
{
  Process *process = data;

  g_free (process->name);
}

static KymoTime
sub_sat (KymoTime a,
         KymoTime b)
{
  KymoTime r;

  if (__builtin_sub_overflow (a, b, &r))
    return b > 0 ? G_MININT64 : G_MAXINT64;
  return r;
}

static gboolean
has_direct_leaf (KymoTrace *trace,
                 KymoTrack *group)
{
  const guint *children;
  guint n_children;

  if (kymo_track_get_n_events (group) > 0)
    return TRUE;
  children = kymo_track_get_children (group, &n_children);
  for (guint i = 0; i < n_children; i++)
    if (kymo_track_get_kind (kymo_trace_get_track (trace, children[i])) != KYMO_TRACK_GROUP)
      return TRUE;
  return FALSE;
}

static guint
add_process (Export     *self,
             guint       track,
             const char *name)
{
  Process process;

  process.pid = self->processes->len + 1;
  process.track = track;
  process.name = g_strdup (name);
  g_array_append_val (self->processes, process);
  return process.pid;
}

static void
add_thread (Export *self,
            guint   track,
            guint   pid)
{
  self->pid[track] = pid;
  /* Track ids are unique, so tids are unique across processes as well. */
  self->tid[track] = track + 1;
  g_array_append_val (self->threads, track);
}

/* Chrome has two levels where Kymo has a tree: a group holding tracks is a
 * process, named after its ancestors too so that nested groups stay told
 * apart; every other track is a thread of the nearest such process. */
static void
assign_tracks (Export      *self,
               const guint *ids,
               guint        n_ids,
               guint        pid,
               const char  *prefix)
{
  for (guint i = 0; i < n_ids; i++)
    {
      KymoTrack *track = kymo_trace_get_track (self->trace, ids[i]);
      const guint *children;
      guint n_children;

      children = kymo_track_get_children (track, &n_children);
      if (kymo_track_get_kind (track) == KYMO_TRACK_GROUP)
        {
          g_autofree char *name = NULL;
          guint group_pid = 0;

          if (prefix != NULL)
            name = g_strdup_printf ("%s / %s", prefix, kymo_track_get_name (track));
          else
            name = g_strdup (kymo_track_get_name (track));
          if (has_direct_leaf (self->trace, track))
            group_pid = add_process (self, ids[i], name);
          /* Events stored on a group itself still need a lane. */
          if (kymo_track_get_n_events (track) > 0)
            add_thread (self, ids[i], group_pid);
          assign_tracks (self, children, n_children, group_pid, name);
        }
      else
        {
          guint thread_pid = pid;

          if (thread_pid == 0)
            thread_pid = add_process (self, ids[i], kymo_track_get_name (track));
          add_thread (self, ids[i], thread_pid);
          assign_tracks (self, children, n_children, thread_pid, prefix);
        }
    }
}

static gboolean
check (Export  *self,
       GError **error)
{
  if (--self->countdown > 0)
    return TRUE;
  self->countdown = CHECK_EVERY;

  if (g_cancellable_set_error_if_cancelled (self->cancellable, error))
    return FALSE;
  if (!kymo_json_writer_flush (self->w))
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Could not write the export: %s", g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

static void
begin_event (Export     *self,
             const char *ph,
             const char *cat,
             const char *name,
             guint       track)
{
  KymoJsonWriter *w = self->w;

  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "ph");
  kymo_json_writer_string (w, ph, -1);
  if (cat != NULL)
    {
      kymo_json_writer_key (w, "cat");
      kymo_json_writer_string (w, cat, -1);
    }
  kymo_json_writer_key (w, "name");
  kymo_json_writer_string (w, name, -1);
  kymo_json_writer_key (w, "pid");
  kymo_json_writer_uint (w, self->pid[track]);
  kymo_json_writer_key (w, "tid");
  kymo_json_writer_uint (w, self->tid[track]);
}

static void
end_event (Export *self)
{
  kymo_json_writer_end_object (self->w);
  /* One event a line: the file stays readable with head and grep. */
  kymo_json_writer_end_line (self->w);
}

static void
write_ts (Export     *self,
          const char *key,
          KymoTime    ts)
{
  kymo_json_writer_key (self->w, key);
  kymo_json_writer_ns_as_us (self->w, sub_sat (ts, self->origin));
}

/* "args" is written only when there is something to put in it. */
static void
open_args (KymoJsonWriter *w,
           gboolean       *open)
{
  if (*open)
    return;
  kymo_json_writer_key (w, "args");
  kymo_json_writer_begin_object (w);
  *open = TRUE;
}

/* "args": the event's decoded arguments plus what the flags say. */
static void
write_args (Export             *self,
            const KymoEventRef *ref,
            guint               flags,
            const char         *text)
{
  KymoJsonWriter *w = self->w;
  g_autoptr(JsonObject) described = NULL;
  gboolean open = FALSE;

  if (self->with_args && ref != NULL)
    described = kymo_trace_describe_event (self->trace, ref);

  if (text != NULL)
    {
      open_args (w, &open);
      kymo_json_writer_key (w, "text");
      kymo_json_writer_string (w, text, -1);
    }
  if (flags & KYMO_EVENT_INCOMPLETE)
    {
      open_args (w, &open);
      kymo_json_writer_key (w, "incomplete");
      kymo_json_writer_bool (w, TRUE);
    }
  if (described != NULL)
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *node;

      json_object_iter_init (&iter, described);
      while (json_object_iter_next (&iter, &member, &node))
        {
          open_args (w, &open);
          kymo_json_writer_key (w, member);
          kymo_json_writer_node (w, node);
        }
    }
  if (open)
    kymo_json_writer_end_object (w);
}

/* Cursors over the depth runs of one track, in a min-heap on (start, depth):
 * spans come out in start order with a parent before the children that start
 * with it, the order viewers nest equal timestamps in. */
typedef struct {
  const KymoSpan *spans;
  gsize           pos;
  gsize           n;
  gsize           first;   /* index of spans[0] in the track's span array */
  guint           depth;
} Cursor;

static gboolean
cursor_before (const Cursor *a,
               const Cursor *b)
{
  const KymoSpan *sa = &a->spans[a->pos];
  const KymoSpan *sb = &b->spans[b->pos];

  if (sa->start != sb->start)
    return sa->start < sb->start;
  return a->depth < b->depth;
}

static void
heap_sift_down (Cursor *heap,
                guint   n,
                guint   i)
{
  for (;;)
    {
      guint l = 2 * i + 1, r = l + 1, m = i;
      Cursor tmp;

      if (l < n && cursor_before (&heap[l], &heap[m]))
        m = l;
      if (r < n && cursor_before (&heap[r], &heap[m]))
        m = r;
      if (m == i)
        return;
      tmp = heap[i];
      heap[i] = heap[m];
      heap[m] = tmp;
      i = m;
    }
}

static gboolean
write_spans (Export    *self,
             guint      track_id,
             KymoTrack *track,
             GError   **error)
{
  guint n_depths = kymo_track_get_n_depths (track);
  g_autofree Cursor *heap = g_new0 (Cursor, MAX (n_depths, 1));
  guint n = 0;

  for (guint d = 0; d < n_depths; d++)
    {
      Cursor *c = &heap[n];

      c->spans = kymo_track_get_depth_spans (track, d, &c->n, &c->first);
      c->pos = 0;
      c->depth = d;
      if (c->n > 0)
        n++;
    }
  for (guint i = n / 2; i-- > 0; )
    heap_sift_down (heap, n, i);

  while (n > 0)
    {
      Cursor *c = &heap[0];
      const KymoSpan *span = &c->spans[c->pos];
      KymoEventRef ref = { track_id, KYMO_EVENT_KIND_SPAN, (guint) (c->first + c->pos) };

      begin_event (self, "X", "span", kymo_trace_get_name (self->trace, kymo_span_name (span)), track_id);
      write_ts (self, "ts", span->start);
      kymo_json_writer_key (self->w, "dur");
      kymo_json_writer_ns_as_us (self->w, sub_sat (span->end, span->start));
      write_args (self, &ref, kymo_span_flags (span), NULL);
      end_event (self);

      if (++c->pos == c->n)
        heap[0] = heap[--n];
      heap_sift_down (heap, n, 0);

      if (!check (self, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
write_track_events (Export  *self,
                    guint    track_id,
                    GError **error)
{
  KymoTrack *track = kymo_trace_get_track (self->trace, track_id);
  const KymoInstant *instants;
  const KymoSample *samples;
  const KymoAnnotation *annotations;
  gsize n;

  if (!write_spans (self, track_id, track, error))
    return FALSE;

  instants = kymo_track_get_instants (track, &n);
  for (gsize i = 0; i < n; i++)
    {
      KymoEventRef ref = { track_id, KYMO_EVENT_KIND_INSTANT, (guint) i };

      begin_event (self, "i", "instant", kymo_trace_get_name (self->trace, instants[i].name_flags & KYMO_NAME_MAX), track_id);
      kymo_json_writer_key (self->w, "s");
      kymo_json_writer_string (self->w, "t", -1);
      write_ts (self, "ts", instants[i].ts);
      write_args (self, &ref, instants[i].name_flags >> 24, NULL);
      end_event (self);
      if (!check (self, error))
        return FALSE;
    }

  annotations = kymo_track_get_annotations (track, &n);
  for (gsize i = 0; i < n; i++)
    {
      const KymoAnnotation *a = &annotations[i];
      KymoEventRef ref = { track_id, KYMO_EVENT_KIND_ANNOTATION, (guint) i };
      gboolean range = a->end > a->start;

      begin_event (self, range ? "X" : "i", "annotation", kymo_trace_get_name (self->trace, a->name), track_id);
      if (!range)
        {
          kymo_json_writer_key (self->w, "s");
          kymo_json_writer_string (self->w, "t", -1);
        }
      write_ts (self, "ts", a->start);
      if (range)
        {
          kymo_json_writer_key (self->w, "dur");
          kymo_json_writer_ns_as_us (self->w, sub_sat (a->end, a->start));
        }
      write_args (self, &ref, 0, a->text != NULL ? a->text : "");
      end_event (self);
      if (!check (self, error))
        return FALSE;
    }

  samples = kymo_track_get_samples (track, &n);
  for (gsize i = 0; i < n; i++)
    {
      /* JSON has no number for these and viewers drop the whole event. */
      if (!isfinite (samples[i].value))
        continue;
      begin_event (self, "C", "counter", kymo_track_get_name (track), track_id);
      write_ts (self, "ts", samples[i].ts);
      kymo_json_writer_key (self->w, "args");
      kymo_json_writer_begin_object (self->w);
      kymo_json_writer_key (self->w, "value");
      kymo_json_writer_double (self->w, samples[i].value);
      kymo_json_writer_end_object (self->w);
      end_event (self);
      if (!check (self, error))
        return FALSE;
    }
  return TRUE;
}

static void
write_flow_end (Export     *self,
                const char *ph,
                const char *name,
                guint       track,
                KymoTime    ts,
                guint64     id)
{
  begin_event (self, ph, "flow", name, track);
  write_ts (self, "ts", ts);
  kymo_json_writer_key (self->w, "id");
  kymo_json_writer_uint (self->w, id);
  /* Both ends attach to the slice enclosing them rather than the next one. */
  kymo_json_writer_key (self->w, "bp");
  kymo_json_writer_string (self->w, "e", -1);
  end_event (self);
}

static gboolean
write_flows (Export  *self,
             GError **error)
{
  guint n_tracks = kymo_trace_get_n_tracks (self->trace);
  const KymoFlow *flows;
  gsize n_flows;

  flows = kymo_trace_get_flows (self->trace, &n_flows);
  for (gsize i = 0; i < n_flows; i++)
    {
      const KymoFlow *f = &flows[i];
      const char *name;

      if (f->from_track >= n_tracks || f->to_track >= n_tracks ||
          self->tid[f->from_track] == 0 || self->tid[f->to_track] == 0)
        continue;
      name = kymo_trace_get_name (self->trace, f->name);
      if (name == NULL || name[0] == '\0')
        name = "flow";
      write_flow_end (self, "s", name, f->from_track, f->from_ts, i + 1);
      write_flow_end (self, "f", name, f->to_track, f->to_ts, i + 1);
      if (!check (self, error))
        return FALSE;
    }
  return TRUE;
}

static void
write_metadata_event (Export     *self,
                      const char *what,
                      guint       pid,
                      guint       tid,
                      const char *name,
                      gint64      sort_index)
{
  KymoJsonWriter *w = self->w;

  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "ph");
  kymo_json_writer_string (w, "M", -1);
  kymo_json_writer_key (w, "name");
  kymo_json_writer_string (w, what, -1);
  kymo_json_writer_key (w, "pid");
  kymo_json_writer_uint (w, pid);
  kymo_json_writer_key (w, "tid");
  kymo_json_writer_uint (w, tid);
  kymo_json_writer_key (w, "args");
  kymo_json_writer_begin_object (w);
  if (name != NULL)
    {
      kymo_json_writer_key (w, "name");
      kymo_json_writer_string (w, name, -1);
    }
  else
    {
      kymo_json_writer_key (w, "sort_index");
      kymo_json_writer_int (w, sort_index);
    }
  kymo_json_writer_end_object (w);
  kymo_json_writer_end_object (w);
  kymo_json_writer_end_line (w);
}

static gboolean
is_counter_only (KymoTrack *track)
{
  gsize n_spans, n_instants, n_annotations;

  if (kymo_track_get_kind (track) != KYMO_TRACK_COUNTER)
    return FALSE;
  kymo_track_get_spans (track, &n_spans);
  kymo_track_get_instants (track, &n_instants);
  kymo_track_get_annotations (track, &n_annotations);
  return n_spans == 0 && n_instants == 0 && n_annotations == 0;
}

static void
write_names (Export *self)
{
  for (guint i = 0; i < self->processes->len; i++)
    {
      const Process *p = &g_array_index (self->processes, Process, i);

      write_metadata_event (self, "process_name", p->pid, 0, p->name, 0);
      write_metadata_event (self, "process_sort_index", p->pid, 0, NULL, i);
    }
  for (guint i = 0; i < self->threads->len; i++)
    {
      guint track_id = g_array_index (self->threads, guint, i);
      KymoTrack *track = kymo_trace_get_track (self->trace, track_id);

      /* A counter is a track of its process in the viewers, not a thread:
       * naming an empty thread for it would add a blank lane. */
      if (is_counter_only (track))
        continue;
      write_metadata_event (self, "thread_name", self->pid[track_id], self->tid[track_id],
                            kymo_track_get_name (track), 0);
      write_metadata_event (self, "thread_sort_index", self->pid[track_id], self->tid[track_id],
                            NULL, i);
    }
}

static void
write_document_metadata (Export *self)
{
  KymoJsonWriter *w = self->w;
  KymoTrace *trace = self->trace;
  const KymoFormat *format = kymo_trace_get_format (trace);
  const GError *stop_error;
  KymoTime start, end;
  gint64 wallclock;

  kymo_json_writer_key (w, "metadata");
  kymo_json_writer_begin_object (w);
  kymo_json_writer_key (w, "generator");
  kymo_json_writer_string (w, "Kymo " PACKAGE_VERSION, -1);
  kymo_json_writer_key (w, "format");
  kymo_json_writer_string (w, format != NULL ? format->name : NULL, -1);
  kymo_json_writer_key (w, "variant");
  kymo_json_writer_string (w, kymo_trace_get_variant (trace), -1);
  kymo_json_writer_key (w, "title");
  kymo_json_writer_string (w, kymo_trace_get_title (trace), -1);

  /* Exact integers: the fractional microseconds of "ts" may not survive a
   * viewer's doubles, these do. */
  kymo_trace_get_time_range (trace, &start, &end);
  kymo_json_writer_key (w, "time-origin-ns");
  kymo_json_writer_int (w, self->origin);
  kymo_json_writer_key (w, "start-ns");
  if (start == KYMO_TIME_NONE) kymo_json_writer_null (w); else kymo_json_writer_int (w, start);
  kymo_json_writer_key (w, "end-ns");
  if (end == KYMO_TIME_NONE) kymo_json_writer_null (w); else kymo_json_writer_int (w, end);
  if (kymo_trace_get_wallclock (trace, &wallclock))
    {
      kymo_json_writer_key (w, "wallclock-offset-ns");
      kymo_json_writer_int (w, wallclock);
    }

  kymo_json_writer_key (w, "trace");
  kymo_trace_json_metadata (w, trace);

  kymo_json_writer_key (w, "warnings");
  kymo_trace_json_warnings (w, trace);

  stop_error = kymo_trace_get_stop_error (trace);
  if (stop_error != NULL)
    {
      kymo_json_writer_key (w, "stop-error");
      kymo_json_writer_string (w, stop_error->message, -1);
    }
  kymo_json_writer_end_object (w);
}

static gboolean
export_run (Export  *self,
            GError **error)
{
  const guint *roots;
  guint n_roots;

  roots = kymo_trace_get_root_tracks (self->trace, &n_roots);
  assign_tracks (self, roots, n_roots, 0, NULL);

  kymo_json_writer_begin_object (self->w);
  kymo_json_writer_key (self->w, "traceEvents");
  kymo_json_writer_begin_array (self->w);
  kymo_json_writer_end_line (self->w);

  write_names (self);
  for (guint i = 0; i < self->threads->len; i++)
    if (!write_track_events (self, g_array_index (self->threads, guint, i), error))
      return FALSE;
  if (!write_flows (self, error))
    return FALSE;

  kymo_json_writer_end_array (self->w);
  kymo_json_writer_key (self->w, "displayTimeUnit");
  kymo_json_writer_string (self->w, "ns", -1);
  write_document_metadata (self);
  kymo_json_writer_end_object (self->w);
  kymo_json_writer_end_line (self->w);

  if (!kymo_json_writer_flush (self->w) || fflush (self->out) != 0 || ferror (self->out))
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Could not write the export: %s", g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
kymo_export_chrome_full (KymoTrace                     *trace,
                         const KymoExportChromeOptions *options,
                         FILE                          *out,
                         GCancellable                  *cancellable,
                         GError                       **error)
{
  static const KymoExportChromeOptions defaults = { KYMO_EXPORT_CHROME_ARGS_AUTO, 0 };
  guint n_tracks;
  Export self = { 0 };
  gboolean ok;

  g_return_val_if_fail (KYMO_IS_TRACE (trace), FALSE);
  g_return_val_if_fail (kymo_trace_is_sealed (trace), FALSE);
  g_return_val_if_fail (out != NULL, FALSE);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (options == NULL)
    options = &defaults;

  n_tracks = kymo_trace_get_n_tracks (trace);
  self.trace = trace;
  self.out = out;
  self.cancellable = cancellable;
  self.origin = options->origin;
  self.countdown = CHECK_EVERY;
  switch (options->args)
    {
    case KYMO_EXPORT_CHROME_ARGS_ALWAYS:
      self.with_args = TRUE;
      break;
    case KYMO_EXPORT_CHROME_ARGS_NEVER:
      self.with_args = FALSE;
      break;
    case KYMO_EXPORT_CHROME_ARGS_AUTO:
    default:
      {
        guint64 spans, instants, samples, annotations;

        kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
        self.with_args = spans + instants + samples + annotations < KYMO_EXPORT_CHROME_ARGS_LIMIT;
      }
    }
  /* Without a format there is nothing to decode arguments from. */
  if (kymo_trace_get_format (trace) == NULL || kymo_trace_get_format (trace)->describe == NULL)
    self.with_args = FALSE;

  self.w = kymo_json_writer_new (out);
  self.pid = g_new0 (guint, MAX (n_tracks, 1));
  self.tid = g_new0 (guint, MAX (n_tracks, 1));
  self.processes = g_array_new (FALSE, FALSE, sizeof (Process));
  g_array_set_clear_func (self.processes, process_clear);
  self.threads = g_array_new (FALSE, FALSE, sizeof (guint));

  ok = export_run (&self, error);

  kymo_json_writer_free (self.w);
  g_free (self.pid);
  g_free (self.tid);
  g_array_unref (self.processes);
  g_array_unref (self.threads);
  return ok;
}

gboolean
kymo_export_chrome (KymoTrace     *trace,
                    FILE          *out,
                    GCancellable  *cancellable,
                    GError       **error)
{
  return kymo_export_chrome_full (trace, NULL, out, cancellable, error);
}
