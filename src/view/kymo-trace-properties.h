/* kymo-trace-properties.h: what a loaded trace is, in a dialog
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "kymo-trace.h"

G_BEGIN_DECLS

#define KYMO_TYPE_TRACE_PROPERTIES (kymo_trace_properties_get_type ())

G_DECLARE_FINAL_TYPE (KymoTraceProperties, kymo_trace_properties, KYMO, TRACE_PROPERTIES, AdwPreferencesWindow)

/* Format, variant, time range (wall clock where the trace has clock
 * sync), event counts, the files read and the trace's own metadata. */
GtkWidget *kymo_trace_properties_new       (KymoTrace           *trace);
KymoTrace *kymo_trace_properties_get_trace (KymoTraceProperties *self);

G_END_DECLS
