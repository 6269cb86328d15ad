/* kymo-demangle.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-demangle"

#include "config.h"

#include "kymo-demangle.h"
#include "kymo-short-path.h"

#include <stdlib.h>
#include <libiberty/demangle.h>

/* c++filt's own defaults: parameter lists, cv-qualifiers, and the details
 * (Rust hashes, std:: spelt out) it prints unless told otherwise. The style
 * is automatic so that both C++ and Rust symbols demangle. */
#define KYMO_DEMANGLE_FLAGS (DMGL_PARAMS | DMGL_ANSI | DMGL_VERBOSE | DMGL_AUTO)

static gboolean
looks_mangled (const char *raw)
{
  /* Every Itanium C++ and Rust symbol starts so: the demangler never sees
   * the plain names that make up most traces. */
  return raw[0] == '_' && (raw[1] == 'Z' || raw[1] == 'R');
}

char *
_kymo_demangle_for_display (const char *raw)
{
  g_assert (raw != NULL);

  if (looks_mangled (raw))
    {
      char *demangled = cplus_demangle (raw, KYMO_DEMANGLE_FLAGS);

      if (demangled != NULL)
        {
          /* libiberty allocates with malloc() */
          char *shown = g_utf8_make_valid (demangled, -1);

          free (demangled);
          return shown;
        }
    }
  /* Tokio names polls by spawn location: a crate's path under cargo's
   * registry is mostly noise before "tokio-1.52.2/src/…". */
  else if (raw[0] == '/' || raw[0] == '~')
    {
      const char *tail = kymo_short_path (raw);

      if (tail != raw)
        return g_utf8_make_valid (tail, -1);
    }
  if (!g_utf8_validate (raw, -1, NULL))
    return g_utf8_make_valid (raw, -1);
  return NULL;
}
