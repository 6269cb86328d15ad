/* kymo-stacks-private.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-stacks.h"

G_BEGIN_DECLS

KymoStacks *_kymo_stacks_new  (void);
void        _kymo_stacks_free (KymoStacks *self);
/* Sorts the samples by time. */
void        _kymo_stacks_seal (KymoStacks *self);

G_END_DECLS
