/* fuzz-dial9.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "kymo-fuzz.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  kymo_fuzz_run ("dial9", data, size);
  /* Again with later segments decoded on other threads and merged. */
  kymo_fuzz_run_threads ("dial9", 3, data, size);
  return 0;
}
