/*
** fields.c: field values by name, the one way to compose an ID from named
** parts.  The binding and the command only translate their own argument
** forms into these calls, so that one rule holds everywhere: each field
** once, a hashed field by its value or by its name key but not both, a
** qualifier by its type name, a wide field by its bytes.
*/
#include <inttypes.h>
#include <string.h>

#include "internal.h"

/* The opaque ids_fields, as fields.c sees it. */
typedef struct fieldset {
  const ids_scheme *s;
  uint64_t x[IDS_MAXFIELDS];
  ids_value wide;               /* fields over 64 bits, in place */
  uint16_t given;               /* bit i: field i was set */
  uint16_t hashed;              /* bit i: set through its `from` key */
} fieldset;

_Static_assert(sizeof(fieldset) <= sizeof(ids_fields),
               "ids_fields too small for fieldset");

#define FS(f) ((fieldset *)(void *)(f))
#define HASHES(s) ((s)->layout && (s)->layout->hashname)

void ids_fields_init (ids_fields *f, const ids_scheme *s) {
  memset(f, 0, sizeof *f);
  FS(f)->s = s;
}

/* The field a name sets, or -1; *byname: the name is the field's `from`
** key (a string to hash), not the field itself. */
static int lookup (const ids_scheme *s, const char *name, size_t len,
                   int *byname) {
  for (int i = 0; i < s->nfields; i++) {
    const char *fn = s->fields[i].name, *from = s->fields[i].from;
    if (strlen(fn) == len && memcmp(fn, name, len) == 0)
      return *byname = 0, i;
    if (from && HASHES(s) && strlen(from) == len &&
        memcmp(from, name, len) == 0)
      return *byname = 1, i;
  }
  return -1;
}

/* Finds the field for `name` and claims it, or fails naming the key. */
static int claim (fieldset *fs, const char *name, size_t len, int *byname,
                  ids_error *e) {
  const ids_scheme *s = fs->s;
  int i;
  char q[IDS_NAMEMAX + 8];
  ids__quote(q, sizeof q, name, len);
  if ((i = lookup(s, name, len, byname)) < 0)
    return ids_fail(e, IDS_EINVAL, "%s has no field \"%s\"", s->name, q);
  if (fs->given & (1u << i)) {
    const ids_field *fd = &s->fields[i];
    if (fd->from && (((fs->hashed >> i) & 1) != *byname))
      return ids_fail(e, IDS_EINVAL, "give field '%s' or '%s', not both",
                      fd->name, fd->from);
    return ids_fail(e, IDS_EINVAL, "field '%s' given twice", q);
  }
  return i;
}

static void mark (fieldset *fs, int i, int byname) {
  fs->given |= (uint16_t)(1u << i);
  if (byname) fs->hashed |= (uint16_t)(1u << i);
}

static int setuint (fieldset *fs, int i, uint64_t x, ids_error *e) {
  const ids_field *fd = &fs->s->fields[i];
  if (fd->bits > 64)
    return ids_fail(e, IDS_EINVAL, "field '%s' is %u bits: give its %u "
                    "bytes", fd->name, (unsigned)fd->bits,
                    (fd->bits + 7u) / 8);
  if (fd->kind == IDS_KIND_QUALIFIER && ids_scheme_qualifier_name(fs->s, x) == NULL)
    return ids_fail(e, IDS_EINVAL, "field '%s': %" PRIu64 " is not a %s "
                    "type", fd->name, x, fs->s->name);
  if (fd->bits < 64 && !fd->variable && (x >> fd->bits) != 0)
    return ids_fail(e, IDS_ERANGE, "field '%s' out of range: %" PRIu64
                    " does not fit in %u bits", fd->name, x,
                    (unsigned)fd->bits);
  fs->x[i] = x;
  return IDS_OK;
}

int ids_fields_set_uint (ids_fields *f, const char *name, size_t len,
                         uint64_t x, ids_error *e) {
  fieldset *fs = FS(f);
  int byname, r, i = claim(fs, name, len, &byname, e);
  if (i < 0) return i;
  if (byname)
    return ids_fail(e, IDS_EINVAL, "'%s' takes a string (it is hashed into "
                    "field '%s')", fs->s->fields[i].from,
                    fs->s->fields[i].name);
  if ((r = setuint(fs, i, x, e)) == IDS_OK) mark(fs, i, 0);
  return r;
}

int ids_fields_set_int (ids_fields *f, const char *name, size_t len,
                        int64_t x, ids_error *e) {
  fieldset *fs = FS(f);
  int byname, i;
  /* a negative number wraps only into a whole 64-bit field (as
  ** id:integer() gives such values); anywhere else it is a mistake */
  if (x < 0 && (i = lookup(fs->s, name, len, &byname)) >= 0 && !byname &&
      fs->s->fields[i].bits < 64)
    return ids_fail(e, IDS_ERANGE, "field '%s' out of range: %" PRId64
                    " is negative", fs->s->fields[i].name, x);
  return ids_fields_set_uint(f, name, len, (uint64_t)x, e);
}

