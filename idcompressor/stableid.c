/*
** stableid.c: UUIDs as 122-bit numbers.  The reference reads a UUID with
** BigInt("0x" + text without dashes): any hex of any length and case, with
** no version or variant check, and drops the version nibble and the two
** variant bits.  Formatting wraps modulo 2^122 and writes canonical v4.
*/
#include <endian.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "idc.h"

#define M(b) ((((idc_u128)1) << (b)) - 1)

/* hex digit values, -1 for anything else (a table: random digits and
** letters would mispredict a chain of comparisons) */
static const signed char HEX[256] = {
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
   0,  1,  2,  3,  4,  5,  6,  7,  8,  9, -1, -1, -1, -1, -1, -1,
  -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
  -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
};

static int hexval (int ch) {
  return HEX[ch & 255];
}

/* BigInt() trims white space around its text, so "0x<hex> " parses: the
** length of the white space or line terminator at p in UTF-8 (JavaScript's
** set: ASCII's, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F,
** U+205F, U+3000, U+FEFF), or 0 */
static size_t jsspace (const unsigned char *p) {
  if (p[0] == ' ' || (p[0] >= '\t' && p[0] <= '\r')) return 1;
  if (p[0] == 0xc2) return p[1] == 0xa0 ? 2 : 0;
  if (p[0] == 0xe1) return p[1] == 0x9a && p[2] == 0x80 ? 3 : 0;
  if (p[0] == 0xe2 && p[1] == 0x80)
    return (p[2] >= 0x80 && p[2] <= 0x8a) || p[2] == 0xa8 || p[2] == 0xa9
           || p[2] == 0xaf ? 3 : 0;
  if (p[0] == 0xe2) return p[1] == 0x81 && p[2] == 0x9f ? 3 : 0;
  if (p[0] == 0xe3) return p[1] == 0x80 && p[2] == 0x80 ? 3 : 0;
  if (p[0] == 0xef) return p[1] == 0xbb && p[2] == 0xbf ? 3 : 0;
  return 0;
}

idc_u128 idc_strip (idc_u128 u) {
  return ((u >> 80) & M(48)) << 74 | ((u >> 64) & 0xfff) << 62 | (u & M(62));
}

/* Hex digits 8 at a time, in the bytes of a 64-bit word (the first in
** the lowest byte), without tables (SWAR): a byte's high bit marks it a
** digit, ['0', '9'], or a letter, ['a', 'f'] after '|= 0x20'; its value is
** its low nibble, plus 9 for a letter (bit 6).  A table took a load per
** digit, a third of recompress. */
#define ONES 0x0101010101010101u

static int hex8 (uint64_t x, uint32_t *out) {
  uint64_t a = x & 0x7f * ONES, lo = a | 0x20 * ONES;
  uint64_t digit = (a + 0x50 * ONES) & ~(a + 0x46 * ONES);
  uint64_t letter = (lo + 0x1f * ONES) & ~(lo + 0x19 * ONES);
  uint64_t v = (a & 0x0f * ONES) + 9 * ((a >> 6) & ONES);
  v = (v << 4 | v >> 8) & 0x00ff00ff00ff00ffu;      /* digit pairs */
  v = (v << 8 | v >> 16) & 0x0000ffff0000ffffu;     /* 4 digits */
  *out = (uint32_t)(v << 16 | v >> 32);
  return ((digit | letter) & ~x & 0x80 * ONES) == 0x80 * ONES;
}

static uint64_t load8 (const char *s) {
  uint64_t x;
  memcpy(&x, s, 8);
  return le64toh(x);
}

static uint64_t load4 (const char *s) {
  uint32_t x;
  memcpy(&x, s, 4);
  return le32toh(x);
}

/* the canonical shape 8-4-4-4-12, read as four words of 8 digits */
static int parse36 (const char *s, idc_u128 *n) {
  uint32_t a, b, c, d;
  if (s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-'
      || s[36] != '\0'
      || !hex8(load8(s), &a) || !hex8(load4(s + 9) | load4(s + 14) << 32, &b)
      || !hex8(load4(s + 19) | load4(s + 24) << 32, &c)
      || !hex8(load8(s + 28), &d))
    return -1;
  *n = idc_strip((idc_u128)((uint64_t)a << 32 | b) << 64
             | ((uint64_t)c << 32 | d));
  return 0;
}

int idc_parse (const char *s, idc_u128 *n, const char *what, ids_error *e) {
  idc_u128 u = 0;
  size_t digits = 0;
  int trailing = 0;
  const char *p;
  if (s == NULL) return ids_fail(e, IDS_EINVAL, "%s: missing", what);
  if (strnlen(s, 37) == 36 && parse36(s, n) == 0) return IDS_OK;
  for (p = s; *p; ) {
    int v = hexval((unsigned char)*p);
    size_t sp;
    if (*p == '-') p++;
    else if (v >= 0 && !trailing) {
      u = (u << 4) | (unsigned)v;   /* bits above 127 fall off, as there */
      digits++;
      p++;
    }
    else if (digits > 0 && (sp = jsspace((const unsigned char *)p)) > 0) {
      trailing = 1;
      p += sp;
    }
    else
      break;
  }
  if (*p || digits == 0) {
    return ids_fail(e, IDS_EINVAL, "%s: '%.60s' is not hexadecimal", what, s);
  }
  *n = idc_strip(u);
  return IDS_OK;
}

