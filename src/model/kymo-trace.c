/* kymo-trace.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-trace"

#include "config.h"

#include <string.h>

#include "kymo-demangle.h"
#include "kymo-format.h"
#include "kymo-input.h"
#include "kymo-parts.h"
#include "kymo-records-private.h"
#include "kymo-stacks-private.h"
#include "kymo-trace-private.h"
#include "kymo-track-private.h"

struct _KymoTrace
{
  GObject         parent_instance;

  char           *title;
  const KymoFormat *format;
  char           *variant;
  KymoInput      *input;
  gpointer        format_data;
  GDestroyNotify  format_data_destroy;

  GHashTable     *name_ids;      /* const char* (in chunk) → id + 1 */
  GPtrArray      *names;         /* id → const char* (in chunk), as shown after seal */
  GPtrArray      *raw_names;     /* id → as spelt in the file; NULL while every name is shown so */
  GStringChunk   *strings;

  GPtrArray      *tracks;        /* KymoTrack*, index = id */
  GArray         *roots;         /* guint */
  KymoVec         flows;         /* KymoFlow */
  KymoStacks     *stacks;        /* sampled call stacks */
  KymoRecords    *records;       /* numbers read from records, for analyses */
  GArray         *warnings;      /* KymoWarning */
  GPtrArray      *metadata_keys;
  GPtrArray      *metadata_values;

  KymoTime        start;
  KymoTime        end;
  gint64          wallclock_offset;
  GError         *stop_error;
  guint           load_threads;  /* the load option `threads` the seal runs on */
  guint           sealed : 1;
  guint           has_wallclock : 1;
  guint           has_range : 1;
};

G_DEFINE_FINAL_TYPE (KymoTrace, kymo_trace, G_TYPE_OBJECT)

/* g_set_str() is GLib 2.76, above our floor. */
static gboolean
set_str (char       **ptr,
         const char  *value)
{
  if (g_strcmp0 (*ptr, value) == 0)
    return FALSE;
  g_free (*ptr);
  *ptr = g_strdup (value);
  return TRUE;
}

