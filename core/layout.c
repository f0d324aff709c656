/*
** layout.c: fields <-> values.
*/
#include <inttypes.h>
#include <string.h>

#include "idscheme.h"
#include "internal.h"

const char *const ids_kind_names[] = {
  "time", "node", "sequence", "random", "hash", "constant", "qualifier"
};

int ids_scheme_field (const ids_scheme *s, const char *name) {
  for (int i = 0; i < s->nfields; i++)
    if (strcmp(s->fields[i].name, name) == 0) return i;
  return -1;
}

uint64_t ids_field_get (const ids_field *f, const ids_value *v) {
  uint64_t x = 0;
  if (f->nparts == 0) return ids_value_get(v, f->shift, f->bits);
  for (int k = 0; k < f->nparts; k++)
    x = x << f->part[k].bits | ids_value_get(v, f->part[k].shift,
                                             f->part[k].bits);
  return x;
}

void ids_field_set (const ids_field *f, ids_value *v, uint64_t x) {
  unsigned below = f->bits;
  if (f->nparts == 0) {
    ids_value_set(v, f->shift, f->bits, x);
    return;
  }
  for (int k = 0; k < f->nparts; k++) {
    below -= f->part[k].bits;
    ids_value_set(v, f->part[k].shift, f->part[k].bits, x >> below);
  }
}

/* The kinds define takes, by name: an ids_kind and its flags. */
const ids__kindname ids__kinds[] = {
  {"time", IDS_KIND_TIME, 0, 0, 0}, {"node", IDS_KIND_NODE, 0, 0, 0},
  {"sequence", IDS_KIND_SEQUENCE, 0, 0, 0},
  {"counter", IDS_KIND_SEQUENCE, 0, 1, 0},
  {"random", IDS_KIND_RANDOM, 0, 0, 0}, {"instance", IDS_KIND_RANDOM, 1, 0, 0},
  {"constant", IDS_KIND_CONSTANT, 0, 0, 0},
  {"version", IDS_KIND_CONSTANT, 0, 0, 1}, {"hash", IDS_KIND_HASH, 0, 0, 0},
  {NULL, IDS_KIND_TIME, 0, 0, 0}
};

const char *ids_field_kind (const ids_field *f) {
  for (const ids__kindname *k = ids__kinds; k->name; k++)
    if (k->kind == f->kind && k->once == f->once && k->carry == f->carry &&
        k->loose == f->loose)
      return k->name;
  return ids_kind_names[f->kind];      /* the built-ins' qualifier */
}

/* Whether v holds every version field's value (a value of another
** version has no time). */
static int ownversion (const ids_scheme *s, const ids_value *v) {
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].loose && ids_field_get(&s->fields[i], v) !=
                              s->fields[i].value)
      return 0;
  return 1;
}

int ids_scheme_ordered (const ids_scheme *s) {
  int timed = 0;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f->kind == IDS_KIND_SEQUENCE && f->carry) return 0;
    if (f->kind != IDS_KIND_TIME) continue;
    for (int k = 1; k < f->nparts; k++)
      if (f->part[k].shift > f->part[k - 1].shift) return 0;
    timed = 1;
  }
  return timed;
}

/* The highest bit that field f holds. */
static unsigned topbit (const ids_field *f) {
  unsigned top = f->shift + f->bits - 1u;
  for (int k = 0; k < f->nparts; k++)
    if (k == 0 || f->part[k].shift + f->part[k].bits - 1u > top)
      top = f->part[k].shift + f->part[k].bits - 1u;
  return top;
}

