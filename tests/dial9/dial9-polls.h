/* dial9-polls.h: a dial9 segment of task polls, for tests that need a big trace of a known shape
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "dial9-builder.h"

G_BEGIN_DECLS

/* Segment @n: its own header, schemas and spawn location, then @n_polls
 * polls (700 ns apart, 300–340 ns long) spread over @n_workers workers,
 * from 1 s + @n × 10 ms on. */
static inline void
d9b_polls_segment (GByteArray *b,
                   guint       n,
                   guint       n_polls,
                   guint       n_workers)
{
  const char *poll_start[] = { "worker_id:9", "local_queue:11", "task_id:9", "spawn_loc:7", NULL };
  const char *poll_end[] = { "worker_id:9", NULL };
  char loc[64];

  g_snprintf (loc, sizeof loc, "src/file%u.rs:%u:1", n % 7, n + 1);
  d9b_header (b);
  d9b_schema (b, 0, "PollStartEvent", TRUE, poll_start);
  d9b_schema (b, 1, "PollEndEvent", TRUE, poll_end);
  d9b_pool (b, 3, loc);
  d9b_reset (b, 1000000000ull + 10000000ull * n);
  for (guint i = 0; i < n_polls; i++)
    {
      d9b_event (b, 0, 700);
      d9b_varint (b, i % n_workers);
      d9b_u8 (b, 0);
      d9b_varint (b, n * 100000 + i);
      d9b_u32 (b, 3);
      d9b_event (b, 1, 300 + (gint32) (i % 5) * 10);
      d9b_varint (b, i % n_workers);
    }
}

G_END_DECLS
