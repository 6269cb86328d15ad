/* dial9-parts.h: loading a dial9 trace that must be decoded in parts
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-test-utils.h"
#include "dial9/kymo-dial9-parts-private.h"

G_BEGIN_DECLS

/* Loads @data with @threads threads; a test of what joining parts does
 * proves nothing if the load was not split: at least two parts merged. */
static inline KymoTrace *
d9t_load_in_parts (const guint8 *data,
                   gsize         len,
                   guint         threads)
{
  g_autoptr(GError) error = NULL;
  KymoTrace *trace;
  guint merged, redecoded;

  kymo_test_set_threads (threads);
  d9_parts_reset_for_testing ();
  trace = kymo_test_load_bytes (data, len, "dial9", &error);
  d9_parts_get_for_testing (&merged, &redecoded);
  g_assert_no_error (error);
  g_assert_cmpuint (merged, >=, 2);
  return trace;
}

G_END_DECLS
