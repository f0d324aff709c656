/*
** b64.c: base64, standard alphabet, padded: the id-compressor's
** serialized documents, etcd's keys and values.
**
** A document of 4,000 clusters is 150 KB of text, and the reference's
** serialize and deserialize take 0.17 and 0.26 ms: a constant-time coder
** (libsodium's, made for secrets) spends 2-3 ns a character, which is all
** of that budget.  These tables spend a fraction of one: the encoder turns
** 12 bits into two characters with one load, the decoder 4 characters
** into 24 bits with four loads of pre-shifted values (an invalid character
** sets bit 31, tested once per group).  What they accept is what
** libsodium's sodium_base642bin accepts with its original variant: whole
** groups of 4, '=' padding only at the end, no stray bits in the last
** character, no spaces.
*/
#include <endian.h>
#include <string.h>

#include "internal.h"

#define CH(v)  ((v) < 26 ? 'A' + (v) : (v) < 52 ? 'a' + (v) - 26 : \
                (v) < 62 ? '0' + (v) - 52 : (v) == 62 ? '+' : '/')

/* two characters for each 12-bit value */
#define P1(i)     CH((i) >> 6), CH((i) & 63)
#define P4(i)     P1(i), P1((i) + 1), P1((i) + 2), P1((i) + 3)
#define P16(i)    P4(i), P4((i) + 4), P4((i) + 8), P4((i) + 12)
#define P64(i)    P16(i), P16((i) + 16), P16((i) + 32), P16((i) + 48)
#define P256(i)   P64(i), P64((i) + 64), P64((i) + 128), P64((i) + 192)
#define P1024(i)  P256(i), P256((i) + 256), P256((i) + 512), P256((i) + 768)
static const char pairs[8192] = {
  P1024(0), P1024(1024), P1024(2048), P1024(3072)
};

/* a character's 6 bits, or -1 */
#define DV(c)  ((c) >= 'A' && (c) <= 'Z' ? (c) - 'A' : \
                (c) >= 'a' && (c) <= 'z' ? (c) - 'a' + 26 : \
                (c) >= '0' && (c) <= '9' ? (c) - '0' + 52 : \
                (c) == '+' ? 62 : (c) == '/' ? 63 : -1)
/* the same shifted into place for position k of a group; bit 31 if bad */
#define DS(c, k)  (DV(c) < 0 ? 0x80000000u : (uint32_t)DV(c) << (18 - 6 * (k)))
#define D4(c, k)    DS(c, k), DS((c) + 1, k), DS((c) + 2, k), DS((c) + 3, k)
#define D16(c, k)   D4(c, k), D4((c) + 4, k), D4((c) + 8, k), D4((c) + 12, k)
#define D64(c, k)   D16(c, k), D16((c) + 16, k), D16((c) + 32, k), \
                    D16((c) + 48, k)
#define D256(k)     { D64(0, k), D64(64, k), D64(128, k), D64(192, k) }
static const uint32_t dec[4][256] = { D256(0), D256(1), D256(2), D256(3) };

static uint64_t load_be64 (const unsigned char *p) {
  uint64_t x;
  memcpy(&x, p, 8);
  return be64toh(x);
}

static size_t enc_scalar (char *out, const unsigned char *in, size_t n) {
  char *o = out;
  size_t i = 0;
  /* 6 bytes into 8 characters a step, from 8-byte loads */
  for (; i + 8 <= n; i += 6, o += 8) {
    uint64_t x = load_be64(in + i);
    memcpy(o, &pairs[2 * (x >> 52)], 2);
    memcpy(o + 2, &pairs[2 * ((x >> 40) & 0xfff)], 2);
    memcpy(o + 4, &pairs[2 * ((x >> 28) & 0xfff)], 2);
    memcpy(o + 6, &pairs[2 * ((x >> 16) & 0xfff)], 2);
  }
  for (; i + 3 <= n; i += 3, o += 4) {
    uint32_t x = (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2];
    memcpy(o, &pairs[2 * (x >> 12)], 2);
    memcpy(o + 2, &pairs[2 * (x & 0xfff)], 2);
  }
  if (i < n) {                          /* 1 or 2 bytes left: padding */
    uint32_t x = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0);
    memcpy(o, &pairs[2 * (x >> 12)], 2);
    o[2] = i + 1 < n ? pairs[2 * ((x >> 6) & 0xfff) + 1] : '=';
    o[3] = '=';
    o += 4;
  }
  *o = '\0';
  return (size_t)(o - out);
}

