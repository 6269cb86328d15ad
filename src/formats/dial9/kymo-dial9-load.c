/* kymo-dial9-load.c: a dial9 load: the stream decoded whole or in parts, then built
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <stdlib.h>

#include "kymo-dial9-files.h"
#include "kymo-dial9-gzip.h"
#include "kymo-dial9-pair.h"
#include "kymo-dial9-side.h"
#include "kymo-dial9-decode.h"
#include "kymo-dial9-parts-private.h"
#include "kymo-parts.h"

static gint parts_merged;
static gint parts_redecoded;
static gint restarts;

void
d9_parts_reset_for_testing (void)
{
  g_atomic_int_set (&parts_merged, 0);
  g_atomic_int_set (&parts_redecoded, 0);
  g_atomic_int_set (&restarts, 0);
}

guint
d9_parts_get_restarts_for_testing (void)
{
  return (guint) g_atomic_int_get (&restarts);
}

void
d9_parts_get_for_testing (guint *merged,
                          guint *redecoded)
{
  *merged = (guint) g_atomic_int_get (&parts_merged);
  *redecoded = (guint) g_atomic_int_get (&parts_redecoded);
}

/* Decodes the first D9_PROBE_BYTES on a loader of its own (no trace, no
 * job): whether they hold damage, and whether their events are out of
 * time order (*@disorder). A stream that is damaged at once is then
 * decoded on one thread, which stops at the damage, rather than searched
 * whole for segments to decode in parallel; one out of order is not
 * streamed, which would only find that out and start again. */
static gboolean
probe_stream (const guint8 *data,
              gsize         size,
              gboolean     *disorder)
{
  D9Shared sh = { 0 };
  D9Loader *l;
  D9Stop stop;
  gboolean damaged;

  *disorder = FALSE;
  if (size < D9_HEADER_SIZE)
    return FALSE;
  sh.data = data;
  sh.size = MIN (size, D9_PROBE_BYTES);
  sh.streaming = TRUE;
  l = d9_spec_new (&sh);
  damaged = d9_decode (l, &sh, 0, 0, &stop, NULL) && stop.status == D9_CORRUPT;
  *disorder = l->disorder;
  d9_spec_free (l);
  return damaged;
}

/* Decodes D9_PROBE_BYTES from the segment header candidate at @at on a
 * loader of its own: whether its events are out of time order (*@disorder).
 * FALSE when it holds damage, which says nothing but that @at was no
 * segment start. */
static gboolean
probe_window (const guint8 *data,
              gsize         size,
              gsize         at,
              gboolean     *disorder)
{
  D9Shared sh = { 0 };
  D9Loader *l;
  D9Stop stop;
  gboolean clean;

  sh.data = data;
  sh.size = MIN (size, at + D9_PROBE_BYTES);
  sh.streaming = TRUE;
  l = d9_spec_new (&sh);
  clean = d9_decode (l, &sh, at, 0, &stop, NULL) && stop.status != D9_CORRUPT;
  *disorder = l->disorder;
  d9_spec_free (l);
  return clean;
}

/* The probes of a stream big enough to decode in parallel, run side by
 * side: its start (probe_stream()), and the next D9_PROBE_BYTES from the
 * first segment header after them. The samples of real files are out of
 * order from 129 to 62,449 events in (1.5 MB): streaming one would only
 * find that out and start again. */
typedef struct {
  const guint8 *data;
  gsize         size;
  gsize         next;      /* the next window's segment header, or 0 */
  gboolean      damaged;   /* out, of the start */
  gboolean      disorder[2];
} D9Probes;

static void
probe_part (guint    index,
            gpointer user_data)
{
  D9Probes *probes = user_data;
  gboolean disorder = FALSE;

  if (index == 0)
    probes->damaged = probe_stream (probes->data, probes->size, &probes->disorder[0]);
  else if (probe_window (probes->data, probes->size, probes->next, &disorder))
    probes->disorder[1] = disorder;
}

