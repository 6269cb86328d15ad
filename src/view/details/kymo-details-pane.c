/* kymo-details-pane.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <glib/gi18n.h>

#include <string.h>

#include <adwaita.h>

#include "kymo-details-pane.h"
#include "dial9/kymo-dial9-poll-stacks.h"
#include "dial9/kymo-dial9-worker-cpu.h"
#include "kymo-details-private.h"
#include "kymo-event-item.h"
#include "kymo-instant-list-model.h"
#include "atf/kymo-atf.h"

#define TOP_CHILD_NAMES 5
#define INDENT 14

struct _KymoDetailsPane
{
  GtkWidget           parent_instance;

  KymoSession        *session;
  GSignalGroup       *session_signals;

  GtkWidget          *header;
  GtkWidget          *title;
  GtkWidget          *subtitle;
  GtkWidget          *link_button;
  GtkWidget          *copy_button;
  GtkWidget          *split;       /* fields over detail records */
  GtkWidget          *stack;
  GtkWidget          *scroller;
  GtkWidget          *content;

  GtkWidget          *records_box;
  GtkWidget          *records_title;
  GtkWidget          *records_view;
  GtkSingleSelection *records_selection;
  guint               records_track;
  gboolean            syncing;

  gboolean            has_current;
  KymoEventRef        current;
  JsonObject         *args;
};

G_DEFINE_FINAL_TYPE (KymoDetailsPane, kymo_details_pane, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SESSION,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------ helpers */

static KymoTrace *
get_trace (KymoDetailsPane *self)
{
  return kymo_session_get_trace (self->session);
}

static gboolean
ref_equal (const KymoEventRef *a,
           const KymoEventRef *b)
{
  return a->kind == b->kind && a->track == b->track && a->index == b->index;
}

static gboolean
is_detail_track (KymoTrace *trace,
                 guint      track)
{
  KymoTrack *t;

  if (track >= kymo_trace_get_n_tracks (trace))
    return FALSE;
  t = kymo_trace_get_track (trace, track);
  return kymo_track_get_kind (t) == KYMO_TRACK_INSTANT &&
         g_strcmp0 (kymo_track_get_name (t), KYMO_ATF_DETAIL_TRACK_NAME) == 0;
}

/* "Process 1 › Thread 0" */
static char *
track_path (KymoTrace *trace,
            guint      track)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  GString *out = g_string_new (NULL);

  for (guint id = track; id != KYMO_NO_TRACK && id < kymo_trace_get_n_tracks (trace);
       id = kymo_track_get_parent (kymo_trace_get_track (trace, id)))
    g_ptr_array_add (names, (gpointer) kymo_track_get_name (kymo_trace_get_track (trace, id)));
  for (guint i = names->len; i > 0; i--)
    {
      if (out->len > 0)
        g_string_append (out, " › ");
      g_string_append (out, g_ptr_array_index (names, i - 1));
    }
  return g_string_free (out, FALSE);
}

static char *
flags_to_string (guint flags)
{
  static const struct { guint flag; const char *name; } names[] = {
    { KYMO_EVENT_INCOMPLETE, N_("incomplete") },
    { KYMO_EVENT_OVERHEAD, N_("overhead") },
    { KYMO_EVENT_INTERNAL, N_("internal") },
    { KYMO_EVENT_LINKED, N_("linked") },
    { KYMO_EVENT_WARNING, N_("warning") },
    { KYMO_EVENT_STATE, N_("state") },
    { KYMO_EVENT_USER1, N_("user1") },
    { KYMO_EVENT_USER2, N_("user2") },
  };
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (flags & names[i].flag)
      {
        if (out->len > 0)
          g_string_append (out, ", ");
        g_string_append (out, _(names[i].name));
      }
  return g_string_free (out, FALSE);
}

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

/* ------------------------------------------------------------ rows */

static GtkWidget *
value_label (const char *text,
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

static GtkWidget *
new_grid (void)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 3);
  return grid;
}

static void
grid_add (GtkWidget  *grid,
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
      gtk_grid_attach (GTK_GRID (grid), value_label (value, monospace), 1, *row, 1, 1);
    }
  (*row)++;
}

static char *
node_to_text (JsonNode *node)
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

