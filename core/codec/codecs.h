/*
** codecs.h: the codec families of core/codec/, for schemes to instantiate.
** Internal to libidscheme.
*/
#ifndef IDS_CODECS_H
#define IDS_CODECS_H

#include "../internal.h"

/* Positional numbers in any base up to 65536 (dec, hex, base58, base62,
** Crockford, sortable base64, base-576 emoji).  A digit is `width` bytes. */
typedef struct ids_radix {
  unsigned base;
  unsigned width;             /* bytes per digit: 1, or 4 (emoji) */
  const char *digits;         /* base * width bytes, digit 0 first */
  const char *prefix;         /* written before the digits, or NULL */
  const char *accept[3];      /* prefixes read on decode (NULL-ended) */
  unsigned maxdigits;         /* decode limit, 0: none (leading zeros) */
  int fixed;                  /* pad to, and read exactly, the width that
                                 holds the scheme's largest value */
  unsigned ndigits;           /* or exactly this many digits */
  unsigned shift;             /* write v << shift (low bits read as 0) */
  int fold;                   /* decode letters in either case */
  const char *aliases;        /* pairs "Ii" read the first as the second */
  int16_t rev[256];           /* width 1: byte -> digit, -1 */
  int16_t *rev4;              /* width 4: built by ids_radix_prepare */
  int ready;
} ids_radix;

/* Builds the reverse tables (idempotent). */
int ids_radix_prepare (ids_radix *r);
/* The same as a codec's prepare (param: its ids_radix). */
int ids_radix_codec_prepare (const ids_codec *c);

/* A radix codec named `name` over the ids_radix r, prepared when its
** scheme is registered. */
#define IDS_RADIX_CODEC(name, r) \
  {name, ids_radix_encode, ids_radix_decode, &(r), ids_radix_codec_prepare}
size_t ids_radix_encode (const ids_codec *c, const ids_value *v,
                         unsigned bits, char *out);
int ids_radix_decode (const ids_codec *c, const char *s, size_t n,
                      unsigned bits, ids_value *v, ids_error *e);
/* Digits needed for the largest value of `bits` bits in base b. */
unsigned ids_radix_width (unsigned bits, unsigned base);

/* Four dot-separated 16-bit groups of 1..4 hex digits (64 bits). */
size_t ids_dothex_encode (const ids_codec *c, const ids_value *v,
                          unsigned bits, char *out);
int ids_dothex_decode (const ids_codec *c, const char *s, size_t n,
                       unsigned bits, ids_value *v, ids_error *e);

/* Mnemonicode words, 64 bits as two little-endian 32-bit halves. */
size_t ids_words_encode (const ids_codec *c, const ids_value *v,
                         unsigned bits, char *out);
int ids_words_decode (const ids_codec *c, const char *s, size_t n,
                      unsigned bits, ids_value *v, ids_error *e);
int ids_words_prepare (const ids_codec *c);

/* 128 bits as 8-4-4-4-12 lowercase hex; reads either case. */
size_t ids_uuid_encode (const ids_codec *c, const ids_value *v,
                        unsigned bits, char *out);
int ids_uuid_decode (const ids_codec *c, const char *s, size_t n,
                     unsigned bits, ids_value *v, ids_error *e);

extern const char ids_emoji_digits[576 * 4 + 1];
extern const char *const ids_mn_words[1633];

/* Stock instances: decimal, lowercase hex (unpadded, or padded to the
** scheme's width), octal.  Hex reads either case. */
extern const ids_codec ids_codec_dec, ids_codec_hex, ids_codec_hexfixed,
                       ids_codec_oct;

/* Shared alphabets. */
#define IDS_DIGITS_DEC    "0123456789"
#define IDS_DIGITS_HEX    "0123456789abcdef"
#define IDS_DIGITS_B58 \
  "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
#define IDS_DIGITS_B64URL \
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
#define IDS_DIGITS_CROCKFORD  "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#define IDS_ALIASES_CROCKFORD "I1L1O0"
#define IDS_DIGITS_B32LOWER   "abcdefghijklmnopqrstuvwxyz234567"
#define IDS_DIGITS_B32        "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
#define IDS_DIGITS_B62 \
  "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

#endif