#if defined(__SSE2__)
/* u as 8-4-4-4-12 lowercase hex: the 32 digits in two registers at once
** (each nibble a byte: '0' + n, and 39 more for a..f; every x86-64 has
** SSE2), then stored straight from the registers, overlapping, the later
** stores mending the earlier ones.  (Through a buffer, the loads of its
** pieces waited on the 16-byte stores: half of a decompress in C.) */
static void put_uuid (char *out, idc_u128 u) {
  uint64_t hi = __builtin_bswap64((uint64_t)(u >> 64)),
           lo = __builtin_bswap64((uint64_t)u);
  __m128i x = _mm_set_epi64x((long long)lo, (long long)hi);
  __m128i f = _mm_set1_epi8(0x0f);
  __m128i h = _mm_and_si128(_mm_srli_epi16(x, 4), f), l = _mm_and_si128(x, f);
  __m128i a = _mm_unpacklo_epi8(h, l), b = _mm_unpackhi_epi8(h, l);
  __m128i nine = _mm_set1_epi8(9), zero = _mm_set1_epi8('0'),
          gap = _mm_set1_epi8('a' - '0' - 10);
  int32_t w;
  a = _mm_add_epi8(_mm_add_epi8(a, zero),
                   _mm_and_si128(_mm_cmpgt_epi8(a, nine), gap));
  b = _mm_add_epi8(_mm_add_epi8(b, zero),
                   _mm_and_si128(_mm_cmpgt_epi8(b, nine), gap));
  _mm_storeu_si128((__m128i *)(void *)out, a);              /* 0..7 */
  _mm_storeu_si128((__m128i *)(void *)(out + 20), b);       /* 24..35 */
  w = _mm_cvtsi128_si32(_mm_srli_si128(a, 8));
  memcpy(out + 9, &w, 4);                                   /* 9..12 */
  w = _mm_cvtsi128_si32(_mm_srli_si128(a, 12));
  memcpy(out + 14, &w, 4);                                  /* 14..17 */
  w = _mm_cvtsi128_si32(b);
  memcpy(out + 19, &w, 4);                                  /* 19..22 */
}
#else
/* two hex digits per byte value */
static const char PAIRS[513] =
  "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
  "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
  "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
  "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
  "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
  "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
  "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
  "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static void put16 (char *o, uint64_t v) {
  int i;
  for (i = 7; i >= 0; i--) {
    memcpy(o + 2 * i, PAIRS + 2 * (v & 255), 2);
    v >>= 8;
  }
}

/* the digits of u, without dashes yet, at their places */
static void put_uuid (char *out, idc_u128 u) {
  char h[32];
  put16(h, (uint64_t)(u >> 64));
  put16(h + 16, (uint64_t)u);
  memcpy(out, h, 8);
  memcpy(out + 9, h + 8, 4);
  memcpy(out + 14, h + 12, 4);
  memcpy(out + 19, h + 16, 4);
  memcpy(out + 24, h + 20, 12);
}
#endif

void idc_format (idc_u128 n, char *out) {
  put_uuid(out, ((n >> 74) & M(48)) << 80 | (idc_u128)4 << 76
                | ((n >> 62) & 0xfff) << 64 | (idc_u128)2 << 62
                | (n & M(62)));
  out[8] = out[13] = out[18] = out[23] = '-';
  out[36] = '\0';
}

int ids_idc_uuid_numeric (const char *uuid, uint64_t *hi, uint64_t *lo,
                          ids_error *e) {
  idc_u128 n;
  int r = idc_parse(uuid, &n, "uuid", e);
  if (r) return r;
  *hi = (uint64_t)(n >> 64);
  *lo = (uint64_t)n;
  return IDS_OK;
}

int ids_idc_uuid_offset (const char *uuid, int64_t off, char *out,
                         ids_error *e) {
  idc_u128 n;
  int r;
  if (off < 0 || off > IDC_MAX_SAFE)
    return ids_fail(e, IDS_ERANGE, "offset: %lld is not in 0..2^53-1",
                    (long long)off);
  if ((r = idc_parse(uuid, &n, "uuid", e))) return r;
  idc_format(n + (idc_u128)off, out);
  return IDS_OK;
}

int ids_idc_is_stable_id (const char *s) {
  size_t i;
  if (strlen(s) != IDS_IDC_UUID_LEN) return 0;
  for (i = 0; i < IDS_IDC_UUID_LEN; i++) {
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-') return 0;
    }
    else if (i == 14) {
      if (s[i] != '4') return 0;
    }
    else if (i == 19) {
      if (!strchr("89ab", s[i]) || s[i] == '\0') return 0;
    }
    else if (hexval((unsigned char)s[i]) < 0) return 0;
  }
  return 1;
}
