/* kymo-track-list-model.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-track-list-model"

#include "config.h"

#include <string.h>

#include "kymo-track-list-model.h"

typedef struct {
  guint track;
  guint indent;
} Entry;

struct _KymoTrackListModel
{
  GObject       parent_instance;
  KymoSession  *session;
  GArray       *entries;   /* Entry */
  KymoTrackRow **rows;     /* [n_tracks], made on demand */
  guint8       *listed;    /* [n_tracks], scratch */
  gulong        changed_id;
};

static void list_model_iface_init (GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (KymoTrackListModel, kymo_track_list_model, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL, list_model_iface_init))

static GType
get_item_type (GListModel *model)
{
  return KYMO_TYPE_TRACK_ROW;
}

static guint
get_n_items (GListModel *model)
{
  return KYMO_TRACK_LIST_MODEL (model)->entries->len;
}

static gpointer
get_item (GListModel *model,
          guint       position)
{
  KymoTrackListModel *self = KYMO_TRACK_LIST_MODEL (model);
  const Entry *entry;

  if (position >= self->entries->len)
    return NULL;
  entry = &g_array_index (self->entries, Entry, position);
  if (self->rows[entry->track] == NULL ||
      kymo_track_row_get_indent (self->rows[entry->track]) != entry->indent)
    {
      g_clear_object (&self->rows[entry->track]);
      self->rows[entry->track] = kymo_track_row_new (self->session, entry->track, entry->indent);
    }
  return g_object_ref (self->rows[entry->track]);
}

static void
list_model_iface_init (GListModelInterface *iface)
{
  iface->get_item_type = get_item_type;
  iface->get_n_items = get_n_items;
  iface->get_item = get_item;
}

static gboolean
subtree_matches (KymoTrackListModel *self,
                 guint               id,
                 gboolean            ancestor_matches,
                 guint8             *shown)
{
  KymoTrace *trace = kymo_session_get_trace (self->session);
  KymoTrack *track = kymo_trace_get_track (trace, id);
  gboolean matches = ancestor_matches || kymo_session_track_matches_filter (self->session, id);
  gboolean any = matches;
  const guint *children;
  guint n_children;

  children = kymo_track_get_children (track, &n_children);
  for (guint i = 0; i < n_children; i++)
    any |= subtree_matches (self, children[i], matches, shown);
  shown[id] = any;
  return any;
}

static void
append_subtree (KymoTrackListModel *self,
                GArray             *entries,
                guint               id,
                guint               indent,
                const guint8       *shown)
{
  KymoTrack *track = kymo_trace_get_track (kymo_session_get_trace (self->session), id);
  const guint *children;
  guint n_children;
  Entry entry = { id, indent };

  if (!shown[id])
    return;
  if (!self->listed[id])
    {
      self->listed[id] = TRUE;
      g_array_append_val (entries, entry);
    }
  /* As the timeline: a collapsed group keeps its row, its tracks go. */
  if (kymo_track_get_kind (track) == KYMO_TRACK_GROUP && kymo_session_get_group_collapsed (self->session, id))
    return;
  children = kymo_track_get_children (track, &n_children);
  for (guint i = 0; i < n_children; i++)
    append_subtree (self, entries, children[i], indent + 1, shown);
}

static GArray *
build_entries (KymoTrackListModel *self)
{
  KymoTrace *trace = kymo_session_get_trace (self->session);
  guint n_tracks = kymo_trace_get_n_tracks (trace);
  g_autofree guint8 *shown = g_new0 (guint8, MAX (n_tracks, 1));
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (Entry));
  const guint *roots, *pinned;
  guint n_roots, n_pinned;

  memset (self->listed, 0, MAX (n_tracks, 1));
  roots = kymo_trace_get_root_tracks (trace, &n_roots);
  for (guint i = 0; i < n_roots; i++)
    subtree_matches (self, roots[i], FALSE, shown);

  pinned = kymo_session_get_pinned_tracks (self->session, &n_pinned);
  for (guint i = 0; i < n_pinned; i++)
    if (shown[pinned[i]])
      {
        Entry entry = { pinned[i], 0 };
        self->listed[pinned[i]] = TRUE;
        g_array_append_val (entries, entry);
      }
  for (guint i = 0; i < n_roots; i++)
    append_subtree (self, entries, roots[i], 0, shown);
  return entries;
}

static void
on_tracks_changed (KymoTrackListModel *self)
{
  g_autoptr(GArray) entries = build_entries (self);
  guint old_len = self->entries->len;
  guint n_tracks = kymo_trace_get_n_tracks (kymo_session_get_trace (self->session));

  for (guint i = 0; i < n_tracks; i++)
    if (self->rows[i])
      kymo_track_row_sync (self->rows[i]);

  if (entries->len == old_len &&
      memcmp (entries->data, self->entries->data, old_len * sizeof (Entry)) == 0)
    return;
  g_array_unref (self->entries);
  self->entries = g_steal_pointer (&entries);
  g_list_model_items_changed (G_LIST_MODEL (self), 0, old_len, self->entries->len);
}

static void
kymo_track_list_model_dispose (GObject *object)
{
  KymoTrackListModel *self = (KymoTrackListModel *) object;

  if (self->session)
    {
      guint n_tracks = kymo_trace_get_n_tracks (kymo_session_get_trace (self->session));
      g_clear_signal_handler (&self->changed_id, self->session);
      for (guint i = 0; i < n_tracks && self->rows; i++)
        g_clear_object (&self->rows[i]);
    }
  g_clear_pointer (&self->rows, g_free);
  g_clear_pointer (&self->listed, g_free);
  g_clear_pointer (&self->entries, g_array_unref);
  g_clear_object (&self->session);
  G_OBJECT_CLASS (kymo_track_list_model_parent_class)->dispose (object);
}

static void
kymo_track_list_model_class_init (KymoTrackListModelClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = kymo_track_list_model_dispose;
}

static void
kymo_track_list_model_init (KymoTrackListModel *self)
{
}

KymoTrackListModel *
kymo_track_list_model_new (KymoSession *session)
{
  KymoTrackListModel *self;
  guint n_tracks;

  g_return_val_if_fail (KYMO_IS_SESSION (session), NULL);

  self = g_object_new (KYMO_TYPE_TRACK_LIST_MODEL, NULL);
  self->session = g_object_ref (session);
  n_tracks = kymo_trace_get_n_tracks (kymo_session_get_trace (session));
  self->rows = g_new0 (KymoTrackRow *, MAX (n_tracks, 1));
  self->listed = g_new0 (guint8, MAX (n_tracks, 1));
  self->entries = build_entries (self);
  self->changed_id = g_signal_connect_swapped (session, "tracks-changed", G_CALLBACK (on_tracks_changed), self);
  return self;
}

guint
kymo_track_list_model_get_track (KymoTrackListModel *self,
                                 guint               position)
{
  g_return_val_if_fail (KYMO_IS_TRACK_LIST_MODEL (self), KYMO_NO_TRACK);

  if (position >= self->entries->len)
    return KYMO_NO_TRACK;
  return g_array_index (self->entries, Entry, position).track;
}
