/*
** snowflake.c: Discord-flavour Snowflake.  64 bits: 42 ms since epoch_ms |
** 5 worker | 5 shard | 12 sequence, in SUOU's string forms.
*/
#include "schemes.h"

/* URL-safe base64 of 9 bytes: 12 digits. */
static ids_radix b64 = {
  .base = 64, .width = 1, .digits = IDS_DIGITS_B64URL, .ndigits = 12
};
/* RFC 4648 base32 of the 8 bytes, in Crockford's alphabet: 13 digits, the
** last holding 4 bits and a zero pad bit, so the numeral of v * 2. */
static ids_radix cb32 = {
  .base = 32, .width = 1, .digits = IDS_DIGITS_CROCKFORD, .ndigits = 13,
  .shift = 1, .fold = 1, .aliases = IDS_ALIASES_CROCKFORD
};
/* lowercase base32 numeral, leading zero digits ('a') stripped */
static ids_radix b32l = {
  .base = 32, .width = 1, .digits = IDS_DIGITS_B32LOWER, .fold = 1
};

static const ids_codec c_b64 = IDS_RADIX_CODEC("b64", b64);
static const ids_codec c_cb32 = IDS_RADIX_CODEC("cb32", cb32);
static const ids_codec c_b32l = IDS_RADIX_CODEC("b32l", b32l);

static const ids_optdef params[] = {
  {"epoch_ms", IDS_OPT_INT, 0, IDS_EPOCH_MAX, 1420070400000},
};
static const ids_optdef genopts[] = {
  {"worker", IDS_OPT_INT, 0, 31, 0},
  {"shard", IDS_OPT_INT, 0, 31, 0},
};

static int open (const ids_scheme *d, const ids_optval *p, ids_scheme *out,
                 ids_error *e) {
  (void)e;
  *out = *d;
  out->epoch_ms = p[0].set ? p[0].i : d->epoch_ms;
  return IDS_OK;
}

static const ids_about about_snowflake = {.title = "Discord's Snowflake",
                                          .aliases = {"discord"}};

const ids_scheme ids_snowflake = {
  .name = "snowflake", .bits = 64, .bytes = 8,
  .about = &about_snowflake,
  IDS_FIELDS(
    {.name = "timestamp", .kind = IDS_KIND_TIME, .bits = 42, .shift = 22},
    {.name = "worker", .kind = IDS_KIND_NODE, .bits = 5, .shift = 17},
    {.name = "shard", .kind = IDS_KIND_NODE, .bits = 5, .shift = 12},
    {.name = "sequence", .kind = IDS_KIND_SEQUENCE, .bits = 12, .shift = 0}),
  IDS_CODECS(&ids_codec_dec, &ids_codec_hex, &ids_codec_oct, &c_b64, &c_cb32,
             &c_b32l),
  IDS_PARAMS(params),
  IDS_GENOPTS(genopts),
  .unit = {1000, 1},
  .epoch_ms = 1420070400000,
  .open = open,
};
