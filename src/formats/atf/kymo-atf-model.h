/* kymo-atf-model.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-atf-names.h"

G_BEGIN_DECLS

guint32  *_kymo_atf_time_order    (const AtfIndexFile *index,
                                   KymoTime           *max_ts);
gboolean  _kymo_atf_build_thread  (KymoLoadJob        *job,
                                   KymoTrace          *trace,
                                   AtfThread          *thread,
                                   AtfNames           *names,
                                   const guint32      *order,
                                   KymoTime            trace_end,
                                   guint64            *done,
                                   guint64             total,
                                   GError            **error);
void      _kymo_atf_index_details (KymoTrace          *trace,
                                   AtfThread          *thread);

G_END_DECLS
