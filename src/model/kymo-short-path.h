/* kymo-short-path.h: source paths as people read them
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The readable tail of a source path: a crate's files under cargo's registry
 * or git checkouts start at the crate's folder
 * ("~/.cargo/registry/src/index.crates.io-…/tokio-1.52.2/src/x.rs" →
 * "tokio-1.52.2/src/x.rs"), the standard library's (from rustc's build or
 * rustup's rust-src) at "library/". Other
 * paths are returned as they are. The result points into @path. */
const char *kymo_short_path (const char *path);

G_END_DECLS
