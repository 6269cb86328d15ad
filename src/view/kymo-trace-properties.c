/* kymo-trace-properties.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-trace-properties"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-trace-properties.h"

#include "kymo-clock.h"
#include "kymo-format.h"
#include "kymo-input.h"
#include "kymo-timeline-renderer.h"

struct _KymoTraceProperties
{
  AdwPreferencesWindow  parent_instance;

  KymoTrace            *trace;
};

G_DEFINE_FINAL_TYPE (KymoTraceProperties, kymo_trace_properties, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_TRACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Values are data from the file, not markup. */
static void
add_row (AdwPreferencesGroup *group,
         const char          *title,
         const char          *value)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *valid = g_utf8_make_valid (value != NULL ? value : "", -1);
  g_autofree char *escaped = g_markup_escape_text (valid, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
  adw_preferences_group_add (group, row);
}

static AdwPreferencesGroup *
add_group (AdwPreferencesPage *page,
           const char         *title)
{
  GtkWidget *group = adw_preferences_group_new ();

  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), title);
  adw_preferences_page_add (page, ADW_PREFERENCES_GROUP (group));
  return ADW_PREFERENCES_GROUP (group);
}

static void
add_time_rows (AdwPreferencesGroup *group,
               KymoTrace           *trace)
{
  KymoTime start, end;
  g_autofree char *duration = NULL;
  g_autofree char *wall_start = NULL;
  g_autofree char *wall_end = NULL;

  kymo_trace_get_time_range (trace, &start, &end);
  if (start == KYMO_TIME_NONE)
    {
      add_row (group, _("Time Range"), _("No events"));
      return;
    }
  duration = kymo_timeline_format_duration (end - start);
  add_row (group, _("Duration"), duration);
  wall_start = kymo_clock_format_absolute (trace, KYMO_CLOCK_UTC, start);
  wall_end = kymo_clock_format_absolute (trace, KYMO_CLOCK_UTC, end);
  if (wall_start != NULL && wall_end != NULL)
    {
      g_autofree char *local_start = kymo_clock_format_absolute (trace, KYMO_CLOCK_LOCAL, start);

      add_row (group, _("Start (UTC)"), wall_start);
      add_row (group, _("End (UTC)"), wall_end);
      add_row (group, _("Start (Local Time)"), local_start);
    }
  else
    {
      add_row (group, _("Wall Clock"), kymo_clock_fallback_note (trace, KYMO_CLOCK_UTC));
    }
}

static void
add_count_rows (AdwPreferencesGroup *group,
                KymoTrace           *trace)
{
  guint64 spans, instants, samples, annotations;
  g_autofree char *tracks = g_strdup_printf ("%u", kymo_trace_get_n_tracks (trace));
  g_autofree char *s = NULL, *i = NULL, *c = NULL, *a = NULL;

  kymo_trace_count_events (trace, &spans, &instants, &samples, &annotations);
  s = g_strdup_printf ("%" G_GUINT64_FORMAT, spans);
  i = g_strdup_printf ("%" G_GUINT64_FORMAT, instants);
  c = g_strdup_printf ("%" G_GUINT64_FORMAT, samples);
  a = g_strdup_printf ("%" G_GUINT64_FORMAT, annotations);
  add_row (group, _("Tracks"), tracks);
  add_row (group, _("Spans"), s);
  add_row (group, _("Instants"), i);
  add_row (group, _("Counter Samples"), c);
  add_row (group, _("Annotations"), a);
}

static void
add_file_rows (AdwPreferencesGroup *group,
               KymoTrace           *trace)
{
  KymoInput *input = kymo_trace_get_input (trace);

  if (input == NULL)
    return;
  add_row (group, input->is_dir ? _("Folder") : _("File"), input->main.path);
  for (guint n = 0; input->extra != NULL && n < input->extra->len; n++)
    {
      const KymoInputPart *part = g_ptr_array_index (input->extra, n);

      add_row (group, _("File"), part->path);
    }
}

