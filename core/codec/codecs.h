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

/* TypeID: a prefix (none, or one that it alone reads), '_', 26 lowercase
** Crockford digits (typeid.c). */
#define IDS_TYPEID_PREFIXMAX  63
typedef struct ids_typeid {
  ids_radix radix;            /* first: the digits */
  char prefix[IDS_TYPEID_PREFIXMAX + 1];   /* "" for none */
} ids_typeid;
int ids_typeid_setprefix (ids_typeid *t, const char *prefix, ids_error *e);
size_t ids_typeid_encode (const ids_codec *c, const ids_value *v,
                          unsigned bits, char *out);
int ids_typeid_decode (const ids_codec *c, const char *s, size_t n,
                       unsigned bits, ids_value *v, ids_error *e);
int ids_typeid_prepare (const ids_codec *c);

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

/* 128 bits as 8-4-4-4-12 lowercase hex; reads either case.  A codec
** whose param is its ids_codec_row writes the row's head and tail around
** it ("urn:uuid:", RFC 9562's URN; "{" and "}", Microsoft's registry
** form) and reads them in either case. */
size_t ids_uuid_encode (const ids_codec *c, const ids_value *v,
                        unsigned bits, char *out);
int ids_uuid_decode (const ids_codec *c, const char *s, size_t n,
                     unsigned bits, ids_value *v, ids_error *e);

extern const char ids_emoji_digits[576 * 4 + 1];
extern const char *const ids_mn_words[1633];

/* ids_codec_make's table: one row per name, which says all there is to
** know about the codec (nothing is read from the name's spelling). */
typedef enum ids_row_form {
  IDS_ROW_NUMBER = 1,         /* the value as a number in the base */
  IDS_ROW_PACKED,             /* RFC 4648: the scheme's bytes, most
                                 significant bit first, zero bits appended
                                 to fill the last digit; no padding */
  IDS_ROW_UUID,               /* 8-4-4-4-12 hex of 128 bits in 16 bytes,
                                 between its head and tail, if any */
  IDS_ROW_TYPEID              /* a number of fixed width after a TypeID
                                 prefix: "<name>" any, "<name>:<prefix>"
                                 that one */
} ids_row_form;

typedef struct ids_codec_row {
  const char *name;           /* also the made codec's name */
  const char *also[4];        /* other names it answers to, NULL-ended */
  ids_row_form form;
  unsigned base;              /* 2..64 (a power of two when packed) */
  const char *digits;         /* base characters, digit 0 first; NULL: given
                                 in the name, "<name>:<alphabet>" */
  int fixed;                  /* a number padded to, and read at, the width
                                 of the scheme's largest value (packed
                                 text always has its bytes' width) */
  int fold;                   /* letters read in either case */
  const char *aliases;        /* pairs "Ii": read the first as the second */
  int sorted;                 /* the alphabet ascends (the text sorts as the
                                 values) */
  const char *head, *tail;    /* uuid form: written before and after the
                                 8-4-4-4-12 digits, read in either case */
} ids_codec_row;

extern const ids_codec_row ids_codec_rows[];
extern const size_t ids_codec_nrows;

/* Refuses (IDS_EINVAL, naming the row and what it lacks) a table with a
** row that cannot be right: an alphabet whose length is not the base or
** with a character twice, a name that two rows (or one, twice) answer to,
** aliases that are digits or alias no digit.  ids_codec_make checks its
** table at first use. */
int ids__codec_rows_check (const ids_codec_row *rows, size_t n, ids_error *e);
/* ids_codec_make over another table (one that passes the check). */
int ids__codec_make_from (const ids_codec_row *rows, size_t n,
                          ids_codec_buf *b, const char *name, unsigned bits,
                          unsigned bytes, ids_error *e);

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
#define IDS_DIGITS_TYPEID     "0123456789abcdefghjkmnpqrstvwxyz"
#define IDS_DIGITS_B32HEX     "0123456789abcdefghijklmnopqrstuv"
/* nanoid's urlAlphabet, in its own order: a digit's value is its place */
#define IDS_DIGITS_NANOID \
  "useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict"
#define IDS_ALIASES_CROCKFORD "I1L1O0"
#define IDS_DIGITS_B32LOWER   "abcdefghijklmnopqrstuvwxyz234567"
#define IDS_DIGITS_B32        "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
#define IDS_DIGITS_B62 \
  "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
/* Python shortuuid's alphabet (base 57: no 0, 1, I, O, l) */
#define IDS_DIGITS_B57 \
  "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
/* Flickr's base58 (npm short-uuid's default): lower case first */
#define IDS_DIGITS_FLICKR58 \
  "123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ"

#endif
