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
#include "internal.h"

/* Everything a defined scheme owns, in one allocation that lives as long
** as the process (IDs point at their scheme). */
typedef struct defined {
  ids_scheme s;
  ids_codec_buf codecs[IDS_MAXCODECS];
  ids_optdef genopts[IDS_MAXOPTS];
  char names[IDS_MAXFIELDS + 1][IDS_NAMEMAX];   /* fields, then scheme */
  ids_about about;
  char title[IDS_ABOUTMAX], note[IDS_ABOUTMAX];
  char aliases[IDS_MAXALIASES][IDS_NAMEMAX];
} defined;

/* The keys of a spec as a binding reads them from a table or a document:
** the members of ids_defspec, ids_fieldspec and ids_about by the names
** idscheme.define takes ("epoch" is epoch_ms, "since" since_ms). */
const char *const ids_define_keys[] = {
  "name", "fields", "encodings", "default_encoding", "bytes", "about", NULL
};
const char *const ids_define_field_keys[] = {
  "name", "kind", "bits", "unit", "epoch", "value", "order", NULL
};
const char *const ids_define_about_keys[] = {
  "title", "note", "since", "aliases", "lengths", NULL
};

/* 1..1000000000 in plain decimal digits at *p, which moves past them;
** 0 if not. */
static uint64_t count (const char **p) {
  size_t n = strspn(*p, "0123456789");
  uint64_t x;
  if (ids__decimal(*p, n, 1000000000u, &x) != IDS_OK || x == 0) return 0;
  *p += n;
  return x;
}

static const struct { const char *name; uint64_t per_sec; } units[] = {
  {"ns", 1000000000}, {"us", 1000000}, {"ms", 1000}, {"10ms", 100},
  {"s", 1},
};