static void add_node (GtkWidget *grid, int *row, const char *key, JsonNode *node, int indent);

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
    add_node (grid, row, member, node, indent);
}

static void
add_node (GtkWidget  *grid,
          int        *row,
          const char *key,
          JsonNode   *node,
          int         indent)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      grid_add (grid, row, key, NULL, indent, FALSE);
      add_object (grid, row, json_node_get_object (node), indent + 1);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      grid_add (grid, row, key, NULL, indent, FALSE);
      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          g_autofree char *index = g_strdup_printf ("[%u]", i);
          add_node (grid, row, index, json_array_get_element (array, i), indent + 1);
        }
    }
  else
    {
      g_autofree char *text = node_to_text (node);
      grid_add (grid, row, key, text, indent, FALSE);
    }
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
  grid = new_grid ();
  {
    g_autofree char *count_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u (%u distinct name)", "%u (%u distinct names)", names->len), count, names->len);
    g_autofree char *total_text = _kymo_details_format_duration (total);
    grid_add (grid, &row, _("Count"), count_text, 0, FALSE);
    grid_add (grid, &row, _("Total"), total_text, 0, FALSE);
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

static void
add_registers (KymoDetailsPane *self,
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
  grid = new_grid ();
  gtk_widget_set_name (grid, "registers");
  json_object_iter_init_ordered (&iter, regs);
  while (json_object_iter_next_ordered (&iter, &member, &node))
    {
      g_autofree char *text = node_to_text (node);
      grid_add (grid, &row, member, text, 0, TRUE);
    }
  add_section (self, heading, grid);
}

static void
add_stack (KymoDetailsPane *self,
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
  label = value_label (dump, TRUE);
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

static void
add_arguments (KymoDetailsPane *self)
{
  JsonObjectIter iter;
  const char *member;
  JsonNode *node;
  GtkWidget *grid;
  int row = 0;

  if (self->args == NULL)
    return;
  grid = new_grid ();
  gtk_widget_set_name (grid, "arguments");
  json_object_iter_init_ordered (&iter, self->args);
  while (json_object_iter_next_ordered (&iter, &member, &node))
    if (!is_special_key (member))
      add_node (grid, &row, member, node, 0);
  if (row == 0)
    {
      g_object_ref_sink (grid);
      g_object_unref (grid);
      return;
    }
  add_section (self, _("Arguments"), grid);
}

/* ------------------------------------------------------------ links */

static gboolean
current_link (KymoDetailsPane *self,
              KymoEventRef    *to)
{
  if (!self->has_current)
    return FALSE;
  return kymo_trace_follow_link (get_trace (self), &self->current, to);
}

static void
update_link_button (KymoDetailsPane *self)
{
  KymoEventRef to;

  if (!current_link (self, &to))
    {
      gtk_widget_set_visible (self->link_button, FALSE);
      gtk_widget_action_set_enabled (GTK_WIDGET (self), "event.follow-link", FALSE);
      return;
    }
  gtk_button_set_label (GTK_BUTTON (self->link_button),
                        is_detail_track (get_trace (self), to.track) ? _("Go to Detail Event") : _("Go to Index Event"));
  gtk_widget_set_visible (self->link_button, TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "event.follow-link", TRUE);
}

gboolean
kymo_details_pane_follow_link (KymoDetailsPane *self)
{
  KymoEventRef to;

  g_return_val_if_fail (KYMO_IS_DETAILS_PANE (self), FALSE);

  if (!current_link (self, &to))
    return FALSE;
  kymo_session_select_event (self->session, &to);
  return TRUE;
}

/* ------------------------------------------------------------ detail records */

static void
records_setup (GtkSignalListItemFactory *factory,
               GtkListItem              *list_item,
               gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *time = gtk_label_new (NULL);
  GtkWidget *name = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (time), 1);
  gtk_label_set_width_chars (GTK_LABEL (time), 12);
  gtk_widget_add_css_class (time, "dim-label");
  gtk_widget_add_css_class (time, "numeric");
  gtk_label_set_xalign (GTK_LABEL (name), 0);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_widget_set_margin_top (box, 3);
  gtk_widget_set_margin_bottom (box, 3);
  gtk_widget_set_margin_end (box, 12);
  gtk_box_append (GTK_BOX (box), time);
  gtk_box_append (GTK_BOX (box), name);
  gtk_list_item_set_child (list_item, box);
}

static void
records_bind (GtkSignalListItemFactory *factory,
              GtkListItem              *list_item,
              KymoDetailsPane          *self)
{
  KymoEventItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *time = gtk_widget_get_first_child (box);
  GtkWidget *name = gtk_widget_get_next_sibling (time);
  g_autofree char *time_text = _kymo_details_format_time (self->session, kymo_event_item_get_start (item));
  g_autofree char *name_text = NULL;

  name_text = g_strdup_printf ("%s%s", kymo_event_item_get_name (item),
                               (kymo_event_item_get_flags (item) & KYMO_EVENT_LINKED) ? "" : _("  (unlinked)"));
  gtk_label_set_text (GTK_LABEL (time), time_text);
  gtk_label_set_text (GTK_LABEL (name), name_text);
}

static void
on_record_selected (GtkSingleSelection *selection,
                    guint               position,
                    guint               n_items,
                    KymoDetailsPane    *self)
{
  guint selected = gtk_single_selection_get_selected (selection);
  KymoEventRef from = { self->records_track, KYMO_EVENT_KIND_INSTANT, selected }, to;

  if (self->syncing || selected == GTK_INVALID_LIST_POSITION)
    return;
  /* Selecting a record selects the call it belongs to; an unlinked record
   * selects itself. */
  self->syncing = TRUE;
  if (kymo_trace_follow_link (get_trace (self), &from, &to))
    kymo_session_select_event (self->session, &to);
  else
    kymo_session_select_event (self->session, &from);
  self->syncing = FALSE;
}

static void
set_records_track (KymoDetailsPane *self,
                   guint            track,
                   guint            thread)
{
  g_autoptr(KymoInstantListModel) model = NULL;
  g_autofree char *title = NULL;
  gsize n;

  if (track == self->records_track)
    return;
  self->records_track = track;
  self->syncing = TRUE;
  if (track == KYMO_NO_TRACK)
    {
      gtk_single_selection_set_model (self->records_selection, NULL);
      gtk_widget_set_visible (self->records_box, FALSE);
      self->syncing = FALSE;
      return;
    }
  model = kymo_instant_list_model_new (get_trace (self), track);
  gtk_single_selection_set_model (self->records_selection, G_LIST_MODEL (model));
  gtk_single_selection_set_selected (self->records_selection, GTK_INVALID_LIST_POSITION);
  kymo_track_get_instants (kymo_trace_get_track (get_trace (self), track), &n);
  /* Translators: %s is a thread name, %zu the number of records */
  title = g_strdup_printf (_("Detail Records of %s (%zu)"),
                           kymo_track_get_name (kymo_trace_get_track (get_trace (self), thread)), n);
  gtk_label_set_text (GTK_LABEL (self->records_title), title);
  gtk_widget_set_visible (self->records_box, TRUE);
  self->syncing = FALSE;
}

/* Shows the records of the selected event's thread with the linked one selected. */
static void
sync_records (KymoDetailsPane *self)
{
  KymoTrace *trace = get_trace (self);
  guint thread = KYMO_NO_TRACK, records = KYMO_NO_TRACK;
  guint want = GTK_INVALID_LIST_POSITION;
  guint selected;
  KymoEventRef to;

  if (self->has_current)
    {
      if (is_detail_track (trace, self->current.track))
        {
          thread = kymo_track_get_parent (kymo_trace_get_track (trace, self->current.track));
          records = self->current.track;
        }
      else
        {
          thread = self->current.track;
          records = _kymo_details_find_child_track (trace, thread, KYMO_ATF_DETAIL_TRACK_NAME);
        }
      if (records != KYMO_NO_TRACK &&
          kymo_track_get_kind (kymo_trace_get_track (trace, records)) != KYMO_TRACK_INSTANT)
        records = KYMO_NO_TRACK;
    }
  /* Keep the list while nothing is selected, so a click in it is not lost. */
  if (!self->has_current)
    return;
  set_records_track (self, records, thread);
  if (records == KYMO_NO_TRACK)
    return;

  selected = gtk_single_selection_get_selected (self->records_selection);
  if (self->current.track == records && self->current.kind == KYMO_EVENT_KIND_INSTANT)
    want = self->current.index;
  else
    {
      KymoEventRef from = { records, KYMO_EVENT_KIND_INSTANT, selected };

      /* A span has a CALL and maybe a RETURN record: keep whichever is
       * selected when it leads to this span. */
      if (selected != GTK_INVALID_LIST_POSITION &&
          kymo_trace_follow_link (trace, &from, &to) && ref_equal (&to, &self->current))
        want = selected;
      else if (kymo_trace_follow_link (trace, &self->current, &to) && to.track == records)
        want = to.index;
    }

  if (want == selected)
    return;
  self->syncing = TRUE;
  gtk_single_selection_set_selected (self->records_selection, want);
  if (want != GTK_INVALID_LIST_POSITION)
    gtk_widget_activate_action (self->records_view, "list.scroll-to-item", "u", want);
  self->syncing = FALSE;
}

/* ------------------------------------------------------------ rebuild */

static void
clear_content (KymoDetailsPane *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->content)))
    gtk_box_remove (GTK_BOX (self->content), child);
}

