/* kymo-export-chrome.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-trace.h"

G_BEGIN_DECLS

G_END_DECLS
