/* kymo-details-pane-grid.c: the key/value grid of an event's fields, JSON values nested in it
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-details-pane-private.h"

GtkWidget *
_kymo_details_pane_value_label (const char *text,
                                gboolean    monospace)
{
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) item = g_menu_item_new (_("Copy _Value"), NULL);
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (label, TRUE);
  /* Selectable labels grab focus; tabbing through values should not select them. */
  gtk_widget_set_focusable (label, FALSE);
  if (monospace)
    gtk_widget_add_css_class (label, "monospace");

  g_menu_item_set_action_and_target_value (item, "event.copy-value", g_variant_new_string (text));
  g_menu_append_item (menu, item);
  g_menu_append (menu, _("Copy Event as _JSON"), "event.copy-json");
  gtk_label_set_extra_menu (GTK_LABEL (label), G_MENU_MODEL (menu));
  return label;
}

GtkWidget *
_kymo_details_pane_new_grid (void)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 3);
  return grid;
}

void
_kymo_details_pane_grid_add (GtkWidget  *grid,
                             int        *row,
                             const char *key,
                             const char *value,
                             int         indent,
                             gboolean    monospace)
{
  GtkWidget *key_label = gtk_label_new (key);

  gtk_label_set_xalign (GTK_LABEL (key_label), 0);
  gtk_label_set_yalign (GTK_LABEL (key_label), 0);
  gtk_widget_add_css_class (key_label, "dim-label");
  gtk_widget_set_margin_start (key_label, indent * INDENT);
  gtk_widget_set_name (key_label, "key");
  if (value == NULL)
    {
      /* A heading for nested members. */
      gtk_grid_attach (GTK_GRID (grid), key_label, 0, *row, 2, 1);
    }
  else
    {
      gtk_grid_attach (GTK_GRID (grid), key_label, 0, *row, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), _kymo_details_pane_value_label (value, monospace), 1, *row, 1, 1);
    }
  (*row)++;
}

char *
_kymo_details_pane_node_to_text (JsonNode *node)
{
  GType type;

  if (JSON_NODE_HOLDS_NULL (node))
    return g_strdup ("null");
  if (!JSON_NODE_HOLDS_VALUE (node))
    return json_to_string (node, FALSE);
  type = json_node_get_value_type (node);
  if (type == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  if (type == G_TYPE_BOOLEAN)
    return g_strdup (json_node_get_boolean (node) ? "true" : "false");
  if (type == G_TYPE_DOUBLE || type == G_TYPE_FLOAT)
    return g_strdup_printf ("%.17g", json_node_get_double (node));
  return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
}

static void
add_object (GtkWidget  *grid,
            int        *row,
            JsonObject *object,
            int         indent)
{
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;

  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &member, &node))
    _kymo_details_pane_add_node (grid, row, member, node, indent);
}

void
_kymo_details_pane_add_node (GtkWidget  *grid,
                             int        *row,
                             const char *key,
                             JsonNode   *node,
                             int         indent)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      _kymo_details_pane_grid_add (grid, row, key, NULL, indent, FALSE);
      add_object (grid, row, json_node_get_object (node), indent + 1);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      _kymo_details_pane_grid_add (grid, row, key, NULL, indent, FALSE);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *index = g_strdup_printf ("[%u]", i);
          _kymo_details_pane_add_node (grid, row, index, json_array_get_element (array, i), indent + 1);
        }
    }
  else
    {
      g_autofree char *text = _kymo_details_pane_node_to_text (node);
      _kymo_details_pane_grid_add (grid, row, key, text, indent, FALSE);
    }
}
