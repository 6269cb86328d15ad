/* kymo-make-demo.c: writes the ATF session `make run` opens
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A made-up photo viewer, "lumen", traced for two seconds: the main thread
 * opens an album (with register and stack snapshots), the renderer draws
 * frames, the I/O worker reads a settings file whose parser throws, and a
 * decoder thread is still waiting for work when the trace ends.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "kymo-atf-builder.h"

#define PID        31337
#define T0         G_GUINT64_CONSTANT (812345000000)
#define MS         G_GUINT64_CONSTANT (1000000)
#define US         G_GUINT64_CONSTANT (1000)

typedef struct {
  const char *module;
  const char *name;
} Symbol;

static const char * const modules[] = {
  "/usr/bin/lumen",
  "/usr/lib/x86_64-linux-gnu/liblumen-render.so.2",
  "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1",
};

/* Per module, in registration order (symbol_index from 1). */
static const Symbol symbols[] = {
  { "/usr/bin/lumen", "main" },
  { "/usr/bin/lumen", "lumen_app_run" },
  { "/usr/bin/lumen", "lumen_main_loop_iterate" },
  { "/usr/bin/lumen", "lumen_window_handle_event" },
  { "/usr/bin/lumen", "lumen_album_open" },
  { "/usr/bin/lumen", "lumen_album_scan_folder" },
  { "/usr/bin/lumen", "lumen_thumbnail_request" },
  { "/usr/bin/lumen", "_ZN5lumen6Layout7computeERKNS_4SizeE" },
  { "/usr/bin/lumen", "lumen_text_measure" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-render.so.2", "render_thread_main" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-render.so.2", "render_frame" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-render.so.2", "scene_build" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-render.so.2", "scene_cull" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-render.so.2", "draw_nodes" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-render.so.2", "raster_glyph_run" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-render.so.2", "swapchain_present" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "io_worker_main" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "settings_load" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "file_read_all" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "json_parse_document" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "json_parse_value" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "json_parse_string" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "jpeg_decode_scanlines" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "decoder_wait_for_job" },
  { "/usr/lib/x86_64-linux-gnu/liblumen-io.so.1", "decoder_thread_main" },
};

static guint64
fid (const char *name)
{
  guint index[G_N_ELEMENTS (modules)] = { 0 };

  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    for (guint m = 0; m < G_N_ELEMENTS (modules); m++)
      if (g_str_equal (symbols[i].module, modules[m]))
        {
          index[m]++;
          if (g_str_equal (symbols[i].name, name))
            return ((guint64) kymo_atf_module_id (modules[m]) << 32) | index[m];
        }
  g_error ("no symbol %s", name);
  return 0;
}

/* A thread being written: the open calls, so RETURNs pair with CALLs. */
typedef struct {
  KymoAtfThreadBuilder b;
  guint64 stack[64];
  guint   depth;
  guint64 now;
  gboolean details;   /* record register and stack snapshots */
  guint64 sp;
} Writer;

static void
snapshot (Writer       *w,
          guint32       kind,
          guint64       function_id,
          KymoAtfRegs  *regs,
          guint8       *stack)
{
  memset (regs, 0, sizeof *regs);
  for (guint i = 0; i < 6; i++)
    regs->x[i] = g_random_int_range (0, 2) ? 0x5600c0de0000ull + g_random_int_range (0, 0xFFFF) * 16
                                           : (guint64) g_random_int_range (0, 4096);
  if (kind == KYMO_ATF_RETURN)
    regs->x[0] = g_random_int_range (0, 3) == 0 ? 0 : 1;
  regs->fp = w->sp + 0x40;
  regs->sp = w->sp;
  regs->x[6] = regs->fp;
  regs->x[7] = regs->sp;
  for (guint i = 0; i < 128; i++)
    stack[i] = (guint8) ((function_id >> (8 * (i % 4))) + i * 7);
}

static void
call (Writer     *w,
      const char *name)
{
  guint64 f = fid (name);

  w->stack[w->depth++] = f;
  w->sp -= 0x60;
  if (w->details)
    {
      KymoAtfRegs regs;
      guint8 stack[128];

      snapshot (w, KYMO_ATF_CALL, f, &regs, stack);
      kymo_atf_builder_add_linked (&w->b, KYMO_ATF_PAYLOAD_RING, w->now, f, KYMO_ATF_CALL, w->depth,
                                   &regs, stack, sizeof stack);
    }
  else
    kymo_atf_builder_add_index (&w->b, w->now, f, KYMO_ATF_CALL, w->depth, KYMO_ATF_NO_DETAIL);
  w->now += 150 + g_random_int_range (0, 200);
}

static void
ret (Writer *w)
{
  guint64 f = w->stack[--w->depth];

  if (w->details)
    {
      KymoAtfRegs regs;
      guint8 stack[128];

      snapshot (w, KYMO_ATF_RETURN, f, &regs, stack);
      kymo_atf_builder_add_linked (&w->b, KYMO_ATF_PAYLOAD_RING, w->now, f, KYMO_ATF_RETURN, w->depth + 1,
                                   &regs, stack, sizeof stack);
    }
  else
    kymo_atf_builder_add_index (&w->b, w->now, f, KYMO_ATF_RETURN, w->depth + 1, KYMO_ATF_NO_DETAIL);
  w->sp += 0x60;
  w->now += 120 + g_random_int_range (0, 150);
}

static void
work (Writer  *w,
      guint64  ns)
{
  w->now += ns;
}

static void
leaf (Writer     *w,
      const char *name,
      guint64     ns)
{
  call (w, name);
  work (w, ns);
  ret (w);
}

static void
writer_init (Writer *w,
             guint   thread,
             guint64 start)
{
  memset (w, 0, sizeof *w);
  kymo_atf_builder_init (&w->b, thread, KYMO_ATF_ARCH_X86_64);
  w->now = start;
  w->sp = 0x7ffc3a2e9000ull - thread * 0x100000;
}

static void
main_thread (Writer *w)
{
  call (w, "main");
  call (w, "lumen_app_run");
  for (guint frame = 0; frame < 60; frame++)
    {
      guint64 frame_end = T0 + 20 * MS + frame * 30 * MS;

      call (w, "lumen_main_loop_iterate");
      call (w, "lumen_window_handle_event");
      if (frame == 12)
        {
          /* The user opens an album: record registers and stack for it. */
          w->details = TRUE;
          call (w, "lumen_album_open");
          call (w, "lumen_album_scan_folder");
          for (guint i = 0; i < 8; i++)
            leaf (w, "lumen_thumbnail_request", 900 * US + g_random_int_range (0, 400) * US);
          ret (w);
          ret (w);
          w->details = FALSE;
        }
      call (w, "_ZN5lumen6Layout7computeERKNS_4SizeE");
      for (guint i = 0; i < 3 + frame % 4; i++)
        leaf (w, "lumen_text_measure", 40 * US + g_random_int_range (0, 60) * US);
      ret (w);
      ret (w);
      ret (w);
      if (w->now < frame_end)
        w->now = frame_end;
    }
  ret (w);
  work (w, 2 * MS);
  ret (w);
}

static void
render_thread (Writer *w)
{
  call (w, "render_thread_main");
  for (guint frame = 0; frame < 118; frame++)
    {
      guint64 vsync = T0 + 15 * MS + frame * 16666 * US;

      if (w->now < vsync)
        w->now = vsync;
      call (w, "render_frame");
      call (w, "scene_build");
      leaf (w, "scene_cull", 300 * US + g_random_int_range (0, 300) * US);
      ret (w);
      call (w, "draw_nodes");
      for (guint i = 0; i < 4 + frame % 5; i++)
        leaf (w, "raster_glyph_run", 200 * US + g_random_int_range (0, 500) * US);
      ret (w);
      leaf (w, "swapchain_present", 1 * MS + g_random_int_range (0, 2000) * US);
      ret (w);
    }
  work (w, 3 * MS);
  ret (w);
}

static void
io_thread (Writer *w)
{
  call (w, "io_worker_main");
  work (w, 40 * MS);
  call (w, "settings_load");
  leaf (w, "file_read_all", 6 * MS);
  call (w, "json_parse_document");
  call (w, "json_parse_value");
  leaf (w, "json_parse_string", 200 * US);
  call (w, "json_parse_value");
  call (w, "json_parse_value");
  work (w, 150 * US);
  /* An unterminated string: the parser throws, settings_load catches. */
  kymo_atf_builder_add_index (&w->b, w->now, fid ("json_parse_value"), KYMO_ATF_EXCEPTION, w->depth,
                              KYMO_ATF_NO_DETAIL);
  w->depth = 2;
  work (w, 2 * MS);
  ret (w);
  for (guint i = 0; i < 25; i++)
    {
      work (w, 30 * MS + g_random_int_range (0, 40) * MS);
      leaf (w, "file_read_all", 2 * MS + g_random_int_range (0, 6) * MS);
    }
  ret (w);
}

static void
decoder_thread (Writer *w)
{
  call (w, "decoder_thread_main");
  while (w->now < T0 + 1850 * MS)
    {
      leaf (w, "decoder_wait_for_job", 20 * MS + g_random_int_range (0, 80) * MS);
      call (w, "jpeg_decode_scanlines");
      work (w, 8 * MS + g_random_int_range (0, 10) * MS);
      ret (w);
    }
  /* Still waiting for a job when the trace stops: never returns. */
  call (w, "decoder_wait_for_job");
}

static char *
manifest_text (void)
{
  GString *s = g_string_new ("{\n  \"threads\": [\n");
  guint index[G_N_ELEMENTS (modules)] = { 0 };

  for (guint t = 0; t < 4; t++)
    g_string_append_printf (s, "    {\"id\": %u, \"has_detail\": true}%s\n", t, t < 3 ? "," : "");
  g_string_append (s, "  ],\n  \"time_start_ns\": 0,\n  \"time_end_ns\": 0,\n  \"clock_type\": 1,\n  \"modules\": [\n");
  for (guint m = 0; m < G_N_ELEMENTS (modules); m++)
    g_string_append_printf (s, "    {\"module_id\": %u, \"path\": \"%s\", \"base_address\": \"0x%" G_GINT64_MODIFIER "x\", \"size\": %u}%s\n",
                            kymo_atf_module_id (modules[m]), modules[m],
                            G_GUINT64_CONSTANT (0x55e0a4000000) + m * G_GUINT64_CONSTANT (0x10000000),
                            (m + 1) * 262144, m + 1 < G_N_ELEMENTS (modules) ? "," : "");
  g_string_append (s, "  ],\n  \"symbols\": [\n");
  for (guint i = 0; i < G_N_ELEMENTS (symbols); i++)
    for (guint m = 0; m < G_N_ELEMENTS (modules); m++)
      if (g_str_equal (symbols[i].module, modules[m]))
        {
          guint32 id = kymo_atf_module_id (modules[m]);
          index[m]++;
          g_string_append_printf (s, "    {\"function_id\": \"0x%016" G_GINT64_MODIFIER "x\", \"module_id\": %u, "
                                  "\"symbol_index\": %u, \"name\": \"%s\"}%s\n",
                                  ((guint64) id << 32) | index[m], id, index[m], symbols[i].name,
                                  i + 1 < G_N_ELEMENTS (symbols) ? "," : "");
        }
  g_string_append (s, "  ],\n  \"format_version\": \"2.1\"\n}\n");
  return g_string_free (s, FALSE);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autofree char *pid_dir = NULL;
  g_autofree char *manifest = NULL;
  g_autofree char *manifest_path = NULL;
  void (*threads[]) (Writer *) = { main_thread, render_thread, io_thread, decoder_thread };

  if (argc != 3)
    {
      fprintf (stderr, "usage: %s SESSION-FOLDER STAMP\n", argv[0]);
      return 2;
    }

  /* The same story on every build. */
  g_random_set_seed (20260101);
  pid_dir = g_strdup_printf ("%s/pid_%u", argv[1], PID);
  if (g_mkdir_with_parents (pid_dir, 0755) != 0)
    {
      fprintf (stderr, "%s: cannot create the folder\n", pid_dir);
      return 1;
    }

  for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
    {
      Writer w;

      writer_init (&w, t, T0 + t * 700 * US);
      threads[t] (&w);
      if (!kymo_atf_builder_write (&w.b, pid_dir, TRUE, &error))
        {
          fprintf (stderr, "%s\n", error->message);
          return 1;
        }
      kymo_atf_builder_clear (&w.b);
    }

  manifest = manifest_text ();
  manifest_path = g_build_filename (pid_dir, "manifest.json", NULL);
  if (!g_file_set_contents (manifest_path, manifest, -1, &error) ||
      !g_file_set_contents (argv[2], "", 0, &error))
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  return 0;
}
