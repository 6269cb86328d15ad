/* kymo-load-job-private.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-loader.h"

G_BEGIN_DECLS

struct _KymoLoadJob
{
  KymoInput        *input;
  KymoLoadOptions   options;
  GCancellable     *cancellable;
  KymoProgressFunc  progress;
  gpointer          progress_data;
  /* Progress may come from any thread of a load. */
  GMutex            progress_lock;
  gint64            last_report;
  double            last_fraction;
  char             *last_message;
  GPtrArray        *warnings;  /* char *, in the order they came */
};

void _kymo_load_job_init  (KymoLoadJob           *job,
                           KymoInput             *input,
                           const KymoLoadOptions *options,
                           KymoProgressFunc       progress,
                           gpointer               progress_data,
                           GCancellable          *cancellable);
void _kymo_load_job_clear (KymoLoadJob           *job);

G_END_DECLS