enum {
  PROP_0,
  PROP_TITLE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
kymo_trace_finalize (GObject *object)
{
  KymoTrace *self = (KymoTrace *) object;

  if (self->format_data_destroy)
    g_clear_pointer (&self->format_data, self->format_data_destroy);
  g_clear_pointer (&self->input, kymo_input_unref);
  g_clear_pointer (&self->tracks, g_ptr_array_unref);
  g_clear_pointer (&self->roots, g_array_unref);
  g_clear_pointer (&self->flows.data, g_free);
  g_clear_pointer (&self->stacks, _kymo_stacks_free);
  g_clear_pointer (&self->records, _kymo_records_free);
  for (guint i = 0; i < self->warnings->len; i++)
    g_free (g_array_index (self->warnings, KymoWarning, i).message);
  g_clear_pointer (&self->warnings, g_array_unref);
  g_clear_pointer (&self->metadata_keys, g_ptr_array_unref);
  g_clear_pointer (&self->metadata_values, g_ptr_array_unref);
  g_clear_pointer (&self->name_ids, g_hash_table_unref);
  g_clear_pointer (&self->names, g_ptr_array_unref);
  g_clear_pointer (&self->raw_names, g_ptr_array_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);
  g_clear_error (&self->stop_error);
  g_free (self->title);
  g_free (self->variant);

  G_OBJECT_CLASS (kymo_trace_parent_class)->finalize (object);
}

static void
kymo_trace_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  KymoTrace *self = KYMO_TRACE (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_trace_set_property (GObject      *object,
                         guint         prop_id,
                         const GValue *value,
                         GParamSpec   *pspec)
{
  KymoTrace *self = KYMO_TRACE (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      kymo_trace_set_title (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_trace_class_init (KymoTraceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_trace_finalize;
  object_class->get_property = kymo_trace_get_property;
  object_class->set_property = kymo_trace_set_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_trace_init (KymoTrace *self)
{
  self->strings = g_string_chunk_new (64 * 1024);
  self->name_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->names = g_ptr_array_new ();
  self->tracks = g_ptr_array_new_with_free_func ((GDestroyNotify) _kymo_track_free);
  self->roots = g_array_new (FALSE, FALSE, sizeof (guint));
  self->stacks = _kymo_stacks_new ();
  self->records = _kymo_records_new ();
  self->warnings = g_array_new (FALSE, FALSE, sizeof (KymoWarning));
  self->metadata_keys = g_ptr_array_new_with_free_func (g_free);
  self->metadata_values = g_ptr_array_new_with_free_func (g_free);
  self->start = KYMO_TIME_NONE;
  self->end = KYMO_TIME_NONE;
  kymo_trace_intern (self, "");
}

KymoTrace *
kymo_trace_new (void)
{
  return g_object_new (KYMO_TYPE_TRACE, NULL);
}

const char *
kymo_trace_get_title (KymoTrace *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE (self), NULL);
  return self->title;
}

void
kymo_trace_set_title (KymoTrace  *self,
                      const char *title)
{
  g_return_if_fail (KYMO_IS_TRACE (self));

  if (set_str (&self->title, title))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}

const KymoFormat *
kymo_trace_get_format (KymoTrace *self)
{
  return self->format;
}

void
kymo_trace_set_format (KymoTrace        *self,
                       const KymoFormat *format)
{
  self->format = format;
}

const char *
kymo_trace_get_variant (KymoTrace *self)
{
  return self->variant;
}

void
kymo_trace_set_variant (KymoTrace  *self,
                        const char *variant)
{
  set_str (&self->variant, variant);
}

KymoInput *
kymo_trace_get_input (KymoTrace *self)
{
  return self->input;
}

void
kymo_trace_set_input (KymoTrace *self,
                      KymoInput *input)
{
  if (input)
    kymo_input_ref (input);
  g_clear_pointer (&self->input, kymo_input_unref);
  self->input = input;
}

gpointer
kymo_trace_get_format_data (KymoTrace *self)
{
  return self->format_data;
}

void
kymo_trace_set_format_data (KymoTrace      *self,
                            gpointer        data,
                            GDestroyNotify  destroy)
{
  if (self->format_data_destroy && self->format_data)
    self->format_data_destroy (self->format_data);
  self->format_data = data;
  self->format_data_destroy = destroy;
}

guint32
kymo_trace_lookup_name (KymoTrace  *self,
                        const char *name)
{
  gpointer value;

  g_return_val_if_fail (KYMO_IS_TRACE (self), G_MAXUINT32);

  if (name == NULL)
    return 0;
  value = g_hash_table_lookup (self->name_ids, name);
  return value != NULL ? GPOINTER_TO_UINT (value) - 1 : G_MAXUINT32;
}

guint32
kymo_trace_intern_len (KymoTrace  *self,
                       const char *name,
                       gssize      len)
{
  g_autofree char *copy = NULL;
  gpointer value;
  const char *stored;
  guint32 id;

  if (name == NULL)
    return 0;
  if (len >= 0)
    name = copy = g_strndup (name, len);

  value = g_hash_table_lookup (self->name_ids, name);
  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  if (self->names->len > KYMO_NAME_MAX)
    return KYMO_NAME_MAX;

  stored = g_string_chunk_insert (self->strings, name);
  id = self->names->len;
  g_ptr_array_add (self->names, (gpointer) stored);
  if (self->raw_names != NULL)
    g_ptr_array_add (self->raw_names, (gpointer) stored);
  g_hash_table_insert (self->name_ids, (gpointer) stored, GUINT_TO_POINTER (id + 1));
  return id;
}

guint32
kymo_trace_intern (KymoTrace  *self,
                   const char *name)
{
  return kymo_trace_intern_len (self, name, -1);
}

const char *
kymo_trace_get_name (KymoTrace *self,
                     guint32    name_id)
{
  if (name_id >= self->names->len)
    return "";
  return g_ptr_array_index (self->names, name_id);
}

const char *
kymo_trace_get_raw_name (KymoTrace *self,
                         guint32    name_id)
{
  if (self->raw_names == NULL)
    return kymo_trace_get_name (self, name_id);
  if (name_id >= self->raw_names->len)
    return "";
  return g_ptr_array_index (self->raw_names, name_id);
}

/* Each distinct name once, however many events carry it: after this every
 * reader (timeline, details, stats, export, find) shows the same spelling. */
static void
demangle_names (KymoTrace *self)
{
  for (guint id = 0; id < self->names->len; id++)
    {
      g_autofree char *shown = _kymo_demangle_for_display (g_ptr_array_index (self->names, id));

      if (shown == NULL)
        continue;
      if (self->raw_names == NULL)
        self->raw_names = g_ptr_array_copy (self->names, NULL, NULL);
      g_ptr_array_index (self->names, id) = (gpointer) g_string_chunk_insert (self->strings, shown);
    }
}

guint
kymo_trace_get_n_names (KymoTrace *self)
{
  return self->names->len;
}

const char *
kymo_trace_store_text (KymoTrace  *self,
                       const char *text)
{
  return g_string_chunk_insert (self->strings, text ? text : "");
}

guint
kymo_trace_add_track (KymoTrace     *self,
                      guint          parent,
                      KymoTrackKind  kind,
                      const char    *name)
{
  guint id = self->tracks->len;
  KymoTrack *track;

  g_return_val_if_fail (!self->sealed, KYMO_NO_TRACK);
  g_return_val_if_fail (parent == KYMO_NO_TRACK || parent < id, KYMO_NO_TRACK);

  track = _kymo_track_new (self, id, parent, kind, name);
  g_ptr_array_add (self->tracks, track);
  if (parent == KYMO_NO_TRACK)
    g_array_append_val (self->roots, id);
  else
    g_array_append_val (((KymoTrack *) g_ptr_array_index (self->tracks, parent))->children, id);
  return id;
}

guint
kymo_trace_get_n_tracks (KymoTrace *self)
{
  return self->tracks->len;
}

KymoTrack *
kymo_trace_get_track (KymoTrace *self,
                      guint      id)
{
  g_return_val_if_fail (id < self->tracks->len, NULL);
  return g_ptr_array_index (self->tracks, id);
}

const guint *
kymo_trace_get_root_tracks (KymoTrace *self,
                            guint     *n_roots)
{
  *n_roots = self->roots->len;
  return (const guint *) (gpointer) self->roots->data;
}

void
kymo_trace_add_flow (KymoTrace *self,
                     guint      from_track,
                     KymoTime   from_ts,
                     guint      to_track,
                     KymoTime   to_ts,
                     guint32    name,
                     guint32    source)
{
  KymoFlow flow = { from_track, to_track, from_ts, to_ts, name, source };

  g_return_if_fail (!self->sealed);
  g_return_if_fail (from_track < self->tracks->len && to_track < self->tracks->len);
  *(KymoFlow *) _kymo_vec_push (&self->flows, sizeof flow) = flow;
}

/* Hands over a g_malloc()ed array of flows the trace then owns: adopted
 * without a copy when the trace has none yet. A flow naming a track that
 * does not exist is dropped, as kymo_trace_add_flow() would. */
void
kymo_trace_take_flows (KymoTrace *self,
                       KymoFlow  *flows,
                       gsize      n_flows)
{
  guint n_tracks = self->tracks->len;
  gsize kept = 0;

  g_return_if_fail (!self->sealed);
  g_return_if_fail (flows != NULL || n_flows == 0);

  for (gsize i = 0; i < n_flows; i++)
    {
      if (G_UNLIKELY (flows[i].from_track >= n_tracks || flows[i].to_track >= n_tracks))
        {
          g_critical ("%s: flow %" G_GSIZE_FORMAT " names a track that does not exist", G_STRFUNC, i);
          continue;
        }
      flows[kept++] = flows[i];
    }
  if (self->flows.len == 0)
    {
      g_free (self->flows.data);
      self->flows.data = flows;
      self->flows.len = self->flows.cap = kept;
      return;
    }
  if (self->flows.cap - self->flows.len < kept)
    _kymo_vec_grow (&self->flows, sizeof (KymoFlow), self->flows.len + kept);
  memcpy ((KymoFlow *) self->flows.data + self->flows.len, flows, kept * sizeof (KymoFlow));
  self->flows.len += kept;
  g_free (flows);
}

const KymoFlow *
kymo_trace_get_flows (KymoTrace *self,
                      gsize     *n_flows)
{
  *n_flows = self->flows.len;
  return self->flows.data;
}

KymoStacks *
kymo_trace_get_stacks (KymoTrace *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE (self), NULL);

  return self->stacks;
}

KymoRecords *
kymo_trace_get_records (KymoTrace *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE (self), NULL);

  return self->records;
}

void
kymo_trace_add_warning (KymoTrace  *self,
                        guint64     offset,
                        KymoTime    ts,
                        const char *format,
                        ...)
{
  KymoWarning warning;
  va_list args;

  va_start (args, format);
  warning.offset = offset;
  warning.ts = ts;
  warning.message = g_strdup_vprintf (format, args);
  va_end (args);
  g_array_append_val (self->warnings, warning);
}

const KymoWarning *
kymo_trace_get_warnings (KymoTrace *self,
                         gsize     *n_warnings)
{
  *n_warnings = self->warnings->len;
  return (const KymoWarning *) (gpointer) self->warnings->data;
}

void
kymo_trace_set_metadata (KymoTrace  *self,
                         const char *key,
                         const char *value)
{
  g_return_if_fail (key != NULL);

  for (guint i = 0; i < self->metadata_keys->len; i++)
    if (g_str_equal (g_ptr_array_index (self->metadata_keys, i), key))
      {
        g_free (self->metadata_values->pdata[i]);
        self->metadata_values->pdata[i] = g_strdup (value ? value : "");
        return;
      }
  g_ptr_array_add (self->metadata_keys, g_strdup (key));
  g_ptr_array_add (self->metadata_values, g_strdup (value ? value : ""));
}

const char *
kymo_trace_get_metadata (KymoTrace  *self,
                         const char *key)
{
  for (guint i = 0; i < self->metadata_keys->len; i++)
    if (g_str_equal (g_ptr_array_index (self->metadata_keys, i), key))
      return g_ptr_array_index (self->metadata_values, i);
  return NULL;
}

guint
kymo_trace_get_n_metadata (KymoTrace *self)
{
  return self->metadata_keys->len;
}

void
kymo_trace_get_nth_metadata (KymoTrace   *self,
                             guint        n,
                             const char **key,
                             const char **value)
{
  g_return_if_fail (n < self->metadata_keys->len);
  *key = g_ptr_array_index (self->metadata_keys, n);
  *value = g_ptr_array_index (self->metadata_values, n);
}

void
kymo_trace_set_wallclock (KymoTrace *self,
                          KymoTime   ts,
                          gint64     epoch_ns)
{
  self->has_wallclock = TRUE;
  self->wallclock_offset = epoch_ns - ts;
}

gboolean
kymo_trace_get_wallclock (KymoTrace *self,
                          gint64    *offset_ns)
{
  if (offset_ns)
    *offset_ns = self->wallclock_offset;
  return self->has_wallclock;
}

static int
compare_roots (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  KymoTrace *self = user_data;
  const KymoTrack *ta = g_ptr_array_index (self->tracks, *(const guint *) a);
  const KymoTrack *tb = g_ptr_array_index (self->tracks, *(const guint *) b);

  if (ta->sort_key != tb->sort_key)
    return ta->sort_key < tb->sort_key ? -1 : 1;
  return ta->id < tb->id ? -1 : ta->id > tb->id;
}

/* Below this many events a seal stays on the calling thread unless the load
 * asked for threads: starting them would cost more than they save. */
#define SEAL_PARALLEL_MIN 1000000

typedef struct {
  guint  track;
  guint  depth;
  gsize  work;
} SealPart;

typedef struct {
  KymoTrace *trace;
  GArray    *parts;   /* SealPart, most work first */
} SealRun;

static int
compare_seal_parts (gconstpointer a,
                    gconstpointer b)
{
  const SealPart *pa = a, *pb = b;

  /* The largest first, so that no thread is left with a large part at the
   * end; the order changes nothing in the result. */
  if (pa->work != pb->work)
    return pa->work > pb->work ? -1 : 1;
  if (pa->track != pb->track)
    return pa->track < pb->track ? -1 : 1;
  return pa->depth < pb->depth ? -1 : pa->depth > pb->depth;
}

/* Parts of the first pass past the tracks: the records' and the stacks'
 * sorts, which touch nothing of the tracks. */
#define SEAL_RECORDS G_MAXUINT
#define SEAL_STACKS  (G_MAXUINT - 1)

static void
prepare_part (guint    index,
              gpointer user_data)
{
  SealRun *run = user_data;
  const SealPart *part = &g_array_index (run->parts, SealPart, index);

  if (part->track == SEAL_RECORDS)
    _kymo_records_seal (run->trace->records);
  else if (part->track == SEAL_STACKS)
    _kymo_stacks_seal (run->trace->stacks);
  else
    _kymo_track_seal_prepare (g_ptr_array_index (run->trace->tracks, part->track));
}

static void
depth_part (guint    index,
            gpointer user_data)
{
  SealRun *run = user_data;
  const SealPart *part = &g_array_index (run->parts, SealPart, index);

  _kymo_track_seal_depth (g_ptr_array_index (run->trace->tracks, part->track), part->depth);
}

/* Sealing a track touches that track only, and building a depth run's tree
 * that run only: both run side by side on the load's threads (KymoParts,
 * with nothing to join), which is where the level of detail every frame
 * reads gets built. */
static void
seal_tracks (KymoTrace *self)
{
  KymoLoadOptions options = { .threads = self->load_threads };
  g_autoptr(GArray) parts = g_array_new (FALSE, FALSE, sizeof (SealPart));
  SealRun run = { self, parts };
  gsize work = 0, n;
  SealPart records = { SEAL_RECORDS, 0, 0 }, stacks = { SEAL_STACKS, 0, 0 };

  for (guint i = 0; i < self->tracks->len; i++)
    {
      KymoTrack *track = g_ptr_array_index (self->tracks, i);
      SealPart part = { i, 0, track->staged.len + track->instants.len + track->samples.len };

      work += part.work;
      g_array_append_val (parts, part);
    }
  kymo_records_get_all (self->records, &n);
  records.work = n;
  kymo_stacks_get_samples (self->stacks, &n);
  stacks.work = n;
  work += records.work + stacks.work;
  g_array_append_val (parts, records);
  g_array_append_val (parts, stacks);
  g_array_sort (parts, compare_seal_parts);
  kymo_parts_run_helped (&options, work, SEAL_PARALLEL_MIN, parts->len, prepare_part, NULL, NULL, &run);

  g_array_set_size (parts, 0);
  for (guint i = 0; i < self->tracks->len; i++)
    {
      KymoTrack *track = g_ptr_array_index (self->tracks, i);

      /* Trees a decoder built already are left alone. */
      for (guint d = 0; d < track->n_depths && !_kymo_track_get_spans_done (track); d++)
        {
          SealPart part = { i, d, _kymo_track_get_depth_count (track, d) };

          if (part.work > 0)
            g_array_append_val (parts, part);
        }
    }
  g_array_sort (parts, compare_seal_parts);
  kymo_parts_run_helped (&options, work, SEAL_PARALLEL_MIN, parts->len, depth_part, NULL, NULL, &run);
}

void
_kymo_trace_set_load_threads (KymoTrace *self,
                              guint      threads)
{
  self->load_threads = threads;
}

void
kymo_trace_seal (KymoTrace *self)
{
  g_return_if_fail (KYMO_IS_TRACE (self));

  if (self->sealed)
    return;
  self->sealed = TRUE;

  demangle_names (self);
  seal_tracks (self);
  for (guint i = 0; i < self->tracks->len; i++)
    {
      KymoTrack *track = g_ptr_array_index (self->tracks, i);

      _kymo_track_seal_finish (track);
      g_qsort_with_data (track->children->data, track->children->len, sizeof (guint), compare_roots, self);

      if (self->has_range || track->start == KYMO_TIME_NONE)
        continue;
      if (self->start == KYMO_TIME_NONE || track->start < self->start)
        self->start = track->start;
      if (self->end == KYMO_TIME_NONE || track->end > self->end)
        self->end = track->end;
    }
  g_qsort_with_data (self->roots->data, self->roots->len, sizeof (guint), compare_roots, self);
}

gboolean
kymo_trace_is_sealed (KymoTrace *self)
{
  return self->sealed;
}

void
kymo_trace_get_time_range (KymoTrace *self,
                           KymoTime  *start,
                           KymoTime  *end)
{
  if (start)
    *start = self->start;
  if (end)
    *end = self->end;
}

void
kymo_trace_set_time_range (KymoTrace *self,
                           KymoTime   start,
                           KymoTime   end)
{
  self->has_range = TRUE;
  self->start = start;
  self->end = MAX (start, end);
}

void
kymo_trace_count_events (KymoTrace *self,
                         guint64   *spans,
                         guint64   *instants,
                         guint64   *samples,
                         guint64   *annotations)
{
  guint64 s = 0, i = 0, c = 0, a = 0;

  for (guint t = 0; t < self->tracks->len; t++)
    {
      KymoTrack *track = g_ptr_array_index (self->tracks, t);
      s += track->sealed || track->spans_done ? track->n_spans : track->staged.len;
      i += track->instants.len;
      c += track->samples.len;
      a += track->annotations.len;
    }
  if (spans) *spans = s;
  if (instants) *instants = i;
  if (samples) *samples = c;
  if (annotations) *annotations = a;
}

const GError *
kymo_trace_get_stop_error (KymoTrace *self)
{
  return self->stop_error;
}

void
kymo_trace_set_stop_error (KymoTrace    *self,
                           const GError *error)
{
  g_clear_error (&self->stop_error);
  if (error)
    self->stop_error = g_error_copy (error);
}

JsonObject *
kymo_trace_describe_event (KymoTrace          *self,
                           const KymoEventRef *ref)
{
  g_return_val_if_fail (KYMO_IS_TRACE (self), NULL);
  g_return_val_if_fail (ref != NULL, NULL);

  if (ref->track >= self->tracks->len || self->format == NULL || self->format->describe == NULL)
    return NULL;
  return self->format->describe (self, ref);
}

gboolean
kymo_trace_follow_link (KymoTrace          *self,
                        const KymoEventRef *from,
                        KymoEventRef       *to)
{
  g_return_val_if_fail (KYMO_IS_TRACE (self), FALSE);

  if (from->track >= self->tracks->len || self->format == NULL || self->format->follow_link == NULL)
    return FALSE;
  return self->format->follow_link (self, from, to);
}

gsize
_kymo_trace_event_memory (KymoTrace *self)
{
  gsize bytes = 0;

  for (guint i = 0; i < self->tracks->len; i++)
    bytes += _kymo_track_memory (g_ptr_array_index (self->tracks, i));
  return bytes + self->flows.len * sizeof (KymoFlow);
}
