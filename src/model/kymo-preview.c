/* kymo-preview.c: which parts of an input make the previews of its load
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-preview"

#include "config.h"

#include <glib/gstdio.h>

#include "kymo-file-order.h"
#include "kymo-input.h"
#include "kymo-preview-private.h"

/* Each preview decodes a part again that the full load decodes anyway: the
 * two parts, 1/64 and 1/16 of the input (of a folder's files: at least one,
 * then at least two), cost the load about 8% more, and the first comes
 * after about 1/64 of the wait. */
static const guint preview_divisors[] = { 64, 16 };

/* A low guess of how much a gzip trace inflates. */
#define GZIP_RATIO 4

/* A folder needs this many files to be cut into parts that grow. */
#define PREVIEW_MIN_FILES 8

static gsize min_size_for_testing;

void
_kymo_preview_set_min_size_for_testing (gsize min_size)
{
  min_size_for_testing = min_size;
}

static gsize
min_size (void)
{
  return min_size_for_testing > 0 ? min_size_for_testing : KYMO_PREVIEW_MIN_SIZE;
}

static void
plan_prefixes (KymoInput *input,
               GPtrArray *plan)
{
  gsize last = 0, weight;

  if (input->main.bytes == NULL)
    return;
  weight = input->main.size;
  if (input->main.size >= 2 && input->main.data[0] == 0x1f && input->main.data[1] == 0x8b)
    weight *= GZIP_RATIO;
  if (weight < min_size ())
    return;
  for (guint i = 0; i < G_N_ELEMENTS (preview_divisors); i++)
    {
      gsize size = input->main.size / preview_divisors[i];
      g_autoptr(GBytes) prefix = NULL;

      if (size == 0 || size <= last)
        continue;
      last = size;
      prefix = g_bytes_new_from_bytes (input->main.bytes, 0, size);
      g_ptr_array_add (plan, kymo_input_new_for_bytes (prefix, input->main.path));
    }
}

/* The order the folder's decoder reads its files in, so that a preview's
 * files are the start of the trace. */
static int
compare_paths (gconstpointer x,
               gconstpointer y)
{
  return kymo_file_path_compare (*(const char * const *) x, *(const char * const *) y);
}

static void
plan_files (KymoInput *input,
            GPtrArray *plan)
{
  g_autoptr(GDir) dir = g_dir_open (input->main.path, 0, NULL);
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  gsize total = 0;
  guint last = 0;

  if (dir == NULL)
    return;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (input->main.path, name, NULL);
      GStatBuf st;

      /* A folder holding folders is a session of its own shape (ATF): its
       * first files are not the start of its trace. */
      if (g_stat (path, &st) != 0 || !S_ISREG (st.st_mode))
        {
          if (g_file_test (path, G_FILE_TEST_IS_DIR))
            return;
          continue;
        }
      /* What the load has to go through: gzip inflates several times. */
      total += (gsize) st.st_size * (g_str_has_suffix (name, ".gz") ? GZIP_RATIO : 1);
      g_ptr_array_add (files, g_steal_pointer (&path));
    }
  if (files->len < PREVIEW_MIN_FILES || total < min_size ())
    return;
  g_ptr_array_sort (files, compare_paths);

  for (guint i = 0; i < G_N_ELEMENTS (preview_divisors); i++)
    {
      guint n = MAX (last + 1, files->len / preview_divisors[i]);
      KymoInput *part;

      if (n <= last || n >= files->len)
        continue;
      last = n;
      part = kymo_input_new_for_paths ((const char * const *) files->pdata, n, NULL);
      if (part == NULL)
        return;
      g_ptr_array_add (plan, part);
    }
}

GPtrArray *
_kymo_preview_plan (KymoInput        *input,
                    const KymoFormat *format)
{
  GPtrArray *plan = g_ptr_array_new_with_free_func ((GDestroyNotify) kymo_input_unref);

  g_return_val_if_fail (input != NULL, plan);
  g_return_val_if_fail (format != NULL, plan);

  /* Several files given together (cores of a Tonbandgerät trace) are not
   * one stream whose start is the start of the trace. */
  if (input->extra != NULL && input->extra->len > 0)
    return plan;
  if (input->is_dir)
    {
      if (format->preview & KYMO_FORMAT_PREVIEW_FILES)
        plan_files (input, plan);
    }
  else if (format->preview & KYMO_FORMAT_PREVIEW_PREFIX)
    plan_prefixes (input, plan);
  return plan;
}