/* Ticks per second for a unit name: "ns", "us", "ms", "10ms", "s", or a
** fraction of a second, exactly "N/M s" (digits, no sign or spaces). */
static int unitof (const char *u, ids_unit *out) {
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

int ids_unit_name (ids_unit u, char *out, size_t cap) {
  for (size_t i = 0; i < sizeof units / sizeof *units; i++)
    if (u.per_sec_den == 1 && u.per_sec_num == units[i].per_sec)
      return snprintf(out, cap, "%s", units[i].name);
  return snprintf(out, cap, "%llu/%llu s",         /* a tick is den/num s */
                  (unsigned long long)u.per_sec_den,
                  (unsigned long long)u.per_sec_num);
}

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
** not be above the sequence.  kind[i]: of the spec's entry i.  NULL if
** the order is fine. */
static const char *disorder (const ids_kind *kind, int n) {
  int t = -1, q = -1;
  for (int i = 0; i < n; i++) {
    if (kind[i] == IDS_KIND_TIME) t = i;
    else if (kind[i] == IDS_KIND_SEQUENCE) q = i;
  }
  for (int i = 0; i < n; i++) {
    int seq = kind[i] == IDS_KIND_SEQUENCE, rnd = kind[i] == IDS_KIND_RANDOM;
    if (t >= 0 && (seq || rnd) && i < t)
      return "the time field must be above every sequence and random field"
             ", or IDs would decrease";
    if (rnd && q >= 0 && i < q)
      return "a random field must not be above the sequence field, or IDs "
             "would decrease within a tick";
  }
  return NULL;
}

/* The spec as a whole: its name and counts. */
static int checkspec (const ids_defspec *sp, ids_error *e) {
  if (sp->name == NULL || sp->name[0] == '\0')
    return bad(e, sp, NULL, "a name is required");
  if (strlen(sp->name) >= IDS_NAMEMAX)
    return bad(e, sp, NULL, "the name is longer than %d characters",
               IDS_NAMEMAX - 1);
  if (sp->nfields < 1 || sp->nfields > IDS_MAXFIELDS)
    return bad(e, sp, NULL, "1..%d fields are needed", IDS_MAXFIELDS);
  if (sp->nencodings < 0 || sp->nencodings > IDS_MAXCODECS ||
      (sp->nencodings > 0 && sp->encodings == NULL))
    return bad(e, sp, NULL, "0..%d encodings are needed", IDS_MAXCODECS);
  if (sp->bytes < 0 || sp->bytes > IDS_MAXBYTES)
    return bad(e, sp, NULL, "bytes %lld is not 0..20", sp->bytes);
  if (sp->about) {
    const ids_about *a = sp->about;
    if ((a->title && strlen(a->title) >= IDS_ABOUTMAX) ||
        (a->note && strlen(a->note) >= IDS_ABOUTMAX))
      return bad(e, sp, NULL, "a title or note is longer than %d "
                 "characters", IDS_ABOUTMAX - 1);
    if (a->lengths[0] > a->lengths[1] || (a->lengths[1] && !a->lengths[0]) ||
        a->lengths[1] >= IDS_TEXTMAX)
      return bad(e, sp, NULL, "lengths %d..%d are not 1..%d, the first at "
                 "most the second", a->lengths[0], a->lengths[1],
                 IDS_TEXTMAX - 1);
    if (a->lengths[1] && (sp->nfields != 1 || sp->fields[0].kind == NULL ||
                          strcmp(sp->fields[0].kind, "random")))
      return bad(e, sp, NULL, "other lengths are for a format of one random "
                 "field alone (nanoid's sizes)");
    if (a->aliases[IDS_MAXALIASES])
      return bad(e, sp, NULL, "more than %d aliases", IDS_MAXALIASES);
    for (int k = 0; k < IDS_MAXALIASES && a->aliases[k]; k++)
      if (a->aliases[k][0] == '\0' || strlen(a->aliases[k]) >= IDS_NAMEMAX)
        return bad(e, sp, NULL, "alias '%s' is not 1..%d characters",
                   a->aliases[k], IDS_NAMEMAX - 1);
  }
  return IDS_OK;
}

/* The spec's about, copied into d (the spec's strings may go). */
static void keepabout (defined *d, const ids_about *a) {
  if (a == NULL) return;
  d->about.since_ms = a->since_ms;
  memcpy(d->about.lengths, a->lengths, sizeof a->lengths);
  if (a->title) d->about.title = strcpy(d->title, a->title);
  if (a->note) d->about.note = strcpy(d->note, a->note);
  for (int k = 0; k < IDS_MAXALIASES && a->aliases[k]; k++)
    d->about.aliases[k] = strcpy(d->aliases[k], a->aliases[k]);
  d->s.about = &d->about;
}

static int samestr (const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether two schemes tell the same of their format. */
static int sameabout (const ids_about *a, const ids_about *b) {
  static const ids_about none;
  if (a == NULL) a = &none;
  if (b == NULL) b = &none;
  if (a->since_ms != b->since_ms || !samestr(a->title, b->title) ||
      memcmp(a->lengths, b->lengths, sizeof a->lengths) ||
      !samestr(a->note, b->note))
    return 0;
  for (int k = 0; k <= IDS_MAXALIASES; k++)
    if (!samestr(a->aliases[k], b->aliases[k])) return 0;
  return 1;
}

/* A time field's unit and epoch: today's time must fit its width. */
static int timefield (defined *d, const ids_defspec *sp,
                      const ids_fieldspec *f, const char *fn, ids_error *e) {
  ids_unit u;
  struct timespec now;
  unsigned __int128 t;
  if (!unitof(f->unit ? f->unit : "ms", &u))
    return bad(e, sp, fn, "unknown unit '%s'", f->unit);
  if (f->epoch_ms < IDS_EPOCH_MIN || f->epoch_ms > IDS_EPOCH_MAX)
    return bad(e, sp, fn, "epoch %lld ms is out of range",
               (long long)f->epoch_ms);
  clock_gettime(CLOCK_REALTIME, &now);
  t = (unsigned __int128)now.tv_sec * 1000 + now.tv_nsec / 1000000;
  if ((int64_t)t < f->epoch_ms)
    return bad(e, sp, fn, "epoch %lld ms is in the future",
               (long long)f->epoch_ms);
  t = (unsigned __int128)((__int128)t - f->epoch_ms) * u.per_sec_num /
      u.per_sec_den / 1000;
  if (f->bits < 128 && (t >> f->bits) != 0)
    return bad(e, sp, fn, "%lld bits cannot hold today's time", f->bits);
  d->s.unit = u;
  d->s.epoch_ms = f->epoch_ms;
  return IDS_OK;
}

/* Where the spec's entries go: entry i is part part[i] of field
** field[i] (a field split around others is one entry per run, listed
** under its name in layout order). */
typedef struct entries {
  uint8_t field[IDS_MAXFIELDS], part[IDS_MAXFIELDS];
  const ids_fieldspec *first[IDS_MAXFIELDS];    /* each field's first */
} entries;

/* Entry i: a new field, or the next run of an earlier one of its name. */
static int oneentry (defined *d, entries *en, const ids_defspec *sp, int i,
                     unsigned *total, ids_error *e) {
  const ids_fieldspec *f = &sp->fields[i];
  char nth[16];
  const char *fn = f->name;
  const ids__kindname *kd;
  ids_field *x;
  if (fn == NULL || fn[0] == '\0') {
    snprintf(nth, sizeof nth, "#%d", i + 1);   /* name it by position */
    return bad(e, sp, nth, "a name is required");
  }
  if (strlen(fn) >= IDS_NAMEMAX)
    return bad(e, sp, fn, "the name is longer than %d characters",
               IDS_NAMEMAX - 1);
  if (f->bits < 1 || f->bits > IDS_MAXBITS)
    return bad(e, sp, fn, "width %lld is not 1..160 bits", f->bits);
  if ((*total += (unsigned)f->bits) > IDS_MAXBITS)
    return bad(e, sp, fn, "the fields add up to more than 160 bits (%u)",
               *total);
  for (int j = 0; j < i; j++)
    if (strcmp(sp->fields[j].name, fn) == 0) {     /* a further run */
      x = &d->s.fields[en->field[j]];
      if ((f->kind && strcmp(f->kind, ids_field_kind(x))) ||
          f->unit || f->epoch_ms || f->value || f->order)
        return bad(e, sp, fn, "duplicate name (a further part of a split "
                   "field gives its name and bits alone)");
      if (x->kind != IDS_KIND_TIME && x->kind != IDS_KIND_NODE &&
          x->kind != IDS_KIND_SEQUENCE)
        return bad(e, sp, fn, "duplicate name (only time, node and "
                   "sequence fields may be split)");
      if (x->nparts == IDS_MAXPARTS)
        return bad(e, sp, fn, "split in more than %d parts", IDS_MAXPARTS);
      en->field[i] = en->field[j];
      en->part[i] = x->nparts;
      x->part[x->nparts++].bits = (uint8_t)f->bits;
      x->bits = (uint8_t)(x->bits + f->bits > 255 ? 255 : x->bits + f->bits);
      return IDS_OK;
    }
  if (ids__options_reserved(fn))   /* read as the option, or never set */
    return bad(e, sp, fn, "'%s' is reserved for a generator option", fn);
  for (kd = ids__kinds; kd->name; kd++)
    if (f->kind && strcmp(f->kind, kd->name) == 0) break;
  if (kd->name == NULL)
    return bad(e, sp, fn, "unknown kind '%s'", f->kind ? f->kind : "(none)");
  if (f->order && strcmp(f->order, "high first") &&
      strcmp(f->order, "low first"))
    return bad(e, sp, fn, "order '%s' is not 'high first' or 'low first'",
               f->order);
  en->field[i] = d->s.nfields;
  en->part[i] = 0;
  en->first[d->s.nfields] = f;
  x = &d->s.fields[d->s.nfields++];
  memcpy(d->names[en->field[i]], fn, strlen(fn) + 1);
  x->name = d->names[en->field[i]];
  x->kind = kd->kind;
  x->once = kd->once;
  x->carry = kd->carry;
  x->loose = kd->loose;
  x->bits = (uint8_t)f->bits;
  x->value = f->value;
  x->nparts = 1;                   /* counts runs until fields() ends */
  x->part[0].bits = (uint8_t)f->bits;
  return IDS_OK;
}

/* Field k whole (all its runs): checked against the fields before it (a
** node field also becomes the generator option of its name). */
static int onefield (defined *d, const entries *en, const ids_defspec *sp,
                     int k, ids_error *e) {
  const ids_fieldspec *f = en->first[k];
  ids_field *x = &d->s.fields[k];
  const char *fn = x->name;
  unsigned bits = 0;
  int r;
  for (int p = 0; p < x->nparts; p++) bits += x->part[p].bits;
  if (x->nparts > 1 && bits > 64)
    return bad(e, sp, fn, "a split field is at most 64 bits, not %u", bits);
  if (x->kind != IDS_KIND_RANDOM && bits > 64)
    return bad(e, sp, fn, "only random fields may be wider than 64 bits, "
               "not %u", bits);
  if (x->kind == IDS_KIND_NODE && bits > 63)   /* its option is an int64 */
    return bad(e, sp, fn, "a node field is at most 63 bits, not %u", bits);
  x->bits = (uint8_t)bits;
  for (int j = 0; j < k; j++)
    if ((x->kind == IDS_KIND_SEQUENCE || x->kind == IDS_KIND_TIME) &&
        d->s.fields[j].kind == x->kind)
      return bad(e, sp, fn, "a second %s field", x->kind == IDS_KIND_TIME ?
                 "time" : "sequence");
  if (x->kind == IDS_KIND_CONSTANT && bits < 64 && (f->value >> bits))
    return bad(e, sp, fn, "constant %lld does not fit", (long long)f->value);
  if (x->kind == IDS_KIND_TIME) {
    ids_fieldspec whole = *f;
    whole.bits = bits;
    if ((r = timefield(d, sp, &whole, fn, e)) != IDS_OK) return r;
  }
  if (x->kind == IDS_KIND_NODE) {
    ids_optdef *o = &d->genopts[d->s.ngenopts];
    if (d->s.ngenopts++ == IDS_MAXOPTS)
      return bad(e, sp, fn, "more than %d node fields", IDS_MAXOPTS);
    o->name = x->name;
    o->type = IDS_OPT_INT;
    o->max = bits == 63 ? INT64_MAX : ((int64_t)1 << bits) - 1;
  }
  return IDS_OK;
}

/* Shifts (most significant first) and widths, from the entries.  A split
** field's runs are its bits from the most significant down, in layout
** order, or with order "low first" up (UUIDv1's time_low, time_mid,
** time_hi). */
static int layout (defined *d, const entries *en, const ids_defspec *sp,
                   unsigned total, ids_error *e) {
  unsigned shift = total, tbits = 0, sbits = 0;
  ids_kind kind[IDS_MAXFIELDS];
  const char *why;
  for (int i = 0; i < sp->nfields; i++)
    kind[i] = d->s.fields[en->field[i]].once ? IDS_KIND_CONSTANT :
              d->s.fields[en->field[i]].kind;   /* one per generator */
  if ((why = disorder(kind, sp->nfields)) != NULL)
    return bad(e, sp, NULL, "%s", why);
  for (int i = 0; i < sp->nfields; i++) {
    ids_field *f = &d->s.fields[en->field[i]];
    shift -= (unsigned)sp->fields[i].bits;
    f->part[en->part[i]].shift = (uint8_t)shift;
    f->shift = (uint8_t)shift;                  /* its lowest run's */
  }
  for (int k = 0; k < d->s.nfields; k++) {
    ids_field *f = &d->s.fields[k];
    const char *order = en->first[k]->order;
    if (f->nparts == 1) f->nparts = 0;
    else if (order && strcmp(order, "low first") == 0)
      for (int a = 0, b = f->nparts - 1; a < b; a++, b--) {
        uint8_t sh = f->part[a].shift, bi = f->part[a].bits;
        f->part[a] = f->part[b];
        f->part[b].shift = sh;
        f->part[b].bits = bi;
      }
    if (f->nparts == 0) memset(f->part, 0, sizeof f->part);
    if (f->kind == IDS_KIND_TIME) tbits = f->bits;
    if (f->kind == IDS_KIND_SEQUENCE) sbits = f->bits;
  }
  if (tbits + sbits > 127)           /* the generator's state: 128 bits */
    return bad(e, sp, NULL, "time and sequence fields of %u bits in all "
               "(at most 127)", tbits + sbits);
  d->s.bits = (uint16_t)total;
  d->s.bytes = (uint16_t)(sp->bytes ? sp->bytes : (total + 7) / 8);
  if (d->s.bytes < (total + 7) / 8)
    return bad(e, sp, NULL, "bytes %lld cannot hold the fields", sp->bytes);
  return IDS_OK;
}

/* The encodings, made by name (none: dec, hex; hex alone above 64 bits),
** the default first. */
static int encodings (defined *d, const ids_defspec *sp, ids_error *e) {
  static const char *const dflt64[] = {"dec", "hex"}, *const dfltwide[] = {
    "hex"};
  const char *const *en = sp->encodings;
  int n = sp->nencodings, k;
  if (n == 0) {
    en = d->s.bits <= 64 ? dflt64 : dfltwide;
    n = d->s.bits <= 64 ? 2 : 1;
  }
  for (int i = 0; i < n; i++) {
    const char *name = en[i] ? en[i] : "(none)";
    ids_error ce;
    if (ids_codec_make(&d->codecs[i], name, d->s.bits, d->s.bytes, &ce) !=
        IDS_OK)
      return bad(e, sp, NULL, "%s", ce.msg);
    for (int j = 0; j < i; j++)
      if (strcmp(d->codecs[j].codec.name, d->codecs[i].codec.name) == 0)
        return bad(e, sp, NULL, "encoding '%s' given twice", name);
    d->s.codecs[i] = &d->codecs[i].codec;
  }
  d->s.ncodecs = (uint8_t)n;
  if (sp->default_encoding == NULL) return IDS_OK;
  for (k = 0; k < n; k++)
    if (strcmp(d->codecs[k].codec.name, sp->default_encoding) == 0 ||
        (en[k] && strcmp(en[k], sp->default_encoding) == 0))
      break;
  if (k == n)
    return bad(e, sp, NULL, "default encoding '%s' is not one of the "
               "encodings", sp->default_encoding);
  d->s.codecs[k] = d->s.codecs[0];
  d->s.codecs[0] = &d->codecs[k].codec;
  return IDS_OK;
}

/* Whether two schemes are one: the same layout, unit, epoch, codecs and
** operations (a defined scheme's codecs and options follow from its
** fields' names, bits and kinds and its encodings' names). */
static int same (const ids_scheme *a, const ids_scheme *b) {
  if (a->bits != b->bits || a->bytes != b->bytes || a->nfields != b->nfields
      || a->ncodecs != b->ncodecs || a->ngenopts != b->ngenopts
      || a->nparams != b->nparams || a->nquals != b->nquals
      || a->unit.per_sec_num != b->unit.per_sec_num
      || a->unit.per_sec_den != b->unit.per_sec_den
      || a->epoch_ms != b->epoch_ms || a->layout != b->layout
      || a->gen != b->gen || a->open != b->open || a->detect != b->detect
      || !sameabout(a->about, b->about))
    return 0;
  for (int i = 0; i < a->nfields; i++) {
    const ids_field *x = &a->fields[i], *y = &b->fields[i];
    if (strcmp(x->name, y->name) || x->kind != y->kind || x->bits != y->bits
        || x->shift != y->shift || x->value != y->value
        || x->variable != y->variable || x->nparts != y->nparts
        || x->once != y->once || x->carry != y->carry || x->loose != y->loose
        || memcmp(x->part, y->part, sizeof x->part)
        || (x->from == NULL) != (y->from == NULL)
        || (x->from && strcmp(x->from, y->from)))
      return 0;
  }
  for (int i = 0; i < a->ncodecs; i++)
    if (strcmp(a->codecs[i]->name, b->codecs[i]->name)
        || a->codecs[i]->encode != b->codecs[i]->encode
        || a->codecs[i]->decode != b->codecs[i]->decode)
      return 0;
  return 1;
}

int ids_scheme_define (const ids_defspec *sp, const ids_scheme **out,
                       ids_error *e) {
  defined *d;
  entries en;
  unsigned total = 0;
  int r;
  if ((r = checkspec(sp, e)) != IDS_OK) return r;
  if ((d = calloc(1, sizeof *d)) == NULL)
    return ids_fail(e, IDS_ENOMEM, "out of memory");
  for (int i = 0; i < sp->nfields; i++)
    if ((r = oneentry(d, &en, sp, i, &total, e)) != IDS_OK) goto fail;
  for (int k = 0; k < d->s.nfields; k++)
    if ((r = onefield(d, &en, sp, k, e)) != IDS_OK) goto fail;
  if ((r = layout(d, &en, sp, total, e)) != IDS_OK ||
      (r = encodings(d, sp, e)) != IDS_OK)
    goto fail;
  memcpy(d->names[IDS_MAXFIELDS], sp->name, strlen(sp->name) + 1);
  d->s.name = d->names[IDS_MAXFIELDS];
  d->s.genopts = d->genopts;
  keepabout(d, sp->about);
  if (d->s.unit.per_sec_num == 0) d->s.unit = (ids_unit){1000, 1};
  {
    /* the same spec again (a script reloaded: OpenResty with
    ** lua_code_cache off, package.loaded reset) is the scheme it made */
    const ids_scheme *old = ids_scheme_find(sp->name);
    if (old && same(old, &d->s)) {
      free(d);
      *out = old;
      return IDS_OK;
    }
    if (old) {
      r = ids_fail(e, IDS_EEXIST, "scheme '%s' exists already, with "
                   "another spec", sp->name);
      goto fail;
    }
  }
  if ((r = ids_scheme_register(&d->s)) != IDS_OK) {
    if (r == IDS_EINVAL) ids_scheme_check(&d->s, e);        /* says why */
    else r = ids_fail(e, r, "scheme '%s' %s", sp->name, r == IDS_EEXIST ?
                      "exists already" : "cannot be registered: out of "
                      "memory");
    goto fail;
  }
  *out = &d->s;
  return IDS_OK;
fail:
  free(d);
  return r;
}
