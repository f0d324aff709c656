/*
** words.c: mnemonicode words for 64-bit values, as RFC 19 writes them:
** two 32-bit halves, low half first, three words each, "a-b-c--d-e-f".
*/
#include <string.h>

#include "codecs.h"

#define NBASE   1626u           /* words usable as digits */
#define HSIZE   4096u           /* open-addressed hash of the base words */

static uint16_t hash[HSIZE];    /* word index + 1; 0 is empty */
static uint64_t keys[NBASE];    /* the word packed into a number */
static uint8_t lens[NBASE];

/* Words are 3..7 letters: pack the lowercase letters into 56 bits. */
static uint64_t pack (const char *s, size_t n) {
  uint64_t k = 0;
  for (size_t i = 0; i < n; i++) k = k << 8 | (unsigned char)(s[i] | 0x20);
  return k;
}

static unsigned slot (uint64_t k) {
  return (unsigned)((k * 0x9E3779B97F4A7C15ull) >> 52);   /* 12 bits */
}

int ids_words_prepare (const ids_codec *c) {
  (void)c;
  static int ready;
  if (ready) return IDS_OK;
  for (unsigned i = 0; i < NBASE; i++) {
    size_t n = strlen(ids_mn_words[i]);
    unsigned h;
    lens[i] = (uint8_t)n;
    keys[i] = pack(ids_mn_words[i], n);
    for (h = slot(keys[i]); hash[h]; h = (h + 1) % HSIZE) ;
    hash[h] = (uint16_t)(i + 1);
  }
  ready = 1;
  return IDS_OK;
}

static int lookup (const char *s, size_t n) {
  uint64_t k;
  if (n < 3 || n > 7) return -1;
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)(s[i] | 0x20);
    if (ch < 'a' || ch > 'z') return -1;
  }
  k = pack(s, n);
  for (unsigned h = slot(k); hash[h]; h = (h + 1) % HSIZE) {
    unsigned i = hash[h] - 1u;
    if (keys[i] == k && lens[i] == n) return (int)i;
  }
  return -1;
}

size_t ids_words_encode (const ids_codec *c, const ids_value *v,
                         unsigned bits, char *out) {
  uint64_t x = v->w[0];
  size_t n = 0;
  (void)c; (void)bits;
  for (int half = 0; half < 2; half++) {
    uint32_t h = (uint32_t)(x >> (32 * half));
    for (int k = 0; k < 3; k++) {
      unsigned w = h % NBASE;
      size_t len = lens[w];
      h /= NBASE;
      memcpy(out + n, ids_mn_words[w], len);
      n += len;
      if (k < 2 || half == 0) out[n++] = '-';
    }
    if (half == 0) out[n++] = '-';
  }
  out[n] = '\0';
  return n;
}

int ids_words_decode (const ids_codec *c, const char *s, size_t n,
                      unsigned bits, ids_value *v, ids_error *e) {
  uint64_t half[2] = {0, 0};
  size_t i = 0;
  (void)c; (void)bits;
  for (int k = 0; k < 6; k++) {
    size_t start;
    int w;
    if (k > 0) {                          /* "-", or "--" between halves */
      if (i == n || s[i] != '-')
        return ids_fail(e, IDS_EINVAL, "%d words, expected 6", k);
      i++;
      if (k == 3 && i < n && s[i] == '-') i++;
    }
    for (start = i; i < n && s[i] != '-'; i++) ;
    w = lookup(s + start, i - start);
    if (w < 0)
      return ids_fail(e, IDS_EINVAL, "word %d \"%.*s\" is not in the list",
                      k + 1, (int)(i - start > 16 ? 16 : i - start),
                      s + start);
    half[k / 3] += (uint64_t)w * (k % 3 == 0 ? 1 : k % 3 == 1 ?
                                  NBASE : NBASE * NBASE);
  }
  if (i != n) return ids_fail(e, IDS_EINVAL, "more than 6 words");
  if (half[0] > 0xffffffffu || half[1] > 0xffffffffu)
    return ids_fail(e, IDS_ERANGE, "words for half %d exceed 32 bits",
                    half[0] > 0xffffffffu ? 1 : 2);
  v->w[0] = half[1] << 32 | half[0];
  v->w[1] = v->w[2] = 0;
  return IDS_OK;
}
