/*
** value.c: ID values of up to 160 bits, held as three 64-bit words.
*/
#include <string.h>

#include "idscheme.h"

static uint64_t mask (unsigned bits) {
  return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

uint64_t ids_value_get (const ids_value *v, unsigned shift, unsigned bits) {
  unsigned i = shift / 64, o = shift % 64;
  uint64_t x = v->w[i] >> o;
  if (o != 0 && o + bits > 64 && i < 2)   /* field spans two words */
    x |= v->w[i + 1] << (64 - o);
  return x & mask(bits);
}

void ids_value_set (ids_value *v, unsigned shift, unsigned bits,
                    uint64_t x) {
  unsigned i = shift / 64, o = shift % 64;
  uint64_t m = mask(bits);
  x &= m;
  v->w[i] = (v->w[i] & ~(m << o)) | (x << o);
  if (o != 0 && o + bits > 64 && i < 2) {
    unsigned hi = 64 - o;                  /* bits that went to word i */
    v->w[i + 1] = (v->w[i + 1] & ~(m >> hi)) | (x >> hi);
  }
}

int ids_value_cmp (const ids_value *a, const ids_value *b) {
  for (int i = 2; i >= 0; i--)
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}

void ids_value_to_bytes (const ids_value *v, uint8_t *out, size_t n) {
  for (size_t k = 0; k < n; k++) {         /* k: byte from the right */
    unsigned bit = (unsigned)k * 8;
    out[n - 1 - k] = bit < IDS_MAXBITS ?
                     (uint8_t)(v->w[bit / 64] >> (bit % 64)) : 0;
  }
}

void ids_value_from_bytes (ids_value *v, const uint8_t *in, size_t n) {
  memset(v, 0, sizeof *v);
  for (size_t k = 0; k < n && k < IDS_MAXBYTES; k++) {
    unsigned bit = (unsigned)k * 8;
    v->w[bit / 64] |= (uint64_t)in[n - 1 - k] << (bit % 64);
  }
}

int ids_value_fits (const ids_value *v, unsigned bits) {
  for (unsigned i = 0; i < 3; i++) {
    unsigned lo = i * 64;
    if (bits <= lo) { if (v->w[i]) return 0; }
    else if (bits - lo < 64 && (v->w[i] >> (bits - lo))) return 0;
  }
  return 1;
}

void ids_value_getbytes (const ids_value *v, unsigned shift, unsigned bits,
                         uint8_t *out) {
  size_t n = (bits + 7) / 8;
  for (size_t k = 0; k < n; k++) {        /* k: byte from the right */
    unsigned lo = (unsigned)k * 8, w = bits - lo < 8 ? bits - lo : 8;
    out[n - 1 - k] = (uint8_t)ids_value_get(v, shift + lo, w);
  }
}

void ids_value_setbytes (ids_value *v, unsigned shift, unsigned bits,
                         const uint8_t *in) {
  size_t n = (bits + 7) / 8;
  for (size_t k = 0; k < n; k++) {
    unsigned lo = (unsigned)k * 8, w = bits - lo < 8 ? bits - lo : 8;
    ids_value_set(v, shift + lo, w, in[n - 1 - k]);
  }
}
