/* kymo-atf-describe.c: arguments of one event, and the index ↔ detail link
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include "kymo-atf.h"
#include "kymo-atf-private.h"
#include "kymo-byte-reader.h"

static void
set_hex (JsonObject *obj,
         const char *key,
         guint64     value)
{
  g_autofree char *text = g_strdup_printf ("0x%016" G_GINT64_MODIFIER "x", value);
  json_object_set_string_member (obj, key, text);
}

static void
set_detail_payload (JsonObject      *obj,
                    const char      *prefix,
                    const AtfThread *t,
                    guint32          detail_seq)
{
  const char *names[ATF_MAX_REGS];
  guint64 values[ATF_MAX_REGS];
  g_autofree char *regs_key = g_strconcat (prefix, "regs", NULL);
  g_autofree char *stack_key = g_strconcat (prefix, "stack", NULL);
  AtfDetailRecord r;
  JsonObject *regs;
  guint n;

  _kymo_atf_detail_get (&t->detail, detail_seq, &r);
  if (!r.has_payload)
    return;
  n = _kymo_atf_detail_regs (t->detail.arch ? t->detail.arch : t->index.arch, &r, names, values);
  regs = json_object_new ();
  for (guint i = 0; i < n; i++)
    set_hex (regs, names[i], values[i]);
  json_object_set_object_member (obj, regs_key, regs);
  {
    g_autofree char *hex = g_malloc (r.stack_len * 2 + 1);

    for (gsize i = 0; i < r.stack_len; i++)
      {
        hex[2 * i] = "0123456789abcdef"[r.stack[i] >> 4];
        hex[2 * i + 1] = "0123456789abcdef"[r.stack[i] & 15];
      }
    hex[r.stack_len * 2] = '\0';
    json_object_set_string_member (obj, stack_key, hex);
  }
}

static void
set_thread (JsonObject      *obj,
            const AtfThread *t)
{
  json_object_set_int_member (obj, "thread", t->number);
  if (t->pid >= 0)
    json_object_set_int_member (obj, "pid", t->pid);
}

/* Fields of index record @seq (a CALL or an EXCEPTION). */
static JsonObject *
describe_index (KymoTrace       *trace,
                const AtfThread *t,
                guint32          seq,
                guint32          name,
                const char      *event)
{
  JsonObject *obj = json_object_new ();
  const guint8 *e;
  guint32 dseq;

  json_object_set_string_member (obj, "event", event);
  json_object_set_string_member (obj, "function", kymo_trace_get_name (trace, name));
  set_thread (obj, t);
  if (seq >= t->index.n_events)
    return obj;
  e = _kymo_atf_index_event (&t->index, seq);
  dseq = kymo_read_u32le (e + 28);
  set_hex (obj, "function_id", kymo_read_u64le (e + 8));
  json_object_set_int_member (obj, "depth", kymo_read_u32le (e + 24));
  json_object_set_int_member (obj, "index_seq", seq);
  if (dseq == ATF_NO_SEQ)
    json_object_set_null_member (obj, "detail_seq");
  else
    json_object_set_int_member (obj, "detail_seq", dseq);
  if (_kymo_atf_linked (t, seq, dseq))
    set_detail_payload (obj, "", t, dseq);
  return obj;
}

static guint32
return_of (const AtfThread *t,
           guint            span_index)
{
  gpointer value = g_hash_table_lookup (t->ret_links, GUINT_TO_POINTER (span_index + 1));

  return value ? GPOINTER_TO_UINT (value) - 1 : ATF_NO_SEQ;
}

static JsonObject *
describe_detail (KymoTrace       *trace,
                 const AtfThread *t,
                 const KymoInstant *instant)
{
  JsonObject *obj = json_object_new ();
  guint32 j = instant->source;
  AtfDetailRecord r;
  const char *event;
  gboolean linked;

  if (j >= t->detail.n_records)
    return obj;
  _kymo_atf_detail_get (&t->detail, j, &r);
  linked = _kymo_atf_linked (t, r.index_seq, j);
  event = r.event_type == 3 ? "call" : r.event_type == 4 ? "return" : NULL;
  if (event)
    json_object_set_string_member (obj, "event", event);
  else
    json_object_set_int_member (obj, "event", r.event_type);
  json_object_set_int_member (obj, "event_type", r.event_type);
  json_object_set_int_member (obj, "flags", r.flags);
  json_object_set_int_member (obj, "length", r.length);
  json_object_set_string_member (obj, "function", kymo_trace_get_name (trace, instant->name_flags & KYMO_NAME_MAX));
  if (r.has_payload)
    set_hex (obj, "function_id", r.function_id);
  else if (linked)
    set_hex (obj, "function_id", kymo_read_u64le (_kymo_atf_index_event (&t->index, r.index_seq) + 8));
  set_thread (obj, t);
  json_object_set_int_member (obj, "detail_seq", j);
  json_object_set_int_member (obj, "index_seq", r.index_seq);
  json_object_set_boolean_member (obj, "linked", linked);
  if (r.has_depth)
    json_object_set_int_member (obj, "depth", r.depth);
  else if (linked)
    json_object_set_int_member (obj, "depth", kymo_read_u32le (_kymo_atf_index_event (&t->index, r.index_seq) + 24));
  set_detail_payload (obj, "", t, j);
  return obj;
}

