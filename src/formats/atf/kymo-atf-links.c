/* kymo-atf-links.c: spans, exceptions and detail records linked to each
 * other (the index ↔ detail jumps)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include <string.h>

#include "kymo-atf-matcher-private.h"

/* Links spans to detail records; the spans are in the track already. */
void
_kymo_atf_link_spans (Matcher *m)
{
  AtfThread *t = m->thread;
  guint32 index = 0;

  for (guint d = 0; d < m->n_runs; d++)
    {
      SpanRun *run = &m->runs[d];

      g_assert (run->len == run->cap);
      for (gsize i = 0; run->links != NULL && i < run->len; i++)
        {
          KymoSpan *s = &run->spans[i];
          SpanLink *link = &run->links[i];

          if (link->maybe_linked)
            {
              guint32 call_detail = detail_seq_of (t, s->source);
              guint32 ret_detail = link->ret != ATF_NO_SEQ ? detail_seq_of (t, link->ret) : ATF_NO_SEQ;
              gboolean linked = FALSE;

              if (_kymo_atf_linked (t, s->source, call_detail))
                {
                  t->det_target[call_detail] = index + (guint32) i;
                  linked = TRUE;
                }
              if (link->ret != ATF_NO_SEQ && _kymo_atf_linked (t, link->ret, ret_detail))
                {
                  t->det_target[ret_detail] = index + (guint32) i;
                  linked = TRUE;
                }
              if (linked)
                {
                  s->name_flags |= (guint32) KYMO_EVENT_LINKED << 24;
                  if (link->ret != ATF_NO_SEQ)
                    g_hash_table_insert (t->ret_links, GUINT_TO_POINTER (index + (guint32) i + 1),
                                         GUINT_TO_POINTER (link->ret + 1));
                }
            }
        }
      index += (guint32) run->len;
    }
}

void
_kymo_atf_add_exceptions (Matcher *m)
{
  AtfThread *t = m->thread;

  for (guint i = 0; i < m->exceptions->len; i++)
    {
      PendingInstant *e = &g_array_index (m->exceptions, PendingInstant, i);
      guint32 dseq = detail_seq_of (t, e->source);
      guint flags = KYMO_EVENT_WARNING;

      if (_kymo_atf_linked (t, e->source, dseq))
        {
          t->det_target[dseq] = ATF_TARGET_INSTANT | i;
          flags |= KYMO_EVENT_LINKED;
        }
      kymo_track_add_instant (m->track, e->ts, e->name, flags, e->source);
    }
}

/* Names of the detail records, resolved before anything is added so that
 * a blocked build leaves the tracks untouched. */
gboolean
_kymo_atf_resolve_detail_names (Matcher  *m,
                      guint32 **names)
{
  AtfThread *t = m->thread;
  guint32 fallback;

  *names = NULL;
  /* Without detail records the name is only interned, in thread order (the
   * parallel build does that when it takes the thread's result). */
  if (t->detail.n_records == 0)
    {
      if (!m->read_only)
        kymo_trace_intern (m->trace, "detail record");
      return TRUE;
    }
  if (!_kymo_atf_matcher_intern (m, "detail record", &fallback))
    return FALSE;

  *names = g_new (guint32, t->detail.n_records);
  for (guint32 j = 0; j < t->detail.n_records; j++)
    {
      AtfDetailRecord r;
      guint32 name = fallback;
      gboolean ok = TRUE;

      _kymo_atf_detail_get (&t->detail, j, &r);
      if (_kymo_atf_linked (t, r.index_seq, j))
        ok = _kymo_atf_matcher_name_of (m, kymo_read_u64le (_kymo_atf_index_event (&t->index, r.index_seq) + 8), &name);
      else if (r.has_payload)
        ok = _kymo_atf_matcher_name_of (m, r.function_id, &name);
      if (!ok)
        {
          g_clear_pointer (names, g_free);
          return FALSE;
        }
      (*names)[j] = name;
    }
  return TRUE;
}

void
_kymo_atf_add_details (AtfThread     *t,
             KymoTrace     *trace,
             const guint32 *names)
{
  KymoTrack *track;

  if (t->detail.n_records == 0)
    return;
  track = kymo_trace_get_track (trace, t->detail_track);
  for (guint32 j = 0; j < t->detail.n_records; j++)
    {
      AtfDetailRecord r;
      guint flags = 0;

      _kymo_atf_detail_get (&t->detail, j, &r);
      if (_kymo_atf_linked (t, r.index_seq, j))
        flags |= KYMO_EVENT_LINKED;
      kymo_track_add_instant (track, clamp_ts (r.ts), names[j], flags, j);
    }
}

/* After kymo_trace_seal(): detail instants were sorted by time, so find
 * where each detail record landed. */
void
_kymo_atf_index_details (KymoTrace *trace,
                         AtfThread *t)
{
  const KymoInstant *instants;
  gsize n;

  if (t->detail.n_records == 0 || t->detail_track == KYMO_NO_TRACK)
    return;
  t->det_instant = g_new (guint32, t->detail.n_records);
  memset (t->det_instant, 0xFF, sizeof (guint32) * t->detail.n_records);
  instants = kymo_track_get_instants (kymo_trace_get_track (trace, t->detail_track), &n);
  for (gsize i = 0; i < n; i++)
    if (instants[i].source < t->detail.n_records)
      t->det_instant[instants[i].source] = (guint32) i;
}
