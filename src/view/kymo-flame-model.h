/* kymo-flame-model.h: the call tree the flame graph and the call tree view show
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "kymo-session.h"

G_BEGIN_DECLS

#define KYMO_TYPE_FLAME_MODEL (kymo_flame_model_get_type ())

G_DECLARE_FINAL_TYPE (KymoFlameModel, kymo_flame_model, KYMO, FLAME_MODEL, GObject)

/* The one model of @session, created on first use: the flame graph and the
 * call tree of a trace view share it (and so their selection). */
KymoFlameModel *kymo_flame_model_get_for_session    (KymoSession        *session);

KymoSession    *kymo_flame_model_get_session        (KymoFlameModel     *self);
/* What is shown: the fold of the session's selected range (the whole trace
 * when none) or, when comparing, the diff of the baseline and that fold.
 * NULL until the first fold is done. */
KymoCallTree   *kymo_flame_model_get_tree           (KymoFlameModel     *self);
/* The fold of the current range alone (NULL until done). */
KymoCallTree   *kymo_flame_model_get_current        (KymoFlameModel     *self);
/* TRUE from a range change until its tree is published. */
gboolean        kymo_flame_model_get_busy           (KymoFlameModel     *self);

KymoCallTreeSource kymo_flame_model_get_source      (KymoFlameModel     *self);
void            kymo_flame_model_set_source         (KymoFlameModel     *self,
                                                     KymoCallTreeSource  source);
/* Whether the trace holds sampled stacks at all. */
gboolean        kymo_flame_model_has_samples        (KymoFlameModel     *self);

/* A node of the shown tree picked in one view (the flame graph zooms to it,
 * the call tree selects it); G_MAXUINT32 for none. Reset when the tree
 * changes. */
guint32         kymo_flame_model_get_selected_node  (KymoFlameModel     *self);
void            kymo_flame_model_set_selected_node  (KymoFlameModel     *self,
                                                     guint32             node);

/* Comparing: the current fold becomes the baseline ("before") and later
 * folds are shown as a diff against it; or a tree of another trace. */
void            kymo_flame_model_set_baseline_current (KymoFlameModel   *self);
void            kymo_flame_model_set_baseline       (KymoFlameModel     *self,
                                                     KymoCallTree       *baseline,
                                                     const char         *label);
/* Another trace's tree (same format): it is the second, this trace's fold
 * the first; the diff's widths are @other's. */
void            kymo_flame_model_set_other_trace    (KymoFlameModel     *self,
                                                     KymoCallTree       *other,
                                                     const char         *label);
KymoCallTree   *kymo_flame_model_get_baseline       (KymoFlameModel     *self);
const char     *kymo_flame_model_get_baseline_label (KymoFlameModel     *self);
void            kymo_flame_model_clear_baseline     (KymoFlameModel     *self);

/* Folds now (the model otherwise folds on the next idle after a change). */
void            kymo_flame_model_refresh            (KymoFlameModel     *self);

/* The longest span on the timeline that node @node of the shown tree stands
 * for (same track, depth and name, starting in the range); FALSE when none. */
gboolean        kymo_flame_model_find_longest_span  (KymoFlameModel     *self,
                                                     guint32             node,
                                                     KymoEventRef       *ref);

/* What frames to mark: the find bar's query, else the session's highlighted
 * name; NULL for none. Frames whose name holds it (Unicode case folded) are
 * outlined and the rest dimmed. */
char           *kymo_flame_model_dup_search_text    (KymoFlameModel     *self);

G_END_DECLS
