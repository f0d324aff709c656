/*
** dothex.c: 64 bits as four dot-separated 16-bit groups, "0017.e9fb.8df1.6c2e".
*/
#include "codecs.h"

static const char hexd[] = IDS_DIGITS_HEX;

size_t ids_dothex_encode (const ids_codec *c, const ids_value *v,
                          unsigned bits, char *out) {
  uint64_t x = v->w[0];
  char *p = out;
  (void)c; (void)bits;
  for (int g = 3; g >= 0; g--) {
    unsigned h = (unsigned)(x >> (16 * g)) & 0xffff;
    *p++ = hexd[h >> 12]; *p++ = hexd[(h >> 8) & 15];
    *p++ = hexd[(h >> 4) & 15]; *p++ = hexd[h & 15];
    if (g) *p++ = '.';
  }
  *p = '\0';
  return (size_t)(p - out);
}

int ids_dothex_decode (const ids_codec *c, const char *s, size_t n,
                       unsigned bits, ids_value *v, ids_error *e) {
  uint64_t x = 0;
  size_t i = 0;
  (void)c; (void)bits;
  for (int g = 0; g < 4; g++) {
    unsigned h = 0, nd = 0;
    if (g > 0) {
      if (i == n || s[i] != '.')
        return ids_fail(e, IDS_EINVAL, "%d groups, expected 4", g);
      i++;
    }
    for (; i < n && s[i] != '.'; i++, nd++) {
      int d = ids__hexval((unsigned char)s[i]);
      if (d < 0)
        return ids_fail(e, IDS_EINVAL, "bad hex digit at %zu", i + 1);
      if (nd == 4)
        return ids_fail(e, IDS_EINVAL, "group %d has more than 4 digits",
                        g + 1);
      h = h << 4 | (unsigned)d;
    }
    if (nd == 0) return ids_fail(e, IDS_EINVAL, "group %d is empty", g + 1);
    x = x << 16 | h;
  }
  if (i != n) return ids_fail(e, IDS_EINVAL, "more than 4 groups");
  v->w[0] = x; v->w[1] = v->w[2] = 0;
  return IDS_OK;
}
