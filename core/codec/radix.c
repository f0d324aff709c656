/*
** radix.c: positional numbers in any base (dec, hex, base58, base62,
** Crockford base32, sortable base64, base-576 emoji).
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "codecs.h"

/* log2 of a power-of-two base, else 0. */
static unsigned pow2 (unsigned base) {
  if (base < 2 || (base & (base - 1))) return 0;
  return (unsigned)__builtin_ctz(base);
}

unsigned ids_radix_width (unsigned bits, unsigned base) {
  unsigned k = pow2(base);
  if (k) return (bits + k - 1) / k;          /* power of two: exact */
  return (unsigned)ceil(bits / log2((double)base));
}

static void foldcase (ids_radix *r, unsigned char c, int16_t d) {
  if (c >= 'a' && c <= 'z' && r->rev[c - 32] < 0) r->rev[c - 32] = d;
  if (c >= 'A' && c <= 'Z' && r->rev[c + 32] < 0) r->rev[c + 32] = d;
}

/* Emoji digits are F0 9F xx yy: index a 4096-entry table by xx, yy. */
#define EMOJI4(p) ((((unsigned)(unsigned char)(p)[2] & 0x3f) << 6) | \
                   ((unsigned)(unsigned char)(p)[3] & 0x3f))

int ids_radix_prepare (ids_radix *r) {
  if (r->ready) return IDS_OK;
  for (int i = 0; i < 256; i++) r->rev[i] = -1;
  if (r->width == 1) {
    for (unsigned d = 0; d < r->base; d++)
      r->rev[(unsigned char)r->digits[d]] = (int16_t)d;
    if (r->fold)
      for (unsigned d = 0; d < r->base; d++)
        foldcase(r, (unsigned char)r->digits[d], (int16_t)d);
    for (const char *a = r->aliases; a && a[0] && a[1]; a += 2) {
      int16_t d = r->rev[(unsigned char)a[1]];
      r->rev[(unsigned char)a[0]] = d;
      if (r->fold) foldcase(r, (unsigned char)a[0], d);
    }
  }
  else {
    int16_t *t = malloc(4096 * sizeof *t);
    if (t == NULL) return IDS_ENOMEM;
    for (int i = 0; i < 4096; i++) t[i] = -1;
    for (unsigned d = 0; d < r->base; d++)
      t[EMOJI4(r->digits + 4 * d)] = (int16_t)d;
    r->rev4 = t;
  }
  r->ready = 1;
  return IDS_OK;
}

int ids_radix_codec_prepare (const ids_codec *c) {
  return ids_radix_prepare((ids_radix *)(uintptr_t)c->param);
}

/* Digits of a fixed-width form, 0 if the width varies. */
static unsigned fixedwidth (const ids_radix *r, unsigned bits) {
  if (r->ndigits) return r->ndigits;
  return r->fixed ? ids_radix_width(bits + r->shift, r->base) : 0;
}

static void shl (ids_value *v, unsigned k) {     /* k < 64 */
  if (k == 0) return;
  v->w[2] = v->w[2] << k | v->w[1] >> (64 - k);
  v->w[1] = v->w[1] << k | v->w[0] >> (64 - k);
  v->w[0] <<= k;
}

static void shr (ids_value *v, unsigned k) {     /* k < 64 */
  if (k == 0) return;
  v->w[0] = v->w[0] >> k | v->w[1] << (64 - k);
  v->w[1] = v->w[1] >> k | v->w[2] << (64 - k);
  v->w[2] >>= k;
}

