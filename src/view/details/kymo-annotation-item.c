/* kymo-annotation-item.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include "kymo-annotation-item.h"

struct _KymoAnnotationItem
{
  GObject       parent_instance;

  gboolean      has_ref;
  KymoEventRef  ref;
  KymoTime      start;
  KymoTime      end;
  char         *kind;
  char         *text;
  char         *source;
};

G_DEFINE_FINAL_TYPE (KymoAnnotationItem, kymo_annotation_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_START,
  PROP_END,
  PROP_KIND,
  PROP_TEXT,
  PROP_SOURCE,
  PROP_SEARCH,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
kymo_annotation_item_finalize (GObject *object)
{
  KymoAnnotationItem *self = (KymoAnnotationItem *) object;

  g_free (self->kind);
  g_free (self->text);
  g_free (self->source);
  G_OBJECT_CLASS (kymo_annotation_item_parent_class)->finalize (object);
}

static void
kymo_annotation_item_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  KymoAnnotationItem *self = KYMO_ANNOTATION_ITEM (object);

  switch (prop_id)
    {
    case PROP_START:
      g_value_set_int64 (value, self->start);
      break;
    case PROP_END:
      g_value_set_int64 (value, self->end);
      break;
    case PROP_KIND:
      g_value_set_string (value, self->kind);
      break;
    case PROP_TEXT:
      g_value_set_string (value, self->text);
      break;
    case PROP_SOURCE:
      g_value_set_string (value, self->source);
      break;
    case PROP_SEARCH:
      g_value_take_string (value, g_strjoin (" ", self->kind, self->text, self->source, NULL));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
kymo_annotation_item_class_init (KymoAnnotationItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_annotation_item_finalize;
  object_class->get_property = kymo_annotation_item_get_property;

  properties[PROP_START] =
    g_param_spec_int64 ("start", NULL, NULL, G_MININT64, G_MAXINT64, KYMO_TIME_NONE,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_END] =
    g_param_spec_int64 ("end", NULL, NULL, G_MININT64, G_MAXINT64, KYMO_TIME_NONE,
                        G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TEXT] =
    g_param_spec_string ("text", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SOURCE] =
    g_param_spec_string ("source", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SEARCH] =
    g_param_spec_string ("search", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_annotation_item_init (KymoAnnotationItem *self)
{
}

KymoAnnotationItem *
kymo_annotation_item_new (const KymoEventRef *ref,
                          KymoTime            start,
                          KymoTime            end,
                          const char         *kind,
                          const char         *text,
                          const char         *source)
{
  KymoAnnotationItem *self = g_object_new (KYMO_TYPE_ANNOTATION_ITEM, NULL);

  if (ref)
    {
      self->has_ref = TRUE;
      self->ref = *ref;
    }
  self->start = start;
  self->end = end < start ? start : end;
  self->kind = g_strdup (kind ? kind : "");
  self->text = g_strdup (text ? text : "");
  self->source = g_strdup (source ? source : "");
  return self;
}

const KymoEventRef *
kymo_annotation_item_get_ref (KymoAnnotationItem *self)
{
  g_return_val_if_fail (KYMO_IS_ANNOTATION_ITEM (self), NULL);

  return self->has_ref ? &self->ref : NULL;
}

KymoTime
kymo_annotation_item_get_start (KymoAnnotationItem *self)
{
  g_return_val_if_fail (KYMO_IS_ANNOTATION_ITEM (self), KYMO_TIME_NONE);

  return self->start;
}

KymoTime
kymo_annotation_item_get_end (KymoAnnotationItem *self)
{
  g_return_val_if_fail (KYMO_IS_ANNOTATION_ITEM (self), KYMO_TIME_NONE);

  return self->end;
}

const char *
kymo_annotation_item_get_kind (KymoAnnotationItem *self)
{
  g_return_val_if_fail (KYMO_IS_ANNOTATION_ITEM (self), NULL);

  return self->kind;
}

const char *
kymo_annotation_item_get_text (KymoAnnotationItem *self)
{
  g_return_val_if_fail (KYMO_IS_ANNOTATION_ITEM (self), NULL);

  return self->text;
}

const char *
kymo_annotation_item_get_source (KymoAnnotationItem *self)
{
  g_return_val_if_fail (KYMO_IS_ANNOTATION_ITEM (self), NULL);

  return self->source;
}