static gboolean
probe_streams (const KymoLoadOptions *options,
               const guint8          *data,
               gsize                  size,
               gboolean              *disorder)
{
  static const guint8 magic[D9_HEADER_SIZE] = { 'T', 'R', 'C', 0, D9_VERSION };
  D9Probes probes = { data, size, 0, FALSE, { FALSE, FALSE } };
  gsize to = MIN (size, 2 * D9_PROBE_BYTES);

  /* A header in the first window's last frame is found again: its decode
   * only says it was no segment start. */
  for (gsize at = D9_PROBE_BYTES; at + sizeof magic <= to;)
    {
      const guint8 *hit = memchr (data + at, magic[0], to - at - sizeof magic + 1);

      if (hit == NULL)
        break;
      if (memcmp (hit, magic, sizeof magic) == 0)
        {
          probes.next = hit - data;
          break;
        }
      at = hit - data + 1;
    }
  kymo_parts_run (options, size, PARALLEL_MIN_BYTES, probes.next > 0 ? 2 : 1, 0, probe_part, NULL, &probes);
  *disorder = probes.disorder[0] || probes.disorder[1];
  return probes.damaged;
}

gboolean
d9_probe_damaged (const guint8 *data,
                  gsize         size)
{
  gboolean disorder;

  return probe_stream (data, size, &disorder);
}

/* Files decoded while later ones inflate: file i + 1 starts at
 * starts[i], and fill() inflates it into its place. */
typedef struct {
  const gsize *starts;
  guint        n_starts;
  D9FileFill  *fill;
  gboolean     failed;   /* out: decode the files joined instead */
} D9Pipe;

static gboolean
pipe_fill (gpointer data,
           guint    file)
{
  return d9_files_fill_one (data, file);
}

/* The merged parts whose edges and wakes are still to be put into the
 * places d9_unordered_reserve() made for them. */
typedef struct {
  D9Loader  *l;
  GPtrArray *parts;
} D9Placing;

static void
place_part (guint    index,
            gpointer user_data)
{
  D9Placing *placing = user_data;

  d9_unordered_copy (placing->l, g_ptr_array_index (placing->parts, index));
}

/* Decodes the whole stream after the first header into @l: with more than
 * one thread, the parts from each candidate segment on are decoded on
 * their own as KymoParts while the head is decoded here for real, then
 * they are merged in file order (or, when they cannot be, decoded here for
 * real). The result is the same either way. @damaged: the probe found
 * damage at once (one thread then). With @pipe the parts are the files,
 * and a part that cannot be merged sets pipe->failed instead. FALSE when
 * cancelled. */
