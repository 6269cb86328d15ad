/* kymo-format-dial9.c: detection, the stream and the tables describe uses
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-dial9"

#include "config.h"

#include <glib/gi18n.h>

#include "kymo-formats.h"
#include "kymo-dial9-files.h"
#include "kymo-dial9-gzip.h"
#include "kymo-dial9-private.h"

static guint
score_head (const guint8 *data,
            gsize         size)
{
  if (size < 4 || memcmp (data, D9_MAGIC, 4) != 0)
    return 0;
  /* An unsupported version is still ours, so that loading says why. */
  return size >= D9_HEADER_SIZE && data[4] == D9_VERSION ? 100 : 80;
}

static guint
detect (KymoInput *input)
{
  const guint8 *data = input->main.data;
  gsize size = input->main.size;
  guint8 head[D9_HEADER_SIZE];
  gsize n;

  if (input->is_dir)
    return d9_files_dir_has_dial9 (input->main.path) ? 90 : 0;
  if (data == NULL)
    return 0;
  if (!d9_is_gzip (data, size))
    return score_head (data, size);
  /* Inflate only the first bytes: the rest waits for load. */
  n = d9_gunzip_head (data, size, head, sizeof head);
  return score_head (head, n);
}

GBytes *
d9_open_stream (KymoLoadJob  *job,
                char        **warning,
                GError      **error)
{
  KymoInput *input = kymo_load_job_get_input (job);

  *warning = NULL;
  if (input->is_dir)
    {
      kymo_load_job_set_error (job, error, KYMO_LOAD_ERROR_UNKNOWN_FORMAT, KYMO_NO_OFFSET,
                               "a dial9 trace is a file, not a folder");
      return NULL;
    }
  if (d9_is_gzip (input->main.data, input->main.size))
    return d9_gunzip (job, input->main.data, input->main.size, warning, error);
  if (input->main.bytes != NULL)
    return g_bytes_ref (input->main.bytes);
  return g_bytes_new_static (input->main.data, input->main.size);
}

D9Data *
d9_data_new (void)
{
  D9Data *d = g_new0 (D9Data, 1);

  d9_registry_init (&d->reg);
  d->checkpoints = g_array_new (FALSE, FALSE, sizeof (D9Checkpoint));
  d->pool_strings = g_array_new (FALSE, FALSE, sizeof (D9PoolString));
  d->pool_stacks = g_array_new (FALSE, FALSE, sizeof (D9PoolStack));
  d->symbols = g_array_new (FALSE, FALSE, sizeof (D9Symbol));
  d->tasks = g_array_new (FALSE, FALSE, sizeof (D9Task));
  d9_map_init (&d->string_map);
  d9_map_init (&d->stack_map);
  d9_map_init (&d->task_map);
  return d;
}

void
d9_data_free (gpointer data)
{
  D9Data *d = data;

  if (d == NULL)
    return;
  g_clear_pointer (&d->bytes, g_bytes_unref);
  d9_registry_clear (&d->reg);
  g_array_unref (d->checkpoints);
  g_array_unref (d->pool_strings);
  g_array_unref (d->pool_stacks);
  g_array_unref (d->symbols);
  g_array_unref (d->tasks);
  d9_map_clear (&d->string_map);
  d9_map_clear (&d->stack_map);
  d9_map_clear (&d->task_map);
  for (guint i = 0; d->pool_chunks != NULL && i < d->pool_chunks->len; i++)
    {
      D9PoolChunk *c = &g_array_index (d->pool_chunks, D9PoolChunk, i);

      d9_map_clear (&c->strings);
      d9_map_clear (&c->stacks);
    }
  g_clear_pointer (&d->pool_chunks, g_array_unref);
  g_free (d);
}

void
d9_data_add_pool_chunk (D9Data  *d,
                        D9Data  *part,
                        guint32  segment_base,
                        guint32  string_base,
                        guint32  stack_base)
{
  D9PoolChunk c = { segment_base, segment_base + part->reg.segment, string_base, stack_base,
                    part->string_map, part->stack_map };

  /* A part starts at a segment header: its segments are numbered from 1. */
  if (d->pool_chunks == NULL)
    d->pool_chunks = g_array_new (FALSE, FALSE, sizeof (D9PoolChunk));
  g_array_append_val (d->pool_chunks, c);
  d9_map_init (&part->string_map);
  d9_map_init (&part->stack_map);
}

