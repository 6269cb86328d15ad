/* kymo-analysis.h: the analysis library in one include
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo.h"
#include "kymo-call-tree.h"
#include "kymo-clock.h"
#include "kymo-dial9-lanes.h"
#include "kymo-dial9-poi.h"
#include "kymo-dial9-tasks.h"
#include "kymo-event-set.h"
#include "kymo-export-chrome.h"
#include "kymo-search.h"
#include "kymo-query.h"
#include "kymo-short-path.h"
#include "kymo-stats.h"
#include "kymo-trace-json.h"
