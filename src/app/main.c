/* main.c
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo"

#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "kymo-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(KymoApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  /* Also the name recent files are registered under. */
  g_set_application_name (_("Kymo"));

  app = kymo_application_new ();
  return g_application_run (G_APPLICATION (app), argc, argv);
}
