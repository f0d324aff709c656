/*
** flax.c: Flax ID.  96 bits: 40 ms since 2015-01-01Z | 56 random, written
** as 16 characters of sortable base64 (alphabet in ASCII order).
*/
#include "schemes.h"

static ids_radix flax64 = {
  .base = 64, .width = 1, .fixed = 1,
  .digits = "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
};

static const ids_codec c_flax = IDS_RADIX_CODEC("flax", flax64);

static const ids_about about_flax = {.title = "Flax"};

const ids_scheme ids_flax = {
  .name = "flax", .bits = 96, .bytes = 12,
  .about = &about_flax,
  IDS_FIELDS(
    {.name = "timestamp", .kind = IDS_KIND_TIME, .bits = 40, .shift = 56},
    {.name = "random", .kind = IDS_KIND_RANDOM, .bits = 56, .shift = 0}),
  IDS_CODECS(&c_flax, &ids_codec_hexfixed, &ids_codec_dec),
  .unit = {1000, 1},
  .epoch_ms = 1420070400000,
};