/* A field over 64 bits from its big-endian bytes. */
static int setwide (fieldset *fs, int i, const uint8_t *b, size_t n,
                    ids_error *e) {
  const ids_field *fd = &fs->s->fields[i];
  ids_value w = {{0, 0, 0}};
  if (n != (fd->bits + 7u) / 8)
    return ids_fail(e, IDS_EINVAL, "field '%s' must be a string of %u "
                    "bytes, not %zu", fd->name, (fd->bits + 7u) / 8, n);
  ids_value_setbytes(&w, 0, (unsigned)n * 8, b);
  if (!ids_value_fits(&w, fd->bits))
    return ids_fail(e, IDS_ERANGE, "field '%s' out of range: more than %u "
                    "bits", fd->name, (unsigned)fd->bits);
  ids_value_setbytes(&fs->wide, fd->shift, fd->bits, b);
  mark(fs, i, 0);
  return IDS_OK;
}

/* strict: a string value, never a number in text */
static int settext (ids_fields *f, const char *name, size_t len,
                    const char *t, size_t n, int strict, ids_error *e) {
  fieldset *fs = FS(f);
  const ids_scheme *s = fs->s;
  const ids_field *fd;
  uint64_t x;
  int byname, r, i = claim(fs, name, len, &byname, e);
  char q[48];
  if (i < 0) return i;
  fd = &s->fields[i];
  ids__quote(q, sizeof q, t, n);
  if (byname) {                          /* a name hashed into the field */
    if ((r = s->layout->hashname(s, i, t, n, &x, e)) != IDS_OK) return r;
  }
  else if (fd->kind == IDS_KIND_QUALIFIER) {
    int64_t v = ids_scheme_qualifier(s, t, n);
    if (v < 0)
      return ids_fail(e, IDS_EINVAL, "field '%s': \"%s\" is not a %s type",
                      fd->name, q, s->name);
    x = (uint64_t)v;
  }
  else if (strict)
    return ids_fail(e, IDS_EINVAL, "field '%s' must be an integer, not the "
                    "string \"%s\"", fd->name, q);
  else if (fd->bits > 64) {           /* its bytes in hex, as shown */
    uint8_t b[IDS_MAXBYTES];
    size_t nb = (fd->bits + 7u) / 8;
    if (n != 2 * nb || !ids__hexbytes(t, b, nb))
      return ids_fail(e, IDS_EINVAL, "field '%s' takes %zu hex digits (its "
                      "%zu bytes), not \"%s\"", fd->name, 2 * nb, nb, q);
    return setwide(fs, i, b, nb, e);
  }
  else if (n > 0 && t[0] == '-' &&
           ids__decimal(t + 1, n - 1, UINT64_MAX, &x) == IDS_OK)
    return ids_fail(e, IDS_ERANGE, "field %s: '%s' is negative", fd->name, q);
  else if ((r = ids__decimal(t, n, UINT64_MAX, &x)) != IDS_OK)
    return ids_fail(e, IDS_EINVAL, "field %s: '%s' is %s", fd->name, q,
                    r == IDS_ERANGE ? "too large" : "not an integer");
  if ((r = setuint(fs, i, x, e)) == IDS_OK) mark(fs, i, byname);
  return r;
}

int ids_fields_set_text (ids_fields *f, const char *name, size_t len,
                         const char *t, size_t n, ids_error *e) {
  return settext(f, name, len, t, n, 0, e);
}

int ids_fields_set_string (ids_fields *f, const char *name, size_t len,
                           const char *t, size_t n, ids_error *e) {
  return settext(f, name, len, t, n, 1, e);
}

int ids_fields_set_bytes (ids_fields *f, const char *name, size_t len,
                          const uint8_t *b, size_t n, ids_error *e) {
  fieldset *fs = FS(f);
  const ids_field *fd;
  int byname, i = claim(fs, name, len, &byname, e);
  if (i < 0) return i;
  fd = &fs->s->fields[i];
  if (byname || fd->bits <= 64)
    return ids_fail(e, IDS_EINVAL, "field '%s' takes %s, not bytes",
                    byname ? fd->from : fd->name,
                    byname ? "a string" : "an integer");
  return setwide(fs, i, b, n, e);
}

int ids_fields_compose (const ids_fields *f, ids_value *v, ids_error *e) {
  const fieldset *fs = (const fieldset *)(const void *)f;
  const ids_scheme *s = fs->s;
  uint64_t x[IDS_MAXFIELDS];
  int r;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *fd = &s->fields[i];
    x[i] = fs->x[i];
    if (fs->given & (1u << i)) continue;
    if (fd->kind == IDS_KIND_CONSTANT) x[i] = fd->value;
    else if (fd->from && HASHES(s))
      return ids_fail(e, IDS_EINVAL, "field '%s' (or '%s', a string) "
                      "missing", fd->name, fd->from);
    else
      return ids_fail(e, IDS_EINVAL, "field '%s' missing", fd->name);
  }
  if ((r = ids_scheme_compose(s, x, v, e)) != IDS_OK) return r;
  for (int k = 0; k < 3; k++) v->w[k] |= fs->wide.w[k];
  return IDS_OK;
}
