/* kymo-file-order.c: the order a user numbers files in
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "kymo-file-order.h"

static gboolean
is_digit (char c)
{
  return c >= '0' && c <= '9';
}

int
kymo_file_name_compare (const char *a,
                        const char *b)
{
  while (*a && *b)
    {
      if (is_digit (*a) && is_digit (*b))
        {
          const char *ea = a, *eb = b;
          gsize la, lb;
          int c;

          while (*a == '0' && is_digit (a[1]))
            a++;
          while (*b == '0' && is_digit (b[1]))
            b++;
          for (ea = a; is_digit (*ea); ea++)
            ;
          for (eb = b; is_digit (*eb); eb++)
            ;
          la = ea - a;
          lb = eb - b;
          if (la != lb)
            return la < lb ? -1 : 1;
          if ((c = memcmp (a, b, la)) != 0)
            return c;
          a = ea;
          b = eb;
        }
      else
        {
          if (*a != *b)
            return (guchar) *a < (guchar) *b ? -1 : 1;
          a++;
          b++;
        }
    }
  return *a ? 1 : *b ? -1 : 0;
}

int
kymo_file_path_compare (const char *a,
                        const char *b)
{
  g_autofree char *ba = g_path_get_basename (a);
  g_autofree char *bb = g_path_get_basename (b);
  int c = kymo_file_name_compare (ba, bb);

  return c != 0 ? c : strcmp (a, b);
}
