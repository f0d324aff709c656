/*
** test_b64.c: the core's base64 (core/b64.c: id-compressor documents,
** etcd)
** against libsodium's, which it replaced for speed: at every code level
** (scalar, SSSE3, AVX2: those the CPU has), for every length up to 700,
** the same text out (also encoding in place), the same bytes back, and
** the same verdict on text with any one character replaced by any byte,
** on every padding form, and on truncations.  One exception, a defect
** of libsodium 1.0.18's (Debian 12): it reads every byte from 0x80 up as
** '/'; ours refuses text with such a byte, as any that is not base64.
*/
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idscheme.h"
#include "test.h"
#include "internal.h"

#define MAXN 700
#define TEXTN (MAXN / 3 * 4 + 8)

static int sodium_dec (unsigned char *out, const char *t, size_t len,
                       size_t *n) {
  return sodium_base642bin(out, MAXN + 8, t, len, NULL, n, NULL,
                           sodium_base64_VARIANT_ORIGINAL);
}

/* Our verdict and bytes for t against libsodium's (or a refusal, for a
** byte from 0x80 up). */
static int same (int lv, const char *t, size_t len) {
  static unsigned char a[MAXN + 16], b[MAXN + 16];
  size_t na = 0, nb = 0;
  int ra = ids__b64_decode_at(lv, a, t, len, &na);
  int rb = sodium_dec(b, t, len, &nb);
  for (size_t i = 0; i < len; i++)
    if ((unsigned char)t[i] >= 0x80) return ra != 0;
  if ((ra == 0) != (rb == 0)) return 0;
  return ra != 0 || (na == nb && memcmp(a, b, na) == 0);
}

int main (void) {
  static unsigned char in[MAXN + 16];
  static char ours[TEXTN], ref[TEXTN], t[TEXTN];
  long enc_bad = 0, inplace_bad = 0, dec_bad = 0, verdict_bad = 0, tried = 0;
  /* IDS_TEST_SCALE (valgrind): fewer lengths, every padding case still */
  const char *sc = getenv("IDS_TEST_SCALE");
  double scale = sc && *sc ? atof(sc) : 1;
  size_t maxn = scale >= 1 ? MAXN : MAXN * scale < 64 ? 64 :
                (size_t)(MAXN * scale);
  if (sodium_init() < 0) return 2;
  for (int lv = 0; lv <= 2; lv++)
    for (size_t n = 0; n <= maxn; n++) {
      size_t len;
      randombytes_buf(in, n);
      len = ids__b64_encode_at(lv, ours, in, n);
      sodium_bin2base64(ref, sizeof ref, in, n,
                        sodium_base64_VARIANT_ORIGINAL);
      if (len != strlen(ref) || strcmp(ours, ref) != 0) enc_bad++;
      /* in place: the bytes at the end of the text's room (serialize) */
      memcpy(t + len - n, in, n);
      if (ids__b64_encode_at(lv, t, (unsigned char *)t + len - n, n) != len ||
          memcmp(t, ref, len + 1) != 0)
        inplace_bad++;
      if (!same(lv, ours, len)) dec_bad++;
      /* one character replaced by every byte, at a few places (the last
      ** groups, where padding lives, always) */
      for (int k = 0; k < 6 && len > 0; k++) {
        size_t at = k < 3 ? len - 1 - (size_t)k % len
                          : randombytes_uniform((uint32_t)len);
        for (int c = 0; c < 256; c++) {
          memcpy(t, ours, len);
          t[at] = (char)c;
          tried++;
          verdict_bad += !same(lv, t, len);
        }
      }
      /* truncations and extra padding */
      for (size_t cut = 1; cut <= 5 && cut <= len; cut++) {
        tried++;
        verdict_bad += !same(lv, ours, len - cut);
      }
      memcpy(t, ours, len);
      memcpy(t + len, "====", 4);
      for (size_t extra = 1; extra <= 4; extra++) {
        tried++;
        verdict_bad += !same(lv, t, len + extra);
      }
    }
  CHECKF(enc_bad == 0, "%ld encodings differ from libsodium's", enc_bad);
  CHECKF(inplace_bad == 0, "%ld encodings in place differ from libsodium's",
         inplace_bad);
  CHECKF(dec_bad == 0, "%ld decodings differ from libsodium's", dec_bad);
  CHECKF(verdict_bad == 0, "%ld of %ld altered texts judged otherwise than "
         "by libsodium", verdict_bad, tried);
  printf("3 code levels x %d lengths; %ld altered texts judged as libsodium "
         "does\n", (int)maxn + 1, tried - verdict_bad);
  return t_done();
}
