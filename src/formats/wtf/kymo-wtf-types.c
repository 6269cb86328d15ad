/* kymo-wtf-types.c: the wire-id table built from `wtf.event#define`
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-wtf"

#include "config.h"

#include <string.h>

#include "kymo-wtf-private.h"

#define N_WIRE_IDS 65536

static const struct {
  const char *name;
  WtfType     type;
} type_names[] = {
  { "bool", WTF_TYPE_BOOL },
  { "int8", WTF_TYPE_INT8 },
  { "byte", WTF_TYPE_INT8 },
  { "uint8", WTF_TYPE_UINT8 },
  { "octet", WTF_TYPE_UINT8 },
  { "int16", WTF_TYPE_INT16 },
  { "short", WTF_TYPE_INT16 },
  { "uint16", WTF_TYPE_UINT16 },
  { "unsigned short", WTF_TYPE_UINT16 },
  { "int32", WTF_TYPE_INT32 },
  { "long", WTF_TYPE_INT32 },
  { "uint32", WTF_TYPE_UINT32 },
  { "unsigned long", WTF_TYPE_UINT32 },
  { "float32", WTF_TYPE_FLOAT32 },
  { "float", WTF_TYPE_FLOAT32 },
  { "ascii", WTF_TYPE_ASCII },
  { "utf8", WTF_TYPE_UTF8 },
  { "DOMString", WTF_TYPE_UTF8 },
  { "char", WTF_TYPE_CHAR },
  { "wchar", WTF_TYPE_WCHAR },
  { "any", WTF_TYPE_ANY },
  { "flowId", WTF_TYPE_FLOWID },
  { "time32", WTF_TYPE_TIME32 },
};

static const struct {
  const char *name;
  WtfKind     kind;
} builtin_names[] = {
  { "wtf.event#define", WTF_KIND_DEFINE },
  { "wtf.trace#discontinuity", WTF_KIND_DISCONTINUITY },
  { "wtf.zone#create", WTF_KIND_ZONE_CREATE },
  { "wtf.zone#delete", WTF_KIND_ZONE_DELETE },
  { "wtf.zone#set", WTF_KIND_ZONE_SET },
  { "wtf.scope#enter", WTF_KIND_SCOPE_ENTER },
  { "wtf.scope#enterTracing", WTF_KIND_SCOPE_ENTER_TRACING },
  { "wtf.scope#leave", WTF_KIND_SCOPE_LEAVE },
  { "wtf.scope#appendData", WTF_KIND_APPEND_DATA },
  { "wtf.flow#branch", WTF_KIND_FLOW_BRANCH },
  { "wtf.flow#extend", WTF_KIND_FLOW_EXTEND },
  { "wtf.flow#terminate", WTF_KIND_FLOW_TERMINATE },
  { "wtf.flow#appendData", WTF_KIND_FLOW_APPEND },
  { "wtf.trace#mark", WTF_KIND_MARK },
  { "wtf.trace#timeStamp", WTF_KIND_TIMESTAMP },
  { "wtf.timeRange#begin", WTF_KIND_TIME_RANGE_BEGIN },
  { "wtf.timeRange#end", WTF_KIND_TIME_RANGE_END },
  { "wtf.timing#frameStart", WTF_KIND_FRAME_START },
  { "wtf.timing#frameEnd", WTF_KIND_FRAME_END },
};

static WtfType
parse_type (const char *str)
{
  for (guint i = 0; i < G_N_ELEMENTS (type_names); i++)
    if (strcmp (type_names[i].name, str) == 0)
      return type_names[i].type;
  return WTF_TYPE_UNKNOWN;
}

/* "uint32 n", "int16[] xs", "sequence<uint8> data", "ascii name@2" */
static void
parse_arg (const char *piece,
           WtfArg     *arg)
{
  g_autofree char *copy = g_strstrip (g_strdup (piece));
  char *space = strrchr (copy, ' ');
  char *type, *name, *at;
  gsize type_len;

  if (space == NULL)
    {
      arg->type = WTF_TYPE_UNKNOWN;
      arg->name = g_strdup (copy);
      return;
    }
  *space = '\0';
  type = g_strstrip (copy);
  name = space + 1;
  at = strchr (name, '@');
  if (at)
    *at = '\0';
  arg->name = g_strdup (name);

  type_len = strlen (type);
  if (type_len > 2 && strcmp (type + type_len - 2, "[]") == 0)
    {
      arg->is_array = TRUE;
      type[type_len - 2] = '\0';
      g_strchomp (type);
    }
  else if (g_str_has_prefix (type, "sequence<") && type[type_len - 1] == '>')
    {
      arg->is_array = TRUE;
      type[type_len - 1] = '\0';
      type += strlen ("sequence<");
      g_strstrip (type);
    }
  arg->type = parse_type (type);
}

