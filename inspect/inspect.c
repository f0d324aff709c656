/*
** inspect.c: which scheme wrote this text (inspect.h).  Built on the
** public API alone: ids_scheme_decode, ids_scheme_decompose, the codecs.
*/
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inspect.h"
#include "internal.h"

/* What texts a codec can have been written by, learnt from its own
** output: the length range and the bytes (letters in both cases).  Only
** a prefilter: when it leaves no candidate, every codec is tried
** (aliases such as Crockford's I, L, O are read by the codec). */
typedef struct icodec {
  const ids_codec *c;
  int name;                   /* the encoding's name as a number: equal
                                 names, equal numbers */
  size_t minlen, maxlen;
  uint64_t set[4];
} icodec;

typedef struct ischeme {
  const ids_scheme *s;
  int nc;
  int constbits;              /* bits a decode checks: the more, the surer
                                 (a top bit held 0 says nothing of a
                                 number that is small anyway) */
  int versionbits;            /* version fields' bits: evidence where they
                                 hold their value (a TypeID's v7) */
  int timed;                  /* it has a time field */
  const ids_codec *plain;     /* what its detection says of a bare digit */
  icodec c[IDS_MAXCODECS];
} ischeme;

struct ids_inspector {
  ischeme *k;
  int nk;
  int *sized;                 /* the schemes of other sizes (about.lengths:
                                 nanoid), so that a text is not held up
                                 against the others for them */
  int nsized;
  const char **names;         /* encoding names seen; a name's number is
                                 its index */
  int nnames;
};

/* A candidate with what ranking needs beside it. */
typedef struct cand {
  ids_candidate c;
  const ischeme *k;
  int name;                   /* c.codec's name's number */
  uint64_t dist;              /* |time - now| */
} cand;

/* Plausible: from the format's first IDs to a day ahead (clocks drift;
** IDs are not made in the future).  A time on the epoch's first day is
** what short junk decodes to ("hello" as a Snowflake of 1 ms); a scheme
** of the Unix epoch that does not say when it began: 30 years back. */
#define DAY_MS    86400000ll
#define PAST_MS   (30 * 31556952000ll)
#define AHEAD_MS  DAY_MS

/* ------------------------------------------------------------ learning */

static int namenum (ids_inspector *ins, const char *name) {
  const char **p;
  for (int i = 0; i < ins->nnames; i++)
    if (strcmp(ins->names[i], name) == 0) return i;
  p = realloc(ins->names, (size_t)(ins->nnames + 1) * sizeof *p);
  if (p == NULL) return -1;
  ins->names = p;
  p[ins->nnames] = name;
  return ins->nnames++;
}

static void learn (const ids_scheme *s, icodec *ic) {
  char t[IDS_TEXTMAX];
  ids_value v;
  ic->minlen = SIZE_MAX;
  ic->maxlen = 0;
  memset(ic->set, 0, sizeof ic->set);
  for (int k = 0; k < 258; k++) {
    size_t n;
    if (k == 0) memset(&v, 0, sizeof v);
    else if (k == 1) memset(&v, 0xff, sizeof v);
    else ids_random(&v, sizeof v);
    for (int w = 0; w < 3; w++)       /* keep the scheme's width */
      if (s->bits <= 64 * w) v.w[w] = 0;
      else if (s->bits < 64 * (w + 1))
        v.w[w] &= ((uint64_t)1 << (s->bits - 64 * w)) - 1;
    n = ic->c->encode(ic->c, &v, s->bits, t);
    if (n < ic->minlen) ic->minlen = n;
    if (n > ic->maxlen) ic->maxlen = n;
    for (size_t i = 0; i < n; i++) {
      unsigned char b = (unsigned char)t[i];
      ic->set[b >> 6] |= (uint64_t)1 << (b & 63);
      if ((b | 0x20) >= 'a' && (b | 0x20) <= 'z') {
        b ^= 0x20;
        ic->set[b >> 6] |= (uint64_t)1 << (b & 63);
      }
    }
  }
}

