/* kymo-details-pane-sections.c: the sections under an event: a span's rows, parents and children,
 * registers, stack, arguments
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include "kymo-details-pane-private.h"

#define TOP_CHILD_NAMES 5

/* The shortest span at @depth holding [start, end], or G_MAXUINT32. */
static guint32
find_enclosing (const KymoTrack *track,
                guint            depth,
                KymoTime         start,
                KymoTime         end)
{
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));
  const KymoSpan *spans;
  guint32 best = G_MAXUINT32;
  gsize n;

  spans = kymo_track_get_spans (track, &n);
  kymo_track_query_spans (track, depth, start, end, hits);
  for (guint i = 0; i < hits->len; i++)
    {
      guint32 idx = g_array_index (hits, guint32, i);

      if (spans[idx].start > start || spans[idx].end < end)
        continue;
      if (best == G_MAXUINT32 ||
          spans[idx].end - spans[idx].start < spans[best].end - spans[best].start)
        best = idx;
    }
  return best;
}

static void
select_ref (KymoDetailsPane *self,
            guint            track,
            KymoEventKind    kind,
            guint            index)
{
  KymoEventRef ref = { track, kind, index };

  kymo_session_select_event (self->session, &ref);
}

static void
on_span_link_clicked (GtkButton       *button,
                      KymoDetailsPane *self)
{
  guint track = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "track"));
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));

  select_ref (self, track, KYMO_EVENT_KIND_SPAN, index);
}

static GtkWidget *
span_link (KymoDetailsPane *self,
           guint            track,
           guint32          index,
           const char      *label,
           int              indent)
{
  GtkWidget *button = gtk_button_new_with_label (label);
  GtkWidget *child = gtk_button_get_child (GTK_BUTTON (button));

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_set_margin_start (button, indent * INDENT);
  if (GTK_IS_LABEL (child))
    {
      gtk_label_set_xalign (GTK_LABEL (child), 0);
      gtk_label_set_ellipsize (GTK_LABEL (child), PANGO_ELLIPSIZE_END);
    }
  g_object_set_data (G_OBJECT (button), "track", GUINT_TO_POINTER (track));
  g_object_set_data (G_OBJECT (button), "index", GUINT_TO_POINTER (index));
  g_signal_connect (button, "clicked", G_CALLBACK (on_span_link_clicked), self);
  return button;
}

/* ------------------------------------------------------------ sections */

static void
add_section (KymoDetailsPane *self,
             const char      *title,
             GtkWidget       *body)
{
  gtk_box_append (GTK_BOX (self->content), _kymo_details_section_title (title));
  gtk_box_append (GTK_BOX (self->content), body);
}

/* Outermost first; each one selects its span. */
static void
add_parents (KymoDetailsPane *self,
             const KymoTrack *track,
             guint            depth,
             KymoTime         start,
             KymoTime         end)
{
  GtkWidget *box;
  const KymoSpan *spans;
  guint32 chain[64];
  guint n_chain = 0;
  gsize n;

  if (depth == 0)
    return;
  spans = kymo_track_get_spans (track, &n);
  for (guint d = depth; d > 0 && n_chain < G_N_ELEMENTS (chain); d--)
    {
      guint32 idx = find_enclosing (track, d - 1, start, end);
      if (idx == G_MAXUINT32)
        continue;
      chain[n_chain++] = idx;
      start = spans[idx].start;
      end = spans[idx].end;
    }
  if (n_chain == 0)
    return;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_name (box, "parents");
  for (guint i = n_chain; i > 0; i--)
    {
      const KymoSpan *span = &spans[chain[i - 1]];
      g_autofree char *dur = _kymo_details_format_duration (span->end - span->start);
      g_autofree char *label = g_strdup_printf ("%s  (%s)",
                                                kymo_trace_get_name (get_trace (self), kymo_span_name (span)),
                                                dur);
      gtk_box_append (GTK_BOX (box), span_link (self, kymo_track_get_id (track), chain[i - 1],
                                                label, (int) (n_chain - i)));
    }
  add_section (self, _("Parents"), box);
}

typedef struct {
  guint32  name;
  guint    count;
  KymoTime total;
  guint32  longest;
} ChildName;

static int
compare_child_names (gconstpointer a,
                     gconstpointer b)
{
  const ChildName *x = a, *y = b;

  if (x->total != y->total)
    return x->total > y->total ? -1 : 1;
  return x->name < y->name ? -1 : x->name > y->name;
}

/* Summarises the direct children and returns the time they cover inside
 * the span (as kymo_stats_compute counts it, for the self time). */
