/* kymo-records-private.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-records.h"

G_BEGIN_DECLS

KymoRecords *_kymo_records_new  (void);
void         _kymo_records_free (KymoRecords *self);
/* Sorts the records by source (stable). */
void         _kymo_records_seal (KymoRecords *self);

G_END_DECLS
