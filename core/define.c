/*
** define.c: schemes described at run time (from Lua, or any caller): a
** checked spec becomes an ids_scheme like the built-ins, with its own
** codec instances, and is registered under its name.
*/
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
  ids_codec codecs[IDS_MAXCODECS];
  ids_radix radix[IDS_MAXCODECS];
  ids_optdef genopts[IDS_MAXOPTS];
  char alphabet[IDS_MAXCODECS][65];
  char encname[IDS_MAXCODECS][16];
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

/* Sets up codec i from its spec name; 0 if the name is not a codec. */
static int codecof (defined *d, int i, const char *name, unsigned bits,
                    unsigned bytes) {
  (void)bits;
  ids_radix *r = &d->radix[i];
  ids_codec *c = &d->codecs[i];
  unsigned packed = bytes * 8;       /* bit-packed forms cover all bytes */
  memset(r, 0, sizeof *r);
  r->width = 1;
  c->name = name;
  c->encode = ids_radix_encode;
  c->decode = ids_radix_decode;
  c->param = r;
  c->prepare = ids_radix_codec_prepare;
  if (strcmp(name, "dec") == 0)
    r->base = 10, r->digits = IDS_DIGITS_DEC;
  else if (strcmp(name, "hex") == 0)
    r->base = 16, r->digits = IDS_DIGITS_HEX, r->fixed = 1, r->fold = 1;
  else if (strcmp(name, "base58") == 0)
    r->base = 58, r->digits = IDS_DIGITS_B58;
  else if (strcmp(name, "base62") == 0)
    r->base = 62, r->digits = IDS_DIGITS_B62, r->fixed = 1;
  else if (strcmp(name, "crockford") == 0)
    r->base = 32, r->digits = IDS_DIGITS_CROCKFORD, r->fixed = 1,
    r->fold = 1, r->aliases = IDS_ALIASES_CROCKFORD;
  else if (strcmp(name, "base32") == 0 || strcmp(name, "base64url") == 0 ||
           strncmp(name, "b64sort:", 8) == 0) {
    /* RFC 4648 style: the bytes' bits, MSB first, zero bits appended to
    ** fill the last digit; no padding characters */
    unsigned k = name[4] == '3' ? 5 : 6;
    r->base = 1u << k;
    r->ndigits = (packed + k - 1) / k;
    r->shift = r->ndigits * k - packed;
    if (k == 5) r->digits = IDS_DIGITS_B32, r->fold = 1;
    else if (name[1] == 'a') r->digits = IDS_DIGITS_B64URL;
    else {
      const char *a = name + 8;
      if (strlen(a) != 64) return -2;
      for (int x = 0; x < 64; x++)   /* the codec sorts as the values */
        if ((x > 0 && (unsigned char)a[x] <= (unsigned char)a[x - 1]) ||
            (unsigned char)a[x] < 0x21 || (unsigned char)a[x] > 0x7e)
          return -2;                 /* out of order or unprintable */
      memcpy(d->alphabet[i], a, 65);
      r->digits = d->alphabet[i];
      c->name = "b64sort";
    }
  }
  else if (strcmp(name, "uuid") == 0) {
    if (bits != 128 || bytes != 16) return -1;
    c->encode = ids_uuid_encode;
    c->decode = ids_uuid_decode;
    c->param = NULL;
    c->prepare = NULL;
    return 1;
  }
  else
    return 0;
  return ids_radix_prepare(r) == IDS_OK;
}

