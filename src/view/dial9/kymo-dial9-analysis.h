/* kymo-dial9-analysis.h: a session's Tokio tasks and points of interest
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-analysis.h"
#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_DIAL9_ANALYSIS (kymo_dial9_analysis_get_type ())

G_DECLARE_FINAL_TYPE (KymoDial9Analysis, kymo_dial9_analysis, KYMO, DIAL9_ANALYSIS, GObject)

#define KYMO_DIAL9_NO_TASK G_MAXUINT

/* Whether the session's trace has Tokio tasks to analyse (a dial9 trace). */
gboolean           kymo_dial9_analysis_applies      (KymoSession       *session);
/* The session's one analysis, computed on a thread on first use. */
KymoDial9Analysis *kymo_dial9_analysis_get          (KymoSession       *session);

KymoSession       *kymo_dial9_analysis_get_session  (KymoDial9Analysis *self);
/* The tasks and the points of interest, NULL until computed (see the
 * "ready" property); replaced when the thresholds change. */
KymoDial9Tasks    *kymo_dial9_analysis_get_tasks    (KymoDial9Analysis *self);
gboolean           kymo_dial9_analysis_get_ready    (KymoDial9Analysis *self);
/* Whether each task's polls are placed, off the UI thread, after "ready":
 * until then, asking which task polled a span would wait for them (see the
 * "polls-ready" property). */
gboolean           kymo_dial9_analysis_get_polls_ready (KymoDial9Analysis *self);
/* The workers' on-CPU shares and CPU samples; NULL until ready. */
KymoDial9Lanes    *kymo_dial9_analysis_get_lanes    (KymoDial9Analysis *self);
/* The selected task's wakes and the polls they led to (NULL, 0 when no
 * task is selected). */
KymoWakeMark      *kymo_dial9_analysis_dup_wake_marks (KymoDial9Analysis *self,
                                                       gsize             *n_marks);

/* The task the user picked (a row of the tasks), or KYMO_DIAL9_NO_TASK:
 * its polls become the session's highlight. Picked before the tasks'
 * polls are placed (just after "ready"), it becomes the selected task,
 * notified, once they are. */
guint              kymo_dial9_analysis_get_selected_task (KymoDial9Analysis *self);
void               kymo_dial9_analysis_set_selected_task (KymoDial9Analysis *self,
                                                          guint              row);

/* Recomputes (the points of interest follow the thresholds; the rows stay
 * the same rows). */
void               kymo_dial9_analysis_set_thresholds (KymoDial9Analysis       *self,
                                                       const KymoPoiThresholds *thresholds);
/* Thresholds from GSettings, or the defaults when the schema is not installed. */
void               kymo_dial9_analysis_load_thresholds (KymoPoiThresholds *thresholds);
GSettings         *kymo_dial9_analysis_dup_settings   (void);

G_END_DECLS