static gboolean
decode_all (D9Loader  *l,
            gboolean   damaged,
            D9Pipe    *pipe,
            D9Stop    *stop,
            GError   **error)
{
  D9Data *d = l->d;
  guint n_threads = d9_parallel_threads (l);
  D9Shared sh = { 0 };
  g_autoptr(KymoParts) parts = NULL;
  g_autoptr(GArray) room = g_array_new (FALSE, TRUE, sizeof (gsize));
  g_autoptr(GPtrArray) to_place = g_ptr_array_new ();
  D9Merge m = { 0 };
  gboolean ok, merged = FALSE;
  guint cur;

  if (pipe == NULL && (n_threads <= 1 || damaged))
    return d9_decode (l, NULL, D9_HEADER_SIZE, 0, stop, error);

  sh.data = d->data;
  sh.size = d->size;
  sh.job = l->job;
  sh.cancellable = kymo_load_job_get_cancellable (l->job);
  sh.streaming = l->streaming;
  if (pipe != NULL)
    {
      sh.cands = g_memdup2 (pipe->starts, pipe->n_starts * sizeof (gsize));
      sh.n_cands = pipe->n_starts;
      sh.fill = pipe_fill;
      sh.fill_data = pipe->fill;
    }
  else
    d9_find_candidates (&sh, 4 * n_threads);
  if (sh.n_cands == 0)
    {
      g_free (sh.cands);
      return d9_decode (l, NULL, D9_HEADER_SIZE, 0, stop, error);
    }
  sh.parts = g_new0 (D9Loader *, sh.n_cands);
  /* One budget for the moves of the merge (edges, wakes) and of the
   * assembly after it. */
  l->moves_left = MAX_PAGE_MOVES;
  parts = kymo_parts_new (kymo_load_job_get_options (l->job), d->size, PARALLEL_MIN_BYTES,
                          sh.n_cands, 0, d9_spec_part, &sh);
  /* The head is one segment: then the loading thread decodes parts too
   * rather than sleep on the one it waits for. */
  kymo_parts_set_help (parts, TRUE);

  if (pipe != NULL)
    {
      /* The first file alone: what follows it may not be inflated yet. */
      d->size = sh.cands[0];
      ok = d9_decode (l, &sh, D9_HEADER_SIZE, 0, stop, error);
      d->size = sh.size;
      if (ok && stop->status == D9_OK && stop->end_cand == G_MAXUINT)
        stop->end_cand = 0;
    }
  else
    ok = d9_decode (l, &sh, D9_HEADER_SIZE, 0, stop, error);
  if (!ok || l->disorder || stop->status != D9_OK || stop->end_cand == G_MAXUINT)
    g_atomic_int_set (&sh.abandon, 1);
  if (pipe != NULL && ok && (l->disorder || stop->status != D9_OK))
    pipe->failed = TRUE;

  cur = ok && !l->disorder && stop->status == D9_OK ? stop->end_cand : G_MAXUINT;
  while (cur != G_MAXUINT)
    {
      D9Loader *c;
      int r;

      kymo_parts_wait (parts, cur);
      /* A cancel seen while the part was decoded. */
      if (!kymo_load_job_progress (l->job, D9_PROGRESS_DECODING (MIN ((double) g_atomic_int_get (&sh.done_kb) * 1024 / sh.size, 1.0)),
                                   "Decoding", error))
        {
          g_atomic_int_set (&sh.cancel, 1);
          ok = FALSE;
          break;
        }
      c = sh.parts[cur];
      r = c != NULL ? d9_merge_part (l, c, &m) : MERGE_REJECT;

      if (r == MERGE_OK)
        {
          g_atomic_int_inc (&parts_merged);
          if (!l->streaming)
            {
              /* Their places now, in file order; they are put there
               * once every part is in, on every thread, rather than
               * here on the one thread that merges. */
              d9_unordered_reserve (l, c, room, sh.n_cands - cur - 1);
              g_ptr_array_add (to_place, c);
            }
          d9_spec_trim (c);
          merged = TRUE;
          stop->status = D9_OK;
          stop->offset = d->size;
          stop->end_cand = G_MAXUINT;
          cur = c->spec->end_cand;
          continue;
        }
      if (r == MERGE_DISORDER)
        {
          l->disorder = TRUE;
          break;
        }
      if (pipe != NULL)
        {
          /* Decoding on from here could run into files not inflated. */
          pipe->failed = TRUE;
          break;
        }
      {
        /* Decoding here would take the first wake with no known waker for
         * its own when the merged parts' are not in its array yet. */
        gboolean had_wakes = l->wake_instants->len > 0 || m.part_wake_instants > 0;
        guint32 wakes_first = l->wakes_first;

        g_atomic_int_inc (&parts_redecoded);

        ok = d9_decode (l, &sh, sh.cands[cur], cur + 1, stop, error);
        if (had_wakes)
          l->wakes_first = wakes_first;
      }
      if (!ok || l->disorder || stop->status != D9_OK)
        break;
      cur = stop->end_cand;
    }

  /* Parts not merged are not needed: the workers stop after the ones
   * they are decoding. */
  g_atomic_int_set (&sh.abandon, 1);
  g_clear_pointer (&parts, kymo_parts_free);

  /* The parts' arrays are joined in when building: d9_loader_assemble. */
  {
    D9Kept *kept = g_new0 (D9Kept, 1);

    kept->m = m;
    kept->parts = g_steal_pointer (&sh.parts);
    kept->n_parts = sh.n_cands;
    if (ok && !l->disorder && merged && (pipe == NULL || !pipe->failed))
      {
        D9Placing placing = { l, to_place };

        if (to_place->len > 0)
          kymo_parts_run (kymo_load_job_get_options (l->job), d->size, PARALLEL_MIN_BYTES, to_place->len, 0,
                          place_part, NULL, &placing);
        l->kept = kept;
      }
    else
      d9_kept_free (kept);
  }
  g_free (sh.cands);
  return ok;
}

