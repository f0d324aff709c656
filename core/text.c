/*
** text.c: the road between text and values: find a codec, trim, decode.
*/
#include <string.h>

#include "internal.h"

const ids_codec *ids_codec_find (const ids_scheme *s, const char *name,
                                 size_t len) {
  for (int i = 0; i < s->ncodecs; i++) {
    const char *cn = s->codecs[i]->name;
    if (strlen(cn) == len && memcmp(cn, name, len) == 0) return s->codecs[i];
  }
  return NULL;
}

size_t ids_scheme_encode (const ids_scheme *s, const ids_codec *c,
                   const ids_value *v, char *out) {
  if (c == NULL) c = s->codecs[0];
  return c->encode(c, v, s->bits, out);
}

/* Constants must hold their value (a v4 UUID is no UUIDv7), and the
** scheme may have its own rule (SIQ: an assigned qualifier). */
static int check (const ids_scheme *s, const ids_value *v, ids_error *e) {
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f->kind == IDS_KIND_CONSTANT && !f->loose &&
        ids_field_get(f, v) != f->value)
      return ids_fail(e, IDS_EINVAL, "field %s must be %llu", f->name,
                      (unsigned long long)f->value);
  }
  return s->layout && s->layout->validate ? s->layout->validate(s, v, e) :
         IDS_OK;
}

static int isspace_ascii (unsigned char ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

int ids_scheme_decode (const ids_scheme *s, const ids_codec *c, const char *text,
                size_t n, ids_value *v, ids_error *e) {
  const char *t = text;
  size_t m = n;
  ids_error why;
  int r;
  while (m > 0 && isspace_ascii((unsigned char)t[0])) t++, m--;
  while (m > 0 && isspace_ascii((unsigned char)t[m - 1])) m--;
  if (m == 0)
    return ids_fail(e, IDS_EINVAL, "%s: %s text", s->name,
                    n ? "blank" : "empty");
  if (c == NULL) c = s->detect ? s->detect(s, t, m) : s->codecs[0];
  r = c->decode(c, t, m, s->bits, v, &why);
  if (r == IDS_OK) r = check(s, v, &why);
  if (r != IDS_OK && e) {
    char q[IDS_ERRMAX / 2];
    ids__quote(q, sizeof q, text, n);
    ids_fail(e, r, "%s %s \"%s\": %s", s->name, c->name, q, why.msg);
  }
  return r;
}

int ids_scheme_from_bytes (const ids_scheme *s, const uint8_t *b, size_t n,
                    ids_value *v, ids_error *e) {
  if (n != s->bytes)
    return ids_fail(e, IDS_EINVAL, "%s: %zu bytes, expected %u", s->name, n,
                    (unsigned)s->bytes);
  ids_error why;
  ids_value_from_bytes(v, b, n);
  if (!ids_value_fits(v, s->bits))
    return ids_fail(e, IDS_ERANGE, "%s: value does not fit in %u bits",
                    s->name, (unsigned)s->bits);
  if (check(s, v, &why) != IDS_OK)
    return ids_fail(e, why.code, "%s bytes: %s", s->name, why.msg);
  return IDS_OK;
}

int ids__hexbytes (const char *h, uint8_t *b, size_t n) {
  for (size_t k = 0; k < n; k++) {
    int hi = ids__hexval((unsigned char)h[2 * k]);
    int lo = ids__hexval((unsigned char)h[2 * k + 1]);
    if (hi < 0 || lo < 0) return 0;
    b[k] = (uint8_t)(hi << 4 | lo);
  }
  return 1;
}