static KymoTime
add_children (KymoDetailsPane *self,
              const KymoTrack *track,
              guint            depth,
              const KymoSpan  *span)
{
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (ChildName));
  g_autoptr(GHashTable) by_name = g_hash_table_new (NULL, NULL);
  const KymoSpan *spans;
  KymoTime covered = 0, cursor = span->start, total = 0;
  guint count = 0;
  GtkWidget *box, *grid;
  int row = 0;
  gsize n;

  if (depth + 1 >= kymo_track_get_n_depths (track))
    return 0;
  spans = kymo_track_get_spans (track, &n);
  kymo_track_query_spans (track, depth + 1, span->start, span->end, hits);

  /* Hits come in start order, so the covered union is one sweep. */
  for (guint i = 0; i < hits->len; i++)
    {
      guint32 idx = g_array_index (hits, guint32, i);
      const KymoSpan *child = &spans[idx];
      KymoTime s = MAX (child->start, span->start);
      KymoTime e = MIN (child->end, span->end);
      gpointer slot;
      ChildName *entry;

      if (e <= s && !(child->start >= span->start && child->end <= span->end))
        continue;
      if (e > cursor)
        {
          covered += e - MAX (s, cursor);
          cursor = e;
        }
      count++;
      total += child->end - child->start;
      if (!g_hash_table_lookup_extended (by_name, GUINT_TO_POINTER (kymo_span_name (child)), NULL, &slot))
        {
          ChildName fresh = { kymo_span_name (child), 0, 0, idx };
          g_array_append_val (names, fresh);
          slot = GUINT_TO_POINTER (names->len - 1);
          g_hash_table_insert (by_name, GUINT_TO_POINTER (kymo_span_name (child)), slot);
        }
      entry = &g_array_index (names, ChildName, GPOINTER_TO_UINT (slot));
      entry->count++;
      entry->total += child->end - child->start;
      if (child->end - child->start > spans[entry->longest].end - spans[entry->longest].start)
        entry->longest = idx;
    }
  if (count == 0)
    return 0;

  g_array_sort (names, compare_child_names);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_name (box, "children");
  grid = _kymo_details_pane_new_grid ();
  {
    g_autofree char *count_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u (%u distinct name)", "%u (%u distinct names)", names->len), count, names->len);
    g_autofree char *total_text = _kymo_details_format_duration (total);
    _kymo_details_pane_grid_add (grid, &row, _("Count"), count_text, 0, FALSE);
    _kymo_details_pane_grid_add (grid, &row, _("Total"), total_text, 0, FALSE);
  }
  gtk_box_append (GTK_BOX (box), grid);
  for (guint i = 0; i < MIN (names->len, TOP_CHILD_NAMES); i++)
    {
      const ChildName *entry = &g_array_index (names, ChildName, i);
      g_autofree char *dur = _kymo_details_format_duration (entry->total);
      g_autofree char *label = g_strdup_printf ("%s  ×%u  %s",
                                                kymo_trace_get_name (get_trace (self), entry->name),
                                                entry->count, dur);
      GtkWidget *link = span_link (self, kymo_track_get_id (track), entry->longest, label, 0);

      gtk_widget_set_tooltip_text (link, _("Select the longest of these"));
      gtk_box_append (GTK_BOX (box), link);
    }
  if (names->len > TOP_CHILD_NAMES)
    {
      g_autofree char *more = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "and %u more name", "and %u more names", names->len - TOP_CHILD_NAMES), names->len - TOP_CHILD_NAMES);
      GtkWidget *label = gtk_label_new (more);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_box_append (GTK_BOX (box), label);
    }
  add_section (self, _("Children"), box);
  return covered;
}

void
_kymo_details_pane_add_registers (KymoDetailsPane *self,
                                  const char      *key,
                                  const char      *title)
{
  JsonObject *regs;
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;
  const char *arch;
  g_autofree char *heading = NULL;
  GtkWidget *grid;
  int row = 0;

  if (self->args == NULL || !json_object_has_member (self->args, key))
    return;
  node = json_object_get_member (self->args, key);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return;
  regs = json_node_get_object (node);
  if (json_object_get_size (regs) == 0)
    return;

  arch = kymo_trace_get_metadata (get_trace (self), "arch");
  heading = arch ? g_strdup_printf ("%s (%s)", title, arch) : g_strdup (title);
  grid = _kymo_details_pane_new_grid ();
  gtk_widget_set_name (grid, "registers");
  json_object_iter_init_ordered (&iter, regs);
  while (json_object_iter_next_ordered (&iter, &member, &node))
    {
      g_autofree char *text = _kymo_details_pane_node_to_text (node);
      _kymo_details_pane_grid_add (grid, &row, member, text, 0, TRUE);
    }
  add_section (self, heading, grid);
}

