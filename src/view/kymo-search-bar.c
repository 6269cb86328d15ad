/* kymo-search-bar.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-find"

#include "config.h"

#include <locale.h>
#include <string.h>
#include <glib/gi18n.h>

#include "kymo-search-bar.h"
#include "kymo-find-model.h"

struct _KymoSearchBar
{
  GtkWidget      parent_instance;

  KymoSession   *session;
  KymoFindModel *model;
  GtkWidget     *bar;
  GtkWidget     *entry;
  GtkWidget     *count;
  GtkWidget     *args;
  GtkWidget     *spinner;
};

G_DEFINE_FINAL_TYPE (KymoSearchBar, kymo_search_bar, GTK_TYPE_WIDGET)

/* Digits in groups of three: the locale's separator, "," where it has none
 * (the C locale), so that "1,204" reads as a count everywhere. */
static char *
group_digits (guint64 value)
{
  const char *sep = localeconv ()->thousands_sep;
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, value);
  GString *out = g_string_new (NULL);
  gsize len = strlen (digits);

  if (sep == NULL || sep[0] == '\0')
    sep = ",";
  for (gsize i = 0; i < len; i++)
    {
      if (i > 0 && (len - i) % 3 == 0)
        g_string_append (out, sep);
      g_string_append_c (out, digits[i]);
    }
  return g_string_free (out, FALSE);
}

/* "12 of 1,204" */
static void
update_count (KymoSearchBar *self)
{
  KymoSearchResult *result = kymo_find_model_get_result (self->model);
  int current = kymo_session_get_search_match (self->session);
  g_autofree char *total = NULL;
  g_autofree char *text = NULL;
  gsize n;

  if (result == NULL || kymo_session_get_search_text (self->session)[0] == '\0')
    {
      gtk_label_set_text (GTK_LABEL (self->count), "");
      return;
    }
  n = kymo_search_result_get_n_hits (result);
  total = group_digits (n);
  if (n == 0)
    text = g_strdup (_("No matches"));
  else if (current < 0)
    /* Translators: %s is the number of matches, e.g. "1,204 matches" */
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s match", "%s matches", n), total);
  else
    {
      g_autofree char *number = group_digits ((guint64) current + 1);
      /* Translators: "12 of 1,204": the current match and how many there are */
      text = g_strdup_printf (_("%s of %s"), number, total);
    }
  gtk_label_set_text (GTK_LABEL (self->count), text);
}

static void
update_busy (KymoSearchBar *self)
{
  gboolean busy = kymo_find_model_get_busy (self->model);

  gtk_widget_set_visible (self->spinner, busy);
  gtk_spinner_set_spinning (GTK_SPINNER (self->spinner), busy);
  if (busy && kymo_find_model_get_args (self->model))
    {
      g_autofree char *text = g_strdup_printf (_("Searching… %d %%"),
                                               (int) (kymo_find_model_get_fraction (self->model) * 100));
      gtk_label_set_text (GTK_LABEL (self->count), text);
    }
}

static void
on_search_changed (KymoSearchBar *self)
{
  kymo_session_set_search_text (self->session, gtk_editable_get_text (GTK_EDITABLE (self->entry)));
}

static void
on_search_text (KymoSearchBar *self)
{
  const char *text = kymo_session_get_search_text (self->session);

  if (g_strcmp0 (text, gtk_editable_get_text (GTK_EDITABLE (self->entry))) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->entry), text);
}

static void
next_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  KymoSearchBar *self = KYMO_SEARCH_BAR (widget);

  kymo_find_model_next (self->model);
}

static void
previous_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  KymoSearchBar *self = KYMO_SEARCH_BAR (widget);

  kymo_find_model_previous (self->model);
}

/* Escape leaves the search; the highlight goes with it. */
static void
on_search_mode (KymoSearchBar *self)
{
  if (!gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (self->bar)))
    {
      gtk_editable_set_text (GTK_EDITABLE (self->entry), "");
      kymo_session_set_search_text (self->session, "");
    }
}

static void
on_stop_search (KymoSearchBar *self)
{
  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->bar), FALSE);
}

static void
kymo_search_bar_dispose (GObject *object)
{
  KymoSearchBar *self = KYMO_SEARCH_BAR (object);

  g_clear_pointer (&self->bar, gtk_widget_unparent);
  g_clear_object (&self->model);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_search_bar_parent_class)->dispose (object);
}

static void
kymo_search_bar_class_init (KymoSearchBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = kymo_search_bar_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "kymo-search-bar");

  gtk_widget_class_install_action (widget_class, "search.next", NULL, next_action);
  gtk_widget_class_install_action (widget_class, "search.previous", NULL, previous_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_SHIFT_MASK, "search.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_SHIFT_MASK, "search.previous", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "search.next", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "search.previous", NULL);
}

