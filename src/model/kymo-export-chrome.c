/* kymo-export-chrome.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-export-chrome"

#include "config.h"

#include "kymo-export-chrome.h"