/* The first header decides whether this is a dial9 stream at all. */
static gboolean
check_first_header (KymoLoadJob   *job,
                    const guint8  *data,
                    gsize          size,
                    GError       **error)
{
  if (size >= 4 && memcmp (data, D9_MAGIC, 4) != 0)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, 0,
                               "not a dial9 trace (no TRC header)");
      return FALSE;
    }
  if (size < D9_HEADER_SIZE)
    {
      if (size > 0 && memcmp (data, D9_MAGIC "\x01", size) != 0)
        kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, 0,
                                 "not a dial9 trace (no TRC header)");
      else
        kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_TRUNCATED, 0,
                                 "the input ends inside the dial9 header");
      return FALSE;
    }
  if (data[4] != D9_VERSION)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNSUPPORTED, 4,
                               "dial9 format version %u is not supported", data[4]);
      return FALSE;
    }
  return TRUE;
}

/* Decodes @bytes into a new D9Data of @trace, starting again with the
 * merge when the events turn out not to be in time order (@merge: with
 * the merge from the start, which leaves the edges unpaired for
 * d9_loader_cut()). Decoding leaves nothing in the trace but interned
 * names and named tracks (reused), so a later attempt may decode other
 * bytes into the same trace. */
static gboolean
decode_stream (KymoLoadJob  *job,
               KymoTrace    *trace,
               GBytes       *bytes,
               GHashTable   *tracks_by_name,
               gboolean      merge,
               D9Loader     *loader,
               D9Stop       *stop,
               GError      **error)
{
  D9Data *d = d9_data_new ();
  gboolean damaged = FALSE, disorder = FALSE;

  d->bytes = g_bytes_ref (bytes);
  d->data = g_bytes_get_data (bytes, &d->size);
  kymo_trace_set_format_data (trace, d, d9_data_free);
  if (!check_first_header (job, d->data, d->size, error))
    {
      if (tracks_by_name != NULL)
        g_hash_table_unref (tracks_by_name);
      return FALSE;
    }

  /* Not streaming from the start decodes as starting again would: the
   * names and named tracks the attempt left are the first ones of the
   * file, in file order, which decoding again makes the same way. */
  if (kymo_load_options_get_threads (kymo_load_job_get_options (job), d->size, PARALLEL_MIN_BYTES) > 1)
    damaged = probe_streams (kymo_load_job_get_options (job), d->data, d->size, &disorder);
  d9_loader_init (loader, job, trace, d, tracks_by_name ? tracks_by_name : g_hash_table_new (NULL, NULL), NULL);
  loader->streaming = !disorder && !merge;
  if (!decode_all (loader, damaged, NULL, stop, error))
    {
      d9_loader_clear (loader);
      return FALSE;
    }
  if (loader->disorder)
    {
      /* Start again with the merge. */
      GHashTable *names = g_hash_table_ref (loader->tracks_by_name);

      g_atomic_int_inc (&restarts);

      d9_loader_clear (loader);
      d = d9_data_new ();
      d->bytes = g_bytes_ref (bytes);
      d->data = g_bytes_get_data (bytes, &d->size);
      kymo_trace_set_format_data (trace, d, d9_data_free);
      d9_loader_init (loader, job, trace, d, names, NULL);
      if (!decode_all (loader, damaged, NULL, stop, error))
        {
          d9_loader_clear (loader);
          return FALSE;
        }
    }
  return TRUE;
}