static void
kymo_search_bar_init (KymoSearchBar *self)
{
  GtkWidget *box, *prev, *next;
  GtkEventController *shortcuts;

  self->entry = gtk_search_entry_new ();
  gtk_widget_set_size_request (self->entry, 320, -1);
  g_object_set (self->entry, "placeholder-text", _("Find events by name"), NULL);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Find events"), -1);

  self->spinner = gtk_spinner_new ();
  gtk_widget_set_visible (self->spinner, FALSE);
  self->count = gtk_label_new (NULL);
  gtk_label_set_width_chars (GTK_LABEL (self->count), 14);
  gtk_label_set_xalign (GTK_LABEL (self->count), 0);
  gtk_widget_add_css_class (self->count, "dim-label");
  gtk_widget_add_css_class (self->count, "numeric");

  prev = gtk_button_new_from_icon_name ("go-up-symbolic");
  gtk_widget_set_tooltip_text (prev, _("Previous Match (Shift+Enter)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (prev), "search.previous");
  next = gtk_button_new_from_icon_name ("go-down-symbolic");
  gtk_widget_set_tooltip_text (next, _("Next Match (Enter)"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (next), "search.next");
  self->args = gtk_toggle_button_new_with_label (_("Arguments"));
  gtk_widget_set_tooltip_text (self->args, _("Also search argument values"));

  box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_box_append (GTK_BOX (box), self->entry);
  gtk_box_append (GTK_BOX (box), prev);
  gtk_box_append (GTK_BOX (box), next);
  gtk_box_append (GTK_BOX (box), self->spinner);
  gtk_box_append (GTK_BOX (box), self->count);
  gtk_box_append (GTK_BOX (box), self->args);

  self->bar = gtk_search_bar_new ();
  gtk_search_bar_set_child (GTK_SEARCH_BAR (self->bar), box);
  gtk_search_bar_connect_entry (GTK_SEARCH_BAR (self->bar), GTK_EDITABLE (self->entry));
  gtk_search_bar_set_show_close_button (GTK_SEARCH_BAR (self->bar), TRUE);
  gtk_widget_set_parent (self->bar, GTK_WIDGET (self));

  /* Enter is the entry's own "activate"; Shift+Enter must reach the bar's
   * binding before the entry takes it as an activation. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_SHIFT_MASK),
                                                          gtk_named_action_new ("search.previous")));
  gtk_widget_add_controller (self->entry, shortcuts);

  g_signal_connect_swapped (self->entry, "search-changed", G_CALLBACK (on_search_changed), self);
  g_signal_connect_swapped (self->entry, "activate", G_CALLBACK (next_action), self);
  g_signal_connect_swapped (self->entry, "stop-search", G_CALLBACK (on_stop_search), self);
  g_signal_connect_swapped (self->bar, "notify::search-mode-enabled", G_CALLBACK (on_search_mode), self);
}

GtkWidget *
kymo_search_bar_new (KymoSession *session)
{
  KymoSearchBar *self;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self = g_object_new (KYMO_TYPE_SEARCH_BAR, NULL);
  self->session = g_object_ref (session);
  self->model = g_object_ref (kymo_find_model_get_for_session (session));
  g_object_bind_property (self->model, "args", self->args, "active", G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->model, "notify::result", G_CALLBACK (update_count), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::busy", G_CALLBACK (update_busy), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::busy", G_CALLBACK (update_count), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->model, "notify::fraction", G_CALLBACK (update_busy), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::search-match", G_CALLBACK (update_count), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::search-text", G_CALLBACK (on_search_text), self, G_CONNECT_SWAPPED);
  return GTK_WIDGET (self);
}

void
kymo_search_bar_open (KymoSearchBar *self)
{
  g_return_if_fail (KYMO_IS_SEARCH_BAR (self));

  gtk_search_bar_set_search_mode (GTK_SEARCH_BAR (self->bar), TRUE);
  gtk_widget_grab_focus (self->entry);
}

gboolean
kymo_search_bar_get_open (KymoSearchBar *self)
{
  g_return_val_if_fail (KYMO_IS_SEARCH_BAR (self), FALSE);

  return gtk_search_bar_get_search_mode (GTK_SEARCH_BAR (self->bar));
}

GtkWidget *
kymo_search_bar_get_entry (KymoSearchBar *self)
{
  g_return_val_if_fail (KYMO_IS_SEARCH_BAR (self), NULL);

  return self->entry;
}
