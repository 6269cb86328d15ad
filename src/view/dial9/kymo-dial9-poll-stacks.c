/* kymo-dial9-poll-stacks.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-dial9"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-dial9-poll-stacks.h"
#include "details/kymo-details-private.h"
#include "kymo-flame-model.h"

/* Distinct stacks shown, and frames of each, before "… N more". */
#define MAX_STACKS 8
#define MAX_FRAMES 48

typedef struct {
  guint32 stack;
  guint32 kind;
  guint   count;
} Seen;

static int
compare_seen (gconstpointer a,
              gconstpointer b)
{
  const Seen *x = a, *y = b;

  if (x->count != y->count)
    return x->count > y->count ? -1 : 1;
  return x->stack < y->stack ? -1 : x->stack > y->stack;
}

/* The stack as a backtrace reads: innermost frame first. */
static char *
stack_text (KymoTrace *trace,
            guint32    stack)
{
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  gsize n;
  const KymoFrame *frames = kymo_stacks_get (stacks, stack, &n);
  GString *out = g_string_new (NULL);

  if (stack == KYMO_NO_STACK || n == 0)
    {
      g_string_append (out, _("(no stack recorded)"));
      return g_string_free (out, FALSE);
    }
  for (gsize i = n, shown = 0; i-- > 0 && shown < MAX_FRAMES; shown++)
    {
      const char *name = kymo_trace_get_name (trace, frames[i].name);

      if (out->len > 0)
        g_string_append_c (out, '\n');
      g_string_append (out, name);
      if (frames[i].location != 0)
        g_string_append_printf (out, "  %s", kymo_trace_get_name (trace, frames[i].location));
    }
  if (n > MAX_FRAMES)
    g_string_append_printf (out, "\n%s", _("… outer frames left out"));
  return g_string_free (out, FALSE);
}

typedef struct {
  KymoSession *session;
  KymoTime     start;
  KymoTime     end;
} Range;

static void
range_free (gpointer data)
{
  Range *range = data;

  g_object_unref (range->session);
  g_free (range);
}

/* The sidebar's Flame Graph page, when there is one, folding the sampled
 * stacks the button stands under (not the range's spans, the page's
 * default: those are the polls already on the timeline). */
static void
open_flame_graph (GtkButton *button,
                  Range     *range)
{
  GtkWidget *stack = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_STACK);

  kymo_session_set_selected_range (range->session, range->start, range->end);
  kymo_flame_model_set_source (kymo_flame_model_get_for_session (range->session), KYMO_CALL_TREE_SAMPLES);
  while (stack != NULL)
    {
      g_autoptr(GListModel) pages = G_LIST_MODEL (gtk_stack_get_pages (GTK_STACK (stack)));

      for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (pages, i);
          GtkStackPage *page = GTK_STACK_PAGE (item);
          const char *name = gtk_stack_page_get_name (page);
          const char *title = gtk_stack_page_get_title (page);

          if (g_strcmp0 (name, "flamegraph") == 0 || g_strcmp0 (name, "flame-graph") == 0 ||
              g_strcmp0 (title, _("Flame Graph")) == 0)
            {
              gtk_stack_set_visible_child (GTK_STACK (stack), gtk_stack_page_get_child (page));
              return;
            }
        }
      stack = gtk_widget_get_parent (stack) ? gtk_widget_get_ancestor (gtk_widget_get_parent (stack), GTK_TYPE_STACK)
                                            : NULL;
    }
}

guint
_kymo_dial9_add_poll_stacks (KymoSession        *session,
                             GtkBox             *box,
                             const KymoEventRef *ref)
{
  KymoTrace *trace = kymo_session_get_trace (session);
  KymoStacks *stacks = kymo_trace_get_stacks (trace);
  g_autoptr(GArray) seen = g_array_new (FALSE, FALSE, sizeof (Seen));
  const KymoStackSample *samples;
  const KymoSpan *span;
  g_autofree char *title = NULL;
  GtkWidget *button;
  Range *range;
  gsize n, n_spans;
  guint total = 0;

  if (ref == NULL || ref->kind != KYMO_EVENT_KIND_SPAN || ref->track >= kymo_trace_get_n_tracks (trace))
    return 0;
  span = kymo_track_get_spans (kymo_trace_get_track (trace, ref->track), &n_spans);
  if (ref->index >= n_spans)
    return 0;
  span = &span[ref->index];
  samples = kymo_stacks_get_samples (stacks, &n);
  for (gsize i = kymo_stacks_lower_bound (stacks, span->start); i < n && samples[i].ts <= span->end; i++)
    {
      guint k;

      if (samples[i].track != ref->track)
        continue;
      total++;
      for (k = 0; k < seen->len; k++)
        if (g_array_index (seen, Seen, k).stack == samples[i].stack &&
            g_array_index (seen, Seen, k).kind == samples[i].kind)
          break;
      if (k == seen->len)
        {
          Seen s = { samples[i].stack, samples[i].kind, 0 };
          g_array_append_val (seen, s);
        }
      g_array_index (seen, Seen, k).count++;
    }
  if (total == 0)
    return 0;
  g_array_sort (seen, compare_seen);

  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Sampled Stack", "%u Sampled Stacks", total), total);
  gtk_box_append (box, _kymo_details_section_title (title));
  for (guint k = 0; k < seen->len && k < MAX_STACKS; k++)
    {
      const Seen *s = &g_array_index (seen, Seen, k);
      g_autofree char *text = stack_text (trace, s->stack);
      g_autofree char *head = g_strdup_printf ("%s ×%u", kymo_trace_get_name (trace, s->kind), s->count);
      GtkWidget *caption = gtk_label_new (head);
      GtkWidget *label = gtk_label_new (text);

      gtk_label_set_xalign (GTK_LABEL (caption), 0);
      gtk_widget_add_css_class (caption, "heading");
      gtk_widget_set_margin_start (caption, 12);
      gtk_widget_set_margin_top (caption, 6);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_widget_add_css_class (label, "monospace");
      gtk_widget_set_margin_start (label, 12);
      gtk_widget_set_margin_end (label, 12);
      gtk_box_append (box, caption);
      gtk_box_append (box, label);
    }
  if (seen->len > MAX_STACKS)
    {
      g_autofree char *more = g_strdup_printf (_("… and %u other stacks"), seen->len - MAX_STACKS);
      GtkWidget *label = gtk_label_new (more);

      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_widget_set_margin_start (label, 12);
      gtk_box_append (box, label);
    }

  button = gtk_button_new_with_mnemonic (_("Open _Flame Graph of This Range"));
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_set_margin_start (button, 12);
  gtk_widget_set_margin_top (button, 6);
  range = g_new0 (Range, 1);
  range->session = g_object_ref (session);
  range->start = span->start;
  range->end = span->end;
  g_signal_connect_data (button, "clicked", G_CALLBACK (open_flame_graph), range, (GClosureNotify) (void (*) (void)) range_free, 0);
  gtk_box_append (box, button);
  return total;
}
