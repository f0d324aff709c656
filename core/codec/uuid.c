/*
** uuid.c: 128-bit values as 8-4-4-4-12 hex (RFC 9562's text form).
*/
#include "codecs.h"

static const char hexd[] = IDS_DIGITS_HEX;

size_t ids_uuid_encode (const ids_codec *c, const ids_value *v,
                        unsigned bits, char *out) {
  uint8_t b[16];
  size_t n = 0;
  (void)c; (void)bits;
  ids_value_to_bytes(v, b, 16);
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[n++] = '-';
    out[n++] = hexd[b[i] >> 4];
    out[n++] = hexd[b[i] & 15];
  }
  out[n] = '\0';
  return n;
}

int ids_uuid_decode (const ids_codec *c, const char *s, size_t n,
                     unsigned bits, ids_value *v, ids_error *e) {
  uint8_t b[16];
  size_t j = 0;
  (void)c; (void)bits;
  if (n != 36)
    return ids_fail(e, IDS_EINVAL, "%zu characters, a UUID has 36", n);
  for (size_t i = 0; i < 36; ) {
    int hi, lo;
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-')
        return ids_fail(e, IDS_EINVAL, "expected '-' at %zu", i + 1);
      i++;
      continue;
    }
    if ((hi = ids__hexval((unsigned char)s[i])) < 0 ||
        (lo = ids__hexval((unsigned char)s[i + 1])) < 0)
      return ids_fail(e, IDS_EINVAL, "bad hex digit at %zu",
                      hi < 0 ? i + 1 : i + 2);
    b[j++] = (uint8_t)(hi << 4 | lo);
    i += 2;
  }
  ids_value_from_bytes(v, b, 16);
  return IDS_OK;
}
