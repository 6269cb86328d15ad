/* kymo-fuzz.h: the one thing every fuzz target does
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kymo-trace.h"

int  LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);
/* Loads @data as @format, runs every analysis over the trace, and dumps it;
 * any crash, hang or sanitizer report is a bug. */
void kymo_fuzz_run          (const char *format, const uint8_t *data, size_t size);
/* The same with the load's threads option (0: as the loader decides). */
void kymo_fuzz_run_threads  (const char *format, unsigned threads, const uint8_t *data, size_t size);

/* Every analysis of the app and kymo-cli over @trace, read back a little. */
void kymo_fuzz_analyse      (KymoTrace *trace);
