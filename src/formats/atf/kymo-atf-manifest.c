/* kymo-atf-manifest.c: manifest.json of a session and of an .adabundle
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-atf"

#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "kymo-atf-private.h"

/* A manifest is metadata, not a trace: anything this large is not one. */
#define MAX_MANIFEST_SIZE (256u << 20)

void
_kymo_atf_manifest_init (AtfManifest *manifest)
{
  memset (manifest, 0, sizeof *manifest);
  manifest->function_ids = g_array_new (FALSE, FALSE, sizeof (guint64));
  manifest->names = g_ptr_array_new_with_free_func (g_free);
}

void
_kymo_atf_manifest_clear (AtfManifest *manifest)
{
  g_clear_pointer (&manifest->function_ids, g_array_unref);
  g_clear_pointer (&manifest->names, g_ptr_array_unref);
  g_clear_pointer (&manifest->format_version, g_free);
}

static gboolean
parse_function_id (JsonNode *node,
                   guint64  *out)
{
  const char *s;

  if (node == NULL || JSON_NODE_TYPE (node) != JSON_NODE_VALUE)
    return FALSE;
  if (json_node_get_value_type (node) == G_TYPE_INT64)
    {
      *out = (guint64) json_node_get_int (node);
      return TRUE;
    }
  if (json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  s = json_node_get_string (node);
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    return g_ascii_string_to_unsigned (s + 2, 16, 0, G_MAXUINT64, out, NULL);
  return g_ascii_string_to_unsigned (s, 10, 0, G_MAXUINT64, out, NULL);
}

gboolean
_kymo_atf_manifest_parse (AtfManifest  *manifest,
                          const char   *data,
                          gsize         size,
                          GError      **error)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  JsonObject *root;
  JsonNode *node;

  if (size > MAX_MANIFEST_SIZE)
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNSUPPORTED,
                   "manifest of %" G_GSIZE_FORMAT " bytes is too large", size);
      return FALSE;
    }
  if (!json_parser_load_from_data (parser, data, (gssize) size, error))
    return FALSE;
  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT, "the manifest is not a JSON object");
      return FALSE;
    }
  root = json_node_get_object (node);

  node = json_object_get_member (root, "format_version");
  if (node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    manifest->format_version = g_strdup (json_node_get_string (node));

  node = json_object_get_member (root, "threads");
  if (node && JSON_NODE_HOLDS_ARRAY (node))
    manifest->n_threads = json_array_get_length (json_node_get_array (node));
  node = json_object_get_member (root, "modules");
  if (node && JSON_NODE_HOLDS_ARRAY (node))
    manifest->n_modules = json_array_get_length (json_node_get_array (node));

  node = json_object_get_member (root, "symbols");
  if (node && JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *symbols = json_node_get_array (node);
      guint n = json_array_get_length (symbols);

      for (guint i = 0; i < n; i++)
        {
          JsonNode *item = json_array_get_element (symbols, i);
          JsonObject *symbol;
          JsonNode *name;
          guint64 function_id;

          if (!JSON_NODE_HOLDS_OBJECT (item))
            continue;
          symbol = json_node_get_object (item);
          name = json_object_get_member (symbol, "name");
          if (!parse_function_id (json_object_get_member (symbol, "function_id"), &function_id) ||
              name == NULL || !JSON_NODE_HOLDS_VALUE (name) ||
              json_node_get_value_type (name) != G_TYPE_STRING)
            continue;
          g_array_append_val (manifest->function_ids, function_id);
          g_ptr_array_add (manifest->names, g_strdup (json_node_get_string (name)));
        }
    }
  return TRUE;
}

static gboolean
contains (const guint8 *data,
          gsize         size,
          const char   *needle)
{
  gsize n = strlen (needle);

  for (gsize i = 0; i + n <= size; i++)
    if (data[i] == (guint8) needle[0] && memcmp (data + i, needle, n) == 0)
      return TRUE;
  return FALSE;
}

AtfJsonKind
_kymo_atf_json_kind (const guint8 *data,
                     gsize         size)
{
  gsize i = 0;

  while (i < size && g_ascii_isspace (data[i]))
    i++;
  if (i >= size || data[i] != '{')
    return ATF_JSON_NONE;
  size = MIN (size, 1u << 20);
  if (contains (data, size, "\"trace_session\"") || contains (data, size, "\"trace_root\""))
    return ATF_JSON_BUNDLE;
  if (contains (data, size, "\"threads\"") &&
      (contains (data, size, "\"format_version\"") || contains (data, size, "\"symbols\"") ||
       contains (data, size, "\"clock_type\"")))
    return ATF_JSON_SESSION;
  return ATF_JSON_NONE;
}

/* TRUE when @path, with every link resolved, is @dir or inside it. */
static gboolean
resolves_inside (const char *path,
                 const char *dir)
{
  g_autofree char *real_path = realpath (path, NULL);
  g_autofree char *real_dir = realpath (dir, NULL);
  gsize n;

  if (real_path == NULL || real_dir == NULL)
    return FALSE;
  n = strlen (real_dir);
  if (strncmp (real_path, real_dir, n) != 0)
    return FALSE;
  return real_path[n] == '\0' || real_path[n] == '/' || (n == 1 && real_dir[0] == '/');
}

static char *
safe_target (const char  *value,
             const char  *bundle_dir,
             GError     **error)
{
  g_autofree char *path = NULL;

  if (value == NULL || value[0] == '\0')
    return NULL;

  if (g_path_is_absolute (value))
    path = g_strdup (value);
  else
    {
      g_auto(GStrv) parts = g_strsplit (value, "/", -1);

      for (guint i = 0; parts[i]; i++)
        if (g_str_equal (parts[i], ".."))
          {
            g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT,
                         "trace_session “%s” leaves the bundle folder", value);
            return NULL;
          }
      path = g_build_filename (bundle_dir, value, NULL);
    }

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_IO,
                   "trace_session “%s” is not a folder", value);
      return NULL;
    }
  if (!resolves_inside (path, bundle_dir))
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT,
                   "trace_session “%s” is outside the bundle folder", value);
      return NULL;
    }
  return g_steal_pointer (&path);
}

char *
_kymo_atf_bundle_target (const char  *data,
                         gsize        size,
                         const char  *bundle_dir,
                         GError     **error)
{
  static const char * const keys[] = { "trace_session", "trace_root" };
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GError) first_error = NULL;
  JsonObject *root;
  JsonNode *node;

  if (size > MAX_MANIFEST_SIZE)
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_UNSUPPORTED, "the bundle manifest is too large");
      return NULL;
    }
  if (!json_parser_load_from_data (parser, data, (gssize) size, error))
    return NULL;
  node = json_parser_get_root (parser);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT, "the bundle manifest is not a JSON object");
      return NULL;
    }
  root = json_node_get_object (node);

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      g_autoptr(GError) local_error = NULL;
      char *target;

      node = json_object_get_member (root, keys[i]);
      if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
        continue;
      target = safe_target (json_node_get_string (node), bundle_dir, &local_error);
      if (target != NULL)
        return target;
      if (first_error == NULL && local_error != NULL)
        first_error = g_steal_pointer (&local_error);
    }

  if (first_error != NULL)
    g_propagate_error (error, g_steal_pointer (&first_error));
  else
    g_set_error (error, KYMO_LOAD_ERROR, KYMO_LOAD_ERROR_CORRUPT, "the bundle manifest names no trace_session");
  return NULL;
}
