/*
** typeid.c: TypeID's text (jetify's spec, v0.3): a type prefix, '_', and
** the 128-bit value as 26 lowercase Crockford base32 digits; with no
** prefix, the digits alone.  A prefix is 1..63 of a-z and '_', starting
** and ending with a letter; the digits are the part after the last '_'.
** A codec made as "typeid:user" writes and reads the prefix "user" only;
** "typeid" writes none and reads any.
*/
#include <string.h>

#include "codecs.h"

/* Whether p[0..n) is a prefix the spec allows (n > 0). */
static int goodprefix (const char *p, size_t n) {
  if (n > IDS_TYPEID_PREFIXMAX || p[0] < 'a' || p[0] > 'z' ||
      p[n - 1] < 'a' || p[n - 1] > 'z')
    return 0;
  for (size_t i = 0; i < n; i++)
    if ((p[i] < 'a' || p[i] > 'z') && p[i] != '_') return 0;
  return 1;
}

int ids_typeid_setprefix (ids_typeid *t, const char *prefix, ids_error *e) {
  size_t n = strlen(prefix);
  if (!goodprefix(prefix, n))
    return ids_fail(e, IDS_EINVAL, "a TypeID prefix is 1..%d of a-z and "
                    "'_', starting and ending with a letter: '%s'",
                    IDS_TYPEID_PREFIXMAX, prefix);
  memcpy(t->prefix, prefix, n + 1);
  return IDS_OK;
}

/* The digits' codec over t's radix. */
static ids_codec digits (const ids_codec *c) {
  const ids_typeid *t = c->param;
  return (ids_codec){c->name, ids_radix_encode, ids_radix_decode, &t->radix,
                     NULL};
}

size_t ids_typeid_encode (const ids_codec *c, const ids_value *v,
                          unsigned bits, char *out) {
  const ids_typeid *t = c->param;
  ids_codec d = digits(c);
  size_t n = strlen(t->prefix);
  memcpy(out, t->prefix, n);
  if (n) out[n++] = '_';
  return n + ids_radix_encode(&d, v, bits, out + n);
}

int ids_typeid_decode (const ids_codec *c, const char *s, size_t n,
                       unsigned bits, ids_value *v, ids_error *e) {
  const ids_typeid *t = c->param;
  ids_codec d = digits(c);
  size_t k = n, want = strlen(t->prefix);
  while (k > 0 && s[k - 1] != '_') k--;          /* k: past the last '_' */
  if (k > 0 && !goodprefix(s, k - 1))
    return ids_fail(e, IDS_EINVAL, "'%.*s' is not a TypeID prefix (1..%d "
                    "of a-z and '_', starting and ending with a letter)",
                    (int)(k - 1 > 64 ? 64 : k - 1), s, IDS_TYPEID_PREFIXMAX);
  if (want && (k == 0 || k - 1 != want || memcmp(s, t->prefix, want) != 0))
    return ids_fail(e, IDS_EINVAL, "the prefix must be '%s'", t->prefix);
  if (n - k > 0 && s[k] > '7')
    return ids_fail(e, IDS_EINVAL, "'%c' at %zu: a TypeID's first digit is "
                    "0..7", s[k], k + 1);
  return ids_radix_decode(&d, s + k, n - k, bits, v, e);
}

int ids_typeid_prepare (const ids_codec *c) {
  return ids_radix_prepare(&((ids_typeid *)(void *)c->param)->radix);
}
