/* kymo-export-chrome.h: a trace as Chrome Trace Event JSON
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdio.h>
#include <gio/gio.h>

#include "kymo-trace.h"

G_BEGIN_DECLS

typedef enum {
  /* Arguments for traces of fewer than KYMO_EXPORT_CHROME_ARGS_LIMIT events. */
  KYMO_EXPORT_CHROME_ARGS_AUTO,
  KYMO_EXPORT_CHROME_ARGS_ALWAYS,
  KYMO_EXPORT_CHROME_ARGS_NEVER,
} KymoExportChromeArgs;

/* Decoding the arguments of every event is what makes a large export slow. */
#define KYMO_EXPORT_CHROME_ARGS_LIMIT 1000000

typedef struct {
  KymoExportChromeArgs args;
  /* Subtracted from every time written (0 keeps the trace's own clock).
   * Viewers read "ts" as a double: epoch-based times lose their nanoseconds
   * there unless rebased, e.g. onto the trace's start. */
  KymoTime             origin;
} KymoExportChromeOptions;

/* Writes @trace (sealed) to @out as one JSON document:
 *   {"traceEvents":[…],"displayTimeUnit":"ns","metadata":{…}}
 * Every Kymo track becomes one track of the viewer: groups are processes,
 * the other tracks threads (a top-level one gets a process of its own), in
 * Kymo's display order. Spans are "X" events, instants "i", counter samples
 * "C", flows "s"/"f" pairs bound to the enclosing slices, annotations "i"
 * (points) or "X" (ranges) with their text in args; "cat" tells them apart
 * ("span", "instant", "counter", "flow", "annotation"). Times are
 * microseconds with the nanoseconds kept as a fraction. Non-finite counter
 * values have no JSON number and are left out.
 *
 * Events are streamed: memory stays bounded whatever the trace's size.
 * Returns FALSE with G_IO_ERROR_CANCELLED when @cancellable fires, or a
 * G_IO_ERROR when writing fails; @out is not closed. */
gboolean kymo_export_chrome      (KymoTrace                     *trace,
                                  FILE                          *out,
                                  GCancellable                  *cancellable,
                                  GError                       **error);
/* @options NULL: the defaults (AUTO arguments, origin 0). */
gboolean kymo_export_chrome_full (KymoTrace                     *trace,
                                  const KymoExportChromeOptions *options,
                                  FILE                          *out,
                                  GCancellable                  *cancellable,
                                  GError                       **error);

G_END_DECLS
