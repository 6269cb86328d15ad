/* kymo-details-private.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include <string.h>

#include "kymo-details-private.h"
#include "kymo-timeline-renderer.h"
#include "kymo-clock.h"

/* Below this a window cannot be told apart in nanoseconds (as the session). */
#define MIN_WINDOW 10

char *
_kymo_details_format_time (KymoSession *session,
                           KymoTime     ts)
{
  KymoTime start, end;
  g_autofree char *rel = NULL;

  if (ts == KYMO_TIME_NONE)
    return g_strdup ("—");
  if (kymo_session_get_wallclock (session))
    {
      KymoClock clock = kymo_session_get_utc (session) ? KYMO_CLOCK_UTC : KYMO_CLOCK_LOCAL;
      char *abs = kymo_clock_format_absolute (kymo_session_get_trace (session), clock, ts);

      if (abs != NULL)
        return abs;
    }
  kymo_trace_get_time_range (kymo_session_get_trace (session), &start, &end);
  if (start == KYMO_TIME_NONE)
    start = 0;
  rel = kymo_timeline_format_duration (ts - start);
  return g_strdup_printf ("%s%s", ts >= start ? "+" : "", rel);
}

char *
_kymo_details_format_duration (KymoTime duration)
{
  return kymo_timeline_format_duration (duration);
}

char *
_kymo_details_hex_dump (const char *hex)
{
  gsize len = hex ? strlen (hex) : 0;
  gsize n_bytes = len / 2;
  GString *out;

  if (len % 2 != 0)
    return NULL;
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isxdigit (hex[i]))
      return NULL;

  out = g_string_sized_new (n_bytes / 16 * 80 + 80);
  for (gsize line = 0; line < n_bytes; line += 16)
    {
      g_string_append_printf (out, "%04" G_GSIZE_MODIFIER "x  ", line);
      for (gsize i = line; i < line + 16; i++)
        {
          if (i < n_bytes)
            g_string_append_printf (out, "%c%c ", g_ascii_tolower (hex[2 * i]), g_ascii_tolower (hex[2 * i + 1]));
          else
            g_string_append (out, "   ");
          if (i == line + 7)
            g_string_append_c (out, ' ');
        }
      g_string_append_c (out, ' ');
      for (gsize i = line; i < line + 16 && i < n_bytes; i++)
        {
          int byte = g_ascii_xdigit_value (hex[2 * i]) * 16 + g_ascii_xdigit_value (hex[2 * i + 1]);
          g_string_append_c (out, byte >= 0x20 && byte < 0x7f ? (char) byte : '.');
        }
      if (line + 16 < n_bytes)
        g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

void
_kymo_details_copy_text (GtkWidget  *widget,
                         const char *text)
{
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text ? text : "");
}

void
_kymo_details_zoom_to (KymoSession *session,
                       KymoTime     start,
                       KymoTime     end)
{
  KymoTime vstart, vend;

  if (start == KYMO_TIME_NONE)
    return;
  if (end == KYMO_TIME_NONE || end < start)
    end = start;

  if (end > start)
    {
      KymoTime margin = MAX ((end - start) / 10, MIN_WINDOW);
      kymo_session_zoom_to (session, start - margin, end + margin);
      return;
    }
  kymo_session_get_visible_range (session, &vstart, &vend);
  kymo_session_zoom_to (session, start - (vend - vstart) / 2, start - (vend - vstart) / 2 + (vend - vstart));
}

guint
_kymo_details_find_child_track (KymoTrace  *trace,
                                guint       parent,
                                const char *name)
{
  const guint *children;
  guint n_children = 0;

  if (parent >= kymo_trace_get_n_tracks (trace))
    return KYMO_NO_TRACK;
  children = kymo_track_get_children (kymo_trace_get_track (trace, parent), &n_children);
  for (guint i = 0; i < n_children; i++)
    if (g_strcmp0 (kymo_track_get_name (kymo_trace_get_track (trace, children[i])), name) == 0)
      return children[i];
  return KYMO_NO_TRACK;
}

GtkWidget *
_kymo_details_section_title (const char *title)
{
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 4);
  return label;
}

GtkWidget *
_kymo_details_empty_state_new (const char *icon_name,
                               const char *title,
                               const char *description)
{
  GtkWidget *box, *image, *label, *scroller;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_widget_add_css_class (box, "kymo-empty-state");

  image = gtk_image_new_from_icon_name (icon_name);
  gtk_image_set_pixel_size (GTK_IMAGE (image), 32);
  gtk_widget_add_css_class (image, "dim-label");
  gtk_box_append (GTK_BOX (box), image);

  label = gtk_label_new (title);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);

  label = gtk_label_new (description);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_CENTER);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), label);

  /* Even shorter panes scroll rather than clip. */
  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  return scroller;
}