/* the last group, with its padding: bytes into out, or -1 */
static int lastgroup (unsigned char *out, const unsigned char *g) {
  uint32_t x;
  int pad = (g[3] == '=') + (g[3] == '=' && g[2] == '=');
  if (pad == 0) {
    x = dec[0][g[0]] | dec[1][g[1]] | dec[2][g[2]] | dec[3][g[3]];
    if (x >> 31) return -1;
    out[0] = (unsigned char)(x >> 16), out[1] = (unsigned char)(x >> 8);
    out[2] = (unsigned char)x;
    return 3;
  }
  x = dec[0][g[0]] | dec[1][g[1]] | (pad == 1 ? dec[2][g[2]] : 0);
  if (x >> 31 || (x & (pad == 1 ? 0xff : 0xffff)) != 0) return -1;
  out[0] = (unsigned char)(x >> 16);
  if (pad == 1) out[1] = (unsigned char)(x >> 8);
  return 3 - pad;
}

static int dec_scalar (unsigned char *out, const char *text, size_t len,
                       size_t *n) {
  const unsigned char *t = (const unsigned char *)text;
  unsigned char *o = out;
  uint32_t bad = 0;
  size_t i;
  int k;
  *n = 0;
  if (len == 0) return 0;
  if (len % 4) return -1;
  /* 8 characters into 6 bytes a step, stored as 8 (2 overwritten next) */
  for (i = 0; i + 8 < len && (size_t)(o - out) + 8 <= len / 4 * 3;
       i += 8, o += 6) {
    uint64_t x = dec[0][t[i]] | dec[1][t[i + 1]] | dec[2][t[i + 2]] |
                 dec[3][t[i + 3]];
    uint64_t y = dec[0][t[i + 4]] | dec[1][t[i + 5]] | dec[2][t[i + 6]] |
                 dec[3][t[i + 7]];
    bad |= (uint32_t)(x | y);
    x = htobe64(x << 40 | y << 16);
    memcpy(o, &x, 8);
  }
  for (; i + 4 < len; i += 4, o += 3) {
    uint32_t x = dec[0][t[i]] | dec[1][t[i + 1]] | dec[2][t[i + 2]] |
                 dec[3][t[i + 3]];
    bad |= x;
    o[0] = (unsigned char)(x >> 16);
    o[1] = (unsigned char)(x >> 8);
    o[2] = (unsigned char)x;
  }
  if (bad >> 31 || (k = lastgroup(o, t + i)) < 0) return -1;
  *n = (size_t)(o - out) + (size_t)k;
  return 0;
}

/* ------------------------------------------------------- SSSE3, AVX2
** 12 bytes into 16 characters and back with byte shuffles (the method of
** Wojciech Muła and Daniel Lemire), decoding 24 at a time with AVX2:
** every x86-64 of the last 15 years has SSSE3, most AVX2; both are
** checked at run time.  The scalar code does the tails and the last
** group. */
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#define SSSE3 __attribute__((target("ssse3")))
#define AVX2  __attribute__((target("avx2")))

