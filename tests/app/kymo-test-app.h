/* kymo-test-app.h: the application the app tests open windows in
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "kymo-application.h"

G_BEGIN_DECLS

/* A registered, held application that opens files and is not unique (each
 * test process has its own); windows may come and go while it stays. */
KymoApplication *kymo_test_app_new (void);

G_END_DECLS