static void
add_span (KymoDetailsPane *self,
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
  g_autofree char *flags = flags_to_string (kymo_span_flags (span));
  KymoTime covered;
  int self_row;

  grid_add (grid, row, _("Start"), start, 0, FALSE);
  grid_add (grid, row, _("End"), end, 0, FALSE);
  grid_add (grid, row, _("Duration"), dur, 0, FALSE);
  /* The self-time row is filled after the children are summed. */
  self_row = *row;
  grid_add (grid, row, _("Self time"), "", 0, FALSE);
  grid_add (grid, row, _("Depth"), depth_text, 0, FALSE);
  if (*flags)
    grid_add (grid, row, _("Flags"), flags, 0, FALSE);

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

static void
add_point_parents (KymoDetailsPane *self,
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

static void
rebuild (KymoDetailsPane *self)
{
  KymoTrace *trace = get_trace (self);
  const KymoTrack *track;
  g_autofree char *path = NULL;
  const char *name = NULL;
  GtkWidget *grid;
  int row = 0;
  gsize n;

  clear_content (self);
  g_clear_pointer (&self->args, json_object_unref);

  if (!self->has_current)
    {
      gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "empty");
      /* The empty state says it: a second "No Event Selected" above it
       * only takes room from a short pane. */
      gtk_widget_set_visible (self->header, FALSE);
      gtk_label_set_text (GTK_LABEL (self->title), "");
      gtk_label_set_text (GTK_LABEL (self->subtitle), "");
      gtk_widget_set_sensitive (self->copy_button, FALSE);
      update_link_button (self);
      return;
    }

  track = kymo_trace_get_track (trace, self->current.track);
  self->args = kymo_trace_describe_event (trace, &self->current);
  path = track_path (trace, self->current.track);
  grid = new_grid ();
  gtk_widget_set_name (grid, "event");
  gtk_box_append (GTK_BOX (self->content), grid);
  grid_add (grid, &row, _("Track"), path, 0, FALSE);

  switch (self->current.kind)
    {
    case KYMO_EVENT_KIND_SPAN:
      {
        const KymoSpan *span = &kymo_track_get_spans (track, &n)[self->current.index];
        name = kymo_trace_get_name (trace, kymo_span_name (span));
        grid_add (grid, &row, _("Name"), name, 0, FALSE);
        add_span (self, grid, &row, track);
      }
      break;

    case KYMO_EVENT_KIND_INSTANT:
      {
        const KymoInstant *instant = &kymo_track_get_instants (track, &n)[self->current.index];
        g_autofree char *ts = _kymo_details_format_time (self->session, instant->ts);
        g_autofree char *flags = flags_to_string (instant->name_flags >> 24);

        name = kymo_trace_get_name (trace, instant->name_flags & KYMO_NAME_MAX);
        grid_add (grid, &row, _("Name"), name, 0, FALSE);
        grid_add (grid, &row, _("Time"), ts, 0, FALSE);
        if (*flags)
          grid_add (grid, &row, _("Flags"), flags, 0, FALSE);
        add_point_parents (self, track, instant->ts);
      }
      break;

    case KYMO_EVENT_KIND_SAMPLE:
      {
        const KymoSample *sample = &kymo_track_get_samples (track, &n)[self->current.index];
        g_autofree char *ts = _kymo_details_format_time (self->session, sample->ts);
        const char *unit = kymo_track_get_unit (track);
        g_autofree char *value = g_strdup_printf ("%.17g%s%s", sample->value, unit ? " " : "", unit ? unit : "");

        name = kymo_track_get_name (track);
        grid_add (grid, &row, _("Time"), ts, 0, FALSE);
        grid_add (grid, &row, _("Value"), value, 0, FALSE);
      }
      break;

    case KYMO_EVENT_KIND_ANNOTATION:
      {
        const KymoAnnotation *annotation = &kymo_track_get_annotations (track, &n)[self->current.index];
        g_autofree char *start = _kymo_details_format_time (self->session, annotation->start);

        name = kymo_trace_get_name (trace, annotation->name);
        grid_add (grid, &row, _("Name"), name, 0, FALSE);
        grid_add (grid, &row, annotation->end > annotation->start ? _("Start") : _("Time"), start, 0, FALSE);
        if (annotation->end > annotation->start)
          {
            g_autofree char *end = _kymo_details_format_time (self->session, annotation->end);
            g_autofree char *dur = _kymo_details_format_duration (annotation->end - annotation->start);
            grid_add (grid, &row, _("End"), end, 0, FALSE);
            grid_add (grid, &row, _("Duration"), dur, 0, FALSE);
          }
        if (annotation->text && *annotation->text)
          grid_add (grid, &row, _("Text"), annotation->text, 0, FALSE);
      }
      break;

    case KYMO_EVENT_KIND_NONE:
    default:
      g_assert_not_reached ();
    }

  add_registers (self, "regs", _("Registers"));
  add_stack (self, "stack", _("Stack"));
  add_registers (self, "return_regs", _("Registers at Return"));
  add_stack (self, "return_stack", _("Stack at Return"));
  add_arguments (self);
  _kymo_dial9_add_poll_stacks (self->session, GTK_BOX (self->content), &self->current);
  _kymo_dial9_add_active_period (self->session, GTK_BOX (self->content), &self->current);

  gtk_label_set_text (GTK_LABEL (self->title), name && *name ? name : _("(unnamed)"));
  gtk_label_set_text (GTK_LABEL (self->subtitle), kymo_track_get_name (track));
  gtk_widget_set_visible (self->header, TRUE);
  gtk_widget_set_sensitive (self->copy_button, TRUE);
  gtk_stack_set_visible_child_name (GTK_STACK (self->stack), "event");
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller)), 0);
  update_link_button (self);
}

