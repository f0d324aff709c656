/*
** define.c: schemes described at run time (from Lua, or any caller): a
** checked spec becomes an ids_scheme like the built-ins, with its own
** codec instances, and is registered under its name.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idscheme.h"
#include "codec/codecs.h"

/* Everything a defined scheme owns, in one allocation that lives as long
** as the process (IDs point at their scheme). */
typedef struct defined {
  ids_scheme s;
  ids_codec_buf codecs[IDS_MAXCODECS];
  ids_optdef genopts[IDS_MAXOPTS];
  char names[IDS_MAXFIELDS + 1][IDS_NAMEMAX];   /* fields, then scheme */
} defined;

static const struct { const char *name; ids_kind kind; } kinds[] = {
  {"time", IDS_KIND_TIME}, {"node", IDS_KIND_NODE}, {"sequence", IDS_KIND_SEQUENCE},
  {"random", IDS_KIND_RANDOM}, {"constant", IDS_KIND_CONSTANT},
};

/* Generator options of every scheme, and the hashed-name options (any
** name ending in "_name"): a field of such a name would be read as the
** option, or could never be set. */
static int reserved (const char *name) {
  static const char *const opts[] = {
    "epoch_ms", "start_timestamp", "policy", "max_ahead_ms", "slots",
    "qualifier",
  };
  size_t n = strlen(name);
  for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
    if (strcmp(name, opts[i]) == 0) return 1;
  return n >= 5 && strcmp(name + n - 5, "_name") == 0;
}

/* 1..1000000000 in plain decimal digits at *p; 0 if not. */
static uint64_t count (const char **p) {
  uint64_t x = 0;
  const char *q = *p;
  while (*q >= '0' && *q <= '9' && x <= 1000000000u)
    x = x * 10 + (uint64_t)(*q++ - '0');
  if (q == *p || x > 1000000000u) return 0;
  *p = q;
  return x;
}

/* Ticks per second for a unit name: "ns", "us", "ms", "10ms", "s", or a
** fraction of a second, exactly "N/M s" (digits, no sign or spaces). */
static int unitof (const char *u, ids_unit *out) {
  static const struct { const char *name; uint64_t per_sec; } units[] = {
    {"ns", 1000000000}, {"us", 1000000}, {"ms", 1000}, {"10ms", 100},
    {"s", 1},
  };
  uint64_t num, den;
  for (size_t i = 0; i < sizeof units / sizeof *units; i++)
    if (strcmp(u, units[i].name) == 0) {
      out->per_sec_num = units[i].per_sec;
      out->per_sec_den = 1;
      return 1;
    }
  if ((num = count(&u)) == 0 || *u++ != '/' || (den = count(&u)) == 0 ||
      strcmp(u, " s") != 0)
    return 0;
  out->per_sec_num = den;            /* a tick is num/den s */
  out->per_sec_den = num;
  return 1;
}

