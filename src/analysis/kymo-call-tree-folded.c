/* kymo-call-tree-folded.c: a call tree as folded stacks ("a;b;c weight" lines)
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-call-tree"

#include "config.h"

#include <errno.h>
#include <string.h>

#include "kymo-call-tree-private.h"

typedef struct {
  char   *stack;
  gint64  weight;
} FoldedLine;

static int
compare_lines (gconstpointer a,
               gconstpointer b)
{
  return strcmp (((const FoldedLine *) a)->stack, ((const FoldedLine *) b)->stack);
}

/* Sorted, merged lines; each stack string is owned by the chunk. */
static GArray *
folded_lines (KymoCallTree  *self,
              GStringChunk  *chunk)
{
  const KymoCallNode *nodes = (const KymoCallNode *) (gpointer) self->nodes->data;
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (FoldedLine));
  g_autoptr(GArray) lens = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autoptr(GString) path = g_string_new (NULL);
  guint out = 0;

  for (guint32 i = 1; i < self->nodes->len; i++)
    {
      guint depth = nodes[i].depth;
      gsize zero = 0;

      if (lens->len == 0)
        g_array_append_val (lens, zero);
      g_array_set_size (lens, depth);
      g_string_truncate (path, g_array_index (lens, gsize, depth - 1));
      if (depth > 1)
        g_string_append_c (path, ';');
      g_string_append (path, nodes[i].name);
      g_array_append_val (lens, path->len);

      if (nodes[i].self > 0)
        {
          FoldedLine line = { g_string_chunk_insert_len (chunk, path->str, path->len), nodes[i].self };

          g_array_append_val (lines, line);
        }
    }
  g_array_sort (lines, compare_lines);
  for (guint k = 0; k < lines->len; k++)
    {
      FoldedLine *line = &g_array_index (lines, FoldedLine, k);

      if (out > 0 && strcmp (g_array_index (lines, FoldedLine, out - 1).stack, line->stack) == 0)
        {
          FoldedLine *prev = &g_array_index (lines, FoldedLine, out - 1);

          prev->weight = _kymo_call_add_sat (prev->weight, line->weight);
          continue;
        }
      g_array_index (lines, FoldedLine, out++) = *line;
    }
  g_array_set_size (lines, out);
  return lines;
}

void
kymo_call_tree_append_folded (KymoCallTree *self,
                              GString      *out)
{
  g_autoptr(GStringChunk) chunk = g_string_chunk_new (4096);
  g_autoptr(GArray) lines = NULL;

  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  lines = folded_lines (self, chunk);
  for (guint k = 0; k < lines->len; k++)
    {
      const FoldedLine *line = &g_array_index (lines, FoldedLine, k);

      g_string_append_printf (out, "%s %" G_GINT64_FORMAT "\n", line->stack, line->weight);
    }
}

gboolean
kymo_call_tree_write_folded (KymoCallTree *self,
                             FILE         *out)
{
  g_autoptr(GStringChunk) chunk = g_string_chunk_new (4096);
  g_autoptr(GArray) lines = NULL;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (out != NULL, FALSE);

  lines = folded_lines (self, chunk);
  for (guint k = 0; k < lines->len; k++)
    {
      const FoldedLine *line = &g_array_index (lines, FoldedLine, k);

      if (fprintf (out, "%s %" G_GINT64_FORMAT "\n", line->stack, line->weight) < 0)
        return FALSE;
    }
  return fflush (out) == 0;
}