typedef enum {
  FILES_DONE,
  FILES_JOIN,    /* decode the files joined instead */
  FILES_FAILED,  /* cancelled */
} D9FilesResult;

/* Several files with more than one thread: each file after the first is
 * a part that inflates, then decodes on its own, while the loading thread
 * decodes the first and merges the others in order, so inflating and
 * decoding overlap. Anything out of the ordinary (a file that does not
 * inflate to the size its gzip trailer gave, damage, events out of
 * order the probe did not see) leaves it to the files joined
 * (FILES_JOIN): @loader is then set up, for its names. */
static D9FilesResult
decode_files (KymoLoadJob  *job,
              KymoTrace    *trace,
              D9FileSet    *files,
              D9FileFill   *fill,
              D9Loader     *loader,
              D9Stop       *stop,
              GError      **error)
{
  guint n = files->files->len;
  g_autofree gsize *starts = g_new (gsize, n);
  GHashTable *names = g_hash_table_new (NULL, NULL);
  gboolean disorder = FALSE, probed = FALSE;

  for (guint i = 1; i < n; i++)
    starts[i - 1] = g_array_index (files->files, D9File, i).start;
  for (;;)
    {
      D9Pipe pipe = { starts, n - 1, fill, FALSE };
      D9Data *d = d9_data_new ();

      d->bytes = g_bytes_ref (d9_files_fill_bytes (fill));
      d->data = g_bytes_get_data (d->bytes, &d->size);
      kymo_trace_set_format_data (trace, d, d9_data_free);
      d9_loader_init (loader, job, trace, d, names, NULL);
      if (!probed)
        {
          if (!d9_files_fill_one (fill, 0) || starts[0] < D9_HEADER_SIZE ||
              memcmp (d->data, D9_MAGIC "\x01", D9_HEADER_SIZE) != 0 ||
              probe_stream (d->data, starts[0], &disorder))
            return FILES_JOIN;
          probed = TRUE;
        }
      loader->streaming = !disorder;
      if (!decode_all (loader, FALSE, &pipe, stop, error))
        {
          d9_loader_clear (loader);
          return FILES_FAILED;
        }
      if (pipe.failed)
        return FILES_JOIN;
      if (!loader->disorder)
        return FILES_DONE;
      /* Out of order where the first file was not: start again with the
       * merge (the files inflated so far stay). */
      g_atomic_int_inc (&restarts);
      names = g_hash_table_ref (loader->tracks_by_name);
      d9_loader_clear (loader);
      disorder = TRUE;
    }
}

/* Whether decode_files() is worth it: files to overlap, threads. */
static gboolean
files_pipelined (KymoLoadJob *job,
                 D9FileSet   *files)
{
  gsize total = 0;

  if (files->files->len < 2)
    return FALSE;
  for (guint i = 0; i < files->files->len; i++)
    {
      const D9File *f = &g_array_index (files->files, D9File, i);

      /* A gzip file with no trusted size inflates elsewhere, later. */
      if (f->guess == 0)
        return FALSE;
      total += f->guess;
    }
  return kymo_load_options_get_threads (kymo_load_job_get_options (job), total, PARALLEL_MIN_BYTES) > 1;
}

/* What the cut files left open ends where they were cut, unless nothing
 * follows (then the end of the trace ends it, as for one damaged file).
 * The files' counts of events must be the decoder's, or the cuts would
 * go in the wrong places. */
static void
cut_files (D9Loader  *l,
           D9FileSet *files)
{
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (D9Cut));
  guint64 at = 0;

  for (guint i = 0; i < files->files->len; i++)
    {
      const D9File *f = &g_array_index (files->files, D9File, i);
      D9Cut cut = { at, at + f->events };

      at += f->events;
      if (f->cut)
        g_array_append_val (cuts, cut);
    }
  while (cuts->len > 0 && g_array_index (cuts, D9Cut, cuts->len - 1).end >= at)
    g_array_set_size (cuts, cuts->len - 1);
  if (at == l->d->n_events && cuts->len > 0)
    d9_loader_cut (l, (const D9Cut *) (gpointer) cuts->data, cuts->len);
}

