/*
** fluid.c: FLUID, Flux RFC 19.  64 bits: 40 ms timestamp | 14 generator |
** 10 sequence, with the RFC's text forms and its detection rules.
*/
#include <string.h>

#include "schemes.h"

static ids_radix f58 = {
  .base = 58, .width = 1, .digits = IDS_DIGITS_B58,
  .prefix = "\xc6\x92", .accept = {"\xc6\x92", "f", NULL}, .maxdigits = 12
};
static ids_radix f58plain = {
  .base = 58, .width = 1, .digits = IDS_DIGITS_B58,
  .prefix = "f", .accept = {"\xc6\x92", "f", NULL}, .maxdigits = 12
};
static ids_radix hex = {
  .base = 16, .width = 1, .digits = IDS_DIGITS_HEX,
  .prefix = "0x", .accept = {"0x", NULL}, .fold = 1
};
static ids_radix emoji = {
  .base = 576, .width = 4, .digits = ids_emoji_digits, .maxdigits = 7
};

static const ids_codec c_f58 = IDS_RADIX_CODEC("f58", f58);
static const ids_codec c_hex = IDS_RADIX_CODEC("hex", hex);
static const ids_codec c_dothex = {"dothex", ids_dothex_encode,
                                   ids_dothex_decode, NULL, NULL};
static const ids_codec c_words = {"words", ids_words_encode,
                                  ids_words_decode, NULL, ids_words_prepare};
static const ids_codec c_emoji = IDS_RADIX_CODEC("emoji", emoji);
static const ids_codec c_f58plain = IDS_RADIX_CODEC("f58_plain", f58plain);

/* RFC 19: the first rule that matches picks the form. */
static const ids_codec *detect (const ids_scheme *s, const char *t,
                                size_t n) {
  (void)s;
  if (memchr(t, '.', n)) return &c_dothex;
  if (memchr(t, '-', n)) return &c_words;
  if (t[0] == 'f' || (n >= 2 && (unsigned char)t[0] == 0xc6 &&
                      (unsigned char)t[1] == 0x92))
    return &c_f58;
  if (n >= 4 && n <= 28 && n % 4 == 0 && (unsigned char)t[0] == 0xf0 &&
      (unsigned char)t[1] == 0x9f)
    return &c_emoji;
  if (n >= 2 && t[0] == '0' && t[1] == 'x') return &c_hex;
  return &ids_codec_dec;
}

static const ids_optdef genopts[] = {
  {"generator", IDS_OPT_INT, 0, 16383, 0},
  {"epoch_ms", IDS_OPT_INT, 0, IDS_EPOCH_MAX, 1735689600000},
  {"start_timestamp", IDS_OPT_INT, 0, ((int64_t)1 << 40) - 1, 0},
};

static const ids_about about_fluid = {.title = "FLUID (Flux RFC 19)"};

const ids_scheme ids_fluid = {
  .name = "fluid", .bits = 64, .bytes = 8,
  .about = &about_fluid,
  IDS_FIELDS(
    {.name = "timestamp", .kind = IDS_KIND_TIME, .bits = 40, .shift = 24},
    {.name = "generator", .kind = IDS_KIND_NODE, .bits = 14, .shift = 10},
    {.name = "sequence", .kind = IDS_KIND_SEQUENCE, .bits = 10, .shift = 0}),
  IDS_CODECS(&c_f58, &ids_codec_dec, &c_hex, &c_dothex, &c_words, &c_emoji,
             &c_f58plain),
  IDS_GENOPTS(genopts),
  .unit = {1000, 1},
  .epoch_ms = 1735689600000,
  .detect = detect,
};