static int bad (ids_error *e, const ids_defspec *sp, const char *field,
                const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;

/* One error naming the scheme (and the field) and the problem. */
static int bad (ids_error *e, const ids_defspec *sp, const char *field,
                const char *fmt, ...) {
  char what[IDS_ERRMAX];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (field)
    return ids_fail(e, IDS_EINVAL, "scheme '%s', field '%s': %s",
                    sp->name ? sp->name : "?", field, what);
  return ids_fail(e, IDS_EINVAL, "scheme '%s': %s", sp->name ? sp->name : "?",
                  what);
}

/* Where IDs would not increase: the time field must be above every
** sequence and random field, and a random field drawn afresh per ID must
** not be above the sequence.  NULL if the order is fine. */
static const char *disorder (const ids_defspec *sp) {
  int t = -1, q = -1;
  for (int i = 0; i < sp->nfields; i++) {
    const char *k = sp->fields[i].kind;
    if (strcmp(k, "time") == 0) t = i;
    else if (strcmp(k, "sequence") == 0) q = i;
  }
  for (int i = 0; i < sp->nfields; i++) {
    const char *k = sp->fields[i].kind;
    int seq = strcmp(k, "sequence") == 0, rnd = strcmp(k, "random") == 0;
    if (t >= 0 && (seq || rnd) && i < t)
      return "the time field must be above every sequence and random field"
             ", or IDs would decrease";
    if (rnd && q >= 0 && i < q)
      return "a random field must not be above the sequence field, or IDs "
             "would decrease within a tick";
  }
  return NULL;
}

int ids_scheme_define (const ids_defspec *sp, const ids_scheme **out,
                ids_error *e) {
  static const char *const dflt64[] = {"dec", "hex"}, *const dfltwide[] = {
    "hex"};
  const char *const *encodings = sp->encodings;
  const char *why;
  defined *d;
  unsigned total = 0, shift;
  int nseq = 0, ntime = 0, r, nenc = sp->nencodings, tbits = 0, sbits = 0;
  if (sp->name == NULL || sp->name[0] == '\0')
    return bad(e, sp, NULL, "a name is required");
  if (strlen(sp->name) >= IDS_NAMEMAX)
    return bad(e, sp, NULL, "the name is longer than %lld characters", (long long)(IDS_NAMEMAX - 1));
  if (ids_scheme_find(sp->name))
    return ids_fail(e, IDS_EEXIST, "scheme '%s' exists already", sp->name);
  if (sp->nfields < 1 || sp->nfields > IDS_MAXFIELDS)
    return bad(e, sp, NULL, "1..%lld fields are needed", (long long)(IDS_MAXFIELDS));
  if (nenc < 0 || nenc > IDS_MAXCODECS || (nenc > 0 && encodings == NULL))
    return bad(e, sp, NULL, "0..%lld encodings are needed", (long long)(IDS_MAXCODECS));
  if (sp->bytes < 0 || sp->bytes > IDS_MAXBYTES)
    return bad(e, sp, NULL, "bytes %lld is not 0..20", (long long)(sp->bytes));
  if ((d = calloc(1, sizeof *d)) == NULL)
    return ids_fail(e, IDS_ENOMEM, "out of memory");
  /* fields, most significant first */
  for (int i = 0; i < sp->nfields; i++) {
    const ids_fieldspec *f = &sp->fields[i];
    char nth[16];
    const char *fn = f->name;
    if (fn == NULL || fn[0] == '\0') {
      snprintf(nth, sizeof nth, "#%d", i + 1);   /* name it by position */
      fn = nth;
    }
    size_t k;
    if (f->name == NULL || f->name[0] == '\0')
      { r = bad(e, sp, fn, "a name is required"); goto fail; }
    if (strlen(f->name) >= IDS_NAMEMAX)
      { r = bad(e, sp, fn, "the name is longer than %lld characters", (long long)(IDS_NAMEMAX - 1)); goto fail; }
    if (reserved(f->name))
      { r = bad(e, sp, fn, "'%s' is reserved for a generator option",
                f->name); goto fail; }
    for (int j = 0; j < i; j++)
      if (strcmp(sp->fields[j].name, f->name) == 0)
        { r = bad(e, sp, fn, "duplicate name"); goto fail; }
    for (k = 0; k < sizeof kinds / sizeof *kinds; k++)
      if (f->kind && strcmp(f->kind, kinds[k].name) == 0) break;
    if (k == sizeof kinds / sizeof *kinds)
      { r = bad(e, sp, fn, "unknown kind '%s'", f->kind ? f->kind : "(none)"); goto fail; }
    if (f->bits < 1 || f->bits > IDS_MAXBITS)
      { r = bad(e, sp, fn, "width %lld is not 1..160 bits", (long long)(f->bits));
        goto fail; }
    if (kinds[k].kind != IDS_KIND_RANDOM && f->bits > 64)
      { r = bad(e, sp, fn, "only random fields may be wider than 64 bits, "
                "not %lld", (long long)(f->bits)); goto fail; }
    /* a node's value is a generator option, an int64 */
    if (kinds[k].kind == IDS_KIND_NODE && f->bits > 63)
      { r = bad(e, sp, fn, "a node field is at most 63 bits, not %lld", (long long)(f->bits)); goto fail; }
    if (kinds[k].kind == IDS_KIND_TIME) tbits = (int)f->bits;
    if (kinds[k].kind == IDS_KIND_SEQUENCE) sbits = (int)f->bits;
    total += (unsigned)f->bits;
    if (total > IDS_MAXBITS)
      { r = bad(e, sp, fn, "the fields add up to more than 160 bits (%lld)", (long long)(total)); goto fail; }
    if (kinds[k].kind == IDS_KIND_SEQUENCE && ++nseq > 1)
      { r = bad(e, sp, fn, "a second sequence field"); goto fail; }
    if (kinds[k].kind == IDS_KIND_TIME && ++ntime > 1)
      { r = bad(e, sp, fn, "a second time field"); goto fail; }
    if (kinds[k].kind == IDS_KIND_CONSTANT && f->bits < 64 &&
        (f->value >> f->bits) != 0)
      { r = bad(e, sp, fn, "constant %lld does not fit", (long long)((long long)f->value)); goto fail; }
    if (kinds[k].kind == IDS_KIND_TIME) {
      ids_unit u;
      struct timespec now;
      unsigned __int128 t;
      if (!unitof(f->unit ? f->unit : "ms", &u))
        { r = bad(e, sp, fn, "unknown unit '%s'", f->unit); goto fail; }
      clock_gettime(CLOCK_REALTIME, &now);
      /* today's time in the field's unit must fit its width */
      t = ((unsigned __int128)now.tv_sec * 1000 + now.tv_nsec / 1000000);
      if (f->epoch_ms < 0 || f->epoch_ms > IDS_EPOCH_MAX)
        { r = bad(e, sp, fn, "epoch %lld ms is out of range", (long long)((long long)f->epoch_ms)); goto fail; }
      if ((int64_t)t < f->epoch_ms)
        { r = bad(e, sp, fn, "epoch %lld ms is in the future", (long long)((long long)f->epoch_ms)); goto fail; }
      t = (t - (uint64_t)f->epoch_ms) * u.per_sec_num / u.per_sec_den / 1000;
      if (f->bits < 128 && (t >> f->bits) != 0)
        { r = bad(e, sp, fn, "%lld bits cannot hold today's time", (long long)(f->bits)); goto fail; }
      d->s.unit = u;
      d->s.epoch_ms = f->epoch_ms;
    }
    if (kinds[k].kind == IDS_KIND_NODE) {
      ids_optdef *o = &d->genopts[d->s.ngenopts++];
      if (d->s.ngenopts > IDS_MAXOPTS)
        { r = bad(e, sp, fn, "more than %lld node fields", (long long)(IDS_MAXOPTS));
          goto fail; }
      o->name = d->names[i];
      o->type = IDS_OPT_INT;
      o->max = f->bits == 63 ? INT64_MAX : ((int64_t)1 << f->bits) - 1;
    }
    memcpy(d->names[i], f->name, strlen(f->name) + 1);
    d->s.fields[i].name = d->names[i];
    d->s.fields[i].kind = kinds[k].kind;
    d->s.fields[i].bits = (uint8_t)f->bits;
    d->s.fields[i].value = f->value;
  }
  if ((why = disorder(sp)) != NULL)
    { r = bad(e, sp, NULL, "%s", why); goto fail; }
  if (tbits + sbits > 127)           /* the generator's state: 128 bits */
    { r = bad(e, sp, NULL, "time and sequence fields of %lld bits in all "
              "(at most 127)", (long long)(tbits + sbits)); goto fail; }
  if (nenc == 0) {                   /* the default: dec, hex; hex if wide */
    encodings = total <= 64 ? dflt64 : dfltwide;
    nenc = total <= 64 ? 2 : 1;
  }
  shift = total;
  for (int i = 0; i < sp->nfields; i++) {
    shift -= d->s.fields[i].bits;
    d->s.fields[i].shift = (uint8_t)shift;
  }
  d->s.nfields = (uint8_t)sp->nfields;
  d->s.bits = (uint16_t)total;
  d->s.bytes = (uint16_t)(sp->bytes ? sp->bytes : (total + 7) / 8);
  if (d->s.bytes < (total + 7) / 8 || d->s.bytes > IDS_MAXBYTES)
    { r = bad(e, sp, NULL, "bytes %lld cannot hold the fields", (long long)(sp->bytes)); goto fail; }
  /* encodings, the default first */
  for (int i = 0; i < nenc; i++) {
    const char *en = encodings[i] ? encodings[i] : "(none)";
    ids_error ce;
    if (ids_codec_make(&d->codecs[i], en, total, d->s.bytes, &ce) != IDS_OK)
      { r = bad(e, sp, NULL, "%s", ce.msg); goto fail; }
    for (int j = 0; j < i; j++)
      if (strcmp(d->codecs[j].codec.name, d->codecs[i].codec.name) == 0)
        { r = bad(e, sp, NULL, "encoding '%s' given twice", en);
          goto fail; }
    d->s.codecs[i] = &d->codecs[i].codec;
  }
  d->s.ncodecs = (uint8_t)nenc;
  if (sp->default_encoding) {
    int k;
    for (k = 0; k < nenc; k++)
      if (strcmp(d->codecs[k].codec.name, sp->default_encoding) == 0 ||
          strcmp(encodings[k], sp->default_encoding) == 0)
        break;
    if (k == nenc)
      { r = bad(e, sp, NULL, "default encoding '%s' is not one of the "
                "encodings", sp->default_encoding); goto fail; }
    d->s.codecs[k] = d->s.codecs[0];
    d->s.codecs[0] = &d->codecs[k].codec;
  }
  memcpy(d->names[IDS_MAXFIELDS], sp->name, strlen(sp->name) + 1);
  d->s.name = d->names[IDS_MAXFIELDS];
  d->s.genopts = d->genopts;
  if (d->s.unit.per_sec_num == 0) d->s.unit = (ids_unit){1000, 1};
  if ((r = ids_scheme_register(&d->s)) != IDS_OK) {
    r = ids_fail(e, r, "scheme '%s' %s", sp->name, r == IDS_EEXIST ?
                 "exists already" : r == IDS_ENOMEM ? "cannot be registered: "
                 "out of memory" : "is not a well-formed scheme");
    goto fail;
  }
  *out = &d->s;
  return IDS_OK;
fail:
  free(d);
  return r;
}