static void
on_selected_event_changed (KymoDetailsPane *self)
{
  const KymoEventRef *ref = kymo_session_get_selected_event (self->session);

  if (ref == NULL)
    self->has_current = FALSE;
  else
    {
      if (self->has_current && ref_equal (ref, &self->current))
        return;
      self->has_current = TRUE;
      self->current = *ref;
    }
  rebuild (self);
  sync_records (self);
}

/* ------------------------------------------------------------ JSON */

char *
kymo_details_pane_dup_event_json (KymoDetailsPane *self)
{
  g_autoptr(JsonBuilder) builder = NULL;
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;
  KymoTrace *trace;
  const KymoTrack *track;
  g_autofree char *path = NULL;
  KymoTime start, end;
  static const char * const kinds[] = { "none", "span", "instant", "sample", "annotation" };

  g_return_val_if_fail (KYMO_IS_DETAILS_PANE (self), NULL);

  if (!self->has_current ||
      !kymo_session_get_event_extent (self->session, &self->current, &start, &end))
    return NULL;
  trace = get_trace (self);
  track = kymo_trace_get_track (trace, self->current.track);
  path = track_path (trace, self->current.track);

  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, kinds[self->current.kind]);
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, gtk_label_get_text (GTK_LABEL (self->title)));
  json_builder_set_member_name (builder, "track");
  json_builder_add_string_value (builder, path);
  json_builder_set_member_name (builder, "start_ns");
  json_builder_add_int_value (builder, start);
  if (end != start || self->current.kind == KYMO_EVENT_KIND_SPAN)
    {
      json_builder_set_member_name (builder, "end_ns");
      json_builder_add_int_value (builder, end);
      json_builder_set_member_name (builder, "duration_ns");
      json_builder_add_int_value (builder, end - start);
    }
  if (self->current.kind == KYMO_EVENT_KIND_SPAN)
    {
      json_builder_set_member_name (builder, "depth");
      json_builder_add_int_value (builder, kymo_track_get_span_depth (track, self->current.index));
    }
  if (self->current.kind == KYMO_EVENT_KIND_SAMPLE)
    {
      gsize n;
      json_builder_set_member_name (builder, "value");
      json_builder_add_double_value (builder, kymo_track_get_samples (track, &n)[self->current.index].value);
    }
  if (self->args)
    {
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      json_node_set_object (node, self->args);
      json_builder_set_member_name (builder, "args");
      json_builder_add_value (builder, node);
    }
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/* ------------------------------------------------------------ actions */