/* Divides v by d in place, returns the remainder (values over 64 bits).
** Each step divides 128 bits by 64 with a quotient that fits 64 bits
** (rem < d): x86-64's divq does that in one instruction, where C's
** 128-bit division calls a library routine. */
static uint64_t divword (ids_value *v, uint64_t d) {
  uint64_t rem = 0;
  for (int i = 2; i >= 0; i--) {
#if defined(__x86_64__) && defined(__GNUC__)
    uint64_t q;
    __asm__("divq %4" : "=a"(q), "=d"(rem) : "a"(v->w[i]), "d"(rem), "rm"(d));
    v->w[i] = q;
#else
    unsigned __int128 cur = (unsigned __int128)rem << 64 | v->w[i];
    v->w[i] = (uint64_t)(cur / d);
    rem = (uint64_t)(cur % d);
#endif
  }
  return rem;
}

/* Least significant digit first; a constant divisor for the common bases
** lets the compiler multiply instead of divide. */
#define DIGITS(B) \
  case B: do { uint64_t q = x / B; d[n++] = (uint16_t)(x - q * B); \
               x = q; } while (x); break;

static unsigned digits64 (uint64_t x, unsigned base, uint16_t *d) {
  unsigned n = 0;
  switch (base) {
    DIGITS(10) DIGITS(16) DIGITS(32) DIGITS(58) DIGITS(62) DIGITS(64)
    DIGITS(576)
    default:
      do { d[n++] = (uint16_t)(x % base); x /= base; } while (x);
  }
  return n;
}

/* The same, as one-byte digit characters written backwards before `end`;
** returns the first. */
#define CHARS(B) \
  case B: do { uint64_t q = x / B; *--p = dg[x - q * B]; x = q; } \
          while (x); break;

static char *chars64 (uint64_t x, unsigned base, const char *dg, char *end) {
  char *p = end;
  switch (base) {
    CHARS(10) CHARS(16) CHARS(32) CHARS(58) CHARS(62) CHARS(64)
    default:
      do { *--p = dg[x % base]; x /= base; } while (x);
  }
  return p;
}

/* Digits of a power-of-two base are slices of bits: no division.  Reads
** the bits from the bottom, word by word, and writes at least `w` digits
** backwards from the end; returns how many. */
static size_t bitdigits (const ids_radix *r, const ids_value *t, unsigned k,
                         unsigned w, char *out) {
  unsigned top = 0, nd, avail = 64, wi = 0;
  const uint64_t mask = ((uint64_t)1 << k) - 1;
  uint64_t cur = t->w[0];
  char *p;
  for (int i = 2; i >= 0; i--)              /* bits in use */
    if (t->w[i]) {
      top = 64u * (unsigned)i + 64 - (unsigned)__builtin_clzll(t->w[i]);
      break;
    }
  nd = (top + k - 1) / k;
  if (nd < w) nd = w;
  if (nd == 0) nd = 1;
  p = out + nd;
  for (unsigned i = 0; i < nd; i++) {
    uint64_t d;
    if (avail >= k) {
      d = cur & mask;
      cur >>= k;
      avail -= k;
    }
    else {                                  /* straddles two words */
      uint64_t next = ++wi < 3 ? t->w[wi] : 0;
      d = (cur | next << avail) & mask;
      cur = next >> (k - avail);
      avail = 64 - (k - avail);
    }
    *--p = r->digits[d];
  }
  return nd;
}

