/*
** codecs.h: the codec families of core/codec/, for schemes to instantiate.
** Internal to libidscheme.
*/
#ifndef IDS_CODECS_H
#define IDS_CODECS_H

#include "idscheme.h"

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
  int fold;                   /* decode letters in either case */
  const char *aliases;        /* pairs "Ii" read the first as the second */
  int16_t rev[256];           /* width 1: byte -> digit, -1 */
  int16_t *rev4;              /* width 4: built by ids_radix_prepare */
  int ready;
} ids_radix;

/* Builds the reverse tables; ids_init calls it for the built-ins. */
int ids_radix_prepare (ids_radix *r);
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
int ids_words_prepare (void);

extern const char ids_emoji_digits[576 * 4 + 1];
extern const char *const ids_mn_words[1633];

/* Shared alphabets. */
#define IDS_DIGITS_DEC    "0123456789"
#define IDS_DIGITS_HEX    "0123456789abcdef"
#define IDS_DIGITS_B58 \
  "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

#endif
