/* kymo.h: the model library in one include
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-types.h"
#include "kymo-track.h"
#include "kymo-trace.h"
#include "kymo-input.h"
#include "kymo-json-writer.h"
#include "kymo-format.h"
#include "kymo-loader.h"
