/* kymo-stats-item.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-details"

#include "config.h"

#include "kymo-stats-item.h"

struct _KymoStatsItem
{
  GObject       parent_instance;

  KymoNameStats stats;
  char         *name;  /* stats.name points here */
};

G_DEFINE_FINAL_TYPE (KymoStatsItem, kymo_stats_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_NAME_ID,
  PROP_COUNT,
  PROP_TOTAL,
  PROP_SELF,
  PROP_MIN,
  PROP_MEAN,
  PROP_MAX,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
kymo_stats_item_finalize (GObject *object)
{
  KymoStatsItem *self = (KymoStatsItem *) object;

  g_free (self->name);
  G_OBJECT_CLASS (kymo_stats_item_parent_class)->finalize (object);
}

static void
kymo_stats_item_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  KymoStatsItem *self = KYMO_STATS_ITEM (object);

  switch (prop_id)
    {
    case PROP_NAME:
      g_value_set_string (value, self->stats.name);
      break;
    case PROP_NAME_ID:
      g_value_set_uint (value, self->stats.name_id);
      break;
    case PROP_COUNT:
      g_value_set_uint64 (value, self->stats.count);
      break;
    case PROP_TOTAL:
      g_value_set_int64 (value, self->stats.total);
      break;
    case PROP_SELF:
      g_value_set_int64 (value, self->stats.self);
      break;
    case PROP_MIN:
      g_value_set_int64 (value, self->stats.min);
      break;
    case PROP_MEAN:
      g_value_set_int64 (value, self->stats.mean);
      break;
    case PROP_MAX:
      g_value_set_int64 (value, self->stats.max);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static GParamSpec *
time_pspec (const char *name)
{
  return g_param_spec_int64 (name, NULL, NULL, G_MININT64, G_MAXINT64, 0,
                             G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
}

static void
kymo_stats_item_class_init (KymoStatsItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = kymo_stats_item_finalize;
  object_class->get_property = kymo_stats_item_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME_ID] =
    g_param_spec_uint ("name-id", NULL, NULL, 0, G_MAXUINT32, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_COUNT] =
    g_param_spec_uint64 ("count", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TOTAL] = time_pspec ("total");
  properties[PROP_SELF] = time_pspec ("self");
  properties[PROP_MIN] = time_pspec ("min");
  properties[PROP_MEAN] = time_pspec ("mean");
  properties[PROP_MAX] = time_pspec ("max");
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
kymo_stats_item_init (KymoStatsItem *self)
{
}

KymoStatsItem *
kymo_stats_item_new (const KymoNameStats *stats)
{
  KymoStatsItem *self;

  g_return_val_if_fail (stats != NULL, NULL);

  self = g_object_new (KYMO_TYPE_STATS_ITEM, NULL);
  self->stats = *stats;
  /* A copy: rows may outlive a recomputation (and, in theory, the trace). */
  self->name = g_strdup (stats->name ? stats->name : "");
  self->stats.name = self->name;
  return self;
}

const KymoNameStats *
kymo_stats_item_get_stats (KymoStatsItem *self)
{
  g_return_val_if_fail (KYMO_IS_STATS_ITEM (self), NULL);

  return &self->stats;
}
