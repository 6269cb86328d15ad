/* kymo-dial9-files.h: several dial9 files (a folder of rotated segments) as one trace
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-dial9-private.h"

G_BEGIN_DECLS

typedef struct {
  char    *path;
  gboolean gzip;
  gsize    file_size;  /* on disk */
  gsize    guess;      /* inflated bytes expected: the file's, or gzip's trailer */
  gsize    start;      /* where it starts in the joined stream */
  gsize    size;       /* its bytes there */
  gsize    keep;       /* of those, the ones the decoder reads (see cut_damage) */
  guint64  events;     /* the events in those (set by cut_damage) */
  gboolean cut;        /* cut at damage (by cut_damage) */
} D9File;

typedef struct {
  GArray    *files;     /* D9File, in natural name order (dial9 files only) */
  GPtrArray *warnings;  /* char*: skipped and damaged files */
  GBytes    *joined;    /* every file's bytes one after the other, once inflated */
} D9FileSet;

/* Whether @input is a folder or several files: dial9 then reads every
 * dial9 file in it, in natural name order, as one stream. */
gboolean   d9_files_wanted    (KymoInput    *input);
/* Whether the folder holds a dial9 file (for detection: looks at a few). */
gboolean   d9_files_dir_has_dial9 (const char *path);
/* Lists the files and looks at the first bytes of each (nothing is
 * inflated yet). Files that are not dial9 or cannot be read become
 * warnings; none at all is an error naming the input. */
D9FileSet *d9_files_list      (KymoLoadJob  *job,
                               GError      **error);
/* d9_files_list(), then every file inflated straight into its place in
 * one stream, in parts on the load's threads (KymoParts). */
D9FileSet *d9_files_open      (KymoLoadJob  *job,
                               GError      **error);
void       d9_file_set_free   (D9FileSet    *set);

/* The files inflated straight into their places in one stream, one by
 * one on any thread, so that decoding may start before the last is in:
 * d9_files_open() is d9_files_list(), d9_files_fill_new() and
 * d9_files_fill_finish(). */
typedef struct _D9FileFill D9FileFill;

/* Makes room for every file at its guessed size (an error when there is
 * not enough memory). */
D9FileFill *d9_files_fill_new    (D9FileSet    *set,
                                  KymoLoadJob  *job,
                                  GError      **error);
/* The stream, every file at its guessed place (set->files' start). */
GBytes     *d9_files_fill_bytes  (D9FileFill   *fill);
/* Inflates file @index into its place, unless done already (calls for
 * different files may run at once). TRUE when it came out whole at the
 * size its place was made for. */
gboolean    d9_files_fill_one    (D9FileFill   *fill,
                                  guint         index);
/* Inflates the files not done yet, on the load's threads, and joins them
 * as d9_files_open() leaves them (failed, moved and empty files dealt
 * with, warnings). @decoded: they were decoded meanwhile (progress is
 * then past decompressing). FALSE when cancelled or out of memory. */
gboolean    d9_files_fill_finish (D9FileFill   *fill,
                                  gboolean      decoded,
                                  GError      **error);
void        d9_files_fill_free   (D9FileFill   *fill);
/* The one stream of every file's first @keep bytes, one after the other (a
 * file's header resets the decoder as a segment header does). */
GBytes    *d9_files_join      (D9FileSet    *set);
/* Cuts every file at its first damage (a frame that does not decode or is
 * cut short), with a warning naming the file and the offset; counts the
 * events each file keeps. */
void       d9_files_cut_damage (D9FileSet   *set);

/* Takes @stream, file @index inflated; FALSE stops. */
typedef gboolean (*D9FileFunc) (D9FileSet  *set,
                                guint       index,
                                GBytes     *stream,
                                gpointer    user_data,
                                GError    **error);
/* Inflates the listed files one by one on the load's threads and hands
 * each to @func in order, keeping only a few inflated at once. FALSE when
 * @func stopped it or the load was cancelled. */
gboolean   d9_files_foreach   (D9FileSet    *set,
                               KymoLoadJob  *job,
                               D9FileFunc    func,
                               gpointer      user_data,
                               GError      **error);

G_END_DECLS