int ids_scheme_bound (const ids_scheme *s, int64_t sec, int32_t nsec,
                      int upper, ids_value *v, ids_error *e) {
  const ids_field *t = NULL;
  ids_value r = {{0, 0, 0}};
  uint64_t maxtick;
  __int128 ns, tick;
  unsigned low;
  int sorted = 1;
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind == IDS_KIND_TIME) {
      if (t != NULL)
        return ids_fail(e, IDS_EINVAL, "%s keeps its time in several "
                        "fields: no key range by time", s->name);
      t = &s->fields[i];
    }
  if (t == NULL)
    return ids_fail(e, IDS_EINVAL, "%s has no time field: no key range by "
                    "time", s->name);
  if ((s->layout && s->layout->compose) || (s->gen && s->gen->place))
    return ids_fail(e, IDS_EINVAL, "%s places its time itself: no key range "
                    "by time", s->name);
  /* the value orders as the time only if nothing but constants lies above
  ** the time field's lowest bit, and its runs go down */
  low = t->nparts ? t->part[t->nparts - 1].shift : t->shift;
  for (int k = 1; k < t->nparts; k++)
    if (t->part[k].shift > t->part[k - 1].shift) sorted = 0;  /* UUIDv1's */
  for (int i = 0; i < s->nfields; i++)
    if (s->fields[i].kind != IDS_KIND_TIME &&
        s->fields[i].kind != IDS_KIND_CONSTANT && topbit(&s->fields[i]) > low)
      sorted = 0;
  if (!sorted)
    return ids_fail(e, IDS_EINVAL, "%s: its values do not sort by time (a "
                    "field other than a constant lies above the time's low "
                    "bit): no key range by time", s->name);
  if (nsec < 0 || nsec > 999999999)
    return ids_fail(e, IDS_EINVAL, "%s: nanoseconds out of range: %d",
                    s->name, (int)nsec);
  /* the tick that holds the instant, floored: the IDs made at it carry it */
  ns = ((__int128)sec * 1000 - s->epoch_ms) * 1000000 + nsec;
  tick = ns * (__int128)s->unit.per_sec_num;
  {
    __int128 d = (__int128)s->unit.per_sec_den * 1000000000;
    tick = tick >= 0 ? tick / d : -((-tick + d - 1) / d);
  }
  maxtick = t->bits >= 64 ? UINT64_MAX : (UINT64_C(1) << t->bits) - 1;
  if (tick < 0 && upper)
    return ids_fail(e, IDS_ERANGE, "%s: no ID has a time before its epoch "
                    "(%" PRId64 " ms since 1970)", s->name, s->epoch_ms);
  if (tick > (__int128)maxtick && !upper)
    return ids_fail(e, IDS_ERANGE, "%s: no ID has a time past its time "
                    "field's last tick", s->name);
  if (tick < 0) tick = 0;
  if (tick > (__int128)maxtick) tick = maxtick;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    if (f == t) ids_field_set(f, &r, (uint64_t)tick);
    else if (f->kind == IDS_KIND_CONSTANT) ids_field_set(f, &r, f->value);
    else if (!upper) continue;
    else if (f->bits <= 64) ids_field_set(f, &r, UINT64_MAX);
    else {
      uint8_t ones[IDS_MAXBYTES];
      memset(ones, 0xff, sizeof ones);
      ids_value_setbytes(&r, f->shift, f->bits, ones);
    }
  }
  *v = r;
  return IDS_OK;
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
    if (f->kind == IDS_KIND_CONSTANT && !f->loose && x[i] != f->value)
      return ids_fail(e, IDS_ERANGE, "%s %s must be %" PRIu64 ", not %"
                      PRIu64, s->name, f->name, f->value, x[i]);
    ids_field_set(f, &r, x[i]);
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
    x[i] = ids_field_get(&s->fields[i], v);
}

/* One time field counts ticks of s->unit from s->epoch_ms, which may lie
** before 1970 (UUIDv1's 1582); three are KUID's mixed radix (megaseconds,
** seconds, microseconds since 1970).  The true time, however far off
** (SIQ's and kuid96's largest values are in the year 30,000 and beyond);
** past int64 ms none is given. */
int ids_scheme_time_ms (const ids_scheme *s, const ids_value *v, int64_t *ms) {
  int64_t sec;
  int32_t nsec;
  if (!ids_scheme_time(s, v, &sec, &nsec) ||
      sec > INT64_MAX / 1000 - 1 || sec < INT64_MIN / 1000 + 1)
    return 0;                                    /* past int64 ms */
  *ms = sec * 1000 + nsec / 1000000;             /* floored: nsec >= 0 */
  return 1;
}

/* An ID's time to its unit (ids_scheme_time_ms floors it to ms): whole ticks per second that divide
** 10^9 (every unit but odd fractions) in 64-bit arithmetic and the time
** field alone (no decompose: a C call's worth); others in 128 bits
** (ticks * 10^9 * den / num is at most 2^64 * 2^30 * 2^30). */
int ids_scheme_time (const ids_scheme *s, const ids_value *v, int64_t *sec,
                     int32_t *nsec) {
  uint64_t x[IDS_MAXFIELDS], tick, num = s->unit.per_sec_num,
           den = s->unit.per_sec_den;
  int t[3], nt = 0;
  __int128 q, ns;
  int64_t esec = s->epoch_ms / 1000, ems = s->epoch_ms % 1000;
  for (int i = 0; i < s->nfields && nt < 3; i++)
    if (s->fields[i].kind == IDS_KIND_TIME) t[nt++] = i;
  if ((nt != 1 && nt != 3) || !ownversion(s, v)) return 0;
  if (nt == 1 && !(s->layout && s->layout->decompose))
    tick = ids_field_get(&s->fields[t[0]], v);
  else {
    ids_scheme_decompose(s, v, x);
    tick = x[t[0]];
  }
  if (ems < 0) ems += 1000, esec--;
  if (nt == 3) {                     /* megaseconds, seconds, microseconds */
    q = (__int128)x[t[0]] * 1000000 + x[t[1]] + x[t[2]] / 1000000;
    ns = (__int128)(x[t[2]] % 1000000) * 1000;
  }
  else if (den == 1 && 1000000000u % num == 0) {
    q = tick / num;
    ns = (__int128)(tick % num * (1000000000u / num));
  }
  else {
    ns = (__int128)tick * 1000000000u * den / num;
    q = ns / 1000000000;
    ns -= q * 1000000000;
  }
  q += esec;
  ns += ems * 1000000;
  if (ns >= 1000000000) ns -= 1000000000, q++;
  if (q > INT64_MAX || q < INT64_MIN) return 0;
  *sec = (int64_t)q;
  *nsec = (int32_t)ns;
  return 1;
}