size_t ids_radix_encode (const ids_codec *c, const ids_value *v,
                         unsigned bits, char *out) {
  const ids_radix *r = c->param;
  uint16_t d[IDS_TEXTMAX];
  unsigned nd = 0, w = fixedwidth(r, bits);
  size_t n = 0;
  ids_value t;
  /* word by word: v was most likely just written so by a generator, and
  ** a 16-byte load of two 8-byte stores cannot be forwarded (a stall) */
  t.w[0] = __atomic_load_n(&v->w[0], __ATOMIC_RELAXED);
  t.w[1] = __atomic_load_n(&v->w[1], __ATOMIC_RELAXED);
  t.w[2] = __atomic_load_n(&v->w[2], __ATOMIC_RELAXED);
  if (r->prefix) {
    n = strlen(r->prefix);
    memcpy(out, r->prefix, n);
  }
  shl(&t, r->shift);
  if (r->width == 1 && pow2(r->base) && (t.w[1] | t.w[2])) {
    n += bitdigits(r, &t, pow2(r->base), w, out + n);
    out[n] = '\0';
    return n;
  }
  if (t.w[1] == 0 && t.w[2] == 0 && r->width == 1) {
    /* the common case (64-bit IDs): characters straight away, copied
    ** out 32 bytes at once (a fixed size: no call) when they fit */
    char b[96], *end = b + 64, *p = chars64(t.w[0], r->base, r->digits, end);
    size_t len;
    while ((unsigned)(end - p) < w) *--p = r->digits[0];
    len = (size_t)(end - p);
    if (len <= 32 && n + 32 < IDS_TEXTMAX) memcpy(out + n, p, 32);
    else memcpy(out + n, p, len);
    n += len;
    out[n] = '\0';
    return n;
  }
  if (t.w[1] == 0 && t.w[2] == 0)
    nd = digits64(t.w[0], r->base, d);
  else {
    /* g digits at a time: one wide division by base^g, then the digits
    ** of the word-sized remainder (constant divisors); all g of them
    ** while more is left above */
    uint64_t pw = r->base;
    unsigned g = 1;
    while (pw <= UINT64_MAX / r->base) pw *= r->base, g++;
    while (t.w[0] | t.w[1] | t.w[2]) {
      unsigned got = digits64(divword(&t, pw), r->base, d + nd);
      nd += got;
      if (t.w[0] | t.w[1] | t.w[2])
        for (; got < g; got++) d[nd++] = 0;
    }
  }
  while (nd < w) d[nd++] = 0;
  if (r->width == 1)
    while (nd > 0) out[n++] = r->digits[d[--nd]];
  else
    while (nd > 0) {
      memcpy(out + n, r->digits + 4 * d[--nd], 4);
      n += 4;
    }
  out[n] = '\0';
  return n;
}

/* v = v * b + d over the 192 bits of storage (room for pad bits beyond
** 160); 0 if it no longer fits. */
static int muladd (ids_value *v, uint64_t b, uint64_t d) {
  unsigned __int128 carry = d;
  for (int i = 0; i < 3; i++) {
    unsigned __int128 cur = (unsigned __int128)v->w[i] * b + carry;
    v->w[i] = (uint64_t)cur;
    carry = cur >> 64;
  }
  return carry == 0;
}

static int digit (const ids_radix *r, const char *p) {
  if (r->width == 1) return r->rev[(unsigned char)*p];
  if ((unsigned char)p[0] != 0xf0 || (unsigned char)p[1] != 0x9f ||
      ((unsigned char)p[2] & 0xc0) != 0x80 ||
      ((unsigned char)p[3] & 0xc0) != 0x80)
    return -1;
  return r->rev4[EMOJI4(p)];
}

/* The error of a text whose digit at i is none (off: the prefix's length,
** for the position in the whole text) */
static int baddigit (ids_error *e, const char *s, size_t i, size_t off) {
  unsigned char ch = (unsigned char)s[i];
  if (ch >= 0x21 && ch < 0x7f)
    return ids_fail(e, IDS_EINVAL, "'%c' at %zu is not a digit", ch,
                    off + i + 1);
  return ids_fail(e, IDS_EINVAL, "byte 0x%02X at %zu is not a digit", ch,
                  off + i + 1);
}

