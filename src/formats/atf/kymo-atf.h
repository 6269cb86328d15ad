/* kymo-atf.h: what the ATF decoder puts in the model, for the views
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tracks
 *   "Process N"        KYMO_TRACK_GROUP, group kind "process", tag = pid
 *                      (absent when a lone index.atf has no pid_N folder)
 *   └ "Thread N"       KYMO_TRACK_THREAD, tag = N (thread_N, the writer's
 *                      slot). Spans: one per call, nested by depth, named by
 *                      symbol or "<0x%016x>". Instants: "exception in F".
 *     └ "Detail records"  KYMO_TRACK_INSTANT, one instant per detail.atf
 *                      record at its timestamp (only when there are some).
 *
 * Flags: KYMO_EVENT_LINKED on spans, exception instants and detail instants
 * that have a record on the other side (index ↔ detail, checked both ways);
 * KYMO_EVENT_INCOMPLETE on calls that never returned (they run to the end of
 * the trace); KYMO_EVENT_WARNING on calls unwound without their own RETURN,
 * and on exceptions.
 *
 * kymo_trace_follow_link() is O(1) both ways: a linked span or exception
 * instant → its detail instant (the CALL's detail record, or the RETURN's
 * when only that one has details); a detail instant → its span or exception
 * instant.
 *
 * kymo_trace_describe_event() keys. Register values and function ids are
 * strings "0x%016x"; everything else is a number, a string or null.
 *   span:      "event" ("call"), "function", "function_id", "thread", "pid"
 *              (when known), "depth" (call_depth of the CALL record),
 *              "index_seq", "detail_seq" (null when none), "returned"
 *              (false for a call that never returned);
 *              with a CALL detail record: "regs" {name → value}, "stack"
 *              (hex of the captured bytes);
 *              for linked spans: "return_index_seq", and with a RETURN
 *              detail record "return_detail_seq", "return_regs",
 *              "return_stack".
 *   exception: as a span with "event" "exception" (no return_* keys).
 *   detail instant: "event" ("call", "return" or the event_type number),
 *              "event_type", "flags", "length", "function", "function_id",
 *              "thread", "pid", "detail_seq", "index_seq" (the back-link as
 *              stored), "linked" (whether the index record links back),
 *              "depth" (when the payload or the index record has it),
 *              "regs", "stack".
 * Register names follow the session's arch: x86_64 CALL rdi rsi rdx rcx r8
 * r9 rbp rsp, x86_64 RETURN rax rsp; arm64 (and unknown) x0–x7 lr fp sp.
 */
#pragma once

#include "kymo-format.h"

G_BEGIN_DECLS

#define KYMO_ATF_DETAIL_TRACK_NAME "Detail records"

G_END_DECLS
