/* kymo-format-wtf.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-wtf"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-formats.h"

static guint
detect (KymoInput *input)
{
  return 0;
}

static gboolean
load (KymoLoadJob  *job,
      KymoTrace    *trace,
      GError      **error)
{
  kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNSUPPORTED, KYMO_NO_OFFSET,
                           "the wtf decoder is not written yet");
  return FALSE;
}

const KymoFormat kymo_format_wtf = {
  .name = "wtf",
  .title = N_("wtf trace"),
  .detect = detect,
  .load = load,
};
