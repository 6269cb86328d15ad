/* kymo-application.h
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define KYMO_TYPE_APPLICATION (kymo_application_get_type ())

G_DECLARE_FINAL_TYPE (KymoApplication, kymo_application, KYMO, APPLICATION, AdwApplication)

KymoApplication *kymo_application_new (void);

G_END_DECLS