gboolean
d9_load (KymoLoadJob  *job,
         KymoTrace    *trace,
         GError      **error)
{
  g_autofree char *gz_warning = NULL;
  g_autoptr(GError) gz_error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  D9FileSet *files = NULL;
  D9FilesResult decoded = FILES_JOIN;
  GHashTable *names = NULL;
  D9Loader loader;
  D9Stop stop;

  if (d9_files_wanted (kymo_load_job_get_input (job)))
    {
      D9FileFill *fill;
      gboolean ok;

      files = d9_files_list (job, error);
      if (files == NULL)
        return FALSE;
      fill = d9_files_fill_new (files, job, error);
      if (fill != NULL && files_pipelined (job, files))
        {
          decoded = decode_files (job, trace, files, fill, &loader, &stop, error);
          if (decoded == FILES_JOIN)
            {
              /* Decoding again keeps the names and named tracks made. */
              names = g_hash_table_ref (loader.tracks_by_name);
              d9_loader_clear (&loader);
            }
        }
      ok = fill != NULL && decoded != FILES_FAILED && d9_files_fill_finish (fill, decoded == FILES_DONE, error);
      d9_files_fill_free (fill);
      if (!ok)
        {
          if (decoded == FILES_DONE)
            d9_loader_clear (&loader);
          g_clear_pointer (&names, g_hash_table_unref);
          d9_file_set_free (files);
          return FALSE;
        }
      bytes = d9_files_join (files);
      kymo_trace_set_variant (trace, files->files->len == 1 ? "1 file" : "files");
    }
  else
    {
      bytes = d9_open_stream (job, &gz_warning, &gz_error);
      if (bytes == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&gz_error));
          return FALSE;
        }
      if (d9_is_gzip (kymo_load_job_get_input (job)->main.data, kymo_load_job_get_input (job)->main.size))
        kymo_trace_set_variant (trace, "gzip");
    }

  if (decoded != FILES_DONE && !decode_stream (job, trace, bytes, names, FALSE, &loader, &stop, error))
    {
      d9_file_set_free (files);
      return FALSE;
    }
  if (files != NULL && stop.status != D9_OK)
    {
      /* A damaged file among several: each is cut where its damage starts
       * (the files after it still load) and the whole decodes again. */
      names = g_hash_table_ref (loader.tracks_by_name);
      d9_loader_clear (&loader);
      d9_files_cut_damage (files);
      g_bytes_unref (bytes);
      bytes = d9_files_join (files);
      if (!decode_stream (job, trace, bytes, names, TRUE, &loader, &stop, error))
        {
          d9_file_set_free (files);
          return FALSE;
        }
      cut_files (&loader, files);
    }
  if (files != NULL)
    {
      for (guint i = 0; i < files->warnings->len; i++)
        kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE, "%s",
                                (const char *) g_ptr_array_index (files->warnings, i));
      d9_file_set_free (files);
    }
  if (!kymo_load_job_progress (job, D9_PROGRESS_DECODED, "Building the timeline", error))
    {
      d9_loader_clear (&loader);
      return FALSE;
    }
  if (!d9_build_model (&loader, error))
    {
      d9_loader_clear (&loader);
      return FALSE;
    }
  d9_loader_clear (&loader);

  if (gz_warning != NULL)
    kymo_trace_add_warning (trace, KYMO_NO_OFFSET, KYMO_TIME_NONE, "%s", gz_warning);

  if (stop.status == D9_TRUNCATED)
    kymo_trace_add_warning (trace, stop.offset, KYMO_TIME_NONE,
                            "offset %" G_GSIZE_FORMAT ": the trace ends inside a frame "
                            "(a trace still being written?)", stop.offset);
  else if (stop.status == D9_CORRUPT)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_CORRUPT, stop.offset, "%s", stop.message);
      return FALSE;
    }

  if (gz_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&gz_error));
      return FALSE;
    }
  return TRUE;
}