/* The merged part's pools that @segment is in, or NULL: the loader's own. */
static const D9PoolChunk *
pool_chunk (D9Data  *d,
            guint32  segment)
{
  const D9PoolChunk *chunks;
  guint lo = 0, hi;

  if (d->pool_chunks == NULL)
    return NULL;
  chunks = (const D9PoolChunk *) (gpointer) d->pool_chunks->data;
  hi = d->pool_chunks->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (chunks[mid].segment_base < segment)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo > 0 && segment <= chunks[lo - 1].segment_last ? &chunks[lo - 1] : NULL;
}

/* Index in pool_strings (@stacks FALSE) or pool_stacks of @pool_id of
 * @segment, or G_MAXUINT32. */
static guint32
pool_index (D9Data   *d,
            guint32   segment,
            guint32   pool_id,
            gboolean  stacks)
{
  const D9PoolChunk *c = pool_chunk (d, segment);
  guint32 i;

  if (c == NULL)
    return d9_map_lookup (stacks ? &d->stack_map : &d->string_map, (guint64) segment << 32 | pool_id);
  i = d9_map_lookup (stacks ? &c->stacks : &c->strings, (guint64) (segment - c->segment_base) << 32 | pool_id);
  return i == G_MAXUINT32 ? i : i + (stacks ? c->stack_base : c->string_base);
}

guint32
d9_data_string_index (D9Data  *d,
                      guint32  segment,
                      guint32  pool_id)
{
  return pool_index (d, segment, pool_id, FALSE);
}

guint32
d9_data_stack_index (D9Data  *d,
                     guint32  segment,
                     guint32  pool_id)
{
  return pool_index (d, segment, pool_id, TRUE);
}

const D9PoolString *
d9_data_pool_string (D9Data  *d,
                     guint32  segment,
                     guint32  pool_id)
{
  guint32 i = d9_data_string_index (d, segment, pool_id);
  return i == G_MAXUINT32 ? NULL : &g_array_index (d->pool_strings, D9PoolString, i);
}

const D9PoolStack *
d9_data_pool_stack (D9Data  *d,
                    guint32  segment,
                    guint32  pool_id)
{
  guint32 i = d9_data_stack_index (d, segment, pool_id);
  return i == G_MAXUINT32 ? NULL : &g_array_index (d->pool_stacks, D9PoolStack, i);
}

guint
d9_data_symbolize (D9Data          *d,
                   guint64          addr,
                   const D9Symbol **first)
{
  const D9Symbol *syms = (const D9Symbol *) (gpointer) d->symbols->data;
  gsize lo = 0, hi = d->symbols->len, start;
  guint n = 0;

  /* First symbol with addr > @addr; the candidates sit just before it. */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (syms[mid].addr <= addr)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    return 0;
  start = lo - 1;
  if (syms[start].addr != addr && addr - syms[start].addr >= syms[start].size)
    return 0;
  /* Every entry for that address: the inlined frames. */
  while (start > 0 && syms[start - 1].addr == syms[start].addr)
    start--;
  while (start + n < d->symbols->len && syms[start + n].addr == syms[start].addr)
    n++;
  *first = &syms[start];
  return n;
}

static gboolean
load (KymoLoadJob  *job,
      KymoTrace    *trace,
      GError      **error)
{
  return d9_load (job, trace, error);
}

static gboolean
dump (KymoLoadJob     *job,
      KymoJsonWriter  *out,
      GError         **error)
{
  return d9_dump (job, out, error);
}

static const char * const mime_types[] = { "application/x-dial9-trace", NULL };
static const char * const patterns[] = { "*.bin", "*.bin.gz", "*.bin.active", NULL };

const KymoFormat kymo_format_dial9 = {
  .name = "dial9",
  .title = N_("dial9 trace"),
  .mime_types = mime_types,
  .patterns = patterns,
  .detect = detect,
  .load = load,
  .dump = dump,
  .describe = d9_describe,
  .preview = KYMO_FORMAT_PREVIEW_PREFIX | KYMO_FORMAT_PREVIEW_FILES,
};
