/* kymo-rtc-walk.c: the length of the first frame read after a lost start,
 * found by walking the frames that would follow it
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include <string.h>

#include "kymo-rtc-private.h"

/* How many frames a trial walk checks before it believes a length. */
#define TRIAL_FRAMES 4096

/* Checks that frames starting at @pos chain up to @end the way the writer
 * lays them out: no frame crosses a unit boundary, each unit begins with
 * an index frame, and padding only fills up to a boundary. Used to tell
 * whether the first frame read after a lost start is a whole value. */
static gboolean
walk_ok (RtcDecoder *d,
         gsize       pos,
         gsize       end,
         gsize      *pending,
         guint      *budget)
{
  gsize minor = d->next_minor;
  guint max_id = 0;
  gboolean ok = TRUE;

  while (pos >= minor)
    minor += d->minor_size;

  for (guint n = 0; n < TRIAL_FRAMES && pos < end; n++, (*budget)--)
    {
      gsize header = pos, boundary = G_MAXSIZE;
      guint64 hdr, len;
      RtcStream *s;

      if (*budget == 0)
        {
          /* Out of work: not proven. */
          ok = FALSE;
          break;
        }
      if (header < d->unit_end)
        {
          if (header == minor)
            {
              minor += d->minor_size;
              if (d->data[header] != RTC_ID_INDEX << 1)
                {
                  ok = FALSE;
                  break;
                }
            }
          boundary = MIN (minor, d->unit_end);
        }
      if (!kymo_rtc_read_header (d, &pos, end, &hdr))
        {
          ok = end == d->size;
          break;
        }
      if ((hdr >> 1) >= d->table->len || (s = d->table->pdata[hdr >> 1]) == NULL ||
          s->id == RTC_ID_MARKER)
        {
          ok = FALSE;
          break;
        }
      if (s->length >= 0)
        {
          gsize expected = (gsize) s->length;

          if (pending[s->id] > 0 && s->length > 0)
            expected -= pending[s->id] % (gsize) s->length;
          expected = MIN (expected, RTC_FRAME_MAX);
          if ((hdr & 1) && pos < boundary && expected > boundary - pos)
            expected = boundary - pos;
          len = expected;
        }
      else
        {
          KymoByteReader r;

          kymo_byte_reader_init (&r, d->data, end);
          r.pos = pos;
          if (!kymo_byte_reader_uleb128 (&r, 10, 64, &len))
            {
              ok = end == d->size;
              break;
            }
          pos = r.pos;
        }
      if (len > end - pos)
        {
          ok = end == d->size;
          break;
        }
      pos += len;
      if (pos > boundary)
        {
          ok = FALSE;
          break;
        }
      if ((s->id == RTC_ID_NOP || s->id == RTC_ID_PADDING) && pos != boundary)
        {
          ok = FALSE;
          break;
        }
      pending[s->id] = (hdr & 1) ? pending[s->id] + len : 0;
      max_id = MAX (max_id, s->id);
    }
  memset (pending, 0, (max_id + 1) * sizeof *pending);
  return ok;
}

/* Reading began after the start of the recording: the first frame after
 * the Platform frame may be the rest of a fixed-length value the writer
 * cut at the Unit boundary. Returns the length that lets the Unit parse. */
gsize
kymo_rtc_decoder_trial_length (RtcDecoder *d,
                               gsize       payload,
                               gsize       expected,
                               gsize       end,
                               gboolean   *fragment)
{
  g_autofree gsize *pending = g_new0 (gsize, d->table->len);
  /* Bounds the work a crafted Unit can cause. */
  guint budget = 16 * TRIAL_FRAMES;

  *fragment = FALSE;
  if (expected > end - payload || walk_ok (d, payload + expected, end, pending, &budget) || budget == 0)
    return expected;
  for (gsize len = expected; len-- > 1 && budget > 0;)
    if (len <= end - payload && walk_ok (d, payload + len, end, pending, &budget))
      {
        *fragment = TRUE;
        return len;
      }
  return expected;
}
