/* kymo-records.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-records"

#include "config.h"

#include <string.h>

#include "kymo-records-private.h"
#include "kymo-run-sort.h"

struct _KymoRecords
{
  KymoRecord *records;
  gsize       len;
  gsize       cap;
  gboolean    sorted;   /* known to be in source order */
};

KymoRecords *
_kymo_records_new (void)
{
  return g_new0 (KymoRecords, 1);
}

void
_kymo_records_free (KymoRecords *self)
{
  if (self == NULL)
    return;
  g_free (self->records);
  g_free (self);
}

void
kymo_records_add (KymoRecords      *self,
                  const KymoRecord *records,
                  gsize             n_records)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (records != NULL || n_records == 0);

  if (n_records > G_MAXSIZE / sizeof (KymoRecord) - self->len)
    return;
  if (self->len + n_records > self->cap)
    {
      self->cap = MAX (self->len + n_records, self->cap * 2);
      self->records = g_realloc_n (self->records, self->cap, sizeof (KymoRecord));
    }
  if (n_records > 0)
    memcpy (self->records + self->len, records, n_records * sizeof (KymoRecord));
  self->len += n_records;
  self->sorted = FALSE;
}

void
kymo_records_take (KymoRecords *self,
                   KymoRecord  *records,
                   gsize        n_records)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (records != NULL || n_records == 0);

  if (self->len > 0)
    {
      kymo_records_add (self, records, n_records);
      g_free (records);
      return;
    }
  g_free (self->records);
  self->records = records;
  self->len = self->cap = n_records;
  self->sorted = FALSE;
}

void
kymo_records_take_sorted (KymoRecords *self,
                          KymoRecord  *records,
                          gsize        n_records)
{
  gboolean first;

  g_return_if_fail (self != NULL);

  first = self->len == 0;
  kymo_records_take (self, records, n_records);
  self->sorted = first;
}

const KymoRecord *
kymo_records_get_all (KymoRecords *self,
                      gsize       *n_records)
{
  g_return_val_if_fail (self != NULL && n_records != NULL, NULL);

  *n_records = self->len;
  return self->records;
}

const KymoRecord *
kymo_records_find (KymoRecords *self,
                   guint32      source)
{
  const KymoRecord *v;
  gsize lo = 0, hi;

  g_return_val_if_fail (self != NULL, NULL);

  v = self->records;
  hi = self->len;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (v[mid].source < source)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < self->len && v[lo].source == source ? &v[lo] : NULL;
}

#define RECORD_BEFORE(a, b) ((a)->source < (b)->source)
KYMO_DEFINE_RUN_SORT (sort_records, KymoRecord, RECORD_BEFORE)

void
_kymo_records_seal (KymoRecords *self)
{
  /* Checking that they are would read every record, hundreds of MB. */
  if (!self->sorted)
    sort_records (self->records, self->len);
}
