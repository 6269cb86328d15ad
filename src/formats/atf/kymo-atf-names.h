/* kymo-atf-names.h: function_id → interned name, fast enough for every call
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-atf-private.h"

G_BEGIN_DECLS

/* Names the manifest gave carry this bit in the table (not in the id). */
#define ATF_NAMES_FROM_MANIFEST 0x80000000u

/* A slot is used when value != 0; key and value side by side, so that a
 * lookup reads one cache line. */
typedef struct {
  guint64 function_id;
  guint32 value;          /* name id + 1, | ATF_NAMES_FROM_MANIFEST */
} AtfNameSlot;

typedef struct {
  KymoTrace   *trace;
  /* open addressing, linear probing, at most a quarter full: a lookup
   * (one per CALL) then nearly always ends at its first slot */
  AtfNameSlot *slots;
  gsize        mask;
  gsize        n;
  /* The trace's names when the table was made (every id the table held
   * then is below @n_texts): threads that build side by side read these,
   * never the trace, which the loading thread keeps interning into. Owned
   * by the table made by _kymo_atf_names_init(), shared by its copies. */
  const char **texts;
  guint32      n_texts;
  gboolean     owns_texts;
} AtfNames;

void    _kymo_atf_names_init   (AtfNames          *self,
                                KymoTrace         *trace,
                                const AtfManifest *manifest);
void    _kymo_atf_names_clear  (AtfNames          *self);
/* A private copy for another thread; @from must outlive it. */
void    _kymo_atf_names_copy   (AtfNames          *self,
                                const AtfNames    *from);
/* The trace's names as they are now become the table's @texts (on the
 * loading thread). */
void    _kymo_atf_names_take_texts (AtfNames       *self);
/* Interns "<0x…>" for a function the table does not have. */
guint32 _kymo_atf_names_slow   (AtfNames          *self,
                                guint64            function_id);
/* Records @name for @function_id (which the table does not have). */
void     _kymo_atf_names_put    (AtfNames        *self,
                                 guint64          function_id,
                                 guint32          name);
/* TRUE when the manifest (not a fallback) named @function_id. */
gboolean _kymo_atf_names_known (AtfNames          *self,
                                guint64            function_id);

static inline gsize
_kymo_atf_names_slot (const AtfNames *self,
                      guint64         function_id)
{
  return ((function_id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 32) & self->mask;
}

/* The name the table holds for @function_id: FALSE when it has none. */
static inline gboolean
_kymo_atf_names_find (const AtfNames *self,
                      guint64         function_id,
                      guint32        *name)
{
  gsize i = _kymo_atf_names_slot (self, function_id);

  while (self->slots[i].value != 0)
    {
      if (self->slots[i].function_id == function_id)
        {
          *name = (self->slots[i].value & ~ATF_NAMES_FROM_MANIFEST) - 1;
          return TRUE;
        }
      i = (i + 1) & self->mask;
    }
  return FALSE;
}

G_END_DECLS
