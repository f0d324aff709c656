/*
** layout.c: fields <-> values.
*/
#include <inttypes.h>
#include <string.h>

#include "idscheme.h"

const char *const ids_kind_names[] = {
  "time", "node", "sequence", "random", "hash", "constant", "qualifier"
};

int ids_scheme_field (const ids_scheme *s, const char *name) {
  for (int i = 0; i < s->nfields; i++)
    if (strcmp(s->fields[i].name, name) == 0) return i;
  return -1;
}

int64_t ids_scheme_qualifier (const ids_scheme *s, const char *name,
                             size_t len) {
  for (int i = 0; i < s->nquals; i++)
    if (strlen(s->quals[i].name) == len &&
        memcmp(s->quals[i].name, name, len) == 0)
      return (int64_t)s->quals[i].value;
  return -1;
}

const char *ids_scheme_qualifier_name (const ids_scheme *s, uint64_t value) {
  for (int i = 0; i < s->nquals; i++)
    if (s->quals[i].value == value) return s->quals[i].name;
  return NULL;
}

int ids_scheme_compose (const ids_scheme *s, const uint64_t *x, ids_value *v,
                 ids_error *e) {
  ids_value r = {{0, 0, 0}};
  if (s->layout && s->layout->compose)
    return s->layout->compose(s, x, v, e);
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f->bits < 64 && (x[i] >> f->bits) != 0)
      return ids_fail(e, IDS_ERANGE, "%s %s out of range: %" PRIu64
                      " does not fit in %u bits", s->name, f->name, x[i],
                      (unsigned)f->bits);
    if (f->kind == IDS_KIND_CONSTANT && x[i] != f->value)
      return ids_fail(e, IDS_ERANGE, "%s %s must be %" PRIu64 ", not %"
                      PRIu64, s->name, f->name, f->value, x[i]);
    ids_value_set(&r, f->shift, f->bits, x[i]);
  }
  *v = r;
  return IDS_OK;
}

void ids_scheme_decompose (const ids_scheme *s, const ids_value *v, uint64_t *x) {
  if (s->layout && s->layout->decompose) {
    s->layout->decompose(s, v, x);
    return;
  }
  for (int i = 0; i < s->nfields; i++)
    x[i] = ids_value_get(v, s->fields[i].shift, s->fields[i].bits);
}