static int addscheme (ids_inspector *ins, const ids_scheme *s) {
  ischeme *k = &ins->k[ins->nk++];
  memset(k, 0, sizeof *k);
  k->s = s;
  for (int i = 0; i < s->nfields; i++) {
    const ids_field *f = &s->fields[i];
    k->timed |= f->kind == IDS_KIND_TIME;
    if (f->kind == IDS_KIND_CONSTANT && f->loose)
      k->versionbits += f->bits;
    else if (f->kind == IDS_KIND_CONSTANT &&
             !(f->value == 0 && f->shift + f->bits == s->bits))
      k->constbits += f->bits;
  }
  k->nc = s->ncodecs;
  k->plain = s->detect ? s->detect(s, "0", 1) : NULL;
  if (s->about && s->about->lengths[1]) {
    int *p = realloc(ins->sized, (size_t)(ins->nsized + 1) * sizeof *p);
    if (p == NULL) return -1;
    ins->sized = p;
    p[ins->nsized++] = ins->nk - 1;
  }
  for (int i = 0; i < s->ncodecs; i++) {
    k->c[i].c = s->codecs[i];
    if ((k->c[i].name = namenum(ins, s->codecs[i]->name)) < 0) return -1;
    learn(s, &k->c[i]);
  }
  return 0;
}

ids_inspector *ids_inspector_new (const ids_scheme *const *schemes,
                                  size_t n, ids_error *e) {
  ids_inspector *ins = calloc(1, sizeof *ins);
  const char **names = NULL;
  if (ins == NULL) goto nomem;
  if (schemes == NULL) {          /* the registry grows only: a count, then
                                     at most that many names */
    n = ids_scheme_list(NULL, 0);
    if ((names = malloc((n ? n : 1) * sizeof *names)) == NULL) goto nomem;
    n = ids_scheme_list(names, n);
  }
  if ((ins->k = malloc((n ? n : 1) * sizeof *ins->k)) == NULL) goto nomem;
  for (size_t i = 0; i < n; i++) {
    ids_error ignored;          /* a scheme that will not open is left out */
    const ids_scheme *s = schemes ? schemes[i] :
                          ids_scheme_open(ids_scheme_find(names[i]), NULL,
                                          &ignored);
    if (s && addscheme(ins, s) != 0) goto nomem;
  }
  free(names);
  return ins;
nomem:
  free(names);
  ids_inspector_free(ins);
  ids_fail(e, IDS_ENOMEM, "inspector: out of memory");
  return NULL;
}

void ids_inspector_free (ids_inspector *ins) {
  if (ins == NULL) return;
  free(ins->k);
  free(ins->names);
  free(ins->sized);
  free(ins);
}

int ids_inspector_encoding (const ids_inspector *ins, const char *enc,
                            size_t len, ids_error *e) {
  char q[IDS_ERRMAX / 2];
  for (int i = 0; i < ins->nk; i++)
    if (ids_codec_find(ins->k[i].s, enc, len)) return IDS_OK;
  ids__quote(q, sizeof q, enc, len);
  if (ins->nk == 1)
    return ids_fail(e, IDS_ENOENT, "unknown encoding '%s' for %s", q,
                    ins->k[0].s->name);
  return ids_fail(e, IDS_ENOENT, "no scheme has encoding '%s'", q);
}

/* ------------------------------------------------------------- ranking */

/* The earliest time a reading of s can plausibly have. */
static int64_t since (const ids_scheme *s, int64_t now) {
  if (s->about && s->about->since_ms) return s->about->since_ms;
  if (s->epoch_ms == 0) return now - PAST_MS;
  return s->epoch_ms + DAY_MS;
}