static void
copy_value_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  _kymo_details_copy_text (widget, g_variant_get_string (parameter, NULL));
}

static void
copy_json_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  g_autofree char *json = kymo_details_pane_dup_event_json (KYMO_DETAILS_PANE (widget));

  if (json)
    _kymo_details_copy_text (widget, json);
}

static void
follow_link_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  kymo_details_pane_follow_link (KYMO_DETAILS_PANE (widget));
}

/* ------------------------------------------------------------ GObject */

static void
kymo_details_pane_constructed (GObject *object)
{
  KymoDetailsPane *self = (KymoDetailsPane *) object;

  G_OBJECT_CLASS (kymo_details_pane_parent_class)->constructed (object);

  g_signal_group_set_target (self->session_signals, self->session);
  on_selected_event_changed (self);
}

static void
kymo_details_pane_dispose (GObject *object)
{
  KymoDetailsPane *self = (KymoDetailsPane *) object;
  GtkWidget *child;

  if (self->session_signals)
    g_signal_group_set_target (self->session_signals, NULL);
  if (self->records_selection)
    g_signal_handlers_disconnect_by_data (self->records_selection, self);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))))
    gtk_widget_unparent (child);
  g_clear_object (&self->records_selection);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->session);
  g_clear_pointer (&self->args, json_object_unref);
  G_OBJECT_CLASS (kymo_details_pane_parent_class)->dispose (object);
}

