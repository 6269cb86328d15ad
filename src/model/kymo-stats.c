/* kymo-stats.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-stats"

#include "config.h"

#include "kymo-stats.h"