static gint
legacy_size (const WtfArg *arg)
{
  if (arg->is_array)
    return -1;
  switch ((WtfType) arg->type)
    {
    case WTF_TYPE_BOOL:
    case WTF_TYPE_INT8:
    case WTF_TYPE_UINT8:
    case WTF_TYPE_CHAR:
      return 1;
    case WTF_TYPE_INT16:
    case WTF_TYPE_UINT16:
    case WTF_TYPE_WCHAR:
      return 2;
    case WTF_TYPE_INT32:
    case WTF_TYPE_UINT32:
    case WTF_TYPE_FLOAT32:
    case WTF_TYPE_FLOWID:
    case WTF_TYPE_TIME32:
      return 4;
    case WTF_TYPE_ASCII:
    case WTF_TYPE_UTF8:
    case WTF_TYPE_ANY:
    case WTF_TYPE_UNKNOWN:
    default:
      return -1;
    }
}

static WtfKind
kind_for (const char *name,
          guint32     flags)
{
  for (guint i = 0; i < G_N_ELEMENTS (builtin_names); i++)
    if (strcmp (builtin_names[i].name, name) == 0)
      return builtin_names[i].kind;
  /* Generated appendData_<name>_<type> and the C++ __wtf_append_scope_N. */
  if (flags & WTF_FLAG_APPEND_SCOPE_DATA)
    return WTF_KIND_APPEND_DATA;
  return WTF_KIND_GENERIC;
}

static void
event_type_free (gpointer data)
{
  WtfEventType *type = data;

  for (guint i = 0; i < type->n_args; i++)
    g_free (type->args[i].name);
  g_free (type->args);
  g_free (type->name);
  g_free (type->signature);
  g_free (type);
}

WtfTypeTable *
wtf_type_table_new (void)
{
  WtfTypeTable *table = g_new0 (WtfTypeTable, 1);
  static const char define_args[] =
    "uint16 wireId, uint16 eventClass, uint32 flags, ascii name, ascii args";

  table->all = g_ptr_array_new_with_free_func (event_type_free);
  table->by_wire = g_new0 (WtfEventType *, N_WIRE_IDS);
  /* Wire id 1 is the one implicit define (C++ files never write it). */
  wtf_type_table_define (table, 1, WTF_CLASS_INSTANCE, WTF_FLAG_BUILTIN | WTF_FLAG_INTERNAL,
                         "wtf.event#define", -1, define_args, -1, 0);
  return table;
}

void
wtf_type_table_free (WtfTypeTable *table)
{
  if (table == NULL)
    return;
  g_ptr_array_unref (table->all);
  g_free (table->by_wire);
  g_free (table);
}

WtfEventType *
wtf_type_table_define (WtfTypeTable *table,
                       guint16       wire_id,
                       guint16       klass,
                       guint32       flags,
                       const char   *name,
                       gssize        name_len,
                       const char   *signature,
                       gssize        signature_len,
                       guint64       define_offset)
{
  WtfEventType *type = g_new0 (WtfEventType, 1);
  g_auto(GStrv) pieces = NULL;
  gint fixed_legacy = 0, fixed_binary = 0;

  type->wire_id = wire_id;
  type->klass = klass;
  type->flags = flags;
  type->name = name ? g_strndup (name, name_len < 0 ? strlen (name) : (gsize) name_len) : g_strdup ("");
  type->signature = signature ? g_strndup (signature, signature_len < 0 ? strlen (signature) : (gsize) signature_len) : NULL;
  type->kind = kind_for (type->name, flags);
  type->sizable = TRUE;
  type->define_offset = define_offset;

  if (type->signature && type->signature[0])
    {
      pieces = g_strsplit (type->signature, ",", -1);
      type->n_args = g_strv_length (pieces);
      type->args = g_new0 (WtfArg, type->n_args);
      for (guint i = 0; i < type->n_args; i++)
        {
          WtfArg *arg = &type->args[i];
          gint size;

          parse_arg (pieces[i], arg);
          if (arg->type == WTF_TYPE_UNKNOWN)
            type->sizable = FALSE;
          size = legacy_size (arg);
          if (size < 0 || fixed_legacy < 0)
            fixed_legacy = -1;
          else
            fixed_legacy += size;
          if (arg->is_array || fixed_binary < 0)
            fixed_binary = -1;
          else
            fixed_binary += 4;
        }
    }
  type->fixed_legacy = type->sizable ? fixed_legacy : -1;
  type->fixed_binary = type->sizable ? fixed_binary : -1;

  type->older = table->by_wire[wire_id];
  table->by_wire[wire_id] = type;
  g_ptr_array_add (table->all, type);
  return type;
}

WtfEventType *
wtf_type_table_lookup_at (WtfTypeTable *table,
                          guint32       wire_id,
                          guint64       offset)
{
  WtfEventType *type;

  if (wire_id >= N_WIRE_IDS)
    return NULL;
  for (type = table->by_wire[wire_id]; type; type = type->older)
    if (type->define_offset < offset || type->define_offset == 0)
      return type;
  return NULL;
}