static void
kymo_details_pane_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  KymoDetailsPane *self = KYMO_DETAILS_PANE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_details_pane_set_property (GObject      *object,
                                guint         prop_id,
                                const GValue *value,
                                GParamSpec   *pspec)
{
  KymoDetailsPane *self = KYMO_DETAILS_PANE (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_details_pane_class_init (KymoDetailsPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_details_pane_constructed;
  object_class->dispose = kymo_details_pane_dispose;
  object_class->get_property = kymo_details_pane_get_property;
  object_class->set_property = kymo_details_pane_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, KYMO_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_action (widget_class, "event.copy-value", "s", copy_value_action);
  gtk_widget_class_install_action (widget_class, "event.copy-json", NULL, copy_json_action);
  gtk_widget_class_install_action (widget_class, "event.follow-link", NULL, follow_link_action);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-details-pane");
}

static void
kymo_details_pane_init (KymoDetailsPane *self)
{
  GtkWidget *header, *titles, *empty, *records_scroller;
  g_autoptr(GtkListItemFactory) factory = NULL;

  self->records_track = KYMO_NO_TRACK;
  gtk_orientable_set_orientation (GTK_ORIENTABLE (gtk_widget_get_layout_manager (GTK_WIDGET (self))),
                                  GTK_ORIENTATION_VERTICAL);

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 12);
  gtk_widget_set_margin_top (header, 8);
  gtk_widget_set_margin_bottom (header, 4);
  titles = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_hexpand (titles, TRUE);
  self->title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->title), PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (self->title), TRUE);
  gtk_widget_set_focusable (self->title, FALSE);
  gtk_widget_add_css_class (self->title, "title-4");
  self->subtitle = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->subtitle), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->subtitle), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->subtitle, "dim-label");
  gtk_box_append (GTK_BOX (titles), self->title);
  gtk_box_append (GTK_BOX (titles), self->subtitle);
  self->link_button = gtk_button_new_with_label (_("Go to Detail Event"));
  gtk_widget_set_valign (self->link_button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->link_button), "event.follow-link");
  gtk_widget_set_tooltip_text (self->link_button, _("Jump across the link (J)"));
  self->copy_button = gtk_button_new_from_icon_name ("edit-copy-symbolic");
  gtk_widget_set_valign (self->copy_button, GTK_ALIGN_CENTER);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->copy_button), "event.copy-json");
  gtk_widget_set_tooltip_text (self->copy_button, _("Copy Event as JSON"));
  gtk_box_append (GTK_BOX (header), titles);
  gtk_box_append (GTK_BOX (header), self->link_button);
  gtk_box_append (GTK_BOX (header), self->copy_button);
  gtk_widget_set_parent (header, GTK_WIDGET (self));
  self->header = header;
  gtk_widget_set_visible (header, FALSE);

  self->stack = gtk_stack_new ();
  gtk_widget_set_vexpand (self->stack, TRUE);
  empty = _kymo_details_empty_state_new ("input-mouse-symbolic", _("No Event Selected"),
                                         _("Click an event in the timeline to see its details"));
  gtk_stack_add_named (GTK_STACK (self->stack), empty, "empty");
  self->scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (self->scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  self->content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_margin_start (self->content, 12);
  gtk_widget_set_margin_end (self->content, 12);
  gtk_widget_set_margin_bottom (self->content, 12);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (self->scroller), self->content);
  gtk_stack_add_named (GTK_STACK (self->stack), self->scroller, "event");

  /* The fields and the thread's detail records share a short pane: a split
   * the user can move, each side scrolling on its own. */
  self->split = gtk_paned_new (GTK_ORIENTATION_VERTICAL);
  gtk_widget_set_vexpand (self->split, TRUE);
  gtk_paned_set_wide_handle (GTK_PANED (self->split), TRUE);
  gtk_paned_set_start_child (GTK_PANED (self->split), self->stack);
  gtk_paned_set_resize_start_child (GTK_PANED (self->split), TRUE);
  gtk_paned_set_shrink_start_child (GTK_PANED (self->split), FALSE);
  gtk_widget_set_size_request (self->stack, -1, 48);
  gtk_widget_set_parent (self->split, GTK_WIDGET (self));

  self->records_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_visible (self->records_box, FALSE);
  self->records_title = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->records_title), 0);
  gtk_label_set_ellipsize (GTK_LABEL (self->records_title), PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (self->records_title, "heading");
  gtk_widget_set_margin_start (self->records_title, 12);
  gtk_widget_set_margin_top (self->records_title, 6);
  gtk_widget_set_margin_bottom (self->records_title, 6);
  gtk_box_append (GTK_BOX (self->records_box), self->records_title);
  self->records_selection = gtk_single_selection_new (NULL);
  gtk_single_selection_set_autoselect (self->records_selection, FALSE);
  gtk_single_selection_set_can_unselect (self->records_selection, TRUE);
  g_signal_connect (self->records_selection, "selection-changed", G_CALLBACK (on_record_selected), self);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (records_setup), self);
  g_signal_connect (factory, "bind", G_CALLBACK (records_bind), self);
  self->records_view = gtk_list_view_new (GTK_SELECTION_MODEL (g_object_ref (self->records_selection)),
                                          g_steal_pointer (&factory));
  records_scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (records_scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (records_scroller, TRUE);
  gtk_widget_set_size_request (records_scroller, -1, 48);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (records_scroller), self->records_view);
  gtk_box_append (GTK_BOX (self->records_box), records_scroller);
  gtk_paned_set_end_child (GTK_PANED (self->split), self->records_box);
  gtk_paned_set_resize_end_child (GTK_PANED (self->split), TRUE);
  gtk_paned_set_shrink_end_child (GTK_PANED (self->split), FALSE);

  self->session_signals = g_signal_group_new (KYMO_TYPE_SESSION);
  g_signal_group_connect_swapped (self->session_signals, "notify::selected-event",
                                  G_CALLBACK (on_selected_event_changed), self);
}

GtkWidget *
kymo_details_pane_new (KymoSession *session)
{
  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  return g_object_new (KYMO_TYPE_DETAILS_PANE, "session", session, NULL);
}

KymoSession *
kymo_details_pane_get_session (KymoDetailsPane *self)
{
  g_return_val_if_fail (KYMO_IS_DETAILS_PANE (self), NULL);

  return self->session;
}