int ids_radix_decode (const ids_codec *c, const char *s, size_t n,
                      unsigned bits, ids_value *v, ids_error *e) {
  const ids_radix *r = c->param;
  ids_value x = {{0, 0, 0}};
  size_t nd, off = 0;                     /* off: length of the prefix */
  if (r->accept[0]) {
    size_t k = 0, plen = 0;
    for (; r->accept[k]; k++) {
      plen = strlen(r->accept[k]);
      if (n >= plen && memcmp(s, r->accept[k], plen) == 0) break;
    }
    if (r->accept[k] == NULL)
      return ids_fail(e, IDS_EINVAL, "missing prefix \"%s\"", r->accept[0]);
    s += plen;
    n -= plen;
    off = plen;
  }
  if (n == 0) return ids_fail(e, IDS_EINVAL, "no digits");
  if (n % r->width != 0)
    return ids_fail(e, IDS_EINVAL, "not a whole number of digits");
  nd = n / r->width;
  if (fixedwidth(r, bits)) {
    unsigned w = fixedwidth(r, bits);
    if (nd != w)
      return ids_fail(e, IDS_EINVAL, "%zu digits, expected %u", nd, w);
  }
  else if (r->maxdigits && nd > r->maxdigits)
    return ids_fail(e, IDS_EINVAL, "%zu digits, at most %u", nd,
                    r->maxdigits);
  unsigned k = pow2(r->base);
  uint64_t grp = 0, pw = k ? 0 : 1, pwmax = UINT64_MAX / r->base;
  if (bits + r->shift <= 64 && r->width == 1) {
    /* a value of one word, a byte a digit (decimal Snowflakes, hex
    ** ObjectIds): a loop of its own, with nothing else to test.  x * base
    ** overflows exactly when x > pwmax: a compare, where
    ** __builtin_mul_overflow is a 128-bit multiplication in a 32-bit
    ** build (WebAssembly: a library call a digit) */
    uint64_t a = 0;
    for (size_t i = 0; i < n; i++) {
      int d = r->rev[(unsigned char)s[i]];
      if (d < 0) return baddigit(e, s, i, off);
      if (a > pwmax || __builtin_add_overflow(a * r->base, (uint64_t)d, &a))
        goto range;
    }
    x.w[0] = a;
  }
  else {
    /* Wide values take digits in groups: g digits (pw = base^g, below
    ** 2^64) make one word-sized number, and one multiply-add over the three
    ** words takes the group; a power-of-two base shifts its bits in.  grp:
    ** the group's value; pw: base^g (a power of two: its bits, g * k) */
    for (size_t i = 0; i < n; i += r->width) {
      int d = digit(r, s + i);
      if (d < 0) return baddigit(e, s, i, off);
      if (bits + r->shift <= 64) {      /* one word of emoji digits */
        if (x.w[0] > pwmax ||
            __builtin_add_overflow(x.w[0] * r->base, (uint64_t)d, &x.w[0]))
          goto range;
      }
      else if (k) {             /* bits gathered a word at a time (pw < 64) */
        if (pw + k > 63) {
          if (x.w[2] >> (64 - pw)) goto range;
          shl(&x, (unsigned)pw);
          x.w[0] |= grp;
          grp = 0, pw = 0;
        }
        grp = grp << k | (uint64_t)d;
        pw += k;
      }
      else {
        if (pw > pwmax) {
          if (!muladd(&x, pw, grp)) goto range;
          grp = 0, pw = 1;
        }
        grp = grp * r->base + (uint64_t)d;
        pw *= r->base;
      }
    }
  }
  if (k && pw) {
    if (x.w[2] >> (64 - pw)) goto range;
    shl(&x, (unsigned)pw);
    x.w[0] |= grp;
  }
  else if (!k && pw > 1 && !muladd(&x, pw, grp)) goto range;
  if (!ids_value_fits(&x, bits + r->shift)) goto range;
  if (r->shift && (x.w[0] & (((uint64_t)1 << r->shift) - 1)))
    return ids_fail(e, IDS_EINVAL, "the %u pad bit%s at the end must be 0",
                    r->shift, r->shift > 1 ? "s" : "");
  shr(&x, r->shift);
  *v = x;
  return IDS_OK;
range:
  return ids_fail(e, IDS_ERANGE, "value does not fit in %u bits", bits);
}