static int try (const ischeme *k, const ids_codec *c, int marked,
                const char *t, size_t n, cand *out, int64_t now) {
  ids_candidate *o = &out->c;
  int own = 1;                /* every version field holds its value */
  if (ids_scheme_decode(k->s, c, t, n, &o->value, NULL) != IDS_OK) return 0;
  for (int i = 0; i < k->s->nfields && k->versionbits; i++)
    if (k->s->fields[i].loose &&
        ids_field_get(&k->s->fields[i], &o->value) != k->s->fields[i].value)
      own = 0;
  out->k = k;
  o->scheme = k->s;
  o->codec = c;
  out->name = -1;
  for (int j = 0; j < k->nc; j++)
    if (k->c[j].c == c) out->name = k->c[j].name;
  o->marked = marked;
  o->has_time = ids_scheme_time_ms(k->s, &o->value, &o->time_ms);
  if (!o->has_time) o->time_ms = 0;
  o->confirmed = k->timed && own && o->has_time &&
                   o->time_ms >= since(k->s, now) &&
                   o->time_ms <= now + AHEAD_MS;
  /* a value of another version has no time to doubt (a TypeID of a v4) */
  o->plausible = !k->timed || !own || o->confirmed;
  o->constbits = k->constbits + (own ? k->versionbits : 0);
  o->ambiguous = 0;
  o->length = 0;
  out->dist = !o->has_time ? UINT64_MAX :
              o->time_ms > now ? (uint64_t)(o->time_ms - now)
                               : (uint64_t)(now - o->time_ms);
  return 1;
}

/* The text as k's format at another size (nanoid(10)): lengths it may
** have, characters of its first encoding, letters of both cases. */
static int othersize (const ischeme *k, const char *t, size_t n,
                      const uint64_t set[4], cand *out) {
  const ids_about *a = k->s->about;
  const icodec *ic = &k->c[0];
  int upper = 0, lower = 0;
  if (a == NULL || n < a->lengths[0] || n > a->lengths[1] ||
      (n >= ic->minlen && n <= ic->maxlen) ||     /* its own: decoded */
      (set[0] & ~ic->set[0]) || (set[1] & ~ic->set[1]) ||
      (set[2] & ~ic->set[2]) || (set[3] & ~ic->set[3]))
    return 0;
  for (size_t i = 0; i < n; i++) {
    upper |= t[i] >= 'A' && t[i] <= 'Z';
    lower |= t[i] >= 'a' && t[i] <= 'z';
  }
  if (!upper || !lower) return 0;
  memset(out, 0, sizeof *out);
  out->k = k;
  out->c.scheme = k->s;
  out->c.codec = ic->c;
  out->c.plausible = 1;
  out->c.length = (int)n;
  out->name = ic->name;
  out->dist = UINT64_MAX;
  return 1;
}

/* Whether a and b have the same evidence: a mark, a plausible time,
** constant bits that hold, a time confirmed, a value decoded.  What ranks
** them further is only a guess. */
static int tied (const cand *a, const cand *b) {
  return a->c.marked == b->c.marked && a->c.plausible == b->c.plausible &&
         a->c.constbits == b->c.constbits &&
         a->c.confirmed == b->c.confirmed &&
         !a->c.length == !b->c.length;
}

/* Better first: a marked form (FLUID's RFC 19), a time in the plausible
** window, more constant bits that hold (a UUID's version), a time that
** confirms over none to doubt (a lower-case ULID over a TypeID of
** another UUID's version), a decoded value over a text read by its
** alphabet alone, then the guesses:
** the scheme's default form (what a log line most likely holds: a bare
** number is a Snowflake's ID before it is a FLUID's, and a Snowflake's
** decimal ID whose digits happen all to be octal is still decimal), a
** form no other scheme wrote, a time nearer now, the inspector's order. */
static int better (const cand *a, const cand *b) {
  int adef = a->c.codec == a->k->s->codecs[0];
  int bdef = b->c.codec == b->k->s->codecs[0];
  if (a->c.marked != b->c.marked) return a->c.marked > b->c.marked;
  if (a->c.plausible != b->c.plausible)
    return a->c.plausible > b->c.plausible;
  if (a->c.constbits != b->c.constbits)
    return a->c.constbits > b->c.constbits;
  if (a->c.confirmed != b->c.confirmed) return a->c.confirmed > b->c.confirmed;
  if (!a->c.length != !b->c.length) return !a->c.length;
  if (adef != bdef) return adef;
  if (a->c.unique != b->c.unique) return a->c.unique > b->c.unique;
  if (a->dist != b->dist) return a->dist < b->dist;
  return a->k < b->k;
}

