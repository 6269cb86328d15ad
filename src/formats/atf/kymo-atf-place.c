/* kymo-atf-place.c: a thread's depth arrays put into its track, their large
 * pages moved rather than copied
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include <string.h>

#include "kymo-atf-matcher-private.h"
#include "kymo-mapped.h"

static inline void
put_span (KymoSpan       *to,
          KymoSpan        span,
          const AtfBuild *b,
          gboolean        rename)
{
  if (rename)
    span.name_flags = (span.name_flags & ~KYMO_NAME_MAX) | remapped (b, span.name_flags & KYMO_NAME_MAX);
  *to = span;
}

/* Moving fewer bytes than this is not worth a mapping more. */
#define MOVE_MIN ((gsize) 256 << 10)

/* Moves the whole pages of @run's mapped array to where the spans would
 * be if they started a little after @to (up to a page, so that they stay
 * inside the @run->len spans from @to on, which hold nothing yet): no new
 * memory to fault in, none to give back. Returns the bytes moved, from
 * the array's start, and where they went. */
static gsize
move_pages (SpanRun   *run,
            KymoSpan  *to,
            guint8   **at)
{
  KymoMoved mv;

  if (run->mapped == 0 || !kymo_mapped_can_move () ||
      !kymo_mapped_move_pages ((guint8 *) to, (const guint8 *) run->spans, run->len * sizeof (KymoSpan),
                               MOVE_MIN, &mv))
    return 0;
  /* The mapping starts on a page: what moves is its start. */
  g_assert (mv.lo == 0);
  *at = mv.at;
  return mv.hi;
}

/* Puts @run's spans at @to (renaming local names on the way) and frees
 * its array. The large runs' pages move into place and the spans are
 * shifted down over them. */
static void
place_run (SpanRun        *run,
           KymoSpan       *to,
           const AtfBuild *b,
           gboolean        rename)
{
  const guint8 *from = (const guint8 *) run->spans;
  guint8 *at = NULL;
  gsize moved = move_pages (run, to, &at);
  gsize whole = moved / sizeof (KymoSpan), i = 0;

  /* Shifted down, so in increasing order: each span is read before a
   * write reaches it. */
  if (!rename)
    {
      if (whole > 0)
        memmove (to, at, whole * sizeof (KymoSpan));
    }
  else
    for (; i < whole; i++)
      {
        KymoSpan span;

        memcpy (&span, at + i * sizeof (KymoSpan), sizeof span);
        put_span (&to[i], span, b, rename);
      }
  i = whole;
  if (i < run->len && i * sizeof (KymoSpan) < moved)
    {
      /* Straddles the end of the moved pages: its bytes from both places. */
      KymoSpan span;
      gsize head = moved - i * sizeof (KymoSpan);

      memcpy (&span, at + i * sizeof (KymoSpan), head);
      memcpy ((guint8 *) &span + head, from + moved, sizeof span - head);
      put_span (&to[i], span, b, rename);
      i++;
    }
  if (!rename)
    {
      if (i < run->len)
        memcpy (to + i, from + i * sizeof (KymoSpan), (run->len - i) * sizeof (KymoSpan));
    }
  else
    for (; i < run->len; i++)
      put_span (&to[i], run->spans[i], b, rename);

  {
    SpanLink *links = g_steal_pointer (&run->links);

    _kymo_atf_run_free (run);
    run->links = links;
  }
}

/* Puts each run into the track, renaming local names on the way, with
 * room for one more span in each of the @open runs below the calls never
 * returned. The runs then point into the track. */
void
_kymo_atf_place_spans (Matcher        *m,
             const AtfBuild *b,
             gboolean        rename,
             gsize           open)
{
  gsize total = 0;

  m->track = kymo_trace_get_track (m->trace, m->thread->track);
  for (guint d = 0; d < m->n_runs; d++)
    total += m->runs[d].len + (d < open);
  if (total == 0)
    return;
  kymo_track_reserve_spans (m->track, total);
  for (guint d = 0; d < m->n_runs; d++)
    {
      SpanRun *run = &m->runs[d];
      gsize len = run->len, cap = len + (d < open);
      KymoSpan *to;

      if (cap == 0)
        continue;
      to = kymo_track_append_spans (m->track, d, cap);
      if (run->links != NULL && len < cap)
        run->links = g_renew (SpanLink, run->links, cap);
      place_run (run, to, b, rename);
      run->spans = to;
      run->len = len;
      run->cap = cap;
      run->mapped = 0;
    }
}
