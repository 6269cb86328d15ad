/* kymo-rtc-crc.c: the CRC the RTC writer puts at the end of every Unit
 *
 * Copyright 2026 The Kymo authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define G_LOG_DOMAIN "kymo-format-rtc"

#include "config.h"

#include "kymo-rtc-private.h"

/* Not CRC-32/IEEE: the writer's table is the MSB-first one for 0x04C11DB7,
 * but it shifts right as a reflected CRC does (check value 0x7EAD5C77).
 * The byte step is still linear, so slicing by 16 works as for CRC-32. */
static guint32 crc_tables[16][256];

static gpointer
build_tables (gpointer data)
{
  for (guint i = 0; i < 256; i++)
    {
      guint32 c = (guint32) i << 24;

      for (guint b = 0; b < 8; b++)
        c = (c & 0x80000000u) ? (c << 1) ^ 0x04C11DB7u : c << 1;
      crc_tables[0][i] = c;
    }
  for (guint k = 1; k < 16; k++)
    for (guint i = 0; i < 256; i++)
      {
        guint32 prev = crc_tables[k - 1][i];
        crc_tables[k][i] = (prev >> 8) ^ crc_tables[0][prev & 0xFF];
      }
  return NULL;
}

guint32
kymo_rtc_crc (const guint8 *data,
              gsize         len)
{
  static GOnce once = G_ONCE_INIT;
  guint32 crc = 0xFFFFFFFFu;

  g_once (&once, build_tables, NULL);

  while (len >= 16)
    {
      guint32 a = crc ^ kymo_read_u32le (data);
      guint32 b = kymo_read_u32le (data + 4);
      guint32 c = kymo_read_u32le (data + 8);
      guint32 e = kymo_read_u32le (data + 12);

      crc = crc_tables[15][a & 0xFF] ^ crc_tables[14][(a >> 8) & 0xFF] ^
            crc_tables[13][(a >> 16) & 0xFF] ^ crc_tables[12][a >> 24] ^
            crc_tables[11][b & 0xFF] ^ crc_tables[10][(b >> 8) & 0xFF] ^
            crc_tables[9][(b >> 16) & 0xFF] ^ crc_tables[8][b >> 24] ^
            crc_tables[7][c & 0xFF] ^ crc_tables[6][(c >> 8) & 0xFF] ^
            crc_tables[5][(c >> 16) & 0xFF] ^ crc_tables[4][c >> 24] ^
            crc_tables[3][e & 0xFF] ^ crc_tables[2][(e >> 8) & 0xFF] ^
            crc_tables[1][(e >> 16) & 0xFF] ^ crc_tables[0][e >> 24];
      data += 16;
      len -= 16;
    }
  while (len >= 8)
    {
      guint32 lo = crc ^ kymo_read_u32le (data);
      guint32 hi = kymo_read_u32le (data + 4);

      crc = crc_tables[7][lo & 0xFF] ^ crc_tables[6][(lo >> 8) & 0xFF] ^
            crc_tables[5][(lo >> 16) & 0xFF] ^ crc_tables[4][lo >> 24] ^
            crc_tables[3][hi & 0xFF] ^ crc_tables[2][(hi >> 8) & 0xFF] ^
            crc_tables[1][(hi >> 16) & 0xFF] ^ crc_tables[0][hi >> 24];
      data += 8;
      len -= 8;
    }
  while (len--)
    crc = (crc >> 8) ^ crc_tables[0][(crc ^ *data++) & 0xFF];

  return crc ^ 0xFFFFFFFFu;
}