/* Every scheme and form that decodes t[0..n) (trimmed), best first;
** returns how many. */
static int candidates (const ids_inspector *ins, const char *t, size_t n,
                       const char *enc, size_t enclen, cand *cs,
                       int64_t now) {
  uint64_t set[4] = {0, 0, 0, 0};
  int nc = 0;
  for (size_t i = 0; i < n; i++)
    set[(unsigned char)t[i] >> 6] |= (uint64_t)1 << ((unsigned char)t[i] & 63);
  for (int pass = 0; pass < 2 && nc == 0; pass++)
    for (int i = 0; i < ins->nk && nc < IDS_INSPECT_MAX; i++) {
      const ischeme *k = &ins->k[i];
      if (enc) {
        const ids_codec *c = ids_codec_find(k->s, enc, enclen);
        if (c && try(k, c, 0, t, n, &cs[nc], now)) nc++;
        continue;
      }
      if (k->s->detect) {       /* a marked form: that one only */
        const ids_codec *c = k->s->detect(k->s, t, n);
        if (c != k->plain) {
          if (try(k, c, 1, t, n, &cs[nc], now)) nc++;
          continue;
        }
      }
      for (int j = 0; j < k->nc && nc < IDS_INSPECT_MAX; j++) {
        const icodec *ic = &k->c[j];
        if (pass == 0 &&
            (n < ic->minlen || n > ic->maxlen ||
             (set[0] & ~ic->set[0]) || (set[1] & ~ic->set[1]) ||
             (set[2] & ~ic->set[2]) || (set[3] & ~ic->set[3])))
          continue;
        if (try(k, ic->c, 0, t, n, &cs[nc], now)) nc++;
      }
    }
  for (int j = 0; j < ins->nsized && nc < IDS_INSPECT_MAX; j++) {
    const ischeme *k = &ins->k[ins->sized[j]];
    if ((enc == NULL || ids_codec_find(k->s, enc, enclen) == k->c[0].c) &&
        othersize(k, t, n, set, &cs[nc]))
      nc++;
  }
  for (int i = 0; i < nc; i++) {
    int same = 0;
    for (int j = 0; j < nc; j++)
      same += cs[j].k != cs[i].k && cs[j].name == cs[i].name;
    cs[i].c.unique = same == 0;
  }
  for (int i = 1; i < nc; i++) {        /* insertion sort: a handful */
    cand x = cs[i];
    int j = i;
    for (; j > 0 && better(&x, &cs[j - 1]); j--) cs[j] = cs[j - 1];
    cs[j] = x;
  }
  for (int i = 1; i < nc && cs[0].c.plausible; i++)  /* a guess? */
    if (cs[i].k != cs[0].k && tied(&cs[i], &cs[0]))
      cs[i].c.ambiguous = cs[0].c.ambiguous = 1;
  return nc;
}

static int isblank_ascii (unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

int ids_inspect (const ids_inspector *ins, const char *text, size_t n,
                 const char *enc, size_t enclen, int64_t now_ms,
                 ids_candidate *out, int max, ids_error *e) {
  cand cs[IDS_INSPECT_MAX];
  const char *t = text;
  size_t tn = n;
  int nc;
  while (tn > 0 && isblank_ascii((unsigned char)*t)) t++, tn--;
  while (tn > 0 && isblank_ascii((unsigned char)t[tn - 1])) tn--;
  nc = tn ? candidates(ins, t, tn, enc, enclen, cs, now_ms) : 0;
  if (nc == 0) {              /* why: the core's words for one scheme */
    ids_value v;
    if (n == 0) return ids_fail(e, IDS_EINVAL, "empty"), 0;
    if (ins->nk == 1 &&
        ids_scheme_decode(ins->k[0].s, enc ? ids_codec_find(ins->k[0].s,
                          enc, enclen) : NULL, text, n, &v, e) != IDS_OK)
      return 0;
    ids_fail(e, IDS_EINVAL, enc ? "no scheme decodes it in that encoding"
                                : "no scheme decodes it");
    return 0;
  }
  if (nc > max) nc = max < 0 ? 0 : max;
  for (int i = 0; i < nc; i++) out[i] = cs[i].c;
  return nc;
}
