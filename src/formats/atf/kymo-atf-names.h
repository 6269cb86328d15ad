/* kymo-atf-names.h: function_id → interned name, fast enough for every call
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-atf-private.h"

G_BEGIN_DECLS

#define ATF_NAME_CACHE 256

typedef struct {
  KymoTrace *trace;
  /* open addressing, linear probing; a slot is used when value != 0 */
  guint64   *keys;
  guint32   *values;    /* name id + 1 */
  gsize      mask;
  gsize      n;
  struct {
    guint64 function_id;
    guint32 name;       /* + 1; 0 = empty */
  } cache[ATF_NAME_CACHE];
} AtfNames;

void    _kymo_atf_names_init   (AtfNames          *self,
                                KymoTrace         *trace,
                                const AtfManifest *manifest);
void    _kymo_atf_names_clear  (AtfNames          *self);
/* A private copy for another thread (the cache starts empty). */
void    _kymo_atf_names_copy   (AtfNames          *self,
                                const AtfNames    *from);
guint32 _kymo_atf_names_slow   (AtfNames          *self,
                                guint64            function_id);
/* Like _kymo_atf_names_lookup(); without @may_intern it fails (FALSE)
 * instead of interning a name the trace does not have yet. */
gboolean _kymo_atf_names_resolve (AtfNames        *self,
                                  guint64          function_id,
                                  gboolean         may_intern,
                                  guint32         *name);
/* Records @name for @function_id (which the table does not have). */
void     _kymo_atf_names_put    (AtfNames        *self,
                                 guint64          function_id,
                                 guint32          name);
/* TRUE when the manifest (not a fallback) named @function_id. */
gboolean _kymo_atf_names_known (AtfNames          *self,
                                guint64            function_id);

static inline guint
_kymo_atf_names_hash (guint64 function_id)
{
  return (guint) ((function_id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15)) >> 40);
}

static inline guint32
_kymo_atf_names_lookup (AtfNames *self,
                        guint64   function_id)
{
  guint slot = _kymo_atf_names_hash (function_id) & (ATF_NAME_CACHE - 1);

  if (self->cache[slot].name != 0 && self->cache[slot].function_id == function_id)
    return self->cache[slot].name - 1;
  return _kymo_atf_names_slow (self, function_id);
}

G_END_DECLS
