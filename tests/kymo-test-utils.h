/* kymo-test-utils.h: helpers every test may use
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-analysis.h"

G_BEGIN_DECLS

/* ../shared/samples/<relative>, or NULL after g_test_skip() with a message
 * when the samples are not there (a user's clone). */
char      *kymo_test_sample_path (const char   *relative);
/* Every sample file under @dir, and each ATF session (a folder holding a pid
 * folder with a manifest) once, as a whole, appended to @out (paths). */
void       kymo_test_collect_samples (const char *dir,
                                      GPtrArray  *out);
/* Opens every sample kymo_test_collect_samples() finds and calls @check on
 * it; skips with a message when the samples are not there. */
typedef void (*KymoTestSampleFunc) (KymoInput  *input,
                                    const char *path);
void       kymo_test_for_each_sample (KymoTestSampleFunc check);
/* Removes @path and everything under it. */
void       kymo_test_remove_tree (const char   *path);
/* The threads option of every load and dump below (0 by default: as
 * the loader decides). */
void       kymo_test_set_threads (guint         threads);
/* Loads @bytes as @format (NULL: detect) in the calling thread. */
KymoTrace *kymo_test_load_bytes  (const guint8 *data,
                                  gsize         size,
                                  const char   *format,
                                  GError      **error);
KymoTrace *kymo_test_load_path   (const char   *path,
                                  const char   *format,
                                  GError      **error);
/* The first track named @name, or NULL. */
KymoTrack *kymo_test_find_track  (KymoTrace    *trace,
                                  const char   *name);
/* Everything a user is shown of a load: @error (or the trace's own stop
 * error), metadata, warnings, tracks, and a digest of every name and of
 * every field of every event. */
char      *kymo_test_fingerprint (KymoTrace    *trace,
                                  const GError *error);
/* Runs the format's dump into memory; returns the text, sets @ok. */
char      *kymo_test_dump_bytes  (const guint8 *data,
                                  gsize         size,
                                  const char   *format,
                                  gboolean     *ok,
                                  GError      **error);
/* Loads every prefix of @data (and dumps it): must never crash. Returns how
 * many prefixes loaded without a stop error. */
guint      kymo_test_every_prefix (const guint8 *data,
                                   gsize         size,
                                   const char   *format,
                                   gsize         step);

/* Runs kymo-cli ($KYMO_CLI) with @args (NULL-terminated); returns its exit
 * status, its output in @out and @err (either may be NULL). */
int        kymo_test_run_cli     (const char * const *args,
                                  char              **out,
                                  char              **err);

G_END_DECLS