static int bad (ids_error *e, const ids_defspec *sp, const char *field,
                const char *fmt, const char *a, long long n) {
  char what[96];
  snprintf(what, sizeof what, fmt, a, n);
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
    return bad(e, sp, NULL, "a name is required%s", "", 0);
  if (strlen(sp->name) >= IDS_NAMEMAX)
    return bad(e, sp, NULL, "the name is longer than %s%lld characters", "",
               IDS_NAMEMAX - 1);
  if (ids_scheme_find(sp->name))
    return ids_fail(e, IDS_EEXIST, "scheme '%s' exists already", sp->name);
  if (sp->nfields < 1 || sp->nfields > IDS_MAXFIELDS)
    return bad(e, sp, NULL, "1..%s%lld fields are needed", "", IDS_MAXFIELDS);
  if (nenc < 0 || nenc > IDS_MAXCODECS || (nenc > 0 && encodings == NULL))
    return bad(e, sp, NULL, "0..%s%lld encodings are needed", "",
               IDS_MAXCODECS);
  if (sp->bytes < 0 || sp->bytes > IDS_MAXBYTES)
    return bad(e, sp, NULL, "bytes %s%lld is not 0..20", "", sp->bytes);
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
      { r = bad(e, sp, fn, "a name is required%s", "", 0); goto fail; }
    if (strlen(f->name) >= IDS_NAMEMAX)
      { r = bad(e, sp, fn, "the name is longer than %s%lld characters", "",
                IDS_NAMEMAX - 1); goto fail; }
    if (reserved(f->name))
      { r = bad(e, sp, fn, "'%s' is reserved for a generator option%.0lld",
                f->name, 0); goto fail; }
    for (int j = 0; j < i; j++)
      if (strcmp(sp->fields[j].name, f->name) == 0)
        { r = bad(e, sp, fn, "duplicate name%s", "", 0); goto fail; }
    for (k = 0; k < sizeof kinds / sizeof *kinds; k++)
      if (f->kind && strcmp(f->kind, kinds[k].name) == 0) break;
    if (k == sizeof kinds / sizeof *kinds)
      { r = bad(e, sp, fn, "unknown kind '%s'", f->kind ? f->kind : "(none)",
                0); goto fail; }
    if (f->bits < 1 || f->bits > IDS_MAXBITS)
      { r = bad(e, sp, fn, "width %s%lld is not 1..160 bits", "", f->bits);
        goto fail; }
    if (kinds[k].kind != IDS_KIND_RANDOM && f->bits > 64)
      { r = bad(e, sp, fn, "only random fields may be wider than 64 bits, "
                "not %s%lld", "", f->bits); goto fail; }
    /* a node's value is a generator option, an int64 */
    if (kinds[k].kind == IDS_KIND_NODE && f->bits > 63)
      { r = bad(e, sp, fn, "a node field is at most 63 bits, not %s%lld", "",
                f->bits); goto fail; }
    if (kinds[k].kind == IDS_KIND_TIME) tbits = (int)f->bits;
    if (kinds[k].kind == IDS_KIND_SEQUENCE) sbits = (int)f->bits;
    total += (unsigned)f->bits;
    if (total > IDS_MAXBITS)
      { r = bad(e, sp, fn, "the fields add up to more than 160 bits (%s%lld)",
                "", total); goto fail; }
    if (kinds[k].kind == IDS_KIND_SEQUENCE && ++nseq > 1)
      { r = bad(e, sp, fn, "a second sequence field%s", "", 0); goto fail; }
    if (kinds[k].kind == IDS_KIND_TIME && ++ntime > 1)
      { r = bad(e, sp, fn, "a second time field%s", "", 0); goto fail; }
    if (kinds[k].kind == IDS_KIND_CONSTANT && f->bits < 64 &&
        (f->value >> f->bits) != 0)
      { r = bad(e, sp, fn, "constant %s%lld does not fit", "",
                (long long)f->value); goto fail; }
    if (kinds[k].kind == IDS_KIND_TIME) {
      ids_unit u;
      struct timespec now;
      unsigned __int128 t;
      if (!unitof(f->unit ? f->unit : "ms", &u))
        { r = bad(e, sp, fn, "unknown unit '%s'", f->unit, 0); goto fail; }
      clock_gettime(CLOCK_REALTIME, &now);
      /* today's time in the field's unit must fit its width */
      t = ((unsigned __int128)now.tv_sec * 1000 + now.tv_nsec / 1000000);
      if (f->epoch_ms < 0 || f->epoch_ms > IDS_EPOCH_MAX)
        { r = bad(e, sp, fn, "epoch %s%lld ms is out of range", "",
                  (long long)f->epoch_ms); goto fail; }
      if ((int64_t)t < f->epoch_ms)
        { r = bad(e, sp, fn, "epoch %s%lld ms is in the future", "",
                  (long long)f->epoch_ms); goto fail; }
      t = (t - (uint64_t)f->epoch_ms) * u.per_sec_num / u.per_sec_den / 1000;
      if (f->bits < 128 && (t >> f->bits) != 0)
        { r = bad(e, sp, fn, "%s%lld bits cannot hold today's time",
                  "", f->bits); goto fail; }
      d->s.unit = u;
      d->s.epoch_ms = f->epoch_ms;
    }
    if (kinds[k].kind == IDS_KIND_NODE) {
      ids_optdef *o = &d->genopts[d->s.ngenopts++];
      if (d->s.ngenopts > IDS_MAXOPTS)
        { r = bad(e, sp, fn, "more than %s%lld node fields", "", IDS_MAXOPTS);
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
    { r = bad(e, sp, NULL, "%s%.0lld", why, 0); goto fail; }
  if (tbits + sbits > 127)           /* the generator's state: 128 bits */
    { r = bad(e, sp, NULL, "time and sequence fields of %s%lld bits in all "
              "(at most 127)", "", tbits + sbits); goto fail; }
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
    { r = bad(e, sp, NULL, "bytes %s%lld cannot hold the fields", "",
              sp->bytes); goto fail; }
  /* encodings, the default first */
  for (int i = 0; i < nenc; i++) {
    const char *en = encodings[i] ? encodings[i] : "(none)";
    int ok = codecof(d, i, en, total, d->s.bytes);
    if (ok > 0 && d->codecs[i].name == en) {     /* keep our own copy */
      snprintf(d->encname[i], sizeof d->encname[i], "%s", en);
      d->codecs[i].name = d->encname[i];
    }
    if (ok <= 0)
      { r = bad(e, sp, NULL, ok == -1 ? "encoding '%s' needs a 128-bit "
                "layout in 16 bytes" : ok == -2 ? "the b64sort alphabet must "
                "be 64 printable ASCII characters in ascending order: '%s'" :
                "unknown encoding '%s'", en, 0); goto fail; }
    for (int j = 0; j < i; j++)
      if (strcmp(d->codecs[j].name, d->codecs[i].name) == 0)
        { r = bad(e, sp, NULL, "encoding '%s' given twice", en, 0);
          goto fail; }
    d->s.codecs[i] = &d->codecs[i];
  }
  d->s.ncodecs = (uint8_t)nenc;
  if (sp->default_encoding) {
    int k;
    for (k = 0; k < nenc; k++)
      if (strcmp(d->codecs[k].name, sp->default_encoding) == 0 ||
          strcmp(encodings[k], sp->default_encoding) == 0)
        break;
    if (k == nenc)
      { r = bad(e, sp, NULL, "default encoding '%s' is not one of the "
                "encodings", sp->default_encoding, 0); goto fail; }
    d->s.codecs[k] = d->s.codecs[0];
    d->s.codecs[0] = &d->codecs[k];
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