JsonObject *
_kymo_atf_describe (KymoTrace          *trace,
                    const KymoEventRef *ref)
{
  AtfThread *t;
  KymoTrack *track;
  gboolean is_detail = FALSE;

  if (!kymo_trace_is_sealed (trace))
    return NULL;
  t = _kymo_atf_data_lookup (kymo_trace_get_format_data (trace), ref->track, &is_detail);
  if (t == NULL)
    return NULL;
  track = kymo_trace_get_track (trace, ref->track);

  if (ref->kind == KYMO_EVENT_KIND_SPAN && !is_detail)
    {
      gsize n;
      const KymoSpan *spans = kymo_track_get_spans (track, &n);
      const KymoSpan *span;
      JsonObject *obj;
      guint32 ret;

      if (ref->index >= n)
        return NULL;
      span = &spans[ref->index];
      obj = describe_index (trace, t, span->source, kymo_span_name (span), "call");
      json_object_set_boolean_member (obj, "returned", (kymo_span_flags (span) & KYMO_EVENT_INCOMPLETE) == 0);
      ret = return_of (t, ref->index);
      if (ret != ATF_NO_SEQ && ret < t->index.n_events)
        {
          guint32 dseq = kymo_read_u32le (_kymo_atf_index_event (&t->index, ret) + 28);

          json_object_set_int_member (obj, "return_index_seq", ret);
          if (_kymo_atf_linked (t, ret, dseq))
            {
              json_object_set_int_member (obj, "return_detail_seq", dseq);
              set_detail_payload (obj, "return_", t, dseq);
            }
        }
      return obj;
    }

  if (ref->kind == KYMO_EVENT_KIND_INSTANT)
    {
      gsize n;
      const KymoInstant *instants = kymo_track_get_instants (track, &n);

      if (ref->index >= n)
        return NULL;
      if (is_detail)
        return describe_detail (trace, t, &instants[ref->index]);
      return describe_index (trace, t, instants[ref->index].source,
                             instants[ref->index].name_flags & KYMO_NAME_MAX, "exception");
    }
  return NULL;
}

/* The detail instant of index record @seq, when @target is what the detail
 * record leads back to. */
static gboolean
to_detail (const AtfThread *t,
           guint32          seq,
           guint32          target,
           KymoEventRef    *to)
{
  guint32 dseq;

  if (seq >= t->index.n_events || t->det_instant == NULL)
    return FALSE;
  dseq = kymo_read_u32le (_kymo_atf_index_event (&t->index, seq) + 28);
  if (!_kymo_atf_linked (t, seq, dseq) || t->det_target[dseq] != target ||
      t->det_instant[dseq] == ATF_NO_SEQ)
    return FALSE;
  to->track = t->detail_track;
  to->kind = KYMO_EVENT_KIND_INSTANT;
  to->index = t->det_instant[dseq];
  return TRUE;
}

gboolean
_kymo_atf_follow_link (KymoTrace          *trace,
                       const KymoEventRef *from,
                       KymoEventRef       *to)
{
  AtfThread *t;
  KymoTrack *track;
  gboolean is_detail = FALSE;
  gsize n;

  if (!kymo_trace_is_sealed (trace))
    return FALSE;
  t = _kymo_atf_data_lookup (kymo_trace_get_format_data (trace), from->track, &is_detail);
  if (t == NULL || t->det_target == NULL)
    return FALSE;
  track = kymo_trace_get_track (trace, from->track);

  if (from->kind == KYMO_EVENT_KIND_SPAN && !is_detail)
    {
      const KymoSpan *spans = kymo_track_get_spans (track, &n);

      if (from->index >= n || !(kymo_span_flags (&spans[from->index]) & KYMO_EVENT_LINKED))
        return FALSE;
      return to_detail (t, spans[from->index].source, from->index, to) ||
             to_detail (t, return_of (t, from->index), from->index, to);
    }

  if (from->kind != KYMO_EVENT_KIND_INSTANT)
    return FALSE;

  {
    const KymoInstant *instants = kymo_track_get_instants (track, &n);
    guint32 target;

    if (from->index >= n)
      return FALSE;
    if (!is_detail)
      return to_detail (t, instants[from->index].source, ATF_TARGET_INSTANT | from->index, to);

    if (instants[from->index].source >= t->detail.n_records)
      return FALSE;
    target = t->det_target[instants[from->index].source];
    if (target == ATF_NO_SEQ)
      return FALSE;
    to->track = t->track;
    if (target & ATF_TARGET_INSTANT)
      {
        to->kind = KYMO_EVENT_KIND_INSTANT;
        to->index = target & ~ATF_TARGET_INSTANT;
      }
    else
      {
        to->kind = KYMO_EVENT_KIND_SPAN;
        to->index = target;
      }
    return TRUE;
  }
}
