/* kymo-test-atf-session.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "atf/kymo-atf-builder.h"
#include "kymo-test-atf-session.h"

#define MODULE_PATH "/kymo/test"

static void
write_thread (const char             *pid_dir,
              const KymoTestAtfShape *shape,
              guint64                 module,
              guint                   thread)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (thread + 1);
  g_autofree guint64 *stack = g_new (guint64, MAX (shape->max_depth, 1));
  guint max_depth = MAX (shape->max_depth, 1);
  guint n = shape->events_per_thread;
  guint64 ts = G_GUINT64_CONSTANT (1000000000) + thread * 17;
  KymoAtfThreadBuilder b;
  guint depth = 0;

  kymo_atf_builder_init (&b, thread, KYMO_ATF_ARCH_ARM64);
  for (guint i = 0; i < n; i++)
    {
      guint left = n - i;
      gboolean call = depth == 0 || (depth < max_depth && left > depth && g_rand_int_range (rand, 0, 100) < 52);

      ts += 20 + g_rand_int_range (rand, 0, 200);
      if (shape->exception_every > 0 && i % shape->exception_every == shape->exception_every - 1 && depth > 0)
        {
          kymo_atf_builder_add_index (&b, ts, stack[depth - 1], KYMO_ATF_EXCEPTION, depth, KYMO_ATF_NO_DETAIL);
          continue;
        }
      if (call && left > depth)
        {
          guint64 f = (module << 32) | (guint64) g_rand_int_range (rand, 1, (gint32) MAX (shape->n_functions, 1) + 1);

          stack[depth++] = f;
          kymo_atf_builder_add_index (&b, ts, f, KYMO_ATF_CALL, depth, KYMO_ATF_NO_DETAIL);
        }
      else if (depth > 0)
        {
          kymo_atf_builder_add_index (&b, ts, stack[depth - 1], KYMO_ATF_RETURN, depth, KYMO_ATF_NO_DETAIL);
          depth--;
        }
    }
  if (!kymo_atf_builder_write (&b, pid_dir, TRUE, NULL))
    g_error ("cannot write an ATF session under %s", pid_dir);
  kymo_atf_builder_clear (&b);
}

void
kymo_test_write_atf_session (const char             *pid_dir,
                             const KymoTestAtfShape *shape)
{
  guint64 module = kymo_atf_module_id (MODULE_PATH);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *path = g_build_filename (pid_dir, "manifest.json", NULL);

  g_mkdir_with_parents (pid_dir, 0755);
  g_string_append_printf (s, "{\"threads\":[],\"time_start_ns\":0,\"time_end_ns\":0,\"clock_type\":1,"
                          "\"modules\":[{\"module_id\":%" G_GUINT64_FORMAT ",\"path\":\"" MODULE_PATH "\"}]",
                          module);
  if (shape->symbols)
    {
      g_string_append (s, ",\"symbols\":[");
      for (guint i = 1; i <= MAX (shape->n_functions, 1); i++)
        g_string_append_printf (s, "%s{\"function_id\":\"0x%016" G_GINT64_MODIFIER "x\",\"module_id\":%" G_GUINT64_FORMAT ","
                                "\"symbol_index\":%u,\"name\":\"function_%u\"}",
                                i > 1 ? "," : "", (module << 32) | i, module, i, i);
      g_string_append (s, "]");
    }
  g_string_append (s, ",\"format_version\":\"2.1\"}");
  if (!g_file_set_contents (path, s->str, (gssize) s->len, NULL))
    g_error ("cannot write %s", path);

  for (guint t = 0; t < shape->n_threads; t++)
    write_thread (pid_dir, shape, module, t);
}
