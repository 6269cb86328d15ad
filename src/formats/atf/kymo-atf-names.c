/* kymo-atf-names.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include "kymo-atf-names.h"

static gsize
probe (const AtfNames *self,
       guint64         function_id)
{
  gsize i = _kymo_atf_names_slot (self, function_id);

  while (self->slots[i].value != 0 && self->slots[i].function_id != function_id)
    i = (i + 1) & self->mask;
  return i;
}

static void
grow (AtfNames *self)
{
  AtfNameSlot *old = self->slots;
  gsize old_size = self->mask + 1;

  self->mask = old_size * 2 - 1;
  self->slots = g_new0 (AtfNameSlot, self->mask + 1);
  for (gsize i = 0; i < old_size; i++)
    if (old[i].value != 0)
      self->slots[probe (self, old[i].function_id)] = old[i];
  g_free (old);
}

static void
insert (AtfNames *self,
        guint64   function_id,
        guint32   value)
{
  gsize i;

  if ((self->n + 1) * 4 > self->mask + 1)
    grow (self);
  i = probe (self, function_id);
  if (self->slots[i].value != 0)
    return;
  self->slots[i].function_id = function_id;
  self->slots[i].value = value;
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
  self->slots = g_new0 (AtfNameSlot, self->mask + 1);

  for (guint i = 0; manifest != NULL && manifest->function_ids != NULL && i < manifest->function_ids->len; i++)
    {
      guint32 name = kymo_trace_intern (trace, g_ptr_array_index (manifest->names, i));

      insert (self, g_array_index (manifest->function_ids, guint64, i), (name + 1) | ATF_NAMES_FROM_MANIFEST);
    }

  _kymo_atf_names_take_texts (self);
}

void
_kymo_atf_names_take_texts (AtfNames *self)
{
  if (self->owns_texts)
    g_free (self->texts);
  /* Interned strings never move: the pointers stay valid. */
  self->n_texts = kymo_trace_get_n_names (self->trace);
  self->texts = g_new (const char *, MAX (self->n_texts, 1));
  self->owns_texts = TRUE;
  for (guint32 id = 0; id < self->n_texts; id++)
    self->texts[id] = kymo_trace_get_name (self->trace, id);
}

void
_kymo_atf_names_clear (AtfNames *self)
{
  g_clear_pointer (&self->slots, g_free);
  if (self->owns_texts)
    g_free (self->texts);
  self->texts = NULL;
  self->owns_texts = FALSE;
}

void
_kymo_atf_names_copy (AtfNames       *self,
                      const AtfNames *from)
{
  memset (self, 0, sizeof *self);
  self->trace = from->trace;
  self->mask = from->mask;
  self->n = from->n;
  self->slots = g_memdup2 (from->slots, sizeof (AtfNameSlot) * (from->mask + 1));
  self->texts = from->texts;
  self->n_texts = from->n_texts;
}

void
_kymo_atf_names_put (AtfNames *self,
                     guint64   function_id,
                     guint32   name)
{
  insert (self, function_id, name + 1);
}

guint32
_kymo_atf_names_slow (AtfNames *self,
                      guint64   function_id)
{
  g_autofree char *text = NULL;
  guint32 name;

  if (_kymo_atf_names_find (self, function_id, &name))
    return name;
  text = _kymo_atf_unresolved (function_id);
  name = kymo_trace_intern (self->trace, text);
  insert (self, function_id, name + 1);
  return name;
}

gboolean
_kymo_atf_names_known (AtfNames *self,
                       guint64   function_id)
{
  gsize i = probe (self, function_id);

  return (self->slots[i].value & ATF_NAMES_FROM_MANIFEST) != 0;
}
