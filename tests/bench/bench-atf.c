/* bench-atf.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>

#include "kymo-bench.h"

int
main (void)
{
  printf ("bench-atf: not written yet\n");
  return 0;
}