void
_kymo_details_pane_add_stack (KymoDetailsPane *self,
                              const char      *key,
                              const char      *title)
{
  g_autofree char *dump = NULL;
  g_autofree char *heading = NULL;
  const char *hex;
  GtkWidget *label, *scroller;
  JsonNode *node;

  if (self->args == NULL || !json_object_has_member (self->args, key))
    return;
  node = json_object_get_member (self->args, key);
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return;
  hex = json_node_get_string (node);
  dump = _kymo_details_hex_dump (hex);
  if (dump == NULL || *dump == '\0')
    return;

  /* Translators: a section heading, e.g. "Stack (512 bytes)" */
  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s (%zu byte)", "%s (%zu bytes)", strlen (hex) / 2), title, strlen (hex) / 2);
  label = _kymo_details_pane_value_label (dump, TRUE);
  gtk_label_set_wrap (GTK_LABEL (label), FALSE);
  gtk_widget_set_name (label, "stack");
  /* A dump line is ~72 columns: scroll it sideways rather than widen the pane. */
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (scroller), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), label);
  /* The copy item copies the raw hex, not the formatted dump. */
  {
    g_autoptr(GMenu) menu = g_menu_new ();
    g_autoptr(GMenuItem) item = g_menu_item_new (_("Copy _Value"), NULL);

    g_menu_item_set_action_and_target_value (item, "event.copy-value", g_variant_new_string (hex));
    g_menu_append_item (menu, item);
    g_menu_append (menu, _("Copy Event as _JSON"), "event.copy-json");
    gtk_label_set_extra_menu (GTK_LABEL (label), G_MENU_MODEL (menu));
  }
  add_section (self, heading, scroller);
}

static gboolean
is_special_key (const char *key)
{
  return g_str_equal (key, "regs") || g_str_equal (key, "stack") ||
         g_str_equal (key, "return_regs") || g_str_equal (key, "return_stack");
}

void
_kymo_details_pane_add_arguments (KymoDetailsPane *self)
{
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;
  GtkWidget *grid;
  int row = 0;

  if (self->args == NULL)
    return;
  grid = _kymo_details_pane_new_grid ();
  gtk_widget_set_name (grid, "arguments");
  json_object_iter_init_ordered (&iter, self->args);
  while (json_object_iter_next_ordered (&iter, &member, &node))
    if (!is_special_key (member))
      _kymo_details_pane_add_node (grid, &row, member, node, 0);
  if (row == 0)
    {
      g_object_ref_sink (grid);
      g_object_unref (grid);
      return;
    }
  add_section (self, _("Arguments"), grid);
}

void
_kymo_details_pane_add_span (KymoDetailsPane *self,
                             GtkWidget       *grid,
                             int             *row,
                             const KymoTrack *track)
{
  gsize n;
  const KymoSpan *span = &kymo_track_get_spans (track, &n)[self->current.index];
  guint depth = kymo_track_get_span_depth (track, self->current.index);
  g_autofree char *start = _kymo_details_format_time (self->session, span->start);
  g_autofree char *end = _kymo_details_format_time (self->session, span->end);
  g_autofree char *dur = _kymo_details_format_duration (span->end - span->start);
  g_autofree char *depth_text = g_strdup_printf ("%u", depth);
  g_autofree char *self_text = NULL;
  g_autofree char *flags = _kymo_details_pane_flags_to_string (kymo_span_flags (span));
  KymoTime covered;
  int self_row;

  _kymo_details_pane_grid_add (grid, row, _("Start"), start, 0, FALSE);
  _kymo_details_pane_grid_add (grid, row, _("End"), end, 0, FALSE);
  _kymo_details_pane_grid_add (grid, row, _("Duration"), dur, 0, FALSE);
  /* The self-time row is filled after the children are summed. */
  self_row = *row;
  _kymo_details_pane_grid_add (grid, row, _("Self time"), "", 0, FALSE);
  _kymo_details_pane_grid_add (grid, row, _("Depth"), depth_text, 0, FALSE);
  if (*flags)
    _kymo_details_pane_grid_add (grid, row, _("Flags"), flags, 0, FALSE);

  add_parents (self, track, depth, span->start, span->end);
  covered = add_children (self, track, depth, span);
  self_text = _kymo_details_format_duration (span->end - span->start - covered);
  {
    GtkWidget *value = gtk_grid_get_child_at (GTK_GRID (grid), 1, self_row);
    g_autoptr(GMenu) menu = g_menu_new ();
    g_autoptr(GMenuItem) item = g_menu_item_new (_("Copy _Value"), NULL);

    gtk_label_set_text (GTK_LABEL (value), self_text);
    g_menu_item_set_action_and_target_value (item, "event.copy-value", g_variant_new_string (self_text));
    g_menu_append_item (menu, item);
    g_menu_append (menu, _("Copy Event as _JSON"), "event.copy-json");
    gtk_label_set_extra_menu (GTK_LABEL (value), G_MENU_MODEL (menu));
  }
}

void
_kymo_details_pane_add_point_parents (KymoDetailsPane *self,
                                      const KymoTrack *track,
                                      KymoTime         ts)
{
  guint n_depths = kymo_track_get_n_depths (track);

  /* The innermost span around an instant is at the deepest depth holding it. */
  for (guint d = n_depths; d > 0; d--)
    {
      guint32 idx = find_enclosing (track, d - 1, ts, ts);
      if (idx != G_MAXUINT32)
        {
          add_parents (self, track, d, ts, ts);
          return;
        }
    }
}
