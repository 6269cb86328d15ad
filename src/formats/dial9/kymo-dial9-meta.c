/* kymo-dial9-meta.c: metadata events: the trace's metadata and runtimes, and symbols
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include "kymo-dial9-decode.h"


/* The entries of a metadata event at @p (checked when the frame was
 * decoded). */
void
d9_meta_entries (D9Loader *l,
                 gsize     p)
{
  const guint8 *data = l->d->data;
  guint32 n;

  if (G_UNLIKELY (l->spec != NULL))
    {
      /* The trace's metadata is set in file order when the part is
       * merged. */
      g_array_append_val (l->spec->metas, p);
      return;
    }
  n = d9_u32 (data + p);
  p += 4;
  for (guint32 i = 0; i < n; i++)
    {
      guint32 klen = d9_u32 (data + p), vlen;
      g_autofree char *key = g_strndup ((const char *) data + p + 4, klen);
      g_autofree char *value = NULL;

      p += 4 + klen;
      vlen = d9_u32 (data + p);
      value = g_strndup ((const char *) data + p + 4, vlen);
      p += 4 + vlen;
      kymo_trace_set_metadata (l->trace, key, value);

      if (g_str_has_prefix (key, "runtime.") && key[8] != '\0')
        {
          D9Runtime *rt = NULL;
          g_auto(GStrv) ids = g_strsplit (value, ",", -1);

          for (guint r = 0; r < l->runtimes->len && rt == NULL; r++)
            if (g_str_equal (((D9Runtime *) g_ptr_array_index (l->runtimes, r))->name, key + 8))
              rt = g_ptr_array_index (l->runtimes, r);
          if (rt == NULL)
            {
              rt = g_new0 (D9Runtime, 1);
              rt->name = g_strdup (key + 8);
              rt->workers = g_array_new (FALSE, FALSE, sizeof (guint64));
              g_ptr_array_add (l->runtimes, rt);
            }
          for (guint k = 0; ids[k] != NULL && rt->workers->len < 4096; k++)
            {
              guint64 id;
              if (g_ascii_string_to_unsigned (g_strstrip (ids[k]), 10, 0, G_MAXUINT64, &id, NULL))
                g_array_append_val (rt->workers, id);
            }
        }
    }
}

void
d9_meta_event (D9Loader      *l,
               const D9Model *model,
               const guint64 *vals,
               guint64        absent)
{
  if (!d9_field_present (model, D9_ROLE_ENTRIES, absent))
    return;
  d9_meta_entries (l, vals[model->field[D9_ROLE_ENTRIES]]);
}

void
d9_symbol_event (D9Loader      *l,
                 const D9Model *model,
                 const guint64 *vals,
                 guint64        absent)
{
  D9Symbol sym = { 0 };
  const guint8 *data = l->d->data;

  sym.addr = vals[model->field[D9_ROLE_ADDR]];
  if (d9_field_present (model, D9_ROLE_SIZE, absent))
    sym.size = vals[model->field[D9_ROLE_SIZE]];
  if (d9_field_present (model, D9_ROLE_INLINE, absent))
    sym.inline_depth = (guint32) MIN (vals[model->field[D9_ROLE_INLINE]], G_MAXUINT32);
  if (d9_field_present (model, D9_ROLE_LINE, absent))
    sym.line = vals[model->field[D9_ROLE_LINE]];

  if (model->kind == D9_KIND_SYMBOL)
    {
      const D9PoolString *s;

      if (d9_field_present (model, D9_ROLE_SYMBOL, absent) &&
          (s = d9_data_pool_string (l->d, l->d->reg.segment, (guint32) vals[model->field[D9_ROLE_SYMBOL]])))
        {
          sym.name = s->data;
          sym.name_len = s->len;
        }
      if (d9_field_present (model, D9_ROLE_FILE, absent) &&
          (s = d9_data_pool_string (l->d, l->d->reg.segment, (guint32) vals[model->field[D9_ROLE_FILE]])))
        {
          sym.file = s->data;
          sym.file_len = s->len;
        }
    }
  else
    {
      if (d9_field_present (model, D9_ROLE_SYMBOL, absent))
        {
          gsize p = vals[model->field[D9_ROLE_SYMBOL]];
          sym.name_len = d9_u32 (data + p);
          sym.name = data + p + 4;
        }
      if (d9_field_present (model, D9_ROLE_FILE, absent))
        {
          gsize p = vals[model->field[D9_ROLE_FILE]];
          sym.file_len = d9_u32 (data + p);
          sym.file = data + p + 4;
        }
    }
  if (sym.name != NULL)
    g_array_append_val (l->d->symbols, sym);
}
