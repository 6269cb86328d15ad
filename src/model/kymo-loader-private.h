/* kymo-loader-private.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-loader.h"

G_BEGIN_DECLS

/* Tests register a format of their own to drive the loader (progress,
 * cancellation, damage) without depending on a real decoder. */
void _kymo_formats_add_for_testing (const KymoFormat *format);

/* Tests: called on the loading thread after preview @index (0 for the
 * first one published) was handed to the main context, before the load
 * goes on; it may block there to hold a load in its preview. */
typedef void (*KymoLoaderPreviewHook) (KymoLoader *loader,
                                       guint       index,
                                       gpointer    user_data);
void _kymo_loader_set_preview_hook_for_testing (KymoLoaderPreviewHook hook,
                                                gpointer              user_data);

G_END_DECLS
