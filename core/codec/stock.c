/*
** stock.c: codecs that many schemes share, as ready-made instances.
*/
#include "codecs.h"

static ids_radix dec = {.base = 10, .width = 1, .digits = IDS_DIGITS_DEC};
static ids_radix hex = {.base = 16, .width = 1, .digits = IDS_DIGITS_HEX,
                        .fold = 1};
static ids_radix hexfixed = {.base = 16, .width = 1,
                             .digits = IDS_DIGITS_HEX, .fold = 1,
                             .fixed = 1};
static ids_radix oct = {.base = 8, .width = 1, .digits = "01234567"};

const ids_codec ids_codec_dec = IDS_RADIX_CODEC("dec", dec);
const ids_codec ids_codec_hex = IDS_RADIX_CODEC("hex", hex);
const ids_codec ids_codec_hexfixed = IDS_RADIX_CODEC("hex", hexfixed);
const ids_codec ids_codec_oct = IDS_RADIX_CODEC("oct", oct);
