/* kymo-short-path.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-short-path"

#include "config.h"

#include <string.h>

#include "kymo-short-path.h"

/* The part of @path after @n_skip more components past @marker. */
static const char *
after_marker (const char *path,
              const char *marker,
              guint       n_skip)
{
  const char *at = strstr (path, marker);

  if (at == NULL)
    return NULL;
  at += strlen (marker);
  for (guint i = 0; i < n_skip; i++)
    {
      const char *slash = strchr (at, '/');

      if (slash == NULL)
        return NULL;
      at = slash + 1;
    }
  return *at != '\0' ? at : NULL;
}

const char *
kymo_short_path (const char *path)
{
  const char *tail;

  if (path == NULL)
    return NULL;
  /* registry/src/<index>/<crate-version>/… */
  if ((tail = after_marker (path, "/.cargo/registry/src/", 1)))
    return tail;
  /* git/checkouts/<repo-hash>/<rev>/… */
  if ((tail = after_marker (path, "/.cargo/git/checkouts/", 2)))
    return tail;
  /* rustc's own sources: /rustc/<commit>/library/… */
  if (g_str_has_prefix (path, "/rustc/") && (tail = after_marker (path, "/rustc/", 1)))
    return tail;
  /* …and rustup's copy of them (rust-src), where debug info of a local
   * build points: ~/.rustup/toolchains/<toolchain>/lib/rustlib/src/rust/library/… */
  if ((tail = after_marker (path, "/lib/rustlib/src/rust/", 0)))
    return tail;
  return path;
}
