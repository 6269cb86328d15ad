/* kymo-search-match.c: which names and which arguments a query matches
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-search"

#include "config.h"

#include <string.h>

#include "kymo-search-private.h"

char *
kymo_search_fold (const char *query)
{
  g_autofree char *valid = g_utf8_make_valid (query ? query : "", -1);

  return g_utf8_casefold (valid, -1);
}

static gboolean
is_ascii (const char *text)
{
  for (const guchar *p = (const guchar *) text; *p; p++)
    if (*p >= 0x80)
      return FALSE;
  return TRUE;
}

/* Casefolding maps ASCII to its lower case, so an ASCII name against an
 * ASCII needle needs no allocation: the common case, once per name. */
static gboolean
ascii_case_contains (const char *haystack,
                     const char *needle,
                     gsize       needle_len)
{
  for (const char *h = haystack; *h; h++)
    {
      gsize i = 0;

      while (i < needle_len && h[i] != '\0' && g_ascii_tolower (h[i]) == needle[i])
        i++;
      if (i == needle_len)
        return TRUE;
    }
  return FALSE;
}

gboolean
kymo_search_name_matches (const char *folded_needle,
                          const char *name)
{
  g_autofree char *folded = NULL;

  if (folded_needle == NULL || folded_needle[0] == '\0' || name == NULL)
    return FALSE;
  if (is_ascii (name))
    return is_ascii (folded_needle) && ascii_case_contains (name, folded_needle, strlen (folded_needle));
  folded = kymo_search_fold (name);
  return strstr (folded, folded_needle) != NULL;
}

/* One flag per interned name: a 10M-span trace with a few thousand names
 * compares a few thousand strings, not ten million. */
guint8 *
_kymo_search_match_names (KymoTrace  *trace,
             const char *needle)
{
  guint n_names = kymo_trace_get_n_names (trace);
  guint8 *matches = g_new0 (guint8, MAX (n_names, 1));

  for (guint id = 0; id < n_names; id++)
    {
      const char *shown = kymo_trace_get_name (trace, id);
      const char *raw = kymo_trace_get_raw_name (trace, id);

      matches[id] = kymo_search_name_matches (needle, shown) ||
                    (raw != shown && kymo_search_name_matches (needle, raw));
    }
  return matches;
}

/* As the details pane shows a value: strings as they are, integers in
 * decimal; objects and arrays by their leaves. */
static gboolean
node_matches (JsonNode   *node,
              const char *needle)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObjectIter iter;
      const char *member;
      JsonNode *child;

      json_object_iter_init (&iter, json_node_get_object (node));
      while (json_object_iter_next (&iter, &member, &child))
        if (node_matches (child, needle))
          return TRUE;
      return FALSE;
    }
  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        if (node_matches (json_array_get_element (array, i), needle))
          return TRUE;
      return FALSE;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    return kymo_search_name_matches (needle, "null");
  else
    {
      GType type = json_node_get_value_type (node);
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      if (type == G_TYPE_STRING)
        return kymo_search_name_matches (needle, json_node_get_string (node));
      if (type == G_TYPE_BOOLEAN)
        return kymo_search_name_matches (needle, json_node_get_boolean (node) ? "true" : "false");
      if (type == G_TYPE_DOUBLE || type == G_TYPE_FLOAT)
        g_snprintf (buffer, sizeof buffer, "%.17g", json_node_get_double (node));
      else
        g_snprintf (buffer, sizeof buffer, "%" G_GINT64_FORMAT, json_node_get_int (node));
      return kymo_search_name_matches (needle, buffer);
    }
}

gboolean
_kymo_search_args_match (KymoTrace          *trace,
            const KymoEventRef *ref,
            const char         *needle)
{
  g_autoptr(JsonObject) args = kymo_trace_describe_event (trace, ref);
  g_autoptr(JsonNode) node = NULL;

  if (args == NULL)
    return FALSE;
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_set_object (node, args);
  return node_matches (node, needle);
}
