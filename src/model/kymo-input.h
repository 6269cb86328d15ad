/* kymo-input.h: the bytes (or the folder) a trace is read from
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _KymoInput KymoInput;

/* One file of the input. Regular files are mapped read-only: Kymo never
 * writes to a trace. */
typedef struct {
  GFile        *file;     /* NULL for memory or standard input */
  char         *path;     /* for messages */
  int           core;     /* from a "file@N" suffix, or -1 */
  GBytes       *bytes;    /* NULL for a directory */
  const guint8 *data;
  gsize         size;
} KymoInputPart;

struct _KymoInput
{
  /* The primary part; for a directory, data is NULL and is_dir TRUE. */
  KymoInputPart  main;
  gboolean       is_dir;
  /* Further files given together (Tonbandgerät: one file per core). */
  GPtrArray     *extra;   /* of KymoInputPart* */
};

/* "-" reads standard input; "file@N" names core N of a Tonbandgerät trace
 * when "file@N" itself does not exist. */
KymoInput  *kymo_input_new_for_path   (const char         *path,
                                       GError            **error);
KymoInput  *kymo_input_new_for_paths  (const char * const *paths,
                                       guint               n_paths,
                                       GError            **error);
KymoInput  *kymo_input_new_for_file   (GFile              *file,
                                       GError            **error);
KymoInput  *kymo_input_new_for_files  (GFile * const      *files,
                                       guint               n_files,
                                       GError            **error);
KymoInput  *kymo_input_new_for_bytes  (GBytes             *bytes,
                                       const char         *name);
KymoInput  *kymo_input_ref            (KymoInput          *self);
void        kymo_input_unref          (KymoInput          *self);
const char *kymo_input_get_path       (KymoInput          *self);
/* Maps @path read-only; an empty file gives empty bytes. */
GBytes     *kymo_map_file             (const char         *path,
                                       GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (KymoInput, kymo_input_unref)

G_END_DECLS
