/*
** uuid.c: 128-bit values as 8-4-4-4-12 hex (RFC 9562's text form), bare
** or between a head and a tail (its codec row's: "urn:uuid:" for the
** URN, braces for Microsoft's registry form).
*/
#include <string.h>

#include "codecs.h"

static const char hexd[] = IDS_DIGITS_HEX;

/* The head and tail a codec writes around the digits ("" for none). */
static void affixes (const ids_codec *c, const char **head,
                     const char **tail) {
  const ids_codec_row *w = c ? c->param : NULL;
  *head = w && w->head ? w->head : "";
  *tail = w && w->tail ? w->tail : "";
}

static int lower (unsigned char ch) {
  return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch;
}

/* s[0..n) is a in either case. */
static int sameci (const char *s, const char *a, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (lower((unsigned char)s[i]) != lower((unsigned char)a[i])) return 0;
  return 1;
}

size_t ids_uuid_encode (const ids_codec *c, const ids_value *v,
                        unsigned bits, char *out) {
  uint8_t b[16];
  const char *head, *tail;
  size_t n;
  (void)bits;
  affixes(c, &head, &tail);
  n = strlen(head);
  memcpy(out, head, n);
  ids_value_to_bytes(v, b, 16);
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out[n++] = '-';
    out[n++] = hexd[b[i] >> 4];
    out[n++] = hexd[b[i] & 15];
  }
  memcpy(out + n, tail, strlen(tail) + 1);
  return n + strlen(tail);
}

int ids_uuid_decode (const ids_codec *c, const char *s, size_t n,
                     unsigned bits, ids_value *v, ids_error *e) {
  uint8_t b[16];
  size_t j = 0, h, t;
  const char *head, *tail;
  (void)bits;
  affixes(c, &head, &tail);
  h = strlen(head);
  t = strlen(tail);
  if (n != 36 + h + t)
    return ids_fail(e, IDS_EINVAL, "%zu characters, a UUID %shas %zu", n,
                    h ? "in this form " : "", 36 + h + t);
  if (!sameci(s, head, h))
    return ids_fail(e, IDS_EINVAL, "expected '%s' first", head);
  if (!sameci(s + n - t, tail, t))
    return ids_fail(e, IDS_EINVAL, "expected '%s' last", tail);
  s += h;
  for (size_t i = 0; i < 36; ) {
    int hi, lo;
    if (i == 8 || i == 13 || i == 18 || i == 23) {
      if (s[i] != '-')
        return ids_fail(e, IDS_EINVAL, "expected '-' at %zu", h + i + 1);
      i++;
      continue;
    }
    if ((hi = ids__hexval((unsigned char)s[i])) < 0 ||
        (lo = ids__hexval((unsigned char)s[i + 1])) < 0)
      return ids_fail(e, IDS_EINVAL, "bad hex digit at %zu",
                      h + (hi < 0 ? i + 1 : i + 2));
    b[j++] = (uint8_t)(hi << 4 | lo);
    i += 2;
  }
  ids_value_from_bytes(v, b, 16);
  return IDS_OK;
}
