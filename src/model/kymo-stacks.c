/* kymo-stacks.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-stacks"

#include "config.h"

#include <string.h>

#include "kymo-run-sort.h"
#include "kymo-stacks-private.h"

struct _KymoStacks
{
  GArray     *frames;   /* KymoFrame: every stack's frames, back to back */
  GArray     *offsets;  /* guint32 [n_stacks + 1] into frames */
  GHashTable *ids;      /* StackKey* → id + 1 */
  GArray     *samples;  /* KymoStackSample */
  gboolean    finished; /* kymo_stacks_finish() */
};

/* Keys point into @frames by offset, so growing the array moves nothing. */
typedef struct {
  KymoStacks *owner;
  guint32     first;
  guint32     n;
} StackKey;

static const KymoFrame *
key_frames (const StackKey *key)
{
  return &g_array_index (key->owner->frames, KymoFrame, key->first);
}

static guint
key_hash (gconstpointer data)
{
  const StackKey *key = data;
  const KymoFrame *f = key_frames (key);
  guint h = 5381 + key->n;

  for (guint32 i = 0; i < key->n; i++)
    h = (h * 33) ^ (f[i].name * 2654435761u) ^ f[i].location;
  return h;
}

static gboolean
key_equal (gconstpointer a,
           gconstpointer b)
{
  const StackKey *ka = a, *kb = b;

  return ka->n == kb->n && memcmp (key_frames (ka), key_frames (kb), ka->n * sizeof (KymoFrame)) == 0;
}

KymoStacks *
_kymo_stacks_new (void)
{
  KymoStacks *self = g_new0 (KymoStacks, 1);
  guint32 zero = 0;

  self->frames = g_array_new (FALSE, FALSE, sizeof (KymoFrame));
  self->offsets = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_array_append_val (self->offsets, zero);
  self->ids = g_hash_table_new_full (key_hash, key_equal, g_free, NULL);
  self->samples = g_array_new (FALSE, FALSE, sizeof (KymoStackSample));
  return self;
}

void
_kymo_stacks_free (KymoStacks *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->frames);
  g_array_unref (self->offsets);
  g_hash_table_unref (self->ids);
  g_array_unref (self->samples);
  g_free (self);
}

guint32
kymo_stacks_add (KymoStacks      *self,
                 const KymoFrame *frames,
                 gsize            n_frames)
{
  StackKey probe, *key;
  gpointer found;
  guint32 id;

  g_return_val_if_fail (self != NULL && !self->finished, KYMO_NO_STACK);
  g_return_val_if_fail (frames != NULL || n_frames == 0, KYMO_NO_STACK);

  if (self->frames->len + n_frames >= G_MAXUINT32 || self->offsets->len >= G_MAXUINT32 - 1)
    return KYMO_NO_STACK;

  /* Append first so the probe can point at the frames; take them back
   * when the stack is known. */
  probe.owner = self;
  probe.first = self->frames->len;
  probe.n = n_frames;
  g_array_append_vals (self->frames, frames, n_frames);
  if (g_hash_table_lookup_extended (self->ids, &probe, NULL, &found))
    {
      g_array_set_size (self->frames, probe.first);
      return GPOINTER_TO_UINT (found) - 1;
    }

  id = self->offsets->len - 1;
  g_array_append_val (self->offsets, self->frames->len);
  key = g_memdup2 (&probe, sizeof probe);
  g_hash_table_insert (self->ids, key, GUINT_TO_POINTER (id + 1));
  return id;
}

void
kymo_stacks_add_sample (KymoStacks *self,
                        guint       track,
                        KymoTime    ts,
                        guint32     stack,
                        guint32     kind,
                        guint32     source)
{
  KymoStackSample sample = { ts, track, stack, kind, source };

  g_return_if_fail (self != NULL && !self->finished);

  g_array_append_val (self->samples, sample);
}

void
kymo_stacks_reserve_samples (KymoStacks *self,
                             gsize       n_samples)
{
  guint len;

  g_return_if_fail (self != NULL && !self->finished);
  g_return_if_fail (n_samples <= G_MAXUINT - self->samples->len);

  /* A GArray keeps the room it grew to. */
  len = self->samples->len;
  g_array_set_size (self->samples, len + (guint) n_samples);
  g_array_set_size (self->samples, len);
}

KymoStackSample *
kymo_stacks_append_samples (KymoStacks *self,
                            gsize       n_samples)
{
  guint len;

  g_return_val_if_fail (self != NULL && !self->finished, NULL);
  g_return_val_if_fail (n_samples <= G_MAXUINT - self->samples->len, NULL);

  len = self->samples->len;
  g_array_set_size (self->samples, len + (guint) n_samples);
  return (KymoStackSample *) (gpointer) self->samples->data + len;
}


guint
kymo_stacks_get_n_stacks (KymoStacks *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->offsets->len - 1;
}

const KymoFrame *
kymo_stacks_get (KymoStacks *self,
                 guint32     stack,
                 gsize      *n_frames)
{
  guint32 first, end;

  g_return_val_if_fail (self != NULL && n_frames != NULL, NULL);

  *n_frames = 0;
  if (stack >= self->offsets->len - 1)
    return NULL;
  first = g_array_index (self->offsets, guint32, stack);
  end = g_array_index (self->offsets, guint32, stack + 1);
  *n_frames = end - first;
  return end > first ? &g_array_index (self->frames, KymoFrame, first) : NULL;
}

const KymoStackSample *
kymo_stacks_get_samples (KymoStacks *self,
                         gsize      *n_samples)
{
  g_return_val_if_fail (self != NULL && n_samples != NULL, NULL);

  *n_samples = self->samples->len;
  return (const KymoStackSample *) self->samples->data;
}

gsize
kymo_stacks_lower_bound (KymoStacks *self,
                         KymoTime    ts)
{
  const KymoStackSample *v;
  gsize lo = 0, hi;

  g_return_val_if_fail (self != NULL, 0);

  v = (const KymoStackSample *) self->samples->data;
  hi = self->samples->len;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (v[mid].ts < ts)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

#define SAMPLE_BEFORE(a, b) ((a)->ts < (b)->ts)
KYMO_DEFINE_RUN_SORT (sort_samples, KymoStackSample, SAMPLE_BEFORE)

void
kymo_stacks_finish (KymoStacks *self)
{
  g_return_if_fail (self != NULL);

  if (self->finished)
    return;
  self->finished = TRUE;
  /* The hash table only serves building. */
  g_hash_table_remove_all (self->ids);
  sort_samples ((KymoStackSample *) self->samples->data, self->samples->len);
}

void
_kymo_stacks_seal (KymoStacks *self)
{
  kymo_stacks_finish (self);
}
