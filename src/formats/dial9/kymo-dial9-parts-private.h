/* kymo-dial9-parts-private.h: what became of the parts of dial9 loads, for tests
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Since the last reset, in every load of this process: the parts decoded
 * on their own and merged, and the parts the loading thread decoded again
 * because the merge could not take them over. A part that gives up on
 * something it meets (metadata, say) shows up as decoded again. */
void d9_parts_reset_for_testing (void);
void d9_parts_get_for_testing   (guint *merged,
                                 guint *redecoded);
/* Since the last reset: the loads that streamed (paired while decoding)
 * until they met events out of time order, and started again. */
guint d9_parts_get_restarts_for_testing (void);

G_END_DECLS
