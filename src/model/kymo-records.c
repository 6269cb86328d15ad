/* kymo-records.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-records"

#include "config.h"

#include "kymo-records-private.h"
#include "kymo-run-sort.h"

struct _KymoRecords
{
  GArray *records;  /* KymoRecord */
};

KymoRecords *
_kymo_records_new (void)
{
  KymoRecords *self = g_new0 (KymoRecords, 1);

  self->records = g_array_new (FALSE, FALSE, sizeof (KymoRecord));
  return self;
}

void
_kymo_records_free (KymoRecords *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->records);
  g_free (self);
}

void
kymo_records_add (KymoRecords      *self,
                  const KymoRecord *records,
                  gsize             n_records)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (records != NULL || n_records == 0);

  g_array_append_vals (self->records, records, n_records);
}

const KymoRecord *
kymo_records_get_all (KymoRecords *self,
                      gsize       *n_records)
{
  g_return_val_if_fail (self != NULL && n_records != NULL, NULL);

  *n_records = self->records->len;
  return (const KymoRecord *) (gpointer) self->records->data;
}

const KymoRecord *
kymo_records_find (KymoRecords *self,
                   guint32      source)
{
  const KymoRecord *v;
  gsize lo = 0, hi;

  g_return_val_if_fail (self != NULL, NULL);

  v = (const KymoRecord *) (gpointer) self->records->data;
  hi = self->records->len;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (v[mid].source < source)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->records->len && v[lo].source == source ? &v[lo] : NULL;
}

#define RECORD_BEFORE(a, b) ((a)->source < (b)->source)
KYMO_DEFINE_RUN_SORT (sort_records, KymoRecord, RECORD_BEFORE)

void
_kymo_records_seal (KymoRecords *self)
{
  sort_records ((KymoRecord *) (gpointer) self->records->data, self->records->len);
}
