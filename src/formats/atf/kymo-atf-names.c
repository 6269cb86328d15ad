/* kymo-atf-names.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include "kymo-atf-names.h"

/* Names the manifest gave carry this bit in the table (not in the id). */
#define FROM_MANIFEST 0x80000000u

static gsize
probe (AtfNames *self,
       guint64   function_id)
{
  gsize i = ((function_id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32) & self->mask;

  while (self->values[i] != 0 && self->keys[i] != function_id)
    i = (i + 1) & self->mask;
  return i;
}

static void
grow (AtfNames *self)
{
  guint64 *old_keys = self->keys;
  guint32 *old_values = self->values;
  gsize old_size = self->mask + 1;

  self->mask = old_size * 2 - 1;
  self->keys = g_new0 (guint64, self->mask + 1);
  self->values = g_new0 (guint32, self->mask + 1);
  for (gsize i = 0; i < old_size; i++)
    if (old_values[i] != 0)
      {
        gsize j = probe (self, old_keys[i]);
        self->keys[j] = old_keys[i];
        self->values[j] = old_values[i];
      }
  g_free (old_keys);
  g_free (old_values);
}

static void
insert (AtfNames *self,
        guint64   function_id,
        guint32   value)
{
  gsize i;

  if ((self->n + 1) * 2 > self->mask + 1)
    grow (self);
  i = probe (self, function_id);
  if (self->values[i] != 0)
    return;
  self->keys[i] = function_id;
  self->values[i] = value;
  self->n++;
}

void
_kymo_atf_names_init (AtfNames          *self,
                      KymoTrace         *trace,
                      const AtfManifest *manifest)
{
  memset (self, 0, sizeof *self);
  self->trace = trace;
  self->mask = 63;
  self->keys = g_new0 (guint64, self->mask + 1);
  self->values = g_new0 (guint32, self->mask + 1);

  if (manifest == NULL || manifest->function_ids == NULL)
    return;
  for (guint i = 0; i < manifest->function_ids->len; i++)
    {
      guint32 name = kymo_trace_intern (trace, g_ptr_array_index (manifest->names, i));

      insert (self, g_array_index (manifest->function_ids, guint64, i), (name + 1) | FROM_MANIFEST);
    }
}

void
_kymo_atf_names_clear (AtfNames *self)
{
  g_clear_pointer (&self->keys, g_free);
  g_clear_pointer (&self->values, g_free);
}

void
_kymo_atf_names_copy (AtfNames       *self,
                      const AtfNames *from)
{
  memset (self, 0, sizeof *self);
  self->trace = from->trace;
  self->mask = from->mask;
  self->n = from->n;
  self->keys = g_memdup2 (from->keys, sizeof (guint64) * (from->mask + 1));
  self->values = g_memdup2 (from->values, sizeof (guint32) * (from->mask + 1));
}

gboolean
_kymo_atf_names_resolve (AtfNames *self,
                         guint64   function_id,
                         gboolean  may_intern,
                         guint32  *name)
{
  gsize i = probe (self, function_id);
  guint slot = _kymo_atf_names_hash (function_id) & (ATF_NAME_CACHE - 1);

  if (self->values[i] != 0)
    *name = (self->values[i] & ~FROM_MANIFEST) - 1;
  else
    {
      g_autofree char *text = _kymo_atf_unresolved (function_id);

      if (may_intern)
        *name = kymo_trace_intern (self->trace, text);
      else if ((*name = kymo_trace_lookup_name (self->trace, text)) == G_MAXUINT32)
        return FALSE;
      insert (self, function_id, *name + 1);
    }
  self->cache[slot].function_id = function_id;
  self->cache[slot].name = *name + 1;
  return TRUE;
}

void
_kymo_atf_names_put (AtfNames *self,
                     guint64   function_id,
                     guint32   name)
{
  guint slot = _kymo_atf_names_hash (function_id) & (ATF_NAME_CACHE - 1);

  insert (self, function_id, name + 1);
  self->cache[slot].function_id = function_id;
  self->cache[slot].name = name + 1;
}

guint32
_kymo_atf_names_slow (AtfNames *self,
                      guint64   function_id)
{
  guint32 name;

  _kymo_atf_names_resolve (self, function_id, TRUE, &name);
  return name;
}

gboolean
_kymo_atf_names_known (AtfNames *self,
                       guint64   function_id)
{
  gsize i = probe (self, function_id);

  return (self->values[i] & FROM_MANIFEST) != 0;
}