SSSE3 static size_t enc_ssse3 (char *out, const unsigned char *in, size_t n) {
  const __m128i split = _mm_set_epi8(10, 11, 9, 10, 7, 8, 6, 7, 4, 5, 3, 4,
                                     1, 2, 0, 1);
  const __m128i shifts = _mm_setr_epi8('a' - 26, '0' - 52, '0' - 52,
    '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52, '0' - 52,
    '0' - 52, '+' - 62, '/' - 63, 'A', 0, 0);
  size_t i = 0;
  char *o = out;
  for (; i + 16 <= n; i += 12, o += 16) {  /* loads 16, uses 12 */
    __m128i x = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(in + i)),
                                 split);
    /* each 32-bit lane: its 4 indexes, one a byte */
    __m128i a = _mm_mulhi_epu16(_mm_and_si128(x, _mm_set1_epi32(0x0fc0fc00)),
                                _mm_set1_epi32(0x04000040));
    __m128i b = _mm_mullo_epi16(_mm_and_si128(x, _mm_set1_epi32(0x003f03f0)),
                                _mm_set1_epi32(0x01000010));
    __m128i idx = _mm_or_si128(a, b);
    /* index -> the offset of its range in `shifts`: 0 for a-z, 1-10
    ** digits, 11 '+', 12 '/', 13 A-Z */
    __m128i k = _mm_subs_epu8(idx, _mm_set1_epi8(51));
    k = _mm_or_si128(k, _mm_and_si128(_mm_cmpgt_epi8(_mm_set1_epi8(26), idx),
                                      _mm_set1_epi8(13)));
    _mm_storeu_si128((__m128i *)o,
                     _mm_add_epi8(idx, _mm_shuffle_epi8(shifts, k)));
  }
  return (size_t)(o - out) + enc_scalar(o, in + i, n - i);
}

/* Decoding: a character is valid if the bits its low nibble selects in
** LO and its high nibble in HI have none in common (bit 0: nibbles 0-1
** and 8-15, never valid; bits 1-6: nibbles 2-7, valid for the low
** nibbles of + /, 0-9, A-O, P-Z, a-o, p-z); its value is itself plus
** ROLL[high nibble, one less for '/'].  Tables, so that a block costs a
** few shuffles (after Muła). */
#define LO_  0x2b, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, 0x03, \
             0x07, 0x55, 0x57, 0x57, 0x57, 0x55
#define HI_  0x01, 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, \
             0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01
#define ROLL_  0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0
#define PACK_  2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1

/* 16 characters into 12 bytes (16 stored, 4 of them scratch); 0 if one
** is not in the alphabet */
SSSE3 static int dec16 (unsigned char *o, const unsigned char *t) {
  const __m128i nib = _mm_set1_epi8(0x0f);
  __m128i c = _mm_loadu_si128((const __m128i *)t);
  __m128i hi = _mm_and_si128(_mm_srli_epi32(c, 4), nib);
  __m128i bad = _mm_and_si128(_mm_shuffle_epi8(_mm_setr_epi8(LO_),
                                               _mm_and_si128(c, nib)),
                              _mm_shuffle_epi8(_mm_setr_epi8(HI_), hi));
  __m128i v;
  if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xffff)
    return 0;
  hi = _mm_add_epi8(hi, _mm_cmpeq_epi8(c, _mm_set1_epi8('/')));
  v = _mm_add_epi8(c, _mm_shuffle_epi8(_mm_setr_epi8(ROLL_), hi));
  v = _mm_maddubs_epi16(v, _mm_set1_epi32(0x01400140));   /* 12 bits a word */
  v = _mm_madd_epi16(v, _mm_set1_epi32(0x00011000));      /* 24 a lane */
  _mm_storeu_si128((__m128i *)o, _mm_shuffle_epi8(v, _mm_setr_epi8(PACK_)));
  return 1;
}