static void
build (KymoTraceProperties *self)
{
  KymoTrace *trace = self->trace;
  const KymoFormat *format = kymo_trace_get_format (trace);
  const char *variant = kymo_trace_get_variant (trace);
  const char *title = kymo_trace_get_title (trace);
  GtkWidget *page = adw_preferences_page_new ();
  AdwPreferencesGroup *group;
  guint n_metadata = kymo_trace_get_n_metadata (trace);

  adw_preferences_page_set_title (ADW_PREFERENCES_PAGE (page), _("Trace"));
  adw_preferences_page_set_icon_name (ADW_PREFERENCES_PAGE (page), "document-properties-symbolic");

  group = add_group (ADW_PREFERENCES_PAGE (page), _("Trace"));
  if (title != NULL && *title != '\0')
    add_row (group, _("Title"), title);
  add_row (group, _("Format"), format != NULL && format->title != NULL ? _(format->title) : _("Unknown"));
  if (variant != NULL && *variant != '\0')
    add_row (group, _("Variant"), variant);
  add_file_rows (group, trace);

  /* What the recording says about itself (dial9: service, host, …). */
  if (n_metadata > 0)
    {
      group = add_group (ADW_PREFERENCES_PAGE (page), _("Metadata"));
      for (guint n = 0; n < n_metadata; n++)
        {
          const char *key = NULL, *value = NULL;

          kymo_trace_get_nth_metadata (trace, n, &key, &value);
          add_row (group, key, value);
        }
    }

  group = add_group (ADW_PREFERENCES_PAGE (page), _("Time"));
  add_time_rows (group, trace);
  group = add_group (ADW_PREFERENCES_PAGE (page), _("Contents"));
  add_count_rows (group, trace);

  adw_preferences_window_add (ADW_PREFERENCES_WINDOW (self), ADW_PREFERENCES_PAGE (page));
}

static void
kymo_trace_properties_constructed (GObject *object)
{
  KymoTraceProperties *self = KYMO_TRACE_PROPERTIES (object);

  G_OBJECT_CLASS (kymo_trace_properties_parent_class)->constructed (object);
  if (self->trace != NULL)
    build (self);
}

static void
kymo_trace_properties_finalize (GObject *object)
{
  KymoTraceProperties *self = KYMO_TRACE_PROPERTIES (object);

  g_clear_object (&self->trace);
  G_OBJECT_CLASS (kymo_trace_properties_parent_class)->finalize (object);
}

static void
kymo_trace_properties_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  KymoTraceProperties *self = KYMO_TRACE_PROPERTIES (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, self->trace);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_trace_properties_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  KymoTraceProperties *self = KYMO_TRACE_PROPERTIES (object);

  switch (prop_id)
    {
    case PROP_TRACE:
      self->trace = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_trace_properties_class_init (KymoTracePropertiesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = kymo_trace_properties_constructed;
  object_class->finalize = kymo_trace_properties_finalize;
  object_class->get_property = kymo_trace_properties_get_property;
  object_class->set_property = kymo_trace_properties_set_property;

  /* Set once: the dialog describes the trace it was opened on. */
  properties[PROP_TRACE] =
    g_param_spec_object ("trace", NULL, NULL, KYMO_TYPE_TRACE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
kymo_trace_properties_init (KymoTraceProperties *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Trace Properties"));
  gtk_window_set_default_size (GTK_WINDOW (self), 560, 640);
  adw_preferences_window_set_search_enabled (ADW_PREFERENCES_WINDOW (self), FALSE);
}

GtkWidget *
kymo_trace_properties_new (KymoTrace *trace)
{
  g_return_val_if_fail (KYMO_IS_TRACE (trace), NULL);

  return g_object_new (KYMO_TYPE_TRACE_PROPERTIES, "trace", trace, NULL);
}

KymoTrace *
kymo_trace_properties_get_trace (KymoTraceProperties *self)
{
  g_return_val_if_fail (KYMO_IS_TRACE_PROPERTIES (self), NULL);

  return self->trace;
}
