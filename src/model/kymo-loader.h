/* kymo-loader.h: detect the format and load a trace in a worker thread
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-format.h"

G_BEGIN_DECLS

typedef void (*KymoProgressFunc) (double      fraction,
                                  const char *message,
                                  gpointer    user_data);

/* Adds @format (static) to those the loader detects and looks up, after
 * those registered before it: the first of equal detection scores wins.
 * The built-in decoders register themselves before main(). */
void                      kymo_formats_register (const KymoFormat *format);
const KymoFormat * const *kymo_formats_get_all (guint            *n_formats);
const KymoFormat         *kymo_formats_lookup  (const char       *name);
/* NULL when nothing claims @input. */
const KymoFormat         *kymo_formats_detect  (KymoInput        *input);

/* Loads in the calling thread. Returns NULL with @error when nothing could be
 * read (unknown format, I/O, cancelled). A trace that stopped at damage is
 * returned sealed, with kymo_trace_get_stop_error() set and a warning. */
KymoTrace *kymo_load_sync (KymoInput             *input,
                           const KymoLoadOptions *options,
                           KymoProgressFunc       progress,
                           gpointer               progress_data,
                           GCancellable          *cancellable,
                           GError               **error);

/* Writes every record as JSON lines. Returns FALSE with @error when the input
 * could not be read or decoding stopped at damage. */
gboolean   kymo_dump_sync (KymoInput             *input,
                           const KymoLoadOptions *options,
                           KymoJsonWriter        *out,
                           GError               **error);
/* The same, and *@warnings (may be NULL) takes what the dump met that did
 * not stop it (files of a folder skipped, damage in a later file): a
 * GPtrArray of strings in the order they came, for the caller to show;
 * NULL when no decoder ran (unknown format). */
gboolean   kymo_dump_sync_full (KymoInput             *input,
                                const KymoLoadOptions *options,
                                KymoJsonWriter        *out,
                                GPtrArray            **warnings,
                                GError               **error);

#define KYMO_TYPE_LOADER (kymo_loader_get_type ())

G_DECLARE_FINAL_TYPE (KymoLoader, kymo_loader, KYMO, LOADER, GObject)

/* Properties "fraction" (double) and "message" (string) follow the load on
 * the main context the load was started from. With the load option
 * "preview", a big input also gives ::preview (KymoTrace *) there, once or
 * more before the load finishes: a sealed trace of the start of the input,
 * each later one holding more. The property "preview" keeps the latest:
 * what a cancelled load leaves to show. */
KymoLoader *kymo_loader_new         (KymoInput             *input,
                                     const KymoLoadOptions *options);
KymoInput  *kymo_loader_get_input   (KymoLoader            *self);
double      kymo_loader_get_fraction (KymoLoader           *self);
const char *kymo_loader_get_message (KymoLoader            *self);
KymoTrace  *kymo_loader_get_preview (KymoLoader            *self);
void        kymo_loader_load_async  (KymoLoader            *self,
                                     GCancellable          *cancellable,
                                     GAsyncReadyCallback    callback,
                                     gpointer               user_data);
KymoTrace  *kymo_loader_load_finish (KymoLoader            *self,
                                     GAsyncResult          *result,
                                     GError               **error);

G_END_DECLS