/* The same, 32 characters into 24 bytes with AVX2 (two lanes) */
AVX2 static int dec32 (unsigned char *o, const unsigned char *t) {
  const __m256i nib = _mm256_set1_epi8(0x0f);
  __m256i c = _mm256_loadu_si256((const __m256i *)t);
  __m256i hi = _mm256_and_si256(_mm256_srli_epi32(c, 4), nib);
  __m256i v;
  if (!_mm256_testz_si256(
        _mm256_shuffle_epi8(_mm256_setr_epi8(LO_, LO_), _mm256_and_si256(c, nib)),
        _mm256_shuffle_epi8(_mm256_setr_epi8(HI_, HI_), hi)))
    return 0;
  hi = _mm256_add_epi8(hi, _mm256_cmpeq_epi8(c, _mm256_set1_epi8('/')));
  v = _mm256_add_epi8(c, _mm256_shuffle_epi8(_mm256_setr_epi8(ROLL_, ROLL_),
                                             hi));
  v = _mm256_maddubs_epi16(v, _mm256_set1_epi32(0x01400140));
  v = _mm256_madd_epi16(v, _mm256_set1_epi32(0x00011000));
  v = _mm256_shuffle_epi8(v, _mm256_setr_epi8(PACK_, PACK_));
  _mm_storeu_si128((__m128i *)o, _mm256_castsi256_si128(v));
  _mm_storeu_si128((__m128i *)(o + 12), _mm256_extracti128_si256(v, 1));
  return 1;
}

/* Whole blocks, leaving the last group (padding) and 4 bytes of room for
** the scratch store, then the scalar code. */
SSSE3 static int dec_ssse3 (unsigned char *out, const char *text, size_t len,
                            size_t *n) {
  const unsigned char *t = (const unsigned char *)text;
  size_t i = 0, k;
  for (; i + 16 < len && (i + 16) / 4 * 3 + 4 <= len / 4 * 3; i += 16)
    if (!dec16(out + i / 4 * 3, t + i)) return -1;
  if (len % 4 || dec_scalar(out + i / 4 * 3, text + i, len - i, &k))
    return -1;
  *n = i / 4 * 3 + k;
  return 0;
}

AVX2 static int dec_avx2 (unsigned char *out, const char *text, size_t len,
                          size_t *n) {
  const unsigned char *t = (const unsigned char *)text;
  size_t i = 0, k;
  int ok = 1;
  for (; i + 32 < len && (i + 32) / 4 * 3 + 4 <= len / 4 * 3; i += 32)
    if (!(ok = dec32(out + i / 4 * 3, t + i))) break;
  /* GCC 12 leaves the upper halves of the ymm registers dirty on the way
  ** out of this loop; every legacy SSE instruction after it (the scalar
  ** tail, the deserializer's float64 checks, the next SSSE3 encode) then
  ** pays for the merge: serialize ran 3x slower after one decode. */
  _mm256_zeroupper();
  if (!ok) return -1;
  if (len % 4 || dec_scalar(out + i / 4 * 3, text + i, len - i, &k))
    return -1;
  *n = i / 4 * 3 + k;
  return 0;
}

static int level (int want) {
  int have = __builtin_cpu_supports("avx2") ? 2 :
             __builtin_cpu_supports("ssse3") ? 1 : 0;
  return want < have ? want : have;
}

size_t ids__b64_encode_at (int want, char *out, const unsigned char *in,
                          size_t n) {
  return level(want) >= 1 ? enc_ssse3(out, in, n) : enc_scalar(out, in, n);
}

int ids__b64_decode_at (int want, unsigned char *out, const char *text,
                       size_t len, size_t *n) {
  *n = 0;
  switch (level(want)) {
  case 2: return dec_avx2(out, text, len, n);
  case 1: return dec_ssse3(out, text, len, n);
  default: return dec_scalar(out, text, len, n);
  }
}

#else

size_t ids__b64_encode_at (int want, char *out, const unsigned char *in,
                          size_t n) {
  (void)want;
  return enc_scalar(out, in, n);
}

int ids__b64_decode_at (int want, unsigned char *out, const char *text,
                       size_t len, size_t *n) {
  (void)want;
  return dec_scalar(out, text, len, n);
}

#endif

size_t ids__b64_encode (char *out, const unsigned char *in, size_t n) {
  return ids__b64_encode_at(2, out, in, n);
}

int ids__b64_decode (unsigned char *out, const char *text, size_t len,
                    size_t *n) {
  return ids__b64_decode_at(2, out, text, len, n);
}
